"""Where the CV estimator's path starts with more rows than its context: the spacing of
all the training rows against that of a context-sized sample of them.

Run: OMP_NUM_THREADS=1 python benchmarks/bench_start.py [--jobs 2] [--quick]

About 25 minutes with two jobs on 2 cores (``--quick``: two sets, for checking the
script itself). Prints one line per fit, one table, the rule's verdict and one line
``SUMMARY {...}`` (JSON); writes the table's numbers to ``results/start.csv``.

With distance scores, ``attention_scales="auto"`` starts the path at the
sharpness at which a row's nearest distinct neighbour, at the median such
distance, scores 0.5 below the row's own position: a smoother over a few
neighbours. That spacing was measured over all the training rows, while each
fit attends over a seeded sample of ``max_context`` (2048) of them. In ``d``
directions the spacing of n rows shrinks about as ``n^(-2/d)``, so at 20 000
rows the start was a smoother over a fraction of a context row: on the eight
real sets of at least 20 000 rows, the default fit chose the linear end on six.
The candidate measures the spacing on a sample of ``max_context`` rows, drawn
as the fit's own context is (``random_state=0``). Both are given to
``SoftmaxAttentionRegressorCV`` (its defaults, ``random_state=0``) as explicit
``attention_scales=[0, start]``, which is what ``"auto"`` computes; with at
most 2048 training rows the two starts are the same, so only larger sets are
fitted.

Data: the sets of ``bench_validation.py`` (``make_friedman1`` at 20 000, 50 000
and 100 000 rows with 20 000 fresh test rows; the eight eligible real sets of at
least 20 000 complete rows, a seeded 25 000 of them, 20% held out), and every
other eligible set of the registry with more than 2 560 rows (so that its 80%
exceeds the context), at most 5 000 of them (seeded), 20% held out by
``train_test_split(..., random_state=0)``. Every model behind a StandardScaler.
RidgeCV, MLPRegressor(max_iter=2000) (targets scaled) and
HistGradientBoostingRegressor are fitted beside them and reported. Each job
fits its sets one model after the other; times are compared within a set.

The rule, written before the fits: the context-sized start becomes ``"auto"``'s
if, over every set fitted,

1. its mean test R² is at least the all-rows start's - 0.002;
2. no set's test R² is more than 0.01 below the all-rows start's;
3. its median fit time is at most 1.2 times the all-rows start's.

Otherwise the spacing of all the rows stays.
"""

import csv
import json

import numpy as np
from _common import (
    RESULTS,
    eligible_names,
    load_available,
    markdown_table,
    peers,
    script_parser,
    timed_fit,
)
from bench_validation import REAL_SETS, data_sets
from joblib import Parallel, delayed
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils import check_random_state

from sklearn_softattn import SoftmaxAttentionRegressorCV
from sklearn_softattn._cv import START_MARGIN, neighbour_sharpness

CONTEXT = 2048
MIN_ROWS, MAX_ROWS = 2560, 5000
PEERS = ("RidgeCV", "MLPRegressor", "HistGradientBoosting")
LABELS = ("all-rows start", "context-sized start")


def starts(X):
    """The start over all of ``X``'s rows, and over a context-sized sample of them."""
    w = np.ones(len(X))
    rows = np.arange(len(X))
    if len(X) > CONTEXT:
        rows = np.sort(check_random_state(0).choice(len(X), CONTEXT, replace=False))
    return (neighbour_sharpness(X, w, START_MARGIN),
            neighbour_sharpness(X[rows], w[rows], START_MARGIN))


def more_sets(quick):
    """``{name: (X, y, X_test, y_test)}``: the other registry sets of more than
    MIN_ROWS rows, at most MAX_ROWS."""
    names = [name for name in eligible_names() if name not in REAL_SETS]
    sets = {}
    for name, (X, y) in load_available(names, max_rows=MAX_ROWS).items():
        if len(y) > MIN_ROWS:
            X, X_test, y, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
            sets[name] = X, y, X_test, y_test
        if quick and len(sets) == 2:
            break
    return sets


def fit_set(name, X, y, X_test, y_test):
    """One set's row: the two starts and each model's fit time and test R²."""
    row = {"set": name, "n": len(y), "d": X.shape[1]}
    row["start all"], row["start context"] = starts(np.asarray(X, dtype=float))
    ours = {label: make_pipeline(StandardScaler(), SoftmaxAttentionRegressorCV(
        attention_scales=[0.0, start], random_state=0))
        for label, start in zip(LABELS, (row["start all"], row["start context"]))}
    return fit_models(row, ours, X, y, X_test, y_test)


def fit_models(row, ours, X, y, X_test, y_test):
    """``row`` with the fit time and test R² of each of the models ``ours`` and of the
    PEERS, fitted one after the other and printed as they end."""
    for label, model in {**ours, **{k: v for k, v in peers().items() if k in PEERS}}.items():
        seconds, r2 = timed_fit(model, X, y, X_test, y_test)
        row[label] = {"seconds": seconds, "r2": r2}
        print(f"{row['set']}: {label} {seconds:.1f} s, R² {r2:.4f}", flush=True)
    return row


def verdict(rows, labels=LABELS, min_mean_gain=-0.002, max_time_ratio=1.2):
    """The rule's three numbers for ``labels[1]`` against ``labels[0]``, and whether it
    passes: a mean test R² gain of at least ``min_mean_gain``, no set more than 0.01
    below, and a median fit time ratio of at most ``max_time_ratio``."""
    gain = np.array([r[labels[1]]["r2"] - r[labels[0]]["r2"] for r in rows])
    ratio = np.array([r[labels[1]]["seconds"] / r[labels[0]]["seconds"] for r in rows])
    passed = bool(gain.mean() >= min_mean_gain and gain.min() >= -0.01
                  and np.median(ratio) <= max_time_ratio)
    return {"mean_gain": float(gain.mean()), "worst_gain": float(gain.min()),
            "median_time_ratio": float(np.median(ratio)), "adopt": passed}


def report(rows, labels, column, path=None):
    """Print ``rows`` as one table (set, n, d, ``column``, then seconds and test R² of
    each of ``labels``) and, with ``path``, write their numbers there as CSV.
    ``column``: ``(header, cell, csv headers, csv cells)``, the last three functions of
    a row but for the headers."""
    header, cell, csv_header, csv_cells = column
    print(markdown_table(
        ["set", "n", "d", header, *(f"{label} (s, R²)" for label in labels)],
        [[r["set"], r["n"], r["d"], cell(r),
          *(f"{r[label]['seconds']:.1f}, {r[label]['r2']:.4f}" for label in labels)]
         for r in rows]))
    if path is not None:
        with open(path, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["set", "n", "d", *csv_header,
                             *(f"{label} {v}" for label in labels for v in ("seconds", "r2"))])
            for r in rows:
                writer.writerow([r["set"], r["n"], r["d"], *csv_cells(r), *(
                    f"{r[label][v]:.4g}" for label in labels for v in ("seconds", "r2"))])


def fit_sets(doc, fit_set):
    """Parse the script's arguments (``doc``: its docstring) and return ``fit_set``'s
    rows over the sets (two with ``--quick``), in ``--jobs`` processes, and whether the
    run is quick."""
    parser = script_parser(doc)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    sets = {} if args.quick else data_sets(False)
    sets.update(more_sets(args.quick))
    return Parallel(n_jobs=args.jobs)(delayed(fit_set)(name, *data)
                                      for name, data in sets.items()), args.quick


def conclude(rows, result, versus, otherwise):
    """Print the rule's verdict (``versus``: what was compared; ``otherwise``: what stays
    if it fails) and the ``SUMMARY`` line."""
    print(f"{versus}: mean test R² {result['mean_gain']:+.4f}, worst set "
          f"{result['worst_gain']:+.4f}, median fit time ratio "
          f"{result['median_time_ratio']:.2f}: {'adopt' if result['adopt'] else otherwise}")
    print("SUMMARY " + json.dumps({"fits": rows, **result}))


def main():
    rows, quick = fit_sets(__doc__, fit_set)
    report(rows, [*LABELS, *PEERS],
           ("start: all rows, context", lambda r: f"{r['start all']:.3g}, {r['start context']:.3g}",
            ["start all", "start context"],
            lambda r: [f"{r['start all']:.4g}", f"{r['start context']:.4g}"]),
           None if quick else RESULTS / "start.csv")
    conclude(rows, verdict(rows), "context-sized start against all rows'",
             "keep the spacing of all the rows")


if __name__ == "__main__":
    main()
