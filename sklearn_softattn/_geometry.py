"""The geometry of the problem: covariance preconditioner and renormalization.

The covariance preconditioner multiplies the gradients by ``Σ̂⁻¹``. It is
implemented as gradient descent in whitened coordinates ``z = Wᵀ (x - x̄)``
with ``W Wᵀ = Σ̂⁻¹``: a plain gradient step there is a ``Σ̂⁻¹``-preconditioned
step in raw coordinates. (Any such ``W`` will do: whitened coordinates are
defined up to a rotation, which changes neither ``||K||_F`` nor the
regularizer.)
"""

import numpy as np

# Eigenvalues of Σ̂ below this fraction of the largest one are raised to it.
EIGENVALUE_FLOOR = 1e-8


def weighted_covariance(Xc, sample_weight):
    """Weighted covariance ``Σ_i w_i x_i x_iᵀ / Σ_i w_i`` of centered rows."""
    return (Xc.T * (sample_weight / sample_weight.sum())) @ Xc


def feature_scale(covariance):
    """The columns' standard deviations ``D``, 1 for a constant column (as in
    :func:`whitening`): ``D @ W`` is ``C^{-1/2}``, which maps whitened linear
    coefficients to those of standardized features."""
    std = np.sqrt(np.diag(covariance))
    return np.where(std > 0, std, 1)


def whitening(covariance, floor=EIGENVALUE_FLOOR):
    """Whitening matrix ``W`` (``Wᵀ Σ̂ W = I``) and its inverse.

    ``W = D⁻¹ C^{-1/2}`` with ``D`` the columns' standard deviations and
    ``C = D⁻¹ Σ̂ D⁻¹`` their correlation matrix, so that the result does not
    depend on the units of the features: columns whose scales differ by
    orders of magnitude are whitened as accurately as equal ones. A singular
    or near-singular correlation (constant or duplicated columns, more
    features than samples) does not fail: each eigenvalue of ``C`` is raised
    to at least ``floor`` times the largest one. Directions without variance
    then map to (almost) zero. A constant column keeps the scale 1 (its
    centered values are zero whatever it is), and if all columns are
    constant ``W`` is the identity.

    Returns
    -------
    W : ndarray of shape (d, d)
        The whitening matrix: ``(x - x̄) @ W`` are whitened coordinates.
    W_inv : ndarray of shape (d, d)
        Its exact inverse (``C^{1/2} D`` with the floored ``C``).
    """
    scale = feature_scale(covariance)
    correlation = covariance / np.outer(scale, scale)
    eigvals, eigvecs = np.linalg.eigh(correlation)
    top = eigvals.max()
    if top > 0:
        eigvals = np.maximum(eigvals, max(floor * top, np.finfo(covariance.dtype).tiny))
    else:
        eigvals = np.ones_like(eigvals)
    root = np.sqrt(eigvals)
    W = ((eigvecs / root) @ eigvecs.T) / scale[:, None]
    W_inv = ((eigvecs * root) @ eigvecs.T) * scale
    return W, W_inv


def change_basis(K, V, M):
    """The same layer's parameters in coordinates ``z'`` where ``z = z' @ M``.

    Scores ``zᵀ K z_j`` and values ``V z_j`` are unchanged by the map
    ``(K, V) -> (M K Mᵀ, V Mᵀ)``. With ``M = W`` it takes whitened parameters
    to centered raw ones; with ``M = W_inv`` raw parameters to whitened ones.
    """
    return M @ K @ M.T, V @ M.T


def renormalize(K, V, scale, P=None):
    """Rescale ``(K, V) -> (K / c, c V)`` so that ``||P K Pᵀ||_F = scale``.

    ``P`` maps the parameters to whitened coordinates (see :func:`change_basis`;
    ``None``: they are whitened).

    The rescaling leaves the infinite-data loss unchanged (it depends on ``V Kᵀ``
    only) and fixes the sharpness of the softmax.
    """
    Kw = K if P is None else P @ K @ P.T
    norm = np.linalg.norm(Kw)
    if norm == 0:
        return K, V
    c = norm / scale
    return K / c, V * c
