"""SoftmaxAttentionRegressorCV(context_neighbors=k): a layer fitted on a sampled context
that attends, where its folds score it higher, to the k nearest of every training row."""

import warnings
from dataclasses import replace

import numpy as np
import pytest
from sklearn.datasets import make_friedman1
from sklearn.exceptions import ConvergenceWarning

from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV
from sklearn_softattn._layer import FittedLayer, every_row_context, layer_predict


def _local(n=1500, seed=0):
    """A sharp function of one of two features: its learned attention is local."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, (n, 2))
    return X, np.sin(3 * X[:, 0]) + 0.1 * rng.standard_normal(n)


def _fit(X, y, **params):
    params = {"max_context": 200, "random_state": 0, **params}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return SoftmaxAttentionRegressorCV(**params).fit(X, y)


def _layer(X, y, **params):
    params = {"attention_scale": 3.0, "target_tokens": True, "attention_scores": "distance",
              "solver": "lbfgs", "max_iter": 10, "random_state": 0, **params}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return SoftmaxAttentionRegressor(**params).fit(X, y)


def test_every_row_context_is_the_dense_layer_over_every_row_when_k_keeps_them_all():
    X, y = _local(300)
    layer = _layer(X, y, max_context=50)
    w = np.ones(len(X))
    every = every_row_context(FittedLayer.of(layer), X, y[:, None], w, k=len(X))
    assert every.context is X and every.n_neighbors == len(X)
    np.testing.assert_array_equal(every.key_query, layer.key_query_)
    # k keeping every row: the softmax over every row, computed densely.
    dense = replace(every, n_neighbors=None)
    X_new = _local(100, seed=1)[0]
    np.testing.assert_allclose(layer_predict(every, X_new), layer_predict(dense, X_new),
                               rtol=1e-12, atol=1e-12)
    # Fewer neighbors: another model, not the sampled context's.
    fewer = every_row_context(FittedLayer.of(layer), X, y[:, None], w, k=10)
    assert not np.allclose(layer_predict(fewer, X_new), layer.predict(X_new))


def test_every_row_context_does_not_apply_without_a_softmax_over_a_sample():
    X, y = _local(300)
    w = np.ones(len(X))
    every_row = FittedLayer.of(_layer(X, y, max_context=None))
    assert every_row_context(every_row, X, y[:, None], w, 10) is None
    linear = SoftmaxAttentionRegressor(attention_scale=0, target_tokens=True,
                                       attention_scores="distance", max_context=50).fit(X, y)
    assert every_row_context(FittedLayer.of(linear), X, y[:, None], w, 10) is None
    bilinear = _layer(X, y, max_context=50, attention_scores="bilinear")
    assert every_row_context(FittedLayer.of(bilinear), X, y[:, None], w, 10) is None


def test_folds_choose_every_row_where_attention_is_local():
    X, y = _local()
    X_test, y_test = _local(1000, seed=1)
    sampled = _fit(X, y, context_neighbors=None)
    every = _fit(X, y, context_neighbors=32)
    assert sampled.best_params_["context_neighbors"] is None and len(sampled.context_) == 200
    assert every.best_params_["context_neighbors"] == 32
    np.testing.assert_array_equal(every.context_, X)
    np.testing.assert_array_equal(every.context_targets_.ravel(), y)
    # The same choice of point, the same parameters: only the context differs.
    np.testing.assert_array_equal(every.score_path_, sampled.score_path_)
    np.testing.assert_array_equal(every.key_query_, sampled.key_query_)
    # Scored where the layer has a softmax, NaN at the linear limit and without the option.
    assert np.isnan(every.neighbor_score_path_[0]).all()
    fitted = np.isfinite(every.score_path_[1:])
    assert np.isfinite(every.neighbor_score_path_[1:][fitted]).all()
    assert np.isnan(sampled.neighbor_score_path_).all()
    assert every.score(X_test, y_test) > sampled.score(X_test, y_test) + 0.001
    # predict is the layer over every row with the 32 nearest.
    np.testing.assert_array_equal(every.predict(X_test), layer_predict(FittedLayer.of(every), X_test))


def test_folds_keep_the_sampled_context_where_attention_is_broad():
    # make_friedman1's learned attention is broad: its value term, fitted for the
    # sample, breaks when the queries attend to their nearest rows only.
    X, y = make_friedman1(1500, noise=1.0, random_state=0)
    params = dict(max_context=300, max_iters=(5, 15))
    every = _fit(X, y, context_neighbors=16, **params)
    sampled = _fit(X, y, context_neighbors=None, **params)
    chosen = (np.flatnonzero(every.attention_scales_ == every.best_params_["attention_scale"])[0],
              np.flatnonzero(every.max_iters_ == every.best_params_["max_iter"])[0], 0,
              list(every.shrinkages_).index(every.best_params_["shrinkage"]))
    assert (np.mean(every.neighbor_score_path_[chosen])
            < np.mean(every.score_path_[chosen]))
    assert every.best_params_["context_neighbors"] is None
    np.testing.assert_array_equal(every.predict(X[:50]), sampled.predict(X[:50]))


def test_nothing_to_choose_when_the_context_holds_every_row():
    X, y = _local(150)
    reg = _fit(X, y, context_neighbors=8)
    assert np.isnan(reg.neighbor_score_path_).all()
    assert reg.best_params_["context_neighbors"] is None and len(reg.context_) == len(X)


def test_rows_of_zero_weight_are_no_context_and_fits_repeat():
    X, y = _local()
    w = np.ones(len(X))
    w[::3] = 0
    params = {"max_context": 200, "random_state": 0, "context_neighbors": 32}
    reg = SoftmaxAttentionRegressorCV(**params).fit(X, y, sample_weight=w)
    assert reg.best_params_["context_neighbors"] == 32
    np.testing.assert_array_equal(reg.context_, X[w > 0])
    np.testing.assert_array_equal(reg.context_weight_, w[w > 0])
    again = SoftmaxAttentionRegressorCV(**params, n_jobs=2).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(again.predict(X), reg.predict(X))


def test_duplicate_rows_and_k_beyond_the_rows():
    # Every row five times: many tokens at distance 0, and k larger than a fold's rows.
    X, y = _local(300)
    X, y = np.repeat(X, 5, axis=0), np.repeat(y, 5)
    for k in (4, 10_000):
        reg = _fit(X, y, context_neighbors=k)
        assert np.isfinite(reg.predict(X)).all()
        assert reg.best_params_["context_neighbors"] in (None, k)


def test_rows_that_all_coincide_give_the_mean():
    X, y = np.ones((100, 2)), np.random.default_rng(0).standard_normal(100)
    reg = _fit(X, y, max_context=20, context_neighbors=5)
    assert reg.best_params_["context_neighbors"] is None
    np.testing.assert_allclose(reg.predict(X[:3]), y.mean())


def test_context_neighbors_is_checked():
    X, y = _local(100)
    with pytest.raises(ValueError, match="context_neighbors"):
        SoftmaxAttentionRegressorCV(context_neighbors=0).fit(X, y)
