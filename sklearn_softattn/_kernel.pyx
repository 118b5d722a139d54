# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled attention kernel: blocks of queries, each read from cache.

Called by :mod:`sklearn_softattn._attention`, which validates and prepares
the arrays (dtype, contiguity, the products of cost O((n + m) d²), the
overflow factors) and sums the per-query results in a fixed order. Here,
per block of ``block_rows`` queries and the whole context (at most
``_attention._BLOCK_ELEMENTS`` scores, a few hundred kB, in the core's L2
cache from the first product to the last):

1. the scores, one BLAS product (``Zq_block @ KZcᵀ``), plus the key bias
   ``b_j`` of distance scores (times the query's overflow factor), if any;
2. the own token's shift, the row maximum, ``exp((s - max) / scale)`` in place
   (``_softmax_rows.c``: a vectorized exponential, dispatched at run time);
3. one BLAS product of those exponentials with the token columns, from the
   value tokens ``X̃c = [Zc, targets]`` (p columns; ``Zc`` without targets):
   ``[w ∘ X̃c Vᵀ, w]`` for predictions; ``[w ∘ X̃c, w, ...]`` for the loss;
4. for the gradient, either nothing more (the fused columns, which multiply
   the features ``Zc`` only: the scores read no targets) or a second block
   ``P = left @ rightᵀ``, multiplied into the exponentials and read by one
   more product; with a key bias, one more product ``Eᵀ [left, -row term]``
   gives the block's column sums of ``G``, in a row of its own.

Blocks go to OpenMP threads (``prange``, dynamic schedule, the GIL
released); each block writes only its own rows of the outputs, so results do
not depend on the number of threads. Each thread allocates its work space
once per call: one block of scores (two for the unfused gradient) and a few
rows per query of the block. All indices are 64-bit; BLAS dimensions are
32-bit ints, which the caller checks.
"""

from cpython.mem cimport PyMem_RawFree, PyMem_RawMalloc
from cython cimport floating
from cython.parallel cimport parallel, prange
from scipy.linalg.cython_blas cimport dgemm, sgemm


cdef extern from "_softmax_rows.h" nogil:
    void sa_softmax_rows_d(double *S, Py_ssize_t rows, Py_ssize_t m, const double *scale)
    void sa_softmax_rows_f(float *S, Py_ssize_t rows, Py_ssize_t m, const float *scale)
    void sa_exp_vector_d(double *x, Py_ssize_t n)
    void sa_exp_vector_f(float *x, Py_ssize_t n)


cdef inline void _gemm(bint transpose_a, bint transpose_b, int m, int n, int k,
                       const floating *a, int lda, const floating *b, int ldb, floating *c,
                       int ldc) noexcept nogil:
    """Column-major ``C (m x n) = op(A) op(B)`` through BLAS (op: transpose or not)."""
    cdef char trans_a = b't' if transpose_a else b'n'
    cdef char trans_b = b't' if transpose_b else b'n'
    cdef floating one = 1, zero = 0
    if floating is double:
        dgemm(&trans_a, &trans_b, &m, &n, &k, &one, <double *> a, &lda, <double *> b, &ldb,
              &zero, c, &ldc)
    else:
        sgemm(&trans_a, &trans_b, &m, &n, &k, &one, <float *> a, &lda, <float *> b, &ldb,
              &zero, c, &ldc)


cdef inline void _times(Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t inner,
                        const floating *A, Py_ssize_t lda, const floating *B, Py_ssize_t ldb,
                        floating *C, Py_ssize_t ldc) noexcept nogil:
    """Row-major ``C (rows x cols) = A (rows x inner) @ B (inner x cols)``."""
    _gemm(False, False, <int> cols, <int> rows, <int> inner, B, <int> ldb, A, <int> lda, C,
          <int> ldc)


cdef inline void _times_transposed(Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t inner,
                                   const floating *A, Py_ssize_t lda, const floating *B,
                                   Py_ssize_t ldb, floating *C, Py_ssize_t ldc) noexcept nogil:
    """Row-major ``C (rows x cols) = A (rows x inner) @ B (cols x inner)ᵀ``."""
    _gemm(True, False, <int> cols, <int> rows, <int> inner, B, <int> ldb, A, <int> lda, C,
          <int> ldc)


cdef inline void _transposed_times(Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t inner,
                                   const floating *A, Py_ssize_t lda, const floating *B,
                                   Py_ssize_t ldb, floating *C, Py_ssize_t ldc) noexcept nogil:
    """Row-major ``C (rows x cols) = A (inner x rows)ᵀ @ B (inner x cols)``."""
    _gemm(False, True, <int> cols, <int> rows, <int> inner, B, <int> ldb, A, <int> lda, C,
          <int> ldc)


cdef inline void _exp_scores(Py_ssize_t start, Py_ssize_t rows, Py_ssize_t m, Py_ssize_t d,
                             const floating *Zs, const floating *KZc, const floating *bias,
                             const Py_ssize_t *self_index, const floating *self_shift,
                             const floating *scale, floating *E) noexcept nogil:
    """``E = exp(S - row max)`` of the block's scores ``S = Zs KZcᵀ``, plus the key bias
    (if any, times each query's overflow factor) and the own tokens' shifts."""
    cdef Py_ssize_t i, j
    cdef floating factor
    _times_transposed(rows, m, d, Zs + start * d, d, KZc, d, E, m)
    if bias != NULL:
        for i in range(rows):
            factor = 1 if scale == NULL else scale[start + i]
            for j in range(m):
                E[i * m + j] += factor * bias[j]
    if self_index != NULL:
        for i in range(rows):
            j = self_index[start + i]
            if j >= 0:
                E[i * m + j] += self_shift[start + i]
    if floating is double:
        sa_softmax_rows_d(E, rows, m, NULL if scale == NULL else scale + start)
    else:
        sa_softmax_rows_f(E, rows, m, NULL if scale == NULL else scale + start)


cdef void _forward_block(Py_ssize_t start, Py_ssize_t rows, Py_ssize_t m, Py_ssize_t d,
                         Py_ssize_t q, const floating *Zs, const floating *KZc,
                         const floating *bias, const floating *tokens, const floating *scale,
                         floating *E, floating *F, floating *out) noexcept nogil:
    cdef Py_ssize_t i, a, cols = q + 1
    cdef floating total
    _exp_scores(start, rows, m, d, Zs, KZc, bias, <Py_ssize_t *> NULL, <floating *> NULL, scale,
                E)
    _times(rows, cols, m, E, m, tokens, cols, F, cols)
    for i in range(rows):
        total = F[i * cols + q]
        for a in range(q):
            out[(start + i) * q + a] = F[i * cols + a] / total


def forward(const floating[:, ::1] Zs, const floating[:, ::1] KZc, const floating[::1] bias,
            const floating[:, ::1] tokens, const floating[::1] scale,
            floating[:, ::1] out, Py_ssize_t block_rows, int n_threads):
    """Predictions ``out`` (n, q) from the token columns ``[w ∘ X̃c Vᵀ, w]`` (m, q + 1).

    ``Zs`` holds the queries times their overflow factors ``scale`` (None: no
    scaling); ``bias`` (m,) is the key bias added to every query's scores
    (None: none); see :func:`sklearn_softattn._attention.attention_forward`.
    """
    cdef Py_ssize_t n = Zs.shape[0], m = KZc.shape[0], d = Zs.shape[1], q = out.shape[1]
    cdef Py_ssize_t n_blocks = (n + block_rows - 1) // block_rows, b, start
    cdef Py_ssize_t size = block_rows * (m + q + 1)
    cdef const floating *scale_ptr = NULL if scale is None else &scale[0]
    cdef const floating *bias_ptr = NULL if bias is None else &bias[0]
    cdef floating *work
    cdef int failed = 0
    if n == 0:
        return
    with nogil, parallel(num_threads=n_threads):
        work = <floating *> PyMem_RawMalloc(size * sizeof(floating))
        for b in prange(n_blocks, schedule="dynamic"):
            if work == NULL:
                failed += 1
                continue
            start = b * block_rows
            _forward_block(start, min(block_rows, n - start), m, d, q, &Zs[0, 0], &KZc[0, 0],
                           bias_ptr, &tokens[0, 0], scale_ptr, work, work + block_rows * m,
                           &out[0, 0])
        PyMem_RawFree(work)
    if failed:
        raise MemoryError("no memory for the attention kernel's work space")


cdef inline floating _query_terms(
    Py_ssize_t g, Py_ssize_t p, Py_ssize_t q, bint left_through_V, const floating *f,
    const floating *V, const floating *Y, const floating *c, const floating *shift,
    floating *mu, floating *zbar, floating *res, floating *lt, floating *loss_rows,
) noexcept nogil:
    """Query ``g``'s terms of the loss and gradient from its attention numerator and row
    sum ``f`` (``f[:p]`` and ``f[p]``): the attended mean ``mu``, ``zbar`` (the mean plus
    the shift, if any), ``res = c_g r_g``, ``loss_rows[g] = ||r_g||²`` and ``lt``, the
    query's factor of ``P = R Uᵀ = left rightᵀ`` over the row sum (p entries through
    ``V`` when ``left_through_V``, else q). Returns the row term ``sum_j A_gj P_gj =
    res · V mu``."""
    cdef Py_ssize_t k, a
    cdef floating total = f[p], value, along_mean, r, loss = 0, term = 0
    for k in range(p):
        mu[k] = f[k] / total
        zbar[k] = mu[k] if shift == NULL else mu[k] + shift[g * p + k]
    for a in range(q):
        value, along_mean = 0, 0
        for k in range(p):
            value = value + V[a * p + k] * zbar[k]
            along_mean = along_mean + V[a * p + k] * mu[k]
        r = value - Y[g * q + a]
        loss = loss + r * r
        r = r * c[g]
        res[a] = r
        term = term + r * along_mean
    loss_rows[g] = loss
    if left_through_V:
        for k in range(p):
            lt[k] = 0
        for a in range(q):
            r = res[a] / total
            for k in range(p):
                lt[k] = lt[k] + r * V[a * p + k]
    else:
        for a in range(q):
            lt[a] = res[a] / total
    return term


cdef void _loss_grad_block(
    Py_ssize_t start, Py_ssize_t rows, Py_ssize_t m, Py_ssize_t d, Py_ssize_t p, Py_ssize_t q,
    Py_ssize_t rank, Py_ssize_t cols, bint fused, bint left_through_V,
    const floating *Zs, const floating *KZc, const floating *bias, const floating *tokens,
    const floating *right, const floating *V, const floating *Y, const floating *c,
    const floating *shift, const Py_ssize_t *self_index, const floating *self_shift,
    const floating *scale,
    floating *E, floating *P, floating *F, floating *mean, floating *left,
    floating *row_term, floating *H,
    floating *loss_rows, floating *residual, floating *attended, floating *grad_rows,
    floating *key_grad,
) noexcept nogil:
    """One block of :func:`loss_grad`: per-query loss, residual, attended mean, gradient
    row, and (``key_grad`` not NULL) the block's row of key-bias gradients."""
    cdef Py_ssize_t i, g, k, a, j, idx
    cdef Py_ssize_t stride = rank + (key_grad != NULL)  # of left: [lt, -r] with key_grad
    cdef floating total, value, term
    cdef const floating *f
    cdef floating *lt
    _exp_scores(start, rows, m, d, Zs, KZc, bias, self_index, self_shift, scale, E)
    _times(rows, cols, m, E, m, tokens, cols, F, cols)
    for i in range(rows):
        g = start + i
        f = F + i * cols
        total = f[p]
        lt = left + i * stride
        term = _query_terms(g, p, q, left_through_V, f, V, Y, c, shift, mean + i * p,
                            attended + g * p, residual + g * q, lt, loss_rows)
        row_term[i] = term
        if key_grad != NULL:
            lt[rank] = -term / total
        if fused:
            for k in range(d):
                value = 0
                for a in range(rank):
                    value = value + lt[a] * f[p + 1 + a * d + k]
                grad_rows[g * d + k] = value - term * mean[i * p + k]
    if key_grad != NULL:
        # sum_i G_ij / w_j = sum_a right_ja (Eᵀ lt)_ja - (Eᵀ r)_j, one product for both.
        _transposed_times(m, rank + 1, rows, E, m, left, stride, H, rank + 1)
        for j in range(m):
            value = 0
            for a in range(rank):
                value = value + right[j * rank + a] * H[j * (rank + 1) + a]
            key_grad[j] = value + H[j * (rank + 1) + rank]
    if fused:
        return
    _times_transposed(rows, m, rank, left, stride, right, rank, P, m)
    for idx in range(rows * m):
        P[idx] = P[idx] * E[idx]
    _times(rows, d, m, P, m, tokens, cols, grad_rows + start * d, d)
    for i in range(rows):
        for k in range(d):
            grad_rows[(start + i) * d + k] -= row_term[i] * mean[i * p + k]


def loss_grad(const floating[:, ::1] Zs, const floating[:, ::1] Y, const floating[::1] c,
              const floating[:, ::1] KZc, const floating[::1] bias,
              const floating[:, ::1] tokens, const floating[:, ::1] right,
              const floating[:, ::1] V, const floating[:, ::1] shift,
              const Py_ssize_t[::1] self_index, const floating[::1] self_shift,
              const floating[::1] scale,
              floating[::1] loss_rows, floating[:, ::1] residual,
              floating[:, ::1] attended, floating[:, ::1] grad_rows, floating[:, ::1] key_grad,
              bint fused, Py_ssize_t block_rows, int n_threads):
    """Per-query loss terms and gradient rows of the attention layer.

    ``V`` is (q, p): it maps the value tokens ``X̃c`` (m, p), the context's d
    features and any targets. ``tokens`` (m, cols) holds ``[w ∘ X̃c, w]`` and,
    if ``fused``, ``rank`` more blocks of d columns ``right[:, a] w ∘ Zc`` (the
    features only); ``right`` (m, rank) is the context-side factor of ``P = R
    Uᵀ`` (``X̃c`` when p <= q, else ``X̃c Vᵀ``). ``bias``, ``shift``, ``scale``
    and ``key_grad`` may be None. Fills, per query i: ``loss_rows[i] =
    ||r_i||²``, ``residual[i] = c_i r_i``, ``attended[i]`` (the attended mean
    plus the shift, p entries) and ``grad_rows[i] = (G Zc)_i``; and per block
    b, ``key_grad[b, j] = sum_{i in b} G_ij / w_j`` (n_blocks, m), the key bias's
    gradient before the weights; see
    :func:`sklearn_softattn._attention.attention_loss_grad`.
    """
    cdef Py_ssize_t n = Zs.shape[0], m = KZc.shape[0], d = Zs.shape[1], q = Y.shape[1]
    cdef Py_ssize_t p = V.shape[1], rank = right.shape[1], cols = tokens.shape[1]
    cdef bint left_through_V = p <= q
    cdef Py_ssize_t n_blocks = (n + block_rows - 1) // block_rows, b, start, rows
    cdef Py_ssize_t block = block_rows * m
    cdef Py_ssize_t stride = rank + (key_grad is not None)
    cdef Py_ssize_t size = (block * (1 if fused else 2) + block_rows * (cols + p + stride + 1)
                            + (0 if key_grad is None else m * (rank + 1)))
    cdef const floating *bias_ptr = NULL if bias is None else &bias[0]
    cdef const floating *shift_ptr = NULL if shift is None else &shift[0, 0]
    cdef const floating *scale_ptr = NULL if scale is None else &scale[0]
    cdef floating *key_grad_ptr = NULL if key_grad is None else &key_grad[0, 0]
    cdef floating *work
    cdef floating *P
    cdef floating *F
    cdef int failed = 0
    if n == 0:
        return
    with nogil, parallel(num_threads=n_threads):
        work = <floating *> PyMem_RawMalloc(size * sizeof(floating))
        P = work + block
        F = P + (0 if fused else block)
        for b in prange(n_blocks, schedule="dynamic"):
            if work == NULL:
                failed += 1
                continue
            start = b * block_rows
            rows = min(block_rows, n - start)
            _loss_grad_block(
                start, rows, m, d, p, q, rank, cols, fused, left_through_V,
                &Zs[0, 0], &KZc[0, 0], bias_ptr, &tokens[0, 0], &right[0, 0], &V[0, 0],
                &Y[0, 0], &c[0], shift_ptr, &self_index[0], &self_shift[0], scale_ptr,
                work, P, F, F + block_rows * cols, F + block_rows * (cols + p),
                F + block_rows * (cols + p + stride),
                F + block_rows * (cols + p + stride + 1),
                &loss_rows[0], &residual[0, 0], &attended[0, 0], &grad_rows[0, 0],
                NULL if key_grad_ptr == NULL else key_grad_ptr + b * m)
        PyMem_RawFree(work)
    if failed:
        raise MemoryError("no memory for the attention kernel's work space")


cdef inline void _local_exp_scores(
    Py_ssize_t start, Py_ssize_t rows, Py_ssize_t k, Py_ssize_t d, const floating *Zs,
    const floating *KZc, const floating *bias, const Py_ssize_t *neighbors,
    const Py_ssize_t *self_index, const floating *self_shift, const floating *scale,
    floating *E,
) noexcept nogil:
    """``E = exp(S - row max)`` (rows x k) of the block's scores on each query's own
    neighbors, ``S[i, a] = Zs_i · KZc[j] + factor_i bias[j]`` for ``j = nb_ia``, plus the
    own token's shift where ``j`` is the query's own token (``self_index`` not NULL)."""
    cdef Py_ssize_t i, a, j, l, g
    cdef floating factor, s
    cdef const floating *z
    cdef const floating *kz
    for i in range(rows):
        g = start + i
        factor = 1 if scale == NULL else scale[g]
        z = Zs + g * d
        for a in range(k):
            j = neighbors[g * k + a]
            kz = KZc + j * d
            s = 0
            for l in range(d):
                s = s + z[l] * kz[l]
            s = s + factor * bias[j]
            if self_index != NULL and j == self_index[g]:
                s = s + self_shift[g]
            E[i * k + a] = s
    if floating is double:
        sa_softmax_rows_d(E, rows, k, NULL if scale == NULL else scale + start)
    else:
        sa_softmax_rows_f(E, rows, k, NULL if scale == NULL else scale + start)


cdef inline void _gather_sum(Py_ssize_t k, Py_ssize_t width, Py_ssize_t cols,
                             const floating *e, const Py_ssize_t *nb, const floating *tokens,
                             floating *f) noexcept nogil:
    """``f = sum_a e_a tokens[nb_a, :width]`` (``tokens`` has ``cols`` columns)."""
    cdef Py_ssize_t a, l
    cdef floating ea
    cdef const floating *t
    for l in range(width):
        f[l] = 0
    for a in range(k):
        ea, t = e[a], tokens + nb[a] * cols
        for l in range(width):
            f[l] = f[l] + ea * t[l]


def local_forward(const floating[:, ::1] Zs, const floating[:, ::1] KZc,
                  const floating[::1] bias, const floating[:, ::1] tokens,
                  const Py_ssize_t[:, ::1] neighbors, const floating[::1] scale,
                  floating[:, ::1] out, Py_ssize_t block_rows, int n_threads):
    """:func:`forward` with each query attending to its own neighbors only.

    Query i's scores are on the context positions ``neighbors[i]`` (n, k), each
    in [0, m) and distinct (checked by the caller), with the key bias ``bias``
    of distance scores; the softmax runs over those k scores and the output is
    ``sum_a E_ia tokens[nb_ia, :q] / sum_a E_ia tokens[nb_ia, q]``. Blocks of
    ``block_rows`` queries go to the threads; each query is computed alone, the
    same way whatever the blocks and threads.
    """
    cdef Py_ssize_t n = Zs.shape[0], m = KZc.shape[0], d = Zs.shape[1], q = out.shape[1]
    cdef Py_ssize_t k = neighbors.shape[1], cols = tokens.shape[1]
    cdef Py_ssize_t n_blocks = (n + block_rows - 1) // block_rows, b, start, i, a
    cdef Py_ssize_t size = block_rows * k + q + 1
    cdef const floating *scale_ptr = NULL if scale is None else &scale[0]
    cdef floating *work
    cdef floating *f
    cdef int failed = 0
    if n == 0:
        return
    with nogil, parallel(num_threads=n_threads):
        work = <floating *> PyMem_RawMalloc(size * sizeof(floating))
        f = work + block_rows * k
        for b in prange(n_blocks, schedule="dynamic"):
            if work == NULL:
                failed += 1
                continue
            start = b * block_rows
            _local_exp_scores(start, min(block_rows, n - start), k, d, &Zs[0, 0], &KZc[0, 0],
                              &bias[0], &neighbors[0, 0], <Py_ssize_t *> NULL,
                              <floating *> NULL, scale_ptr, work)
            for i in range(min(block_rows, n - start)):
                _gather_sum(k, q + 1, cols, work + i * k, &neighbors[start + i, 0],
                            &tokens[0, 0], f)
                for a in range(q):
                    out[start + i, a] = f[a] / f[q]
        PyMem_RawFree(work)
    if failed:
        raise MemoryError("no memory for the attention kernel's work space")


cdef void _local_loss_grad_block(
    Py_ssize_t start, Py_ssize_t rows, Py_ssize_t k, Py_ssize_t d, Py_ssize_t p,
    Py_ssize_t q, Py_ssize_t rank, Py_ssize_t cols, bint left_through_V,
    const floating *Zs, const floating *KZc, const floating *bias, const floating *tokens,
    const floating *right, const floating *V, const floating *Y, const floating *c,
    const floating *shift, const Py_ssize_t *neighbors, const Py_ssize_t *self_index,
    const floating *self_shift, const floating *scale,
    floating *E, floating *f, floating *mu, floating *lt,
    floating *loss_rows, floating *residual, floating *attended, floating *grad_rows,
    floating *pair_grad,
) noexcept nogil:
    """One block of :func:`local_loss_grad`."""
    cdef Py_ssize_t i, g, a, j, l
    cdef floating term_over_total, along, h
    cdef const floating *nb_tokens
    cdef floating *gr
    _local_exp_scores(start, rows, k, d, Zs, KZc, bias, neighbors, self_index, self_shift,
                      scale, E)
    for i in range(rows):
        g = start + i
        _gather_sum(k, p + 1, cols, E + i * k, neighbors + g * k, tokens, f)
        term_over_total = _query_terms(g, p, q, left_through_V, f, V, Y, c, shift, mu,
                                       attended + g * p, residual + g * q, lt,
                                       loss_rows) / f[p]
        gr = grad_rows + g * d
        for l in range(d):
            gr[l] = 0
        for a in range(k):
            # G_ia = A_ia (P_ia - row term), from E_ia w_j (lt · right_j - term / total).
            j = neighbors[g * k + a]
            nb_tokens = tokens + j * cols
            along = 0
            for l in range(rank):
                along = along + lt[l] * right[j * rank + l]
            h = E[i * k + a] * (along - term_over_total)
            pair_grad[g * k + a] = h * nb_tokens[p]
            for l in range(d):  # the first d token columns are w_j z_j
                gr[l] = gr[l] + h * nb_tokens[l]


def local_loss_grad(const floating[:, ::1] Zs, const floating[:, ::1] Y,
                    const floating[::1] c, const floating[:, ::1] KZc,
                    const floating[::1] bias, const floating[:, ::1] tokens,
                    const floating[:, ::1] right, const floating[:, ::1] V,
                    const floating[:, ::1] shift, const Py_ssize_t[::1] self_index,
                    const floating[::1] self_shift, const floating[::1] scale,
                    const Py_ssize_t[:, ::1] neighbors,
                    floating[::1] loss_rows, floating[:, ::1] residual,
                    floating[:, ::1] attended, floating[:, ::1] grad_rows,
                    floating[:, ::1] pair_grad, Py_ssize_t block_rows, int n_threads):
    """:func:`loss_grad` with each query attending to its own neighbors only.

    The arguments are :func:`loss_grad`'s (``tokens`` holds ``[w ∘ X̃c, w]`` in
    its first p + 1 columns; there are no fused columns, the gradient rows
    being gathered directly), with the key bias ``bias`` required (distance
    scores), plus ``neighbors`` (n, k), query i's distinct context positions.
    Fills the same per-query rows, ``grad_rows[i] = sum_a G_ia z_{nb_ia}``, and
    in place of the per-block key-bias gradients the per-pair ones,
    ``pair_grad[i, a] = G_ia``, whose sum over the pairs of each token
    (``np.bincount`` on ``neighbors``) is the gradient of its key bias; see
    :func:`sklearn_softattn._attention.attention_loss_grad`.
    """
    cdef Py_ssize_t n = Zs.shape[0], d = Zs.shape[1], q = Y.shape[1]
    cdef Py_ssize_t p = V.shape[1], rank = right.shape[1], cols = tokens.shape[1]
    cdef Py_ssize_t k = neighbors.shape[1]
    cdef bint left_through_V = p <= q
    cdef Py_ssize_t n_blocks = (n + block_rows - 1) // block_rows, b, start
    cdef Py_ssize_t size = block_rows * k + 2 * p + 1 + rank
    cdef const floating *shift_ptr = NULL if shift is None else &shift[0, 0]
    cdef const floating *scale_ptr = NULL if scale is None else &scale[0]
    cdef floating *work
    cdef floating *f
    cdef int failed = 0
    if n == 0:
        return
    with nogil, parallel(num_threads=n_threads):
        work = <floating *> PyMem_RawMalloc(size * sizeof(floating))
        f = work + block_rows * k
        for b in prange(n_blocks, schedule="dynamic"):
            if work == NULL:
                failed += 1
                continue
            start = b * block_rows
            _local_loss_grad_block(
                start, min(block_rows, n - start), k, d, p, q, rank, cols, left_through_V,
                &Zs[0, 0], &KZc[0, 0], &bias[0], &tokens[0, 0], &right[0, 0], &V[0, 0],
                &Y[0, 0], &c[0], shift_ptr, &neighbors[0, 0], &self_index[0],
                &self_shift[0], scale_ptr, work, f, f + p + 1, f + 2 * p + 1,
                &loss_rows[0], &residual[0, 0], &attended[0, 0], &grad_rows[0, 0],
                &pair_grad[0, 0])
        PyMem_RawFree(work)
    if failed:
        raise MemoryError("no memory for the attention kernel's work space")


def fill_fused(floating[:, ::1] tokens, const floating[:, ::1] right,
               const floating[:, ::1] Zc, const floating[::1] w, Py_ssize_t rank):
    """The fused token columns of :func:`loss_grad`, in place, the last ``rank × d`` of
    ``tokens``: ``tokens[j, first + a d + k] = (right[j, a] Zc[j, k]) w[j]`` for ``a <
    rank``, ``first = tokens.shape[1] - rank d`` (one pass over the context, where numpy
    made two per column block)."""
    cdef Py_ssize_t m = Zc.shape[0], d = Zc.shape[1], j, a, k, col
    cdef Py_ssize_t first = tokens.shape[1] - rank * d
    if (tokens.shape[0] != m or first < d + 1 or right.shape[0] != m
            or right.shape[1] < rank or w.shape[0] != m):
        raise ValueError("fill_fused: inconsistent shapes")
    with nogil:
        for j in range(m):
            for a in range(rank):
                col = first + a * d
                for k in range(d):
                    tokens[j, col + k] = (right[j, a] * Zc[j, k]) * w[j]


def exp(floating[::1] x):
    """The kernel's exponential, in place over ``x`` (for tests and benchmarks)."""
    if x.shape[0] == 0:
        return
    with nogil:
        if floating is double:
            sa_exp_vector_d(&x[0], x.shape[0])
        else:
            sa_exp_vector_f(&x[0], x.shape[0])
