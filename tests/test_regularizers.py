import numpy as np
import pytest

from sklearn_softattn._regularizers import balance_penalty, ridge_penalty


def test_balance_gradient_matches_finite_differences(numeric_gradient):
    rng = np.random.default_rng(0)
    K, V = rng.standard_normal((4, 4)), rng.standard_normal((2, 4))
    _, gK, gV = balance_penalty(K, V)

    def penalty():
        return balance_penalty(K, V)[0]

    np.testing.assert_allclose(gK, numeric_gradient(penalty, K), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(gV, numeric_gradient(penalty, V), rtol=1e-6, atol=1e-9)


def test_balance_is_zero_when_balanced_and_scale_invariant():
    rng = np.random.default_rng(1)
    R, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    S = np.diag([3.0, 1.0, 0.5])
    K, V = R @ S @ R.T, rng.standard_normal((3, 3))
    V = np.linalg.qr(rng.standard_normal((3, 3)))[0] @ S @ R.T  # VᵀV = KᵀK
    assert balance_penalty(K, V)[0] == pytest.approx(0, abs=1e-12)
    K2, V2 = rng.standard_normal((3, 3)), rng.standard_normal((2, 3))
    p = balance_penalty(K2, V2)[0]
    assert p > 0
    assert balance_penalty(K2 / 7, 7 * V2)[0] == pytest.approx(p)
    assert balance_penalty(3 * K2, V2 / 5)[0] == pytest.approx(p)


def test_balance_handles_zero_value_matrix():
    p, gK, gV = balance_penalty(np.eye(2), np.zeros((1, 2)))
    assert np.isfinite(p) and np.all(np.isfinite(gK)) and np.all(np.isfinite(gV))


def test_ridge_gradient_matches_finite_differences(numeric_gradient):
    rng = np.random.default_rng(2)
    K, V, A = rng.standard_normal((4, 4)), rng.standard_normal((2, 4)), rng.standard_normal((4, 4))
    _, gK, gV = ridge_penalty(K, V, A)

    def penalty():
        return ridge_penalty(K, V, A)[0]

    np.testing.assert_allclose(gK, numeric_gradient(penalty, K), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(gV, numeric_gradient(penalty, V), rtol=1e-6, atol=1e-9)


def test_ridge_is_half_the_squared_standardized_coefficient_and_scale_invariant():
    rng = np.random.default_rng(3)
    K, V, A = rng.standard_normal((3, 3)), rng.standard_normal((2, 3)), rng.standard_normal((3, 3))
    p = ridge_penalty(K, V, A)[0]
    assert p == pytest.approx(0.5 * np.sum((V @ K.T @ A) ** 2))
    assert ridge_penalty(K / 7, 7 * V, A)[0] == pytest.approx(p)
