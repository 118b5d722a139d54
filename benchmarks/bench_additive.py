"""Would an additive end help the CV estimator? A probe, measured before any design.

    pip install ".[benchmarks]"
    nice -n 10 python benchmarks/bench_additive.py   # fit what the cache lacks: about 8 minutes
    python benchmarks/bench_additive.py --analyse    # the tables, from the summary files

The CV estimator's path starts at the layer's linear limit, ridge regression. An additive model,
one smooth function of each feature summed, contains it and adds what boosting finds where the
target is additive in monotone or bent effects of the features. The additive end probed here:
``RidgeCV`` on each standardized feature's cubic B-splines (``SplineTransformer(n_knots=4,
extrapolation="constant")``, flat beyond the training range), its alphas 13 from 10⁻³ to 10³
(those of the layer's ``shrinkage="auto"``) or 9 from 10⁻¹ to 10³ ("from 0.1", a variant
read after the first run's results: in the outer folds that failed, the additive end had
chosen 0.001 to 0.03). The "layer on the splines" is the CV estimator's linear limit on the
same splines (``attention_scales=[0.0]``, its shrinkages chosen by its folds): the additive
end as the layer would fit it if it read the splines in place of the features.

On every set of the development half at most 5 000 rows (``bench_defaults.py``'s data), of
the fifth reading's development half, and on the sets of both of at least 10 000 rows at up
to 20 000 (the large part; above 10 000 training rows the CV estimator validates on one
hold-out, where the margins below are no margins), per outer fold of ``KFold(3,
shuffle=True, random_state=0)``, with a ``StandardScaler`` in front and on one thread:

- ``defaults``: ``SoftmaxAttentionRegressorCV(additive_end=False, random_state=0)``, the
  defaults the probe came before (:data:`DEFAULTS`);
- ``additive end`` (``additive end from 0.1``, ``layer on the splines``): the additive
  model on the fold's training rows;
- ``chosen on the folds``: the additive end where its mean validation R² on the CV
  estimator's own folds (those its ``cv="auto"`` drew) is above that of the point the CV
  estimator chose, the defaults elsewhere (the rule, written before the first run);
- ``by k standard errors`` (k = 1, 3): the same where the additive end leads by more than
  k standard errors of the fold-by-fold differences (paired, as the CV estimator's
  ``selection_rule`` reads them); margins read after the first run's results;
- ``RidgeCV``: the benchmarks' peer (``_common.peers``).

The summaries are ``results/additive_<development|fifth|large>.csv`` (each set's R² and CPU fit
time, the means over the folds); the benchmark log quotes ``--analyse``. Fits are cached
outside the repository (``$SOFTATTN_BENCHMARK_CACHE``), the defaults' and each end's apart.
"""

import sys

import numpy as np
from joblib import Parallel, delayed
from sklearn.linear_model import RidgeCV
from sklearn.metrics import r2_score
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import SplineTransformer, StandardScaler
from threadpoolctl import threadpool_limits

from _common import (
    PANEL_READINGS,
    READINGS,
    RESULTS,
    by_set,
    cached,
    cpu_timed_fit,
    eligible_names,
    half,
    load_available,
    markdown_table,
    model_key,
    peers,
    read_summary,
    script_parser,
    write_summary,
)
from sklearn_softattn import SoftmaxAttentionRegressorCV
from sklearn_softattn._grid import inner_folds
from sklearn_softattn._selection import choose_point, leads, scorable

MAX_ROWS, LARGE_ROWS, LARGE_MAX_ROWS, N_FOLDS = 5000, 10_000, 20_000, 3
# The CV estimator as the probe found it: its defaults before the additive end became one of
# them (the nineteenth round of bench_defaults), so that a rerun compares the same models.
DEFAULTS = {"additive_end": False, "random_state": 0}
# Per part: the readings of its sets, their row cap and the fewest rows a set needs.
PARTS = {"development": (PANEL_READINGS, MAX_ROWS, 0), "fifth": (("fifth",), MAX_ROWS, 0),
         "large": (READINGS, LARGE_MAX_ROWS, LARGE_ROWS)}


def ridge_on_splines(alphas):
    """Ridge regression on each feature's cubic B-splines: one smooth function a feature."""
    return make_pipeline(SplineTransformer(n_knots=4, extrapolation="constant"),
                         RidgeCV(alphas=alphas))


def layer_on_splines():
    """The CV estimator's linear limits (its shrinkages, chosen by its folds) on each
    feature's cubic B-splines: the additive end as the layer would fit it if it read the
    splines in place of the features."""
    return make_pipeline(SplineTransformer(n_knots=4, extrapolation="constant"),
                         SoftmaxAttentionRegressorCV(**{**DEFAULTS, "attention_scales": [0.0]}))


# The additive ends, each a model of its own, and the prefixes of their choices' labels.
ENDS = {"additive end": (lambda: ridge_on_splines(np.logspace(-3, 3, 13)), ""),
        "additive end from 0.1": (lambda: ridge_on_splines(np.logspace(-1, 3, 9)), "from 0.1, "),
        "layer on the splines": (layer_on_splines, "layer, ")}
MARGINS = {"chosen on the folds": 0, "by 1 standard error": 1, "by 3 standard errors": 3}
# The choices' labels: {label: (additive end, margin)}.
CHOICES = {f"{prefix}{label}": (end, margin)
           for end, (_, prefix) in ENDS.items() for label, margin in MARGINS.items()}
LABELS = ("RidgeCV", "defaults", *ENDS, *CHOICES)


def outer_fold(X, y, train, test):
    """The outer fold's training and test rows, standardized on the training rows."""
    scaler = StandardScaler().fit(X[train])
    return scaler.transform(X[train]), y[train], scaler.transform(X[test]), y[test]


def defaults_scores(X, y, train, test):
    """One outer fold: the test R² and fit time of RidgeCV and the defaults, the number of
    the CV estimator's folds, and its chosen point's validation R² on them."""
    X_train, y_train, X_test, y_test = outer_fold(X, y, train, test)
    cv = SoftmaxAttentionRegressorCV(**DEFAULTS)
    seconds = {"defaults": cpu_timed_fit(cv, X_train, y_train)}
    ridge = peers()["RidgeCV"]
    seconds["RidgeCV"] = cpu_timed_fit(ridge, X[train], y_train)  # its own scaler
    with threadpool_limits(limits=1):
        r2 = {"RidgeCV": ridge.score(X[test], y_test), "defaults": cv.score(X_test, y_test)}
    chosen = cv.score_path_[choose_point(cv.score_path_, cv.selection_rule)]
    # (Every fold of these sets is scored: the chosen point's scores are on all of them.)
    assert scorable(cv.score_path_)[1].all()
    return {"r2": r2, "fit_time": seconds, "folds": len(chosen),
            "validation": {"chosen point": chosen.tolist()}}


def end_scores(end, X, y, train, test):
    """One outer fold: an additive end's test R² and fit time, and its validation R² on
    the CV estimator's folds (those the defaults' ``cv="auto"`` draws)."""
    X_train, y_train, X_test, y_test = outer_fold(X, y, train, test)
    make = ENDS[end][0]
    model = make()
    fit_time = cpu_timed_fit(model, X_train, y_train)
    folds = inner_folds("auto", X_train, y_train, np.ones(len(y_train)), 0)
    with threadpool_limits(limits=1):
        validation = [r2_score(y_train[v], make().fit(X_train[t], y_train[t]).predict(X_train[v]))
                      for t, v in folds]
        return {"r2": model.score(X_test, y_test), "fit_time": fit_time,
                "validation": validation}


def fold_scores(X, y, train, test, cache=lambda part, compute: compute()):
    """One outer fold's :func:`defaults_scores` with every end's :func:`end_scores`
    merged in; ``cache(part, compute)`` keeps each part ("defaults" or an end's label)."""
    fold = cache("defaults", lambda: defaults_scores(X, y, train, test))
    fold = {name: dict(value) if isinstance(value, dict) else value
            for name, value in fold.items()}
    for end in ENDS:
        part = cache(end, lambda end=end: end_scores(end, X, y, train, test))
        fold["r2"][end], fold["fit_time"][end] = part["r2"], part["fit_time"]
        fold["validation"][end] = part["validation"]
    return fold


def choose(fold, end, margin):
    """Whether a fold's choice takes the additive ``end``: its mean validation R² above
    the chosen point's by more than ``margin`` paired standard errors (the CV
    estimator's :func:`~sklearn_softattn._selection.leads`)."""
    return leads(fold["validation"][end], fold["validation"]["chosen point"], margin)


def with_choices(fold):
    """A fold's R² and fit time of every label, the choices' among them (whose time is
    the defaults' and the additive end's, on all the rows and on every fold)."""
    r2, seconds = dict(fold["r2"]), dict(fold["fit_time"])
    for label, (end, margin) in CHOICES.items():
        r2[label] = r2[end if choose(fold, end, margin) else "defaults"]
        seconds[label] = seconds["defaults"] + seconds[end] * (1 + fold["folds"])
    return r2, seconds


def _task(name, max_rows, X, y, fold):
    train, test = list(KFold(N_FOLDS, shuffle=True, random_state=0).split(X))[fold]
    key = f"{name}__{max_rows}__{model_key(SoftmaxAttentionRegressorCV(**DEFAULTS))}__{fold}"

    def cache(part, compute):
        suffix = "" if part == "defaults" else "__" + part.replace(" ", "_")
        return cached("additive", key + suffix, compute)

    return name, fold_scores(X, y, train, test, cache)


def fit(names, max_rows=MAX_ROWS, min_rows=0, n_jobs=2):
    """Per set of at least ``min_rows`` rows (at most ``max_rows``), each label's mean
    test R² and fit time over the folds: summary rows."""
    data = {name: (X, y) for name, (X, y) in load_available(names, max_rows=max_rows).items()
            if len(y) >= min_rows}
    done = Parallel(n_jobs=n_jobs, verbose=5)(delayed(_task)(name, max_rows, X, y, fold)
                                              for name, (X, y) in data.items()
                                              for fold in range(N_FOLDS))
    folds = {}
    for name, result in done:
        folds.setdefault(name, []).append(with_choices(result))
    return [{"set": name, "n": data[name][0].shape[0], "d": data[name][0].shape[1],
             "model": label,
             "r2": f"{np.mean([r2[label] for r2, _ in results]):.4f}",
             "fit_time": f"{np.mean([seconds[label] for _, seconds in results]):.4g}"}
            for name, results in folds.items() for label in LABELS]


def summary_path(part):
    return RESULTS / f"additive_{part}.csv"


def overview(results):
    """Per label: its mean of max(R², 0) and the sets more than 0.02 and 0.05 below
    RidgeCV's R²."""
    ridge = results["RidgeCV"]
    rows = []
    for label, by_name in results.items():
        gaps = np.array([ridge[name][0] - r2 for name, (r2, _) in by_name.items()])
        r2 = np.array([r2 for r2, _ in by_name.values()])
        rows.append([label, len(r2), f"{np.mean(np.maximum(r2, 0)):.4f}",
                     int(np.sum(gaps > 0.02)), int(np.sum(gaps > 0.05))])
    return markdown_table(["model", "sets", "mean of max(R², 0)", "sets > 0.02 below RidgeCV",
                           "> 0.05 below"], rows)


def analyse(part):
    results, shapes = read_summary(summary_path(part))
    print(f"The {part} part: {len(shapes)} sets of the development half, {N_FOLDS}-fold "
          f"shuffled R² (benchmarks/results/{summary_path(part).name})\n")
    print(overview(results) + "\n")
    print(by_set(results, shapes))


def main(argv=None):
    parser = script_parser(__doc__)
    parser.add_argument("--analyse", action="store_true",
                        help="print the tables from the summary files; fit nothing")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default: 2)")
    args = parser.parse_args(argv)
    for part, (readings, max_rows, min_rows) in PARTS.items():
        if not args.analyse:
            names = [name for name in eligible_names(readings=readings)
                     if half(name) == "development"]
            print(f"{part}: {len(names)} sets", file=sys.stderr)
            rows = fit(names, max_rows, min_rows, args.jobs)
            write_summary(sorted(rows, key=lambda r: (r["set"].lower(), r["model"])),
                          summary_path(part))
        analyse(part)
        print()


if __name__ == "__main__":
    main()
