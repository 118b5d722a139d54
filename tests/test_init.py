import numpy as np

from sklearn_softattn._init import random_init, spectral_init


def test_spectral_init_factorizes_least_squares_and_is_balanced():
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((200, 4))
    Z = (Z - Z.mean(0)) @ np.linalg.inv(np.linalg.cholesky(np.cov(Z.T, bias=True))).T
    Y = Z @ rng.standard_normal((4, 3)) + 0.1 * rng.standard_normal((200, 3))
    Y -= Y.mean(0)
    w = np.ones(200)
    K0, V0 = spectral_init(Z, Y, w)
    M_ls = np.linalg.lstsq(Z, Y, rcond=None)[0].T
    np.testing.assert_allclose(V0 @ K0.T, M_ls, atol=1e-10)
    np.testing.assert_allclose(V0.T @ V0, K0.T @ K0, atol=1e-10)


def test_spectral_init_single_target_has_rank_one_key_query():
    rng = np.random.default_rng(1)
    Z = rng.standard_normal((50, 5))
    Y = Z[:, :1] - Z[:, :1].mean()
    K0, V0 = spectral_init(Z, Y, np.ones(50))
    assert np.linalg.matrix_rank(K0) == 1 and V0.shape == (1, 5)


def test_spectral_init_degenerate_targets():
    Z = np.random.default_rng(2).standard_normal((10, 3))
    K0, V0 = spectral_init(Z, np.zeros((10, 2)), np.ones(10))
    np.testing.assert_array_equal(K0, np.eye(3))
    np.testing.assert_array_equal(V0, 0)


def test_random_init_is_seeded_and_scaled():
    a = random_init(4, 2, 3.0, np.random.RandomState(0))
    b = random_init(4, 2, 3.0, np.random.RandomState(0))
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    K, V = random_init(200, 300, 3.0, np.random.RandomState(1))
    assert abs(K.std() * np.sqrt(200) - 1) < 0.05
    assert abs(V.std() * np.sqrt(200) - 3) < 0.1


def test_spectral_init_with_ridge_factorizes_the_ridge_coefficient():
    """With G = λ A Aᵀ (A = C^{-1/2}) the start is M̂ C (C + λ I)⁻¹, still balanced."""
    rng = np.random.default_rng(3)
    Z = rng.standard_normal((100, 4))
    Y = Z @ rng.standard_normal((4, 2))
    C = np.cov(rng.standard_normal((4, 50)))
    eigvals, eigvecs = np.linalg.eigh(C)
    A = (eigvecs / np.sqrt(eigvals)) @ eigvecs.T
    K0, V0 = spectral_init(Z, Y, np.ones(100), ridge=0.5 * A @ A.T)
    M = Y.T @ Z / 100
    np.testing.assert_allclose(V0 @ K0.T, M @ C @ np.linalg.inv(C + 0.5 * np.eye(4)), atol=1e-10)
    np.testing.assert_allclose(V0.T @ V0, K0.T @ K0, atol=1e-10)
