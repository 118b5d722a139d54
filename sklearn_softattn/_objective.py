"""The training objective: leave-one-out attention loss plus the balancing regularizer."""

from dataclasses import dataclass

import numpy as np

from ._attention import attention_loss_grad
from ._geometry import to_whitened
from ._regularizers import balance_penalty


@dataclass
class Objective:
    """Training objective ``L̂(K, V) + strength * balance(K_w, V_w)``.

    Parameters live in working coordinates; ``P`` maps them to whitened
    coordinates, where the regularizer is defined (``None``: they are whitened).

    Attributes
    ----------
    Z : ndarray of shape (n, d)
        Training queries in working coordinates.
    Y : ndarray of shape (n, q)
        Centered targets.
    weight : ndarray of shape (n,)
        Sample weights of the queries.
    context : ndarray of shape (m, d)
        Context tokens in working coordinates.
    context_weight : ndarray of shape (m,)
        Multiplicity of each token.
    self_index : ndarray of shape (n,)
        Position of each query's own token in the context, -1 if none.
    strength : float
        Weight of the balancing regularizer (0 switches it off).
    P : ndarray of shape (d, d) or None
        Working-to-whitened coordinate map.
    n_jobs : int or None
        Threads over query blocks.
    """

    Z: np.ndarray
    Y: np.ndarray
    weight: np.ndarray
    context: np.ndarray
    context_weight: np.ndarray
    self_index: np.ndarray
    strength: float = 0.0
    P: np.ndarray = None
    n_jobs: int = None

    def __call__(self, K, V, rows=None):
        """Objective value and gradient, over all queries or the given ``rows``."""
        Z, Y, w, idx = self.Z, self.Y, self.weight, self.self_index
        if rows is not None:
            Z, Y, w, idx = Z[rows], Y[rows], w[rows], idx[rows]
        loss, grad_K, grad_V = attention_loss_grad(
            Z, Y, w, self.context, K, V, self.context_weight, idx, self.n_jobs
        )
        if self.strength > 0:
            if self.P is None:
                penalty, pK, pV = balance_penalty(K, V)
            else:
                penalty, pK, pV = balance_penalty(*to_whitened(K, V, self.P))
                pK, pV = self.P.T @ pK @ self.P, pV @ self.P
            loss += self.strength * penalty
            grad_K += self.strength * pK
            grad_V += self.strength * pV
        return loss, grad_K, grad_V
