"""The attention layer in plain numpy: the reference the compiled kernel is tested against.

Written from the definition, on the whole (queries x context) matrix at once
(no blocks, no threads, no overflow scaling), in float64, and sharing no code
with the package: the scores plus the log multiplicity of each token (its
weight ``w_j``, or ``w_j - 1`` for a query's own token, so that training is
leave-one-out), a softmax by max-subtracted log-sum-exp, and the loss and
gradients by the chain rule. The scores are ``zᵀ K z_j`` (bilinear) or
``zᵀ K z_j - ½ z_jᵀ K z_j`` (distance: ``-½ (z - z_j)ᵀ K (z - z_j)`` for a
symmetric ``K``, without the query's own term ``-½ zᵀ K z``, which is the same
on every token and cancels in the softmax; for any ``K``, the function of ``K``
whose gradient is compared). The value of token j is ``V`` times ``z_j``
followed by its targets, if any. Scores must be finite in float64; the
reference raises rather than return NaN where they are not. The kernel's
overflow scaling is compared with it where the kernel scales but the float64
scores stay finite (test_overflow_scaling_matches_reference).
"""

import numpy as np


def _scores(Zq, Zc, K, scores):
    """(B, m) scores ``zᵀ K z_j``, minus ``½ z_jᵀ K z_j`` for distance scores."""
    Zq, Zc, K = (np.asarray(a, dtype=np.float64) for a in (Zq, Zc, K))
    S = Zq @ K @ Zc.T
    if scores == "distance":
        S = S - 0.5 * np.array([z @ K @ z for z in Zc])
    elif scores != "bilinear":
        raise ValueError(scores)
    return S


def _softmax(Zq, Zc, K, log_multiplicity, scores="bilinear"):
    """Weights ``A`` (B, m): row-wise softmax of the scores plus ``log_multiplicity``."""
    S = _scores(Zq, Zc, K, scores)
    if not np.all(np.isfinite(S)):
        raise ValueError("the reference needs scores that are finite in float64")
    with np.errstate(divide="ignore"):
        logits = S + log_multiplicity
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


def _value_tokens(Zc, targets):
    """``[z_j, targets_j]`` per context token (``z_j`` alone without targets)."""
    Zc = np.asarray(Zc, dtype=np.float64)
    return Zc if targets is None else np.hstack([Zc, np.asarray(targets, dtype=np.float64)])


def attention_forward(Zq, Zc, K, V, context_weight, targets=None, scores="bilinear"):
    """Centered predictions ``sum_j softmax_j(score_j + log w_j) V x̃_j`` (B, q)."""
    A = _softmax(Zq, Zc, K, _log_multiplicity(context_weight, len(Zq)), scores)
    return A @ (_value_tokens(Zc, targets) @ np.asarray(V, dtype=np.float64).T)


def attention_loss_grad(Zq, Yq, query_weight, Zc, K, V, context_weight, self_index,
                        value_shift=None, targets=None, scores="bilinear"):
    """Loss ``sum_i c_i |V (A X̃c + s)_i - y_i|² / 2`` (``c`` the normalized query
    weights, ``X̃c`` the value tokens) and its gradients with respect to ``K`` and
    ``V``, leave-one-out."""
    Zq, Yq, Zc, V = (np.asarray(a, dtype=np.float64) for a in (Zq, Yq, Zc, V))
    Xc = _value_tokens(Zc, targets)
    A = _softmax(Zq, Zc, K, _log_multiplicity(context_weight, len(Zq), self_index), scores)
    c = np.asarray(query_weight, dtype=np.float64)
    c = (c / c.sum())[:, None]
    Xbar = A @ Xc if value_shift is None else A @ Xc + value_shift
    residual = Xbar @ V.T - Yq
    loss = 0.5 * float(np.sum(c * residual**2))
    grad_V = (c * residual).T @ Xbar
    # dL/dA_ij = c_i r_i · V x̃_j; through the softmax, dL/ds_ij = A_ij (P_ij - sum_k A_ik P_ik).
    P = (c * residual) @ (Xc @ V.T).T
    G = A * (P - np.sum(A * P, axis=1, keepdims=True))
    grad_K = Zq.T @ G @ Zc  # ds_ij/dK = z_i z_jᵀ
    if scores == "distance":  # and -½ z_j z_jᵀ more
        grad_K -= 0.5 * np.einsum("ij,jk,jl->kl", G, Zc, Zc)
    return loss, grad_K, grad_V
