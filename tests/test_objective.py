import itertools

import numpy as np
import pytest

from sklearn_softattn._attention import attention_forward
from sklearn_softattn._geometry import feature_scale, weighted_covariance, whitening
from sklearn_softattn._objective import Objective, leave_one_out


def _objective(preconditioned, strength, weighted, shrinkage=0.0, seed=0):
    rng = np.random.default_rng(seed)
    n, d, q = 9, 3, 2
    X = rng.standard_normal((n, d)) @ rng.standard_normal((d, d))
    Y = rng.standard_normal((n, q))
    w = rng.uniform(0.3, 3, n) if weighted else np.ones(n)
    Xc = X - np.average(X, axis=0, weights=w)
    covariance = weighted_covariance(Xc, w)
    W, W_inv = whitening(covariance)
    Z, P = (Xc @ W, None) if preconditioned else (Xc, W_inv)
    Zq, shift, Yq = leave_one_out(Z, Y, w, np.arange(n), w.sum(), w.sum())
    return Objective(Z=Zq, Y=Yq, weight=w, context=Z, context_weight=w,
                     self_index=np.arange(n), value_shift=shift, strength=strength,
                     shrinkage=shrinkage, standardize=feature_scale(covariance)[:, None] * W,
                     P=P), rng


@pytest.mark.parametrize(
    "preconditioned, strength, weighted, shrinkage",
    list(itertools.product([True, False], [0.0, 0.7], [False, True], [0.0, 0.4])),
)
def test_objective_gradient_matches_finite_differences(
    preconditioned, strength, weighted, shrinkage, numeric_gradient
):
    f, rng = _objective(preconditioned, strength, weighted, shrinkage)
    K, V = rng.standard_normal((3, 3)) / 3, rng.standard_normal((2, 3))
    _, gK, gV = f(K, V)
    np.testing.assert_allclose(gK, numeric_gradient(lambda: f(K, V)[0], K), rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(gV, numeric_gradient(lambda: f(K, V)[0], V), rtol=1e-5, atol=1e-8)


def test_rows_select_a_minibatch():
    f, rng = _objective(True, 0.0, True)
    K, V = rng.standard_normal((3, 3)), rng.standard_normal((2, 3))
    rows = np.array([1, 4, 5])
    sub = Objective(Z=f.Z[rows], Y=f.Y[rows], weight=f.weight[rows], context=f.context,
                    context_weight=f.context_weight, self_index=f.self_index[rows],
                    value_shift=f.value_shift[rows])
    assert f(K, V, rows)[0] == pytest.approx(sub(K, V)[0])
    assert f(K, V, rows)[0] != pytest.approx(f(K, V)[0])


@pytest.mark.parametrize("weights", ["none", "integer", "fractional"])
@pytest.mark.parametrize("subsampled", [False, True])
def test_leave_one_out_is_predict_refitted_without_the_row(weights, subsampled):
    """The objective is, row by row, what predict gives when the row's unit of
    weight is removed from the data: from the context and from both offsets."""
    rng = np.random.default_rng(1)
    n, d, q = 9, 3, 2
    X = rng.standard_normal((n, d)) + 3
    Y = rng.standard_normal((n, q)) - 2
    w = {"none": np.ones(n), "integer": rng.integers(1, 4, n).astype(float),
         "fractional": rng.uniform(0.2, 2.5, n)}[weights]
    K, V = rng.standard_normal((d, d)) / 2, rng.standard_normal((q, d))
    # A subsampled context: its rows give the feature offset, all rows the target's.
    ctx = np.array([0, 2, 3, 5, 8]) if subsampled else np.arange(n)
    self_index = np.full(n, -1)
    self_index[ctx] = np.arange(len(ctx))
    x_bar, y_bar = np.average(X[ctx], axis=0, weights=w[ctx]), np.average(Y, axis=0, weights=w)
    Zq, shift, Yq = leave_one_out(X - x_bar, Y - y_bar, w, self_index, w[ctx].sum(), w.sum())
    loss = Objective(Z=Zq, Y=Yq, weight=w, context=X[ctx] - x_bar, context_weight=w[ctx],
                     self_index=self_index, value_shift=shift)(K, V)[0]

    reference = 0.0
    for i in range(n):
        left = w.copy()
        left[i] -= min(w[i], 1)
        x_i = np.average(X[ctx], axis=0, weights=left[ctx])
        y_i = np.average(Y, axis=0, weights=left)
        pred = y_i + attention_forward((X[i] - x_i)[None], X[ctx] - x_i, K, V, left[ctx])[0]
        reference += w[i] * np.sum((pred - Y[i]) ** 2) / 2
    assert loss == pytest.approx(reference / w.sum(), rel=1e-12)



@pytest.mark.parametrize("preconditioned", [True, False])
def test_ridge_term_is_the_standardized_coefficient_penalty(preconditioned):
    """In either working coordinates, the ridge term is ½ shrinkage ||coef_ · std||²_F."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((9, 3)) @ rng.standard_normal((3, 3)) * [1.0, 10.0, 0.1]
    Xc = X - X.mean(axis=0)
    covariance = weighted_covariance(Xc, np.ones(9))
    W, W_inv = whitening(covariance)
    T, P = (W, None) if preconditioned else (np.eye(3), W_inv)

    def objective(shrinkage):
        return Objective(Z=Xc @ T, Y=rng.standard_normal((9, 2)), weight=np.ones(9),
                         context=Xc @ T, context_weight=np.ones(9), self_index=np.arange(9),
                         shrinkage=shrinkage, standardize=feature_scale(covariance)[:, None] * W,
                         P=P)

    with_ridge, without = objective(0.4), objective(0.0)
    without.Y = with_ridge.Y
    K, V = rng.standard_normal((3, 3)), rng.standard_normal((2, 3))
    K_raw, V_raw = T @ K @ T.T, V @ T.T
    coef_std = (V_raw @ covariance @ K_raw.T) * np.sqrt(np.diag(covariance))
    assert with_ridge(K, V)[0] - without(K, V)[0] == pytest.approx(0.2 * np.sum(coef_std**2))
