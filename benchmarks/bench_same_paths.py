"""How close must two shrinkages' linear limits predict on a fold for the cross-validated
estimator to fit their paths as one (``_path.SAME_PATH``) without losing test R²?

Run: python benchmarks/bench_same_paths.py [--tolerances 0.01 0.03] [--max-rows 4000]
[--part I N] [--only NAME ...] [--large]

About an hour on 2 cores in two parts (``OMP_NUM_THREADS=1`` in each, so that the
parts do not contend for the cores); ``--only engel --max-rows 300`` takes about 20
seconds, to check the script. Shown in the benchmark log of the user guide ("Paths fitted once";
output kept in ``benchmarks/results/same_paths.txt``, ``--large``'s in
``same_paths_large.txt``).

Every eligible set of the panel (``datasets.csv``), at most ``--max-rows`` rows (a
seeded sample), one seeded 3:1 shuffled split; features standardized on the
training rows (a ``StandardScaler`` in the pipeline). The model is
``SoftmaxAttentionRegressorCV(random_state=0)`` at its defaults (three shrinkages,
so three paths per fold), fitted with ``SAME_PATH`` set to each tolerance, and as
the reference with ``SAME_PATH = 0`` (every path fitted, unless two give equal
predictions). A fit in which no path of any fold was found one with another is the
reference's fit, step for step, so the reference is fitted only on the sets where
some path was; elsewhere the difference is 0 by construction and the time ratio 1.
``--part I N`` fits every N-th set from the I-th (to run in N processes); results
are cached per set and tolerance (in ``~/.cache/sklearn_softattn/same_paths``), and
a run over all parts prints the table and the choice.

The rule, fixed before the fits:

1. a tolerance passes if its test R² is within 0.005 of the reference's on every
   set, and its mean test R² over all sets is at least the reference's - 0.001;
2. the chosen tolerance is the largest that passes; if none does, 0 (every path
   fitted, as before).

Printed: per set, its rows, the paths fitted per fold (out of three) and the test
R² difference and fit-time ratio to the reference for each tolerance; then the
choice, and one line ``SUMMARY {...}`` (JSON).

``--large``: instead, the default fit at 20 000 training rows of ``make_friedman1``
(10 features, noise 1, 5 000 fresh test rows) and of ggplot2's ``diamonds`` (a
seeded 20 000 rows, 5 000 other rows to test), with ``SAME_PATH`` as the package
sets it and at 0, beside ``MLPRegressor(max_iter=2000)`` and
``HistGradientBoostingRegressor``, all behind a ``StandardScaler``: fit time and
test R² in one run (about 15 minutes).
"""

import json
import time
import warnings

import numpy as np
from _common import cached, eligible_names, load_available, peers, script_parser
from sklearn.datasets import make_friedman1
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_softattn import SoftmaxAttentionRegressorCV, _path

R2_TOLERANCE, MEAN_TOLERANCE = 0.005, 0.001


def fit_once(X, y, X_test, y_test, tolerance):
    """Test R², fit time and the mean paths fitted per fold of one default fit."""
    fitted, original, default = [], _path.same_paths, _path.SAME_PATH

    def counted(*args):
        fitted_as = original(*args)
        fitted.append((len(set(fitted_as)), len(fitted_as)))
        return fitted_as

    _path.same_paths, _path.SAME_PATH = counted, tolerance
    try:
        model = make_pipeline(StandardScaler(), SoftmaxAttentionRegressorCV(random_state=0))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            start = time.perf_counter()
            model.fit(X, y)
            seconds = time.perf_counter() - start
    finally:
        _path.same_paths, _path.SAME_PATH = original, default
    return dict(r2=float(model.score(X_test, y_test)), seconds=seconds,
                paths=float(np.mean([n for n, _ in fitted])),
                merged=any(n < total for n, total in fitted))


def set_results(name, X, y, tolerances, max_rows):
    """``{tolerance: fit}`` for one set, the reference (0) only where some path merged."""
    X, X_test, y, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
    out = {}
    for tolerance in tolerances:
        out[tolerance] = cached("same_paths", f"{name}-{max_rows}-{tolerance}",
                                lambda: fit_once(X, y, X_test, y_test, tolerance))
    if any(fit["merged"] for fit in out.values()):
        out[0.0] = cached("same_paths", f"{name}-{max_rows}-0.0",
                          lambda: fit_once(X, y, X_test, y_test, 0.0))
    else:  # no path merged: each fit was the reference's, step for step
        out[0.0] = out[tolerances[0]]
    return out


def choose(results, tolerances):
    """The largest passing tolerance (else 0), and each one's worst and mean difference."""
    diffs = {t: np.array([r[t]["r2"] - r[0.0]["r2"] for r in results.values()])
             for t in tolerances}
    summary = {t: dict(worst=float(d.min()), mean=float(d.mean())) for t, d in diffs.items()}
    passing = [t for t, d in diffs.items()
               if np.all(np.abs(d) <= R2_TOLERANCE) and d.mean() >= -MEAN_TOLERANCE]
    return max(passing, default=0.0), summary


def large():
    """The ``--large`` comparison at 20 000 rows, printed as fitted."""
    X, y = make_friedman1(25_000, n_features=10, noise=1.0, random_state=0)
    sets = {"friedman1": (X[:20_000], y[:20_000], X[20_000:], y[20_000:])}
    X, y = load_available(["diamonds"], max_rows=25_000)["diamonds"]
    X, X_test, y, y_test = train_test_split(X, y, test_size=5_000, random_state=0)
    sets["diamonds"] = X, y, X_test, y_test
    print("| set | model | fit (s) | test R² | paths per fold |\n|---|---|---|---|---|")
    for name, (X, y, X_test, y_test) in sets.items():
        for label, model in peers().items():
            if label in ("MLPRegressor", "HistGradientBoosting"):
                start = time.perf_counter()
                model.fit(X, y)
                print(f"| {name} | {label} | {time.perf_counter() - start:.1f} | "
                      f"{model.score(X_test, y_test):.4f} | |", flush=True)
        for tolerance in (_path.SAME_PATH, 0.0):
            fit = fit_once(X, y, X_test, y_test, tolerance)
            print(f"| {name} | SoftmaxAttentionRegressorCV, SAME_PATH={tolerance} | "
                  f"{fit['seconds']:.1f} | {fit['r2']:.4f} | {fit['paths']:.1f} |", flush=True)


def main():
    parser = script_parser(__doc__)
    parser.add_argument("--tolerances", type=float, nargs="+", default=[0.01, 0.03])
    parser.add_argument("--max-rows", type=int, default=4000)
    parser.add_argument("--part", type=int, nargs=2, default=[0, 1], metavar=("I", "N"))
    parser.add_argument("--only", nargs="+")
    parser.add_argument("--large", action="store_true")
    args = parser.parse_args()
    if args.large:
        return large()
    names = args.only or eligible_names()
    part, parts = args.part
    names = names[part::parts]
    # A first, small fit, so that no set's times include the imports' and caches' warm-up.
    X, y = next(iter(load_available(names[:1], max_rows=200).values()))
    fit_once(X, y, X, y, 0.0)
    results = {}
    print("| set | rows | " + " | ".join(
        f"{t}: paths, ΔR², time ratio" for t in args.tolerances) + " |")
    print("|---|---|" + "---|" * len(args.tolerances))
    for name, (X, y) in load_available(names, max_rows=args.max_rows).items():
        results[name] = fits = set_results(name, X, y, args.tolerances, args.max_rows)
        cells = [f"{fits[t]['paths']:.1f}, {fits[t]['r2'] - fits[0.0]['r2']:+.4f}, "
                 f"{fits[t]['seconds'] / fits[0.0]['seconds'] if fits[t]['merged'] else 1:.2f}"
                 for t in args.tolerances]
        print(f"| {name} | {len(y)} | " + " | ".join(cells) + " |", flush=True)
    if parts > 1:
        return
    chosen, summary = choose(results, args.tolerances)
    print(f"reference mean test R² {np.mean([r[0.0]['r2'] for r in results.values()]):.4f}; "
          + "; ".join(f"tolerance {t}: worst ΔR² {s['worst']:+.4f}, mean {s['mean']:+.5f}"
                      for t, s in summary.items()))
    print(f"chosen SAME_PATH: {chosen}")
    print("SUMMARY " + json.dumps(dict(chosen=chosen, sets=len(results),
                                       summary={str(t): s for t, s in summary.items()})))


if __name__ == "__main__":
    main()
