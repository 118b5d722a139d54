"""The geometry of the problem: covariance preconditioner and renormalization.

The covariance preconditioner multiplies the gradients by ``Σ̂⁻¹``. It is
implemented as gradient descent in whitened coordinates ``z = W (x - x̄)`` with
``W = Σ̂^{-1/2}``: a plain gradient step there is a ``Σ̂⁻¹``-preconditioned
step in raw coordinates.
"""

import numpy as np

# Eigenvalues of Σ̂ below this fraction of the largest one are raised to it.
EIGENVALUE_FLOOR = 1e-8


def weighted_covariance(Xc, sample_weight):
    """Weighted covariance ``Σ_i w_i x_i x_iᵀ / Σ_i w_i`` of centered rows."""
    return (Xc.T * (sample_weight / sample_weight.sum())) @ Xc


def whitening(covariance, floor=EIGENVALUE_FLOOR):
    """Symmetric whitening matrix ``Σ̂^{-1/2}`` and its inverse ``Σ̂^{1/2}``.

    A singular or near-singular covariance (constant or duplicated columns,
    more features than samples) does not fail: each eigenvalue is raised to at
    least ``floor`` times the largest one. Directions without variance then
    map to (almost) zero. If all eigenvalues are zero, every centered row is
    zero whatever ``W`` is, and ``W`` is the identity (rather than a huge
    multiple of it, which would overflow the key-query matrix in raw units).

    Returns
    -------
    W : ndarray of shape (d, d)
        The whitening matrix.
    W_inv : ndarray of shape (d, d)
        Its exact inverse (the floored ``Σ̂^{1/2}``).
    """
    eigvals, eigvecs = np.linalg.eigh(covariance)
    top = eigvals.max()
    if top > 0:
        eigvals = np.maximum(eigvals, max(floor * top, np.finfo(covariance.dtype).tiny))
    else:
        eigvals = np.ones_like(eigvals)
    root = np.sqrt(eigvals)
    return (eigvecs / root) @ eigvecs.T, (eigvecs * root) @ eigvecs.T


def to_whitened(K, V, P):
    """Map parameters in working coordinates to whitened ones.

    ``P`` maps working coordinates to whitened ones (identity when the working
    coordinates are whitened, ``Σ̂^{1/2}`` when they are centered raw features).
    """
    return P @ K @ P.T, V @ P.T


def renormalize(K, V, scale, P=None):
    """Rescale ``(K, V) -> (K / c, c V)`` so that ``||P K Pᵀ||_F = scale``.

    The rescaling leaves the infinite-data loss unchanged (it depends on ``V Kᵀ``
    only) and fixes the sharpness of the softmax.
    """
    Kw = K if P is None else P @ K @ P.T
    norm = np.linalg.norm(Kw)
    if norm == 0:
        return K, V
    c = norm / scale
    return K / c, V * c
