"""Each query's nearest context tokens in the metric of the distance scores, for local
attention, and a bound on the softmax mass the other tokens could carry.

With distance scores ``-½ (z - z_j)ᵀ K (z - z_j)`` and ``K = LᵀL``, a query's
score on token j is ``-½ ‖L (z - z_j)‖²``: minus half the squared Euclidean
distance between the coordinates ``z Lᵀ`` and ``z_j Lᵀ``. Its softmax weight
falls off with that distance, so :func:`nearest_tokens` finds each query's
nearest tokens in those coordinates (a k-d tree, searched by the compiled
:mod:`sklearn_softattn._search`), to pass as ``neighbors`` to
:func:`~sklearn_softattn._attention.attention_loss_grad` and
:func:`~sklearn_softattn._attention.attention_forward`, and
:func:`dropped_mass_bound` bounds the weight the dense layer would have put on the
tokens left out.
"""

from typing import NamedTuple

import numpy as np
from scipy.special import expit, logsumexp
from sklearn.utils._openmp_helpers import _openmp_effective_n_threads

from . import _search

# Gathered coordinates per chunk of queries in dropped_mass_bound (8 MiB in float64).
_CHUNK_ELEMENTS = 2**20

# Rows per leaf of the search tree, at most (at least 2, so that no leaf is empty). The
# search computes a whole leaf's distances at once, cheaper per token than a node's box:
# at n = 20000, k = 64, d = 10, 16 rows took 3.7 s, 64 took 2.1 s, 128 1.9 s, 256 1.8 s.
_LEAF_SIZE = 128


class _Tree(NamedTuple):
    """The search tree's arrays, in the order :func:`_search.nearest` takes them."""

    columns: np.ndarray  # (r, m) the coordinates by column, in leaf order
    order: np.ndarray  # (m,) their positions
    lo: np.ndarray  # (nodes, r) each node's bounding box
    hi: np.ndarray
    min_pos: np.ndarray  # (nodes,) each node's smallest position
    bounds: np.ndarray  # (leaves + 1,) each leaf's first column, and the end
    levels: int


def _coordinates(Z, L):
    """``Z Lᵀ`` in float64, each entry the same sum of products in the same order for
    equal rows of ``Z`` (elementwise, not through BLAS, whose blocking may round equal
    rows differently): duplicate rows then lie at distance exactly 0."""
    Z = np.asarray(Z, dtype=np.float64)
    L = np.asarray(L, dtype=np.float64)
    X = np.zeros((len(Z), len(L)))
    for col in range(Z.shape[1]):
        X += Z[:, col:col + 1] * L[:, col]
    return X


def _check_inputs(Zq, Zc, L, self_index):
    """Raise ValueError unless the shapes agree; return ``self_index`` as intp (n,)
    (-1 everywhere when None)."""
    if np.ndim(Zq) != 2 or np.ndim(Zc) != 2 or np.ndim(L) != 2:
        raise ValueError("Zq, Zc and L must be 2-D.")
    n, d = np.shape(Zq)
    if np.shape(Zc)[1] != d or np.shape(L)[1] != d:
        raise ValueError(f"Inconsistent shapes: queries {np.shape(Zq)}, context "
                         f"{np.shape(Zc)}, metric factor {np.shape(L)}.")
    if len(Zc) == 0:
        raise ValueError("The context is empty: there is nothing to attend to.")
    if self_index is None:
        return np.full(n, -1, dtype=np.intp)
    self_index = np.asarray(self_index, dtype=np.intp)
    if self_index.shape != (n,):
        raise ValueError(f"self_index has shape {self_index.shape}; expected ({n},).")
    if n and (self_index.min() < -1 or self_index.max() >= len(Zc)):
        raise ValueError(f"self_index must lie in [-1, {len(Zc)}), the context's positions.")
    return self_index


def list_width(k, m, self_index=None):
    """Positions per query that :func:`nearest_tokens` lists: ``k`` others, plus the own
    token if some query has one (``self_index`` >= 0; None: none has), at most the
    ``m`` tokens. ``m`` means every token: the dense layer."""
    has_own = self_index is not None and np.any(np.asarray(self_index) >= 0)
    return min(m, k + int(has_own))


def _level_bounds(m, level):
    """First row of each node at ``level`` of the search tree over ``m`` rows, and the
    end: each level halves the nodes of the one above."""
    return np.arange(2**level + 1, dtype=np.intp) * m >> level


def _leaf_order(X, levels):
    """The rows of ``X`` in leaf order: ``levels - 1`` times, each node's rows sorted
    along the coordinate of their widest spread and halved (ties in the order so far,
    so that the order depends on ``X`` only)."""
    m = len(X)
    order = np.arange(m, dtype=np.intp)
    for level in range(levels - 1):
        starts = _level_bounds(m, level)[:-1]
        rows = X[order]
        spread = np.maximum.reduceat(rows, starts) - np.minimum.reduceat(rows, starts)
        node = np.repeat(np.arange(len(starts)), np.diff(_level_bounds(m, level)))
        key = rows[np.arange(m), np.argmax(spread, axis=1)[node]]
        order = order[np.lexsort((key, node))]
    return order


def _levels(m):
    """Levels of the search tree over ``m`` rows: leaves of at most ``_LEAF_SIZE``."""
    return 1 + max(0, int(np.ceil(np.log2(m / _LEAF_SIZE))))


def locality_order(X):
    """An order of the rows of ``X`` that keeps near rows together: the search tree's
    leaf order (:func:`_leaf_order`), a function of ``X`` alone. Local attention
    gathers each query's neighbors; in this order they lie close in memory (one
    local pass at 100 000 rows, k = 64, d = 10 took 0.13 s against 0.24 s in a random
    order; 0.029 against 0.039 s at 20 000). A whole L-BFGS fit of 40 iterations at
    20 000 rows took the same time either way (10.6 s): its neighbor searches
    dominate it there."""
    return _leaf_order(np.asarray(X, dtype=np.float64), _levels(len(X)))


def _build_tree(X):
    """The search tree over the rows of ``X`` for :func:`_search.nearest`: leaves of at
    most ``_LEAF_SIZE`` rows (:func:`_leaf_order`), each node's bounding box and
    smallest position, in heap layout (node i's children are 2i + 1 and 2i + 2)."""
    m = len(X)
    levels = _levels(m)
    order = _leaf_order(X, levels)
    rows, bounds = X[order], _level_bounds(m, levels - 1)
    lo, hi = np.empty((2**levels - 1, X.shape[1])), np.empty((2**levels - 1, X.shape[1]))
    min_pos = np.empty(2**levels - 1, dtype=np.intp)
    leaves = slice(2**(levels - 1) - 1, None)
    lo[leaves] = np.minimum.reduceat(rows, bounds[:-1])
    hi[leaves] = np.maximum.reduceat(rows, bounds[:-1])
    min_pos[leaves] = np.minimum.reduceat(order, bounds[:-1])
    for level in range(levels - 2, -1, -1):
        nodes = np.arange(2**level - 1, 2**(level + 1) - 1)
        lo[nodes] = np.minimum(lo[2 * nodes + 1], lo[2 * nodes + 2])
        hi[nodes] = np.maximum(hi[2 * nodes + 1], hi[2 * nodes + 2])
        min_pos[nodes] = np.minimum(min_pos[2 * nodes + 1], min_pos[2 * nodes + 2])
    return _Tree(np.ascontiguousarray(rows.T), order, lo, hi, min_pos, bounds, levels)


def nearest_tokens(Zq, Zc, L, k, self_index=None, n_jobs=None):
    """Each query's nearest context tokens in the metric ``K = LᵀL``, for local attention.

    Parameters
    ----------
    Zq : ndarray of shape (n, d)
        Queries.
    Zc : ndarray of shape (m, d)
        Context tokens.
    L : ndarray of shape (r, d)
        A factor of the key-query matrix, ``K = LᵀL``: distances are Euclidean in the
        coordinates ``Z Lᵀ`` (so that ``-½`` their square is the distance score).
    k : int
        Nearest tokens per query, besides its own token.
    self_index : ndarray of shape (n,), dtype int, default=None
        Position of each query's own token in the context, -1 if none (None: none
        has one).
    n_jobs : int, default=None
        OpenMP threads over the queries, counted as scikit-learn's OpenMP
        estimators and the attention kernel count them (None: all cores unless
        limited). The result does not depend on it.

    Returns
    -------
    neighbors : ndarray of shape (n, k'), dtype intp
        Distinct context positions per query. ``k' = min(m, k + 1)`` when some query
        has an own token, else ``min(m, k)``. A query with an own token lists it first
        (it is kept, not dropped: the attention down-weights it as the dense layer
        does, so a leave-one-out objective stays exact), then its ``k' - 1`` nearest
        other tokens; a query without one lists its ``k'`` nearest tokens. The other
        tokens come in the order of (distance, position): of several tokens at the
        same distance (duplicate rows, at distance 0), those of smaller position come
        first and are the ones kept, whatever the tree's traversal, the chunks and the
        threads. Distances are compared as squared distances, each the same sum in
        coordinate order of the squared differences of the coordinates ``Z Lᵀ``, so
        that ties are exact. When ``k' = m``, every row is ``0, ..., m - 1``, in that
        order: the dense layer.
    """
    self_index = _check_inputs(Zq, Zc, L, self_index)
    if not (isinstance(k, (int, np.integer)) and k >= 1):
        raise ValueError(f"k must be a positive integer, got {k!r}.")
    n, m = len(Zq), len(Zc)
    width = list_width(k, m, self_index)
    if width == m:
        return np.tile(np.arange(m, dtype=np.intp), (n, 1))
    if n == 0:
        return np.empty((0, width), dtype=np.intp)
    Xq, Xc = _coordinates(Zq, L), _coordinates(Zc, L)
    if not (np.all(np.isfinite(Xq)) and np.all(np.isfinite(Xc))):
        raise ValueError("Zq, Zc and L must be finite.")
    out = np.empty((n, width), dtype=np.intp)
    _search.nearest(Xq, *_build_tree(Xc), self_index, out,
                    _openmp_effective_n_threads(n_jobs))
    return out


def dropped_mass_bound(Zq, Zc, L, neighbors, context_weight=None, self_index=None):
    """Upper bound, per query, on the dense softmax mass of the tokens left out of
    its neighbors.

    For query i, the dense layer (distance scores with ``K = LᵀL``, each token
    counted ``w_j`` times and the own token ``max(w_j - 1, 0)`` times) gives the
    tokens outside ``neighbors[i]`` the total attention weight::

        dropped_i = D_i / (D_i + S_i),   D_i = sum_{j dropped} w_j e^{s_ij},
                                         S_i = sum_{j kept} w'_ij e^{s_ij},

    ``s_ij = -½ ‖L (z_i - z_j)‖²``. If every dropped token is at least as far as
    the farthest kept one (distance ``r_i``), as :func:`nearest_tokens` ensures for
    the same ``L``, then ``D_i <= W_i e^{-½ r_i²}``, ``W_i`` the dropped tokens'
    total multiplicity, and since ``dropped_i`` grows with ``D_i``::

        dropped_i <= 1 / (1 + S_i / (W_i e^{-½ r_i²})),

    which this returns, computed in log space (no overflow nor underflow of the
    exponentials). The local layer renormalizes over the kept tokens, so each of
    its attention weights differs from the dense layer's by at most this mass, and
    its outputs by at most twice this mass times the largest value norm ``‖V x̃_j‖``.
    The bound does not hold for neighbors found in another metric (an ``L`` of an
    earlier iteration).

    Parameters
    ----------
    Zq : ndarray of shape (n, d)
        Queries.
    Zc : ndarray of shape (m, d)
        Context tokens.
    L : ndarray of shape (r, d)
        Factor of the key-query matrix, ``K = LᵀL``.
    neighbors : ndarray of shape (n, k), dtype int
        Distinct context positions per query, e.g. from :func:`nearest_tokens`.
    context_weight : ndarray of shape (m,), default=None
        Multiplicity of each token (None: one each).
    self_index : ndarray of shape (n,), dtype int, default=None
        Position of each query's own token, -1 if none (None: none has one; the
        bound for predictions).

    Returns
    -------
    bound : ndarray of shape (n,)
        In [0, 1]; 0 where no multiplicity is dropped (all tokens kept).
    """
    self_index = _check_inputs(Zq, Zc, L, self_index)
    n, m = len(Zq), len(Zc)
    neighbors = np.asarray(neighbors, dtype=np.intp)
    if neighbors.ndim != 2 or len(neighbors) != n:
        raise ValueError(f"neighbors has shape {neighbors.shape}; expected ({n}, k).")
    w = np.ones(m) if context_weight is None else np.asarray(context_weight, dtype=float)
    Xq, Xc = _coordinates(Zq, L), _coordinates(Zc, L)
    kept_weight = w[neighbors]
    own = neighbors == self_index[:, None]
    kept_weight[own] = np.maximum(kept_weight[own] - 1, 0)
    # Every token counts w_j times, the own token (kept or not) one time fewer.
    total = w.sum() - np.where(self_index >= 0, np.minimum(w[self_index], 1), 0)
    # Distinct positions: a row of m keeps every token (and its difference may round
    # to a little above 0).
    dropped_weight = (np.zeros(n) if neighbors.shape[1] == m
                      else np.maximum(total - kept_weight.sum(axis=1), 0))
    bound = np.empty(n)
    rows = max(1, _CHUNK_ELEMENTS // max(1, neighbors.shape[1] * Xq.shape[1]))
    for start in range(0, n, rows):
        block = slice(start, start + rows)
        squared = np.sum((Xq[block, None, :] - Xc[neighbors[block]]) ** 2, axis=2)
        with np.errstate(divide="ignore"):
            log_kept = logsumexp(-0.5 * squared, b=kept_weight[block], axis=1)
            log_dropped = np.log(dropped_weight[block]) - 0.5 * squared.max(axis=1)
            bound[block] = np.where(dropped_weight[block] > 0,
                                    expit(log_dropped - log_kept), 0)
    return bound


# Local attention searches its neighbors anew once the metric's direction
# ``L / ‖L‖_F`` has moved by more than this (spectral norm) from that of the last
# search. A rescaled metric orders the tokens as before, so the points of a path
# of scales share one search until the metric's shape changes. Chosen among 0.03,
# 0.1 and 0.3 by bench_local.py's rule (the largest within 0.005 test R²
# of 0.03's on every set and scale, at k = 64): 0.1 fell 0.013 below 0.03 on
# make_friedman1 (2000 rows) at attention_scale 3, 0.3 fell 0.08 below on 5000.
NEIGHBOR_REFRESH = 0.03


def metric_shift(L, L_searched):
    """Spectral norm of the change of the metric's direction, ``‖L/‖L‖_F -
    L₀/‖L₀‖_F‖₂``: 0 for a rescaled metric, at most 2. Each distance
    ``‖L (z - z_j)‖`` is, relative to ``‖L‖_F``, within that much times ``‖z - z_j‖``
    of its value at the search."""
    def direction(L):
        norm = np.linalg.norm(L)
        return L / norm if norm > 0 else L
    return float(np.linalg.norm(direction(L) - direction(L_searched), 2))


class TrainingNeighbors:
    """The training queries' neighbor lists for local attention, searched anew
    only when the metric has moved (see :data:`NEIGHBOR_REFRESH`) and the solver
    asks (:meth:`refresh`, between iterations: within one, every evaluation sees
    the same lists, so the objective a line search or a step test compares is one
    function).

    Parameters
    ----------
    Zq : ndarray of shape (n, d)
        Training queries.
    Zc : ndarray of shape (m, d)
        Context tokens.
    k : int
        Nearest other tokens per query (see :func:`nearest_tokens`).
    self_index : ndarray of shape (n,)
        Position of each query's own token in the context, -1 if none.
    n_jobs : int, default=None
        Threads of the search.
    max_shift : float, default=None
        The :func:`metric_shift` beyond which :meth:`refresh` searches anew (None:
        :data:`NEIGHBOR_REFRESH` as it is when the lists are made).

    Attributes
    ----------
    n_searches : int
        Searches so far (a metric of full width, ``k`` + 1 >= m, needs none).
    """

    def __init__(self, Zq, Zc, k, self_index, n_jobs=None, max_shift=None):
        self.Zq, self.Zc, self.k, self.self_index = Zq, Zc, k, self_index
        self.n_jobs = n_jobs
        self.max_shift = NEIGHBOR_REFRESH if max_shift is None else max_shift
        self.n_searches = 0
        self._searched = None  # (L, neighbors) of the last search

    @property
    def dense(self):
        """Whether every query keeps every token: the dense layer, no search needed."""
        return list_width(self.k, len(self.Zc), self.self_index) == len(self.Zc)

    def __call__(self, L):
        """Neighbor lists (n, k') of the last search (the first call searches, in the
        metric ``L``); None if every token is kept."""
        if self.dense:
            return None
        if self._searched is None:
            self._search(L)
        return self._searched[1]

    def refresh(self, L):
        """Search anew if ``L`` has moved by more than ``max_shift`` since the last
        search; return whether the lists changed (a first search counts)."""
        if self.dense or (self._searched is not None
                          and metric_shift(L, self._searched[0]) <= self.max_shift):
            return False
        old = None if self._searched is None else self._searched[1]
        self._search(L)
        return old is None or not np.array_equal(old, self._searched[1])

    def _search(self, L):
        neighbors = nearest_tokens(self.Zq, self.Zc, L, self.k, self.self_index, self.n_jobs)
        self._searched = (np.array(L, dtype=np.float64), neighbors)
        self.n_searches += 1

    def queries(self, Zq, L):
        """:func:`query_neighbors` of other queries ``Zq`` for the metric ``L``."""
        return query_neighbors(Zq, self.Zc, L, self.k, self.n_jobs)


def query_neighbors(Zq, Zc, L, k, n_jobs=None):
    """The ``k`` nearest context tokens of queries that have none of their own (as in
    ``predict``), in the metric ``L``; None when ``k`` keeps every token (the dense
    layer)."""
    if list_width(k, len(Zc)) == len(Zc):
        return None
    return nearest_tokens(Zq, Zc, L, k, n_jobs=n_jobs)
