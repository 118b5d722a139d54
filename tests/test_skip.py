"""The linear skip term beside the attention, and the normal scores the attention may read
(``linear_skip``, ``score_features="ranks"``): from the objective's gradient to the fitted
estimator."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_friedman1
from sklearn.exceptions import ConvergenceWarning

from _layer_data import assert_weights_are_repeated_rows, layer_data
from _layer_data import layer_problem as _problem
from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV
from sklearn_softattn._geometry import symmetric_root
from sklearn_softattn._layer import initial_params, skip_alone, to_raw, to_working
from sklearn_softattn._problem import build_problem
from sklearn_softattn._ranks import fit_normal_scores, normal_scores

VARIANTS = {
    "skip": dict(linear_skip=True),
    "skip+ranks": dict(linear_skip=True, score_features="ranks"),
    "skip+targets+distance": dict(linear_skip=True, target_tokens=True,
                                  attention_scores="distance"),
    "skip+ranks+local": dict(linear_skip=True, score_features="ranks",
                             attention_scores="distance", n_neighbors=6),
}


def _data(n=40, d=3, q=1, seed=0):
    return layer_data(n, d, q, seed, heavy_tail=True)  # a heavy tail, which the ranks tame


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS.keys())
@pytest.mark.parametrize("preconditioner", ["covariance", None])
@pytest.mark.parametrize("q", [1, 2])
def test_objective_gradient_matches_finite_differences(variant, preconditioner, q,
                                                       numeric_gradient):
    X, Y = _data(q=q)
    problem = _problem(X, Y, preconditioner=preconditioner, **variant)
    objective = problem.objective
    objective.strength, objective.shrinkage = 0.3, 0.2  # both regularizers on
    assert objective.n_skip == 3
    rng = np.random.default_rng(3)
    K = rng.standard_normal((3, 3)) * 0.4  # a general L (or K): not symmetric
    V = rng.standard_normal((q, 3 + (q if variant.get("target_tokens") else 0) + 3))
    for rows in (None, np.array([0, 5, 7])):
        _, grad_K, grad_V = objective(K, V, rows)
        f = lambda: objective(K, V, rows)[0]  # noqa: E731
        np.testing.assert_allclose(grad_K, numeric_gradient(f, K), rtol=1e-5, atol=1e-8)
        np.testing.assert_allclose(grad_V, numeric_gradient(f, V), rtol=1e-5, atol=1e-8)


def _loo_prediction(X, Y, K, V, S, i, params):
    """Row i's prediction by the layer with raw parameters ``(K, V, S)`` over the other
    rows, offsets recomputed without row i: from the definition."""
    keep = np.arange(len(X)) != i
    R = X if params.get("score_features") != "ranks" else normal_scores(
        X, *fit_normal_scores(X, np.ones(len(X))))  # of the features alone: not of y
    Rc, r = R[keep] - R[keep].mean(0), R[i] - R[keep].mean(0)
    y_mean = Y[keep].mean(0)
    scores = Rc @ K.T @ r
    if params.get("attention_scores") == "distance":
        scores -= 0.5 * np.einsum("jd,de,je->j", Rc, K, Rc)
    a = np.exp(scores - scores.max())
    a /= a.sum()
    d = X.shape[1]
    values = Rc @ V[:, :d].T + ((Y[keep] - y_mean) @ V[:, d:].T if V.shape[1] > d else 0)
    return y_mean + a @ values + S @ (X[i] - X[keep].mean(0))


@pytest.mark.parametrize("variant", [v for k, v in VARIANTS.items() if "local" not in k],
                         ids=[k for k in VARIANTS if "local" not in k])
def test_leave_one_out_is_exact(variant):
    """Row i's term of the training objective is the error of the layer fitted without
    row i (offsets included), skip term too, so changing ``y_i`` changes it only through
    ``y_i``."""
    X, Y = _data(n=12, q=2)
    rng = np.random.default_rng(1)
    K = rng.standard_normal((3, 3)) * 0.3
    if variant.get("attention_scores") == "distance":
        K = K.T @ K + 0.1 * np.eye(3)
    V = rng.standard_normal((2, 3 + (2 if variant.get("target_tokens") else 0)))
    S = rng.standard_normal((2, 3))
    for i in (0, 5):
        prediction = _loo_prediction(X, Y, K, V, S, i, variant)
        for shift in (0.0, 7.0):
            Y_changed = Y.copy()
            Y_changed[i] += shift
            problem = _problem(X, Y_changed, **variant)
            K_w, V_w = to_working(K, np.hstack([V, S]), problem)
            if problem.objective.metric:
                K_w = symmetric_root(K_w)
            term = problem.objective(K_w, V_w, rows=np.array([i]))[0]
            assert np.isclose(term, 0.5 * np.sum((prediction - Y_changed[i]) ** 2), rtol=1e-9)
        assert np.allclose(_loo_prediction(X, Y_changed, K, V, S, i, variant), prediction)


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS.keys())
def test_working_and_raw_parameters_are_inverse(variant):
    X, Y = _data(q=2)
    problem = _problem(X, Y, **variant)
    rng = np.random.default_rng(0)
    K = rng.standard_normal((3, 3))
    V = rng.standard_normal((2, 3 + (2 if variant.get("target_tokens") else 0) + 3))
    K1, V1 = to_raw(*to_working(K, V, problem), problem)
    np.testing.assert_allclose(K1, K, atol=1e-12)
    np.testing.assert_allclose(V1, V, atol=1e-12)


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS.keys())
def test_the_linear_limit_is_the_layers_without_a_skip_term(variant):
    X, y = _data(n=60)[0], _data(n=60)[1][:, 0]
    plain = SoftmaxAttentionRegressor(attention_scale=0, shrinkage="auto").fit(X, y)
    skip = SoftmaxAttentionRegressor(attention_scale=0, shrinkage="auto", **variant).fit(X, y)
    np.testing.assert_allclose(skip.coef_, plain.coef_, rtol=1e-10)
    np.testing.assert_allclose(skip.intercept_, plain.intercept_, rtol=1e-10)
    np.testing.assert_allclose(skip.predict(X), plain.predict(X), rtol=1e-10)


def _local(variant):
    """Whether the skip term's spectral start is local (target tokens on the features)."""
    return variant.get("target_tokens", False) and variant.get("score_features") != "ranks"


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS.keys())
def test_the_spectral_start_is_the_ridge_fit_with_local_values_on_target_tokens(variant):
    """The skip term starts at the ridge coefficient. With target tokens on the features
    the values start at ``V_x = -S`` and ``U = I``: the attended targets corrected by the
    linear fit; otherwise at zero, where the start predicts as the linear limit does."""
    X, Y = _data(n=60)
    params = SoftmaxAttentionRegressor(attention_scale=2.0, shrinkage=0.5,
                                       **variant).get_params()
    problem = build_problem(X, Y, np.ones(len(X)), params, np.random.RandomState(0))
    K, V = initial_params(problem, params, None)
    attention, S = problem.objective.split(V)
    assert np.linalg.norm(K) > 0
    linear = SoftmaxAttentionRegressor(attention_scale=0, shrinkage=0.5).fit(X, Y[:, 0])
    np.testing.assert_allclose(S[0], linear.coef_, rtol=1e-10)
    if _local(variant):
        np.testing.assert_array_equal(attention, np.hstack([-S, np.eye(1)]))
    else:
        np.testing.assert_array_equal(attention, 0)


def _start_loss(params, X, Y, values_at_zero=False):
    """The leave-one-out loss at the spectral start (with its values at zero: the
    linear fit beside a silent attention)."""
    problem = build_problem(X, Y, np.ones(len(X)), params, np.random.RandomState(0))
    K, V = initial_params(problem, params, None)
    if values_at_zero:
        V = skip_alone(problem, V)
    K, V = to_working(K, V, problem)
    return problem.objective(symmetric_root(K), V)[0]


@pytest.mark.parametrize("scale", [4.0, 16.0])
def test_the_local_start_fits_nonlinear_data_better_than_the_linear_fit(scale):
    """The local start is a smoother of what the linear fit leaves, corrected for each
    query's offset from the attended rows: on make_friedman1's five features, at a
    sharpness where the isotropic metric resolves them, its leave-one-out loss is well
    below that of the linear fit, which it tends to as the softmax flattens (measured:
    1.64 and 1.00 against 3.47)."""
    X, y = make_friedman1(300, noise=0.0, random_state=0)
    X = X[:, :5]
    params = SoftmaxAttentionRegressor(attention_scale=scale,
                                       **VARIANTS["skip+targets+distance"]).get_params()
    local = _start_loss(params, X, y[:, None])
    linear = _start_loss(params, X, y[:, None], values_at_zero=True)
    assert local < 0.6 * linear, (local, linear)


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS.keys())
def test_attention_weights_and_the_skip_term_reproduce_predict(variant):
    X, Y = _data(n=50, q=2)
    with pytest.warns(ConvergenceWarning):
        model = SoftmaxAttentionRegressor(attention_scale=2.0, max_iter=20, tol=0,
                                          solver="lbfgs", **variant).fit(X, Y)
    X_new = _data(n=7, seed=3)[0]
    X_new[0] = [1e6, -1e6, 1e6]  # far: scores clip or saturate, the skip term extrapolates
    A = model.attention_weights(X_new)
    tokens = model.context_ - model.x_offset_
    if variant.get("score_features") == "ranks":
        tokens = model.attention_tokens(model.context_)  # normal scores
    values = tokens @ model.value_.T
    if model.target_value_ is not None:
        values += (model.context_targets_ - model.y_offset_) @ model.target_value_.T
    skip = (X_new - model.x_offset_) @ model.skip_coef_.T
    np.testing.assert_allclose(model.y_offset_ + A @ values + skip, model.predict(X_new),
                               rtol=1e-9)


@pytest.mark.parametrize("variant", [v for k, v in VARIANTS.items() if "local" not in k],
                         ids=[k for k in VARIANTS if "local" not in k])
@pytest.mark.parametrize("solver", ["gd", "lbfgs"])
def test_integer_weights_equal_repeated_rows(variant, solver):
    """(Local attention's ``n_neighbors`` counts distinct rows: repeats are not weights.)"""
    X, Y = _data(n=30, q=1)
    X[:5, 1] = X[5:10, 1]  # ties, which the normal scores share
    weight = np.random.default_rng(0).integers(1, 4, len(X))
    params = dict(attention_scale=1.0, solver=solver, max_iter=15, tol=0, random_state=0,
                  **variant)
    assert_weights_are_repeated_rows(X, Y[:, 0], weight, _data(n=10, seed=5)[0], **params)


def test_normal_scores_need_the_skip_term_and_neither_has_partial_fit():
    X, y = _data()[0], _data()[1][:, 0]
    with pytest.raises(ValueError, match="score_features='ranks' needs linear_skip=True"):
        SoftmaxAttentionRegressor(score_features="ranks").fit(X, y)
    with pytest.raises(ValueError, match="score_features='ranks' needs linear_skip=True"):
        SoftmaxAttentionRegressorCV(score_features="ranks").fit(X, y)
    for params in (dict(linear_skip=True), dict(linear_skip=True, score_features="ranks")):
        assert not hasattr(SoftmaxAttentionRegressor(**params), "partial_fit")
    model = SoftmaxAttentionRegressor(max_iter=5).fit(X, y)
    model.set_params(linear_skip=True, warm_start=True)
    with pytest.raises(ValueError, match="linear_skip=False"):
        model.fit(X, y)


@pytest.mark.parametrize("case", ["constant", "ties", "outlier"])
@pytest.mark.parametrize("model", [
    SoftmaxAttentionRegressor(linear_skip=True, score_features="ranks", solver="lbfgs",
                              max_iter=30),
    SoftmaxAttentionRegressorCV(score_features="choose", random_state=0),  # both, on the folds
], ids=["ranks", "cv choose"])
def test_awkward_columns_give_finite_predictions(case, model):
    X, y = make_friedman1(200, noise=0.5, random_state=0)
    if case == "constant":
        X[:, 2] = 3.0
    elif case == "ties":
        X[:, 2] = np.where(np.arange(200) < 198, 0.0, X[:, 2])  # 99% at one value
    else:
        X[0, 2] = 1e6 * np.subtract(*np.percentile(X[:, 2], [75, 25]))
    given = X.copy()
    model = clone(model).fit(X, y)
    np.testing.assert_array_equal(X, given)
    far = np.vstack([X[:5], np.full((1, X.shape[1]), -1e8)])
    assert np.all(np.isfinite(model.predict(far)))
    assert model.score(X, y) > 0.5


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_normal_scores_recover_a_target_that_heavy_tails_hide():
    """A distance on features with heavy tails sees only the tails; on their normal
    scores it sees the ranks, as a model invariant to monotone maps would."""
    X, y = make_friedman1(1300, noise=0.5, random_state=0)
    X[:, :5] = np.exp(3 * X[:, :5])
    scores = {}
    for name in ("features", "skip", "skip+ranks"):
        model = SoftmaxAttentionRegressor(attention_scale=1.5, solver="lbfgs", max_iter=60,
                                          random_state=0, **VARIANTS.get(name, {}))
        scores[name] = model.fit(X[:800], y[:800]).score(X[800:], y[800:])
    # measured: 0.62, 0.80 and 0.94
    assert scores["skip+ranks"] > max(scores["features"], scores["skip"]) + 0.1, scores
