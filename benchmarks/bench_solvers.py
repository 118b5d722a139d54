"""Which full-batch solver reaches the layer's objective in the fewest passes over the
data, and does that make the fit, or the cross-validated fit, cheaper?

    python benchmarks/bench_solvers.py            # every table (about 3 minutes on 2 cores)
    python benchmarks/bench_solvers.py --paper    # single fits on the paper's setting
    python benchmarks/bench_solvers.py --path     # the cross-validated estimator's path
    python benchmarks/bench_solvers.py --cv       # the cross-validated estimator's R² and time
    python benchmarks/bench_solvers.py --varpro   # gd against V eliminated in closed form

One pass is one evaluation of the objective and its gradient over all the training
queries: the whole cost of an iteration, which is why passes, not iterations, are
compared (gd takes one per step and one per step halving, L-BFGS one or more per line
search). Shown on the page of design choices of the user guide (``--path``, ``--cv``,
``--varpro``), measured at earlier defaults; the ``--varpro`` table is in the benchmark
log.

``--paper``: one fit of SoftmaxAttentionRegressor on the paper's setting
(``make_gaussian_regression()``: n=500, d=10, q=20) per attention scale, at the default
``tol`` and, to compare the limits, at ``tol=1e-7``; for ``lbfgs`` also the passes it
took to first reach gd's final objective at the same ``tol``.

``--path``: the path of the cross-validated estimator on all the rows (9 scales 0.001
... 10, its earlier default grid, each point warm-started from the previous one), for
balance strengths 0 and 1, on ``make_friedman1(600)``, ``load_diabetes`` and a linear
set. Each solver with and without the first-order test: ``gd, no first-order test`` is
gd stopping by the ``n_iter_no_change`` rule alone (gd as it was before the test: a
converged start runs ``n_iter_no_change`` iterations). ``pred. change`` is the relative
change of the training predictions against the same solver without the test at the
same point, ``||f - f_ref|| / ||f_ref - ȳ||``; ``passes to gd's objective``: the passes
of that point until its objective first fell to gd's final one there (``-``: it stopped
above it, by the gap shown relative to L₀, the loss of predicting the mean; the
stopping rule's tolerance is ``tol`` = 1e-4 of it). The two paths part ways (each point
starts from the solver's own previous one), so the last table also starts lbfgs from
gd's own start at every point.

``--cv``: SoftmaxAttentionRegressorCV at its defaults with each solver, on the same
three data sets, beside MLPRegressor (targets scaled, as on the real-data panel) and
HistGradientBoostingRegressor: 5-fold cross-validated R² (KFold, shuffled, seed 0), the
mean fit time of one fold's fit (for the CV estimator its inner folds, path and refit)
and its ratio to MLPRegressor's in the same run, the passes over the data and the
points chosen.

``--varpro``: variable projection, tried as a faster solver and not adopted. For a fixed
``K`` the prediction is linear in ``V``, so ``V`` can be eliminated: ``V(K)`` minimizes
the objective in closed form (weighted least squares of the targets on the attended
means, with the ridge term; no balance, ``balance_strength=0``), and L-BFGS runs on the
renormalized ``K`` alone, on ``K -> L(K, V(K))``, whose gradient is the objective's at
``V(K)``. Each evaluation costs two passes (the attended means, then the gradient; the
means are computed here in numpy). On 75% of each data set's rows (seeded shuffle), gd's
warm-started path at the positive scales of ``attention_scales=8``, and from gd's own
start at every point variable projection, with gd's stopping rule (``tol``,
``n_iter_no_change``, ``max_iter``) on its objective: passes, the objective over L₀, the
passes it took to reach gd's final objective, and R² on the other 25% of the rows.
"""

import time
import warnings

import numpy as np
from scipy.optimize import minimize
from sklearn.datasets import load_diabetes, make_friedman1
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import r2_score
from sklearn.model_selection import KFold

from _common import Recorder, peers, script_parser
from sklearn_softattn import (
    SoftmaxAttentionRegressor,
    SoftmaxAttentionRegressorCV,
)
from sklearn_softattn._attention import attention_weights
from sklearn_softattn._grid import attention_scale_grid
from sklearn_softattn._path import _label, attention_path
from sklearn_softattn._layer import fitted_layer, initial_params, layer_predict, solve
from sklearn_softattn._problem import build_problem
from sklearn_softattn._geometry import Renormalization, change_basis, renormalize
from sklearn_softattn.datasets import make_gaussian_regression

SOLVERS = {  # label: (solver, first-order test on)
    "gd, no first-order test": ("gd", False),
    "gd": ("gd", True),
    "lbfgs, no first-order test": ("lbfgs", False),
    "lbfgs": ("lbfgs", True),
}


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


def _path_problem(X, y, solver, balance_strength):
    estimator = SoftmaxAttentionRegressor(solver=solver, balance_strength=balance_strength,
                                          random_state=0)
    X, Y, w, y_ndim = estimator._check_training_data(X, y, None, reset=True)
    rng = np.random.RandomState(0)
    return estimator, X, y_ndim, rng, build_problem(X, Y, w, estimator.get_params(), rng)


def run_path(X, y, solver, balance_strength, scales, first_order_test):
    """Per path point: passes, final objective, time, training predictions, end point."""
    estimator, X, y_ndim, rng, problem = _path_problem(X, y, solver, balance_strength)
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
            layer = fitted_layer(point.K, point.V, problem, y_ndim)
            points.append(dict(passes=rec.passes - before, objective=point.loss_curve[-1],
                               loss_scale=problem.loss_scale,
                               iterations=point.n_iter, time=elapsed,
                               curve=[(loss, p - before) for loss, p in rec.curve[first:]],
                               predictions=layer_predict(layer, X),
                               end=(point.K, point.V)))
    return points


def lbfgs_from_starts(X, y, balance_strength, scales, gd_points):
    """Passes lbfgs takes, from the start gd had at each point, to gd's final objective."""
    estimator, X, y_ndim, rng, problem = _path_problem(X, y, "lbfgs", balance_strength)
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
    print("| data set | balance_strength | attention_scale | solver | iterations | passes "
          "| final objective | (objective - gd's) / L₀ | time (s) | pred. change "
          "| passes to gd's objective |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    totals, to_gd = {}, {}
    for name, load in DATA.items():
        X, y = load()
        for balance in (0.0, 1.0):
            runs = {label: run_path(X, y, solver, balance, scales, test)
                    for label, (solver, test) in SOLVERS.items()}
            same_start = lbfgs_from_starts(X, y, balance, scales, runs["gd"])
            for i, scale in enumerate(scales):
                target = runs["gd"][i]["objective"]
                for label, points in runs.items():
                    p = points[i]
                    ref = runs[f"{SOLVERS[label][0]}, no first-order test"][i]["predictions"]
                    spread = np.linalg.norm(ref - ref.mean(axis=0))
                    change = np.linalg.norm(p["predictions"] - ref) / spread
                    reached = next((n for loss, n in p["curve"] if loss <= target), "-")
                    gap = (p["objective"] - target) / p["loss_scale"]
                    print(f"| {name} | {balance:g} | {scale:.3g} | {label} | {p['iterations']} "
                          f"| {p['passes']} | {p['objective']:.6f} | {gap:+.1e} | {p['time']:.3f} "
                          f"| {change:.1e} | {reached} |", flush=True)
                gd_passes = runs["gd"][i]["passes"]
                if gd_passes > 1:
                    to_gd.setdefault(name, []).append((*same_start[i], gd_passes))
            for label, points in runs.items():
                total = totals.setdefault((name, label), [0, 0.0])
                total[0] += sum(p["passes"] for p in points)
                total[1] += sum(p["time"] for p in points)
    print("\nTotals over both balance strengths and all scales")
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


def _attended(objective, K):
    """Every training query's attended mean of the context plus its value shift, as the
    objective sees it (own token down-weighted by one): the prediction is ``V`` times it."""
    w, own = objective.context_weight, objective.self_index
    with np.errstate(divide="ignore"):
        log_self = np.log(np.maximum(w[np.maximum(own, 0)] - 1, 0))[own >= 0]
    A = attention_weights(objective.Z, objective.context @ K.T, np.log(w), own, log_self)
    H = A @ objective.context
    return H if objective.value_shift is None else H + objective.value_shift


def best_values(objective, K):
    """The ``V`` that minimizes the objective (without balance) for this ``K``, in closed
    form: ``V (Hᵀ C H + λ M Mᵀ) = Yᵀ C H`` with ``M = Kᵀ A`` the ridge term's map."""
    H = _attended(objective, K)
    c = (objective.weight / objective.weight.sum())[:, None]
    gram = H.T @ (c * H)
    if objective.shrinkage > 0:
        M = K.T @ objective.standardize
        gram = gram + objective.shrinkage * (M @ M.T)
    return np.linalg.lstsq(gram, (objective.Y.T @ (c * H)).T, rcond=None)[0].T


def variable_projection(objective, K, scale, loss_scale, tol, n_iter_no_change, max_iter):
    """L-BFGS on the renormalized ``K`` of ``K -> L(K, V(K))``, from ``K``; stops as gd
    does. Returns the final ``(K, V)``, its objective and the (objective, passes) curve."""
    assert objective.P is None and objective.strength == 0  # whitened, no balance
    project = Renormalization(scale)
    K, _ = project.onto(K)
    unit, shape = np.linalg.norm(K), K.shape
    state = {"passes": 0, "curve": [], "best": np.inf, "flat": 0}

    def parameters(x):
        K, factor = project.onto(unit * x.reshape(shape))
        return K, best_values(objective, K), factor

    def evaluate(x):
        K, V, factor = parameters(x)
        value, grad_K, _ = objective(K, V)  # grad_V vanishes at V(K)
        state["passes"] += 2
        state["last"] = value
        return value / loss_scale, unit * factor * project.tangent(K, grad_K).ravel() / loss_scale

    def callback(x):
        value = state["last"]
        state["curve"].append((value, state["passes"]))
        state["flat"] = 0 if value <= state["best"] - tol * loss_scale else state["flat"] + 1
        state["best"], state["x"] = min(state["best"], value), x.copy()
        if state["flat"] >= n_iter_no_change:
            raise StopIteration

    state["x"] = K.ravel() / unit
    try:
        minimize(evaluate, state["x"], jac=True, method="L-BFGS-B", callback=callback,
                 options=dict(maxiter=max_iter, ftol=0.0, gtol=0.0))
    except StopIteration:
        pass
    K, V, _ = parameters(state["x"])
    return K, V, state["curve"]


def bench_varpro():
    scales = attention_scale_grid(8)[1:]  # the positive scales of attention_scales=8
    print("gd's warm-started path (balance_strength=0, shrinkage=0) against variable "
          "projection from gd's start at each point; 75% of the rows train, 25% test")
    print("| data set | attention_scale | gd passes | gd objective / L₀ | gd test R² "
          "| varpro passes | passes to gd's objective | varpro objective / L₀ "
          "| varpro test R² |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, load in DATA.items():
        X, y = load()
        order = np.random.default_rng(0).permutation(len(y))
        cut = len(y) * 3 // 4
        X_train, y_train, X_test, y_test = (X[order[:cut]], y[order[:cut]],
                                            X[order[cut:]], y[order[cut:]])
        estimator, Xc, y_ndim, rng, problem = _path_problem(X_train, y_train, "gd", 0.0)
        params = estimator.get_params()
        objective = problem.objective  # no balance, shrinkage=0: the loss alone
        gd_points = run_path(X_train, y_train, "gd", 0.0, scales, True)
        for i, scale in enumerate(scales):
            point_params = params | {"attention_scale": scale}
            if i == 0:
                K0, V0 = initial_params(problem, point_params, np.random.RandomState(0))
            else:
                K0, V0 = renormalize(*gd_points[i - 1]["end"], scale, problem.W_inv)
            K, _ = change_basis(K0, V0, problem.T_inv)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                K, V, curve = variable_projection(objective, K, scale, problem.loss_scale,
                                                  params["tol"], params["n_iter_no_change"],
                                                  params["max_iter"])
            test_r2 = {}
            for label, (K_raw, V_raw) in (("gd", gd_points[i]["end"]),
                                          ("varpro", change_basis(K, V, problem.T))):
                layer = fitted_layer(K_raw, V_raw, problem, y_ndim)
                test_r2[label] = r2_score(y_test, layer_predict(layer, X_test))
            gd = gd_points[i]
            target = gd["objective"]
            reached = next((p for value, p in curve if value <= target), "-")
            final = objective(K, V)[0] / problem.loss_scale
            print(f"| {name} | {scale:.3g} | {gd['passes']} | {target / problem.loss_scale:.4f} "
                  f"| {test_r2['gd']:.3f} | {curve[-1][1] if curve else 0} | {reached} "
                  f"| {final:.4f} | {test_r2['varpro']:.3f} |", flush=True)


def _references():
    """The comparison regressors of the real-data panel (``bench_panel.py``), by label."""
    return {label: model for label, model in peers().items()
            if label in ("MLPRegressor", "HistGradientBoosting")}


def bench_cv(solvers=("gd", "lbfgs")):
    print("SoftmaxAttentionRegressorCV at its defaults, 5 outer folds (shuffled, seed 0), "
          "beside MLPRegressor and HistGradientBoostingRegressor in the same run")
    print("| data set | model | R² | mean fit time (s) | fit time / MLPRegressor's "
          "| mean passes per fit | chosen (attention_scale, balance_strength, shrinkage) per fold |")
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
                    best = estimator.best_params_
                    chosen.append(f"({best['attention_scale']:.3g}, {best['balance_strength']:g}, "
                                  f"{_label(best['shrinkage'])})")
            rows.append((label, np.mean(scores), np.mean(times), np.mean(passes), chosen))
        mlp_time = next(t for label, _, t, _, _ in rows if label == "MLPRegressor")
        for label, score, fit_time, n_passes, chosen in rows:
            attention = label in solvers
            print(f"| {name} | {f'attention CV, {label}' if attention else label} "
                  f"| {score:.4f} | {fit_time:.2f} | {fit_time / mlp_time:.1f} "
                  f"| {f'{n_passes:.0f}' if attention else '-'} | {' '.join(chosen) or '-'} |",
                  flush=True)


if __name__ == "__main__":
    parser = script_parser(__doc__)
    parser.add_argument("--paper", action="store_true")
    parser.add_argument("--path", action="store_true")
    parser.add_argument("--cv", action="store_true")
    parser.add_argument("--varpro", action="store_true")
    args = parser.parse_args()
    every = not (args.paper or args.path or args.cv or args.varpro)
    for run, wanted in ((bench_paper, args.paper), (bench_path, args.path), (bench_cv, args.cv),
                        (bench_varpro, args.varpro)):
        if wanted or every:
            run()
            print()
