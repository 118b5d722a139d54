"""Initializations of the key-query and value matrices, in whitened coordinates."""

import numpy as np


def spectral_init(Z, Yc, sample_weight, ridge=None, whitened=True):
    """Spectral initialization: a balanced factorization of least squares (or ridge).

    With ``M̂ = Σ_i w_i y_i z_iᵀ / Σ_i w_i`` the least-squares coefficient in
    whitened coordinates (the raw regression matrix times ``Σ̂^{1/2}``) and its
    thin SVD ``M̂ = U S Rᵀ``, return ``V₀ = U S^{1/2} Rᵀ`` and
    ``K₀ = R S^{1/2} Rᵀ``. Then ``V₀ K₀ᵀ = M̂`` and ``V₀ᵀV₀ = K₀ᵀK₀``: the start
    solves the infinite-data problem and is balanced.

    With ``ridge = G`` (symmetric positive semi-definite), ``M̂`` is first
    replaced by the minimizer of ``½||B - M̂||²_F + ½ tr(B G Bᵀ)``, that is
    ``M̂ (I + G)⁻¹``. For ``G = λ A Aᵀ`` (see
    :func:`~sklearn_softattn._regularizers.ridge_penalty`) this is the ridge
    solution of the infinite-data problem, ``M̂ C (C + λ I)⁻¹`` with ``C``
    the features' correlation matrix, ``(A Aᵀ)⁻¹``.

    If ``M̂ = 0`` (targets uncorrelated with the features) the factorization
    is degenerate; then ``K₀`` is the identity and ``V₀ = 0``.

    Parameters
    ----------
    Z : ndarray of shape (n, d)
        Whitened features.
    Yc : ndarray of shape (n, q)
        Centered targets.
    sample_weight : ndarray of shape (n,)
    ridge : ndarray of shape (d, d) or None
        Hessian ``G`` of the ridge penalty in whitened coordinates; None for
        least squares.
    whitened : bool, default=True
        Whether ``Z``'s own weighted covariance is the identity (see
        :func:`linear_coefficient`).

    Returns
    -------
    K0 : ndarray of shape (d, d)
    V0 : ndarray of shape (q, d)
    """
    M = linear_coefficient(Z, Yc, sample_weight, ridge, whitened)
    U, s, Rt = np.linalg.svd(M, full_matrices=False)
    if not np.any(s > 0):
        return np.eye(Z.shape[1], dtype=Z.dtype), np.zeros_like(M)
    root = np.sqrt(s)
    return (Rt.T * root) @ Rt, (U * root) @ Rt


def linear_coefficient(Z, Yc, sample_weight, ridge=None, whitened=True):
    """The least-squares (or ridge) coefficient ``M̂`` of :func:`spectral_init`,
    in whitened coordinates, of shape (q, d).

    ``whitened``: the rows of ``Z`` are the ones the whitening was computed on, so
    that their weighted second moment is the identity, and ``M̂`` is their
    cross-moment with ``Yc``. Otherwise (whitened by a subsample, the context, of
    these rows, and centred by the caller) least squares on all of them, ``M̂ =
    (Σ_i w̃_i y_i z_iᵀ) (Σ_i w̃_i z_i z_iᵀ + G)⁻¹`` for the weights ``w̃`` normalized
    to sum 1. The subsample's covariance only
    estimates theirs: on 20 000 rows of ggplot2's ``diamonds`` (a nearly singular
    covariance), the cross-covariance alone under a whitening of 1 024 of them
    predicted a validation fold with R² 0.86, least squares 0.90.
    """
    w = (sample_weight / sample_weight.sum()).astype(Z.dtype)
    M = (Yc.T * w) @ Z
    if whitened and ridge is None:
        return M
    # The d × d systems in float64: with float32 data, a strong penalty on a nearly
    # singular covariance makes them singular to float32's precision.
    gram = np.eye(len(M.T)) if whitened else ((Z.T * w) @ Z).astype(np.float64)
    if ridge is not None:
        gram += ridge
    if whitened:
        return np.linalg.solve(gram, M.T.astype(np.float64)).T.astype(M.dtype)
    return np.linalg.lstsq(gram, M.T.astype(np.float64), rcond=None)[0].T.astype(M.dtype)


def isotropic_init(Z, Yc, sample_weight, ridge=None, directions=None, whitened=True):
    """The start of distance scores: the identity metric in whitened coordinates (the
    Mahalanobis distance), and ``V₀ = M̂`` (:func:`linear_coefficient`).

    ``K₀`` is the identity, or with ``directions`` (d × r, orthonormal columns) the
    projection onto them: the directions in which the data vary, so that directions
    without variance, which whitening magnifies, do not count in any distance.
    Like the spectral start, ``V₀ K₀ᵀ = M̂`` solves the infinite-data problem (``M̂``
    lies within the data's directions); unlike it, ``K₀`` has the rank of the data.
    The spectral ``K₀`` has the rank of ``M̂`` (at most the number of targets), and a
    metric ``L`` of that rank (``K = LᵀL``) keeps it under gradient steps, whose
    rows outside its row space are zero: distances would only ever be measured
    along ``M̂``'s directions.
    """
    K = np.eye(Z.shape[1], dtype=Z.dtype) if directions is None else directions @ directions.T
    return K, linear_coefficient(Z, Yc, sample_weight, ridge, whitened)


def random_init(n_features, n_targets, target_scale, random_state, dtype=np.float64):
    """Random Gaussian initialization (the paper's baseline).

    ``K₀`` has i.i.d. ``N(0, 1/d)`` entries and ``V₀`` i.i.d.
    ``N(0, target_scale² / d)`` entries, so that initial predictions have the
    order of magnitude of the targets.
    """
    d = n_features
    K0 = random_state.standard_normal((d, d)) / np.sqrt(d)
    V0 = random_state.standard_normal((n_targets, d)) * (target_scale / np.sqrt(d))
    return K0.astype(dtype, copy=False), V0.astype(dtype, copy=False)
