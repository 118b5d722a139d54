"""Above 10 000 rows, does the CV estimator lose anything by validating on one shuffled
hold-out of 10% of the rows (``cv="auto"``) instead of five shuffled folds (``cv=5``),
and how much time does it save?

Run: python benchmarks/bench_validation.py [--quick] [--jobs N]

About 15 minutes on 2 cores (``--quick``: friedman1 at 12 000 rows only, about 2
minutes, for checking the script itself). Prints one line per fit, one table, the rule's
verdict and one line ``SUMMARY {...}`` (JSON); writes the table's numbers to
``results/validation.csv``. Shown on the selection page of the user guide (the default
``cv="auto"``); the first run's table is in the benchmark log.

Five folds fit every point of the path five times on 80% of the rows; a hold-out fits
it once on 90%, and at these sizes its 10% (1 000 rows and more) is a validation set
as large as a fold of 5 000 rows. ``HistGradientBoostingRegressor`` and
``MLPRegressor`` validate on such a hold-out (the first by default above 10 000 rows);
the threshold and the fraction are theirs, not tuned here. On one split there are no
fold-to-fold differences to take standard errors from, so the point of the best
validation score is chosen there ("2se" needs folds). The panel (at most 1 500 rows a
set) is not affected.

Data (``_common.large_sets``): ``make_friedman1(n, n_features=10, noise=1.0)`` for
n = 20 000, 50 000 and 100 000 training rows, 20 000 fresh test rows (another seed);
and every eligible set of the registry with at least 20 000 complete rows (CPS1988,
CPSSW8, BudgetFood, HI, diamonds, gss_wages, census2000, labsup): a seeded 25 000 of
them (all, where fewer), 20% held out for the test by ``train_test_split(...,
random_state=0)``. Every model behind a ``StandardScaler`` (the MLP's targets scaled
too), ``random_state=0``, its threads as by default, fitted one after the other in
each job; fit times are compared within a set.

The rule, written before the fits: ``cv="auto"`` becomes the default if, over these
eleven fits,

1. its mean test R² is at least the five folds' - 0.002;
2. no set's test R² is more than 0.01 below the five folds';
3. its median fit time is at most 0.6 of the five folds'.

Otherwise ``cv=5`` stays. RidgeCV, MLPRegressor(max_iter=2000) (its targets scaled too,
and as a user would first try it, on the targets as they are) and
HistGradientBoostingRegressor are fitted beside them and reported.
"""

from _common import RESULTS, compare, conclude, fit_models, fit_sets, large_sets, report
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_softattn import SoftmaxAttentionRegressorCV

LABELS = ("cv=5", "cv='auto'")
PEERS = ("RidgeCV", "MLPRegressor", "MLPRegressor, unscaled targets", "HistGradientBoosting")


def fit_set(name, X, y, X_test, y_test):
    """One set's row: each model's fit time and test R²."""
    ours = {label: make_pipeline(StandardScaler(), SoftmaxAttentionRegressorCV(
        cv=cv, random_state=0)) for label, cv in zip(LABELS, (5, "auto"))}
    return fit_models({"set": name, "n": len(y), "d": X.shape[1]}, ours, PEERS,
                      X, y, X_test, y_test)


def verdict(rows):
    """The rule's three numbers and whether ``cv="auto"`` passes it."""
    return compare(rows, LABELS, min_mean_gain=-0.002, max_time_ratio=0.6)


def main():
    rows, quick = fit_sets(__doc__, fit_set, large_sets)
    report(rows, [*LABELS, *PEERS], path=None if quick else RESULTS / "validation.csv")
    conclude(rows, verdict(rows), "cv='auto' against cv=5", "keep cv=5")


if __name__ == "__main__":
    main()
