"""The paper's synthetic data and the excess risk."""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression

from sklearn_softattn.datasets import (
    excess_risk,
    linear_excess_risk,
    make_gaussian_regression,
)


class _Linear:
    """A fixed linear predictor ``x -> coef x + intercept``."""

    def __init__(self, coef, intercept):
        self.coef, self.intercept = coef, intercept

    def predict(self, X):
        return X @ self.coef.T + self.intercept


@pytest.mark.parametrize("n_targets", [1, 4])
def test_shapes(n_targets):
    X, y, M, cov = make_gaussian_regression(50, 3, n_targets, random_state=0, return_truth=True)
    assert X.shape == (50, 3)
    assert y.shape == ((50,) if n_targets == 1 else (50, n_targets))
    assert M.shape == (n_targets, 3)
    assert cov.shape == (3, 3)
    X2, y2 = make_gaussian_regression(50, 3, n_targets, random_state=0)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)


@pytest.mark.parametrize("condition_number", [1.0, 30.0, 1e4])
def test_covariance(condition_number):
    *_, cov = make_gaussian_regression(
        10, 6, 2, condition_number=condition_number, random_state=1, return_truth=True
    )
    np.testing.assert_allclose(cov, cov.T)
    eigvals = np.linalg.eigvalsh(cov)
    assert eigvals.min() > 0
    np.testing.assert_allclose(eigvals.max() / eigvals.min(), condition_number, rtol=1e-8)
    np.testing.assert_allclose(eigvals.mean(), 1.0)


def test_samples_follow_the_model():
    noise = 0.5
    X, y, M, cov = make_gaussian_regression(
        200_000, 4, 3, noise=noise, random_state=0, return_truth=True
    )
    np.testing.assert_allclose(X.mean(axis=0), 0, atol=0.02)
    np.testing.assert_allclose(X.T @ X / len(X), cov, atol=0.02)
    residual = y - X @ M.T
    np.testing.assert_allclose(residual.T @ residual / len(X), noise**2 * np.eye(3), atol=0.01)


def test_rejects_condition_number_below_one():
    with pytest.raises(ValueError, match="condition_number"):
        make_gaussian_regression(10, 2, 1, condition_number=0.5)


def test_linear_excess_risk_formula_against_monte_carlo():
    rng = np.random.RandomState(0)
    _, _, M, cov = make_gaussian_regression(10, 5, 3, random_state=0, return_truth=True)
    coef = M + 0.3 * rng.standard_normal(M.shape)
    intercept = rng.standard_normal(3)
    exact = linear_excess_risk(coef, intercept, M, cov)
    mc = excess_risk(_Linear(coef, intercept), M, cov, n_samples=400_000, random_state=1)
    np.testing.assert_allclose(mc, exact, rtol=0.01)
    # Zero exactly at the truth.
    assert linear_excess_risk(M, np.zeros(3), M, cov) == 0


def test_excess_risk_is_population_loss_minus_noise_floor():
    # ½ E||y - f(x)||² on fresh noisy data, minus ½ noise² q.
    noise, q = 0.5, 2
    X, y, M, cov = make_gaussian_regression(
        300, 4, q, noise=noise, random_state=0, return_truth=True
    )
    reg = LinearRegression().fit(X, y)
    X_new, y_new = make_gaussian_regression(400_000, 4, q, noise=noise, random_state=0)
    # The same seed draws the same Σ and M (before the samples); 400 000 fresh rows.
    population = 0.5 * np.mean(np.sum((y_new - reg.predict(X_new)) ** 2, axis=1))
    exact = linear_excess_risk(reg.coef_, reg.intercept_, M, cov)
    np.testing.assert_allclose(population - 0.5 * noise**2 * q, exact, atol=0.003)


def test_excess_risk_one_target():
    X, y, M, cov = make_gaussian_regression(100, 3, 1, random_state=0, return_truth=True)
    reg = LinearRegression().fit(X, y)
    exact = linear_excess_risk(reg.coef_, reg.intercept_, M, cov)
    np.testing.assert_allclose(excess_risk(reg, M, cov, n_samples=200_000), exact, rtol=0.02)


def test_attention_regression_is_the_papers_layer_at_its_scale():
    from sklearn_softattn.datasets import make_attention_regression

    X, y = make_attention_regression(200, 4, attention_scale=3.0, noise=0.0, random_state=0)
    again, _ = make_attention_regression(200, 4, attention_scale=3.0, noise=0.0, random_state=0)
    np.testing.assert_array_equal(X, again)
    # Nearly linear at a small scale: y ≈ v Kᵀ x, so least squares explains it but for
    # terms of the next order in the scale (0.01).
    X_flat, y_flat = make_attention_regression(2000, 4, attention_scale=0.01, noise=0.0,
                                               random_state=0)
    residual = y_flat - LinearRegression().fit(X_flat, y_flat).predict(X_flat)
    assert residual.std() < 0.01 * y_flat.std()
    # Sharper: nonlinear, bounded by the tokens' values.
    residual = y - LinearRegression().fit(X, y).predict(X)
    assert residual.std() > 0.1 * y.std()
