"""The regularizers: the scale-invariant balance and the ridge penalty of the linear limit."""

import numpy as np


def balance_penalty(K, V):
    """Balance penalty ``||VᵀV/||V||²_F - KᵀK/||K||²_F||²_F`` and its gradient.

    It is zero exactly when ``VᵀV ∝ KᵀK`` (a balanced factorization of
    ``V Kᵀ``) and unchanged by the rescaling ``(K / c, c V)``, so it steers
    between equivalent factorizations without fighting the renormalization.
    Both Gram matrices are normalized, so the penalty lies in [0, 2].

    Parameters
    ----------
    K : ndarray of shape (d, d)
        Key-query matrix (whitened coordinates).
    V : ndarray of shape (q, d)
        Value matrix (whitened coordinates).

    Returns
    -------
    penalty : float
    grad_K : ndarray of shape (d, d)
    grad_V : ndarray of shape (q, d)
    """
    GV, inv_v = _normalized_gram(V)
    GK, inv_k = _normalized_gram(K)
    D = GV - GK
    # d||D||² = 2<D, dD>; d(XᵀX/||X||²) = (dXᵀX + XᵀdX)/||X||² - XᵀX 2<X,dX>/||X||⁴
    grad_V = (4 * inv_v) * (V @ D - np.vdot(D, GV) * V)
    grad_K = (-4 * inv_k) * (K @ D - np.vdot(D, GK) * K)
    return float(np.vdot(D, D)), grad_K, grad_V


def _normalized_gram(X):
    """``XᵀX / ||X||²_F`` and ``1 / ||X||²_F`` (both zero for ``X = 0``, where the
    penalty is not differentiable and its gradient is taken as zero)."""
    sq = np.vdot(X, X)
    inv = 1 / sq if sq > 0 else 0.0
    return (X.T @ X) * inv, inv


def ridge_penalty(K, V, standardize):
    """Ridge penalty ``½ ||V Kᵀ A||²_F`` of the linear limit, and its gradient.

    In whitened coordinates the layer's infinite-data linear limit is
    ``V Kᵀ``; ``A`` maps it to the coefficients of standardized features
    (``A = C^{-1/2}``, ``C`` the features' correlation matrix), so that the
    penalty is ridge regression's on standardized features. It depends on
    ``V Kᵀ`` only, hence is unchanged by the rescaling ``(K / c, c V)``.

    Parameters
    ----------
    K : ndarray of shape (d, d)
        Key-query matrix (whitened coordinates).
    V : ndarray of shape (q, d)
        Value matrix (whitened coordinates).
    standardize : ndarray of shape (d, d)
        ``A``: whitened to standardized coefficients.

    Returns
    -------
    penalty : float
    grad_K : ndarray of shape (d, d)
    grad_V : ndarray of shape (q, d)
    """
    B = V @ K.T @ standardize
    # d½||B||² = <B, dV Kᵀ A + V dKᵀ A>
    BA = B @ standardize.T
    return 0.5 * float(np.vdot(B, B)), BA.T @ V, BA @ K


def ridge_penalty_linear(S, standardize):
    """Ridge penalty ``½ ||S A||²_F`` of a linear term's whitened coefficients ``S``
    (q × d), ``A`` mapping them to those of standardized features, and its gradient:
    ridge regression's penalty, for a skip term beside the attention."""
    B = S @ standardize
    return 0.5 * float(np.vdot(B, B)), B @ standardize.T
