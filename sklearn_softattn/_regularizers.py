"""The scale-invariant balancing regularizer."""

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
    tiny = np.finfo(K.dtype).tiny
    a = max(np.vdot(V, V), tiny)
    b = max(np.vdot(K, K), tiny)
    GV = V.T @ V / a
    GK = K.T @ K / b
    D = GV - GK
    # d||D||² = 2<D, dD>; d(XᵀX/||X||²) = (dXᵀX + XᵀdX)/||X||² - XᵀX 2<X,dX>/||X||⁴
    grad_V = (4 / a) * (V @ D - np.vdot(D, GV) * V)
    grad_K = (-4 / b) * (K @ D - np.vdot(D, GK) * K)
    return float(np.vdot(D, D)), grad_K, grad_V
