"""The attention kernel in numpy: the reference the compiled kernel is tested against.

The same math as :mod:`sklearn_softattn._attention` (the package's numpy
implementation before the kernel was compiled), on the whole (queries x
context) matrix at once: no blocks, no threads.
"""

import numpy as np

from sklearn_softattn._attention import (
    _exp_scores,
    _overflow_scale,
    _relative_weights,
    _self_log_ratio,
)


def attention_forward(Zq, Zc, K, V, context_weight):
    """Centered predictions ``sum_j softmax_j(zᵀ K z_j + log w_j) V z_j`` (B, q)."""
    KZc = Zc @ K.T
    w = _relative_weights(context_weight)[:, None]
    F = _exp_scores(Zq, KZc, _overflow_scale(Zq, KZc)) @ np.hstack([(Zc @ V.T) * w, w])
    q = V.shape[0]
    return F[:, :q] / F[:, q:]


def attention_loss_grad(Zq, Yq, query_weight, Zc, K, V, context_weight, self_index,
                        value_shift=None):
    """Loss and gradients of K and V, as :func:`sklearn_softattn._attention.attention_loss_grad`."""
    d = Zq.shape[1]
    c = (query_weight / query_weight.sum())[:, None]
    KZc = Zc @ K.T
    w = _relative_weights(context_weight)[:, None]
    E = _exp_scores(Zq, KZc, _overflow_scale(Zq, KZc), self_index,
                    _self_log_ratio(context_weight, self_index))
    F = E @ np.hstack([Zc * w, w])
    row_sum = F[:, d:d + 1]
    mean = F[:, :d] / row_sum  # A Zc
    Zbar = mean if value_shift is None else mean + value_shift
    R = (Zbar @ V.T - Yq) * c
    P = (R / row_sum) @ (Zc @ V.T).T
    row_term = np.einsum("ij,ij->i", R, mean @ V.T)[:, None]
    grad_rows = (E * P) @ (Zc * w) - row_term * mean
    loss = 0.5 * float(np.sum(c * (Zbar @ V.T - Yq) ** 2))
    return loss, Zq.T @ grad_rows, R.T @ Zbar
