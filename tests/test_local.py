"""Local attention (each query over its own neighbors) against a masked dense reference,
the dense layer, finite differences and repeated rows; the neighbor search and the
bound on the mass it drops; threads and bad input; the estimators with n_neighbors."""

import warnings

import _reference as reference
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from test_attention import (
    TOL,
    _assert_same_with_one_and_two_threads,
    _cast,
    _close,
    _forward_scale,
    _option_problem,
    _term_scales,
)

from sklearn.exceptions import ConvergenceWarning

from sklearn_softattn import (
    SoftmaxAttentionRegressor,
    SoftmaxAttentionRegressorCV,
    _attention,
    _neighbors,
)
from sklearn_softattn._attention import (
    LossGrad,
    _one_blas_thread,
    attention_forward,
    attention_loss_grad,
)
from sklearn_softattn._neighbors import (
    TrainingNeighbors,
    dropped_mass_bound,
    metric_shift,
    nearest_tokens,
)

LOCAL = {"scores": "distance"}


def _random_neighbors(n, m, k, self_index=None, seed=0):
    """Distinct random positions per query (n, k) in a random order; of the queries with
    an own token, the even ones have it among their positions, the odd ones not."""
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((n, m)), axis=1)
    if self_index is not None:
        for i in np.flatnonzero(self_index >= 0):
            others = order[i][order[i] != self_index[i]]
            order[i] = (np.concatenate([[self_index[i]], others]) if i % 2 == 0
                        else np.concatenate([others, [self_index[i]]]))
    return np.ascontiguousarray(rng.permuted(order[:, :k], axis=1))


def _masked_reference(Zq, Y, qw, Zc, K, V, cw, self_index, shift, targets, neighbors):
    """Forward (no own token), loss and gradients from the dense float64 definition with
    every token outside a query's neighbors masked out (log multiplicity -inf)."""
    Zq, Y, Zc, K, V = (np.asarray(a, dtype=np.float64) for a in (Zq, Y, Zc, K, V))
    S = reference._scores(Zq, Zc, K, "distance")
    mask = np.full(S.shape, -np.inf)
    np.put_along_axis(mask, neighbors, 0.0, axis=1)

    def softmax(log_multiplicity):
        logits = S + log_multiplicity + mask
        logits -= logits.max(axis=1, keepdims=True)
        E = np.exp(logits)
        return E / E.sum(axis=1, keepdims=True)

    Xc = reference._value_tokens(Zc, targets)
    U = Xc @ V.T
    forward = softmax(reference._log_multiplicity(cw, len(Zq))) @ U
    A = softmax(reference._log_multiplicity(cw, len(Zq), self_index))
    c = (np.asarray(qw, dtype=np.float64) / np.sum(qw))[:, None]
    Xbar = A @ Xc + (0 if shift is None else np.asarray(shift, dtype=np.float64))
    R = Xbar @ V.T - Y
    P = (c * R) @ U.T
    G = A * (P - np.sum(A * P, axis=1, keepdims=True))
    grad_K = Zq.T @ G @ Zc - 0.5 * np.einsum("ij,jk,jl->kl", G, Zc, Zc)
    return forward, 0.5 * float(np.sum(c * R**2)), grad_K, (c * R).T @ Xbar


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("q, t", [(1, 0), (3, 0), (1, 2), (4, 1)])
@pytest.mark.parametrize("weighted", [False, True])
def test_local_matches_masked_reference(monkeypatch, dtype, q, t, weighted):
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 3 * 7)  # several blocks of queries
    monkeypatch.setattr(_attention, "_THREAD_SCORES", 1)  # on two threads
    n, m, d, k = 45, 30, 4, 7
    args, targets = _option_problem(n, m, d, q, t)
    Zq, Y, qw, Zc, K, V, cw, idx, shift, targets = _cast(dtype, *args, targets)
    if not weighted:
        qw, cw = np.ones(n, dtype), np.ones(m, dtype)
    nb = _random_neighbors(n, m, k, idx)
    assert np.any(nb == idx[:, None]) and not np.all(np.any(nb == idx[:, None], axis=1))
    forward, loss, grad_K, grad_V = _masked_reference(Zq, Y, qw, Zc, K, V, cw, idx, shift,
                                                      targets, nb)
    options = {"targets": targets, "neighbors": nb, **LOCAL}
    got = attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, idx, shift, n_jobs=2, **options)
    tol = TOL[dtype]
    # Within tol of the terms' scales, as the dense layer against its reference.
    values = reference._value_tokens(Zc, targets)
    loss_scale, gradient_scale = _term_scales(Zq, Y, values, V, shift)
    _close(got[0], loss, tol, loss_scale)
    assert got[1].dtype == got[2].dtype == dtype
    _close(got[1], grad_K, tol, gradient_scale)
    _close(got[2], grad_V, tol, gradient_scale)
    predicted = attention_forward(Zq, Zc, K, V, cw, 2, **options)
    assert predicted.dtype == dtype
    _close(predicted, forward, tol, _forward_scale(Zq, Zc, K, V, cw, targets, "distance", nb))


@pytest.mark.parametrize("q, t", [(1, 0), (3, 0), (2, 3)])
def test_all_positions_equal_the_dense_layer(monkeypatch, q, t):
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 5 * 25)
    monkeypatch.setattr(_attention, "_THREAD_SCORES", 1)
    args, targets = _option_problem(40, 25, 4, q, t)
    Zq, Y, qw, Zc, K, V, cw, idx, shift = args
    nb = _random_neighbors(40, 25, 25)  # every position, in a random order per row
    dense = attention_loss_grad(*args, n_jobs=2, targets=targets, **LOCAL)
    local = attention_loss_grad(*args, n_jobs=2, targets=targets, neighbors=nb, **LOCAL)
    # Summed in another order: round-off of the term scales.
    values = reference._value_tokens(Zc, targets)
    loss_scale, gradient_scale = _term_scales(Zq, Y, values, V, shift)
    assert local[0] == pytest.approx(dense[0], rel=1e-10, abs=1e-12 * loss_scale)
    for a, b in zip(local[1:], dense[1:]):
        assert_allclose(a, b, rtol=1e-10, atol=1e-12 * gradient_scale)
    assert_allclose(attention_forward(Zq, Zc, K, V, cw, targets=targets, neighbors=nb, **LOCAL),
                    attention_forward(Zq, Zc, K, V, cw, targets=targets, **LOCAL), rtol=1e-10,
                    atol=1e-12 * _forward_scale(Zq, Zc, K, V, cw, targets, "distance"))


@pytest.mark.parametrize("q, t", [(1, 0), (3, 0), (2, 2)])
def test_local_gradient_matches_finite_differences(numeric_gradient, q, t):
    args, targets = _option_problem(12, 9, 3, q, t)
    Zq, Y, qw, Zc, K, V, cw, idx, shift = args
    nb = _random_neighbors(12, 9, 4, idx)
    options = {"targets": targets, "neighbors": nb, **LOCAL}

    def loss():
        return attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, idx, shift, **options)[0]

    _, grad_K, grad_V = attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, idx, shift, **options)
    assert_allclose(grad_K, numeric_gradient(loss, K), rtol=1e-6, atol=1e-9)
    assert_allclose(grad_V, numeric_gradient(loss, V), rtol=1e-6, atol=1e-9)


def test_integer_weights_equal_repeated_tokens():
    # Weights 1, 2, 3 by position mod 3; each query attends to one token of each weight
    # (its own among them), so that every row of the repeated problem has 6 positions.
    (Zq, Y, _, Zc, K, V, _, _, shift), targets = _option_problem(12, 12, 3, 2, 1)
    w = np.arange(12) % 3 + 1
    rng = np.random.default_rng(0)
    nb = np.empty((12, 3), dtype=np.intp)
    for i in range(12):
        nb[i] = [i if i % 3 == r else 3 * rng.integers(4) + r for r in range(3)]
    rep = np.repeat(np.arange(12), w)
    copies = [np.flatnonzero(rep == j) for j in range(12)]
    nb_rep = np.array([np.concatenate([copies[j] for j in nb[i]]) for i in rep])
    loss_w, gK_w, gV_w = attention_loss_grad(
        Zq, Y, w.astype(float), Zc, K, V, w.astype(float), np.arange(12), shift,
        targets=targets, neighbors=nb, **LOCAL)
    loss_r, gK_r, gV_r = attention_loss_grad(
        Zq[rep], Y[rep], np.ones(len(rep)), Zc[rep], K, V, np.ones(len(rep)),
        np.arange(len(rep)), shift[rep], targets=targets[rep], neighbors=nb_rep, **LOCAL)
    # The repeated tokens are summed in another order: round-off of the term scales.
    values = reference._value_tokens(Zc, targets)
    loss_scale, gradient_scale = _term_scales(Zq, Y, values, V, shift)
    assert loss_w == pytest.approx(loss_r, rel=1e-12, abs=1e-12 * loss_scale)
    assert_allclose(gK_w, gK_r, rtol=1e-10, atol=1e-12 * gradient_scale)
    assert_allclose(gV_w, gV_r, rtol=1e-10, atol=1e-12 * gradient_scale)
    assert_allclose(
        attention_forward(Zq, Zc, K, V, w.astype(float), targets=targets, neighbors=nb,
                          **LOCAL),
        attention_forward(Zq, Zc[rep], K, V, np.ones(len(rep)), targets=targets[rep],
                          neighbors=nb_rep[np.searchsorted(rep, np.arange(12))], **LOCAL),
        rtol=1e-12, atol=1e-12 * _forward_scale(Zq, Zc, K, V, w, targets, "distance", nb))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("q, t", [(1, 0), (5, 0), (2, 2)])
def test_results_do_not_depend_on_threads(monkeypatch, dtype, q, t):
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 3 * 8)
    monkeypatch.setattr(_attention, "_THREAD_SCORES", 1)
    args, targets = _option_problem(101, 40, 4, q, t)
    Zq, Y, qw, Zc, K, V, cw, idx, shift, targets = _cast(dtype, *args, targets)
    nb = _random_neighbors(101, 40, 8, idx)
    options = {"targets": targets, "neighbors": nb, **LOCAL}
    assert LossGrad(Zq, Y, qw, Zc, cw, idx, shift, 2, **options).n_threads == 2
    _assert_same_with_one_and_two_threads((Zq, Y, qw, Zc, K, V, cw, idx, shift), options)


def test_prepared_local_loss_keeps_its_neighbors_for_wider_parameters():
    (Zq, Y, qw, Zc, K, V, cw, idx, shift), targets = _option_problem(20, 15, 3, 2, 1)
    nb = _random_neighbors(20, 15, 5, idx)
    options = {"targets": targets.astype(np.float32), "neighbors": nb, **LOCAL}
    narrow = [a.astype(np.float32) for a in (Zq, Y, Zc, shift)]
    prepared = LossGrad(narrow[0], narrow[1], qw, narrow[2], cw, idx, narrow[3], **options)
    with _one_blas_thread():  # as LossGrad asks, and as attention_loss_grad calls it
        loss, grad_K, grad_V = prepared(K, V)  # float64 parameters: computed in float64
    expected = attention_loss_grad(narrow[0], narrow[1], qw, narrow[2], K, V, cw, idx,
                                   narrow[3], **options)
    assert grad_K.dtype == np.float64
    assert loss == expected[0]
    assert_array_equal(grad_K, expected[1])
    assert_array_equal(grad_V, expected[2])


def test_bad_neighbors_give_clear_errors():
    (Zq, Y, qw, Zc, K, V, cw, idx, shift), _ = _option_problem(10, 8, 3, 2, 0)
    nb = _random_neighbors(10, 8, 3)
    cases = [
        (nb, {"scores": "bilinear"}, "neighbors needs scores='distance'"),
        (nb, {}, "neighbors needs scores='distance'"),  # the default scores are bilinear
        (nb + 6, LOCAL, r"neighbors must lie in \[0, 8\)"),
        (nb - 3, LOCAL, r"neighbors must lie in \[0, 8\)"),
        (nb[:9], LOCAL, r"neighbors has shape \(9, 3\); expected \(10, k\)"),
        (nb[:, 0], LOCAL, r"neighbors has shape \(10,\); expected \(10, k\)"),
        (nb[:, :0], LOCAL, r"neighbors has shape \(10, 0\)"),
        (nb.astype(float), LOCAL, "neighbors must hold integer positions"),
        (np.hstack([nb, nb[:, :1]]), LOCAL, "neighbors must not repeat a position"),
    ]
    for bad, options, message in cases:
        calls = [
            lambda: attention_forward(Zq, Zc, K, V, cw, neighbors=bad, **options),
            lambda: attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, idx, shift, neighbors=bad,
                                        **options),
            lambda: LossGrad(Zq, Y, qw, Zc, cw, idx, shift, neighbors=bad, **options),
        ]
        for call in calls:
            with pytest.raises(ValueError, match=message):
                call()


def _brute_force_neighbors(Zq, Zc, L, k, self_index):
    """nearest_tokens from its definition: all squared distances (coordinates and squares
    summed in order, so that duplicate rows are at distance exactly 0 and ties are the
    search's), the own token first, then the others by (squared distance, position)."""
    width = min(len(Zc), k + int(np.any(self_index >= 0)))
    Xq, Xc = _neighbors._coordinates(Zq, L), _neighbors._coordinates(Zc, L)
    rows = []
    for x, own in zip(Xq, self_index):
        squared = np.zeros(len(Xc))
        for c in range(Xc.shape[1]):
            squared += (x[c] - Xc[:, c]) ** 2
        others = np.flatnonzero(np.arange(len(Zc)) != own)
        ranked = others[np.lexsort((others, squared[others]))]
        rows.append(np.concatenate([[own], ranked[:width - 1]]) if own >= 0
                    else ranked[:width])
    return np.array(rows)


def _duplicated_problem(seed=0):
    """Queries that are the context tokens (then some that are not), with several groups
    of duplicate rows: ties at distance 0 larger than k."""
    rng = np.random.default_rng(seed)
    Zc = rng.standard_normal((60, 3))
    Zc[10:16] = Zc[4]  # 7 copies of one row
    Zc[30:33] = Zc[40]  # and 4 of another, the first copy after the others
    Zq = np.vstack([Zc, Zc[[4, 40]], rng.standard_normal((5, 3))])
    self_index = np.where(np.arange(len(Zq)) < 60, np.arange(len(Zq)), -1)
    return Zq, Zc, rng.standard_normal((2, 3)), self_index


@pytest.mark.parametrize("k", [1, 3, 5, 20])
def test_nearest_tokens_break_ties_by_position_and_keep_the_own_token(k):
    Zq, Zc, L, self_index = _duplicated_problem()
    expected = _brute_force_neighbors(Zq, Zc, L, k, self_index)
    for n_jobs in [1, 2]:
        got = nearest_tokens(Zq, Zc, L, k, self_index, n_jobs=n_jobs)
        assert got.dtype == np.intp and got.shape == (len(Zq), k + 1)
        assert_array_equal(got, expected)
    assert_array_equal(got[:60, 0], np.arange(60))  # every own token, first
    assert_array_equal(got[14, :4], [14, 4, 10, 11][:k + 1])  # its copies, lowest first
    # Queries in another order, and in chunks of other sizes: the same rows.
    order = np.random.default_rng(1).permutation(len(Zq))
    assert_array_equal(nearest_tokens(Zq[order], Zc, L, k, self_index[order], n_jobs=2),
                       got[order])


def test_nearest_tokens_without_own_tokens_take_the_k_nearest():
    Zq, Zc, L, _ = _duplicated_problem()
    got = nearest_tokens(Zq, Zc, L, 4)
    assert got.shape == (len(Zq), 4)
    assert_array_equal(got, _brute_force_neighbors(Zq, Zc, L, 4, np.full(len(Zq), -1)))
    assert_array_equal(got[4], [4, 10, 11, 12])  # of 7 copies at distance 0


def _tied_problem(n, d, seed):
    """Rows on a small integer grid (many duplicates, and many exact ties at other
    distances: the squared differences of integers are exact), the queries the context
    in a random order, then some off-grid queries without an own token."""
    rng = np.random.default_rng(seed)
    Zc = rng.integers(-2, 3, (n, d)).astype(float)
    order = rng.permutation(n)
    Zq = np.vstack([Zc[order], rng.standard_normal((7, d))])
    return Zq, Zc, np.eye(d), np.concatenate([order, np.full(7, -1)])


@pytest.mark.parametrize("leaf_size", [2, 3, 16])
@pytest.mark.parametrize("n, d, k", [(300, 2, 5), (400, 3, 40), (257, 4, 1)])
def test_tree_search_matches_brute_force_on_ties(monkeypatch, leaf_size, n, d, k):
    # Trees of many levels with leaves of 2 to 16 rows: the same rows as the definition,
    # on one thread and on two.
    monkeypatch.setattr(_neighbors, "_LEAF_SIZE", leaf_size)
    Zq, Zc, L, self_index = _tied_problem(n, d, seed=n)
    expected = _brute_force_neighbors(Zq, Zc, L, k, self_index)
    for n_jobs in [1, 2]:
        assert_array_equal(nearest_tokens(Zq, Zc, L, k, self_index, n_jobs=n_jobs), expected)
    without_own = _brute_force_neighbors(Zq, Zc, L, k, np.full(len(Zq), -1))
    assert_array_equal(nearest_tokens(Zq, Zc, L, k, n_jobs=2), without_own)


def test_tree_search_matches_brute_force_on_random_rows_with_duplicates(monkeypatch):
    monkeypatch.setattr(_neighbors, "_LEAF_SIZE", 8)
    rng = np.random.default_rng(3)
    Zc = rng.standard_normal((500, 5))
    Zc[rng.integers(0, 500, 200)] = Zc[rng.integers(0, 500, 200)]  # duplicate rows
    Zc[100:130] = Zc[7]  # more copies of one row than k
    L = rng.standard_normal((3, 5))  # a low-rank metric: more ties in the coordinates
    self_index = np.arange(500)
    expected = _brute_force_neighbors(Zc, Zc, L, 12, self_index)
    one, two = (nearest_tokens(Zc, Zc, L, 12, self_index, n_jobs=j) for j in (1, 2))
    assert_array_equal(one, expected)
    assert_array_equal(two, expected)
    assert_array_equal(one[120], [120, 7] + list(range(100, 111)))  # lowest copies first


def test_tree_depends_on_the_context_only():
    Zc = _tied_problem(300, 3, seed=0)[1]
    tree = _neighbors._build_tree(Zc)
    assert_array_equal(np.sort(tree.order), np.arange(300))
    sizes = np.diff(tree.bounds)
    assert sizes.min() >= 1 and sizes.max() <= _neighbors._LEAF_SIZE
    leaves = slice(2**(tree.levels - 1) - 1, None)
    columns = tree.columns.T
    for leaf, (start, end) in enumerate(zip(tree.bounds[:-1], tree.bounds[1:])):
        assert np.all(tree.lo[leaves][leaf] <= columns[start:end])
        assert np.all(columns[start:end] <= tree.hi[leaves][leaf])
        assert tree.min_pos[leaves][leaf] == tree.order[start:end].min()
    again = _neighbors._build_tree(Zc.copy())
    for a, b in zip(tree, again):
        assert_array_equal(a, b)


@pytest.mark.parametrize("k", [59, 60, 100])
def test_nearest_tokens_of_the_whole_context_give_the_dense_layer(k):
    Zq, Zc, L, self_index = _duplicated_problem()
    got = nearest_tokens(Zq, Zc, L, k, self_index)
    assert_array_equal(got, np.tile(np.arange(60), (len(Zq), 1)))
    rng = np.random.default_rng(0)
    Y, V = rng.standard_normal((len(Zq), 2)), rng.standard_normal((2, 3))
    args = (Zq, Y, np.ones(len(Zq)), Zc, L.T @ L, V, np.ones(60), self_index)
    local = attention_loss_grad(*args, neighbors=got, **LOCAL)
    dense = attention_loss_grad(*args, **LOCAL)
    loss_scale, gradient_scale = _term_scales(Zq, Y, Zc, V, None)
    assert local[0] == pytest.approx(dense[0], rel=1e-10, abs=1e-12 * loss_scale)
    for a, b in zip(local[1:], dense[1:]):
        assert_allclose(a, b, rtol=1e-10, atol=1e-12 * gradient_scale)
    assert np.all(dropped_mass_bound(Zq, Zc, L, got, self_index=self_index) == 0)


@pytest.mark.parametrize("own", [False, True])
@pytest.mark.parametrize("sharpness", [0.5, 10.0])
def test_dropped_mass_bound_holds(own, sharpness):
    Zq, Zc, L, self_index = _duplicated_problem()
    L = sharpness * L
    self_index = self_index if own else None
    w = np.random.default_rng(2).integers(1, 4, len(Zc)).astype(float)
    nb = nearest_tokens(Zq, Zc, L, 6, self_index)
    bound = dropped_mass_bound(Zq, Zc, L, nb, w, self_index)
    # The dense softmax's weight outside the neighbors, from the reference.
    A = reference._softmax(Zq, Zc, L.T @ L, reference._log_multiplicity(w, len(Zq), self_index),
                           "distance")
    kept = np.zeros(A.shape, dtype=bool)
    np.put_along_axis(kept, nb, True, axis=1)
    dropped = np.where(kept, 0, A).sum(axis=1)
    assert np.all(dropped > 0)
    assert np.all(dropped <= bound * (1 + 1e-12))
    assert np.all(bound < 1)
    if sharpness > 1:  # sharp attention: the bound is small where the mass is
        assert np.median(bound) < 1e-6


def test_bad_neighbor_search_input_gives_clear_errors():
    Zq, Zc, L, self_index = _duplicated_problem()
    with pytest.raises(ValueError, match="k must be a positive integer, got 0"):
        nearest_tokens(Zq, Zc, L, 0)
    with pytest.raises(ValueError, match="k must be a positive integer, got 2.5"):
        nearest_tokens(Zq, Zc, L, 2.5)
    with pytest.raises(ValueError, match="Inconsistent shapes"):
        nearest_tokens(Zq, Zc, L[:, :2], 3)
    with pytest.raises(ValueError, match="must be finite"):
        nearest_tokens(Zq, np.where(Zc == Zc[3, 1], np.nan, Zc), L, 3)
    with pytest.raises(ValueError, match=r"self_index must lie in \[-1, 60\)"):
        nearest_tokens(Zq, Zc, L, 3, self_index + 5)
    with pytest.raises(ValueError, match=r"self_index has shape \(3,\)"):
        dropped_mass_bound(Zq, Zc, L, np.zeros((len(Zq), 2), int), self_index=self_index[:3])
    with pytest.raises(ValueError, match=r"neighbors has shape \(4, 2\)"):
        dropped_mass_bound(Zq, Zc, L, np.zeros((4, 2), int))


# The estimators with local attention (n_neighbors).

def _smooth_problem(n=240, seed=0):
    """A smooth function of three features, sharp enough for local attention."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, (n, 3))
    y = np.sin(2 * X[:, 0]) + X[:, 1] ** 2 + 0.1 * rng.standard_normal(n)
    return X, y


LOCAL_FIT = dict(attention_scale=30.0, attention_scores="distance", target_tokens=True,
                 solver="lbfgs", max_iter=30, random_state=0)


def _fit(X, y, sample_weight=None, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return SoftmaxAttentionRegressor(**{**LOCAL_FIT, **params}).fit(X, y, sample_weight)


def test_n_neighbors_needs_distance_scores():
    X, y = _smooth_problem(40)
    with pytest.raises(ValueError, match="n_neighbors=5 needs attention_scores='distance'"):
        _fit(X, y, attention_scores="bilinear", n_neighbors=5)


@pytest.mark.parametrize("n_neighbors", [40, 1000])
def test_local_fit_over_every_row_is_the_dense_fit(n_neighbors):
    # Neighbors as many as the rows keep every token, in training and in predict:
    # the dense layer, bit for bit.
    X, y = _smooth_problem(40)
    local, dense = _fit(X, y, n_neighbors=n_neighbors), _fit(X, y)
    assert_array_equal(local.key_query_, dense.key_query_)
    assert_array_equal(local.predict(X[:7] + 0.1), dense.predict(X[:7] + 0.1))


def test_local_fit_is_close_to_the_dense_fit_at_a_sharp_scale():
    X, y = _smooth_problem()
    X_test, y_test = _smooth_problem(400, seed=1)
    local, dense = _fit(X, y, n_neighbors=40), _fit(X, y)
    assert abs(local.score(X_test, y_test) - dense.score(X_test, y_test)) < 0.01
    assert dense.score(X_test, y_test) > 0.8


def test_local_predict_is_its_attention_weights():
    X, y = _smooth_problem()
    model = _fit(X, y, n_neighbors=12)
    A = model.attention_weights(X[:9] * 0.9)
    assert_array_equal(np.count_nonzero(A, axis=1), 12)
    assert_allclose(A.sum(axis=1), 1)
    values = ((model.context_ - model.x_offset_) @ model.value_.T
              + (model.context_targets_ - model.y_offset_) @ model.target_value_.T)
    assert_allclose(model.predict(X[:9] * 0.9), model.y_offset_ + (A @ values).ravel(),
                    rtol=1e-10, atol=1e-12)
    indices, weights = model.attention_weights(X[:9] * 0.9, top_k=12)
    assert_allclose(np.sort(weights, axis=1), np.sort(A[A > 0].reshape(9, 12), axis=1))


def test_local_fit_with_duplicates_and_zero_weights_is_deterministic(openmp_threads):
    # Many rows at distance 0 (ties broken by position) and rows of zero weight:
    # the same fit twice, on one thread or two.
    X, y = _smooth_problem(120)
    X, y = np.vstack([X, X[:60], X[:30]]), np.concatenate([y, y[:60], y[:30]])
    w = np.ones(len(y))
    w[::7] = 0
    fits = []
    for limit in (1, 1, 2):
        with openmp_threads(limit):
            model = _fit(X, y, w, n_neighbors=8)
            fits.append((model, model.predict(X)))
    for other, predicted in fits[1:]:
        assert_array_equal(other.key_query_, fits[0][0].key_query_)
        assert_array_equal(predicted, fits[0][1])
    assert np.all(np.isfinite(fits[0][1]))


def test_training_neighbors_search_again_only_when_the_metric_moves():
    rng = np.random.default_rng(0)
    Z, L = rng.standard_normal((50, 3)), np.eye(3)
    neighbors = TrainingNeighbors(Z, Z, 5, np.arange(50), max_shift=0.1)
    first = neighbors(L)
    assert neighbors.n_searches == 1 and first.shape == (50, 6)
    assert not neighbors.refresh(7.0 * L)  # rescaled: the same order, no search
    assert metric_shift(7.0 * L, L) < 1e-15
    L_moved = L + np.diag([0.0, 0.0, 0.5])
    assert 0.1 < metric_shift(L_moved, L) < 0.2
    neighbors.refresh(L_moved)
    assert neighbors.n_searches == 2
    assert_array_equal(neighbors(L_moved), nearest_tokens(Z, Z, L_moved, 5, np.arange(50)))
    assert TrainingNeighbors(Z, Z, 49, np.arange(50))(L) is None  # every token kept


def test_cv_with_local_attention_does_not_depend_on_threads():
    X, y = _smooth_problem(150)
    params = dict(attention_scales=[0, 3.0, 30.0], cv=3, max_iters=[5, 20], solver="lbfgs",
                  target_tokens=True, attention_scores="distance", n_neighbors=10,
                  random_state=0)
    fits = [SoftmaxAttentionRegressorCV(**params, n_jobs=n_jobs).fit(X, y) for n_jobs in (1, 2)]
    assert_array_equal(fits[0].score_path_, fits[1].score_path_)
    assert_array_equal(fits[0].predict(X), fits[1].predict(X))


def test_cv_with_more_neighbors_than_a_fold_has_rows_is_the_dense_cv():
    X, y = _smooth_problem(60)
    params = dict(attention_scales=[0, 3.0, 30.0], cv=3, max_iters=[5, 20], solver="lbfgs",
                  target_tokens=True, attention_scores="distance", random_state=0)
    local = SoftmaxAttentionRegressorCV(**params, n_neighbors=1000).fit(X, y)
    dense = SoftmaxAttentionRegressorCV(**params).fit(X, y)
    assert_array_equal(local.score_path_, dense.score_path_)
    assert_array_equal(local.predict(X + 0.1), dense.predict(X + 0.1))


def test_locality_order_keeps_near_rows_together():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((2000, 3))
    order = _neighbors.locality_order(X)
    assert_array_equal(np.sort(order), np.arange(2000))
    # Consecutive rows in that order are far nearer than in the input order.
    step = np.linalg.norm(np.diff(X[order], axis=0), axis=1).mean()
    assert step < 0.5 * np.linalg.norm(np.diff(X, axis=0), axis=1).mean()
    assert_array_equal(_neighbors.locality_order(X), order)  # a function of X alone
