"""Small data sets and training problems of the layer, shared by the tests of the
in-context layer and of the skip term."""

import numpy as np

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
