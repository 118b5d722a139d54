"""The CV estimator's ``context_neighbors``: does attending, at predict time, to the k
nearest of every training row (where the folds score it higher) help past the context?

Run: OMP_NUM_THREADS=1 python benchmarks/bench_context_neighbors.py [--jobs 2] [--quick]

About 30 minutes with two jobs on 2 cores (``--quick``: two sets, for checking the
script itself). Prints one line per fit, one table, the rule's verdict and one line
``SUMMARY {...}`` (JSON); writes the table's numbers to
``results/context_neighbors.csv``.

The layer is fitted on a sampled context of ``max_context`` (2048) rows. Refitted
on every row of a set and asked to predict with the k nearest of all of them
(a post-hoc measurement, before this option existed, on 20 000 rows): ``diamonds``
0.973 -> 0.978, HI 0.377 -> 0.388, BudgetFood 0.417 -> 0.426 at k = 256, and
``make_friedman1`` 0.940 -> 0.54, whose learned attention is broad and whose value
term then moves with the rows attended. So the option is chosen by the folds.

Models: ``SoftmaxAttentionRegressorCV(random_state=0)`` with
``context_neighbors=None`` and with ``context_neighbors=256``; RidgeCV,
MLPRegressor(max_iter=2000) (targets scaled) and HistGradientBoostingRegressor
beside them; every model behind a StandardScaler. Data: those of
``bench_start.py`` (the sets with more training rows than the context, each
split as there).

The rule, written before the fits: ``context_neighbors=256`` becomes the
default if, over every set fitted,

1. its mean test R² is at least ``None``'s + 0.002;
2. no set's test R² is more than 0.01 below ``None``'s;
3. its median fit time is at most 1.3 times ``None``'s.

Otherwise ``None`` stays the default, and 256 an option.

The run made 256 the default: a mean test R² 0.0022 above ``None``'s, no set lower, a
median time ratio of 1.14; the folds chose it on 7 of the 35 sets.
"""

import bench_start
from _common import RESULTS
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_softattn import SoftmaxAttentionRegressorCV

K = 256
LABELS = ("context_neighbors=None", f"context_neighbors={K}")


def fit_set(name, X, y, X_test, y_test):
    """One set's row: each model's fit time and test R², and whether the refit
    attends to the nearest of every row."""
    row = {"set": name, "n": len(y), "d": X.shape[1]}
    ours = {label: make_pipeline(StandardScaler(), SoftmaxAttentionRegressorCV(
        context_neighbors=k, random_state=0)) for label, k in zip(LABELS, (None, K))}
    bench_start.fit_models(row, ours, X, y, X_test, y_test)
    row["chosen"] = ours[LABELS[1]][-1].context_neighbors_ is not None
    return row


def verdict(rows):
    """The rule's three numbers and whether ``context_neighbors=K`` passes it."""
    return bench_start.verdict(rows, LABELS, min_mean_gain=0.002, max_time_ratio=1.3)


def main():
    rows, quick = bench_start.fit_sets(__doc__, fit_set)
    bench_start.report(rows, [*LABELS, *bench_start.PEERS],
                       ("every row chosen", lambda r: "yes" if r["chosen"] else "no",
                        ["every row chosen"], lambda r: [int(r["chosen"])]),
                       None if quick else RESULTS / "context_neighbors.csv")
    bench_start.conclude(rows, verdict(rows), f"context_neighbors={K} against None", "keep None")


if __name__ == "__main__":
    main()
