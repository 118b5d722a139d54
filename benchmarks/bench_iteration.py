"""Speed and memory of one full-batch iteration, against plain numpy.

Run: python benchmarks/bench_iteration.py

Speed: one gradient-descent iteration of SoftmaxAttentionRegressor (the
paper's setting, n=500, d=10, q=20) against a plain numpy implementation of
the same math (full n x n score matrix, leave-one-out mask, analytic
gradient, fixed step), timed in the same run; the ratio is what counts on a
shared machine.

Memory: peak memory traced by tracemalloc for one loss-and-gradient pass at
n=20 000 queries, m=2 048 context tokens, d=20, against the size of a single
full n x m float64 score matrix (which the blocked kernel never allocates).
"""

import time
import tracemalloc
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from sklearn_softattn import SoftmaxAttentionRegressor
from sklearn_softattn._attention import attention_loss_grad
from sklearn_softattn.datasets import make_gaussian_regression


def plain_numpy_iteration(Z, Y, K, V, lr):
    """Leave-one-out softmax attention: loss, gradient and one step, unblocked."""
    n = len(Z)
    S = Z @ K @ Z.T
    np.fill_diagonal(S, -np.inf)
    S -= S.max(axis=1, keepdims=True)
    A = np.exp(S)
    A /= A.sum(axis=1, keepdims=True)
    U = Z @ V.T
    R = A @ U - Y
    loss = 0.5 * np.mean(np.sum(R * R, axis=1))
    grad_V = R.T @ (A @ Z) / n
    P = R @ U.T
    G = A * (P - (A * P).sum(axis=1, keepdims=True)) / n
    grad_K = Z.T @ G @ Z
    return loss, K - lr * grad_K, V - lr * grad_V


def best_of(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bench_speed(n=500, d=10, q=20, iters=200, repeat=5):
    X, y = make_gaussian_regression(n, d, q, random_state=0)

    def fit(max_iter):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            SoftmaxAttentionRegressor(max_iter=max_iter, tol=0, random_state=0).fit(X, y)

    ours = (best_of(lambda: fit(iters + 1), repeat) - best_of(lambda: fit(1), repeat)) / iters

    rng = np.random.default_rng(0)
    Z = X - X.mean(axis=0)
    Y = y - y.mean(axis=0)
    K, V = rng.standard_normal((d, d)) / d, rng.standard_normal((q, d))

    def plain():
        k, v = K, V
        for _ in range(iters):
            _, k, v = plain_numpy_iteration(Z, Y, k, v, 1e-3)

    reference = best_of(plain, repeat) / iters
    print(f"one full-batch iteration, n={n}, d={d}, q={q}:")
    print(f"  SoftmaxAttentionRegressor (solver='gd'): {ours * 1e3:.2f} ms")
    print(f"  plain numpy, same math:                 {reference * 1e3:.2f} ms")
    print(f"  ratio ours / plain numpy:               {ours / reference:.2f}")


def bench_memory(n=20_000, m=2048, d=20, q=1):
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((n, d))
    Y = rng.standard_normal((n, q))
    K, V = rng.standard_normal((d, d)) / d, rng.standard_normal((q, d))
    w = np.ones(n)
    self_index = np.where(np.arange(n) < m, np.arange(n), -1)
    tracemalloc.start()
    attention_loss_grad(Z, Y, w, Z[:m], K, V, w[:m], self_index)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    full = n * m * 8
    print(f"one loss-and-gradient pass, n={n}, m={m}, d={d}:")
    print(f"  peak traced memory:          {peak / 2**20:.1f} MiB")
    print(f"  one full n x m score matrix: {full / 2**20:.1f} MiB")
    print(f"  ratio:                       {peak / full:.3f}")


if __name__ == "__main__":
    bench_speed()
    bench_memory()
