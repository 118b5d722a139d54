"""The softmax attention kernel: attention weights, forward pass, loss and gradient.

Every function works on arrays in the solver's working coordinates (centered,
and whitened when the covariance preconditioner is on):

- ``Zq`` (B, d): the queries; ``Zc`` (m, d): the context tokens;
- ``K`` (d, d): the key-query matrix; ``V`` (q, d): the value matrix;
- ``context_weight`` (m,): each token's multiplicity ``w_j`` (positive);
- ``self_index`` (B,): for a query that is itself a context token, the index of
  that token, else -1. Its own token then counts ``max(w_j - 1, 0)`` times, so
  that training is leave-one-out and integer weights equal repeated rows.

Cost. The (queries x context) matrices are the whole cost: everything else is
O((n + m) d²). The kernel passes over them as few times as the math allows
(see :func:`attention_loss_grad`): the token multiplicities are folded into
the product that reads the exponentiated scores, so are the row sums, and the
softmax is never normalized in place. Queries are processed in blocks of at
most ``_BLOCK_ELEMENTS`` scores; a thread holds at most two such blocks (one
for a single target), whatever the number of queries, and keeps them for its
next block and its next call.

Threads. Blocks are shared out among ``n_jobs`` threads (numpy releases the
GIL; problems too small to pay for a thread take fewer), from one thread pool
per process: starting a joblib pool took ~10 ms per call here, more than a
whole iteration at n = 500. The default uses the cores scikit-learn's OpenMP
estimators would (all of them, unless limited by ``OMP_NUM_THREADS``,
:func:`threadpoolctl.threadpool_limits` or a joblib worker's limit), so that it
does not oversubscribe inside ``GridSearchCV(n_jobs=...)``.
Each block's results land in their own rows and are summed in a fixed order,
so results do not depend on the number of threads. BLAS runs one thread per
worker: the products have an inner dimension of d (or q), too thin for BLAS
threads to pay, and measured on 2 cores they made one worker 2 to 7 times
slower.
"""

import itertools
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from joblib import effective_n_jobs
from sklearn.utils._openmp_helpers import _openmp_effective_n_threads
from threadpoolctl import ThreadpoolController  # a dependency of scikit-learn

# Scores per block (2**18 float64 values are 2 MiB). Measured with
# benchmarks/bench_iteration.py --blocks: smaller blocks, which stay in a
# core's cache, lost more to the per-block overhead than they gained.
_BLOCK_ELEMENTS = 2**18

# Bytes of scores per thread below which a further thread costs more than it
# saves: the threads hand the GIL back and forth between numpy's small
# operations. Measured on 2 cores (d = 10, q = 1 and 20), a second thread made
# one loss-and-gradient pass, in float64, 1.08 times as long at 460 x 460
# scores, 0.79-0.86 times at 500 x 500 and 0.68-0.70 at 600 x 600; in float32,
# whose exp is four times as fast here, 1.35-1.38 times at 460 x 460,
# 0.97-1.09 at 600 x 600 and 0.72-0.86 at 800 x 800.
_THREAD_BYTES = 900_000

# Above this rank of the matrix P = R Uᵀ (min(q, d)), dL/dK multiplies P into
# the attention weights; at or below it, the product of the attention weights
# with (rank) extra columns per feature is cheaper and needs no second matrix.
_FUSED_MAX_RANK = 2


def _block_slices(n_queries, n_context, n_threads=1):
    """Consecutive query slices whose score matrices hold at most ~_BLOCK_ELEMENTS,
    and, with several threads, at least two per thread when there are enough queries."""
    step = _BLOCK_ELEMENTS // max(n_context, 1)
    if n_threads > 1:
        step = min(step, -(-n_queries // (2 * n_threads)))
    step = max(step, 1)
    return [slice(start, min(start + step, n_queries)) for start in range(0, n_queries, step)]


_controller = None


def _one_blas_thread():
    """Context manager limiting BLAS to one thread.

    The controller is created once (creating one scans the loaded libraries,
    ~0.1 ms; entering its limit then costs ~2 µs, cheap enough for every call).
    """
    global _controller
    if _controller is None:
        _controller = ThreadpoolController()
    return _controller.limit(limits=1, user_api="blas")


def _n_threads(n_jobs):
    """Threads for ``n_jobs``: None means what scikit-learn's OpenMP code would use."""
    return _openmp_effective_n_threads() if n_jobs is None else effective_n_jobs(n_jobs)


_pool = None  # (process id, number of workers, ThreadPoolExecutor)


def _helpers(n_workers):
    """A thread pool of at least ``n_workers`` threads, this process's own.

    The process id is checked because a forked child inherits the pool object
    but not its threads.
    """
    global _pool
    if _pool is None or _pool[0] != os.getpid() or _pool[1] < n_workers:
        _pool = (os.getpid(), n_workers, ThreadPoolExecutor(n_workers, "softattn"))
    return _pool[2]


_scratch = threading.local()


def _scratch_matrix(slot, shape, dtype):
    """A work matrix of ``shape``, this thread's own, reused from call to call.

    A fresh (block x context) array per block went back to the system when
    freed and had to be paged in again for the next block: measured at
    n = 2000 (d = 10, q = 20), a third of the kernel's CPU time was the
    system's, and a loss-and-gradient pass took about twice as long (median
    of 40 calls). Each thread keeps at most one
    array per ``slot`` and dtype, of at least ``_BLOCK_ELEMENTS`` values; its
    content does not outlive the block that asked for it.
    """
    buffers = _scratch.__dict__.setdefault("buffers", {})
    key, size = (slot, np.dtype(dtype)), shape[0] * shape[1]
    if key not in buffers or buffers[key].size < size:
        buffers[key] = np.empty(max(size, _BLOCK_ELEMENTS), dtype=dtype)
    return buffers[key][:size].reshape(shape)


def _map_blocks(fn, n_queries, n_context, itemsize, n_jobs=None):
    """``fn(block)`` for every query block, in ``n_jobs`` threads.

    Small problems take fewer threads: one per ``_THREAD_BYTES`` of scores (of
    ``itemsize`` bytes each) at most. The calling thread and ``n_threads - 1``
    pool threads take the next unclaimed block until none is left, which
    balances the load when another process takes a core. Callers limit BLAS
    to one thread (the limit is process-wide, so it holds in the pool threads
    too).
    """
    n_bytes = n_queries * n_context * itemsize
    n_threads = min(_n_threads(n_jobs), max(1, n_bytes // _THREAD_BYTES))
    blocks = _block_slices(n_queries, n_context, n_threads)
    claims = itertools.count()  # next() on it is atomic under the GIL

    def work():
        while (i := next(claims)) < len(blocks):
            fn(blocks[i])

    n_threads = min(n_threads, len(blocks))
    helpers = [_helpers(n_threads - 1).submit(work) for _ in range(n_threads - 1)]
    work()
    for helper in helpers:
        helper.result()


def _self_log_ratio(context_weight, self_index):
    """Per query, ``log(max(w - 1, 0) / w)`` for its own token of weight ``w``.

    Added to the own token's score, it counts that token ``max(w - 1, 0)``
    times instead of ``w`` (``-inf`` removes it). Zero for other queries.
    """
    own = context_weight[np.maximum(self_index, 0)]
    with np.errstate(divide="ignore"):
        return np.where(self_index >= 0, np.log(np.maximum(own - 1, 0) / own), 0)


def _exp_scores(Zq, KZc, scale=None, self_index=None, self_log_ratio=None, out=None):
    """Unnormalized attention ``exp(score - row max)`` of each query (B, m).

    ``scale`` is :func:`_overflow_scale` of these queries (None: no scaling);
    ``out``, if given, a (B, m) array to hold the result.
    The query's own token, if any, has its score shifted by
    ``self_log_ratio`` first (so a removed token never sets the row maximum).
    Scores are shifted by their row maximum, so no finite score overflows;
    queries whose scores could overflow are first scaled down by a power of
    two, so that finite inputs always give finite weights.
    """
    S = np.matmul(Zq if scale is None else Zq * scale, KZc.T, out=out)
    if self_index is not None:
        rows = np.flatnonzero(self_index >= 0)
        shift = self_log_ratio[rows]
        S[rows, self_index[rows]] += shift if scale is None else scale[rows, 0] * shift
    S -= S.max(axis=1, keepdims=True)
    if scale is not None:
        with np.errstate(over="ignore"):
            S /= scale
    return np.exp(S, out=S)


def _overflow_scale(Zq, KZc):
    """Power-of-two factors (n, 1) that keep every score below ``max / 4``.

    ``|zᵀ k| <= d max|z| max|k|`` bounds each score. Returns None (no scaling)
    when no query needs it, which is the case for all but extreme inputs.
    Computed once for all queries; a block of queries takes its rows.
    """
    if KZc.size == 0:
        return None
    with np.errstate(divide="ignore"):
        bound = (np.log2(Zq.shape[1]) + np.log2(np.abs(KZc).max())
                 + np.log2(np.abs(Zq).max(axis=1, keepdims=True)))
    limit = np.log2(np.finfo(np.result_type(Zq, KZc)).max) - 2
    if not np.any(bound > limit):
        return None
    return np.ldexp(1.0, np.minimum(np.floor(limit - bound), 0).astype(int)).astype(Zq.dtype)


def _rows(scale, block):
    """The overflow factors of a block of queries (None stays None)."""
    return None if scale is None else scale[block]


def _relative_weights(context_weight):
    """Token multiplicities divided by the largest, so that they are at most 1."""
    return context_weight / context_weight.max()


def attention_weights(Zq, KZc, log_w, self_index=None, log_self=None):
    """Row-stochastic softmax attention of each query over the context.

    The kernel itself never forms these normalized weights; this is the
    softmax it computes, for tests and for reading.

    Parameters
    ----------
    Zq : ndarray of shape (B, d)
        Queries.
    KZc : ndarray of shape (m, d)
        Context tokens multiplied by the key-query matrix, ``Zc @ K.T``, so that
        the score of query i on token j is ``Zq[i] @ K @ Zc[j]``.
    log_w : ndarray of shape (m,) or float
        Log multiplicity of each token; a scalar when all tokens have the same
        one (it then cancels in the softmax).
    self_index : ndarray of shape (B,), dtype int, default=None
        Index of each query's own token in the context, -1 if none.
    log_self : ndarray of shape (n_self,), default=None
        Log multiplicity of the own tokens (those with ``self_index >= 0``).

    Returns
    -------
    A : ndarray of shape (B, m)
        Attention weights; each row sums to one. Scores are shifted by their
        row maximum before exponentiation, so no finite score overflows, and
        excluded tokens get weight exactly zero. Queries whose scores could
        overflow are first scaled down by a power of two, so that finite inputs
        always give finite weights.
    """
    log_w = np.broadcast_to(log_w, KZc.shape[:1])
    ratio = None
    if self_index is not None:
        has_self = self_index >= 0
        ratio = np.zeros(len(Zq), dtype=Zq.dtype)
        ratio[has_self] = log_self - log_w[self_index[has_self]]
    E = _exp_scores(Zq, KZc, _overflow_scale(Zq, KZc), self_index, ratio)
    E *= np.exp(log_w - log_w.max())
    E /= E.sum(axis=1, keepdims=True)
    return E


def attention_forward(Zq, Zc, K, V, context_weight, n_jobs=None):
    """Centered predictions ``sum_j softmax_j(zᵀ K z_j + log w_j) V z_j``.

    Queries never attend to each other, only to the context, so the output of
    a row does not depend on the other rows. One product reads each block of
    exponentiated scores, against ``[w_j V z_j, w_j]``: numerators and row
    sums at once. Returns shape (B, q).
    """
    with _one_blas_thread():
        KZc = Zc @ K.T
        w = _relative_weights(context_weight)[:, None]
        values = np.hstack([(Zc @ V.T) * w, w])
        q = V.shape[0]
        scale = _overflow_scale(Zq, KZc)
        score_dtype = np.result_type(Zq, KZc)
        out = np.empty((Zq.shape[0], q), dtype=np.result_type(Zq, values))

        def predict_block(block):
            shape = (block.stop - block.start, len(KZc))
            scores = _scratch_matrix("scores", shape, score_dtype)
            F = _exp_scores(Zq[block], KZc, _rows(scale, block), out=scores) @ values
            out[block] = F[:, :q] / F[:, q:]

        _map_blocks(predict_block, Zq.shape[0], Zc.shape[0], score_dtype.itemsize, n_jobs)
        return out


def attention_loss_grad(
    Zq, Yq, query_weight, Zc, K, V, context_weight, self_index, value_shift=None,
    n_jobs=None,
):
    """Weighted squared loss of the attention layer and its analytic gradient.

    The loss is ``sum_i c_i ||f(z_i) - y_i||² / 2`` with ``c = query_weight /
    query_weight.sum()``, where ``f(z_i) = V (sum_j A_ij z_j + s_i)`` attends
    over the context with the query's own token down-weighted by one
    (leave-one-out) and ``s_i`` is the query's value shift (zero by default).

    With ``A`` the attention weights, ``U = Zc Vᵀ`` the values, ``R`` the
    residuals (times ``c``) and ``P = R Uᵀ``::

        dL/dV = Rᵀ (A Zc + S)
        dL/dK = Zqᵀ G Zc,   G_ij = A_ij (P_ij - sum_k A_ik P_ik)

    Computed with few passes over the (block x context) matrices: the row term
    ``sum_k A_ik P_ik = R_i · V (A Zc)_i`` needs none, so ``G Zc = (A ∘ P) Zc
    - diag(row term) A Zc``; with ``E`` the exponentiated scores, one product
    ``E [w ∘ Zc, w]`` gives ``A Zc`` and the softmax denominators; ``P`` is
    built from its rank-``min(q, d)`` factors (``R Uᵀ`` or ``(R V) Zcᵀ``).
    Passes per block: the scores, their row maximum, the shift, the
    exponential, that product, then either ``P``, ``E ∘ P`` and its product
    with ``Zc`` or, for rank at most ``_FUSED_MAX_RANK`` (a single target),
    no more: the product with ``E`` then carries ``rank × d`` more columns,
    ``P``'s right factor times ``w ∘ Zc``.

    Parameters
    ----------
    Zq : ndarray of shape (n, d)
        Queries.
    Yq : ndarray of shape (n, q)
        Centered targets of the queries.
    query_weight : ndarray of shape (n,)
        Non-negative weights of the queries in the loss.
    Zc : ndarray of shape (m, d)
        Context tokens.
    K : ndarray of shape (d, d)
        Key-query matrix.
    V : ndarray of shape (q, d)
        Value matrix.
    context_weight : ndarray of shape (m,)
        Multiplicity of each context token, positive.
    self_index : ndarray of shape (n,), dtype int
        Position of each query's own token in the context, -1 if none.
    value_shift : ndarray of shape (n, d), default=None
        Added to each query's attention-weighted mean of the context tokens
        before the value map (the exact leave-one-out centring of
        :func:`~sklearn_softattn._objective.leave_one_out`).
    n_jobs : int, default=None
        Threads over query blocks (None: the cores scikit-learn's OpenMP
        estimators would use, see the module docstring).

    Returns
    -------
    loss : float
    grad_K : ndarray of shape (d, d)
    grad_V : ndarray of shape (q, d)
    """
    with _one_blas_thread():
        return _loss_grad(Zq, Yq, query_weight, Zc, K, V, context_weight, self_index,
                          value_shift, n_jobs)


def _loss_grad(Zq, Yq, query_weight, Zc, K, V, context_weight, self_index, value_shift,
               n_jobs):
    """:func:`attention_loss_grad`, with BLAS limited to one thread."""
    n, (q, d) = Zq.shape[0], V.shape
    c = (query_weight / query_weight.sum())[:, None]
    KZc = Zc @ K.T
    w = _relative_weights(context_weight)[:, None]
    ratio = _self_log_ratio(context_weight, self_index)
    scale = _overflow_scale(Zq, KZc)
    score_dtype = np.result_type(Zq, KZc)
    # P = R Uᵀ = left @ right.T, through the thinner of its two factorizations.
    right = Zc if d <= q else Zc @ V.T
    rank = right.shape[1]
    fused = rank <= _FUSED_MAX_RANK
    columns = [Zc * w, w]
    if fused:
        columns += [right[:, [a]] * Zc * w for a in range(rank)]
    tokens = np.hstack(columns)
    dtype = np.result_type(Zq, tokens)
    # Per-query results, summed once all blocks are done.
    loss = np.empty(n, dtype=dtype)
    residual = np.empty((n, q), dtype=dtype)
    attended = np.empty((n, d), dtype=dtype)
    grad_rows = np.empty((n, d), dtype=dtype)

    def block_loss_grad(block):
        shape = (block.stop - block.start, len(KZc))
        scores = _scratch_matrix("scores", shape, score_dtype)
        E = _exp_scores(Zq[block], KZc, _rows(scale, block), self_index[block],
                        ratio[block], out=scores)
        F = E @ tokens
        row_sum = F[:, d:d + 1]
        mean = F[:, :d] / row_sum  # A Zc
        Zbar = mean if value_shift is None else mean + value_shift[block]
        R = Zbar @ V.T
        R -= Yq[block]
        loss[block] = np.einsum("ij,ij->i", R, R)
        R *= c[block]
        row_term = np.einsum("ij,ij->i", R, mean @ V.T)[:, None]
        R_over_sum = R / row_sum
        left = R_over_sum @ V if d <= q else R_over_sum
        if fused:
            AP_Zc = np.einsum("ia,iaj->ij", left, F[:, d + 1:].reshape(-1, rank, d))
        else:
            P = _scratch_matrix("products", shape, np.result_type(left, right))
            E *= np.matmul(left, right.T, out=P)
            AP_Zc = E @ tokens[:, :d]
        residual[block], attended[block] = R, Zbar
        grad_rows[block] = AP_Zc - row_term * mean

    _map_blocks(block_loss_grad, n, Zc.shape[0], score_dtype.itemsize, n_jobs)
    return 0.5 * float(c[:, 0] @ loss), Zq.T @ grad_rows, residual.T @ attended
