"""Passes over the data, final objective and time of the full-batch solvers.

    python benchmarks/bench_solvers.py            # all three tables
    python benchmarks/bench_solvers.py --paper    # single fits on the paper's setting
    python benchmarks/bench_solvers.py --path     # the cross-validated estimator's path
    python benchmarks/bench_solvers.py --cv       # the cross-validated estimator's R² and time

One pass is one evaluation of the objective and its gradient over all the
training queries: the whole cost of an iteration, which is why passes, not
iterations, are compared (gd takes one per step and one per step halving,
L-BFGS one or more per line search).

``--paper``: one fit of SoftmaxAttentionRegressor on the paper's setting
(``make_gaussian_regression()``: n=500, d=10, q=20) per attention scale, at
the default ``tol`` and, to compare the limits, at ``tol=1e-7``; for
``lbfgs`` also the passes it took to first reach gd's final objective at the
same ``tol``.

``--path``: the path of the cross-validated estimator on all the rows (9
scales 0.001 ... 10, its earlier default grid, each point warm-started from the previous one,
as ``SoftmaxAttentionRegressorCV`` fits it on every fold), for each of its
default alphas, on ``make_friedman1(600)``, ``load_diabetes`` and a linear set.
Each solver with and without the first-order test: ``gd, no first-order
test`` is gd stopping by the ``n_iter_no_change`` rule alone (gd as it was
before the test: a converged start runs ``n_iter_no_change`` iterations).
``pred. change`` is the relative change of the training predictions against
the same solver without the test at the same point,
``||f - f_ref|| / ||f_ref - ȳ||``; ``passes to gd's objective``: the passes
of that point until its objective first fell to gd's final one there (``-``:
it stopped above it, by the gap shown relative to L₀, the loss of predicting
the mean; the stopping rule's tolerance is ``tol`` = 1e-4 of it). The two
paths part ways (each point starts from the solver's own previous one), so
the last table also starts lbfgs from gd's own start at every point.

``--cv``: SoftmaxAttentionRegressorCV at its defaults with each solver, on
the same three data sets, beside MLPRegressor (targets scaled, as on the
real-data panel) and HistGradientBoostingRegressor: 5-fold cross-validated R²
(KFold, shuffled, seed 0), the mean fit time of one fold's fit (for the CV
estimator its inner folds, path and refit) and its ratio to MLPRegressor's in
the same run, the passes over the data and the points chosen.
"""

import argparse
import time
import warnings

import numpy as np
from sklearn.compose import TransformedTargetRegressor
from sklearn.datasets import load_diabetes, make_friedman1
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import r2_score
from sklearn.model_selection import KFold
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_softattn import (
    SoftmaxAttentionRegressor,
    SoftmaxAttentionRegressorCV,
    _objective,
    _solvers,
)
from sklearn_softattn._cv import _label, attention_path
from sklearn_softattn._estimator import _fitted_attributes, initial_params, layer_predict, solve
from sklearn_softattn._geometry import renormalize
from sklearn_softattn.datasets import make_gaussian_regression

SOLVERS = {  # label: (solver, first-order test on)
    "gd, no first-order test": ("gd", False),
    "gd": ("gd", True),
    "lbfgs, no first-order test": ("lbfgs", False),
    "lbfgs": ("lbfgs", True),
}


class Recorder:
    """Counts passes (objective calls) and records (loss, passes) at each iteration."""

    def __init__(self, first_order_test=True):
        self.first_order_test = first_order_test

    def __enter__(self):
        self.passes, self.curve = 0, []
        self.call, self.update = _objective.Objective.__call__, _solvers.Progress.update
        self.stationary = _solvers.Progress.stationary
        recorder = self

        def counted(objective, *args, **kwargs):
            recorder.passes += 1
            return recorder.call(objective, *args, **kwargs)

        def recording(progress, loss, K, V):
            recorder.curve.append((loss, recorder.passes))
            return recorder.update(progress, loss, K, V)

        _objective.Objective.__call__, _solvers.Progress.update = counted, recording
        if not self.first_order_test:
            _solvers.Progress.stationary = lambda progress, decrease: False
        return self

    def __exit__(self, *exc):
        _objective.Objective.__call__, _solvers.Progress.update = self.call, self.update
        _solvers.Progress.stationary = self.stationary

    def passes_to(self, target):
        """Passes at the first iteration whose loss is at most ``target`` ("-": never)."""
        return next((p for loss, p in self.curve if loss <= target), "-")


def bench_paper(scales=(0.03, 0.3, 1.0, 3.0), tols=(1e-4, 1e-7)):
    X, y, *_ = make_gaussian_regression(random_state=0)
    print("The paper's setting (n=500, d=10, q=20), one fit per attention scale, max_iter=5000")
    print("| attention_scale | tol | solver | iterations | passes | final objective | time (s) "
          "| passes to gd's final objective |")
    print("|---|---|---|---|---|---|---|---|")
    for scale in scales:
        for tol in tols:
            final = None
            for label in ("gd", "lbfgs"):
                estimator = SoftmaxAttentionRegressor(attention_scale=scale, solver=label, tol=tol,
                                                      max_iter=5000, random_state=0)
                with Recorder() as rec, warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    start = time.perf_counter()
                    estimator.fit(X, y)
                    elapsed = time.perf_counter() - start
                final = estimator.loss_curve_[-1] if final is None else final
                print(f"| {scale} | {tol:g} | {label} | {estimator.n_iter_} | {rec.passes} "
                      f"| {estimator.loss_curve_[-1]:.6f} | {elapsed:.2f} "
                      f"| {rec.passes_to(final)} |", flush=True)


def _linear():
    X, y, *_ = make_gaussian_regression(300, 10, 1, noise=1.0, random_state=0)
    return X, y


DATA = {
    "make_friedman1(600)": lambda: make_friedman1(600, noise=1.0, random_state=0),
    "load_diabetes": lambda: load_diabetes(return_X_y=True),
    "linear (300, 10)": _linear,
}


def _path_problem(X, y, solver, alpha):
    estimator = SoftmaxAttentionRegressor(solver=solver, alpha=alpha, random_state=0)
    X, Y, w, y_ndim = estimator._check_training_data(X, y, None, reset=True)
    rng = np.random.RandomState(0)
    return estimator, X, y_ndim, rng, estimator._problem(X, Y, w, rng)


def run_path(X, y, solver, alpha, scales, first_order_test):
    """Per path point: passes, final objective, time, training predictions, end point."""
    estimator, X, y_ndim, rng, problem = _path_problem(X, y, solver, alpha)
    points = []
    with Recorder(first_order_test) as rec, warnings.catch_warnings():
        # the first-order test on or off at the start of gd and lbfgs, and after
        # every lbfgs iteration
        warnings.simplefilter("ignore", ConvergenceWarning)
        path = attention_path(problem, scales, estimator.get_params(), random_state=rng,
                              y_ndim=y_ndim)
        while True:
            before, first, start = rec.passes, len(rec.curve), time.perf_counter()
            try:
                point = next(path)
            except StopIteration:
                break
            elapsed = time.perf_counter() - start
            attributes = _fitted_attributes(point.K, point.V, problem, y_ndim)
            points.append(dict(passes=rec.passes - before, objective=point.loss_curve[-1],
                               loss_scale=problem.loss_scale,
                               iterations=point.n_iter, time=elapsed,
                               curve=[(loss, p - before) for loss, p in rec.curve[first:]],
                               predictions=layer_predict(attributes, X),
                               end=(point.K, point.V)))
    return points


def lbfgs_from_starts(X, y, alpha, scales, gd_points):
    """Passes lbfgs takes, from the start gd had at each point, to gd's final objective."""
    estimator, X, y_ndim, rng, problem = _path_problem(X, y, "lbfgs", alpha)
    reached = []
    for i, scale in enumerate(scales):
        params = estimator.get_params() | {"attention_scale": scale}
        if i == 0:
            K, V = initial_params(problem, params, rng)
        else:
            K, V = renormalize(*gd_points[i - 1]["end"], scale, problem.W_inv)
        with Recorder() as rec, warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            solve(problem, K, V, params, rng, max_iter=params["max_iter"], loss_curve=[])
        target = gd_points[i]["objective"]
        reached.append((rec.passes_to(target),
                        (rec.curve[-1][0] - target) / problem.loss_scale))
    return reached


def bench_path():
    # The positive scales of the path as measured: the cross-validated estimator's
    # earlier default grid (it now starts at the linear limit, 0, in closed form).
    scales = np.geomspace(0.001, 10.0, 9)
    print("The cross-validated estimator's path on all the rows (9 scales, warm starts), "
          "default tol and max_iter")
    print("| data set | alpha | attention_scale | solver | iterations | passes "
          "| final objective | (objective - gd's) / L₀ | time (s) | pred. change "
          "| passes to gd's objective |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    totals, to_gd = {}, {}
    for name, load in DATA.items():
        X, y = load()
        for alpha in (0.0, 1.0):
            runs = {label: run_path(X, y, solver, alpha, scales, test)
                    for label, (solver, test) in SOLVERS.items()}
            same_start = lbfgs_from_starts(X, y, alpha, scales, runs["gd"])
            for i, scale in enumerate(scales):
                target = runs["gd"][i]["objective"]
                for label, points in runs.items():
                    p = points[i]
                    ref = runs[f"{SOLVERS[label][0]}, no first-order test"][i]["predictions"]
                    spread = np.linalg.norm(ref - ref.mean(axis=0))
                    change = np.linalg.norm(p["predictions"] - ref) / spread
                    reached = next((n for loss, n in p["curve"] if loss <= target), "-")
                    gap = (p["objective"] - target) / p["loss_scale"]
                    print(f"| {name} | {alpha:g} | {scale:.3g} | {label} | {p['iterations']} "
                          f"| {p['passes']} | {p['objective']:.6f} | {gap:+.1e} | {p['time']:.3f} "
                          f"| {change:.1e} | {reached} |", flush=True)
                gd_passes = runs["gd"][i]["passes"]
                if gd_passes > 1:
                    to_gd.setdefault(name, []).append((*same_start[i], gd_passes))
            for label, points in runs.items():
                total = totals.setdefault((name, label), [0, 0.0])
                total[0] += sum(p["passes"] for p in points)
                total[1] += sum(p["time"] for p in points)
    print("\nTotals over both alphas and all scales")
    print("| data set | solver | passes | time (s) |")
    print("|---|---|---|---|")
    for (name, label), (passes, elapsed) in totals.items():
        print(f"| {name} | {label} | {passes} | {elapsed:.2f} |")
    print("\nlbfgs from gd's start at each point of gd's path: its passes to gd's final "
          "objective there, against gd's passes, over the points where gd took a step")
    print("| data set | lbfgs passes | gd passes | ratio | median, largest ratio of a point "
          "| points not reached | largest gap there / L₀ |")
    print("|---|---|---|---|---|---|---|")
    for name, pairs in to_gd.items():
        reached = [(a, b) for a, _, b in pairs if a != "-"]
        gaps = [gap for a, gap, _ in pairs if a == "-"]
        lbfgs_passes, gd_passes = (sum(p[k] for p in reached) for k in (0, 1))
        ratios = [a / b for a, b in reached]
        print(f"| {name} | {lbfgs_passes} | {gd_passes} | {lbfgs_passes / gd_passes:.2f} "
              f"| {np.median(ratios):.2f}, {max(ratios):.2f} "
              f"| {len(gaps)} of {len(pairs)} | {max(gaps, default=0):.1e} |")


def _references():
    """The comparison regressors of the real-data panel (``bench_panel.py``), by label."""
    mlp = TransformedTargetRegressor(MLPRegressor(max_iter=1000, random_state=0),
                                     transformer=StandardScaler())
    return {"MLPRegressor": make_pipeline(StandardScaler(), mlp),
            "HistGradientBoosting": HistGradientBoostingRegressor(random_state=0)}


def bench_cv(solvers=("gd", "lbfgs")):
    print("SoftmaxAttentionRegressorCV at its defaults, 5 outer folds (shuffled, seed 0), "
          "beside MLPRegressor and HistGradientBoostingRegressor in the same run")
    print("| data set | model | R² | mean fit time (s) | fit time / MLPRegressor's "
          "| mean passes per fit | chosen (attention_scale_, alpha_, shrinkage_) per fold |")
    print("|---|---|---|---|---|---|---|")
    for name, load in DATA.items():
        X, y = load()
        rows = []
        for label in (*solvers, *_references()):
            scores, times, passes, chosen = [], [], [], []
            for train, test in KFold(5, shuffle=True, random_state=0).split(X):
                estimator = (_references()[label] if label in _references() else
                             SoftmaxAttentionRegressorCV(solver=label, random_state=0))
                with Recorder() as rec, warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    start = time.perf_counter()
                    estimator.fit(X[train], y[train])
                    times.append(time.perf_counter() - start)
                passes.append(rec.passes)
                scores.append(r2_score(y[test], estimator.predict(X[test])))
                if label in solvers:
                    chosen.append(f"({estimator.attention_scale_:.3g}, {estimator.alpha_:g}, "
                                  f"{_label(estimator.shrinkage_)})")
            rows.append((label, np.mean(scores), np.mean(times), np.mean(passes), chosen))
        mlp_time = next(t for label, _, t, _, _ in rows if label == "MLPRegressor")
        for label, score, fit_time, n_passes, chosen in rows:
            attention = label in solvers
            print(f"| {name} | {f'attention CV, {label}' if attention else label} "
                  f"| {score:.4f} | {fit_time:.2f} | {fit_time / mlp_time:.1f} "
                  f"| {f'{n_passes:.0f}' if attention else '-'} | {' '.join(chosen) or '-'} |",
                  flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--paper", action="store_true")
    parser.add_argument("--path", action="store_true")
    parser.add_argument("--cv", action="store_true")
    args = parser.parse_args()
    every = not (args.paper or args.path or args.cv)
    for run, wanted in ((bench_paper, args.paper), (bench_path, args.path), (bench_cv, args.cv)):
        if wanted or every:
            run()
            print()
