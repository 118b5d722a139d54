import itertools

import numpy as np
import pytest

from sklearn_softattn._geometry import weighted_covariance, whitening
from sklearn_softattn._objective import Objective


def _objective(preconditioned, strength, weighted, seed=0):
    rng = np.random.default_rng(seed)
    n, d, q = 9, 3, 2
    X = rng.standard_normal((n, d)) @ rng.standard_normal((d, d))
    Y = rng.standard_normal((n, q))
    w = rng.uniform(0.3, 3, n) if weighted else np.ones(n)
    Xc = X - np.average(X, axis=0, weights=w)
    W, W_inv = whitening(weighted_covariance(Xc, w))
    Z, P = (Xc @ W, None) if preconditioned else (Xc, W_inv)
    return Objective(Z=Z, Y=Y, weight=w, context=Z, context_weight=w,
                     self_index=np.arange(n), strength=strength, P=P), rng


@pytest.mark.parametrize(
    "preconditioned, strength, weighted",
    list(itertools.product([True, False], [0.0, 0.7], [False, True])),
)
def test_objective_gradient_matches_finite_differences(
    preconditioned, strength, weighted, numeric_gradient
):
    f, rng = _objective(preconditioned, strength, weighted)
    K, V = rng.standard_normal((3, 3)) / 3, rng.standard_normal((2, 3))
    _, gK, gV = f(K, V)
    np.testing.assert_allclose(gK, numeric_gradient(lambda: f(K, V)[0], K), rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(gV, numeric_gradient(lambda: f(K, V)[0], V), rtol=1e-5, atol=1e-8)


def test_rows_select_a_minibatch():
    f, rng = _objective(True, 0.0, True)
    K, V = rng.standard_normal((3, 3)), rng.standard_normal((2, 3))
    rows = np.array([1, 4, 5])
    sub = Objective(Z=f.Z[rows], Y=f.Y[rows], weight=f.weight[rows], context=f.context,
                    context_weight=f.context_weight, self_index=f.self_index[rows])
    assert f(K, V, rows)[0] == pytest.approx(sub(K, V)[0])
    assert f(K, V, rows)[0] != pytest.approx(f(K, V)[0])
