"""The compiled attention kernel against its numpy reference, its definition and
finite differences; threads, blocks, memory and bad input."""

import itertools
import tracemalloc
import warnings

import _reference as reference
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._openmp_helpers import _openmp_effective_n_threads
from threadpoolctl import threadpool_info, threadpool_limits

from sklearn_softattn import (
    SoftmaxAttentionRegressor,
    _attention,
    _kernel,
    _layer,
    _objective,
)
from sklearn_softattn._attention import (
    LossGrad,
    _one_blas_thread,
    attention_forward,
    attention_loss_grad,
    attention_weights,
    key_bias,
)

# Against the plain-numpy reference (tests/_reference.py, which shares no code
# with the kernel), relative to each result's largest entry or term scale: the
# largest error measured over these tests (hypothesis derandomized and 5 random
# runs) was 5.4e-15 in float64 and 1.1e-6 in float32 (the float32 kernel against
# the float64 reference); the 2**31-score test's elementwise error was 7.5e-16.
# Relative to a forward's own largest entry it reached 2.7e-5 in float32 (one query
# whose values cancelled): the forward's scale is :func:`_forward_scale`.
TOL = {np.float64: 1e-12, np.float32: 1e-5}


def _problem(n=12, m=12, d=3, q=2, seed=0):
    rng = np.random.default_rng(seed)
    Zq = rng.standard_normal((n, d))
    Zc = Zq[:m] if m <= n else rng.standard_normal((m, d))
    Y = rng.standard_normal((n, q))
    K = rng.standard_normal((d, d)) / d
    V = rng.standard_normal((q, d))
    return rng, Zq, Zc, Y, K, V


def _full_problem(n, m, d, q, seed=0, self_tokens=True, weighted=True, shift=True):
    """All arguments of attention_loss_grad: queries that are tokens come first."""
    rng, Zq, Zc, Y, K, V = _problem(n, m, d, q, seed)
    qw = rng.uniform(0.5, 3, n) if weighted else np.ones(n)
    cw = rng.integers(1, 4, m).astype(float) if weighted else np.ones(m)
    self_index = np.where(np.arange(n) < m, np.arange(n), -1)
    if not self_tokens:
        self_index[:] = -1
    value_shift = 0.1 * rng.standard_normal(Zq.shape) if shift else None
    return Zq, Y, qw, Zc, K, V, cw, self_index, value_shift


def _option_problem(n, m, d, q, t, seed=0):
    """:func:`_full_problem`'s arguments with ``t`` target columns (None if 0) in the
    value tokens: ``V`` and the value shift widened to d + t columns."""
    Zq, Y, qw, Zc, K, V, cw, self_index, shift = _full_problem(n, m, d, q, seed)
    rng = np.random.default_rng(seed + 1)
    targets = rng.standard_normal((m, t)) if t else None
    V = np.hstack([V, rng.standard_normal((q, t))])
    shift = np.hstack([shift, 0.1 * rng.standard_normal((n, t))])
    return (Zq, Y, qw, Zc, K, V, cw, self_index, shift), targets


def _close(got, expected, tol, floor=0.0):
    """Within ``tol`` relative to the reference's largest entry (or ``floor`` if larger)."""
    assert np.all(np.isfinite(got))
    assert_allclose(got, expected, rtol=tol, atol=tol * max(np.max(np.abs(expected)), floor))


def _term_scales(Zq, Y, Zc, V, shift):
    """Sizes of the terms that make the loss (``|y|²``) and the gradients
    (``|z_i| |r_i| |V| |z_j|²``).

    Results are compared to within a tolerance of these sizes: a loss or
    gradient that cancels to nearly zero (a near-perfect fit, one-hot
    attention, a context of one token) is round-off on both sides, and
    round-off is relative to the terms that cancelled.
    """
    big = max(np.abs(Zq).max(), np.abs(Zc).max()) + (0 if shift is None else np.abs(shift).max())
    v = np.abs(V).sum(axis=1).max()
    residual = np.abs(Y).max() + v * big
    return residual**2, big**3 * v * residual


def _forward_scale(Zq, Zc, K, V, context_weight, targets=None, scores="bilinear",
                   neighbors=None):
    """Size of the forward's round-off: the values' size, plus each query's score size
    times the spread of the values it averages (over its ``neighbors`` only, if given).

    A score sums terms of sizes ``|z|ᵀ |K| |z_j|`` (and ``½ |z_j|ᵀ |K| |z_j|`` for the
    key bias) and errs by at most δ, about (d + 2) eps times their sum (its two
    products, the row maximum, the exponential); through the softmax that moves the
    output ``f = sum_j A_j u_j`` by at most ``2 δ sum_j A_j |u_j - f|``, nothing where the
    attention is one-hot however large the scores. The average itself errs by some
    (m + p) / 2 eps times the values' size ``|V| |x̃_j|``. Both factors of eps stay far
    below TOL's (84 eps in float32, 4500 in float64) at the sizes tested (d <= 5,
    m + p <= 47).
    """
    Zq, Zc, K, V = (np.asarray(a, dtype=np.float64) for a in (Zq, Zc, K, V))
    size = np.abs(Zq) @ np.abs(K) @ np.abs(Zc).T
    if scores == "distance":
        size += 0.5 * np.einsum("jk,kl,jl->j", np.abs(Zc), np.abs(K), np.abs(Zc))
    log_multiplicity = reference._log_multiplicity(context_weight, len(Zq))
    if neighbors is not None:  # local attention: every other token masked out
        mask = np.full(log_multiplicity.shape, -np.inf)
        np.put_along_axis(mask, neighbors, 0.0, axis=1)
        log_multiplicity += mask
    A = reference._softmax(Zq, Zc, K, log_multiplicity, scores)
    tokens = reference._value_tokens(Zc, targets)
    U = tokens @ V.T
    spread = np.einsum("ij,ijq->iq", A, np.abs(U[None] - (A @ U)[:, None]))
    return np.max(size.max(axis=1)[:, None] * spread) + np.max(np.abs(tokens) @ np.abs(V).T)


def _compare(args, dtype, n_jobs=None, targets=None, scores="bilinear"):
    """Compiled kernel on ``args`` (and ``targets``) cast to ``dtype`` against the float64
    reference."""
    Zq, Y, qw, Zc, K, V, cw, self_index, shift = args
    cast = [None if a is None else np.asarray(a, dtype)
            for a in (Zq, Y, qw, Zc, K, V, cw, shift, targets)]
    Zq_, Y_, qw_, Zc_, K_, V_, cw_, shift_, targets_ = cast
    wide = [None if a is None else a.astype(float) for a in cast]
    options = {"targets": targets_, "scores": scores}
    expected = reference.attention_loss_grad(*wide[:7], self_index, wide[7], wide[8], scores)
    got = attention_loss_grad(Zq_, Y_, qw_, Zc_, K_, V_, cw_, self_index, shift_, n_jobs,
                              **options)
    values = Zc_ if targets_ is None else np.hstack([Zc_, targets_])
    loss_scale, gradient_scale = _term_scales(Zq_, Y_, values, V_, shift_)
    _close(got[0], expected[0], TOL[dtype], loss_scale)
    for a, b in zip(got[1:], expected[1:]):
        _close(a, b, TOL[dtype], gradient_scale)
    assert got[1].dtype == got[2].dtype == dtype
    predicted = attention_forward(Zq_, Zc_, K_, V_, cw_, n_jobs, **options)
    assert predicted.dtype == dtype
    _close(predicted, reference.attention_forward(wide[0], wide[3], wide[4], wide[5], wide[6],
                                                  wide[8], scores), TOL[dtype],
           _forward_scale(wide[0], wide[3], wide[4], wide[5], wide[6], wide[8], scores))


def _reference_loss(Zq, Y, qw, Zc, K, V, cw, self_index):
    """Loop-by-loop leave-one-out loss, straight from the definition."""
    loss = 0.0
    for i in range(len(Zq)):
        mult = cw.astype(float).copy()
        if self_index[i] >= 0:
            mult[self_index[i]] = max(mult[self_index[i]] - 1, 0)
        e = mult * np.exp(Zc @ K.T @ Zq[i])
        pred = V @ (e @ Zc) / e.sum()
        loss += qw[i] * np.sum((pred - Y[i]) ** 2) / 2
    return loss / qw.sum()


@pytest.mark.parametrize("weighted", [False, True])
def test_loss_matches_definition(weighted):
    rng, Zq, Zc, Y, K, V = _problem()
    w = rng.integers(1, 4, len(Zq)).astype(float) if weighted else np.ones(len(Zq))
    self_index = np.arange(len(Zq))
    loss, _, _ = attention_loss_grad(Zq, Y, w, Zc, K, V, w, self_index)
    assert loss == pytest.approx(_reference_loss(Zq, Y, w, Zc, K, V, w, self_index), rel=1e-12)


SWITCHES = list(itertools.product([True, False], [1, 3], [True, False], [True, False],
                                  [True, False]))


@pytest.mark.parametrize("fused, q, self_tokens, weighted, shift", SWITCHES)
def test_gradient_matches_finite_differences(numeric_gradient, monkeypatch, fused, q,
                                             self_tokens, weighted, shift):
    monkeypatch.setattr(_attention, "_FUSED_MAX_RANK", 3 if fused else 0)
    Zq, Y, qw, Zc, K, V, cw, self_index, value_shift = _full_problem(
        10, 7, 3, q, self_tokens=self_tokens, weighted=weighted, shift=shift)

    def loss():
        return attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, self_index, value_shift)[0]

    _, gK, gV = attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, self_index, value_shift)
    assert_allclose(gK, numeric_gradient(loss, K), rtol=1e-6, atol=1e-9)
    assert_allclose(gV, numeric_gradient(loss, V), rtol=1e-6, atol=1e-9)


def _dense_loss_grad(Zq, Y, qw, Zc, K, V, cw, self_index, shift):
    """The loss and gradient formulas, with full n x m matrices."""
    mult = np.tile(cw.astype(float), (len(Zq), 1))
    rows = np.flatnonzero(self_index >= 0)
    mult[rows, self_index[rows]] = np.maximum(mult[rows, self_index[rows]] - 1, 0)
    S = Zq @ K @ Zc.T
    E = mult * np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    c = (qw / qw.sum())[:, None]
    Zbar = A @ Zc + shift
    R = Zbar @ V.T - Y
    P = c * R @ (Zc @ V.T).T
    G = A * (P - np.sum(A * P, axis=1, keepdims=True))
    return 0.5 * np.sum(c * R * R), Zq.T @ G @ Zc, (c * R).T @ Zbar


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("d, q", [(3, 1), (4, 2), (3, 5), (5, 3)])
def test_loss_and_gradient_match_dense_formulas(monkeypatch, fused, d, q):
    # Both ways of forming (A ∘ P) Zc, weighted, with shifts and non-context queries.
    monkeypatch.setattr(_attention, "_FUSED_MAX_RANK", 5 if fused else 0)
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 7 * 20)  # several blocks
    monkeypatch.setattr(_attention, "_THREAD_SCORES", 1)  # on two threads
    args = _full_problem(30, 20, d, q)
    got = attention_loss_grad(*args, n_jobs=2)
    expected = _dense_loss_grad(*args)
    loss_scale, gradient_scale = _term_scales(*args[:2], args[3], args[5], args[8])
    assert got[0] == pytest.approx(expected[0], rel=1e-13, abs=1e-13 * loss_scale)
    for a, b in zip(got[1:], expected[1:]):
        assert_allclose(a, b, rtol=1e-12, atol=1e-12 * gradient_scale)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("n, m, d, q", [(97, 31, 4, 2), (50, 50, 10, 20), (40, 60, 5, 1)])
def test_matches_numpy_reference(monkeypatch, dtype, fused, n, m, d, q):
    monkeypatch.setattr(_attention, "_FUSED_MAX_RANK", 20 if fused else 0)
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 7 * m)  # blocks that do not divide n
    monkeypatch.setattr(_attention, "_THREAD_SCORES", 1)
    _compare(_full_problem(n, m, d, q), dtype, n_jobs=2)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("layer", [{}, dict(target_tokens=True, attention_scores="distance")],
                         ids=["paper", "targets+distance"])
def test_fit_matches_fit_on_numpy_reference(monkeypatch, dtype, layer):
    """A fit at a fixed number of iterations, on the kernel and on the reference."""
    from sklearn.datasets import make_friedman1

    X, y = make_friedman1(150, 5, noise=0.5, random_state=0)
    X, y = X.astype(dtype), y.astype(dtype)
    params = {"max_iter": 8, "tol": 0, "random_state": 0, "attention_scale": 2.0, **layer}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        compiled = SoftmaxAttentionRegressor(**params).fit(X, y)
        monkeypatch.setattr(
            _objective, "LossGrad",
            lambda Zq, Yq, w, Zc, cw, own, shift, n_jobs, neighbors, **options: lambda K, V: (
                reference.attention_loss_grad(Zq, Yq, w, Zc, K, V, cw, own, shift, **options)))
        monkeypatch.setattr(
            _layer, "attention_forward",
            lambda *a, neighbors, **options: reference.attention_forward(*a[:5], **options))
        numpy_fit = SoftmaxAttentionRegressor(**params).fit(X, y)
    assert compiled.n_iter_ == numpy_fit.n_iter_ == 8
    _close(compiled.predict(X), numpy_fit.predict(X), TOL[dtype])


def test_threads_follow_n_jobs_and_openmp_limits():
    from threadpoolctl import threadpool_limits

    assert _attention._n_threads(3) == 3
    assert _attention._n_threads(-1) == _openmp_effective_n_threads(-1)
    assert _attention._n_threads(None) == _openmp_effective_n_threads()
    with threadpool_limits(1):  # as in a joblib worker, or a user's limit
        assert _attention._n_threads(None) == 1


def test_small_problems_take_fewer_threads():
    assert _attention._kernel_threads(2, 100, 100, 50) == 1  # 10 000 scores
    assert _attention._kernel_threads(2, 2000, 2000, 32) == 2
    assert _attention._kernel_threads(8, 2000, 2000, 1000) == 2  # one per block


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("q", [1, 5])
@pytest.mark.parametrize("t, scores", [(0, "bilinear"), (0, "distance"), (2, "bilinear"),
                                       (2, "distance")])
def test_results_do_not_depend_on_threads(monkeypatch, dtype, q, t, scores):
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 3 * 40)
    monkeypatch.setattr(_attention, "_THREAD_SCORES", 1)
    args, targets = _option_problem(101, 40, 4, q, t)
    *args, targets = _cast(dtype, *args, targets)
    _assert_same_with_one_and_two_threads(args, {"targets": targets, "scores": scores})


def _cast(dtype, *arrays):
    """The floating arrays in ``dtype``; integer arrays and None as they are."""
    return [None if a is None else a.astype(dtype) if a.dtype.kind == "f" else a
            for a in arrays]


def _assert_same_with_one_and_two_threads(args, options):
    """The loss, gradients and forward of a problem ``args`` are bitwise the same on one
    thread and on two."""
    Zq, Y, qw, Zc, K, V, cw, idx, shift = args
    one = attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, idx, shift, n_jobs=1, **options)
    two = attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, idx, shift, n_jobs=2, **options)
    assert one[0] == two[0]
    for a, b in zip(one[1:], two[1:]):
        assert_array_equal(a, b)
    assert_array_equal(attention_forward(Zq, Zc, K, V, cw, 1, **options),
                       attention_forward(Zq, Zc, K, V, cw, 2, **options))


def test_block_rows_bound_the_scores_per_block(monkeypatch):
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 1000)
    for n, m in [(1, 1), (5, 3), (1000, 7), (1000, 999), (1000, 1000), (10, 5000), (300, 3)]:
        rows = _attention._block_rows(n, m)
        assert 1 <= rows <= n
        assert rows * m <= 1000 or rows == 1  # one query when the context alone is larger
        n_blocks = -(-n // rows)
        assert n - (n_blocks - 1) * rows > rows - n_blocks  # the last block is not a remainder
    assert _attention._block_rows(100, 10) == 100
    assert _attention._block_rows(300, 4) == 150  # 2 blocks of 150, not 250 and 50
    assert _attention._block_rows(300, 9) == 75  # 4 blocks of 75, not 3 of 100
    assert _attention._block_rows(1000, 7) == 125  # 8 blocks of 125, not 7 of 142 and 6
    assert _attention._block_rows(1000, 4) == 250  # 4 blocks of 250, as many as fit
    assert _attention._block_rows(2500, 4) == 250  # 10 blocks: not rounded up to 16


# One block of scores per thread; one of twice the scores (the fused gradient's
# 2d + 1 = 21 token columns outnumber the 16 queries of a block); two blocks.
@pytest.mark.parametrize("d, q, n_blocks", [(5, 1, 1), (10, 1, 2), (5, 4, 2)])
def test_loss_grad_memory_holds_two_blocks_per_thread(monkeypatch, d, q, n_blocks):
    n, m = 4000, 1000
    args = _full_problem(n, m, d, q, shift=False)
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 2**14)
    rows = LossGrad(*args[:4], *args[6:]).block_rows
    assert rows * m <= (n_blocks if q == 1 else 1) * 2**14 < 2 * rows * m
    for n_jobs in [1, 2]:
        tracemalloc.start()
        try:
            attention_loss_grad(*args, n_jobs=n_jobs)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        # Per query: its loss, residual, attended mean, gradient row, and a few
        # vectors; then at most two blocks of scores per thread.
        per_query = 8 * n * (2 + 3 * q + 3 * d)
        blocks = n_blocks * 2**14 * 8
        assert peak < per_query + n_jobs * (blocks + 2**16) + 2**16, (n_jobs, peak)
        assert peak < n * m * 8 / 10  # never the full n x m matrix


def test_softmax_rows_sum_to_one_and_mask_self():
    rng, Zq, Zc, *_ = _problem()
    K = 50 * rng.standard_normal((3, 3))  # very sharp scores
    log_w = np.zeros(len(Zc))
    self_index = np.arange(len(Zq))
    A = attention_weights(Zq, Zc @ K.T, log_w, self_index, np.full(len(Zq), -np.inf))
    assert np.all(np.isfinite(A))
    assert_allclose(A.sum(axis=1), 1)
    assert np.all(np.diag(A) == 0)


def test_integer_weights_equal_repeated_tokens():
    rng, Zq, Zc, Y, K, V = _problem()
    w = rng.integers(1, 4, len(Zq))
    loss_w, gK_w, gV_w = attention_loss_grad(Zq, Y, w.astype(float), Zc, K, V,
                                             w.astype(float), np.arange(len(Zq)))
    rep = np.repeat(np.arange(len(Zq)), w)
    loss_r, gK_r, gV_r = attention_loss_grad(Zq[rep], Y[rep], np.ones(len(rep)), Zc[rep],
                                             K, V, np.ones(len(rep)), np.arange(len(rep)))
    # The repeated tokens are summed in another order: round-off of the term scales.
    loss_scale, gradient_scale = _term_scales(Zq, Y, Zc, V, None)
    assert loss_w == pytest.approx(loss_r, rel=1e-12, abs=1e-12 * loss_scale)
    assert_allclose(gK_w, gK_r, rtol=1e-10, atol=1e-12 * gradient_scale)
    assert_allclose(gV_w, gV_r, rtol=1e-10, atol=1e-12 * gradient_scale)
    pred_w = attention_forward(Zq, Zc, K, V, w.astype(float))
    assert_allclose(pred_w, attention_forward(Zq, Zc[rep], K, V, np.ones(len(rep))),
                    rtol=1e-12, atol=1e-12 * _forward_scale(Zq, Zc, K, V, w))


def test_gaussian_limit_is_linear():
    # E[x' e^{xᵀ K x'}] / E[e^{xᵀ K x'}] = Kᵀ x for x' ~ N(0, I).
    rng = np.random.default_rng(0)
    d = 3
    Zc = rng.standard_normal((200_000, d))
    K = 0.3 * rng.standard_normal((d, d))
    Zq = rng.standard_normal((5, d))
    out = attention_forward(Zq, Zc, K, np.eye(d), np.ones(len(Zc)))
    assert_allclose(out, Zq @ K, atol=0.03)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_exponential_within_two_ulp(dtype):
    low = {np.float64: -708.3, np.float32: -87.3}[dtype]
    x = np.concatenate([np.linspace(low, 0, 200_001), -np.logspace(-30, 0, 1000),
                        [0.0, -0.0]]).astype(dtype)
    y = x.copy()
    _kernel.exp(y)
    exact = np.exp(x.astype(np.longdouble))
    ulp = np.spacing(exact.astype(dtype)).astype(np.longdouble)
    assert np.max(np.abs(y - exact) / ulp) <= 2
    below = np.array([-np.inf, 2 * low, low - 0.5], dtype=dtype)
    _kernel.exp(below)
    assert_array_equal(below, 0)  # excluded tokens weigh exactly nothing


def test_overflowing_scores_stay_finite():
    # Attention becomes one-hot: the gradients cancel to round-off on both sides.
    _rng, Zq, Zc, Y, K, V = _problem(n=20, m=15)
    for factor, dtype in [(1e150, np.float64), (1e300, np.float64), (1e18, np.float32),
                          (1e36, np.float32)]:
        args = (Zq, Y, np.ones(20), Zc, factor * K, V, np.ones(15), np.arange(20) % 15, None)
        _compare(args, dtype)


# Bad input


def _layouts(a):
    """The same values, as a strided view, read-only, and Fortran-ordered."""
    wide = np.zeros((a.shape[0], 2 * a.shape[1]), a.dtype)
    wide[:, ::2] = a
    locked = a.copy()
    locked.flags.writeable = False
    return {"strided": wide[:, ::2], "read-only": locked, "fortran": np.asfortranarray(a)}


@pytest.mark.parametrize("layout", ["strided", "read-only", "fortran"])
def test_any_layout_gives_the_same_result_and_is_not_modified(layout):
    args = _full_problem(30, 20, 4, 3)
    expected = attention_loss_grad(*args)
    expected_forward = attention_forward(args[0], args[3], args[4], args[5], args[6])
    Zq, Y, qw, Zc, K, V, cw, idx, shift = args
    views = {name: _layouts(a)[layout] for name, a in
             {"Zq": Zq, "Y": Y, "Zc": Zc, "K": K, "V": V, "shift": shift}.items()}
    copies = {name: a.copy() for name, a in views.items()}
    got = attention_loss_grad(views["Zq"], views["Y"], qw, views["Zc"], views["K"],
                              views["V"], cw, idx, views["shift"])
    assert got[0] == expected[0]
    for a, b in zip(got[1:], expected[1:]):
        assert_array_equal(a, b)
    assert_array_equal(attention_forward(views["Zq"], views["Zc"], views["K"], views["V"], cw),
                       expected_forward)
    for name, a in views.items():
        assert_array_equal(a, copies[name])


def test_float16_and_integer_input_are_cast():
    _rng, Zq, Zc, Y, K, V = _problem(n=10, m=10)
    w = np.ones(10)
    half = [a.astype(np.float16) for a in (Zq, Zc, K, V)]
    out = attention_forward(*half, w.astype(np.float16))
    assert out.dtype == np.float32
    assert_allclose(out, attention_forward(*[a.astype(np.float32) for a in half], w),
                    rtol=1e-6)
    ints = [np.round(3 * a).astype(np.int64) for a in (Zq, Zc, K, V)]
    out = attention_forward(*ints, w)
    assert out.dtype == np.float64
    assert_allclose(out, attention_forward(*[a.astype(float) for a in ints], w), rtol=1e-15)
    loss, gK, _gV = attention_loss_grad(ints[0], Y, w, ints[1], ints[2], ints[3], w,
                                       np.arange(10))
    assert gK.dtype == np.float64 and np.isfinite(loss)


def test_complex_and_inconsistent_input_give_clear_errors():
    _rng, Zq, Zc, Y, K, V = _problem(n=10, m=10)
    w = np.ones(10)
    with pytest.raises(TypeError, match="float32 or float64"):
        attention_forward(Zq.astype(complex), Zc, K, V, w)
    with pytest.raises(ValueError, match="Inconsistent shapes"):
        attention_forward(Zq[:, :2], Zc, K, V, w)
    with pytest.raises(ValueError, match="context_weight"):
        attention_forward(Zq, Zc, K, V, w[:5])
    with pytest.raises(ValueError, match="empty"):
        attention_forward(Zq, Zc[:0], K, V, w[:0])
    with pytest.raises(ValueError, match="self_index"):
        attention_loss_grad(Zq, Y, w, Zc, K, V, w, np.full(10, 10))
    with pytest.raises(ValueError, match="value_shift"):
        attention_loss_grad(Zq, Y, w, Zc, K, V, w, np.arange(10), Zq[:5])


def test_no_queries_give_empty_results():
    _rng, Zq, Zc, Y, K, V = _problem(n=10, m=10)
    assert attention_forward(Zq[:0], Zc, K, V, np.ones(10)).shape == (0, 2)
    loss, gK, gV = attention_loss_grad(Zq[:0], Y[:0], np.ones(0), Zc, K, V, np.ones(10),
                                       np.arange(0))
    assert loss == 0 and not gK.any() and not gV.any()


def test_blas_dimension_guard():
    """2**31 scores and more are fine (64-bit indices, one block at a time); a context or a
    token width beyond BLAS's 32-bit dimensions is a clear error, not a crash."""
    _attention._check_sizes(2**31 - 1, 100)
    for sizes in [(2**31, 3), (10, 2**31)]:
        with pytest.raises(ValueError, match="at most 2147483647"):
            _attention._check_sizes(*sizes)


# Randomized: the compiled kernel against the reference over shapes, layouts, dtypes,
# weights and score magnitudes.

try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError:  # the tests extra installs hypothesis
    given = None


if given is not None:

    @st.composite
    def kernel_problems(draw):
        n, m = draw(st.integers(1, 40)), draw(st.integers(1, 40))
        d, q = draw(st.integers(1, 5)), draw(st.integers(1, 4))
        dtype = draw(st.sampled_from([np.float64, np.float32]))
        magnitude = draw(st.sampled_from(
            [0.0, 1.0] + ([150.0, 300.0] if dtype == np.float64 else [18.0, 36.0])))
        seed = draw(st.integers(0, 2**32 - 1))
        rng = np.random.default_rng(seed)
        Zq, Zc = rng.standard_normal((n, d)), rng.standard_normal((m, d))
        K = rng.standard_normal((d, d)) * 10.0**magnitude
        V, Y = rng.standard_normal((q, d)), rng.standard_normal((n, q))
        weighted = draw(st.booleans())
        qw = rng.uniform(0.5, 3, n) if weighted else np.ones(n)
        cw = rng.integers(1, 4, m).astype(float) if weighted else np.ones(m)
        # A query may be a token, unless that token is the whole context.
        self_index = np.where(rng.random(n) < 0.7, rng.integers(0, m, n), -1)
        if m == 1:
            self_index[:] = -1
        shift = 0.1 * rng.standard_normal((n, d)) if draw(st.booleans()) else None
        t = draw(st.integers(0, 2))
        targets = rng.standard_normal((m, t)) if t else None
        V = np.hstack([V, rng.standard_normal((q, t))])
        if shift is not None:
            shift = np.hstack([shift, 0.1 * rng.standard_normal((n, t))])
        layout = draw(st.sampled_from(["contiguous", "strided", "read-only", "fortran"]))
        if layout != "contiguous":
            Zq, Zc, K, V = (_layouts(a)[layout] for a in (Zq, Zc, K, V))
        block = draw(st.integers(1, 3 * m))
        scores = draw(st.sampled_from(["bilinear", "distance"]))
        return (Zq, Y, qw, Zc, K, V, cw, self_index, shift), targets, scores, dtype, block

    @settings(max_examples=150, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(problem=kernel_problems(), n_jobs=st.sampled_from([1, 2]))
    def test_compiled_kernel_matches_reference(monkeypatch, problem, n_jobs):
        args, targets, scores, dtype, block = problem
        monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", block)
        monkeypatch.setattr(_attention, "_THREAD_SCORES", 1)
        _compare(args, dtype, n_jobs, targets, scores)


def test_one_blas_thread_nests_and_restores():
    """Inside the limit BLAS runs one thread; a nested limit (a kernel call inside a
    solver's run) changes nothing, and leaving the outer one restores the caller's."""
    def blas_threads():
        return [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]

    if not blas_threads():
        pytest.skip("no BLAS library seen by threadpoolctl")
    with threadpool_limits(limits=2, user_api="blas"):
        before = blas_threads()
        with _one_blas_thread():
            assert set(blas_threads()) == {1}
            with _one_blas_thread():
                assert set(blas_threads()) == {1}
            assert set(blas_threads()) == {1}  # the nested exit did not restore
        assert blas_threads() == before


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fill_fused_writes_the_products_of_right_the_tokens_and_their_weights(dtype):
    rng = np.random.default_rng(0)
    m, d, rank = 9, 4, 2
    Zc, right = rng.standard_normal((m, d)).astype(dtype), rng.standard_normal((m, 3)).astype(dtype)
    w = rng.uniform(0.1, 1, m).astype(dtype)
    tokens = np.full((m, d + 1 + rank * d), np.nan, dtype)
    _kernel.fill_fused(tokens, right, Zc, w, rank)
    expected = np.concatenate([(right[:, [a]] * Zc) * w[:, None] for a in range(rank)], axis=1)
    assert_array_equal(tokens[:, d + 1:], expected)  # the same products, bit for bit
    assert np.isnan(tokens[:, : d + 1]).all()  # the other columns untouched
    with pytest.raises(ValueError, match="inconsistent shapes"):  # never out of bounds
        _kernel.fill_fused(np.empty((m, d + rank * d), dtype), right, Zc, w, rank)



@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("self_tokens", [True, False])
@pytest.mark.parametrize("scores", ["bilinear", "distance"])
def test_overflow_scaling_matches_reference(dtype, self_tokens, scores):
    """Queries of nearly the dtype's largest norm, in a direction that ``K`` maps
    to zero: the kernel's bound on their scores overflows, so it scales them down
    by a power of two, yet the scores are moderate and the softmax is far from a
    hard maximum, so the scaling must be undone exactly to agree with the plain
    float64 reference (whose scores are finite). With distance scores, the key
    bias must be scaled by the same factors (it is of the size of the scores:
    ``K``'s large first column, which makes ``Zc Kᵀ`` large, enters the bias
    only times the context's small other coordinates)."""
    rng = np.random.default_rng(3)
    n, m, d, q = 30, 20, 3, 2
    big = 1e306 if dtype == np.float64 else 1e36
    Zq = np.hstack([big * rng.choice([-1.0, 1.0], (n, 1)), 0.01 * rng.standard_normal((n, 2))])
    Zc = rng.standard_normal((m, d)) * [1, 0.01, 0.01]
    K = rng.standard_normal((d, d)) * [100, 1, 1]
    K[0] = 0  # (Zc Kᵀ)[:, 0] = 0: the huge coordinate of the queries scores nothing
    V, Y = rng.standard_normal((q, d)), rng.standard_normal((n, q))
    qw, cw = rng.uniform(0.5, 3, n), rng.integers(1, 4, m).astype(float)
    self_index = np.where(np.arange(n) < m, np.arange(n), -1) if self_tokens else np.full(n, -1)
    Zq_, Zc_, K_, V_, Y_, qw_, cw_ = (a.astype(dtype) for a in (Zq, Zc, K, V, Y, qw, cw))
    bias = key_bias(Zc_, K_, scores)
    assert _attention._overflow_scale(Zq_, Zc_ @ K_.T, bias=bias) is not None  # scaled
    A = reference._softmax(Zq_, Zc_, K_, np.log(cw_.astype(float)), scores)
    assert A.max() < 0.5  # soft: the scaling matters
    tol = TOL[dtype]
    _close(attention_forward(Zq_, Zc_, K_, V_, cw_, 2, scores=scores),
           reference.attention_forward(Zq_, Zc_, K_, V_, cw_, scores=scores), tol)
    _close(attention_weights(Zq_, Zc_ @ K_.T, np.log(cw_), bias=bias), A, tol)
    loss, grad_K, grad_V = attention_loss_grad(Zq_, Y_, qw_, Zc_, K_, V_, cw_, self_index,
                                               None, 2, scores=scores)
    expected = reference.attention_loss_grad(Zq_, Y_, qw_, Zc_, K_, V_, cw_, self_index,
                                             scores=scores)
    assert loss == pytest.approx(expected[0], rel=tol)
    _close(grad_V, expected[2], tol)
    _close(grad_K[0], expected[1][0], tol)  # of the size of the queries' huge coordinate
    _close(grad_K[1:], expected[1][1:], tol)


# Target tokens (the values x̃_j = [z_j, targets_j]) and distance scores (the key bias
# b_j = -½ z_jᵀ K z_j)

OPTIONS = list(itertools.product([0, 1, 2], ["bilinear", "distance"]))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("t, scores", OPTIONS)
# p = d + t above q (the values' factor X̃c Vᵀ), equal or below (X̃c); q = 3 with d = 3
# is unfused at the default rank bound, q = 1 fused.
@pytest.mark.parametrize("n, m, d, q", [(97, 31, 4, 1), (40, 30, 3, 3), (50, 30, 2, 5)])
def test_options_match_numpy_reference(monkeypatch, dtype, fused, t, scores, n, m, d, q):
    monkeypatch.setattr(_attention, "_FUSED_MAX_RANK", 20 if fused else 0)
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 7 * m)  # blocks that do not divide n
    monkeypatch.setattr(_attention, "_THREAD_SCORES", 1)
    args, targets = _option_problem(n, m, d, q, t)
    _compare(args, dtype, 2, targets, scores)


@pytest.mark.parametrize("q", [1, 3])
@pytest.mark.parametrize("t", [0, 2])
def test_default_path_is_taken_at_the_default_rank_bound(q, t):
    """Without patching ``_FUSED_MAX_RANK``: the rank ``min(d + t, q)`` decides."""
    args, targets = _option_problem(30, 20, 3, q, t)
    prepared = LossGrad(*args[:4], *args[6:], targets=targets, scores="distance")
    assert prepared.fused == (q == 1) and prepared.rank == min(3 + t, q)
    _compare(args, np.float64, 2, targets, "distance")


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("q", [1, 3])
@pytest.mark.parametrize("t, scores", OPTIONS[1:])
def test_option_gradients_match_finite_differences(numeric_gradient, monkeypatch, fused, q, t,
                                                   scores):
    # A general (non-symmetric) K: the gradient is that of the scores zᵀ K z_j + b_j.
    monkeypatch.setattr(_attention, "_FUSED_MAX_RANK", 5 if fused else 0)
    (Zq, Y, qw, Zc, K, V, cw, self_index, shift), targets = _option_problem(10, 7, 3, q, t)
    assert not np.allclose(K, K.T)
    options = {"targets": targets, "scores": scores}

    def loss():
        return attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, self_index, shift, **options)[0]

    _, gK, gV = attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, self_index, shift, **options)
    assert gV.shape == (q, 3 + t)
    assert_allclose(gK, numeric_gradient(loss, K), rtol=1e-6, atol=1e-9)
    assert_allclose(gV, numeric_gradient(loss, V), rtol=1e-6, atol=1e-9)  # target columns too


@pytest.mark.parametrize("t", [0, 2])
def test_distance_loss_matches_definition(t):
    """For a symmetric K, the loss from ``-½ (z - z_j)ᵀ K (z - z_j)``, query by query."""
    (Zq, Y, qw, Zc, K, V, cw, self_index, _), targets = _option_problem(12, 9, 3, 2, t)
    K = K @ K.T  # symmetric, positive semi-definite
    values = Zc if targets is None else np.hstack([Zc, targets])
    expected = 0.0
    for i in range(len(Zq)):
        mult = cw.copy()
        if self_index[i] >= 0:
            mult[self_index[i]] -= 1
        diff = Zc - Zq[i]
        e = mult * np.exp(-0.5 * np.sum(diff @ K * diff, axis=1))
        expected += qw[i] * np.sum((V @ (e @ values) / e.sum() - Y[i]) ** 2) / 2
    loss = attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, self_index, targets=targets,
                               scores="distance")[0]
    assert loss == pytest.approx(expected / qw.sum(), rel=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("t", [0, 1])
def test_far_query_with_distance_scores_takes_the_nearest_token(dtype, t):
    """A query far from a context itself far from the origin: every distance score
    is hugely negative and every ``exp(b_j)`` underflows, yet the bias joins the
    scores before their maximum, so all the weight lands on the nearest token."""
    rng = np.random.default_rng(5)
    m, d, q = 25, 3, 2
    Zc = 40 + rng.standard_normal((m, d))
    Zq = np.array([[1e4, -1e4, 5e3], [-3e3, 2e3, 1e4]])
    K, V = np.eye(d), rng.standard_normal((q, d + t))
    targets = rng.standard_normal((m, t)) if t else None
    Zq, Zc, K, V = (a.astype(dtype) for a in (Zq, Zc, K, V))
    values = Zc if targets is None else np.hstack([Zc, targets.astype(dtype)])
    nearest = np.argmin(((Zq[:, None, :] - Zc[None]) ** 2).sum(axis=2), axis=1)
    assert np.all(np.exp(key_bias(Zc, K, "distance").astype(float)) == 0)
    predicted = attention_forward(Zq, Zc, K, V, np.ones(m), targets=targets, scores="distance")
    assert_allclose(predicted, values[nearest] @ V.T, rtol=TOL[dtype])
    A = attention_weights(Zq, Zc @ K.T, 0.0, bias=key_bias(Zc, K, "distance"))
    assert_array_equal(A, np.eye(m)[nearest])
    Y = np.zeros((2, q), dtype)
    loss, grad_K, grad_V = attention_loss_grad(Zq, Y, np.ones(2), Zc, K, V, np.ones(m),
                                               np.full(2, -1), targets=targets,
                                               scores="distance")
    assert np.isfinite(loss) and np.all(np.isfinite(grad_K)) and np.all(np.isfinite(grad_V))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_bias_in_the_overflow_bound(dtype):
    """A key bias of nearly the dtype's largest value, with bilinear parts well within
    their own bound: only with the bias in the bound are the queries scaled down, and
    the scores stay finite (else the top score overflows, and inf - inf is NaN)."""
    L = float(np.finfo(dtype).max)
    top = np.sqrt(1.98) * np.sqrt(L)  # token 0's bias: ½ top² = 0.99 L
    Zc = np.array([[top, 0.0], [0.9 * top, 1.0], [0.9 * top, -1.0], [0.5 * top, 0.0]])
    K = np.diag([-1.0, 1.0])  # not positive semi-definite: positive biases
    Zq = np.array([[-0.1 * L / top, 0.5], [-0.1 * L / top, -0.5]])  # scores up to 0.1 L
    V = np.array([[1.0, 2.0, 3.0]])
    targets = np.array([[1.0], [2.0], [3.0], [4.0]])
    Zq, Zc, K, V, targets = (a.astype(dtype) for a in (Zq, Zc, K, V, targets))
    bias = key_bias(Zc, K, "distance")
    assert np.all(np.isfinite(bias)) and bias.max() > 0.98 * L
    assert _attention._overflow_scale(Zq, Zc @ K.T) is None
    assert _attention._overflow_scale(Zq, Zc @ K.T, bias=bias) is not None
    A = attention_weights(Zq, Zc @ K.T, 0.0, bias=bias)
    assert_array_equal(A, [[1, 0, 0, 0], [1, 0, 0, 0]])
    predicted = attention_forward(Zq, Zc, K, V, np.ones(4), targets=targets, scores="distance")
    assert_allclose(predicted, np.tile(V @ np.append(Zc[0], targets[0]), (2, 1)),
                    rtol=TOL[dtype])


def test_weights_with_the_key_bias_reproduce_forward():
    (Zq, _, _, Zc, K, V, cw, _, _), targets = _option_problem(40, 30, 3, 2, 1)
    assert key_bias(Zc, K, "bilinear") is None
    values = np.hstack([Zc, targets])
    for scores in ["bilinear", "distance"]:
        A = attention_weights(Zq, Zc @ K.T, np.log(cw), bias=key_bias(Zc, K, scores))
        assert_allclose(A @ values @ V.T, attention_forward(Zq, Zc, K, V, cw, targets=targets,
                                                            scores=scores), rtol=1e-12,
                        atol=1e-12 * _forward_scale(Zq, Zc, K, V, cw, targets, scores))
    # BLAS and the loop sum z_jᵀ K z_j's d² terms in other orders: each side errs by at
    # most 2d units of round-off (eps / 2) times the sum of the terms' sizes, and a bias
    # that cancels to near 0 has no relative accuracy.
    terms = 0.5 * np.einsum("jk,kl,jl->j", np.abs(Zc), np.abs(K), np.abs(Zc))
    assert_allclose(key_bias(Zc, K, "distance"), [-0.5 * z @ K @ z for z in Zc], rtol=1e-14,
                    atol=2 * K.shape[0] * np.finfo(float).eps * terms.max())


def test_integer_weights_equal_repeated_tokens_with_targets_and_distance():
    (Zq, Y, _, Zc, K, V, _, _, _), targets = _option_problem(12, 12, 3, 2, 2)
    w = np.random.default_rng(0).integers(1, 4, len(Zq))
    options = {"targets": targets, "scores": "distance"}
    loss_w, gK_w, gV_w = attention_loss_grad(Zq, Y, w.astype(float), Zc, K, V,
                                             w.astype(float), np.arange(len(Zq)), **options)
    rep = np.repeat(np.arange(len(Zq)), w)
    repeated = {"targets": targets[rep], "scores": "distance"}
    loss_r, gK_r, gV_r = attention_loss_grad(Zq[rep], Y[rep], np.ones(len(rep)), Zc[rep], K, V,
                                             np.ones(len(rep)), np.arange(len(rep)), **repeated)
    loss_scale, gradient_scale = _term_scales(Zq, Y, np.hstack([Zc, targets]), V, None)
    assert loss_w == pytest.approx(loss_r, rel=1e-12, abs=1e-12 * loss_scale)
    assert_allclose(gK_w, gK_r, rtol=1e-10, atol=1e-12 * gradient_scale)
    assert_allclose(gV_w, gV_r, rtol=1e-10, atol=1e-12 * gradient_scale)
    assert_allclose(attention_forward(Zq, Zc, K, V, w.astype(float), **options),
                    attention_forward(Zq, Zc[rep], K, V, np.ones(len(rep)), **repeated),
                    rtol=1e-12, atol=1e-12 * _forward_scale(Zq, Zc, K, V, w, **options))


def test_prepared_loss_keeps_its_options_for_wider_parameters():
    (Zq, Y, qw, Zc, K, V, cw, idx, shift), targets = _option_problem(20, 15, 3, 2, 1)
    options = {"targets": targets.astype(np.float32), "scores": "distance"}
    narrow = [a.astype(np.float32) for a in (Zq, Y, Zc, shift)]
    prepared = LossGrad(narrow[0], narrow[1], qw, narrow[2], cw, idx, narrow[3], **options)
    with _one_blas_thread():  # as LossGrad asks, and as attention_loss_grad calls it
        loss, grad_K, grad_V = prepared(K, V)  # float64 parameters: computed in float64
    expected = attention_loss_grad(narrow[0], narrow[1], qw, narrow[2], K, V, cw, idx,
                                   narrow[3], **options)
    assert grad_K.dtype == grad_V.dtype == np.float64
    assert loss == expected[0]
    assert_array_equal(grad_K, expected[1])
    assert_array_equal(grad_V, expected[2])


def test_targets_count_in_the_dtype():
    """float32 features with float64 targets compute in float64, as any wider input."""
    (Zq, Y, qw, Zc, K, V, cw, idx, shift), targets = _option_problem(10, 8, 3, 2, 1)
    narrow = [a.astype(np.float32) for a in (Zq, Y, Zc, K, V, shift)]
    for wide, dtype in [(targets, np.float64), (targets.astype(np.float32), np.float32)]:
        out = attention_forward(narrow[0], narrow[2], narrow[3], narrow[4], cw, targets=wide)
        _, grad_K, grad_V = attention_loss_grad(narrow[0], narrow[1], qw, narrow[2], narrow[3],
                                                narrow[4], cw, idx, narrow[5], targets=wide)
        assert out.dtype == grad_K.dtype == grad_V.dtype == dtype


def test_bad_targets_and_scores_give_clear_errors():
    (Zq, Y, qw, Zc, K, V, cw, idx, shift), targets = _option_problem(10, 8, 3, 2, 2)
    with pytest.raises(ValueError, match="targets has 5 rows; expected one per context token"):
        attention_forward(Zq, Zc, K, V, cw, targets=targets[:5])
    with pytest.raises(ValueError, match="targets has 5 rows"):
        attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, idx, shift, targets=targets[:5])
    with pytest.raises(ValueError, match="targets must be 2-D"):
        attention_forward(Zq, Zc, K, V, cw, targets=targets[:, 0])
    with pytest.raises(ValueError, match=r"value matrix \(2, 5\) \(the value matrix needs"
                                         r" d \+ t = 4 columns\)"):
        attention_forward(Zq, Zc, K, V, cw, targets=targets[:, :1])
    with pytest.raises(ValueError, match="Inconsistent shapes"):
        attention_loss_grad(Zq, Y, qw, Zc, K, V[:, :3], cw, idx, shift, targets=targets)
    with pytest.raises(ValueError, match=r"value_shift has shape \(10, 3\); expected \(10, 5\)"):
        attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, idx, shift[:, :3], targets=targets)
    for call in [lambda: attention_forward(Zq, Zc, K, V, cw, targets=targets, scores="cosine"),
                 lambda: attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, idx, shift,
                                             targets=targets, scores="cosine"),
                 lambda: LossGrad(Zq, Y, qw, Zc, cw, idx, scores="cosine"),
                 lambda: key_bias(Zc, K, "cosine")]:
        with pytest.raises(ValueError, match="scores must be 'bilinear' or 'distance', "
                                             "got 'cosine'"):
            call()
