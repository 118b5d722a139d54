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


def weighted_covariance(Xc, sample_weight, other=None):
    """Weighted covariance ``Σ_i w_i x_i x_iᵀ / Σ_i w_i`` of centered rows, or with
    ``other`` (centered rows of its own, such as the targets) the cross-covariance
    ``Σ_i w_i o_i x_iᵀ / Σ_i w_i``."""
    weight = (sample_weight / sample_weight.sum()).astype(Xc.dtype)
    return ((Xc if other is None else other).T * weight) @ Xc


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
    scale, eigvals, eigvecs, floor_value = _correlation_spectrum(covariance, floor)
    eigvals = np.maximum(eigvals, floor_value) if floor_value > 0 else np.ones_like(eigvals)
    root = np.sqrt(eigvals)
    W = ((eigvecs / root) @ eigvecs.T) / scale[:, None]
    W_inv = ((eigvecs * root) @ eigvecs.T) * scale
    return W, W_inv


def distance_map(covariance, floor=EIGENVALUE_FLOOR):
    """A map ``P`` (d × r) such that ``‖(x - x̄) @ P‖`` is the Mahalanobis distance
    of ``x`` from the mean within the directions of the data: those whose
    eigenvalue of the correlation matrix is above the floor of :func:`whitening`.
    Directions without variance do not count (with more features than rows, only
    the span of the rows does), where whitening would magnify them by up to
    ``floor ** -0.5``. ``r = 0`` if every column is constant."""
    scale, eigvals, eigvecs, floor_value = _correlation_spectrum(covariance, floor)
    kept = eigvals > floor_value if floor_value > 0 else np.zeros(len(eigvals), bool)
    return (eigvecs[:, kept] / np.sqrt(eigvals[kept])) / scale[:, None]


def _correlation_spectrum(covariance, floor):
    """The columns' scales, the eigenpairs of their correlation matrix, and the
    floor of its eigenvalues (0 if all columns are constant)."""
    scale = feature_scale(covariance)
    eigvals, eigvecs = np.linalg.eigh(covariance / np.outer(scale, scale))
    top = eigvals.max()
    floor_value = max(floor * top, np.finfo(covariance.dtype).tiny) if top > 0 else 0.0
    return scale, eigvals, eigvecs, floor_value


def neighbor_spacing(Z, sample_weight):
    """The weighted median, over the rows, of the squared distance from a row to its
    nearest *distinct* row: the spacing a local smoother resolves. Rows that repeat one
    another (at distance 0) do not count as neighbors, so integer weights are repeated
    rows. NaN if no two rows differ.

    Parameters
    ----------
    Z : ndarray of shape (n, r)
        Rows in the coordinates of the distance (those of :func:`distance_map` for the
        Mahalanobis distance).
    sample_weight : ndarray of shape (n,)
        Positive weights.
    """
    from sklearn.neighbors import NearestNeighbors

    if Z.shape[1] == 0:
        return np.nan
    Z, inverse = np.unique(Z, axis=0, return_inverse=True)
    if len(Z) < 2:
        return np.nan
    distance = NearestNeighbors(n_neighbors=2).fit(Z).kneighbors(Z)[0][:, 1] ** 2
    weight = np.bincount(inverse.ravel(), weights=sample_weight, minlength=len(Z))
    order = np.argsort(distance, kind="stable")
    cumulative = np.cumsum(weight[order])
    return float(distance[order][np.searchsorted(cumulative, cumulative[-1] / 2)])


def change_basis(K, V, M):
    """The same layer's parameters in coordinates ``z'`` where ``z = z' @ M``.

    Scores ``zᵀ K z_j`` and values ``V z_j`` are unchanged by the map
    ``(K, V) -> (M K Mᵀ, V Mᵀ)``. With ``M = W`` it takes whitened parameters
    to centered raw ones; with ``M = W_inv`` raw parameters to whitened ones.
    A value matrix with more columns than ``M`` has rows (target tokens: the
    columns after the first d act on the tokens' targets) keeps those columns.
    """
    d = M.shape[0]
    V = V @ M.T if V.shape[1] == d else np.hstack([V[:, :d] @ M.T, V[:, d:]])
    return M @ K @ M.T, V


def symmetric_root(K):
    """The symmetric positive semi-definite ``L`` with ``LᵀL`` the nearest such matrix to
    the symmetric part of ``K`` (negative eigenvalues, round-off of a metric, are
    raised to 0): the metric whose distance scores ``K`` gives."""
    eigvals, eigvecs = np.linalg.eigh((K + K.T) / 2)
    return (eigvecs * np.sqrt(np.maximum(eigvals, 0))) @ eigvecs.T


def check_metric(K, name):
    """Raise a ValueError unless ``K`` is symmetric positive semi-definite to within the
    square root of its dtype's machine epsilon (relative to its largest entry)."""
    tol = np.sqrt(np.finfo(K.dtype).eps) * np.abs(K).max()
    asymmetry = np.abs(K - K.T).max()
    smallest = np.linalg.eigvalsh((K + K.T) / 2).min()
    if asymmetry > tol or smallest < -tol:
        raise ValueError(
            f"Distance scores need a symmetric positive semi-definite {name} (K = LᵀL); "
            f"it has asymmetry {asymmetry:.3g} and smallest eigenvalue {smallest:.3g}. "
            "Fit without warm_start, or continue from such a matrix."
        )


def frobenius_norm(A):
    """``||A||_F``, also where the sum of squares overflows or underflows (large
    entries in float32, say): then computed from ``A`` over its largest entry."""
    norm = np.linalg.norm(A)
    if np.isfinite(norm) and (norm > 0 or not np.any(A)):
        return norm
    largest = np.abs(A).max()
    return largest * np.linalg.norm(A / largest) if np.isfinite(largest) else largest


def renormalize(K, V, scale, P=None):
    """Rescale ``(K, V) -> (K / c, c V)`` so that ``||P K Pᵀ||_F = scale``.

    ``P`` maps the parameters to whitened coordinates (see :func:`change_basis`;
    ``None``: they are whitened).

    The rescaling leaves the infinite-data loss unchanged (it depends on ``V Kᵀ``
    only) and fixes the sharpness of the softmax. With target tokens only the
    feature columns of ``V`` are rescaled (see :func:`scale_features`).
    """
    Kw = K if P is None else P @ K @ P.T
    norm = frobenius_norm(Kw)
    if norm == 0:
        return K, V
    c = norm / scale
    return K / c, scale_features(V, len(K), c)


def scale_features(V, d, c):
    """``V`` with its first ``d`` columns, those of the features, times ``c``.

    With target tokens ``V = [V_x, U]``, and a renormalization moves ``V_x``
    only: ``U``'s term ``Σ_j A_ij (y_j − ȳ)`` is a smoother of the targets,
    whose size does not follow that of ``K`` (at sharp scales ``U`` near the
    identity is nearest-neighbor regression, whatever the norm of ``K``). At
    flat scales ``U``'s term is linear in ``K``, as ``V_x``'s is, and leaving
    ``U`` alone there changes the layer's linear limit by the factor.
    Without target tokens it is ``c V``.
    """
    if V.shape[1] == d:
        return V * c
    return np.hstack([V[:, :d] * c, V[:, d:]])


class Renormalization:
    """The renormalization as the solvers see it: a projection and its tangent.

    ``Renormalization(scale, P)`` keeps ``||P K Pᵀ||_F = scale`` (see
    :func:`renormalize`); ``Renormalization()`` (no scale) changes nothing.
    Calling it projects ``(K, V)``; :meth:`onto` and :meth:`tangent` are what
    a solver on the renormalized parametrization ``K = scale · K̃ / ||P K̃ Pᵀ||_F``
    needs: the map itself and its gradient.

    With ``metric=True`` the solver's first parameter is a metric ``L`` and the
    key-query matrix is ``K = LᵀL`` (distance scores): the same norm of ``K`` is
    kept by ``(L, V) -> (L / √c, c V)``, and ``onto`` scales ``L`` by the square
    root of the factor that ``K`` needs. ``n_skip``: ``V``'s last columns that are a
    skip term's, which the solvers scale as a linear term's (see
    :func:`~._solvers.block_scales`); the rescaling leaves them, as all but ``V``'s
    first d columns.
    """

    def __init__(self, scale=None, P=None, metric=False, n_skip=0):
        self.scale, self.P, self.metric, self.n_skip = scale, P, metric, n_skip

    def _whitened_norm(self, K):
        """``||P K Pᵀ||_F`` of the key-query matrix of the first parameter."""
        if self.metric:
            K = K.T @ K
        return frobenius_norm(K if self.P is None else self.P @ K @ self.P.T)

    def __call__(self, K, V):
        if self.scale is None:
            return K, V
        if not self.metric:
            return renormalize(K, V, self.scale, self.P)
        L, factor = self.onto(K)
        return L, scale_features(V, len(L), 1 / factor**2)

    def onto(self, K):
        """``K`` rescaled to the norm ``scale`` (unchanged if zero or without a
        scale), and the factor applied."""
        if self.scale is None:
            return K, 1.0
        norm = self._whitened_norm(K)
        factor = self.scale / norm if norm > 0 else 1.0
        if self.metric:
            factor = np.sqrt(factor)
        return K * factor, factor

    def tangent(self, K, grad_K):
        """The gradient at ``K̃ = K`` of ``K̃ -> f(onto(K̃))``, ``K`` renormalized.

        ``grad_K`` less the part that only changes the norm of ``K``:
        ``grad_K - <grad_K, K> / <R, K> R`` with ``R`` the gradient of half the
        squared norm (``Pᵀ (P K Pᵀ) P``; for a metric ``L``, ``2 L Pᵀ (P LᵀL Pᵀ) P``).
        Zero exactly when ``K`` is stationary among the matrices of its norm.
        """
        if self.scale is None:
            return grad_K
        S = K.T @ K if self.metric else K
        R = S if self.P is None else self.P.T @ (self.P @ S @ self.P.T) @ self.P
        if self.metric:
            R = 2 * K @ R
        RK = np.vdot(R, K)
        return grad_K if RK == 0 else grad_K - (np.vdot(grad_K, K) / RK) * R
