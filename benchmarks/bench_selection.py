"""How does the cross-validated estimator choose its point, and what do its choices (the
selection rule, the path's early stop, the ridge end, the base estimator's defaults)
gain, risk and cost on 12 small data sets?

    pip install ".[benchmarks]"
    python benchmarks/bench_selection.py                # the comparison table (about 3 minutes)
    python benchmarks/bench_selection.py --path         # mean inner-CV score path per data set
    python benchmarks/bench_selection.py --defaults     # candidate defaults of the base estimator
    python benchmarks/bench_selection.py --linear-end   # the small-scale end on the paper's data
    python benchmarks/bench_selection.py --rules        # the CV estimator's selection rules
    python benchmarks/bench_selection.py --ridge-end    # shrinkage at the linear end, beside RidgeCV
    python benchmarks/bench_selection.py --stop         # early stops of the path, simulated
    python benchmarks/bench_selection.py --speed        # the CV fit against GridSearchCV
    python benchmarks/bench_selection.py --parallel     # its folds in turn, on processes, on threads

Every number is a 5-fold cross-validated R² (KFold, shuffled, seed 0) and the mean fit
time of one fold, on data that ship with scikit-learn or statsmodels (nothing is
downloaded) or are generated here. ``--only NAME,NAME`` restricts the data sets;
``--quick`` uses 2 folds and the first 3 data sets (a smoke run, about 10 seconds).
``--rules`` also runs smaller draws of the nonlinear sets (``SMALLER``). Progress (the
data set running, the time left) goes to stderr. At the current defaults each option
takes a few seconds per data set (``--linear-end`` about 5 seconds in all), but
``--speed``, whose grid search fits every point afresh (20 seconds on friedman1).

Shown in the user guide: ``--linear-end`` and ``--defaults`` on the selection page,
``--ridge-end``, ``--rules``, ``--stop`` and ``--speed`` on the page of design choices
(measured at earlier defaults, whose tables of ``--rules`` and ``--stop`` are in the
benchmark log), ``--parallel`` on the scale page. The comparison table and ``--path``
are printed only.

``--stop``: the CV estimator's inner score paths at its defaults on all the rows, every
point fitted, with the passes over the data of each point; then, for each candidate
rule for stopping a path early (its validation R² more than a margin below its best so
far at a count of consecutive points; on one fold, or on every fold at once), the data
sets on which a selection rule would choose another point and the share of passes
saved. A stop changes no point before it, so the full paths give every rule's outcome
exactly. Runs every data set of ``--rules`` unless ``--only``.

``--speed``: the CV estimator's fit at its defaults on all the rows (sequential),
without and with its early stop (``path_early_stop``), beside ``GridSearchCV`` over the
same grid of ``SoftmaxAttentionRegressor`` and the same folds: passes, time, the best
mean validation score and their ratios, in the same run; on friedman1, diabetes and
linear unless ``--only``; both with ``--solver`` (default ``gd``).

``--parallel``: the CV estimator's fit at its defaults with its five folds fitted in
turn, on two of joblib's processes and on two threads (joblib's threading backend),
best of two, interleaved, in the same run; and the share of the sequential fit spent
inside the compiled kernel, whose calls release the GIL (the rest is Python and small
numpy calls, which hold it), on the data sets of ``--speed``.
"""

import functools
import sys
import time
import types
import warnings

import joblib
import numpy as np
from sklearn.compose import TransformedTargetRegressor
from sklearn.datasets import make_friedman1, make_friedman2, make_friedman3
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression, RidgeCV
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from _common import Recorder, candidates, load, script_parser
from sklearn_softattn import (
    SoftmaxAttentionRegressor,
    SoftmaxAttentionRegressorCV,
    _attention,
    _path,
    _problem,
)
from sklearn_softattn._attention import attention_forward
from sklearn_softattn._grid import attention_scale_grid, inner_folds
from sklearn_softattn._geometry import feature_scale, whitening
from sklearn_softattn._path import _fold_scores, _label
from sklearn_softattn._selection import choose_point
from sklearn_softattn._progress import track
from sklearn_softattn.datasets import excess_risk, make_gaussian_regression


def _linear(badly_scaled=False):
    X, y = make_gaussian_regression(300, 10, 1, noise=1.0, random_state=0)
    if badly_scaled:  # columns from 1e-3 to 1e3, and a large offset
        X = X * np.logspace(-3, 3, X.shape[1]) + 1e4
    return X, y


def _attention_teacher():
    """Targets from a sharp random attention layer over 200 fixed tokens."""
    rng = np.random.default_rng(0)
    d = 5
    tokens = rng.standard_normal((200, d))
    K = rng.standard_normal((d, d))
    K *= 3 / np.linalg.norm(K)
    V = rng.standard_normal((1, d))
    X = rng.standard_normal((500, d))
    y = attention_forward(X, tokens, K, V, np.ones(len(tokens)))[:, 0]
    return X, y + 0.1 * y.std() * rng.standard_normal(len(y))


def _registered(name, max_rows=10**9):
    """A real set of the registry, every row by default."""
    return load(candidates()[name], max_rows)[:2]


DATASETS = {
    "linear": lambda: _linear(),
    "linear, badly scaled": lambda: _linear(badly_scaled=True),
    "friedman1": lambda: make_friedman1(600, noise=1.0, random_state=0),
    "friedman2": lambda: make_friedman2(600, noise=10.0, random_state=0),
    "friedman3": lambda: make_friedman3(600, noise=0.1, random_state=0),
    "attention teacher": _attention_teacher,
    "diabetes": lambda: _registered("diabetes"),
    "star98": lambda: _registered("star98"),
    "fair": lambda: _registered("fair", max_rows=600),
    "engel": lambda: _registered("engel"),
    "ccard": lambda: _registered("ccard"),
    "statecrime": lambda: _registered("statecrime"),
}


# Smaller draws of the nonlinear sets, where selection is noisier.
SMALLER = {
    "friedman1 (300 rows)": lambda: make_friedman1(300, noise=1.0, random_state=1),
    "friedman2 (300 rows)": lambda: make_friedman2(300, noise=10.0, random_state=1),
    "friedman3 (300 rows)": lambda: make_friedman3(300, noise=0.1, random_state=1),
    "friedman1 (150 rows)": lambda: make_friedman1(150, noise=1.0, random_state=2),
    "attention teacher (250 rows)": lambda: tuple(a[:250] for a in _attention_teacher()),
}


def baselines(random_state=0):
    return {
        "LinearRegression": LinearRegression(),
        "RidgeCV": make_pipeline(StandardScaler(), RidgeCV(alphas=np.logspace(-3, 3, 13))),
        "MLPRegressor": TransformedTargetRegressor(
            make_pipeline(StandardScaler(),
                          MLPRegressor(max_iter=1000, random_state=random_state)),
            transformer=StandardScaler(),
        ),
        "HistGradientBoosting": HistGradientBoostingRegressor(random_state=random_state),
        "attention, defaults": SoftmaxAttentionRegressor(random_state=random_state),
        "attention CV, defaults": SoftmaxAttentionRegressorCV(random_state=random_state),
    }


def evaluate(model, X, y, n_folds):
    cv = KFold(n_folds, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = cross_validate(model, X, y, cv=cv, return_estimator=True)
    return res["test_score"].mean(), res["fit_time"].mean(), res["estimator"]


def table(datasets, n_folds):
    models = list(baselines())
    print("| data set | n × d | " + " | ".join(models) + " |")
    print("|---|---|" + "---|" * len(models))
    for name in track(datasets, "table"):
        X, y = DATASETS[name]()
        cells, times, chosen = [], [], ""
        for label, model in baselines().items():
            score, fit_time, fitted = evaluate(model, X, y, n_folds)
            cells.append(f"{score:.3f}")
            times.append(fit_time)
            if label.startswith("attention CV"):
                chosen = ", ".join(_chosen(e.best_params_) for e in fitted)
        print(f"| {name} | {X.shape[0]} × {X.shape[1]} | " + " | ".join(cells) + " |",
              flush=True)
        print("|   fit time (s) | | " + " | ".join(f"{t:.2f}" for t in times) + " |")
        print(f"|   CV's choice per fold (scale/balance_strength/shrinkage): {chosen} |",
              flush=True)


def _chosen(best_params, scale_format=".2g"):
    """A CV estimator's chosen point as ``scale/balance_strength/shrinkage``."""
    return (f"{best_params['attention_scale']:{scale_format}}/"
            f"{best_params['balance_strength']:g}/{_label(best_params['shrinkage'])}")


def _fold_paths(est, X, Y, w, y_ndim, train, test, stop=None):
    """The validation scores of every point of the CV estimator ``est``'s paths (fitted)
    on one fold, as its ``fit`` scores them, but with every point fitted unless
    ``stop``."""
    scales, max_iters, balance_strengths, shrinkages, attention_paths = est._grid(X, w)
    return _fold_scores(est._path_params(int(max_iters[-1])), None, X, Y, w, y_ndim, train,
                        test, scales, max_iters, balance_strengths, shrinkages, stop=stop,
                        warm_start=est.path_warm_start, attention_paths=attention_paths)[0]


def path(datasets, n_folds):
    """The CV estimator's inner score path on each data set, minus its least-squares end."""
    cv_est = SoftmaxAttentionRegressorCV(balance_strengths=(0.0, 0.1, 1.0, 10.0),
                                         shrinkages=(0.0,), random_state=0)
    for name in track(datasets, "path"):
        X, y = DATASETS[name]()
        t = time.perf_counter()
        cv_est.set_params(cv=KFold(n_folds, shuffle=True, random_state=0)).fit(X, y)
        mean = cv_est.score_path_[:, -1, :, 0].mean(axis=-1)
        best = cv_est.best_params_
        print(f"{name}: chose scale {best['attention_scale']:.3g}, balance strength "
              f"{best['balance_strength']:g} ({time.perf_counter() - t:.1f} s); R² at the "
              f"least-squares end {mean[0].max():.3f}; gain over it (rows: scales, columns: "
              f"balance strengths {cv_est.balance_strengths_.tolist()}):")
        for scale, row in zip(cv_est.attention_scales_, mean - mean[0, 0]):
            print(f"  {scale:7.3f} " + " ".join(f"{v:+.3f}" for v in row))
        sys.stdout.flush()


def defaults(datasets, n_folds, scales=(0.03, 0.1, 0.3, 1.0), balance_strengths=(1.0, 10.0)):
    """Mean CV R² of the base estimator over a grid of candidate defaults
    (``attention_scale/balance_strength``), minus LinearRegression's."""
    print("| data set | " + " | ".join(f"{s:g}/{a:g}" for s in scales
                                       for a in balance_strengths) + " |")
    print("|---|" + "---|" * (len(scales) * len(balance_strengths)))
    for name in track(datasets, "defaults"):
        X, y = DATASETS[name]()
        lin = evaluate(LinearRegression(), X, y, n_folds)[0]
        cells = [
            evaluate(SoftmaxAttentionRegressor(s, balance_strength=a, random_state=0), X, y,
                     n_folds)[0] - lin
            for s in scales for a in balance_strengths
        ]
        print(f"| {name} | " + " | ".join(f"{c:+.3f}" for c in cells) + " |", flush=True)


def rules(datasets, n_folds, selections=("best", "1se", "2se")):
    """Nested CV of the selection rules: each rule's choice from the inner score
    path, scored on the outer fold, minus least squares' outer score."""
    print("outer R² of the chosen point minus LinearRegression's, mean over "
          f"{n_folds} outer folds (choices per fold in brackets: "
          "scale/balance_strength/shrinkage)")
    print("| data set | n × d | LinearRegression | " + " | ".join(selections) + " |")
    print("|---|---|---|" + "---|" * len(selections))
    for name in track(datasets, "rules"):
        X, y = {**DATASETS, **SMALLER}[name]()
        gains, choices, least_squares = {s: [] for s in selections}, {s: [] for s in selections}, []
        for train, test in KFold(n_folds, shuffle=True, random_state=0).split(X):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                inner = SoftmaxAttentionRegressorCV(random_state=0).fit(X[train], y[train])
                # Every point of the path refitted on the outer training rows.
                outer = _fold_paths(inner, X, y[:, None], np.ones(len(y)), 1, train, test)
            ls = LinearRegression().fit(X[train], y[train]).score(X[test], y[test])
            least_squares.append(ls)
            for rule in selections:
                i, t, j, k = choose_point(inner.score_path_, rule)
                gains[rule].append(outer[i, t, j, k] - ls)
                choices[rule].append(_chosen({
                    "attention_scale": inner.attention_scales_[i],
                    "balance_strength": inner.balance_strengths_[j],
                    "shrinkage": inner.shrinkages_[k]}))
        print(f"| {name} | {X.shape[0]} × {X.shape[1]} | {np.mean(least_squares):.3f} | "
              + " | ".join(f"{np.mean(gains[r]):+.3f} ({', '.join(choices[r])})"
                           for r in selections) + " |", flush=True)


def ridge_end(datasets, n_folds, shrinkages=(0.0, 0.01, 0.1, 1.0), scale=0.001):
    """Outer R² of the flat end of the path with a ridge penalty, beside least squares
    and RidgeCV; and the whitening-shrinkage alternative (no penalty: the
    correlation matrix plus shrinkage times I whitens). Here a shrinkage is the
    penalty's weight in the objective (Ridge's alpha over the training rows), so
    that both alternatives take the same values."""
    print(f"outer R² at attention_scale={scale:g} (penalty: weight ...; whitened: "
          "C + weight·I in the whitening instead)")
    print("| data set | n × d | LinearRegression | RidgeCV | "
          + " | ".join(f"penalty {s:g}" for s in shrinkages) + " | "
          + " | ".join(f"whitened {s:g}" for s in shrinkages[1:]) + " |")
    print("|---|---|---|---|" + "---|" * (2 * len(shrinkages) - 1))
    for name in track(datasets, "ridge-end"):
        X, y = {**DATASETS, **SMALLER}[name]()
        cells = [evaluate(baselines()[m], X, y, n_folds)[0] for m in ("LinearRegression", "RidgeCV")]
        n_train = len(X) * (n_folds - 1) / n_folds  # the outer training rows, to 1 row
        cells += [evaluate(SoftmaxAttentionRegressor(scale, shrinkage=s * n_train,
                                                     random_state=0), X, y, n_folds)[0]
                  for s in shrinkages]
        for s in shrinkages[1:]:
            _problem.whitening = functools.partial(_shrunk_whitening, shrinkage=s)
            try:
                cells.append(evaluate(SoftmaxAttentionRegressor(scale, random_state=0), X, y,
                                      n_folds)[0])
            finally:
                _problem.whitening = whitening
        print(f"| {name} | {X.shape[0]} × {X.shape[1]} | " + " | ".join(f"{c:.3f}" for c in cells)
              + " |", flush=True)


def _shrunk_whitening(covariance, shrinkage):
    """Whitening by the correlation matrix plus ``shrinkage`` times I (the alternative)."""
    scale = feature_scale(covariance)
    correlation = covariance / np.outer(scale, scale)
    shrunk = (correlation + shrinkage * np.eye(len(scale))) * np.outer(scale, scale)
    return whitening(shrunk)


def full_paths(X, y):
    """The CV estimator's inner score paths at its defaults with every point fitted,
    ``(scales, max_iters, balance_strengths, shrinkages, folds)``, and the passes over
    the data of each point (the same shape without ``max_iters``: a point's checkpoints
    are one run; 0 where a path was not fitted)."""
    est = SoftmaxAttentionRegressorCV(random_state=0)
    X, Y, w, y_ndim = est._check_training_data(X, y, None, reset=True, positive_only=False)
    scales, _, balance_strengths, shrinkages, _ = est._grid(X, w)
    scores, passes = [], []
    path = _path.attention_path
    for train, test in inner_folds(est.cv, X, Y[:, 0], w, est.random_state):
        fold_passes = np.zeros((len(scales), len(balance_strengths), len(shrinkages)))

        def counted(problem, path_scales, params, *args, **kwargs):
            a = list(balance_strengths).index(params["balance_strength"])
            r = list(shrinkages).index(params["shrinkage"])
            before = rec.passes
            for s, point in enumerate(path(problem, path_scales, params, *args, **kwargs)):
                fold_passes[s, a, r] = rec.passes - before
                yield point
                before = rec.passes

        _path.attention_path = counted
        try:
            with Recorder() as rec, warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                scores.append(_fold_paths(est, X, Y, w, y_ndim, train, test))
        finally:
            _path.attention_path = path
        passes.append(fold_passes)
    return np.stack(scores, axis=-1), np.stack(passes, axis=-1)


def skipped(score_path, margin, count, every_fold):
    """The points a stopping rule leaves unfitted: those after the first point where a
    fold's score has been more than ``margin`` below its best so far at ``count``
    consecutive points (on every fold at once, with ``every_fold``)."""
    fell = score_path < np.maximum.accumulate(score_path, axis=0) - margin
    run = np.zeros(score_path.shape, dtype=int)
    for s in range(len(score_path)):
        run[s] = np.where(fell[s], (run[s - 1] if s else 0) + 1, 0)
    stop = run >= count
    if every_fold:
        stop = np.broadcast_to(stop.all(axis=-1, keepdims=True), stop.shape)
    stopped = np.cumsum(stop, axis=0) > 0
    return np.concatenate([np.zeros_like(stopped[:1]), stopped[:-1]])


def stop_rules(datasets, margins=(0.01, 0.02, 0.05, 0.1, 0.2), counts=(1, 2),
               selections=("2se", "1se", "best")):
    """Every candidate stopping rule, simulated on the full inner paths."""
    paths = {}
    for name in track(datasets, "stop"):
        paths[name] = full_paths(*{**DATASETS, **SMALLER}[name]())
    print(f"{len(paths)} data sets, the CV estimator's defaults; passes saved of the "
          "folds' paths; data sets where a selection rule chooses another point, and "
          "the largest loss of mean validation R² there")
    print("| stops when | margin | count | passes saved | "
          + " | ".join(f"{r} changed" for r in selections) + " |")
    print("|---|---|---|---|" + "---|" * len(selections))
    for every_fold in (False, True):
        for margin in margins:
            for count in counts:
                saved = total = 0
                changed = {r: [] for r in selections}
                for name, (scores, passes) in paths.items():
                    # A path stops on a point's best score over its checkpoints, and
                    # leaves every checkpoint of the points after it unfitted.
                    skip = skipped(scores.max(axis=1), margin, count, every_fold)
                    saved, total = saved + passes[skip].sum(), total + passes.sum()
                    stopped = np.where(skip[:, None], _path.SKIPPED, scores)
                    for rule in selections:
                        before, after = choose_point(scores, rule), choose_point(stopped, rule)
                        if before != after:
                            changed[rule].append(scores[before].mean() - scores[after].mean())
                print(f"| {'every fold' if every_fold else 'one fold'} | {margin:g} | {count} "
                      f"| {saved / total:.1%} | "
                      + " | ".join(f"{len(c)}" + (f" ({max(c):.3f})" if c else "")
                                   for c in changed.values()) + " |", flush=True)


def speed(datasets, solver="gd"):
    """The CV fit without and with its early stop, and GridSearchCV over the same grid
    and folds (the same ``solver``): passes, time and best mean validation score, in
    the same run."""
    print(f"solver={solver!r}")
    print("| data set | n × d | fit | passes | time (s) | best mean score | chosen "
          "(scale/balance_strength/shrinkage) | GridSearchCV passes / this "
          "| GridSearchCV time / this |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in track(datasets, "speed"):
        X, y = DATASETS[name]()
        cv_est = SoftmaxAttentionRegressorCV(solver=solver, random_state=0)
        grid = {"attention_scale": attention_scale_grid(cv_est.attention_scales),
                "balance_strength": list(cv_est.balance_strengths),
                "shrinkage": list(cv_est.shrinkages)}
        search = GridSearchCV(SoftmaxAttentionRegressor(solver=solver, random_state=0), grid,
                              cv=KFold(5, shuffle=True, random_state=0))
        rows = []
        for label, stop in (("CV, every point", False), ("CV, early stop", True),
                            ("GridSearchCV", None)):
            model = search if label == "GridSearchCV" else cv_est.set_params(
                path_early_stop=stop)
            with Recorder() as rec, warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                start = time.perf_counter()
                model.fit(X, y)
                elapsed = time.perf_counter() - start
            if model is search:
                best, chosen = search.best_score_, _chosen(search.best_params_)
            else:
                mean = np.where(np.isfinite(cv_est.score_path_).all(axis=-1),
                                cv_est.score_path_.mean(axis=-1), -np.inf)
                best, chosen = mean.max(), _chosen(cv_est.best_params_)
            rows.append((label, rec.passes, elapsed, best, chosen))
        grid_passes, grid_time = rows[-1][1:3]
        for label, passes, elapsed, best, chosen in rows:
            print(f"| {name} | {X.shape[0]} × {X.shape[1]} | {label} | {passes} | {elapsed:.1f} "
                  f"| {best:.4f} | {chosen} | {grid_passes / passes:.2f} "
                  f"| {grid_time / elapsed:.2f} |", flush=True)


class KernelClock:
    """The time spent inside the compiled kernel's calls (which release the GIL) while
    inside, by wrapping the kernel module that ``_attention`` calls."""

    def __enter__(self):
        self.seconds, self._kernel = 0.0, _attention._kernel

        def timed(function):
            def call(*args):
                start = time.perf_counter()
                try:
                    return function(*args)
                finally:
                    self.seconds += time.perf_counter() - start
            return call

        _attention._kernel = types.SimpleNamespace(
            **{name: timed(getattr(self._kernel, name))
               for name in ("forward", "loss_grad", "fill_fused")})
        return self

    def __exit__(self, *exc):
        _attention._kernel = self._kernel


def parallel(datasets, rounds=2):
    """The CV fit at its defaults with its folds one after another (``n_jobs=1``), on
    joblib's processes (``n_jobs=2``) and on threads (``n_jobs=2`` under joblib's
    threading backend): the best time of ``rounds``, the three interleaved, in the same
    run; and the compiled kernel's share of the sequential fit's time (the rest holds
    the GIL: Python and small numpy calls between the kernel's calls)."""
    print("| data set | n × d | folds in turn (s) | processes (s) | threads (s) | "
          "processes / in turn | threads / in turn | kernel's share, in turn |")
    print("|---|---|---|---|---|---|---|---|")
    for name in track(datasets, "parallel"):
        X, y = DATASETS[name]()
        times, share = {"in turn": [], "processes": [], "threads": []}, []
        for _ in range(rounds):
            for mode, backend in (("in turn", None), ("processes", "loky"),
                                  ("threads", "threading")):
                reg = SoftmaxAttentionRegressorCV(random_state=0,
                                                  n_jobs=1 if backend is None else 2)
                with warnings.catch_warnings(), KernelClock() as kernel, \
                        joblib.parallel_config(backend=backend or "loky"):
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    start = time.perf_counter()
                    reg.fit(X, y)
                    elapsed = time.perf_counter() - start
                times[mode].append(elapsed)
                if backend is None:
                    share.append(kernel.seconds / elapsed)
        best = {mode: min(t) for mode, t in times.items()}
        print(f"| {name} | {X.shape[0]} × {X.shape[1]} | {best['in turn']:.2f} | "
              f"{best['processes']:.2f} | {best['threads']:.2f} | "
              f"{best['processes'] / best['in turn']:.2f} | "
              f"{best['threads'] / best['in turn']:.2f} | {max(share):.0%} |", flush=True)


def linear_end(scales=(0.001, 0.01, 0.1, 0.3, 1.0), seeds=(0, 1)):
    """Excess risk of predict over least squares' on the paper's setting, against the scale."""
    print("seed | " + " | ".join(f"attention_scale={s:g}" for s in scales))
    for seed in seeds:
        X, Y, M, cov = make_gaussian_regression(random_state=seed, return_truth=True)
        least_squares = excess_risk(LinearRegression().fit(X, Y), M, cov)
        ratios = []
        for scale in scales:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                reg = SoftmaxAttentionRegressor(scale, random_state=0).fit(X, Y)
            ratios.append(excess_risk(reg, M, cov) / least_squares)
        print(f"{seed} | " + " | ".join(f"{r:.2f}×" for r in ratios), flush=True)


if __name__ == "__main__":
    parser = script_parser(__doc__)
    parser.add_argument("--path", action="store_true")
    parser.add_argument("--defaults", action="store_true")
    parser.add_argument("--linear-end", action="store_true")
    parser.add_argument("--rules", action="store_true")
    parser.add_argument("--ridge-end", action="store_true")
    parser.add_argument("--stop", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--parallel", action="store_true")
    parser.add_argument("--solver", default="gd", help="the solver of --speed")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    names = list(DATASETS) if args.only is None else args.only.split(",")
    n_folds = 5
    if args.quick:
        names, n_folds = names[:3], 2
    if (args.speed or args.parallel) and args.only is None:
        names = ["friedman1", "diabetes", "linear"]
    if (args.rules or args.stop) and args.only is None and not args.quick:
        names += list(SMALLER)
    if args.linear_end:
        linear_end()
    elif args.rules:
        rules(names, n_folds)
    elif args.stop:
        stop_rules(names)
    elif args.speed:
        speed(names, args.solver)
    elif args.parallel:
        parallel(names)
    elif args.ridge_end:
        ridge_end(names, n_folds)
    elif args.path:
        path(names, n_folds)
    elif args.defaults:
        defaults(names, n_folds)
    else:
        table(names, n_folds)
