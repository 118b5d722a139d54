"""The attention layer in plain numpy: the reference the compiled kernel is tested against.

Written from the definition, on the whole (queries x context) matrix at once
(no blocks, no threads, no overflow scaling), in float64, and sharing no code
with the package: the scores ``zᵀ K z_j`` plus the log multiplicity of each
token (its weight ``w_j``, or ``w_j - 1`` for a query's own token, so that
training is leave-one-out), a softmax by max-subtracted log-sum-exp, and the
loss and gradients by the chain rule. Scores must be finite in float64; the
reference raises rather than return NaN where they are not. The kernel's
overflow scaling is compared with it where the kernel scales but the float64
scores stay finite (test_overflow_scaling_matches_reference).
"""

import numpy as np


def _softmax(Zq, Zc, K, log_multiplicity):
    """Weights ``A`` (B, m): row-wise softmax of ``Zq K Zcᵀ + log_multiplicity``."""
    Zq, Zc, K = (np.asarray(a, dtype=np.float64) for a in (Zq, Zc, K))
    scores = Zq @ K @ Zc.T
    if not np.all(np.isfinite(scores)):
        raise ValueError("the reference needs scores that are finite in float64")
    with np.errstate(divide="ignore"):
        logits = scores + log_multiplicity
    logits -= logits.max(axis=1, keepdims=True)
    log_sum = np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return np.exp(logits - log_sum)


def _log_multiplicity(context_weight, n_queries, self_index=None):
    """(B, m) log multiplicities: ``log w_j``, and ``log max(w_j - 1, 0)`` on the own token."""
    w = np.tile(np.asarray(context_weight, dtype=np.float64), (n_queries, 1))
    if self_index is not None:
        rows = np.flatnonzero(np.asarray(self_index) >= 0)
        own = np.asarray(self_index)[rows]
        w[rows, own] = np.maximum(w[rows, own] - 1, 0)
    with np.errstate(divide="ignore"):
        return np.log(w)


def attention_forward(Zq, Zc, K, V, context_weight):
    """Centered predictions ``sum_j softmax_j(zᵀ K z_j + log w_j) V z_j`` (B, q)."""
    A = _softmax(Zq, Zc, K, _log_multiplicity(context_weight, len(Zq)))
    return A @ (np.asarray(Zc, dtype=np.float64) @ np.asarray(V, dtype=np.float64).T)


def attention_loss_grad(Zq, Yq, query_weight, Zc, K, V, context_weight, self_index,
                        value_shift=None):
    """Loss ``sum_i c_i |V (A Zc + s)_i - y_i|² / 2`` (``c`` the normalized query
    weights) and its gradients with respect to ``K`` and ``V``, leave-one-out."""
    Zq, Yq, Zc, V = (np.asarray(a, dtype=np.float64) for a in (Zq, Yq, Zc, V))
    A = _softmax(Zq, Zc, K, _log_multiplicity(context_weight, len(Zq), self_index))
    c = np.asarray(query_weight, dtype=np.float64)
    c = (c / c.sum())[:, None]
    Zbar = A @ Zc if value_shift is None else A @ Zc + value_shift
    residual = Zbar @ V.T - Yq
    loss = 0.5 * float(np.sum(c * residual**2))
    grad_V = (c * residual).T @ Zbar
    # dL/dA_ij = c_i r_i · V z_j; through the softmax, dL/ds_ij = A_ij (P_ij - sum_k A_ik P_ik).
    P = (c * residual) @ (Zc @ V.T).T
    G = A * (P - np.sum(A * P, axis=1, keepdims=True))
    grad_K = Zq.T @ G @ Zc  # ds_ij/dK = z_i z_jᵀ
    return loss, grad_K, grad_V
