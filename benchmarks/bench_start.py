"""With more training rows than the context, should the CV estimator's path start at the
spacing of a context-sized sample of the rows, rather than at the spacing of all of them?

Run: OMP_NUM_THREADS=1 python benchmarks/bench_start.py [--jobs 2] [--quick]

About 25 minutes with two jobs on 2 cores (``--quick``: two sets, about a minute, for
checking the script itself). Prints one line per fit, one table, the rule's verdict and
one line ``SUMMARY {...}`` (JSON); writes the table's numbers to ``results/start.csv``.
Shown on the scale page of the user guide ("The cross-validated estimator's context");
every set's row is in the benchmark log.

With distance scores, ``attention_scales="auto"`` starts the path at the sharpness at
which a row's nearest distinct neighbor, at the median such distance, scores 0.5 below
the row's own position: a smoother over a few neighbors. That spacing was measured
over all the training rows, while each fit attends over a seeded sample of
``max_context`` (2048) of them. In ``d`` directions the spacing of n rows shrinks about
as ``n^(-2/d)``, so at 20 000 rows the start was a smoother over a fraction of a
context row. The candidate measures the spacing on a sample of ``max_context`` rows,
drawn as the fit's own context is (``random_state=0``). Both are given to
``SoftmaxAttentionRegressorCV`` (its defaults, ``random_state=0``) as explicit
``attention_scales=[0, start]``, which is what ``"auto"`` computes; with at most 2048
training rows the two starts are the same, so only larger sets are fitted.

Data: ``_common.large_sets`` (those of ``bench_validation.py``: ``make_friedman1`` at
20 000, 50 000 and 100 000 rows with 20 000 fresh test rows; the eight eligible real
sets of at least 20 000 complete rows, a seeded 25 000 of them, 20% held out), and
``_common.more_sets`` (every other eligible set of the registry with more than 2 560
rows, so that its 80% exceeds the context, at most 5 000 of them, seeded, 20% held out
by ``train_test_split(..., random_state=0)``). Every model behind a StandardScaler.
RidgeCV, MLPRegressor(max_iter=2000) (targets scaled) and HistGradientBoostingRegressor
are fitted beside them and reported. Each job fits its sets one model after the other;
times are compared within a set.

The rule, written before the fits: the context-sized start becomes ``"auto"``'s if,
over every set fitted,

1. its mean test R² is at least the all-rows start's - 0.002;
2. no set's test R² is more than 0.01 below the all-rows start's;
3. its median fit time is at most 1.2 times the all-rows start's.

Otherwise the spacing of all the rows stays.
"""

import numpy as np
from _common import (
    RESULTS,
    beyond_context,
    compare,
    conclude,
    fit_models,
    fit_sets,
    report,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils import check_random_state

from sklearn_softattn import SoftmaxAttentionRegressorCV
from sklearn_softattn._grid import START_MARGIN, neighbor_sharpness

CONTEXT = 2048
PEERS = ("RidgeCV", "MLPRegressor", "HistGradientBoosting")
LABELS = ("all-rows start", "context-sized start")


def starts(X):
    """The start over all of ``X``'s rows, and over a context-sized sample of them."""
    w = np.ones(len(X))
    rows = np.arange(len(X))
    if len(X) > CONTEXT:
        rows = np.sort(check_random_state(0).choice(len(X), CONTEXT, replace=False))
    return (neighbor_sharpness(X, w, START_MARGIN),
            neighbor_sharpness(X[rows], w[rows], START_MARGIN))


def fit_set(name, X, y, X_test, y_test):
    """One set's row: the two starts and each model's fit time and test R²."""
    row = {"set": name, "n": len(y), "d": X.shape[1]}
    row["start all"], row["start context"] = starts(np.asarray(X, dtype=float))
    ours = {label: make_pipeline(StandardScaler(), SoftmaxAttentionRegressorCV(
        attention_scales=[0.0, start], random_state=0))
        for label, start in zip(LABELS, (row["start all"], row["start context"]))}
    return fit_models(row, ours, PEERS, X, y, X_test, y_test)


def verdict(rows):
    """The rule's three numbers and whether the context-sized start passes it."""
    return compare(rows, LABELS, min_mean_gain=-0.002, max_time_ratio=1.2)


def main():
    rows, quick = fit_sets(__doc__, fit_set, beyond_context)
    report(rows, [*LABELS, *PEERS],
           ("start: all rows, context", lambda r: f"{r['start all']:.3g}, {r['start context']:.3g}",
            ["start all", "start context"],
            lambda r: [f"{r['start all']:.4g}", f"{r['start context']:.4g}"]),
           None if quick else RESULTS / "start.csv")
    conclude(rows, verdict(rows), "context-sized start against all rows'",
             "keep the spacing of all the rows")


if __name__ == "__main__":
    main()
