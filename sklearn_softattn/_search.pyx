# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled nearest-token search: each query's nearest context tokens in a k-d tree.

Called by :func:`sklearn_softattn._neighbors.nearest_tokens`, which builds the
tree (the context's rows sorted into leaves, each node's bounding box and the
smallest position in it, in heap layout: node ``i``'s children are ``2i + 1``
and ``2i + 2``, the last ``2**(levels - 1)`` nodes are the leaves) and checks
the arrays. Here, per query, a depth-first search, the nearer child first,
keeps the tokens first in the order of (squared distance, position) in a
max-heap. The squared distance of a query and a token is always the same sum
of the same squares in the same order, and a node is left out only when every
token in it comes after the heap's last (its bounding box is farther, or as far
and its smallest position larger): the result is the exact first tokens in that
order, whatever the traversal, and ties (duplicate rows, at distance 0) are
broken by position. A box's distance is a sum of terms each at most the
matching term of a token inside it, so it is never above that token's distance
despite round-off.

Queries go to OpenMP threads (``prange``, dynamic schedule, the GIL released);
each writes only its own row of the output, so results do not depend on the
number of threads. Each thread allocates its heap and its stack once.
"""

from cpython.mem cimport PyMem_RawFree, PyMem_RawMalloc
from cython.parallel cimport parallel, prange
from libc.math cimport INFINITY

ctypedef Py_ssize_t intp


cdef inline bint _after(double d1, intp p1, double d2, intp p2) noexcept nogil:
    """Whether (d1, p1) comes after (d2, p2) in the order of (distance, position)."""
    return d1 > d2 or (d1 == d2 and p1 > p2)


cdef inline double _gap(double x, double lo, double hi) noexcept nogil:
    """Distance from ``x`` to the interval ``[lo, hi]``: ``lo - x`` or ``x - hi`` or 0,
    never above ``|x - y|`` for a ``y`` in the interval, as rounding is monotonic."""
    if x < lo:
        return lo - x
    if x > hi:
        return x - hi
    return 0


cdef inline void _box_distances(const double *x, const double *lo, const double *hi,
                                intp r, double *first, double *second) noexcept nogil:
    """Squared distances from ``x`` to the boxes ``[lo, hi]`` of two sibling nodes (rows
    ``r`` apart), summed in coordinate order; the two sums interleaved."""
    cdef double total_first = 0, total_second = 0, gap
    cdef intp c
    for c in range(r):
        gap = _gap(x[c], lo[c], hi[c])
        total_first += gap * gap
        gap = _gap(x[c], lo[r + c], hi[r + c])
        total_second += gap * gap
    first[0], second[0] = total_first, total_second


cdef inline void _sift_down(double *dist, intp *pos, intp size, intp i) noexcept nogil:
    """Restore the max-heap (by distance, then position) below entry ``i``."""
    cdef intp child
    cdef double d = dist[i]
    cdef intp p = pos[i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and _after(dist[child + 1], pos[child + 1], dist[child],
                                       pos[child]):
            child += 1
        if not _after(dist[child], pos[child], d, p):
            break
        dist[i], pos[i] = dist[child], pos[child]
        i = child
    dist[i], pos[i] = d, p


cdef void _scan_leaf(const double *x, const double *XT, intp m, const intp *pos,
                     intp start, intp end, intp r, intp own, double *heap_dist,
                     intp *heap_pos, intp size, double *dist) noexcept nogil:
    """Offer the leaf's tokens ``start:end`` (other than ``own``) to the heap; ``XT``
    holds the coordinates by column, so that the squared distances, each summed in
    coordinate order, are computed for the whole leaf at once (in ``dist``)."""
    cdef intp j, c, count = end - start
    cdef double diff
    cdef const double *column
    for j in range(count):
        dist[j] = 0
    for c in range(r):
        column = XT + c * m + start
        for j in range(count):
            diff = x[c] - column[j]
            dist[j] += diff * diff
    for j in range(count):
        if pos[start + j] != own and _after(heap_dist[0], heap_pos[0], dist[j],
                                            pos[start + j]):
            heap_dist[0], heap_pos[0] = dist[j], pos[start + j]
            _sift_down(heap_dist, heap_pos, size, 0)


cdef void _search(const double *x, const double *XT, intp m, const intp *pos,
                  const double *lo, const double *hi, const intp *min_pos, const intp *bounds,
                  intp first_leaf, intp r, intp own, double *heap_dist, intp *heap_pos,
                  intp size, intp *stack_node, double *stack_dist,
                  double *dist) noexcept nogil:
    """Fill the heap with the ``size`` tokens other than ``own`` first in the order of
    (squared distance, position) to ``x``."""
    cdef intp top = 0, node, near, far, j
    cdef double d_near, d_far
    for j in range(size):
        heap_dist[j], heap_pos[j] = INFINITY, -1
    stack_node[0], stack_dist[0] = 0, 0
    while top >= 0:
        node, d_near = stack_node[top], stack_dist[top]
        top -= 1
        # Every token in the node is at least d_near away and at position >= min_pos.
        if _after(d_near, min_pos[node], heap_dist[0], heap_pos[0]):
            continue
        if node >= first_leaf:
            j = node - first_leaf
            _scan_leaf(x, XT, m, pos, bounds[j], bounds[j + 1], r, own, heap_dist,
                       heap_pos, size, dist)
            continue
        near, far = 2 * node + 1, 2 * node + 2
        _box_distances(x, lo + near * r, hi + near * r, r, &d_near, &d_far)
        if d_far < d_near:
            near, far, d_near, d_far = far, near, d_far, d_near
        top += 1
        stack_node[top], stack_dist[top] = far, d_far
        top += 1
        stack_node[top], stack_dist[top] = near, d_near


cdef void _write_sorted(double *heap_dist, intp *heap_pos, intp size,
                        intp *row) noexcept nogil:
    """Write the heap's positions to ``row`` in the order of (distance, position)."""
    cdef intp last
    for last in range(size - 1, -1, -1):
        row[last] = heap_pos[0]
        heap_dist[0], heap_pos[0] = heap_dist[last], heap_pos[last]
        _sift_down(heap_dist, heap_pos, last, 0)


def nearest(const double[:, ::1] Xq, const double[:, ::1] XT, const intp[::1] pos,
            const double[:, ::1] lo, const double[:, ::1] hi, const intp[::1] min_pos,
            const intp[::1] bounds, int levels, const intp[::1] self_index,
            intp[:, ::1] out, int n_threads):
    """Fill ``out`` (n, width): per query, its own token first if it has one
    (``self_index >= 0``), then its nearest other tokens in the order of (squared
    distance, position). ``XT`` (r, m): the tokens' coordinates by column, in leaf
    order, ``pos`` their positions; ``lo``, ``hi``, ``min_pos``: per node; ``bounds``:
    each leaf's first column and the end. Needs ``width`` other tokens than each own
    token."""
    cdef intp n = Xq.shape[0], r = Xq.shape[1], m = XT.shape[1], width = out.shape[1]
    cdef intp first_leaf = (<intp> 1 << (levels - 1)) - 1, i, has_own, leaf, largest = 0
    cdef intp slots
    cdef double *work
    cdef intp *ints
    cdef int failed = 0
    if n == 0:
        return
    for leaf in range(bounds.shape[0] - 1):
        largest = max(largest, bounds[leaf + 1] - bounds[leaf])
    slots = width + levels + 1 + largest  # a heap, a stack, a leaf's distances
    with nogil, parallel(num_threads=n_threads):
        work = <double *> PyMem_RawMalloc(slots * (sizeof(double) + sizeof(intp)))
        ints = <intp *> (work + slots)
        for i in prange(n, schedule="dynamic", chunksize=16):
            if work == NULL:
                failed += 1
                continue
            has_own = self_index[i] >= 0
            if has_own:
                out[i, 0] = self_index[i]
            _search(&Xq[i, 0], &XT[0, 0], m, &pos[0], &lo[0, 0], &hi[0, 0], &min_pos[0],
                    &bounds[0], first_leaf, r, self_index[i], work, ints, width - has_own,
                    ints + width, work + width, work + width + levels + 1)
            _write_sorted(work, ints, width - has_own, &out[i, has_own])
        PyMem_RawFree(work)
    if failed:
        raise MemoryError("no memory for the neighbor search's heaps")
