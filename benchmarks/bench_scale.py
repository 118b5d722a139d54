"""How do the estimators' fit and predict time and peak memory grow with the number of
rows, and how do they compare there with MLPRegressor and HistGradientBoostingRegressor?

Run: python benchmarks/bench_scale.py [--json PATH] [--quick] [--cv] [--context-path]
[--cv-rows N]

About eight minutes on an idle 2-core machine (``--quick``: under one minute, smaller
sizes, for checking the script itself): fit time and memory against n, predict time on
1 and 2 OpenMP threads (the kernel's), the ``max_context`` trade-off, and fit time and
R² against ``LinearRegression``, ``MLPRegressor`` and ``HistGradientBoostingRegressor``.
Prints one table per part, then the four scaling targets' ratios ("must show"), then
one line ``SUMMARY {...}`` with every number as JSON (also written to ``--json``).
Shown on the scale page of the user guide (its first table is the scaling targets);
the ``max_context`` table is in the benchmark log.

``--cv-rows N``: only one default ``SoftmaxAttentionRegressorCV()`` fit on N rows of
``make_friedman1(N, n_features=10, noise=1.0)`` (its threads as by default), with the
fit's peak memory, its predict rate on 100 000 fresh rows and its test R², then
MLPRegressor(max_iter=2000) behind a scaler and HistGradientBoostingRegressor on the
same rows (a minute or two at N = 100 000; the scale page's table, output kept in
``benchmarks/results/scale_cv_rows.txt``). ``--cv``: only the comparison, with
``SoftmaxAttentionRegressorCV`` at its defaults (folds on 2 workers) among the models
(about a minute at the current defaults; the benchmark log, output kept in
``benchmarks/results/scale_cv.txt``). ``--context-path``: only one path of the CV
estimator's folds per context size (about 40 minutes; the benchmark log, where it chose
an earlier default ``max_context``).

Data: ``make_friedman1(n, n_features=20, noise=1.0)`` (5 informative features out of
20, nonlinear), a different seed for the test rows.

``--context-path``: for n = 2 000 to 50 000 training rows and contexts of 1 024 to
8 192 rows (all rows where n is smaller), one path of the cross-validated estimator as
its folds fit it (its default scales and path, balance strength 0, shrinkage 0; each
point warm-started from the last, the path stopped by the folds' early-stop rule), each
point scored on 5 000 fresh validation rows; the point of the best validation R² is
reported on 5 000 fresh test rows (a third seed), with the path's time, beside
MLPRegressor and HistGradientBoostingRegressor fitted on the same rows. Validation rows
stand in for the folds, so that every context sees the same choice rule at a fifth of
a cross-validated fit's cost.

Method:

- Every measurement runs in a fresh Python subprocess, one after the other, so no run
  inherits another's memory or caches.
- Peak memory is the child's ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` (peak
  resident set size, everything the process touched: Python, numpy, scikit-learn, the
  data). "above baseline" subtracts the same child's peak just before the measured
  call, after the imports and after making the data: what the call itself added.
- Fit against n uses ``max_iter=5, tol=0`` (exactly five iterations, no early stop), one
  OpenMP thread and the default ``max_context=2048``. An iteration of ``solver="gd"`` is
  one loss-and-gradient pass over all n queries, plus one per step halving; "passes"
  counts them so that times can be compared per pass.
- Threads are set with ``threadpoolctl.threadpool_limits(n, user_api="openmp")``, which
  the compiled kernel follows.
- Ratios (n=200000 against n=20000, 2 threads against 1) are taken within one run of
  this script: the machine may be shared, and absolute times move with its load. Before
  each part the script waits (up to ``--max-wait`` seconds) until other processes use
  less than a quarter of a core, and prints how many cores they kept busy, and the load
  average at the start and the end.
"""

import argparse
import contextlib
import json
import os
import pickle
import resource
import subprocess
import sys
import tempfile
import time
import warnings

from _common import markdown_table, script_parser, timed_fit

# 1-minute load above which the timings are flagged as taken on a busy machine.
BUSY_LOAD = 1.0


def _max_rss_mib():
    """Peak resident set size of this process so far, in MiB (Linux: KiB units)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _threads(n):
    """OpenMP, whose threads the compiled kernel runs on, limited to ``n`` threads
    (None: as by default)."""
    from threadpoolctl import threadpool_limits

    if n is None:
        return contextlib.nullcontext()
    return threadpool_limits(limits=n, user_api="openmp")


def _data(n, d, seed):
    from sklearn.datasets import make_friedman1

    return make_friedman1(n, d, noise=1.0, random_state=seed)


@contextlib.contextmanager
def _count_passes():
    """Count the objective's loss-and-gradient passes (yields a one-item list)."""
    from sklearn_softattn import _objective

    counter = [0]
    original = _objective.Objective.__call__

    def counted(*args, **kwargs):
        counter[0] += 1
        return original(*args, **kwargs)

    _objective.Objective.__call__ = counted
    try:
        yield counter
    finally:
        _objective.Objective.__call__ = original


def child_fit(spec):
    """Fit once on n rows; time, loss passes and peak memory."""
    import gc

    from sklearn.exceptions import ConvergenceWarning

    from sklearn_softattn import SoftmaxAttentionRegressor

    X, y = _data(spec["n"], spec["d"], 0)
    reg = SoftmaxAttentionRegressor(
        max_iter=spec["max_iter"], tol=0, max_context=spec["max_context"],
        random_state=0, **spec.get("params", {}),
    )
    gc.collect()
    base = _max_rss_mib()
    start = time.perf_counter()
    with warnings.catch_warnings(), _count_passes() as passes, _threads(spec["threads"]):
        warnings.simplefilter("ignore", ConvergenceWarning)
        reg.fit(X, y)
    seconds = time.perf_counter() - start
    peak = _max_rss_mib()
    out = {"n": spec["n"], "fit_s": seconds, "n_iter": reg.n_iter_, "passes": passes[0],
           "s_per_pass": seconds / passes[0], "rss_base_mib": base, "rss_peak_mib": peak,
           "fit_mib": peak - base}
    if spec.get("n_test"):
        X_test, y_test = _data(spec["n_test"], spec["d"], 1)
        out["r2"] = reg.score(X_test, y_test)
    return out


def child_predict(spec):
    """Predict ``rows`` rows with a pickled model; times per thread count and peak memory."""
    import gc

    import numpy as np

    with open(spec["model"], "rb") as f:
        reg = pickle.load(f)
    X = np.random.default_rng(2).random((spec["rows"], reg.n_features_in_))
    gc.collect()
    base = _max_rss_mib()
    times = {str(threads): [] for threads in spec["threads"]}
    for _ in range(spec["repeat"]):  # interleaved, so that a load change hits both
        for threads in spec["threads"]:
            with _threads(threads):
                start = time.perf_counter()
                reg.predict(X)
                times[str(threads)].append(time.perf_counter() - start)
    peak = _max_rss_mib()
    return {"rows": spec["rows"], "times_s": times,
            "best_s": {k: min(v) for k, v in times.items()},
            "rss_base_mib": base, "rss_peak_mib": peak, "predict_mib": peak - base,
            "input_mib": X.nbytes / 2**20}


def child_compare(spec):
    """Fit time and test R² of several regressors on the same data."""
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.linear_model import LinearRegression
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV

    X, y = _data(spec["n"], spec["d"], 0)
    X_test, y_test = _data(spec["n_test"], spec["d"], 1)
    threads = spec.get("threads")
    attention = {}
    for params in spec["attention"]:
        shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
        label = f"SoftmaxAttentionRegressor({shown})"
        attention[label + ("" if threads is None else f", {threads} threads")] = (
            SoftmaxAttentionRegressor(random_state=0, **params))
    if spec.get("cv"):
        attention["SoftmaxAttentionRegressorCV(n_jobs=2)"] = SoftmaxAttentionRegressorCV(
            n_jobs=2, random_state=0)
    rows = fit_and_score({"LinearRegression": LinearRegression()}, X, y, X_test, y_test)
    with _threads(threads):
        rows += fit_and_score(attention, X, y, X_test, y_test)
    return rows + fit_and_score({
        "StandardScaler + MLPRegressor(random_state=0)": make_pipeline(
            StandardScaler(), MLPRegressor(random_state=0)
        ),
        "HistGradientBoostingRegressor(random_state=0)": HistGradientBoostingRegressor(
            random_state=0
        ),
    }, X, y, X_test, y_test)


def fit_and_score(models, X, y, X_test, y_test):
    """Each named model's fit time and test R², fitted one after the other."""
    rows = []
    for name, model in models.items():
        seconds, r2 = timed_fit(model, X, y, X_test, y_test)
        rows.append({"model": name, "fit_s": seconds, "r2": r2})
    return rows


def child_path(spec):
    """One path of the CV estimator's folds at one context size; the best point on
    fresh validation rows, scored on fresh test rows."""
    import numpy as np
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.metrics import r2_score

    from sklearn_softattn import SoftmaxAttentionRegressorCV
    from sklearn_softattn._cv import EARLY_STOP
    from sklearn_softattn._path import PathStop, attention_path
    from sklearn_softattn._layer import fitted_layer, layer_predict
    from sklearn_softattn._problem import build_problem

    X, y = _data(spec["n"], spec["d"], 0)
    X_test, y_test = _data(spec["n_test"], spec["d"], 1)
    X_val, y_val = _data(spec["n_test"], spec["d"], 2)
    cv = SoftmaxAttentionRegressorCV(max_context=spec["max_context"], random_state=0)
    # The CV estimator's scales and largest iteration count, which each point runs.
    scales, max_iters = cv._grid(X, np.ones(len(y)))[:2]
    params = {**cv._path_params(int(max_iters[-1])), "balance_strength": 0.0,
              "shrinkage": 0.0}
    rng = np.random.RandomState(0)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        problem = build_problem(X, y[:, None], np.ones(len(y)), params, rng)
        best, stopped, points = None, PathStop(*EARLY_STOP), []
        for scale, point in zip(scales, attention_path(problem, scales, params,
                                                        random_state=rng)):
            layer = fitted_layer(point.K, point.V, problem, 1, scale == 0)
            r2 = r2_score(y_val, layer_predict(layer, X_val))
            points.append({"scale": float(scale), "n_iter": point.n_iter, "val_r2": r2})
            if best is None or r2 > best[0]:
                best = r2, scale, layer
            if stopped(r2):
                break
    seconds = time.perf_counter() - start
    return {"n": spec["n"], "max_context": spec["max_context"], "path_s": seconds,
            "n_iter": sum(p["n_iter"] for p in points), "points": points,
            "val_r2": best[0], "scale": float(best[1]),
            "r2": r2_score(y_test, layer_predict(best[2], X_test))}


def path_summary(reg):
    """The mean validation score of a fitted CV estimator's chosen and best points, the
    best one's scale, and the chosen point's worst fold."""
    import numpy as np

    mean = reg.score_path_.mean(axis=-1)
    best = np.unravel_index(np.nanargmax(mean), mean.shape)
    best_params = reg.best_params_
    chosen = (list(reg.attention_scales_).index(best_params["attention_scale"]),
              list(reg.max_iters_).index(best_params["max_iter"]),
              list(reg.balance_strengths_).index(best_params["balance_strength"]),
              list(reg.shrinkages_).index(best_params["shrinkage"]))
    return {"chosen_mean": float(mean[chosen]),
            "chosen_worst_fold": float(reg.score_path_[chosen].min()),
            "best_mean": float(mean[best]),
            "best_scale": float(reg.attention_scales_[best[0]])}


def child_cv_rows(spec):
    """One default CV fit on n rows: time, peak memory, predict rate and test R², then
    MLPRegressor and HistGradientBoostingRegressor on the same rows (after the peak)."""
    import gc

    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from sklearn_softattn import SoftmaxAttentionRegressorCV

    X, y = _data(spec["n"], spec["d"], 0)
    X_test, y_test = _data(spec["n_test"], spec["d"], 1)
    reg = SoftmaxAttentionRegressorCV(random_state=0)
    gc.collect()
    base = _max_rss_mib()
    start = time.perf_counter()
    reg.fit(X, y)
    fit_s = time.perf_counter() - start
    peak = _max_rss_mib()
    start = time.perf_counter()
    r2 = reg.score(X_test, y_test)
    predict_s = time.perf_counter() - start
    rows = [{"model": "SoftmaxAttentionRegressorCV()", "fit_s": fit_s, "r2": r2,
             "rss_base_mib": base, "rss_peak_mib": peak,
             "predict_rows_per_s": spec["n_test"] / predict_s,
             "attention_scale": reg.best_params_["attention_scale"],
             "max_iter": reg.best_params_["max_iter"],
             **path_summary(reg)}]
    return rows + fit_and_score({
        "StandardScaler + MLPRegressor(max_iter=2000)": make_pipeline(
            StandardScaler(), MLPRegressor(max_iter=2000, random_state=0)),
        "HistGradientBoostingRegressor()": HistGradientBoostingRegressor(random_state=0),
    }, X, y, X_test, y_test)


CHILDREN = {"fit": child_fit, "predict": child_predict, "compare": child_compare,
            "path": child_path, "cv_rows": child_cv_rows}


def run_child(spec):
    """Run ``CHILDREN[spec["task"]](spec)`` in a fresh interpreter; its JSON result."""
    proc = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--child", json.dumps(spec)],
        capture_output=True, text=True, check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"child {spec} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _load():
    return round(os.getloadavg()[0], 2)


def _busy_cores(seconds=2.0):
    """Cores kept busy by other processes over ``seconds`` (this one sleeps), from /proc/stat."""
    def sample():
        with open("/proc/stat") as f:
            fields = [float(v) for v in f.readline().split()[1:]]
        return fields[3] + fields[4], sum(fields)  # idle + iowait, total

    idle_0, total_0 = sample()
    time.sleep(seconds)
    idle_1, total_1 = sample()
    return os.cpu_count() * (1 - (idle_1 - idle_0) / max(total_1 - total_0, 1))


def wait_for_idle(max_wait, threshold=0.25):
    """Wait up to ``max_wait`` s until other processes use < ``threshold`` cores.

    Returns the busy cores measured last, to print beside the timings.
    """
    deadline = time.monotonic() + max_wait
    busy = _busy_cores()
    while busy >= threshold and time.monotonic() < deadline:
        time.sleep(5)
        busy = _busy_cores()
    return round(busy, 2)


def _print_table(header, rows):
    print(markdown_table(header, rows) + "\n", flush=True)


def bench_fit_vs_n(sizes, d=20, max_iter=5):
    print(f"## Fit against n (d={d}, max_iter={max_iter}, tol=0, max_context=2048, "
          "1 thread; fresh process each)\n")
    results = [run_child({"task": "fit", "n": n, "d": d, "max_iter": max_iter,
                          "max_context": 2048, "threads": 1}) for n in sizes]
    _print_table(["n", "fit (s)", "iterations", "loss+grad passes", "s per pass",
            "peak RSS (MiB)", "fit above baseline (MiB)"],
           [[r["n"], f"{r['fit_s']:.2f}", r["n_iter"], r["passes"],
             f"{r['s_per_pass']:.3f}", f"{r['rss_peak_mib']:.0f}", f"{r['fit_mib']:.0f}"]
            for r in results])
    return results


def bench_predict(rows, n_fit, d=20, repeat=2):
    from sklearn_softattn import SoftmaxAttentionRegressor

    X, y = _data(n_fit, d, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reg = SoftmaxAttentionRegressor(max_iter=5, tol=0, random_state=0).fit(X, y)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.pkl")
        with open(path, "wb") as f:
            pickle.dump(reg, f)
        result = run_child({"task": "predict", "model": path, "rows": rows,
                            "threads": [1, 2], "repeat": repeat})
    best = result["best_s"]
    print(f"## Predict {rows} rows x {d} features (context of {len(reg.context_)} tokens, "
          f"float64; best of {repeat}, thread counts interleaved, fresh process)\n")
    _print_table(["threads", "time (s)", "rows/s", "runs (s)"],
           [[k, f"{best[k]:.2f}", f"{rows / best[k]:,.0f}",
             ", ".join(f"{t:.2f}" for t in result["times_s"][k])] for k in best])
    print(f"Input X: {result['input_mib']:.0f} MiB. Peak RSS {result['rss_peak_mib']:.0f} MiB, "
          f"{result['predict_mib']:.0f} MiB above the baseline (model and X loaded); "
          "predict copies X once to center it, the rest is per-block scratch.\n")
    return result


def bench_context(contexts, settings, n, n_test, d=20):
    """Fit time and test R² against max_context, for each (params, max_iter) setting."""
    results = []
    for params, max_iter in settings:
        shown = ", ".join(f"{k}={v!r}" for k, v in params.items()) or "defaults"
        print(f"## max_context trade-off ({shown}; n={n}, d={d}, max_iter={max_iter}, "
              f"tol=0, 2 threads; test R² on {n_test} fresh rows)\n")
        rows = [run_child({"task": "fit", "n": n, "d": d, "max_iter": max_iter,
                           "max_context": m, "threads": 2, "n_test": n_test,
                           "params": params}) | {"max_context": m, "params": params}
                for m in contexts]
        _print_table(["max_context", "fit (s)", "s per iteration", "s per pass", "test R²",
                "fit above baseline (MiB)"],
               [[r["max_context"], f"{r['fit_s']:.1f}", f"{r['fit_s'] / r['n_iter']:.3f}",
                 f"{r['s_per_pass']:.3f}", f"{r['r2']:.4f}", f"{r['fit_mib']:.0f}"]
                for r in rows])
        results.extend(rows)
    return results


def bench_compare(n, n_test, attention, d=20, cv=False, threads=None):
    print(f"## Against other regressors (make_friedman1, n={n}, d={d}, "
          f"test on {n_test} fresh rows, fresh process)\n")
    rows = run_child({"task": "compare", "n": n, "n_test": n_test, "d": d,
                      "attention": attention, "cv": cv, "threads": threads})
    _print_table(["model", "fit (s)", "test R²"],
           [[r["model"], f"{r['fit_s']:.2f}", f"{r['r2']:.4f}"] for r in rows])
    return rows


def bench_context_path(sizes, contexts, n_test, d=20):
    """The CV path's best point against max_context and n, beside MLP and boosting."""
    print(f"## max_context along the cross-validated path (make_friedman1, d={d}; point "
          f"chosen on {n_test} fresh validation rows, R² on {n_test} fresh test rows)\n")
    paths, others = [], []
    for n in sizes:
        for m in sorted({min(m, n) for m in contexts}):
            paths.append(run_child({"task": "path", "n": n, "d": d, "n_test": n_test,
                                    "max_context": m if m < n else None}))
            print(f"  n={n}, max_context={m}: {paths[-1]['path_s']:.0f} s", file=sys.stderr,
                  flush=True)
        others.append({"n": n, "rows": run_child({"task": "compare", "n": n, "d": d,
                                                  "n_test": n_test, "attention": []})})
    _print_table(["n", "max_context", "path (s)", "iterations", "scale chosen", "validation R²",
            "test R²"],
           [[r["n"], r["max_context"] or f"all ({r['n']})", f"{r['path_s']:.1f}", r["n_iter"],
             f"{r['scale']:.3g}", f"{r['val_r2']:.4f}", f"{r['r2']:.4f}"] for r in paths])
    _print_table(["n", "model", "fit (s)", "test R²"],
           [[o["n"], r["model"], f"{r['fit_s']:.2f}", f"{r['r2']:.4f}"]
            for o in others for r in o["rows"]])
    return {"paths": paths, "others": others}


def main(argv=None):
    parser = script_parser(__doc__)
    parser.add_argument("--json", help="also write the summary to this file")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes, to check the script (ratios not meaningful)")
    parser.add_argument("--max-wait", type=float, default=120,
                        help="seconds to wait, before each part, for other processes "
                             "to leave the cores idle (default 120)")
    parser.add_argument("--cv", action="store_true",
                        help="only the comparison, with the cross-validated estimator")
    parser.add_argument("--cv-rows", type=int, metavar="N",
                        help="only one default CV fit at N rows (d=10): time, memory, "
                             "predict rate, beside MLPRegressor and boosting")
    parser.add_argument("--context-path", action="store_true",
                        help="only the choice of max_context along the CV path")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        spec = json.loads(args.child)
        print(json.dumps(CHILDREN[spec["task"]](spec)))
        return

    import numpy
    import sklearn

    import sklearn_softattn

    # The default model, and a sharper one without the balancing regularizer
    # (on this data it keeps improving past the default's R², slowly).
    nonlinear = {"attention_scale": 3.0, "regularization": None}
    if args.quick:
        sizes, small, large, rows, n_cmp, contexts = (
            [1000, 2000, 5000], 2000, 5000, 100_000, 2000, [256, 512])
        settings = [({}, 3), (nonlinear, 5)]
    else:
        sizes, small, large, rows, n_cmp, contexts = (
            [1000, 2000, 5000, 20_000, 50_000, 200_000], 20_000, 200_000, 1_000_000,
            20_000, [512, 1024, 2048, 4096])
        settings = [({}, 30), (nonlinear, 100)]
    load_start = _load()
    start = time.perf_counter()
    print(f"sklearn_softattn {sklearn_softattn.__version__}, scikit-learn "
          f"{sklearn.__version__}, numpy {numpy.__version__}, Python "
          f"{sys.version.split()[0]}, {os.cpu_count()} cores; 1-minute load at start: "
          f"{load_start}\n")
    if load_start > BUSY_LOAD:
        print(f"WARNING: load {load_start} > {BUSY_LOAD}: other processes share the "
              "cores; absolute times are inflated and the 2-thread speedup understated.\n")

    busy = {}

    def idle(part):
        busy[part] = wait_for_idle(args.max_wait)
        print(f"(cores busy with other processes before this part: {busy[part]})\n")

    def finish(part, result):
        """The end of a run of one part: its time, the load, and its summary."""
        print(f"Took {time.perf_counter() - start:.0f} s; 1-minute load at start "
              f"{load_start}, at end {_load()}.\n")
        print("SUMMARY " + json.dumps({"busy_cores_before": busy,
                                       part: result}))

    if args.context_path:
        idle("context_path")
        sizes, contexts = (([1000, 2000], [512, 1024]) if args.quick else
                           ([2000, 5000, 10_000, 20_000, 50_000], [1024, 2048, 4096, 8192]))
        found = bench_context_path(sizes, contexts, n_test=1000 if args.quick else 5000)
        finish("context_path", found)
        return
    if args.cv_rows:
        idle("cv_rows")
        n_test = 1000 if args.quick else 100_000
        print(f"## The default SoftmaxAttentionRegressorCV at n={args.cv_rows} "
              f"(make_friedman1, d=10, test on {n_test} fresh rows, fresh process)\n")
        rows = run_child({"task": "cv_rows", "n": args.cv_rows, "d": 10, "n_test": n_test})
        _print_table(["model", "fit (s)", "test R²"],
                     [[r["model"], f"{r['fit_s']:.1f}", f"{r['r2']:.4f}"] for r in rows])
        cv = rows[0]
        print(f"Peak memory of the CV fit's process {cv['rss_peak_mib']:.0f} MiB "
              f"({cv['rss_peak_mib'] - cv['rss_base_mib']:.0f} above its baseline); predict "
              f"{cv['predict_rows_per_s']:,.0f} rows/s; chosen attention_scale="
              f"{cv['attention_scale']:.3g}, max_iter={cv['max_iter']} (mean validation "
              f"R² {cv['chosen_mean']:.4f}, worst fold {cv['chosen_worst_fold']:.4f}; the "
              f"best point's {cv['best_mean']:.4f}, at a scale of {cv['best_scale']:.3g}). "
              f"Fit time / MLPRegressor's: {cv['fit_s'] / rows[1]['fit_s']:.1f}.\n")
        finish("cv_rows", rows)
        return
    if args.cv:
        idle("compare")
        compare = bench_compare(n_cmp, n_test=5000, attention=[], cv=True)
        finish("compare", compare)
        return
    idle("fit_vs_n")
    fit = bench_fit_vs_n(sizes)
    idle("predict")
    predict = bench_predict(rows, n_fit=20_000 if not args.quick else 2000)
    idle("max_context")
    context = bench_context(contexts, settings, n=n_cmp, n_test=5000)
    idle("compare")
    compare = bench_compare(n_cmp, n_test=5000, threads=2, attention=[
        params | {"max_iter": max_iter} for params, max_iter in settings])

    by_n = {r["n"]: r for r in fit}
    best = predict["best_s"]
    checks = [
        ("fit time(n=%d) / time(n=%d) <= 12" % (large, small),
         by_n[large]["fit_s"] / by_n[small]["fit_s"], lambda v: v <= 12),
        ("peak memory of the fit at n=%d, d=20 < 1 GB (MiB, whole process)" % large,
         by_n[large]["rss_peak_mib"], lambda v: v < 1000 * 10**6 / 2**20),
        ("predict %d x 20 rows/s >= 50000 (2 threads)" % rows,
         rows / best["2"], lambda v: v >= 50_000),
        ("predict speedup 2 threads / 1 thread >= 1.5", best["1"] / best["2"],
         lambda v: v >= 1.5),
    ]
    load_end = _load()
    print("## Must show (from this run)\n")
    _print_table(["claim", "measured", "holds"],
           [[name, f"{value:,.2f}", "yes" if ok(value) else "NO"]
            for name, value, ok in checks])
    print(f"Per-pass time ratio n={large} / n={small}: "
          f"{by_n[large]['s_per_pass'] / by_n[small]['s_per_pass']:.2f} "
          f"(n grows {large / small:.0f}x). rows/s with 1 thread: {rows / best['1']:,.0f}.")
    elapsed = time.perf_counter() - start
    print(f"Took {elapsed:.0f} s; 1-minute load at start {load_start}, at end {load_end}.\n")

    summary = {
        "versions": {"sklearn_softattn": sklearn_softattn.__version__,
                     "scikit-learn": sklearn.__version__, "numpy": numpy.__version__},
        "cpu_count": os.cpu_count(), "load_start": load_start, "load_end": load_end,
        "elapsed_s": elapsed, "quick": args.quick, "busy_cores_before": busy,
        "fit_vs_n": fit, "predict": predict, "max_context": context, "compare": compare,
        "must_show": {name: {"value": value, "holds": bool(ok(value))}
                      for name, value, ok in checks},
    }
    print("SUMMARY " + json.dumps(summary))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
