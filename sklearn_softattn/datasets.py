"""The paper's synthetic data models and the exact excess risk."""

import numpy as np
from scipy.special import softmax
from sklearn.utils import check_random_state


def make_gaussian_regression(
    n_samples=500,
    n_features=10,
    n_targets=20,
    *,
    noise=0.5,
    condition_number=30.0,
    random_state=None,
    return_truth=False,
):
    """Gaussian linear regression data: ``x ~ N(0, Σ)``, ``y = M x + ε``.

    ``Σ`` has a random eigenbasis and eigenvalues spaced geometrically from
    ``1`` down to ``1 / condition_number``, rescaled to mean 1; ``M`` has i.i.d.
    ``N(0, 1 / n_features)`` entries and ``ε ~ N(0, noise² I)``.

    Parameters
    ----------
    n_samples : int, default=500
        Number of samples.
    n_features : int, default=10
        Dimension ``d`` of ``x``.
    n_targets : int, default=20
        Dimension ``q`` of ``y``; ``y`` is 1-D when it is 1.
    noise : float, default=0.5
        Standard deviation of the Gaussian noise.
    condition_number : float, default=30.0
        Ratio of the largest to the smallest eigenvalue of ``Σ``.
    random_state : int, RandomState instance or None, default=None
        Seeds ``Σ``, ``M`` and the samples.
    return_truth : bool, default=False
        Also return ``M`` and ``Σ``.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    M : ndarray of shape (n_targets, n_features)
        Only with ``return_truth=True``.
    covariance : ndarray of shape (n_features, n_features)
        Only with ``return_truth=True``.

    Examples
    --------
    >>> from sklearn_softattn.datasets import make_gaussian_regression
    >>> X, y, M, cov = make_gaussian_regression(100, 3, 2, random_state=0, return_truth=True)
    >>> X.shape, y.shape, M.shape, cov.shape
    ((100, 3), (100, 2), (2, 3), (3, 3))
    """
    if condition_number < 1:
        raise ValueError(f"condition_number must be >= 1, got {condition_number}.")
    rng = check_random_state(random_state)
    basis, _ = np.linalg.qr(rng.standard_normal((n_features, n_features)))
    eigvals = np.geomspace(1.0, 1.0 / condition_number, n_features)
    eigvals /= eigvals.mean()
    covariance = (basis * eigvals) @ basis.T
    M = rng.standard_normal((n_targets, n_features)) / np.sqrt(n_features)
    X = rng.standard_normal((n_samples, n_features)) * np.sqrt(eigvals) @ basis.T
    y = X @ M.T + noise * rng.standard_normal((n_samples, n_targets))
    if n_targets == 1:
        y = y.ravel()
    return (X, y, M, covariance) if return_truth else (X, y)


def make_attention_regression(
    n_samples=600,
    n_features=8,
    *,
    attention_scale=2.0,
    n_tokens=400,
    noise=0.3,
    random_state=None,
):
    """Data drawn from the paper's layer: ``y = Σ_j softmax_j(xᵀ K c_j) v·c_j + ε``.

    ``x`` and the ``n_tokens`` tokens ``c_j`` are i.i.d. ``N(0, I)``; ``K`` is a
    Gaussian matrix rescaled to the Frobenius norm ``attention_scale`` (the
    softmax's sharpness, as ``SoftmaxAttentionRegressor``'s parameter); ``v`` is
    ``N(0, I / n_features)``, and ``ε ~ N(0, noise²)``. At a small scale ``y`` is
    nearly linear in ``x`` (``v Kᵀ x``); at a larger one the softmax picks the
    tokens farthest out along ``Kᵀ x``, and ``y`` saturates.

    Parameters
    ----------
    n_samples : int, default=600
        Number of samples.
    n_features : int, default=8
        Dimension of ``x``.
    attention_scale : float, default=2.0
        Frobenius norm of ``K``.
    n_tokens : int, default=400
        Number of tokens attended.
    noise : float, default=0.3
        Standard deviation of the Gaussian noise.
    random_state : int, RandomState instance or None, default=None
        Seeds the layer and the samples.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_softattn.datasets import make_attention_regression
    >>> X, y = make_attention_regression(100, 3, random_state=0)
    >>> X.shape, y.shape
    ((100, 3), (100,))
    """
    rng = check_random_state(random_state)
    K = rng.standard_normal((n_features, n_features))
    K *= attention_scale / np.linalg.norm(K)
    v = rng.standard_normal(n_features) / np.sqrt(n_features)
    tokens = rng.standard_normal((n_tokens, n_features))
    X = rng.standard_normal((n_samples, n_features))
    y = softmax(X @ K @ tokens.T, axis=1) @ (tokens @ v)
    return X, y + noise * rng.standard_normal(n_samples)


def linear_excess_risk(coef, intercept, M, covariance):
    """Exact excess risk ``½ E||coef x + intercept - M x||²`` for ``x ~ N(0, Σ)``.

    This is the population loss minus the noise floor ``½ E||ε||²``.

    Parameters
    ----------
    coef : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept : float or ndarray of shape (n_targets,)
    M : ndarray of shape (n_targets, n_features)
    covariance : ndarray of shape (n_features, n_features)

    Returns
    -------
    float
    """
    D = np.reshape(coef, M.shape) - M
    b = np.reshape(intercept, -1)
    return 0.5 * (np.trace(D @ covariance @ D.T) + b @ b)


def excess_risk(estimator, M, covariance, *, n_samples=5000, random_state=0):
    """Monte-Carlo excess risk ``½ E||f(x) - M x||²`` of a fitted estimator.

    Works for any (nonlinear) regressor: the expectation over fresh
    ``x ~ N(0, Σ)`` is estimated on ``n_samples`` draws; noise does not enter,
    so this is the population loss minus the noise floor, as in
    :func:`linear_excess_risk`, which it matches for a linear predictor up to
    Monte-Carlo error.

    Parameters
    ----------
    estimator : fitted regressor
        Its ``predict`` maps ``(n, n_features)`` to ``(n,)`` or ``(n, n_targets)``.
    M : ndarray of shape (n_targets, n_features)
    covariance : ndarray of shape (n_features, n_features)
    n_samples : int, default=5000
        Number of fresh draws of ``x``.
    random_state : int, RandomState instance or None, default=0
        Seeds the fresh draws; a fixed seed compares estimators on the same draws.

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_softattn.datasets import (
    ...     excess_risk, linear_excess_risk, make_gaussian_regression)
    >>> X, y, M, cov = make_gaussian_regression(200, 3, 2, random_state=0, return_truth=True)
    >>> reg = LinearRegression().fit(X, y)
    >>> mc = excess_risk(reg, M, cov, n_samples=100_000)
    >>> exact = linear_excess_risk(reg.coef_, reg.intercept_, M, cov)
    >>> bool(abs(mc - exact) < 0.05 * exact)
    True
    """
    rng = check_random_state(random_state)
    root = np.linalg.cholesky(covariance)
    X = rng.standard_normal((n_samples, M.shape[1])) @ root.T
    diff = np.reshape(estimator.predict(X), (n_samples, -1)) - X @ M.T
    return 0.5 * np.mean(np.sum(diff * diff, axis=1))
