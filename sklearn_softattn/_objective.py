"""The training objective: leave-one-out attention loss plus the regularizers."""

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ._attention import LossGrad, _one_blas_thread, attention_forward
from ._geometry import change_basis
from ._neighbors import TrainingNeighbors
from ._regularizers import balance_penalty, ridge_penalty, ridge_penalty_linear


def leave_one_out(Z, Y, weight, self_index, context_total, target_total, target_tokens=False,
                  distance=False):
    """Queries, value shifts and targets of the exact leave-one-out error.

    A training row left out of the data leaves the offsets too: removing one
    unit of its weight ``e_i = min(w_i, 1)`` (the own token counts
    ``max(w_i - 1, 0)`` times) from the context's total weight ``W`` moves the
    centred context mean from 0 to ``-e_i z_i / (W - e_i)``, and likewise the
    target mean. Centred on the remaining rows, the query becomes
    ``z_i / (1 - β_i)`` with ``β_i = e_i / W`` (the score's constant part
    cancels in the softmax), every value token ``z_j`` gains the shift
    ``β_i z_i / (1 - β_i)``, and the target becomes ``y_i / (1 - e_i / W_y)``;
    with target tokens, every token's target ``y_j`` gains the shift
    ``γ_i y_i / (1 - γ_i)``, ``γ_i = e_i / W_y`` (the target mean moves too).
    Distance scores do not change when the query and the tokens move together, so
    with them the query stays ``z_i`` (only the values shift).
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
    target_tokens : bool, default=False
        Whether the tokens carry their targets (then ``value_shift`` has the
        targets' shifts in its last q columns).
    distance : bool, default=False
        Whether the scores are distances.

    Returns
    -------
    Zq : ndarray of shape (n, d)
        Leave-one-out queries.
    value_shift : ndarray of shape (n, d), or (n, d + q) with target tokens
        Shift of every value token, per query.
    Yq : ndarray of shape (n, q)
        Leave-one-out targets.
    """
    # In float64, as the weights are, then in the data's dtype.
    removed = np.minimum(weight, 1)
    beta = np.where(self_index >= 0, removed / context_total, 0)[:, None].astype(Z.dtype)
    Zq = Z / (1 - beta)
    gamma = 0 if target_total is None else (removed / target_total)[:, None].astype(Z.dtype)
    Yq = Y if target_total is None else Y / (1 - gamma)
    shift = beta * Zq
    if target_tokens:
        shift = np.hstack([shift, gamma * Yq])
    return (Z if distance else Zq), shift, Yq


class Skip(NamedTuple):
    """A linear skip term ``S z`` beside the attention: the training queries in the
    features' working coordinates (leave-one-out: centred on the mean of the other
    rows), and the map of their whitened coefficients to standardized ones."""

    queries: np.ndarray
    standardize: np.ndarray


@dataclass
class Objective:
    """Training objective ``L̂(K, V) + strength * balance(K_w, V_w) + shrinkage * ridge(K_w, V_w)``.

    Parameters live in working coordinates; ``P`` maps them to whitened
    coordinates, where the regularizers are defined (``None``: they are whitened).
    With target tokens ``V`` has d + q columns, ``[V_x, U]``, and the regularizers
    see its feature block ``V_x`` (the paper's value matrix; ``U`` is free). With
    distance scores the objective is a function of the metric ``L``, ``K = LᵀL``,
    so that every iterate is a distance; with ``neighbors`` too, each query attends
    to its nearest tokens in ``L`` only (local attention). With a ``skip`` term,
    ``V``'s last columns are its coefficients ``S`` (q × the features), the
    prediction adds ``S z`` for the query's features ``z``, and the ridge penalty
    falls on ``S``, the layer's linear part, instead of on ``V Kᵀ``.

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
    value_shift : ndarray of shape (n, p) or None
        Added to each query's attended mean before the value map (see
        :func:`leave_one_out`); p = d, or d + q with target tokens.
    targets : ndarray of shape (m, q) or None
        The context tokens' centred targets, with target tokens (None: without).
    scores : {"bilinear", "distance"}
        The attention scores (see :func:`~._attention.attention_forward`).
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
    neighbors : TrainingNeighbors or None
        The training queries' neighbor lists, with local attention (distance
        scores): searched when the metric has moved, and shared by the copies a
        solver makes for each point of a path. None: every query attends to the
        whole context.
    skip : Skip or None
        The linear skip term's queries, or None: no skip term.
    """

    Z: np.ndarray
    Y: np.ndarray
    weight: np.ndarray
    context: np.ndarray
    context_weight: np.ndarray
    self_index: np.ndarray
    value_shift: np.ndarray = None
    targets: np.ndarray = None
    scores: str = "bilinear"
    strength: float = 0.0
    shrinkage: float = 0.0
    standardize: np.ndarray = None
    P: np.ndarray = None
    n_jobs: int = None
    neighbors: TrainingNeighbors = None
    skip: Skip = None
    _prepared: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __call__(self, K, V, rows=None):
        """Objective value and gradient, over all queries or the given ``rows``
        (with distance scores, ``K`` is the metric ``L`` and the gradient is ``L``'s)."""
        L = K
        K = self.key_query(L)
        neighbors = None if self.neighbors is None else self.neighbors(L)
        if rows is None:
            loss_grad = self._all_queries(neighbors)
            rows = slice(None)
        else:
            shift = None if self.value_shift is None else self.value_shift[rows]
            loss_grad = self._loss_grad(self.Z[rows], self.Y[rows], self.weight[rows],
                                        self.self_index[rows], shift,
                                        None if neighbors is None else neighbors[rows])
        d = K.shape[0]
        with _one_blas_thread():
            if self.skip is None:
                loss, grad_K, grad_V = loss_grad(K, V)
            else:
                # The attention fits what the skip term leaves: Y - S z.
                attention, S = self.split(V)
                queries = self.skip.queries[rows]
                loss, grad_K, grad_A, residual = loss_grad(
                    K, attention, Y=self.Y[rows] - queries @ S.T, return_residual=True)
                grad_V = np.hstack([grad_A, residual.T @ queries])
        # The ridge penalty falls on the linear part: V Kᵀ, or the skip term's S.
        penalties = [(self.strength, balance_penalty)]
        if self.skip is None:
            penalties.append((self.shrinkage, self._ridge))
        elif self.shrinkage > 0:
            S = self.split(V)[1]
            value, grad_S = ridge_penalty_linear(S, self.skip.standardize)
            loss += self.shrinkage * value
            grad_V[:, V.shape[1] - S.shape[1]:] += self.shrinkage * grad_S
        for weight, penalty in penalties:
            if weight > 0:
                value, pK, pV = self._whitened(penalty, K, V[:, :d])
                loss += weight * value
                grad_K += weight * pK
                grad_V[:, :d] += weight * pV
        if self.metric:
            grad_K = L @ (grad_K + grad_K.T)
        return loss, grad_K, grad_V

    @property
    def n_skip(self):
        """The columns of ``V`` that are a skip term's (0 without one)."""
        return 0 if self.skip is None else self.skip.queries.shape[1]

    def split(self, V):
        """``V`` as the attention's value matrix and the skip term's ``S`` (None
        without a skip term)."""
        if self.skip is None:
            return V, None
        return V[:, :-self.n_skip], V[:, -self.n_skip:]

    def refresh(self, K, V):
        """Between iterations: let the objective change (with local attention, search
        the neighbors anew if the metric ``K`` has moved, see
        :class:`~._neighbors.TrainingNeighbors`). Returns whether it changed, in which
        case a solver must evaluate its current point again before comparing."""
        return self.neighbors is not None and self.neighbors.refresh(K)

    def forward(self, Zq, K, V, skip_queries=None):
        """Centred predictions at working queries ``Zq``, every token attended as given
        (``K`` the solver's first parameter, as for a call; with local attention each
        query attends to its nearest tokens in that metric); with a skip term, plus
        ``S`` times ``skip_queries``, the same rows in the features' coordinates."""
        neighbors = None if self.neighbors is None else self.neighbors.queries(Zq, K)
        attention, S = self.split(V)
        y = attention_forward(Zq, self.context, self.key_query(K), attention,
                              self.context_weight, self.n_jobs, targets=self.targets,
                              scores=self.scores, neighbors=neighbors)
        return y if S is None else y + skip_queries @ S.T

    @property
    def metric(self):
        """Whether the solver's first parameter is a metric ``L`` (distance scores)."""
        return self.scores == "distance"

    def key_query(self, K):
        """The key-query matrix of the solver's first parameter (``LᵀL`` for a metric)."""
        return K.T @ K if self.metric else K

    def _loss_grad(self, Z, Y, weight, self_index, value_shift, neighbors):
        return LossGrad(Z, Y, weight, self.context, self.context_weight, self_index,
                        value_shift, self.n_jobs, targets=self.targets, scores=self.scores,
                        neighbors=neighbors)

    def _all_queries(self, neighbors):
        """The attention loss over all queries, prepared once for every call with the
        same ``neighbors``."""
        if "loss_grad" not in self._prepared or self._prepared["neighbors"] is not neighbors:
            self._prepared.update(neighbors=neighbors, loss_grad=self._loss_grad(
                self.Z, self.Y, self.weight, self.self_index, self.value_shift, neighbors))
        return self._prepared["loss_grad"]

    def _ridge(self, K, V):
        return ridge_penalty(K, V, self.standardize)

    def _whitened(self, penalty, K, V):
        """A penalty of whitened parameters, as a function of working ones."""
        if self.P is None:
            return penalty(K, V)
        value, pK, pV = penalty(*change_basis(K, V, self.P))
        return value, *change_basis(pK, pV, self.P.T)  # gradients back to working coordinates
