"""The softmax attention kernel: attention weights, forward pass, loss and gradient.

Every function works on arrays in the solver's working coordinates (centered,
and whitened when the covariance preconditioner is on):

- ``Zq`` (B, d): the queries; ``Zc`` (m, d): the context tokens;
- ``K`` (d, d): the key-query matrix; ``V`` (q, d): the value matrix;
- ``context_weight`` (m,): each token's multiplicity ``w_j`` (it enters the
  softmax as ``+ log w_j``);
- ``self_index`` (B,): for a query that is itself a context token, the index of
  that token, else -1. Its own token then counts ``max(w_j - 1, 0)`` times, so
  that training is leave-one-out and integer weights equal repeated rows.

Queries are processed in blocks, so that at most one (block, m) score matrix
(and its gradient) is alive per worker, whatever the number of queries. With
``n_jobs``, blocks run in threads (numpy releases the GIL); results are
combined in block order, so they do not depend on ``n_jobs``. BLAS runs one
thread per worker, ``n_jobs=1`` included: the products here have an inner
dimension of d (or q), too thin for BLAS threads to pay, and measured on 2
cores they made ``n_jobs=1`` 2 to 7 times slower (threads spinning while
numpy's single-threaded exp and reductions run, worse on a loaded machine).
Cores are used through ``n_jobs``.
"""

import numpy as np
from joblib import effective_n_jobs
from sklearn.utils.parallel import Parallel, delayed
from threadpoolctl import ThreadpoolController  # a dependency of scikit-learn

# Elements of one (block x context) matrix: 2**20 float64 values are 8 MiB.
_BLOCK_ELEMENTS = 2**20


def _block_slices(n_queries, n_context):
    """Consecutive query slices whose score matrices hold ~_BLOCK_ELEMENTS."""
    step = max(1, _BLOCK_ELEMENTS // max(n_context, 1))
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


# Tasks per worker thread: each task runs a contiguous run of blocks.
_TASKS_PER_WORKER = 4


def _map_blocks(fn, n_queries, n_context, n_jobs=None):
    """``[fn(block) for block in query blocks]``, in threads if ``n_jobs`` asks.

    BLAS is limited to one thread per worker (see the module docstring). With
    several workers, the blocks are dealt in ``_TASKS_PER_WORKER`` contiguous
    runs per worker rather than one task per block: dispatching each ~4 ms
    block alone cost a quarter of the second core (predict on 2 cores: 1.5x
    instead of 1.65x), while a few runs per worker still balance the load
    when another process takes a core. Results stay in block order.
    """
    blocks = _block_slices(n_queries, n_context)
    with _one_blas_thread():
        n_workers = effective_n_jobs(n_jobs)
        if len(blocks) == 1 or n_workers == 1:
            return [fn(block) for block in blocks]
        n_tasks = min(len(blocks), _TASKS_PER_WORKER * n_workers)
        bounds = np.linspace(0, len(blocks), n_tasks + 1).astype(int)
        runs = Parallel(n_jobs=n_jobs, require="sharedmem")(
            delayed(_map_run)(fn, blocks[lo:hi]) for lo, hi in zip(bounds[:-1], bounds[1:])
        )
        return [result for run in runs for result in run]


def _map_run(fn, blocks):
    """``[fn(block) for block in blocks]``: one task of :func:`_map_blocks`."""
    return [fn(block) for block in blocks]


def _log_weights(context_weight):
    """Log multiplicity of each context token; a scalar if they are all equal."""
    with np.errstate(divide="ignore"):
        if np.all(context_weight == context_weight[0]):
            return np.log(context_weight[0])
        return np.log(context_weight)


def _log_self_weights(context_weight, self_index):
    """Which queries are context tokens, and the log multiplicity of their own."""
    has_self = self_index >= 0
    with np.errstate(divide="ignore"):
        return has_self, np.log(np.maximum(context_weight[self_index[has_self]] - 1, 0))


def attention_weights(Zq, KZc, log_w, self_index=None, log_self=None):
    """Row-stochastic softmax attention of each query over the context.

    Parameters
    ----------
    Zq : ndarray of shape (B, d)
        Queries.
    KZc : ndarray of shape (m, d)
        Context tokens multiplied by the key-query matrix, ``Zc @ K.T``, so that
        the score of query i on token j is ``Zq[i] @ K @ Zc[j]``.
    log_w : ndarray of shape (m,) or float
        Log multiplicity of each token (``-inf`` excludes a token); a scalar
        when all tokens have the same one (it then cancels in the softmax).
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
    E, row_sums = _exp_scores(Zq, KZc, log_w, self_index, log_self)
    E /= row_sums
    return E


def _exp_scores(Zq, KZc, log_w, self_index=None, log_self=None):
    """Unnormalized attention ``exp(score - row max)`` and its row sums (B, 1)."""
    t = _overflow_scale(Zq, KZc)
    uniform = np.ndim(log_w) == 0
    if t is None:
        A = Zq @ KZc.T
        if not uniform:
            A += log_w
    else:
        # softmax(s + log w) = softmax((t s + t log w) / t), computed without inf.
        A = (Zq * t) @ KZc.T
        if not uniform:
            A += t * log_w
    if self_index is not None:
        rows = np.flatnonzero(self_index >= 0)
        shift = log_self - (log_w if uniform else log_w[self_index[rows]])
        A[rows, self_index[rows]] += shift if t is None else t[rows, 0] * shift
    A -= A.max(axis=1, keepdims=True)
    if t is not None:
        with np.errstate(over="ignore"):
            A /= t
    np.exp(A, out=A)
    return A, A.sum(axis=1, keepdims=True)


def _overflow_scale(Zq, KZc):
    """Power-of-two factors (B, 1) that keep every score below ``max / 4``.

    ``|zᵀ k| <= d max|z| max|k|`` bounds each score. Returns None (no scaling)
    when no query needs it, which is the case for all but extreme inputs.
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


def attention_forward(Zq, Zc, K, V, context_weight, n_jobs=None):
    """Centered predictions ``sum_j softmax_j(zᵀ K z_j + log w_j) V z_j``.

    Queries never attend to each other, only to the context, so the output of
    a row does not depend on the other rows. Returns shape (B, q).
    """
    KZc = Zc @ K.T
    U = Zc @ V.T
    log_w = _log_weights(context_weight)
    out = np.empty((Zq.shape[0], V.shape[0]), dtype=np.result_type(Zq, U))

    def predict_block(block):
        E, row_sums = _exp_scores(Zq[block], KZc, log_w)
        out[block] = (E @ U) / row_sums

    _map_blocks(predict_block, Zq.shape[0], Zc.shape[0], n_jobs)
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
    residuals and ``P = R Uᵀ``::

        dL/dV = (c R)ᵀ (A Zc + S)
        dL/dK = Zqᵀ G Zc,   G_ij = c_i A_ij (P_ij - sum_k A_ik P_ik)

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
        Multiplicity of each context token.
    self_index : ndarray of shape (n,), dtype int
        Position of each query's own token in the context, -1 if none.
    value_shift : ndarray of shape (n, d), default=None
        Added to each query's attention-weighted mean of the context tokens
        before the value map (the exact leave-one-out centring of
        :func:`~sklearn_softattn._objective.leave_one_out`).
    n_jobs : int, default=None
        Threads over query blocks (None: 1 unless in a joblib context).

    Returns
    -------
    loss : float
    grad_K : ndarray of shape (d, d)
    grad_V : ndarray of shape (q, d)
    """
    c = query_weight / query_weight.sum()
    KZc = Zc @ K.T
    U = Zc @ V.T
    log_w = _log_weights(context_weight)
    has_self, log_self = _log_self_weights(context_weight, self_index)
    self_start = np.cumsum(has_self) - has_self  # position in log_self

    def block_loss_grad(block):
        idx = self_index[block]
        A = attention_weights(
            Zq[block], KZc, log_w, idx, log_self[self_start[block][idx >= 0]]
        )
        cb = c[block, None]
        Zbar = A @ Zc
        if value_shift is not None:
            Zbar += value_shift[block]
        R = Zbar @ V.T
        R -= Yq[block]
        loss = 0.5 * np.sum(cb * R * R)
        R *= cb
        grad_V = R.T @ Zbar
        G = R @ U.T
        G -= np.einsum("ij,ij->i", A, G)[:, None]
        G *= A
        return loss, Zq[block].T @ (G @ Zc), grad_V

    parts = _map_blocks(block_loss_grad, Zq.shape[0], Zc.shape[0], n_jobs)
    loss, grad_K, grad_V = parts[0]
    for part_loss, part_K, part_V in parts[1:]:
        loss += part_loss
        grad_K += part_K
        grad_V += part_V
    return float(loss), grad_K, grad_V
