import tracemalloc

import joblib
import numpy as np
import pytest

from sklearn_softattn import _attention
from sklearn_softattn._attention import (
    attention_forward,
    attention_loss_grad,
    attention_weights,
)


def _problem(n=12, m=12, d=3, q=2, seed=0):
    rng = np.random.default_rng(seed)
    Zq = rng.standard_normal((n, d))
    Zc = Zq[:m] if m <= n else rng.standard_normal((m, d))
    Y = rng.standard_normal((n, q))
    K = rng.standard_normal((d, d)) / d
    V = rng.standard_normal((q, d))
    return rng, Zq, Zc, Y, K, V


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


@pytest.mark.parametrize("d, q", [(3, 1), (3, 2), (3, 5), (4, 3)])  # fused and not
def test_gradient_matches_finite_differences(numeric_gradient, d, q):
    rng, Zq, Zc, Y, K, V = _problem(n=10, m=7, d=d, q=q)
    w = rng.uniform(0.5, 3, len(Zq))
    self_index = np.where(np.arange(10) < 7, np.arange(10), -1)
    shift = 0.1 * rng.standard_normal(Zq.shape)
    _, gK, gV = attention_loss_grad(Zq, Y, w, Zc, K, V, w[:7], self_index, shift)

    def loss():
        return attention_loss_grad(Zq, Y, w, Zc, K, V, w[:7], self_index, shift)[0]

    np.testing.assert_allclose(gK, numeric_gradient(loss, K), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(gV, numeric_gradient(loss, V), rtol=1e-6, atol=1e-9)


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
    rng, Zq, Zc, Y, K, V = _problem(n=30, m=20, d=d, q=q)
    monkeypatch.setattr(_attention, "_FUSED_MAX_RANK", 5 if fused else 0)
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 7 * 20)  # several blocks
    monkeypatch.setattr(_attention, "_THREAD_SCORES", 1)  # on two threads
    qw, cw = rng.uniform(0.5, 3, 30), rng.integers(1, 4, 20).astype(float)
    self_index = np.where(np.arange(30) < 20, np.arange(30), -1)
    shift = 0.1 * rng.standard_normal(Zq.shape)
    got = attention_loss_grad(Zq, Y, qw, Zc, K, V, cw, self_index, shift, n_jobs=2)
    expected = _dense_loss_grad(Zq, Y, qw, Zc, K, V, cw, self_index, shift)
    assert got[0] == pytest.approx(expected[0], rel=1e-13)
    for a, b in zip(got[1:], expected[1:]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


def test_threads_follow_n_jobs_and_openmp_limits():
    from threadpoolctl import threadpool_limits

    assert _attention._n_threads(3) == 3
    assert _attention._n_threads(-1) == joblib.cpu_count()
    with threadpool_limits(1):  # as in a joblib worker, or a user's limit
        assert _attention._n_threads(None) == 1


def test_small_problems_stay_on_one_thread():
    import threading
    import time

    def threads_used(n):
        seen = set()

        def block(_):
            seen.add(threading.get_ident())
            time.sleep(0.01)  # long enough for the helper thread to claim a block

        _attention._map_blocks(block, n, n, 8, n_jobs=2)
        return len(seen)

    assert threads_used(100) == 1  # a second thread would cost more than it saves
    assert threads_used(2000) == 2


def test_loss_grad_memory_holds_two_blocks_per_thread(monkeypatch):
    n, m, d = 4000, 1000, 5
    rng, Zq, Zc, Y, K, V = _problem(n=n, m=m, d=d, q=4)
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 2**14)
    args = (Zq, Y, np.ones(n), Zc, K, V, np.ones(m), np.arange(n) % m)
    for n_jobs in [1, 2]:
        tracemalloc.start()
        try:
            attention_loss_grad(*args, n_jobs=n_jobs)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        # Per query: its loss, residual, attended mean, gradient row, and a few
        # vectors; then two blocks of scores per thread.
        per_query = 8 * n * (1 + 4 + 2 * d + 8)
        assert peak < per_query + n_jobs * 2 * 2**14 * 8 + 2**16, (n_jobs, peak)
        assert peak < n * m * 8 / 10  # never the full n x m matrix


def test_work_matrices_are_kept_from_call_to_call():
    n, m, d = 2000, 1000, 5
    rng, Zq, Zc, Y, K, V = _problem(n=n, m=m, d=d, q=4)
    args = (Zq, Y, np.ones(n), Zc, K, V, np.ones(m), np.arange(n) % m)
    first = attention_loss_grad(*args, n_jobs=1)
    tracemalloc.start()
    try:
        again = attention_loss_grad(*args, n_jobs=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < _attention._BLOCK_ELEMENTS * 8 / 2, peak  # no block allocated again
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)


def test_softmax_rows_sum_to_one_and_mask_self():
    rng, Zq, Zc, *_ = _problem()
    K = 50 * rng.standard_normal((3, 3))  # very sharp scores
    log_w = np.zeros(len(Zc))
    self_index = np.arange(len(Zq))
    A = attention_weights(Zq, Zc @ K.T, log_w, self_index, np.full(len(Zq), -np.inf))
    assert np.all(np.isfinite(A))
    np.testing.assert_allclose(A.sum(axis=1), 1)
    assert np.all(np.diag(A) == 0)


def test_integer_weights_equal_repeated_tokens():
    rng, Zq, Zc, Y, K, V = _problem()
    w = rng.integers(1, 4, len(Zq))
    loss_w, gK_w, gV_w = attention_loss_grad(Zq, Y, w.astype(float), Zc, K, V,
                                             w.astype(float), np.arange(len(Zq)))
    rep = np.repeat(np.arange(len(Zq)), w)
    loss_r, gK_r, gV_r = attention_loss_grad(Zq[rep], Y[rep], np.ones(len(rep)), Zc[rep],
                                             K, V, np.ones(len(rep)), np.arange(len(rep)))
    assert loss_w == pytest.approx(loss_r, rel=1e-12)
    np.testing.assert_allclose(gK_w, gK_r, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(gV_w, gV_r, rtol=1e-10, atol=1e-13)


def test_blocks_give_the_same_result(monkeypatch):
    rng, Zq, Zc, Y, K, V = _problem(n=40, m=40)
    w, idx = np.ones(40), np.arange(40)
    whole = attention_loss_grad(Zq, Y, w, Zc, K, V, w, idx)
    pred = attention_forward(Zq, Zc, K, V, w)
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 3 * 40)  # blocks of 3 queries
    assert len(_attention._block_slices(40, 40)) == 14
    blocked = attention_loss_grad(Zq, Y, w, Zc, K, V, w, idx)
    assert blocked[0] == pytest.approx(whole[0], rel=1e-13)
    for a, b in zip(whole[1:], blocked[1:]):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    np.testing.assert_allclose(attention_forward(Zq, Zc, K, V, w), pred, rtol=1e-13)


def test_gaussian_limit_is_linear():
    # E[x' e^{xᵀ K x'}] / E[e^{xᵀ K x'}] = Kᵀ x for x' ~ N(0, I).
    rng = np.random.default_rng(0)
    d = 3
    Zc = rng.standard_normal((200_000, d))
    K = 0.3 * rng.standard_normal((d, d))
    Zq = rng.standard_normal((5, d))
    out = attention_forward(Zq, Zc, K, np.eye(d), np.ones(len(Zc)))
    np.testing.assert_allclose(out, Zq @ K, atol=0.03)
