"""How long does one full-batch iteration of SoftmaxAttentionRegressor take, against the
same layer in PyTorch, and where does its time go?

Run: python benchmarks/bench_iteration.py [--rounds N] [--threads N] [--blocks] [--split]
[--memory] [--local] [--steps [FIGURE]] [--grid]

About 2 minutes on 2 cores at the defaults (PyTorch from the benchmarks extra); the
options take from seconds (``--memory``) to several minutes (``--local``, whose
neighbor search alone takes 19 s at 100 000 rows). Shown on the scale page of the user guide ("Speed and memory",
with the figure of ``--steps``) and, for ``--local``, on the in-context page; the
tables of every option are in the benchmark log (``--split``'s output kept in
``benchmarks/results/iteration_split.txt``, ``--local``'s in
``benchmarks/results/local_pass.txt``).

Speed: one ``solver="gd"`` iteration of SoftmaxAttentionRegressor at its default
settings (everything a fit does per iteration: loss and gradient, regularizer, step
test and any step halving, renormalization; threads as by default) against the same
layer written in PyTorch: leave-one-out mask, value shift, squared loss, autograd, a
plain gradient step, all of PyTorch's threads, same dtype. Ours is ``(fit(k + 1
iterations) - fit(1)) / k``; each round times both sides back to back, and the table
shows each side's best round, so the ratio compares the two within one run. Shapes: the
paper's (n=500, d=10, q=20), then n=2000, and n=20000 over the default context of 2048
tokens.

Also printed per shape: the kernel passes per iteration (loss-and-gradient
evaluations, one more per step halving), the passes over each block of scores per
evaluation (made while the block is in cache), and how close an iteration comes to the
machine's own rates measured in the same run: the time its exponentials and its matrix
products over the scores would take at the fastest exponential measured here (the
kernel's own, on all cores) and at the flop rate of a large matrix product (all cores),
as a fraction of the time taken; and the two parts alone.

PyTorch is optional (``pip install ".[benchmarks]"``); without it the script says so
and prints our side only. ``--threads N`` runs both sides on N threads
(``threadpool_limits`` for ours, ``torch.set_num_threads`` for PyTorch's): on a machine
that other processes keep busy, one thread each compares the two kernels with less of
the noise of threads waiting for each other.

``--blocks``: time one loss-and-gradient pass against the block size.
``--split``: one pass with the queries split as the kernel splits them (equal blocks, a
power of two of them while they are few) against full blocks and a remainder and
against equal blocks always in a power-of-two number, at the sizes of cross-validation
folds and at 20000 queries over 2048 tokens; then whole fits of
SoftmaxAttentionRegressorCV with the kernel's split and the remainder.
``--memory``: peak memory of one loss-and-gradient pass at n=20000, m=2048.
``--local``: one local loss-and-gradient pass (each row over its own token and its k=64
nearest others, distance scores, d=10, one target, every row a query and a token, the
rows in the search tree's leaf order as the estimator puts them) at n=5000 to 100000,
the growth per doubling of n of the pass's time (2.0 is linear) and of its time per row
(1.0 is linear), the neighbor search's time (``nearest_tokens`` on the same threads),
and the dense pass where it is small.
``--steps [FIGURE]``: passes to the stopping rule and to the same objective, gd's step
rule against the halve-only rule, on the paper's setting and on make_friedman1; with
FIGURE, the loss curves against passes (matplotlib).
``--grid``: GridSearchCV over the estimator, its kernel's threads as by default, with
the search sequential and on two processes, against the search's workers limited to one
OpenMP thread each (``joblib.parallel_config(inner_max_num_threads=1)``).
"""

import contextlib
import os
import time
import tracemalloc
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from _common import Recorder, script_parser
from sklearn_softattn import SoftmaxAttentionRegressor, _attention, _kernel, _solvers
from sklearn_softattn._attention import LossGrad, attention_loss_grad
from sklearn_softattn._neighbors import locality_order, nearest_tokens
from sklearn_softattn.datasets import make_gaussian_regression

try:
    import torch
except ImportError:
    torch = None

SHAPES = [  # n, d, q, context size (None: all rows)
    (500, 10, 20, None),
    (2000, 10, 20, None),
    (2000, 20, 1, None),
    (20000, 20, 1, 2048),
]


def cpu_busy():
    """(total busy CPU seconds of the machine, of this process) so far."""
    with open("/proc/stat") as f:
        fields = [float(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    ticks = os.sysconf("SC_CLK_TCK")
    own = os.times()
    return (sum(fields[:8]) - idle) / ticks, own.user + own.system


class Load:
    """Cores kept busy by other processes while the block runs."""

    def __enter__(self):
        self.start, self.wall = cpu_busy(), time.perf_counter()
        return self

    def __exit__(self, *exc):
        (total, own), (total0, own0) = cpu_busy(), self.start
        self.others = max(0.0, (total - total0) - (own - own0)) / (time.perf_counter() - self.wall)


def problem(n, d, q, m, dtype):
    X, y = make_gaussian_regression(n, d, q, random_state=0)
    return X.astype(dtype), y.astype(dtype)


def time_ours(X, y, m, iters):
    """Seconds per iteration of a default fit, and kernel passes per iteration."""
    def fit(max_iter):
        reg = SoftmaxAttentionRegressor(max_iter=max_iter, tol=0, random_state=0,
                                        max_context=2048 if m else None)
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            reg.fit(X, y)
        return time.perf_counter() - start

    with Recorder() as recorder:
        long = fit(iters + 1)
    short = fit(1)
    return (long - short) / iters, (recorder.passes - 1) / (iters + 1)


def torch_layer(n, d, q, m, dtype, seed=0):
    """One iteration of the same layer in PyTorch: a closure, and its inputs."""
    g = torch.Generator().manual_seed(seed)
    tdtype = {np.float64: torch.float64, np.float32: torch.float32}[dtype]
    Zq = torch.randn(n, d, generator=g, dtype=tdtype)
    m = m or n
    context = torch.randperm(n, generator=g)[:m].sort().values if m < n else torch.arange(n)
    Zc = Zq[context].clone()
    rows = context  # the queries that are context tokens, and their positions
    cols = torch.arange(m)
    shift = 1e-3 * torch.randn(n, d, generator=g, dtype=tdtype)
    Y = torch.randn(n, q, generator=g, dtype=tdtype)
    K = (torch.randn(d, d, generator=g, dtype=tdtype) / d).requires_grad_()
    V = torch.randn(q, d, generator=g, dtype=tdtype).requires_grad_()
    minus_inf = torch.tensor(-torch.inf, dtype=tdtype)

    def iteration(lr=1e-3):
        S = (Zq @ K) @ Zc.T
        S = S.index_put((rows, cols), minus_inf)  # leave one out
        A = torch.softmax(S, dim=1)
        R = (A @ Zc + shift) @ V.T - Y
        loss = 0.5 * (R * R).sum() / n
        loss.backward()
        with torch.no_grad():
            for param in (K, V):
                param -= lr * param.grad
                param.grad = None
        return loss

    return iteration


def time_torch(iteration, iters):
    iteration()  # warm-up
    start = time.perf_counter()
    for _ in range(iters):
        iteration()
    return (time.perf_counter() - start) / iters


def best_seconds(call, repeat):
    """The shortest of ``repeat`` timed calls of ``call()``."""
    best = np.inf
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def machine_rates(dtype, n_threads):
    """The machine's own rates on all cores: the kernel's exp (values/s), matmul (flop/s)."""
    x = np.random.default_rng(0).random((n_threads, 2**20)).astype(dtype) - 1
    work = np.empty_like(x)

    def exps(i):
        work[i] = x[i]
        _kernel.exp(work[i])

    with ThreadPoolExecutor(n_threads) as pool:  # _kernel.exp releases the GIL
        exp_seconds = best_seconds(lambda: list(pool.map(exps, range(n_threads))), 5)
    a = np.random.default_rng(0).random((2000, 2000)).astype(dtype)
    return x.size / exp_seconds, 2 * 2000**3 / best_seconds(lambda: a @ a, 3)


def exp_cost(dtype, size=2**18, repeat=50):
    """Nanoseconds per value of one-core exp over scores in [-20, 0]: the kernel's,
    numpy's and PyTorch's."""
    x = (-20 * np.random.default_rng(0).random(size)).astype(dtype)
    out = np.empty_like(x)

    def kernel_exp():
        out[:] = x
        _kernel.exp(out)

    copy = best_seconds(lambda: out.__setitem__(slice(None), x), repeat)
    calls = {"the kernel": kernel_exp, "numpy": lambda: np.exp(x, out=out)}
    if torch is not None:
        tx, tout = torch.from_numpy(x), torch.from_numpy(out)
        calls["PyTorch"] = lambda: torch.exp(tx, out=tout)
    threads = None if torch is None else torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(1)
    try:
        return {name: (best_seconds(call, repeat) - (copy if name == "the kernel" else 0))
                / size * 1e9 for name, call in calls.items()}
    finally:
        if threads is not None:
            torch.set_num_threads(threads)


def score_work(n, m, d, q):
    """Per loss-and-gradient evaluation: passes over each block of scores,
    exponentials, and flops of the products over the scores."""
    rank = min(q, d)
    if rank <= _attention._FUSED_MAX_RANK:
        # The score product, the row maximum, the exponential, one product.
        passes, columns = 4, d + (d + 1) + rank * d
    else:
        # Then P's product, E ∘ P, and its product with the tokens.
        passes, columns = 7, d + (d + 1) + rank + d
    return passes, n * m, 2 * n * m * columns


def bench_speed(rounds, iters_for):
    print(f"one gd iteration, default settings; best of {rounds} rounds, ours and "
          f"PyTorch back to back in each; {_attention._n_threads(None)} threads by default"
          + ("" if torch is None else f", PyTorch {torch.__version__} with "
             f"{torch.get_num_threads()} threads"))
    if torch is None:
        print("PyTorch is not installed (pip install '.[benchmarks]'): our side only.")
    header = ("| n, d, q (context) | dtype | ours (ms) | PyTorch (ms) | ours / PyTorch "
              "| passes per iteration | passes over each block | exp + products at "
              "machine rate | exp alone | products alone |")
    print(header)
    print("|" + "---|" * header.count(" | ") + "---|")
    loads = []
    for n, d, q, m in SHAPES:
        for dtype in (np.float64, np.float32):
            X, y = problem(n, d, q, m, dtype)
            iteration = None if torch is None else torch_layer(n, d, q, m, dtype)
            iters = iters_for(n)
            ours, theirs = [], []
            with Load() as load:
                for _ in range(rounds):
                    per_iter, evals = time_ours(X, y, m, iters)
                    ours.append(per_iter)
                    if iteration is not None:
                        theirs.append(time_torch(iteration, iters))
            loads.append(load.others)
            exp_rate, flop_rate = machine_rates(dtype, _attention._n_threads(None))
            per_pass, exps, flops = score_work(n, m or n, d, q)
            exp_time, flop_time = evals * exps / exp_rate, evals * flops / flop_rate
            best = min(ours)
            torch_ms = f"{min(theirs) * 1e3:.1f}" if theirs else "-"
            ratio = f"{best / min(theirs):.2f}" if theirs else "-"
            print(f"| {n}, {d}, {q} ({m or n}) | {np.dtype(dtype).name} | {best * 1e3:.2f} "
                  f"| {torch_ms} | {ratio} | {evals:.2f} | {per_pass} "
                  f"| {(exp_time + flop_time) / best:.0%} | {exp_time / best:.0%} "
                  f"| {flop_time / best:.0%} |", flush=True)
    print(f"other processes kept {min(loads):.2f}-{max(loads):.2f} cores busy "
          f"(load average {os.getloadavg()[0]:.2f})")
    for dtype in (np.float64, np.float32):
        costs = exp_cost(dtype)
        exp_rate, flop_rate = machine_rates(dtype, _attention._n_threads(None))
        print(f"exp on one core, {np.dtype(dtype).name}: "
              + ", ".join(f"{name} {ns:.2f} ns per value" for name, ns in costs.items())
              + f"; on all cores: the kernel's exp {exp_rate / 1e9:.2f} values/ns, "
              f"a 2000 x 2000 matrix product {flop_rate / 1e9:.1f} Gflop/s")


def bench_blocks(sizes=(2**13, 2**14, 2**15, 2**16, 2**17, 2**18, 2**20), repeat=5):
    """One loss-and-gradient pass against the block size, interleaved."""
    print("one loss-and-gradient pass (ms) against the block size, best of "
          f"{repeat}, sizes interleaved")
    print("| n, d, q | dtype | threads | " + " | ".join(f"2^{int(np.log2(s))}" for s in sizes)
          + " |")
    print("|" + "---|" * (3 + len(sizes)))
    original = _attention._BLOCK_ELEMENTS
    for n, d, q, _ in SHAPES[1:3]:
        for dtype in (np.float64, np.float32):
            rng = np.random.default_rng(0)
            Z, Y = rng.standard_normal((n, d)).astype(dtype), rng.standard_normal((n, q))
            K, V = rng.standard_normal((d, d)) / d, rng.standard_normal((q, d))
            args = (Z, Y.astype(dtype), np.ones(n, dtype), Z, K.astype(dtype),
                    V.astype(dtype), np.ones(n, dtype), np.arange(n))
            for n_jobs in (1, None):
                times = {s: np.inf for s in sizes}
                for _ in range(repeat):
                    for s in sizes:
                        _attention._BLOCK_ELEMENTS = s
                        start = time.perf_counter()
                        attention_loss_grad(*args, n_jobs=n_jobs)
                        times[s] = min(times[s], time.perf_counter() - start)
                _attention._BLOCK_ELEMENTS = original
                print(f"| {n}, {d}, {q} | {np.dtype(dtype).name} | "
                      f"{_attention._n_threads(n_jobs)} | "
                      + " | ".join(f"{times[s] * 1e3:.1f}" for s in sizes) + " |", flush=True)


def _remainder_rows(n_queries, n_context, scores=None):
    """The earlier split: full blocks of ``scores`` scores and a remainder."""
    scores = _attention._BLOCK_ELEMENTS if scores is None else scores
    return max(1, min(n_queries, scores // max(n_context, 1)))


_KERNEL_ROWS = _attention._block_rows


def _power_of_two_rows(n_queries, n_context, scores=None):
    """The kernel's split with every count of blocks rounded up to a power of two (tried)."""
    few, _attention._FEW_BLOCKS = _attention._FEW_BLOCKS, np.inf
    try:
        return _KERNEL_ROWS(n_queries, n_context, scores)
    finally:
        _attention._FEW_BLOCKS = few


@contextlib.contextmanager
def _splitting_by(rule):
    """The kernel's queries split by ``rule`` (a stand-in for ``_block_rows``) inside."""
    _attention._block_rows = rule
    try:
        yield
    finally:
        _attention._block_rows = _KERNEL_ROWS


def bench_split(repeat=5):
    """One loss-and-gradient pass with the queries split three ways: full blocks and a
    remainder, equal blocks in a power-of-two number, and the kernel's rule (equal
    blocks, a power of two of them only while they are few); each ``LossGrad``
    prepared once, the three interleaved."""
    print(f"one loss-and-gradient pass (µs), best of {repeat} rounds, the splits "
          "interleaved; own tokens left out")
    print("| n, d, q (context) | dtype | threads | rows per block (remainder, power of two, "
          "kernel) | remainder | power of two | kernel | kernel / remainder |")
    print("|---|---|---|---|---|---|---|---|")
    rules = {"remainder": _remainder_rows, "power of two": _power_of_two_rows,
             "kernel": _KERNEL_ROWS}
    shapes = [(n, 8, 1, n) for n in (300, 400, 600, 800, 1000, 1500, 2000)]
    shapes += [(400, 10, 20, 400), (800, 10, 20, 800), (2000, 10, 20, 2000),
               (20_000, 20, 1, 2048), (20_000, 10, 20, 2048)]
    with _attention._one_blas_thread():
        for dtype in (np.float64, np.float32):
            for n, d, q, m in shapes:
                rng = np.random.default_rng(0)
                Z, Y = rng.standard_normal((n, d)).astype(dtype), rng.standard_normal((n, q))
                K = (rng.standard_normal((d, d)) / d).astype(dtype)
                V = rng.standard_normal((q, d)).astype(dtype)
                self_index = np.where(np.arange(n) < m, np.arange(n), -1)
                args = (Z, Y.astype(dtype), np.ones(n), Z[:m], np.ones(m), self_index)
                calls = max(3, int(2e7 // (n * m * d)))
                for n_jobs in (1, None):
                    kernels = {}
                    for name, rule in rules.items():
                        with _splitting_by(rule):
                            kernels[name] = _attention.LossGrad(*args, n_jobs=n_jobs)
                    times = dict.fromkeys(kernels, np.inf)
                    for _ in range(repeat):
                        for name, loss_grad in kernels.items():
                            loss_grad(K, V)
                            start = time.perf_counter()
                            for _ in range(calls):
                                loss_grad(K, V)
                            times[name] = min(times[name],
                                              (time.perf_counter() - start) / calls)
                    rows = ", ".join(str(k.block_rows) for k in kernels.values())
                    print(f"| {n}, {d}, {q} ({m}) | {np.dtype(dtype).name} | "
                          f"{kernels['kernel'].n_threads} | {rows} | "
                          + " | ".join(f"{times[name] * 1e6:.0f}" for name in rules)
                          + f" | {times['kernel'] / times['remainder']:.2f} |", flush=True)
    _split_fits()


def _split_fits(rounds=2):
    """Whole fits of the CV estimator at its defaults with either split, interleaved."""
    from sklearn.datasets import load_diabetes, make_friedman1

    from sklearn_softattn import SoftmaxAttentionRegressorCV

    print(f"\nSoftmaxAttentionRegressorCV().fit, best of {rounds} rounds, the splits interleaved")
    print("| data set | remainder (s) | kernel (s) | kernel / remainder | largest change of "
          "the predictions |")
    print("|---|---|---|---|---|")
    sets = [("load_diabetes", *load_diabetes(return_X_y=True))]
    sets += [(f"make_friedman1, {n} rows", *make_friedman1(n, noise=1.0, random_state=0))
             for n in (500, 750, 1000)]
    for name, X, y in sets:
        times, predictions = {"remainder": np.inf, "kernel": np.inf}, {}
        for _ in range(rounds):
            for split, rule in (("remainder", _remainder_rows), ("kernel", _KERNEL_ROWS)):
                with _splitting_by(rule), warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    start = time.perf_counter()
                    model = SoftmaxAttentionRegressorCV(random_state=0).fit(X, y)
                    times[split] = min(times[split], time.perf_counter() - start)
                    predictions[split] = model.predict(X)
        change = np.abs(predictions["kernel"] - predictions["remainder"]).max()
        print(f"| {name} | {times['remainder']:.2f} | {times['kernel']:.2f} | "
              f"{times['kernel'] / times['remainder']:.2f} | {change:.1e} |", flush=True)


def bench_memory(n=20_000, m=2048, d=20, q=1):
    rng = np.random.default_rng(0)
    for q in (1, 20):
        Z = rng.standard_normal((n, d))
        Y = rng.standard_normal((n, q))
        K, V = rng.standard_normal((d, d)) / d, rng.standard_normal((q, d))
        w = np.ones(n)
        self_index = np.where(np.arange(n) < m, np.arange(n), -1)
        tracemalloc.start()
        attention_loss_grad(Z, Y, w, Z[:m], K, V, w[:m], self_index)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        block = _attention._BLOCK_ELEMENTS * 8
        print(f"one loss-and-gradient pass, n={n}, m={m}, d={d}, q={q}, "
              f"{_attention._n_threads(None)} threads: peak traced memory "
              f"{peak / 2**20:.1f} MiB; the inputs {(Z.nbytes + Y.nbytes) / 2**20:.1f} MiB, "
              f"a thread's blocks of scores at most {2 * block / 2**20:.2f} MiB, "
              f"one full n x m score "
              f"matrix {n * m * 8 / 2**20:.0f} MiB")


def _best_time(f, rounds):
    """Best of ``rounds`` timings of ``f()``, in seconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_local(rounds=5, k=64, d=10, sizes=(5000, 10_000, 20_000, 40_000, 80_000, 100_000),
                dense_below=10_000):
    """One local loss-and-gradient pass against n, with the neighbor search."""
    rng = np.random.default_rng(0)
    print(f"local attention: one loss-and-gradient pass, k={k} nearest others plus the own "
          f"token, d={d}, q=1, every row a query and a token, "
          f"{_attention._n_threads(None)} threads; best of {rounds}")
    print("rows in the search tree's leaf order, as the estimator puts them; growth per "
          "doubling of n, of the pass and of its time per row")
    print("| n | search (s) | local pass (ms) | growth per doubling | per row (µs) | growth "
          "per doubling | dense pass (ms) |")
    print("|---|---|---|---|---|---|---|")
    previous = None
    for n in sizes:
        Z = rng.standard_normal((n, d))
        Z = Z[locality_order(Z)]
        Y = np.sin(Z[:, :1]) + 0.1 * rng.standard_normal((n, 1))
        L = np.eye(d)
        K, V = L.T @ L, rng.standard_normal((1, d))
        w, self_index = np.ones(n), np.arange(n)
        start = time.perf_counter()
        neighbors = nearest_tokens(Z, Z, L, k, self_index, n_jobs=_attention._n_threads(None))
        search = time.perf_counter() - start
        with _attention._one_blas_thread():
            local = LossGrad(Z, Y, w, Z, w, self_index, scores="distance",
                             neighbors=neighbors)
            t = _best_time(lambda: local(K, V), rounds)
            dense = "-"
            if n <= dense_below:
                full = LossGrad(Z, Y, w, Z, w, self_index, scores="distance")
                dense = f"{1e3 * _best_time(lambda: full(K, V), rounds):.1f}"
        growth, row_growth = "-", "-"
        if previous is not None:
            ratio, doublings = t / previous[1], np.log2(n / previous[0])
            growth = f"{ratio ** (1 / doublings):.2f}"
            row_growth = f"{(ratio / 2**doublings) ** (1 / doublings):.2f}"
        print(f"| {n} | {search:.2f} | {1e3 * t:.1f} | {growth} | {1e6 * t / n:.2f} | "
              f"{row_growth} | {dense} |", flush=True)
        previous = (n, t)


def step_rule_runs(X, y, params, grow_after):
    """Loss curve and cumulative passes at each iteration of one fit."""
    original = _solvers.GROW_AFTER
    _solvers.GROW_AFTER = grow_after
    try:
        with Recorder() as recorder, warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            SoftmaxAttentionRegressor(random_state=0, **params).fit(X, y)
    finally:
        _solvers.GROW_AFTER = original
    curve, passes = zip(*recorder.curve)
    return np.array(curve), np.array(passes)


def bench_steps(figure=None):
    from sklearn.datasets import make_friedman1

    data = {"paper (500, 10, 20)": make_gaussian_regression(500, 10, 20, random_state=0),
            "make_friedman1 (600, 10)": make_friedman1(600, noise=1.0, random_state=0)}
    rules = {"halve only": np.inf, f"doubles after {_solvers.GROW_AFTER}": _solvers.GROW_AFTER}
    print("gd's step rule: iterations and passes to the stopping rule (default tol), "
          "and passes to reach the objective where the halve-only rule stops")
    print("| data | attention_scale | rule | iterations | passes | objective at stop "
          "| passes to the halve-only rule's final objective |")
    print("|---|---|---|---|---|---|---|")
    runs = {}
    for name, (X, y) in data.items():
        for scale in (1.0, 3.0):
            for tol, max_iter in ((1e-4, 200), (0.0, 300)):
                results = {rule: step_rule_runs(X, y, dict(attention_scale=scale, tol=tol,
                                                           max_iter=max_iter), grow)
                           for rule, grow in rules.items()}
                runs[name, scale, tol] = results
                target = results["halve only"][0][-1]
                for rule, (curve, passes) in results.items():
                    reached = passes[np.argmax(curve <= target)] if curve.min() <= target else "-"
                    label = f"{scale}" + ("" if tol else f", tol=0, {max_iter} iterations")
                    print(f"| {name} | {label} | {rule} | {len(curve)} | {passes[-1]} "
                          f"| {curve[-1]:.5f} | {reached} |", flush=True)
    if figure:
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 4, figsize=(16, 3.6))
        for ax, ((name, scale, tol), results) in zip(
                axes, [(k, v) for k, v in runs.items() if k[2] == 0.0]):
            for rule, (curve, passes) in results.items():
                ax.plot(passes, curve, label=rule)
            low = min(c.min() for c, _ in results.values())
            high = results["halve only"][0][min(20, len(curve) - 1)]
            ax.set(title=f"{name.split(' (')[0]}, attention_scale={scale}", ylim=(low, high),
                   xlabel="loss-and-gradient passes")
        axes[0].set_ylabel("training objective")
        axes[0].legend()
        fig.tight_layout()
        fig.savefig(figure, dpi=80)
        print(f"figure: {figure}")


def bench_grid(repeat=3):
    """GridSearchCV with the kernel's threads as by default: no oversubscription."""
    from joblib import Parallel, delayed, parallel_config
    from sklearn.datasets import make_friedman1
    from sklearn.model_selection import GridSearchCV

    X, y = make_friedman1(2000, 10, noise=1.0, random_state=0)
    grid = {"attention_scale": [0.5, 1.0, 2.0, 4.0]}
    settings = {  # the search's n_jobs, and its workers' OpenMP threads (None: joblib's)
        "GridSearchCV(n_jobs=1), threads as by default": (1, None),
        "GridSearchCV(n_jobs=2), threads as by default": (2, None),
        "GridSearchCV(n_jobs=2), 1 thread in each worker": (2, 1),
    }
    times = {name: [] for name in settings}
    with Load() as load:
        for _ in range(repeat):
            for name, (search_jobs, threads) in settings.items():
                search = GridSearchCV(
                    SoftmaxAttentionRegressor(max_iter=20, tol=0, random_state=0),
                    grid, cv=3, n_jobs=search_jobs)
                workers = (contextlib.nullcontext() if threads is None else
                           parallel_config(backend="loky", inner_max_num_threads=threads))
                start = time.perf_counter()
                with warnings.catch_warnings(), workers:
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    search.fit(X, y)
                times[name].append(time.perf_counter() - start)
    inside = Parallel(n_jobs=2)(delayed(_attention._n_threads)(None) for _ in range(2))
    print(f"GridSearchCV, 4 x 3 fits of 20 iterations, n=2000, d=10; best of {repeat}, "
          "settings interleaved")
    print("| setting | time (s) |")
    print("|---|---|")
    for name, t in times.items():
        print(f"| {name} | {min(t):.2f} |")
    print(f"kernel threads by default: {_attention._n_threads(None)} here, {inside} "
          f"inside GridSearchCV(n_jobs=2)'s workers; other processes kept "
          f"{load.others:.2f} cores busy")


if __name__ == "__main__":
    parser = script_parser(__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--blocks", action="store_true")
    parser.add_argument("--split", action="store_true")
    parser.add_argument("--memory", action="store_true")
    parser.add_argument("--local", action="store_true")
    parser.add_argument("--steps", nargs="?", const="", metavar="FIGURE")
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    if args.threads is not None:
        from threadpoolctl import threadpool_limits

        threadpool_limits(args.threads)  # for the whole run
        if torch is not None:
            torch.set_num_threads(args.threads)
    if args.steps is not None:
        bench_steps(args.steps)
    elif args.grid:
        bench_grid()
    elif args.blocks:
        bench_blocks()
    elif args.split:
        bench_split()
    elif args.memory:
        bench_memory()
    elif args.local:
        bench_local(args.rounds)
    else:
        bench_speed(args.rounds, lambda n: max(10, 20_000 // n))
