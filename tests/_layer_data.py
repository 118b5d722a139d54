"""Small data sets and training problems of the layer, shared by the tests of the
in-context layer and of the skip term."""

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from sklearn_softattn import SoftmaxAttentionRegressor
from sklearn_softattn._problem import build_problem


def layer_data(n=40, d=3, q=1, seed=0, heavy_tail=False):
    """``(X, Y)``: features of three scales and a smooth target of ``q`` outputs; with
    ``heavy_tail``, the first feature exponentiated."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * [1.0, 3.0, 0.5][:d]
    if heavy_tail:
        X[:, 0] = np.exp(X[:, 0])
    Y = np.sin(X @ rng.standard_normal((d, q))) + 0.1 * rng.standard_normal((n, q))
    return X, Y


def layer_problem(X, Y, weight=None, **params):
    """The training problem ``SoftmaxAttentionRegressor(**params)`` builds."""
    params = SoftmaxAttentionRegressor(**params).get_params()
    weight = np.ones(len(X)) if weight is None else weight
    return build_problem(X, Y, weight, params, np.random.RandomState(0))


def assert_weights_are_repeated_rows(X, y, weight, X_new, **params):
    """``SoftmaxAttentionRegressor(**params)`` fitted with integer ``weight`` predicts on
    ``X_new`` as when fitted on the rows repeated that many times (both fits stop at
    ``max_iter``, with a ConvergenceWarning)."""
    with pytest.warns(ConvergenceWarning):
        weighted = SoftmaxAttentionRegressor(**params).fit(X, y, sample_weight=weight)
    with pytest.warns(ConvergenceWarning):
        repeated = SoftmaxAttentionRegressor(**params).fit(np.repeat(X, weight, axis=0),
                                                           np.repeat(y, weight))
    np.testing.assert_allclose(weighted.predict(X_new), repeated.predict(X_new), rtol=1e-6,
                               atol=1e-8)
