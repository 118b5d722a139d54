"""The public attention weights: the softmax over ``context_`` that ``predict`` averages with."""

import numpy as np
import pytest
from sklearn.datasets import make_friedman1
from sklearn.exceptions import NotFittedError
from sklearn.utils import gen_batches

from sklearn_softattn import (
    SoftmaxAttentionRegressor,
    SoftmaxAttentionRegressorCV,
    _attention,
)

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

ESTIMATORS = {
    "base": lambda **kw: SoftmaxAttentionRegressor(1.0, balance_strength=0.0, max_iter=30, random_state=0,
                                                   **kw),
    "cv": lambda **kw: SoftmaxAttentionRegressorCV(attention_scales=[0.01, 1.0], balance_strengths=[0.0],
                                                   cv=3, max_iters=30, additive_end=False,
                                                   random_state=0, **kw),
}


def _data(n_samples=120, n_targets=1, dtype=np.float64):
    X, y = make_friedman1(n_samples, noise=0.5, random_state=0)
    if n_targets > 1:
        y = np.column_stack([y, X[:, 0] * X[:, 1], np.sin(X[:, 2])])[:, :n_targets]
    return X.astype(dtype), y.astype(dtype)


def _reconstructed(est, A):
    """``predict`` rebuilt from the weights: the offset plus the weighted values (with
    target tokens, their target term too)."""
    values = (est.context_ - est.x_offset_) @ est.value_.T
    if est.target_value_ is not None:
        values = values + (est.context_targets_ - est.y_offset_) @ est.target_value_.T
    y = est.y_offset_ + A @ values
    return y.ravel() if np.ndim(est.coef_) == 1 else y


@pytest.mark.parametrize("kind", sorted(ESTIMATORS))
@pytest.mark.parametrize("n_targets", [1, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_weights_reproduce_predict(kind, n_targets, weighted):
    X, y = _data(n_targets=n_targets)
    sample_weight = np.random.default_rng(0).integers(1, 4, len(y)) if weighted else None
    est = ESTIMATORS[kind]().fit(X[:100], y[:100], sample_weight=sample_weight[:100]
                                 if weighted else None)
    A = est.attention_weights(X[100:])
    assert A.shape == (20, est.context_.shape[0])
    assert np.all(A >= 0)
    np.testing.assert_allclose(A.sum(axis=1), 1, rtol=1e-12)
    np.testing.assert_allclose(_reconstructed(est, A), est.predict(X[100:]), rtol=1e-10,
                               atol=1e-10 * np.std(y))


def test_weights_reproduce_predict_clipped_to_the_targets_range():
    X, y = _data()
    far = X[100:] + 3 * (X[100:] - X[:100].mean(axis=0))  # rows past the training radius
    est = SoftmaxAttentionRegressor(1.0, linear_skip=True, extrapolation="targets",
                                    max_iter=30, random_state=0).fit(X[:100], y[:100])
    A = est.attention_weights(far)
    # The skip term reads the rows as they are, the scores as pulled back to the radius.
    unclipped = _reconstructed(est, A) + (far - est.x_offset_) @ est.skip_coef_
    assert np.any(unclipped > est.target_max_) or np.any(unclipped < est.target_min_)
    np.testing.assert_allclose(est.predict(far),
                               np.clip(unclipped, est.target_min_, est.target_max_),
                               rtol=1e-10)


def test_sample_weight_counts_a_row_as_repeats():
    # A row of weight 3 in the context gets three times the softmax mass of an
    # otherwise identical row of weight 1.
    X, y = _data(60)
    X[1], y[1] = X[0], y[0]
    weight = np.ones(len(y))
    weight[1] = 3
    est = ESTIMATORS["base"]().fit(X, y, sample_weight=weight)
    A = est.attention_weights(X[:5])
    np.testing.assert_allclose(A[:, 1], 3 * A[:, 0], rtol=1e-12)


@pytest.mark.parametrize("kind", sorted(ESTIMATORS))
def test_weights_in_float32(kind):
    X, y = _data(dtype=np.float32)
    est = ESTIMATORS[kind]().fit(X[:100], y[:100])
    A = est.attention_weights(X[100:])
    # float32 where the fitted parameters are (the CV estimator's path keeps
    # key_query_ in float64, and so does its predict).
    assert A.dtype == np.result_type(np.float32, est.key_query_) == est.predict(X[:1]).dtype
    np.testing.assert_allclose(A.sum(axis=1), 1, rtol=1e-5)
    # float32 round-off (eps 1.2e-7) on scores of order 10: a relative 1e-5.
    np.testing.assert_allclose(_reconstructed(est, A), est.predict(X[100:]), rtol=1e-5,
                               atol=1e-5 * np.std(y))


@pytest.mark.parametrize("kind", sorted(ESTIMATORS))
def test_weights_over_a_subsampled_context(kind):
    X, y = _data(200)
    est = ESTIMATORS[kind](max_context=50).fit(X[:150], y[:150])
    assert est.context_.shape[0] == 50
    A = est.attention_weights(X[150:])
    assert A.shape == (50, 50)
    np.testing.assert_allclose(_reconstructed(est, A), est.predict(X[150:]), rtol=1e-10,
                               atol=1e-10 * np.std(y))


@pytest.mark.parametrize("top_k", [1, 7, 100])
def test_top_k_agrees_with_the_dense_weights(top_k, monkeypatch):
    X, y = _data()
    est = ESTIMATORS["base"]().fit(X[:100], y[:100])
    # Blocks of at most 16 queries, so that several blocks are filled and the last is partial; the
    # dense weights of the same blocks of rows, since BLAS may round a product of another
    # shape differently in the last bit.
    monkeypatch.setattr("sklearn_softattn._attention._BLOCK_ELEMENTS", 16 * 100)
    rows = _attention._block_rows(len(X), 100)
    dense = np.vstack([est.attention_weights(X[b]) for b in gen_batches(len(X), rows)])
    indices, weights = est.attention_weights(X, top_k=top_k)
    assert indices.shape == weights.shape == (len(X), top_k)
    np.testing.assert_array_equal(weights, np.take_along_axis(dense, indices, axis=1))
    assert np.all(np.diff(weights, axis=1) <= 0)  # by decreasing weight
    np.testing.assert_array_equal(weights, -np.sort(-dense, axis=1)[:, :top_k])
    if top_k == 100:  # every row, once
        np.testing.assert_array_equal(np.sort(indices, axis=1), np.tile(np.arange(100),
                                                                        (len(X), 1)))


@pytest.mark.parametrize("top_k", [0, -1, 101])
def test_top_k_out_of_range(top_k):
    X, y = _data()
    est = ESTIMATORS["base"]().fit(X[:100], y[:100])
    with pytest.raises(ValueError, match="top_k"):
        est.attention_weights(X, top_k=top_k)


def test_top_k_not_an_int():
    X, y = _data()
    est = ESTIMATORS["base"]().fit(X[:100], y[:100])
    with pytest.raises(TypeError, match="top_k"):
        est.attention_weights(X, top_k=2.5)


@pytest.mark.parametrize("kind", sorted(ESTIMATORS))
def test_wrong_number_of_features(kind):
    X, y = _data()
    est = ESTIMATORS[kind]().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        est.attention_weights(X[:, :5])


@pytest.mark.parametrize("kind", sorted(ESTIMATORS))
def test_unfitted(kind):
    with pytest.raises(NotFittedError):
        ESTIMATORS[kind]().attention_weights(np.zeros((2, 10)))


@pytest.mark.parametrize("kind", sorted(ESTIMATORS))
def test_weights_reproduce_predict_on_an_additive_base(kind):
    # predict adds the base's predictions to the attention's; the context targets are
    # what the base leaves.
    from sklearn_softattn._additive import predict_additive

    X, y = _data()
    est = ESTIMATORS[kind](additive_base=True, target_tokens=True,
                           attention_scores="distance").fit(X[:100], y[:100])
    A = est.attention_weights(X[100:])
    base = predict_additive(*est._base, X[100:])[:, 0]
    np.testing.assert_allclose(_reconstructed(est, A) + base, est.predict(X[100:]),
                               rtol=1e-10, atol=1e-10 * np.std(y))
