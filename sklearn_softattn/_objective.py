"""The training objective: leave-one-out attention loss plus the regularizers."""

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ._attention import LossGrad, _one_blas_thread
from ._geometry import change_basis
from ._regularizers import balance_penalty, ridge_penalty


def leave_one_out(Z, Y, weight, self_index, context_total, target_total):
    """Queries, value shifts and targets of the exact leave-one-out error.

    A training row left out of the data leaves the offsets too: removing one
    unit of its weight ``e_i = min(w_i, 1)`` (the own token counts
    ``max(w_i - 1, 0)`` times) from the context's total weight ``W`` moves the
    centred context mean from 0 to ``-e_i z_i / (W - e_i)``, and likewise the
    target mean. Centred on the remaining rows, the query becomes
    ``z_i / (1 - β_i)`` with ``β_i = e_i / W`` (the score's constant part
    cancels in the softmax), every value token ``z_j`` gains the shift
    ``β_i z_i / (1 - β_i)``, and the target becomes ``y_i / (1 - e_i / W_y)``.
    Then the objective is exactly the error ``predict`` would make on row i
    had the model been fitted without it, offsets included; as the softmax
    flattens, the layer tends to least squares rather than to a biased
    version of it.

    Parameters
    ----------
    Z : ndarray of shape (n, d)
        Centred queries in working coordinates.
    Y : ndarray of shape (n, q)
        Centred targets.
    weight : ndarray of shape (n,)
        Positive sample weights of the queries.
    self_index : ndarray of shape (n,)
        Position of each query's own token in the context, -1 if none (such a
        query leaves the feature offset unchanged).
    context_total : float
        Total weight ``W`` of the context tokens, whose mean is the feature offset.
    target_total : float or None
        Total weight ``W_y`` of the rows whose mean is the target offset, all of
        which are queries; None if the queries are not among them.

    Returns
    -------
    Zq : ndarray of shape (n, d)
        Leave-one-out queries.
    value_shift : ndarray of shape (n, d)
        Shift of every value token, per query.
    Yq : ndarray of shape (n, q)
        Leave-one-out targets.
    """
    removed = np.minimum(weight, 1)
    beta = np.where(self_index >= 0, removed / context_total, 0)[:, None]
    Zq = Z / (1 - beta)
    Yq = Y if target_total is None else Y / (1 - removed / target_total)[:, None]
    return Zq, beta * Zq, Yq


@dataclass
class Objective:
    """Training objective ``L̂(K, V) + strength * balance(K_w, V_w) + shrinkage * ridge(K_w, V_w)``.

    Parameters live in working coordinates; ``P`` maps them to whitened
    coordinates, where the regularizers are defined (``None``: they are whitened).

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
    value_shift : ndarray of shape (n, d) or None
        Added to each query's attended mean before the value map (see
        :func:`leave_one_out`).
    strength : float
        Weight of the balancing regularizer (0 switches it off).
    shrinkage : float
        Weight of the ridge penalty of the linear limit (0 switches it off).
    standardize : ndarray of shape (d, d) or None
        Whitened to standardized linear coefficients (``C^{-1/2}``), for the
        ridge penalty.
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
    value_shift: np.ndarray = None
    strength: float = 0.0
    shrinkage: float = 0.0
    standardize: np.ndarray = None
    P: np.ndarray = None
    n_jobs: int = None

    def __call__(self, K, V, rows=None):
        """Objective value and gradient, over all queries or the given ``rows``."""
        if rows is None:
            loss_grad = self._all_queries
        else:
            shift = None if self.value_shift is None else self.value_shift[rows]
            loss_grad = LossGrad(self.Z[rows], self.Y[rows], self.weight[rows], self.context,
                                 self.context_weight, self.self_index[rows], shift, self.n_jobs)
        with _one_blas_thread():
            loss, grad_K, grad_V = loss_grad(K, V)
        for weight, penalty in ((self.strength, balance_penalty), (self.shrinkage, self._ridge)):
            if weight > 0:
                value, pK, pV = self._whitened(penalty, K, V)
                loss += weight * value
                grad_K += weight * pK
                grad_V += weight * pV
        return loss, grad_K, grad_V

    @cached_property
    def _all_queries(self):
        """The attention loss over all queries, prepared once for every call."""
        return LossGrad(self.Z, self.Y, self.weight, self.context, self.context_weight,
                        self.self_index, self.value_shift, self.n_jobs)

    def _ridge(self, K, V):
        return ridge_penalty(K, V, self.standardize)

    def _whitened(self, penalty, K, V):
        """A penalty of whitened parameters, as a function of working ones."""
        if self.P is None:
            return penalty(K, V)
        value, pK, pV = penalty(*change_basis(K, V, self.P))
        return value, *change_basis(pK, pV, self.P.T)  # gradients back to working coordinates
