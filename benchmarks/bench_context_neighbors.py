"""Does a CV estimator fitted on a sampled context predict better when it attends to the
k nearest of every training row (``context_neighbors``, where its folds score that
higher), and at what cost?

Run: OMP_NUM_THREADS=1 python benchmarks/bench_context_neighbors.py [--jobs 2] [--quick]

About 30 minutes with two jobs on 2 cores (``--quick``: two sets, about a minute, for
checking the script itself). Prints one line per fit, one table, the rule's verdict and
one line ``SUMMARY {...}`` (JSON); writes the table's numbers to
``results/context_neighbors.csv``. Shown on the in-context page of the user guide
("Every training row at predict time"); every set's row is in the benchmark log.

The layer is fitted on a sampled context of ``max_context`` (2048) rows; with
``context_neighbors`` its refit may predict from the k nearest of all of them, in the
learned metric, where the folds score that higher. Models:
``SoftmaxAttentionRegressorCV(random_state=0)`` with ``context_neighbors=None`` and with
``context_neighbors=256``; RidgeCV, MLPRegressor(max_iter=2000) (targets scaled) and
HistGradientBoostingRegressor beside them; every model behind a StandardScaler. Data:
those of ``bench_start.py`` (``_common.beyond_context``: the sets
with more training rows than the context, each split as there).

The rule, written before the fits: ``context_neighbors=256`` becomes the default if,
over every set fitted,

1. its mean test R² is at least ``None``'s + 0.002;
2. no set's test R² is more than 0.01 below ``None``'s;
3. its median fit time is at most 1.3 times ``None``'s.

Otherwise ``None`` stays the default, and 256 an option.
"""

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

from sklearn_softattn import SoftmaxAttentionRegressorCV

K = 256
LABELS = ("context_neighbors=None", f"context_neighbors={K}")
PEERS = ("RidgeCV", "MLPRegressor", "HistGradientBoosting")


def fit_set(name, X, y, X_test, y_test):
    """One set's row: each model's fit time and test R², and whether the refit
    attends to the nearest of every row."""
    row = {"set": name, "n": len(y), "d": X.shape[1]}
    ours = {label: make_pipeline(StandardScaler(), SoftmaxAttentionRegressorCV(
        context_neighbors=k, random_state=0)) for label, k in zip(LABELS, (None, K))}
    fit_models(row, ours, PEERS, X, y, X_test, y_test)
    row["chosen"] = ours[LABELS[1]][-1].best_params_["context_neighbors"] is not None
    return row


def verdict(rows):
    """The rule's three numbers and whether ``context_neighbors=K`` passes it."""
    return compare(rows, LABELS, min_mean_gain=0.002, max_time_ratio=1.3)


def main():
    rows, quick = fit_sets(__doc__, fit_set, beyond_context)
    report(rows, [*LABELS, *PEERS],
           ("every row chosen", lambda r: "yes" if r["chosen"] else "no",
            ["every row chosen"], lambda r: [int(r["chosen"])]),
           None if quick else RESULTS / "context_neighbors.csv")
    conclude(rows, verdict(rows), f"context_neighbors={K} against None", "keep None")


if __name__ == "__main__":
    main()
