"""The softmax attention kernel: attention weights, forward pass, loss and gradient.

Every function works on arrays in the solver's working coordinates (centered,
and whitened when the covariance preconditioner is on):

- ``Zq`` (B, d): the queries; ``Zc`` (m, d): the context tokens;
- ``K`` (d, d): the key-query matrix; ``V`` (q, d): the value matrix ((q, d + t)
  with target tokens, below);
- ``context_weight`` (m,): each token's multiplicity ``w_j`` (positive);
- ``self_index`` (B,): for a query that is itself a context token, the index of
  that token, else -1. Its own token then counts ``max(w_j - 1, 0)`` times, so
  that training is leave-one-out and integer weights equal repeated rows;
- ``targets`` (m, t), optional: the value token of context row j is then
  ``x̃_j = [z_j, targets_j]`` (p = d + t entries) and ``V`` is (q, p), its first
  d columns acting on the features, the last t on the targets; the scores read
  the features only;
- ``scores``: ``"bilinear"``, ``zᵀ K z_j``, or ``"distance"``, ``-½ (z - z_j)ᵀ K
  (z - z_j)``, computed as the bilinear score plus the key bias ``b_j = -½
  z_jᵀ K z_j`` (:func:`key_bias`; the query's own term ``-½ zᵀ K z`` is the
  same on every token and cancels in the softmax, and far queries do not
  underflow). The bias joins the scores before the row maximum, times the
  query's overflow factor where the scores are scaled;
- ``neighbors`` (B, k), optional, with distance scores only: each query attends
  to its own k distinct context positions instead of all m (local attention,
  below).

Cost. The (queries x context) matrices are the whole cost: everything else is
O((n + m) d²). :func:`attention_forward` and :func:`attention_loss_grad`
(or :class:`LossGrad`, the latter as a function of ``(K, V)`` with what does
not change between a solver's calls prepared once) prepare the O((n + m) d²)
parts here and hand the rest to the compiled
kernel (:mod:`sklearn_softattn._kernel`), which passes over the scores block
by block: queries in equal blocks of at most ``_BLOCK_ELEMENTS`` scores (one
query if the context alone is larger), each block kept in the core's cache from the
product that forms its scores, through the exponential, to the products that
read them. A thread holds at most two such blocks (one for predictions and
for a gradient of rank at most ``_FUSED_MAX_RANK``, which may then be twice
as large) and frees them when the call ends. The fused gradient takes the
larger block where a block would hold fewer queries than there are token
columns (``2 d + 1`` with one target and no target tokens: many features over
a long context),
since each block's product reads all the columns: one gd iteration at
n = 2000, d = 20, one target, took 0.49 and 0.54 of PyTorch's time in
float32 in two runs, against 0.56 and 0.67 in two runs alternating with them
without it. The exponential
is the kernel's own polynomial one, vectorized and chosen at run time for the
CPU (AVX-512, AVX2 or the SSE2 of every x86-64 CPU; see ``_softmax_rows.c``).

Threads. Blocks are shared out among OpenMP threads, the GIL released:
``n_jobs`` of them, or with ``n_jobs=None`` as many as scikit-learn's OpenMP
estimators would use (all cores, unless limited by ``OMP_NUM_THREADS``,
:func:`threadpoolctl.threadpool_limits` or a joblib worker's limit), so that
the kernel does not oversubscribe inside ``GridSearchCV(n_jobs=...)``;
problems too small to pay for a thread take fewer. Each block's results land
in their own rows and are summed in a fixed order, and the blocks do not
depend on the number of threads, so neither do the results. BLAS runs one
thread inside the kernel: its products have an inner dimension of d (or q),
too thin for BLAS threads to pay.

Local attention. With distance scores, a query's softmax weight falls off
with its distance to each token in the metric ``K``, so all but its nearest
tokens may carry negligible mass. Given ``neighbors`` (B, k), for instance
from :func:`~sklearn_softattn._neighbors.nearest_tokens`, query i's softmax
runs over the positions ``neighbors[i]`` only (log multiplicities and own
token as in the dense layer): a softmax of the dense scores with every other
token masked out, and with all m positions in every row, the dense layer
itself up to round-off. The compiled kernel (``local_forward``,
``local_loss_grad``) gathers each query's k tokens row by row: O(n k (d + p))
per call instead of O(n m (d + p)), with queries in blocks of at most
``_BLOCK_ELEMENTS`` scores shared out among threads as above. The key bias's
gradient is summed per token from one entry per (query, neighbor) pair, in
numpy and in a fixed order, so that the results do not depend on the number
of threads either.
"""

import contextlib
import threading

import numpy as np
from sklearn.utils._openmp_helpers import _openmp_effective_n_threads
from threadpoolctl import ThreadpoolController  # a dependency of scikit-learn

from . import _kernel

# Scores per block (2**16 float64 values are 512 KiB; two of them stay in a
# core's L2 cache). Measured with bench_iteration.py --blocks.
_BLOCK_ELEMENTS = 2**16

# Fewer blocks than this are rounded up to a power of two of them (see _block_rows).
_FEW_BLOCKS = 8

# Scores per thread below which a further thread costs more than it saves. Smaller
# problems split into more blocks did run faster on two idle cores (one pass over
# 190 x 190 scores, d = 15: 112 µs on two threads against 189 µs on one), but with
# another process busy on one of the two cores, a cross-validated fit on 300 rows
# then took 5-42 s against 3-6 s: each call waits for the thread that lost its core.
_THREAD_SCORES = 2**15

# Above this rank of the matrix P = R Uᵀ (min(q, d)), dL/dK multiplies P into
# the attention weights; at or below it, the product of the attention weights
# with (rank) extra columns per feature is cheaper and needs no second block.
_FUSED_MAX_RANK = 2

# BLAS takes 32-bit dimensions: the context size and the token columns must fit.
_MAX_BLAS_DIMENSION = 2**31 - 1


def _block_rows(n_queries, n_context, scores=None):
    """Queries per block: the queries split into equal blocks of at most
    ``scores`` scores (default ``_BLOCK_ELEMENTS``; at least one query each),
    as few as fit, and while fewer than ``_FEW_BLOCKS`` a power of two of them.

    Few blocks are where the split matters: full blocks and a remainder left
    one thread most of the work (300 queries over 300 tokens made blocks of 218
    and 82 rows), and 3 equal blocks leave one of 2 threads two of them; 2, 4
    or 8 equal blocks share out evenly among 2, 4 or 8 threads (one pass at
    300-600 rows, one target: 0.72-0.90 of the time). Beyond that the dynamic
    schedule evens the load out, and rounding up to a power of two only makes
    the blocks smaller, down to half the bound: faster at 800 and 1500 tokens
    (0.73-0.88), slower over 2048 (up to 1.15, and 1.25 in another run), so
    many blocks stay at the bound, where it was chosen. It depends on the
    shapes only (not on the number of threads), so that every query is
    computed the same way whatever the threads.
    """
    most = max(1, (_BLOCK_ELEMENTS if scores is None else scores) // max(n_context, 1))
    n_blocks = -(-n_queries // most)
    if n_blocks < _FEW_BLOCKS:
        n_blocks = 1 << max(n_blocks - 1, 0).bit_length()
    return max(1, -(-n_queries // n_blocks))


def _check_sizes(n_context, n_columns):
    """Raise ValueError when a dimension of the kernel's products exceeds BLAS's 32-bit ints.

    The number of scores (queries x context) may be anything: the kernel's
    indices are 64-bit and the scores are formed one block at a time.
    """
    if max(n_context, n_columns) > _MAX_BLAS_DIMENSION:
        raise ValueError(
            f"The attention kernel handles at most {_MAX_BLAS_DIMENSION} context tokens "
            f"and columns per token; got {n_context} tokens and {n_columns} columns."
        )


_controller = None
_limited = threading.local()  # whether this thread is inside _one_blas_thread


@contextlib.contextmanager
def _one_blas_thread():
    """Context manager limiting BLAS to one thread; inside one already, it does nothing.

    The controller is created once (creating one scans the loaded libraries,
    ~0.1 ms). Entering and leaving a limit costs some 20 µs, which a solver
    pays once per fit by entering it around its iterations, not once per
    kernel call.
    """
    global _controller
    if getattr(_limited, "on", False):
        yield
        return
    if _controller is None:
        _controller = ThreadpoolController()
    with _controller.limit(limits=1, user_api="blas"):
        _limited.on = True
        try:
            yield
        finally:
            _limited.on = False


def _n_threads(n_jobs):
    """Threads for ``n_jobs``, as scikit-learn's OpenMP estimators count them
    (None: all cores unless limited; negative: that many fewer than all, plus one)."""
    return _openmp_effective_n_threads(n_jobs)


def _kernel_threads(n_jobs, n_queries, n_context, block_rows):
    """Threads for one call: ``n_jobs``'s, at most one per block and per
    ``_THREAD_SCORES`` scores."""
    n_blocks = -(-n_queries // block_rows)
    by_size = max(1, n_queries * n_context // _THREAD_SCORES)
    return max(1, min(_n_threads(n_jobs), n_blocks, by_size))


def _float_dtype(*arrays):
    """float32 if every array is float32 or narrower (float16, small ints), else float64
    (None, an absent array, counts as none)."""
    dtype = np.result_type(*(a for a in arrays if a is not None), np.float32)
    if dtype not in (np.float32, np.float64):
        raise TypeError(f"The attention kernel computes in float32 or float64, not {dtype}.")
    return dtype


def _checked(dtype, **arrays):
    """C-contiguous copies (only where needed) of ``arrays`` in ``dtype``, each 2-D."""
    out = []
    for name, a in arrays.items():
        a = np.ascontiguousarray(a, dtype=dtype)
        if a.ndim != 2:
            raise ValueError(f"{name} must be 2-D, got shape {a.shape}.")
        out.append(a)
    return out


def _check_context(Zq, Zc, context_weight):
    """Raise ValueError unless the context matches the queries and its weights."""
    if Zc.shape[1] != Zq.shape[1]:
        raise ValueError(f"Inconsistent shapes: queries {Zq.shape}, context {Zc.shape}.")
    if len(Zc) == 0:
        raise ValueError("The context is empty: there is nothing to attend to.")
    if np.shape(context_weight) != (len(Zc),):
        raise ValueError(f"context_weight has shape {np.shape(context_weight)}; "
                         f"expected ({len(Zc)},).")


def _check_parameters(Zq, K, V, n_values):
    """Raise ValueError unless ``K`` is d × d and ``V`` has ``n_values`` columns (d + t)."""
    d = Zq.shape[1]
    if K.shape != (d, d) or V.shape[1] != n_values:
        targets = "" if n_values == d else f" (the value matrix needs d + t = {n_values} columns)"
        raise ValueError(f"Inconsistent shapes: queries {Zq.shape}, key-query matrix "
                         f"{K.shape}, value matrix {V.shape}{targets}.")


def _check_scores(scores):
    """Raise ValueError unless ``scores`` is ``"bilinear"`` or ``"distance"``."""
    if not (isinstance(scores, str) and scores in ("bilinear", "distance")):
        raise ValueError(f"scores must be 'bilinear' or 'distance', got {scores!r}.")


def _checked_neighbors(neighbors, n_queries, n_context, scores):
    """The neighbor positions as a C-contiguous (n_queries, k) intp array.

    Raises ValueError unless the scores are distance ones, the shape is
    (n_queries, k) with k >= 1, every entry is a context position (in [0,
    n_context)) and no row names a position twice (a token listed twice would
    count twice).
    """
    if scores != "distance":
        raise ValueError(f"neighbors needs scores='distance' (local attention is local only "
                         f"for distance scores), got scores={scores!r}.")
    neighbors = np.asarray(neighbors)
    if neighbors.dtype.kind not in "iu":
        raise ValueError(f"neighbors must hold integer positions, got dtype {neighbors.dtype}.")
    if neighbors.ndim != 2 or len(neighbors) != n_queries or neighbors.shape[1] == 0:
        raise ValueError(f"neighbors has shape {neighbors.shape}; expected ({n_queries}, k) "
                         f"with k >= 1, one row per query.")
    if neighbors.size and (neighbors.min() < 0 or neighbors.max() >= n_context):
        raise ValueError(f"neighbors must lie in [0, {n_context}), the context's positions.")
    if neighbors.shape[1] > 1 and np.any(np.diff(np.sort(neighbors, axis=1), axis=1) == 0):
        raise ValueError("neighbors must not repeat a position within a row.")
    return np.ascontiguousarray(neighbors, dtype=np.intp)


def _value_tokens(Zc, targets, dtype):
    """The value tokens ``X̃c = [Zc, targets]`` (m, d + t) in ``dtype``; ``Zc`` itself
    without targets."""
    if targets is None:
        return Zc
    (targets,) = _checked(dtype, targets=targets)
    if len(targets) != len(Zc):
        raise ValueError(f"targets has {len(targets)} rows; expected one per context token "
                         f"({len(Zc)}).")
    return np.hstack([Zc, targets])


def _distance_bias(KZc, Zc):
    """The key bias ``b_j = -½ z_jᵀ K z_j`` (m,), from ``KZc = Zc Kᵀ`` (halved first, so
    that a bias of nearly the dtype's largest value does not overflow)."""
    return np.einsum("jk,jk->j", KZc, -0.5 * Zc)


def key_bias(Zc, K, scores):
    """The key bias that ``scores`` adds to every query's score on each context token.

    Parameters
    ----------
    Zc : ndarray of shape (m, d)
        Context tokens.
    K : ndarray of shape (d, d)
        Key-query matrix.
    scores : {"bilinear", "distance"}
        ``"bilinear"``: ``zᵀ K z_j``; ``"distance"``: ``-½ (z - z_j)ᵀ K (z - z_j)``,
        which for a symmetric ``K`` is ``zᵀ K z_j + b_j`` up to the query's own term
        ``-½ zᵀ K z`` (the same for every token, so it cancels in the softmax).

    Returns
    -------
    bias : ndarray of shape (m,) or None
        ``b_j = -½ z_jᵀ K z_j`` for distance scores (as :func:`attention_forward`
        computes it, for :func:`attention_weights`); None for bilinear ones.
    """
    _check_scores(scores)
    if scores == "bilinear":
        return None
    Zc = np.asarray(Zc)
    return _distance_bias(Zc @ np.asarray(K).T, Zc)


def _self_log_ratio(context_weight, self_index):
    """Per query, ``log(max(w - 1, 0) / w)`` for its own token of weight ``w``.

    Added to the own token's score, it counts that token ``max(w - 1, 0)``
    times instead of ``w`` (``-inf`` removes it). Zero for other queries.
    """
    own = context_weight[np.maximum(self_index, 0)]
    with np.errstate(divide="ignore"):
        return np.where(self_index >= 0, np.log(np.maximum(own - 1, 0) / own), 0)


def _exp_scores(Zq, KZc, scale=None, self_index=None, self_log_ratio=None, bias=None):
    """Unnormalized attention ``exp(score - row max)`` of each query (B, m), in numpy.

    ``scale`` is :func:`_overflow_scale` of these queries (None: no scaling).
    The key bias (m,), if any, is added to every query's scores, and the
    query's own token, if any, has its score shifted by ``self_log_ratio``,
    both before the maximum (so that a removed token never sets it).
    Scores are shifted by their row maximum, so no finite score overflows;
    queries whose scores could overflow are first scaled down by a power of
    two, so that finite inputs always give finite weights.
    """
    S = (Zq if scale is None else Zq * scale) @ KZc.T
    if bias is not None:
        S += bias if scale is None else scale * bias
    if self_index is not None:
        rows = np.flatnonzero(self_index >= 0)
        shift = self_log_ratio[rows]
        S[rows, self_index[rows]] += shift if scale is None else scale[rows, 0] * shift
    S -= S.max(axis=1, keepdims=True)
    if scale is not None:
        with np.errstate(over="ignore"):
            S /= scale
    return np.exp(S, out=S)


def _overflow_scale(Zq, KZc, query_max=None, bias=None):
    """Power-of-two factors (n, 1) that keep every score below ``max / 4``.

    ``|zᵀ k + b| <= d max|z| max|k| + max|b|`` bounds each score (``b`` the key
    bias, if any). Returns None (no scaling) when no query needs it, which is
    the case for all but extreme inputs. The compiled kernel takes the same
    factors, and scales the key bias by them too. ``query_max`` is
    ``max|Zq|`` if known (a solver's queries do not change from call to call).
    """
    if KZc.size == 0 or Zq.size == 0:
        return None
    largest = float(np.finfo(np.result_type(Zq, KZc)).max)
    k_max = float(np.abs(KZc).max())
    bias_max = 0.0 if bias is None else float(np.abs(bias).max())
    if query_max is None:
        query_max = float(np.abs(Zq).max())
    if Zq.shape[1] * k_max * query_max + bias_max <= largest / 4:
        return None  # the usual case, decided without a bound per query
    with np.errstate(divide="ignore"):
        bound = (np.log2(Zq.shape[1]) + np.log2(k_max)
                 + np.log2(np.abs(Zq).max(axis=1, keepdims=True)))
        if bias is not None:
            bound = np.logaddexp2(bound, np.log2(bias_max))
    limit = np.log2(largest) - 2
    if not np.any(bound > limit):
        return None
    return np.ldexp(1.0, np.minimum(np.floor(limit - bound), 0).astype(int)).astype(Zq.dtype)


def _relative_weights(context_weight):
    """Token multiplicities divided by the largest, so that they are at most 1 (in
    float64, so that weights beyond float32's range divide first)."""
    context_weight = np.asarray(context_weight, dtype=np.float64)
    return context_weight / context_weight.max()


def attention_weights(Zq, KZc, log_w, self_index=None, log_self=None, bias=None,
                      neighbors=None):
    """Row-stochastic softmax attention of each query over the context.

    The kernel itself never forms these normalized weights; this is the
    softmax it computes, for tests and for reading.

    Parameters
    ----------
    Zq : ndarray of shape (B, d)
        Queries.
    KZc : ndarray of shape (m, d)
        Context tokens multiplied by the key-query matrix, ``Zc @ K.T``, so that
        the score of query i on token j is ``Zq[i] @ K @ Zc[j]`` (plus ``bias[j]``).
    log_w : ndarray of shape (m,) or float
        Log multiplicity of each token; a scalar when all tokens have the same
        one (it then cancels in the softmax).
    self_index : ndarray of shape (B,), dtype int, default=None
        Index of each query's own token in the context, -1 if none.
    log_self : ndarray of shape (n_self,), default=None
        Log multiplicity of the own tokens (those with ``self_index >= 0``).
    bias : ndarray of shape (m,), default=None
        Key bias added to every query's score on each token: :func:`key_bias`
        (None, bilinear scores: none).
    neighbors : ndarray of shape (B, k), dtype int, default=None
        Local attention (distance scores): each query's tokens, as for
        :func:`attention_forward`; the others get weight exactly zero. They must
        be its nearest (the highest scores), as ``nearest_tokens`` finds them.

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
    E = _exp_scores(Zq, KZc, _overflow_scale(Zq, KZc, bias=bias), self_index, ratio, bias)
    E *= np.exp(log_w - log_w.max())
    if neighbors is not None:
        kept = np.zeros(E.shape, dtype=bool)
        np.put_along_axis(kept, neighbors, True, axis=1)
        E[~kept] = 0
    E /= E.sum(axis=1, keepdims=True)
    return E


def attention_forward(Zq, Zc, K, V, context_weight, n_jobs=None, *, targets=None,
                      scores="bilinear", neighbors=None):
    """Centered predictions ``sum_j softmax_j(score(z, z_j) + log w_j) V x̃_j``.

    The score is ``zᵀ K z_j`` (``scores="bilinear"``) or, with
    ``scores="distance"``, ``-½ (z - z_j)ᵀ K (z - z_j)``, computed as ``zᵀ K z_j
    + b_j`` with the key bias ``b_j = -½ z_jᵀ K z_j`` (:func:`key_bias`): the
    query's own term cancels in the softmax. The value tokens ``x̃_j`` are the
    context tokens ``z_j`` followed by their ``targets`` (m, t), if given; ``V``
    is then (q, d + t). Queries never attend to each other, only to the
    context, so the output of a row does not depend on the other rows. One
    product reads each block of exponentiated scores, against ``[w_j V x̃_j,
    w_j]``: numerators and row sums at once. Computed in float32 when every
    input is float32 (or narrower), else in float64; any memory layout is
    accepted (arrays that are not C-contiguous are copied). With ``neighbors``
    (B, k), distinct context positions per query (distance scores only), each
    query attends to those tokens only (local attention, see the module
    docstring). Returns shape (B, q).
    """
    with _one_blas_thread():
        return _forward(Zq, Zc, K, V, context_weight, n_jobs, targets, scores, neighbors)


def _forward(Zq, Zc, K, V, context_weight, n_jobs, targets, scores, neighbors):
    """:func:`attention_forward`, with BLAS limited to one thread."""
    _check_scores(scores)
    dtype = _float_dtype(Zq, Zc, K, V, targets)
    Zq, Zc, K, V = _checked(dtype, Zq=Zq, Zc=Zc, K=K, V=V)
    _check_context(Zq, Zc, context_weight)
    if neighbors is not None:
        neighbors = _checked_neighbors(neighbors, len(Zq), len(Zc), scores)
    Xc = _value_tokens(Zc, targets, dtype)
    _check_parameters(Zq, K, V, Xc.shape[1])
    q = V.shape[0]
    _check_sizes(len(Zc), q + 1)
    out = np.empty((len(Zq), q), dtype=dtype)
    if len(Zq) == 0:
        return out
    KZc = Zc @ K.T
    bias = _distance_bias(KZc, Zc) if scores == "distance" else None
    w = _relative_weights(context_weight).astype(dtype)[:, None]
    tokens = np.ascontiguousarray(np.hstack([(Xc @ V.T) * w, w]), dtype=dtype)
    scale = _overflow_scale(Zq, KZc, bias=bias)
    if neighbors is not None:
        k = neighbors.shape[1]
        block_rows = _block_rows(len(Zq), k)
        _kernel.local_forward(Zq if scale is None else Zq * scale, KZc, bias, tokens,
                              neighbors, None if scale is None else scale[:, 0], out,
                              block_rows, _kernel_threads(n_jobs, len(Zq), k, block_rows))
        return out
    block_rows = _block_rows(len(Zq), len(Zc))
    n_threads = _kernel_threads(n_jobs, len(Zq), len(Zc), block_rows)
    _kernel.forward(Zq if scale is None else Zq * scale, KZc, bias, tokens,
                    None if scale is None else scale[:, 0], out, block_rows, n_threads)
    return out


def attention_loss_grad(
    Zq, Yq, query_weight, Zc, K, V, context_weight, self_index, value_shift=None,
    n_jobs=None, *, targets=None, scores="bilinear", neighbors=None,
):
    """Weighted squared loss of the attention layer and its analytic gradient.

    The loss is ``sum_i c_i ||f(z_i) - y_i||² / 2`` with ``c = query_weight /
    query_weight.sum()``, where ``f(z_i) = V (sum_j A_ij x̃_j + s_i)`` attends
    over the context with the query's own token down-weighted by one
    (leave-one-out), ``x̃_j = [z_j, targets_j]`` are the value tokens (``z_j``
    without targets) and ``s_i`` is the query's value shift (zero by default).
    The scores are those of :func:`attention_forward`.

    With ``A`` the attention weights, ``X̃c`` the value tokens, ``U = X̃c Vᵀ``
    the values, ``R`` the residuals (times ``c``) and ``P = R Uᵀ``::

        dL/dV = Rᵀ (A X̃c + S)
        dL/dK = Zqᵀ G Zc,   G_ij = A_ij (P_ij - sum_k A_ik P_ik)

    and with distance scores (key bias ``b_j = -½ z_jᵀ K z_j``) ``dL/dK`` has
    ``- ½ Zcᵀ diag(g) Zc`` more, ``g = Gᵀ 1`` (for any ``K``, symmetric or not).

    Computed with few passes over each block of scores, all while it is in
    cache: the row term ``sum_k A_ik P_ik = R_i · V (A X̃c)_i`` needs none, so
    ``G Zc = (A ∘ P) Zc - diag(row term) A Zc``; with ``E`` the exponentiated
    scores, one product ``E [w ∘ X̃c, w]`` gives ``A X̃c`` and the softmax
    denominators; ``P`` is built from its rank-``min(q, d + t)`` factors (``R
    Uᵀ`` or ``(R V) X̃cᵀ``), multiplied into ``E`` and read by one more product,
    or, for rank at most ``_FUSED_MAX_RANK`` (a single target), not built at
    all: the product with ``E`` then carries ``rank × d`` more columns, ``P``'s
    right factor times ``w ∘ Zc``. ``g`` takes one product ``Eᵀ [left, -row
    term]`` per block, from the same factors.

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
    V : ndarray of shape (q, d + t)
        Value matrix (t = 0 without ``targets``).
    context_weight : ndarray of shape (m,)
        Multiplicity of each context token, positive.
    self_index : ndarray of shape (n,), dtype int
        Position of each query's own token in the context, -1 if none.
    value_shift : ndarray of shape (n, d + t), default=None
        Added to each query's attention-weighted mean of the value tokens
        before the value map (the exact leave-one-out centring of
        :func:`~sklearn_softattn._objective.leave_one_out`).
    n_jobs : int, default=None
        Threads over query blocks (None: the cores scikit-learn's OpenMP
        estimators would use, see the module docstring).
    targets : ndarray of shape (m, t), default=None
        Appended to the context tokens in the value tokens (not in the scores).
    scores : {"bilinear", "distance"}, default="bilinear"
        The scores of :func:`attention_forward`.
    neighbors : ndarray of shape (n, k), dtype int, default=None
        Distinct context positions per query (distance scores only): each query
        attends to those tokens only, its own token among them down-weighted as
        in the dense layer (local attention, see the module docstring); then
        ``G`` is zero outside each query's neighbors and ``g`` is summed from
        one entry per (query, neighbor) pair. None: every query attends to
        the whole context.

    Returns
    -------
    loss : float
    grad_K : ndarray of shape (d, d)
    grad_V : ndarray of shape (q, d + t)
        Computed in float32 when the queries, context, targets, ``K`` and ``V``
        are all float32 (or narrower), else in float64.
    """
    with _one_blas_thread():
        dtype = _float_dtype(Zq, Zc, K, V, targets)
        return LossGrad(Zq, Yq, query_weight, Zc, context_weight, self_index, value_shift,
                        n_jobs, dtype=dtype, targets=targets, scores=scores,
                        neighbors=neighbors)(K, V)


class LossGrad:
    """:func:`attention_loss_grad` as a function of ``(K, V)``: the inputs that do not
    change from one call to the next (queries, targets, weights, context, own tokens,
    value shifts, the context's targets) are checked and prepared once, as a solver's
    every iteration needs.

    Computed in ``dtype`` (default: float32 if the queries, the context and its
    targets are, else float64); called with parameters of a wider dtype, it computes as
    :func:`attention_loss_grad` would. Call it with BLAS limited to one thread. With
    ``neighbors`` (n, k) (distance scores only), each query attends to its own
    neighbors, as in :func:`attention_loss_grad`; the neighbors are checked once too.
    """

    def __init__(self, Zq, Yq, query_weight, Zc, context_weight, self_index, value_shift=None,
                 n_jobs=None, dtype=None, *, targets=None, scores="bilinear",
                 neighbors=None):
        self._given = (Zq, Yq, query_weight, Zc, context_weight, self_index, value_shift,
                       n_jobs)
        self._options = {"targets": targets, "scores": scores, "neighbors": neighbors}
        _check_scores(scores)
        if dtype is None:
            dtype = _float_dtype(Zq, Zc, targets)
        Zq, Zc, Yq = _checked(dtype, Zq=Zq, Zc=Zc, Yq=Yq)
        _check_context(Zq, Zc, context_weight)
        Xc = _value_tokens(Zc, targets, dtype)
        (n, d), (m, p), q = Zq.shape, Xc.shape, Yq.shape[1]
        self_index = np.ascontiguousarray(self_index, dtype=np.intp)
        if len(Yq) != n or np.shape(query_weight) != (n,) or self_index.shape != (n,):
            raise ValueError(f"Inconsistent shapes: queries {Zq.shape}, targets {Yq.shape}, "
                             f"query_weight {np.shape(query_weight)}, self_index "
                             f"{self_index.shape}.")
        if n and (self_index.min() < -1 or self_index.max() >= m):
            raise ValueError(f"self_index must lie in [-1, {m}), the context's positions.")
        if value_shift is not None:
            (value_shift,) = _checked(dtype, value_shift=value_shift)
            if value_shift.shape != (n, p):
                raise ValueError(f"value_shift has shape {value_shift.shape}; expected {(n, p)}.")
        if neighbors is not None:
            neighbors = _checked_neighbors(neighbors, n, m, scores)
        self.neighbors = neighbors
        self.dtype, self.Zq, self.Zc, self.Xc, self.Yq = dtype, Zq, Zc, Xc, Yq
        self.distance = scores == "distance"
        self.query_max = float(np.abs(Zq).max()) if n and d else 0.0
        self.self_index, self.value_shift = self_index, value_shift
        if n == 0:
            return
        c = np.asarray(query_weight, dtype=np.float64)
        self.c = c / c.sum()  # float64 for the loss's sum; the kernel's in dtype
        self.c_kernel = self.c.astype(dtype)
        self.w = w = _relative_weights(context_weight).astype(dtype)
        self.ratio = _self_log_ratio(np.asarray(context_weight, dtype=np.float64),
                                     self_index).astype(dtype)
        # P = R Uᵀ = left @ right.T, through the thinner of its two factorizations:
        # right is X̃c (p <= q) or X̃c Vᵀ, of rank min(p, q).
        self.rank = min(p, q)
        # The local kernel gathers each query's gradient rows itself: no fused columns.
        self.fused = self.rank <= _FUSED_MAX_RANK and neighbors is None
        # The token columns [w ∘ X̃c, w] and, fused, rank × d columns right[:, a] w ∘ Zc,
        # filled at every call where right depends on V.
        self.tokens = np.empty((m, p + 1 + (self.rank * d if self.fused else 0)), dtype)
        _check_sizes(m, self.tokens.shape[1])
        # Scores per query: the whole context, or (local) the query's neighbors.
        width = m if neighbors is None else neighbors.shape[1]
        self.block_rows = _block_rows(n, width)
        if self.fused and self.block_rows < self.tokens.shape[1]:
            # The fused gradient holds one block, not two: room for twice the scores,
            # which a block of fewer queries than token columns needs (see the module
            # docstring).
            self.block_rows = _block_rows(n, m, 2 * _BLOCK_ELEMENTS)
        self.n_threads = _kernel_threads(n_jobs, n, width, self.block_rows)
        self.tokens[:, :p] = Xc * w[:, None]
        self.tokens[:, p] = w
        if self.fused and p <= q:
            self._fill_fused(Xc)

    def _fill_fused(self, right):
        """The fused token columns ``right[:, a] w ∘ Zc``, in place."""
        _kernel.fill_fused(self.tokens, right, self.Zc, self.w, self.rank)

    def __call__(self, K, V, Y=None, return_residual=False):
        """The loss and the gradients in ``K`` and ``V``; with ``Y`` (n, q), of those
        targets instead of the prepared ones (a skip term's residual targets, say);
        with ``return_residual``, also the residuals times the normalized query
        weights, ``c_i (f(z_i) - y_i)`` (n, q)."""
        same = getattr(K, "dtype", None) == getattr(V, "dtype", None) == self.dtype
        dtype = self.dtype if same else _float_dtype(self.Zq, self.Xc, K, V)
        if dtype != self.dtype:  # wider parameters: compute in their dtype
            return LossGrad(*self._given, dtype=dtype, **self._options)(K, V, Y,
                                                                        return_residual)
        Zq, Zc, Xc = self.Zq, self.Zc, self.Xc
        Yq = self.Yq if Y is None else _checked(dtype, Y=Y)[0]
        K, V = _checked(dtype, K=K, V=V)
        _check_parameters(Zq, K, V, Xc.shape[1])
        (n, d), p, q = Zq.shape, Xc.shape[1], V.shape[0]
        if Yq.shape != (n, q):
            raise ValueError(f"Inconsistent shapes: targets {Yq.shape}, value matrix {V.shape}.")
        if n == 0:
            empty = (0.0, np.zeros((d, d), dtype), np.zeros((q, p), dtype))
            return (*empty, np.zeros((0, q), dtype)) if return_residual else empty
        KZc = Zc @ K.T
        bias = _distance_bias(KZc, Zc) if self.distance else None
        scale = _overflow_scale(Zq, KZc, self.query_max, bias)
        right = Xc if p <= q else np.ascontiguousarray(Xc @ V.T, dtype=dtype)
        if self.fused and p > q:
            self._fill_fused(right)
        # Per-query (and, for the key bias, per-block) results, summed once all blocks
        # are done, in a fixed order.
        loss = np.empty(n, dtype=dtype)
        residual = np.empty((n, q), dtype=dtype)
        attended = np.empty((n, p), dtype=dtype)
        grad_rows = np.empty((n, d), dtype=dtype)
        ratio = self.ratio if scale is None else (self.ratio * scale[:, 0]).astype(dtype)
        Zs = Zq if scale is None else Zq * scale
        scale = None if scale is None else scale[:, 0]
        if self.neighbors is not None:
            pair_grad = np.empty(self.neighbors.shape, dtype=dtype)
            _kernel.local_loss_grad(
                Zs, Yq, self.c_kernel, KZc, bias, self.tokens, right, V, self.value_shift,
                self.self_index, ratio, scale, self.neighbors, loss, residual, attended,
                grad_rows, pair_grad, self.block_rows, self.n_threads,
            )
            # g_j = sum_i G_ij over the pairs that name token j, in a fixed order.
            g = np.bincount(self.neighbors.ravel(), weights=pair_grad.ravel(),
                            minlength=len(Zc)).astype(dtype)
        else:
            key_grad = (np.empty((-(-n // self.block_rows), len(Zc)), dtype=dtype)
                        if self.distance else None)
            _kernel.loss_grad(
                Zs, Yq, self.c_kernel, KZc, bias, self.tokens, right, V, self.value_shift,
                self.self_index, ratio, scale, loss, residual, attended, grad_rows,
                key_grad, self.fused, self.block_rows, self.n_threads,
            )
            g = self.w * key_grad.sum(axis=0) if self.distance else None
        grad_K = Zq.T @ grad_rows
        if self.distance:
            # d b_j / dK = -½ z_j z_jᵀ, weighted by g_j = sum_i G_ij.
            grad_K -= 0.5 * (Zc.T * g) @ Zc
        result = 0.5 * float(self.c @ loss), grad_K, residual.T @ attended
        return (*result, residual) if return_residual else result
