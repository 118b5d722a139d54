import warnings

import numpy as np
import pytest

from sklearn_softattn._geometry import (
    EIGENVALUE_FLOOR,
    distance_map,
    renormalize,
    change_basis,
    weighted_covariance,
    whitening,
)


def test_whitening_whitens_and_inverts():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((300, 4)) @ rng.standard_normal((4, 4))
    Xc = X - X.mean(axis=0)
    cov = weighted_covariance(Xc, np.ones(300))
    W, W_inv = whitening(cov)
    np.testing.assert_allclose(W.T @ cov @ W, np.eye(4), atol=1e-10)
    np.testing.assert_allclose(W @ W_inv, np.eye(4), atol=1e-10)


def test_whitening_does_not_depend_on_the_units_of_the_features():
    """Columns scaled from 1e-6 to 1e6 whiten as accurately as equal ones."""
    rng = np.random.default_rng(0)
    Xc = rng.standard_normal((300, 4)) @ rng.standard_normal((4, 4))
    Xc -= Xc.mean(axis=0)
    units = np.logspace(-6, 6, 4)
    W, W_inv = whitening(weighted_covariance(Xc, np.ones(300)))
    W_u, W_inv_u = whitening(weighted_covariance(Xc * units, np.ones(300)))
    np.testing.assert_allclose((Xc * units) @ W_u, Xc @ W, atol=1e-10)
    np.testing.assert_allclose(W_inv_u @ W_u, np.eye(4), atol=1e-10)


def test_weighted_covariance_equals_repeated_rows():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((10, 3))
    w = rng.integers(1, 4, 10)
    np.testing.assert_allclose(
        weighted_covariance(X, w.astype(float)),
        weighted_covariance(np.repeat(X, w, axis=0), np.ones(w.sum())),
    )


@pytest.mark.parametrize("case", ["constant", "duplicated", "wide", "zero"])
def test_singular_covariance_is_floored(case):
    rng = np.random.default_rng(2)
    X = rng.standard_normal((20, 4))
    if case == "constant":
        X[:, 1] = 3.0
    elif case == "duplicated":
        X[:, 2] = X[:, 0]
    elif case == "wide":
        X = rng.standard_normal((3, 8))
    else:
        X[:] = 1.0
    Xc = X - X.mean(axis=0)
    cov = weighted_covariance(Xc, np.ones(len(X)))
    W, W_inv = whitening(cov)
    assert np.all(np.isfinite(W)) and np.all(np.isfinite(W_inv))
    # The floor is on the correlation matrix: the covariance in units of the
    # columns' standard deviations (1 for a constant column).
    std = np.sqrt(np.diag(cov))
    units = np.where(std > 0, std, 1)
    eig = np.linalg.eigvalsh((W_inv.T @ W_inv) / np.outer(units, units))
    assert eig.min() >= EIGENVALUE_FLOOR * eig.max() * (1 - 1e-6)
    # Directions without variance map to (almost) nothing.
    assert np.abs(Xc @ W).max() < 1e3 * np.sqrt(len(X))


def test_renormalize_keeps_product_and_sets_norm():
    rng = np.random.default_rng(3)
    K, V = rng.standard_normal((3, 3)), rng.standard_normal((2, 3))
    K2, V2 = renormalize(K, V, 0.7)
    assert np.linalg.norm(K2) == pytest.approx(0.7)
    np.testing.assert_allclose(V2 @ K2.T, V @ K.T)
    P = rng.standard_normal((3, 3))
    K3, V3 = renormalize(K, V, 2.0, P)
    assert np.linalg.norm(change_basis(K3, V3, P)[0]) == pytest.approx(2.0)
    np.testing.assert_allclose(V3 @ K3.T, V @ K.T)


def test_renormalize_leaves_zero_key_query_alone():
    K, V = np.zeros((2, 2)), np.ones((1, 2))
    K2, V2 = renormalize(K, V, 1.0)
    assert np.all(K2 == 0) and np.all(V2 == 1)


def test_renormalization_tangent_is_the_gradient_of_the_renormalized_parametrization():
    # f(K) = <A, K> + ½||K||², composed with K̃ -> onto(K̃), at K̃ = K on the sphere.
    from sklearn_softattn._geometry import Renormalization

    rng = np.random.default_rng(0)
    A, K, P = rng.standard_normal((3, 3, 3))
    sphere = Renormalization(0.7, P)
    K, _ = sphere.onto(K)
    np.testing.assert_allclose(np.linalg.norm(P @ K @ P.T), 0.7)

    def f(Kt):
        Kr = sphere.onto(Kt)[0]
        return np.vdot(A, Kr) + 0.5 * np.vdot(Kr, Kr)

    grad = sphere.tangent(K, A + K)
    eps = 1e-6
    for i, j in np.ndindex(3, 3):
        E = np.zeros((3, 3))
        E[i, j] = eps
        np.testing.assert_allclose((f(K + E) - f(K - E)) / (2 * eps), grad[i, j], atol=1e-7)
    assert Renormalization().tangent(K, A) is A and Renormalization().onto(K)[1] == 1.0


def test_distance_map_is_the_mahalanobis_distance_within_the_data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((300, 4)) @ rng.standard_normal((4, 4)) * [1e-3, 1.0, 10.0, 1e3]
    Xc = X - X.mean(axis=0)
    cov = weighted_covariance(Xc, np.ones(300))
    P = distance_map(cov)
    assert P.shape == (4, 4)
    np.testing.assert_allclose(P.T @ cov @ P, np.eye(4), atol=1e-10)
    x = rng.standard_normal((5, 4))
    expected = np.sqrt(np.einsum("ij,jk,ik->i", x, np.linalg.inv(cov), x))
    np.testing.assert_allclose(np.linalg.norm(x @ P, axis=1), expected, rtol=1e-8)


@pytest.mark.parametrize("shape", [(20, 30), (50, 5)])
def test_distance_map_ignores_directions_without_variance(shape):
    # More features than rows, or a duplicated column: whitening floors the
    # missing directions (and magnifies them); the distance leaves them out.
    n, d = shape
    rng = np.random.default_rng(1)
    X = rng.standard_normal((n, d))
    if n > d:
        X[:, -1] = X[:, 0]
    Xc = X - X.mean(axis=0)
    cov = weighted_covariance(Xc, np.ones(n))
    P = distance_map(cov)
    rank = np.linalg.matrix_rank(Xc)
    assert P.shape == (d, rank)
    # A direction without variance (of the standardized features, as whitening
    # floors it) adds nothing to the distance...
    scale = np.sqrt(np.diag(cov))
    eigvals, eigvecs = np.linalg.eigh(cov / np.outer(scale, scale))
    null = eigvecs[:, eigvals < 1e-10 * eigvals.max()].T * scale
    assert len(null) == d - rank
    x = Xc[:3] + 100 * null.sum(axis=0)
    np.testing.assert_allclose(np.linalg.norm(x @ P, axis=1),
                               np.linalg.norm(Xc[:3] @ P, axis=1), rtol=1e-6)
    # ... where whitening magnifies it, and within the span it is the pseudo-inverse's.
    W, _ = whitening(cov)
    assert np.all(np.linalg.norm(x @ W, axis=1) > 100 * np.linalg.norm(x @ P, axis=1))
    expected = np.sqrt(np.einsum("ij,jk,ik->i", Xc[:3], np.linalg.pinv(cov), Xc[:3]))
    np.testing.assert_allclose(np.linalg.norm(Xc[:3] @ P, axis=1), expected, rtol=1e-6)


def test_distance_map_of_constant_columns_is_empty():
    assert distance_map(np.zeros((3, 3))).shape == (3, 0)


def test_mahalanobis_norms_do_not_overflow():
    from sklearn_softattn._problem import mahalanobis_norms

    rng = np.random.default_rng(0)
    P = rng.standard_normal((3, 3))
    Xc = rng.standard_normal((5000, 3))  # more than one block of rows
    np.testing.assert_allclose(mahalanobis_norms(Xc, P), np.linalg.norm(Xc @ P, axis=1),
                               rtol=1e-12)
    huge = np.array([[3e200, 4e200, 0.0], [3.0, 4.0, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning either
        np.testing.assert_allclose(mahalanobis_norms(huge, np.eye(3)), [5e200, 5.0])


def test_neighbor_spacing_is_the_median_distance_to_the_nearest_distinct_row():
    from sklearn_softattn._geometry import neighbor_spacing

    # One coordinate: the distances are those of the values.
    x = np.array([0.0, 0.0, 0.0, 1.0, 3.0, 3.5])
    Z = x[:, None]
    w = np.ones(len(x))
    # Nearest distinct rows: 0 -> 1 (three rows), 1 -> 0, 3 -> 3.5, 3.5 -> 3.
    expected = np.median([1, 1, 1, 1, 0.25, 0.25])
    assert neighbor_spacing(Z, w) == pytest.approx(expected)
    # Integer weights are repeated rows; weights move the median.
    np.testing.assert_allclose(neighbor_spacing(Z[2:], np.array([3.0, 1, 1, 1])),
                               neighbor_spacing(Z, w))
    heavy = np.array([1.0, 1, 1, 1, 10, 10])
    assert neighbor_spacing(Z, heavy) == pytest.approx(0.25)
    assert np.isnan(neighbor_spacing(np.zeros((4, 2)), np.ones(4)))  # all rows equal
    assert np.isnan(neighbor_spacing(np.zeros((4, 0)), np.ones(4)))  # no direction
