"""Ridge regression by exact leave-one-out (sklearn_softattn._ridge)."""

import numpy as np
import pytest
from sklearn.linear_model import Ridge, RidgeCV

from sklearn_softattn._ridge import ridge_loo


@pytest.mark.parametrize("n_targets", [1, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_penalty_and_fit_are_ridgecvs(n_targets, weighted):
    # Collinear columns, as each feature's splines are (they sum to one), and penalties
    # from where leave-one-out prefers the smallest to where it prefers a middle one.
    rng = np.random.RandomState(n_targets)
    X = rng.randn(80, 6)
    X = np.c_[X, X[:, :2] @ [1.0, -1.0]]
    Y = X[:, :3] @ rng.randn(3, n_targets) + 0.5 * rng.randn(80, n_targets)
    weights = rng.uniform(0.2, 3.0, 80) if weighted else np.ones(80)
    alphas = np.logspace(-2, 3, 11)
    coef, intercept, alpha = ridge_loo(X, Y, weights, alphas)
    ridge = RidgeCV(alphas=alphas).fit(X, Y, sample_weight=weights)
    assert alpha == ridge.alpha_
    blocked = ridge_loo(X, Y, weights, alphas, block_rows=7)  # rows read 7 at a time
    assert blocked[2] == alpha and np.allclose(blocked[0], coef, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(coef, np.atleast_2d(ridge.coef_), atol=1e-10)
    np.testing.assert_allclose(intercept, np.atleast_1d(ridge.intercept_), atol=1e-10)
    # Leave-one-out, row by row: the weighted mean squared error of each penalty.
    rows = np.arange(80)
    errors = [np.mean(weights[:, None] * np.square([Y[i] - Ridge(a).fit(
        X[rows != i], Y[rows != i], sample_weight=weights[rows != i]).predict(X[i:i + 1])[0]
        for i in rows])) for a in alphas]
    assert alpha == alphas[np.argmin(errors)] and 0 < np.argmin(errors) < len(alphas) - 1
