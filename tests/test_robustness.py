"""Robustness: hostile input, numerical extremes and invariances.

Every fit either raises a ``ValueError``/``TypeError`` that says what is wrong
or gives finite predictions, and never modifies its inputs.
"""

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from sklearn_softattn import (
    PAPER_BASELINE,
    SoftmaxAttentionRegressor,
    SoftmaxAttentionRegressorCV,
)
from sklearn_softattn._attention import attention_weights

CONFIGS = {"default": {}, "baseline": PAPER_BASELINE, "adam": {"solver": "adam"},
           "lbfgs": {"solver": "lbfgs"},
           "linear limit": {"attention_scale": 0.0, "shrinkage": "auto"},
           # The CV estimator's layer: target tokens, distance scores, the sharpness learned.
           "learned sharpness": {"attention_scale": 1.0, "target_tokens": True,
                                 "attention_scores": "distance", "solver": "lbfgs",
                                 "renormalize": False}}
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


def make_estimator(config, **params):
    """A fast estimator: a few iterations are enough to exercise every code path."""
    params = {"max_iter": 5, "random_state": 0, **CONFIGS[config], **params}
    return SoftmaxAttentionRegressor(**params)


def make_data(n=30, d=3, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.standard_normal((n, d))
    y = X @ np.linspace(1, -1, d) + np.sin(X[:, 0]) + 0.1 * rng.standard_normal(n)
    return X, y


def copies(*arrays):
    return [None if a is None else a.copy() for a in arrays]


def assert_unchanged(originals, arrays):
    for original, array in zip(originals, arrays):
        if original is None:
            continue
        if hasattr(original, "equals"):  # pandas
            assert original.equals(array)
        elif sp.issparse(original):
            assert (original != array).nnz == 0
        else:
            np.testing.assert_array_equal(np.asarray(original), np.asarray(array))


def fit_predict(estimator, X, y, sample_weight=None, X_test=None):
    """Fit and predict, checking that the inputs are left unchanged."""
    X_test = X if X_test is None else X_test
    originals = copies(X, y, sample_weight, X_test)
    estimator.fit(X, y, sample_weight=sample_weight)
    y_pred = estimator.predict(X_test)
    assert_unchanged(originals, [X, y, sample_weight, X_test])
    return y_pred


def assert_finite_fit(estimator, X, y, sample_weight=None, X_test=None):
    y_pred = fit_predict(estimator, X, y, sample_weight, X_test)
    assert y_pred.shape[0] == np.shape(X if X_test is None else X_test)[0]
    assert np.all(np.isfinite(y_pred))
    return y_pred


def assert_clear_error(estimator, X, y, error, match, sample_weight=None):
    originals = copies(X, y, sample_weight)
    with pytest.raises(error, match=match):
        estimator.fit(X, y, sample_weight=sample_weight)
    assert_unchanged(originals, [X, y, sample_weight])


# --- numerical safety of the kernel ------------------------------------------


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_attention_weights_extreme_finite_scores(sign):
    # Scores of +-1e300 and 0: finite inputs, one winning token.
    Zq = np.array([[sign * 1e150]])
    KZc = np.array([[1e150], [-1e150], [0.0]])
    A = attention_weights(Zq, KZc, np.zeros(3))
    expected = [1.0, 0.0, 0.0] if sign > 0 else [0.0, 1.0, 0.0]
    np.testing.assert_array_equal(A, [expected])


def test_attention_weights_overflowing_scores():
    # Each score overflows float64 (1e310 and 1e309), yet the inputs are
    # finite: the weights are those of the limit, a hard maximum.
    Zq = np.array([[1e300], [-1e300], [1e-10]])
    KZc = np.array([[1e10], [1e9], [0.0]])
    with np.errstate(over="raise", invalid="raise"):
        A = attention_weights(Zq, KZc, np.zeros(3))
    np.testing.assert_array_equal(A[:2], [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    # A query that does not overflow keeps the ordinary softmax.
    np.testing.assert_allclose(A[2], attention_weights(Zq[2:], KZc, np.zeros(3))[0])
    assert A[2, 0] > A[2, 1] > A[2, 2] > 0


def test_attention_weights_overflow_guard_keeps_weights_and_masks():
    # Both queries' score bounds overflow (1e300 * 1e10). The first query's
    # scores are all 0: the guard must leave the weighted softmax intact.
    Zq = np.array([[1e300, 0.0], [0.0, 1e300]])
    KZc = np.array([[0.0, 1e10], [0.0, -1e10], [0.0, -2e10]])
    log_w = np.log([1.0, 3.0, 2.0])
    # The weights exp(log w_j - log 3), normalized: numpy's log and exp (its own SIMD
    # versions on some CPUs, libm's on others) within 2 ulp each, and the sum and
    # division, leave each within some 9 eps of the fraction.
    rtol = 16 * np.finfo(float).eps
    A = attention_weights(Zq, KZc, log_w)
    np.testing.assert_allclose(A, [[1 / 6, 0.5, 1 / 3], [1.0, 0.0, 0.0]], rtol=rtol)
    # A masked own token gets weight exactly zero, even with the top score.
    A = attention_weights(
        Zq, KZc, log_w, self_index=np.array([0, 0]), log_self=np.array([-np.inf, -np.inf])
    )
    np.testing.assert_allclose(A, [[0.0, 0.6, 0.4], [0.0, 1.0, 0.0]], rtol=rtol)
    assert A[0, 0] == A[1, 0] == A[1, 2] == 0.0



# --- bad input: a clear error ---------------------------------------------------


def _with(X, i, j, value, dtype=None):
    X = X.astype(dtype or X.dtype)
    X[i, j] = value
    return X


X0, y0 = make_data()

BAD_INPUTS = {
    "nan_in_X": (_with(X0, 3, 1, np.nan), y0, None, ValueError, "Input X contains NaN"),
    "inf_in_X": (_with(X0, 3, 1, np.inf), y0, None, ValueError, "Input X contains infinity"),
    "nan_in_y": (X0, _with(y0[:, None], 2, 0, np.nan)[:, 0], None, ValueError,
                 "Input y contains NaN"),
    "inf_in_y": (X0, _with(y0[:, None], 2, 0, -np.inf)[:, 0], None, ValueError,
                 "Input y contains infinity"),
    "string_column": (_with(X0, 0, 0, "a", object), y0, None, ValueError,
                      "could not convert string to float"),
    "complex_X": (X0 + 1j, y0, None, ValueError, "Complex data not supported"),
    "complex_y": (X0, y0 + 1j, None, ValueError, "Complex data not supported"),
    "string_y": (X0, np.array(["a"] * len(y0)), None, ValueError, "could not convert"),
    "sparse_csr": (sp.csr_matrix(X0), y0, None, TypeError,
                   "Sparse data was passed.*dense data is required.*toarray"),
    "sparse_array": (sp.csr_array(X0), y0, None, TypeError, "dense data is required"),
    "empty": (np.empty((0, 3)), np.empty(0), None, ValueError, "0 sample"),
    "no_features": (np.empty((30, 0)), y0, None, ValueError, "0 feature"),
    "one_sample": (X0[:1], y0[:1], None, ValueError, "n_samples=1"),
    "mismatched_lengths": (X0, y0[:-1], None, ValueError,
                           "inconsistent numbers of samples"),
    "3d_X": (X0[:, :, None], y0, None, ValueError, "dim 3"),
    "1d_X": (X0[:, 0], y0, None, ValueError, "Expected 2D array, got 1D array"),
    "3d_y": (X0, y0[:, None, None], None, ValueError, r"y must be 1-D .* 3 dimensions"),
    "negative_weight": (X0, y0, _with(np.ones((30, 1)), 4, 0, -1.0)[:, 0], ValueError,
                        "Negative values in data passed to `sample_weight`"),
    "nan_weight": (X0, y0, _with(np.ones((30, 1)), 4, 0, np.nan)[:, 0], ValueError,
                   "sample_weight contains NaN"),
    # scikit-learn >= 1.9 rejects all-zero weights itself; before, our own check does.
    "all_zero_weights": (X0, y0, np.zeros(30), ValueError,
                         "at least one non-zero|n_samples=0 with positive weight"),
    "one_positive_weight": (X0, y0, np.eye(30)[0], ValueError,
                            "n_samples=1 with positive weight"),
    "wrong_weight_length": (X0, y0, np.ones(29), ValueError, "sample_weight.shape"),
    "X_spread_too_large": (X0 * 1e160, y0, None, ValueError,
                           "X deviates from its mean by up to .*e\\+160.*Rescale X"),
    "X_spread_too_small": (X0 * 1e-160, y0, None, ValueError,
                           "X deviates from its mean by up to .*e-160.*Rescale X"),
    "X_overflowing_mean": (np.vstack([X0, [1.7e308] * 3, [1.7e308] * 3]),
                           np.r_[y0, 0, 0], None, ValueError, "X deviates from its mean"),
    "y_spread_too_large": (X0, y0 * 1e160, None, ValueError,
                           "y deviates from its mean by up to .*Rescale y"),
    "y_spread_too_small": (X0, y0 * 1e-160, None, ValueError,
                           "y deviates from its mean by up to .*Rescale y"),
}


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_raises_clear_error(config, case):
    X, y, sample_weight, error, match = BAD_INPUTS[case]
    assert_clear_error(make_estimator(config), X, y, error, match, sample_weight)


def test_early_stopping_needs_two_training_rows():
    X, y = make_data(n=2)
    assert_clear_error(
        make_estimator("default", early_stopping=True), X, y, ValueError,
        "early_stopping.*at least 2 are needed",
    )


@pytest.mark.parametrize("config", CONFIGS)
def test_predict_wrong_feature_count(config):
    X, y = make_data()
    estimator = make_estimator(config).fit(X, y)
    for X_test in (X[:, :2], np.c_[X, X[:, 0]]):
        with pytest.raises(ValueError, match="features, but SoftmaxAttentionRegressor "
                           "is expecting 3 features"):
            estimator.predict(X_test)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        estimator.predict(_with(X, 0, 0, np.nan))
    with pytest.raises(TypeError, match="dense data is required"):
        estimator.predict(sp.csr_matrix(X))


def test_predict_wrong_feature_names():
    pd = pytest.importorskip("pandas")
    X, y = make_data()
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    estimator = make_estimator("default").fit(frame, y)
    np.testing.assert_array_equal(estimator.feature_names_in_, ["a", "b", "c"])
    with pytest.raises(ValueError, match="Feature names unseen at fit time:\n- d"):
        estimator.predict(frame.rename(columns={"c": "d"}))
    with pytest.raises(ValueError, match="Feature names must be in the same order"):
        estimator.predict(frame[["b", "a", "c"]])
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        estimator.predict(X)
    original = frame.copy()
    y_pred = estimator.predict(frame)
    assert original.equals(frame)
    assert np.all(np.isfinite(y_pred))


def test_pandas_string_column():
    pd = pytest.importorskip("pandas")
    X, y = make_data()
    frame = pd.DataFrame({"a": X[:, 0], "b": ["x"] * len(y)})
    assert_clear_error(make_estimator("default"), frame, y, ValueError,
                       "could not convert string to float")


# --- awkward but valid input: finite predictions --------------------------------


def _fortran(X):
    return np.asfortranarray(X)


def _read_only(X):
    X = X.copy()
    X.flags.writeable = False
    return X


X1, y1 = make_data(seed=1)
rng = np.random.RandomState(2)

VALID_INPUTS = {
    "two_samples": (X1[:2], y1[:2], None),
    "three_samples": (X1[:3], y1[:3], None),
    "one_feature": (X1[:, :1], y1, None),
    "constant_column": (np.c_[X1, np.full(30, 7.0)], y1, None),
    "duplicated_column": (np.c_[X1, X1[:, 1]], y1, None),
    "all_columns_constant": (np.full((30, 3), 0.1), y1, None),
    "constant_y": (X1, np.full(30, -2.5), None),
    "duplicated_rows": (np.r_[X1, X1], np.r_[y1, y1], None),
    "more_features_than_samples": (rng.standard_normal((6, 20)), rng.standard_normal(6),
                                   None),
    "X_near_1e150": (X1 * 1e150, y1, None),
    "X_near_1e-150": (X1 * 1e-150, y1, None),
    "X_offset_1e150": (X1 + 1e150, y1, None),
    "y_near_1e150": (X1, y1 * 1e150, None),
    "y_near_1e-150": (X1, y1 * 1e-150, None),
    "mixed_column_scales": (X1 * [1e-100, 1.0, 1e100], y1, None),
    "int_X": (np.round(X1 * 10).astype(np.int64), y1, None),
    "int_y": (X1, np.round(y1 * 10).astype(np.int32), None),
    "bool_X": (X1 > 0, y1, None),
    "float32": (X1.astype(np.float32), y1.astype(np.float32), None),
    "object_numbers": (X1.astype(object), y1.astype(object), None),
    "list_input": (X1.tolist(), y1.tolist(), None),
    "fortran_order": (_fortran(X1), y1, None),
    "read_only": (_read_only(X1), _read_only(y1), _read_only(np.ones(30))),
    "2d_y": (X1, np.c_[y1, -y1, y1**2], None),
    "2d_y_one_column": (X1, y1[:, None], None),
    "zero_weights": (X1, y1, np.r_[np.zeros(10), np.ones(20)]),
    "integer_weights": (X1, y1, np.arange(30) % 3),
    "tiny_and_huge_weights": (X1, y1, np.r_[np.full(15, 1e-200), np.full(15, 1e200)]),
}


def _expected_divergence(config, case):
    # Plain SGD on raw features or targets of size 1e150 cannot take a finite
    # step: the gradient in K scales like their square (and on raw features the
    # random start's predictions overflow). It must say so.
    return config == "baseline" and case in ("X_near_1e150", "y_near_1e150",
                                             "mixed_column_scales")


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("case", VALID_INPUTS)
def test_valid_input_gives_finite_predictions(config, case):
    X, y, sample_weight = VALID_INPUTS[case]
    estimator = make_estimator(config)
    if _expected_divergence(config, case):
        with pytest.raises(ValueError, match="[Ss]tandardize the features"):
            fit_predict(estimator, X, y, sample_weight)
        return
    y_pred = assert_finite_fit(estimator, X, y, sample_weight)
    assert y_pred.shape == np.shape(y)
    assert np.all(np.isfinite(estimator.key_query_))
    assert np.all(np.isfinite(estimator.value_))
    assert np.all(np.isfinite(estimator.coef_))


# scikit-learn's finiteness check sums X, which overflows for the farthest rows.
@pytest.mark.filterwarnings("ignore:invalid value encountered in reduce:RuntimeWarning")
@pytest.mark.parametrize("config", [c for c in CONFIGS if c != "linear limit"])
def test_predict_far_from_training_data_is_finite(config):
    # With extrapolation="continue" (no pull back to data_radius_), the scores of
    # queries far outside the data grow with their distance and, for rows of
    # nearly float64's largest entry, overflow it; predictions must stay finite
    # and the softmax becomes a hard maximum: each prediction is the value of
    # the context row with the largest score, bit for bit up to round-off. (Distance
    # scores add a key bias, -½ c_jᵀ K c_j, which does not grow with the query.)
    X, y = make_data()
    estimator = make_estimator(config, attention_scale=3.0, extrapolation="continue").fit(X, y)
    Zc = estimator.context_ - estimator.x_offset_
    KZc = Zc @ estimator.key_query_.T
    values = estimator.y_offset_ + Zc @ estimator.value_.T  # (m, 1), one target
    # The kernel sums each value's terms in another order: round-off of their sizes.
    sizes = np.abs(estimator.y_offset_) + np.abs(Zc) @ np.abs(estimator.value_.T)
    if estimator.target_value_ is not None:
        targets = estimator.context_targets_ - estimator.y_offset_
        values += targets @ estimator.target_value_.T
        sizes += np.abs(targets) @ np.abs(estimator.target_value_.T)
    largest = np.finfo(np.float64).max / np.abs(X).max()
    for scale in (1e10, 1e150, 1e300, 0.5 * largest, 0.99 * largest):
        X_far = X * scale
        # The same scores divided by scale (no overflow): same arg-max, and its
        # margin over the runner-up is far above round-off.
        unit_scores = (X - estimator.x_offset_ / scale) @ KZc.T
        top_two = np.sort(unit_scores, axis=1)[:, -2:]
        assert np.all(top_two[:, 1] - top_two[:, 0] > 1e-6 * np.abs(top_two).max())
        if scale > 1e300:
            with np.errstate(over="ignore", invalid="ignore"):
                raw_scores = (X_far - estimator.x_offset_) @ KZc.T
            assert np.isinf(raw_scores).any(), "these rows' scores must overflow float64"
        y_pred = estimator.predict(X_far)
        assert np.all(np.isfinite(y_pred))
        np.testing.assert_allclose(y_pred, values[np.argmax(unit_scores, axis=1), 0],
                                   rtol=1e-14, atol=1e-14 * sizes.max())


def test_linear_limit_predicts_far_rows_linearly():
    # attention_scale=0 has no softmax: far rows get the linear model's
    # prediction, whatever the extrapolation (it does not clip).
    X, y = make_data()
    for extrapolation in ("clip", "continue"):
        estimator = make_estimator("linear limit", extrapolation=extrapolation).fit(X, y)
        assert not np.any(estimator.key_query_)
        for scale in (1e10, 1e150, 1e300):
            y_pred = estimator.predict(X * scale)
            assert np.all(np.isfinite(y_pred))
            np.testing.assert_allclose(
                y_pred, (X * scale) @ estimator.coef_ + estimator.intercept_, rtol=1e-12)


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("value", [1.0, 0.1, 1e150])
def test_constant_features_predict_the_mean(config, value):
    # Constant columns are centered exactly (no round-off feature), and an
    # all-zero covariance does not blow up the key-query matrix.
    X, y = make_data()
    estimator = make_estimator(config, attention_scale=10.0)
    y_pred = assert_finite_fit(estimator, np.full_like(X, value), y, X_test=X)
    np.testing.assert_allclose(y_pred, np.mean(y), rtol=1e-12)
    assert np.all(np.isfinite(estimator.key_query_))


# --- numerical safety of the solvers ---------------------------------------------


@pytest.mark.parametrize("params", [{}, {"preconditioner": None, "renormalize": False},
                                    {**PAPER_BASELINE, "solver": "gd"}])
def test_gd_shrinks_steps_that_increase_the_objective(params):
    # A learning rate of 1e6 would explode; step halving keeps the loss curve
    # non-increasing (to the descent test's relative slack of 1e-12).
    X, y = make_data(n=40)
    estimator = make_estimator("default", **params, learning_rate=1e6, max_iter=30)
    y_pred = assert_finite_fit(estimator, X, y)
    curve = np.array(estimator.loss_curve_)
    assert np.all(np.isfinite(curve))
    assert np.all(np.diff(curve) <= 1e-12 * np.abs(curve[:-1]))
    assert np.all(np.isfinite(y_pred))


MINIBATCH_DIVERGED = (r"^The training objective kept increasing after halving the learning "
                      r"rate 40 times\. Lower learning_rate, keep renormalize=True or "
                      r"standardize the features\.$")


# What each case does (run on this data): at 1e3 and 1e8 the minibatch solvers
# halve the learning rate until an epoch no longer doubles the objective and
# finish all 5 epochs with finite parameters; at 1e300 forty halvings
# (a factor ~1e-12) are not enough and fit raises, naming learning_rate.
@pytest.mark.parametrize("config", ["baseline", "adam"])
@pytest.mark.parametrize("learning_rate, diverges", [(1e3, False), (1e8, False), (1e300, True)])
def test_minibatch_huge_learning_rate_never_returns_nan(config, learning_rate, diverges):
    X, y = make_data(n=40)
    estimator = make_estimator(config, learning_rate=learning_rate)
    if diverges:
        assert_clear_error(estimator, X, y, ValueError, MINIBATCH_DIVERGED)
        return
    y_pred = fit_predict(estimator, X, y)
    assert estimator.n_iter_ == 5
    # The step that made it finite: the given rate halved at least once.
    halvings = np.log2(learning_rate / estimator._optimizer.learning_rate)
    assert halvings >= 1 and halvings == round(halvings)
    assert np.all(np.isfinite(y_pred))
    assert np.all(np.isfinite(estimator.key_query_))
    assert np.all(np.isfinite(estimator.value_))
    assert np.all(np.isfinite(estimator.loss_curve_))


def test_convergence_warning_says_what_to_change():
    X, y = make_data()
    message = r"maximum iterations \(1\) reached.*Increase max_iter"
    with pytest.warns(ConvergenceWarning, match=message):
        make_estimator("default", max_iter=1, tol=0).fit(X, y)


# --- invariances -------------------------------------------------------------------
# Measured: these hold to ~1e-15..7e-14 (relative to the largest prediction)
# after 50 iterations; 1e-10 leaves room for round-off amplified by training.
INVARIANCE_RTOL = 1e-10


def assert_same_predictions(actual, expected, rtol=INVARIANCE_RTOL):
    np.testing.assert_allclose(actual, expected, rtol=0, atol=rtol * np.max(np.abs(expected)))


def invariance_data(seed=0, n=40, d=4):
    rng = np.random.RandomState(seed)
    X = rng.standard_normal((n, d)) * [1.0, 3.0, 0.5, 2.0][:d]
    y = np.sin(X[:, 0]) + 0.3 * X[:, 1] * X[:, 2] + 0.1 * rng.standard_normal(n)
    return X, y, rng.standard_normal((10, d)), rng


def invariance_estimator(**params):
    return SoftmaxAttentionRegressor(max_iter=50, random_state=0, **params)


@pytest.mark.parametrize("solver", ["gd", "lbfgs"])
@pytest.mark.parametrize("c", [1e-100, 1e-3, 7.3, 1e5, 1e100])
def test_scaling_y_scales_predictions(c, solver):
    # gd's block steps and L-BFGS's variables are invariant to the scale of y
    # (and the regularizer and stopping rules are scaled by the loss of the mean).
    X, y, X_test, _ = invariance_data()
    expected = invariance_estimator(solver=solver).fit(X, y).predict(X_test)
    actual = invariance_estimator(solver=solver).fit(X, c * y).predict(X_test)
    assert_same_predictions(actual / c, expected)


@pytest.mark.parametrize("solver", ["gd", "lbfgs"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_linear_map_of_X_leaves_predictions_unchanged(seed, solver):
    # With the covariance preconditioner, an invertible affine map x -> A x + b
    # becomes a rotation of the whitened features, under which spectral
    # initialization, the steps, the regularizer and renormalization are
    # equivariant.
    X, y, X_test, rng = invariance_data(seed)
    A = rng.standard_normal((4, 4)) + 3 * np.eye(4)
    assert np.linalg.cond(A) < 50
    b = 5 * rng.standard_normal(4)
    expected = invariance_estimator(solver=solver).fit(X, y).predict(X_test)
    actual = invariance_estimator(solver=solver).fit(X @ A + b, y).predict(X_test @ A + b)
    # L-BFGS is equivariant too, but its curvature pairs amplify round-off more
    # than gd's steps: measured up to 5e-7 after 41 iterations (seed 1).
    assert_same_predictions(actual, expected, rtol=INVARIANCE_RTOL if solver == "gd" else 1e-5)


def test_linear_map_matters_without_preconditioner():
    # The contrast: without the preconditioner the fit depends on the
    # coordinates (that is the preconditioner's point).
    X, y, X_test, rng = invariance_data()
    A = rng.standard_normal((4, 4)) + 3 * np.eye(4)
    expected = invariance_estimator(preconditioner=None).fit(X, y).predict(X_test)
    actual = invariance_estimator(preconditioner=None).fit(X @ A, y).predict(X_test @ A)
    assert np.max(np.abs(actual - expected)) > 1e-6 * np.max(np.abs(expected))


@pytest.mark.parametrize("params", [{}, {"preconditioner": None}])
def test_permuting_training_rows_leaves_predictions_unchanged(params):
    # Full context (n < max_context) and full-batch gd: the rows are a set.
    # Minibatch solvers visit rows in a seeded order, so they are not invariant.
    X, y, X_test, rng = invariance_data()
    perm = rng.permutation(len(y))
    expected = invariance_estimator(**params).fit(X, y).predict(X_test)
    actual = invariance_estimator(**params).fit(X[perm], y[perm]).predict(X_test)
    assert_same_predictions(actual, expected)


@pytest.mark.parametrize("params", [{}, {"preconditioner": None}, {"solver": "adam"}])
def test_permuting_feature_columns_leaves_predictions_unchanged(params):
    # Spectral initialization is equivariant to relabelling features (a random
    # initialization is not: its K is drawn in the given coordinates).
    X, y, X_test, rng = invariance_data()
    perm = rng.permutation(X.shape[1])
    expected = invariance_estimator(**params).fit(X, y).predict(X_test)
    actual = invariance_estimator(**params).fit(X[:, perm], y).predict(X_test[:, perm])
    assert_same_predictions(actual, expected)


@pytest.mark.parametrize("config", CONFIGS)
def test_pickle_round_trip_and_clone_refit_are_identical(config):
    X, y, X_test, _ = invariance_data()
    estimator = make_estimator(config, max_iter=20).fit(X, y)
    expected = estimator.predict(X_test)
    restored = pickle.loads(pickle.dumps(estimator))
    np.testing.assert_array_equal(restored.predict(X_test), expected)
    refit = clone(estimator).fit(X, y)
    np.testing.assert_array_equal(refit.predict(X_test), expected)
    np.testing.assert_array_equal(refit.loss_curve_, estimator.loss_curve_)


# ---------------------------------------------------------------- found by a fuzz
# Each test below is built from a reproducer of a fuzz of both estimators over
# target tokens, distance scores, local attention, the sampled context, the
# hold-out, the iteration counts, L-BFGS and sample weights.

def fuzz_data(n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    return X, np.sin(2 * X[:, 0]) + 0.1 * rng.standard_normal(n)


def test_float32_query_at_the_linear_limit_is_finite():
    X, y = fuzz_data()
    y = (X @ [1.0, 2.0, -1.0] + 0.1 * y) * 1e40  # beyond float32's range
    model = SoftmaxAttentionRegressor(attention_scale=0.0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        y32 = model.predict(X[:3].astype(np.float32))
    np.testing.assert_allclose(y32, model.predict(X[:3]), rtol=1e-6)


LAYERS = [
    {"init": "random", "solver": "lbfgs"},
    {"target_tokens": True, "attention_scores": "distance", "solver": "lbfgs",
     "renormalize": False, "attention_scale": 1.0},
    {"attention_scores": "distance", "n_neighbors": 12},
]


@pytest.mark.parametrize("weight", [1e-200, 1e200])
@pytest.mark.parametrize("shrinkage", [0.0, 10.0, "auto"])
@pytest.mark.parametrize("params", LAYERS)
def test_extreme_uniform_weights(weight, shrinkage, params):
    # A weight counts a row that many times, so equal weights below 1 are the
    # unweighted fit (each row's own token is left out whole), but for the ridge
    # penalty, which is relative to their sum, as Ridge's alpha is.
    X, y = fuzz_data()
    sample_weight = np.full(len(X), weight)

    def fit(sample_weight):
        model = SoftmaxAttentionRegressor(random_state=0, max_iter=20, shrinkage=shrinkage,
                                          **params)
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            warnings.simplefilter("ignore", ConvergenceWarning)
            return fit_predict(model, X, y, sample_weight)

    y_pred = fit(sample_weight)
    assert np.all(np.isfinite(y_pred))
    if weight < 1 and shrinkage == 0:
        np.testing.assert_allclose(y_pred, fit(None), rtol=1e-6, atol=1e-6 * np.std(y))


@pytest.mark.parametrize("weights", ["tiny", "huge", "spanning"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_weights_beyond_the_data_dtype(weights, dtype):
    X, y = fuzz_data()
    sample_weight = {"tiny": np.full(len(X), 1e-200), "huge": np.full(len(X), 1e200),
                     "spanning": 10.0 ** np.random.default_rng(3).uniform(-200, 200, len(X))
                     }[weights]
    for estimator in (SoftmaxAttentionRegressor(shrinkage="auto", random_state=0),
                      SoftmaxAttentionRegressorCV(random_state=0),
                      SoftmaxAttentionRegressorCV(n_neighbors=12, random_state=0)):
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            warnings.simplefilter("ignore", ConvergenceWarning)
            assert_finite_fit(estimator, X.astype(dtype), y, sample_weight)


@pytest.mark.parametrize("scale, dtype", [(1e50, np.float64), (1e10, np.float32)])
def test_no_preconditioner_with_lbfgs_on_unscaled_features(scale, dtype):
    # A random start in raw units predicts on the features' scale: a clear error.
    X, y = fuzz_data()
    estimator = SoftmaxAttentionRegressor(init="random", preconditioner=None,
                                          solver="lbfgs", random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert_clear_error(estimator, (X * scale).astype(dtype), y, ValueError,
                           r"not finite at the initial point.*preconditioner='covariance'")
    assert_finite_fit(SoftmaxAttentionRegressor(init="random", solver="lbfgs", random_state=0),
                      (X * scale).astype(dtype), y)


def test_n_jobs_zero_is_rejected_by_name():
    X, y = fuzz_data()
    with pytest.raises(ValueError, match="The 'n_jobs' parameter"):
        SoftmaxAttentionRegressorCV(n_jobs=0).fit(X, y)


def test_zero_weight_rows_do_not_move_the_path_start():
    # Past max_context rows the start's spacing is measured on a sample of the rows:
    # rows of zero weight must not be among those drawn.
    X, y = fuzz_data(n=60)
    sample_weight = np.r_[np.ones(40), np.zeros(20)]
    fitted = SoftmaxAttentionRegressorCV(max_context=30, random_state=0, max_iters=5,
                                         cv=3).fit(X, y, sample_weight)
    dropped = SoftmaxAttentionRegressorCV(max_context=30, random_state=0, max_iters=5,
                                          cv=3).fit(X[:40], y[:40])
    np.testing.assert_allclose(fitted.attention_scales_, dropped.attention_scales_)
