"""Does local attention (``n_neighbors``) keep the dense layer's test R², and at which
neighbor count k and refresh shift?

Run: python benchmarks/bench_local.py [--k 16 32 64 128] [--shifts 0.03 0.1 0.3]
[--scales 3 30] [--sets friedman1-2000 friedman1-5000 PSID gpa2 Exam] [--large K]

About 20 minutes on 2 cores at the defaults (``--k 64 --shifts 0.1 --scales 3 --sets
friedman1-2000``: about 10 seconds, to check the script). Prints one table per set (test
R², fit time relative to the dense fit of the same set and scale in the same run,
neighbor searches, iterations), then the choice that the rule below makes and one line
``SUMMARY {...}`` (JSON). Shown on the in-context page of the user guide ("Local
attention"; output kept in ``benchmarks/results/local.txt``).

Data: ``make_friedman1(n, n_features=10, noise=1)`` for n = 2 000 and 5 000, 2 000 fresh
test rows (another seed); and the three largest real sets of the panel with at most
5 000 rows (PSID 4 855, gpa2 4 137, Exam 4 059 rows), a seeded 3:1 shuffled split.
Features standardized on the training rows. Model: ``SoftmaxAttentionRegressor`` with
target tokens, distance scores and L-BFGS (``max_iter=100``, ``random_state=0``) at each
attention scale, its context every training row (``max_context=None``): dense
(``n_neighbors=None``) and local for each k and refresh shift (``NEIGHBOR_REFRESH``, the
metric's change of direction beyond which training searches the neighbors anew).

The rule, fixed before the fits:

1. refresh shift: the largest among ``--shifts`` whose test R² is within 0.005 of the
   smallest shift's on every set and scale, at k = 64;
2. k: the smallest among ``--k`` whose test R² is within 0.005 of the dense layer's on
   every set and scale, at the chosen shift; if none is, the largest k, and the
   shortfall is printed.

(The dense fits run again in part 2, as the time reference of that part.)

``--large K``: instead, 20 000 training rows of ``make_friedman1`` (10 features, 5 000
fresh test rows) and of ggplot2's ``diamonds`` (a seeded 20 000 rows, 5 000 other rows to
test), ``SoftmaxAttentionRegressorCV`` as its in-context candidate of the time
(:data:`IN_CONTEXT`) with ``n_neighbors=K`` beside ``MLPRegressor(max_iter=2000)`` and
``HistGradientBoostingRegressor``, all behind a ``StandardScaler``: fit time and test R²
in one run (about 9 minutes at K = 128; shown in the benchmark log, output kept in
``benchmarks/results/local_large.txt``).
"""

import json
import time
import warnings

from _common import PAPER_LAYER, load_available, peers, script_parser, timed_fit
from sklearn.datasets import make_friedman1
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV, _neighbors

LAYER = dict(target_tokens=True, attention_scores="distance", solver="lbfgs", max_iter=100,
             max_context=None, random_state=0)
TOLERANCE = 0.005
# The CV estimator of --large, as it was measured: its earlier defaults (the paper's
# path) with target tokens, distance scores and L-BFGS with its count chosen.
IN_CONTEXT = {**PAPER_LAYER, "solver": "lbfgs", "max_iters": (5, 15, 40, 100),
              "target_tokens": True, "attention_scores": "distance"}


def data_sets(names):
    """``{name: (X_train, y_train, X_test, y_test)}``, features standardized."""
    sets = {}
    real = [name for name in names if not name.startswith("friedman1-")]
    for name in names:
        if name.startswith("friedman1-"):
            n = int(name.split("-")[1])
            X, y = make_friedman1(n, n_features=10, noise=1.0, random_state=0)
            X_test, y_test = make_friedman1(2000, n_features=10, noise=1.0, random_state=1)
            sets[name] = X, y, X_test, y_test
    for name, (X, y) in load_available(real, max_rows=5000).items():
        X, X_test, y, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
        sets[name] = X, y, X_test, y_test
    for name, (X, y, X_test, y_test) in sets.items():
        scaler = StandardScaler().fit(X)
        sets[name] = scaler.transform(X), y, scaler.transform(X_test), y_test
    return {name: sets[name] for name in names if name in sets}


def fit_once(X, y, X_test, y_test, scale, k=None, shift=None):
    """Test R², fit time and neighbor searches of one fit."""
    searches = []
    original = _neighbors.TrainingNeighbors._search

    def counted(self, L):
        searches.append(1)
        original(self, L)

    _neighbors.TrainingNeighbors._search = counted
    saved, _neighbors.NEIGHBOR_REFRESH = _neighbors.NEIGHBOR_REFRESH, (
        _neighbors.NEIGHBOR_REFRESH if shift is None else shift)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            start = time.perf_counter()
            model = SoftmaxAttentionRegressor(scale, n_neighbors=k, **LAYER).fit(X, y)
            seconds = time.perf_counter() - start
    finally:
        _neighbors.TrainingNeighbors._search = original
        _neighbors.NEIGHBOR_REFRESH = saved
    return dict(r2=float(model.score(X_test, y_test)), seconds=seconds,
                searches=len(searches), n_iter=model.n_iter_)


def run(sets, scales, grid):
    """Dense and the local ``grid`` of ``(k, shift)`` on every set and scale:
    ``{(set, scale, k, shift): result}`` (k, shift None: dense), printed as fitted."""
    results = {}
    for name, data in sets.items():
        print(f"\n{name}: {len(data[0])} training rows, {data[0].shape[1]} features")
        print("| scale | k | refresh | test R² | time / dense | searches | iterations |")
        print("|---|---|---|---|---|---|---|")
        for scale in scales:
            for k, shift in [(None, None)] + grid:
                r = results[name, scale, k, shift] = fit_once(*data, scale, k, shift)
                dense = results[name, scale, None, None]
                print(f"| {scale:g} | {k or 'dense'} | {shift or '-'} | {r['r2']:.4f} | "
                      f"{r['seconds'] / dense['seconds']:.2f} | {r['searches']} | "
                      f"{r['n_iter']} |", flush=True)
    return results


def choose_shift(results, cells, k, shifts):
    """The largest shift within TOLERANCE of the smallest one's R² in every cell."""
    def r2(cell, shift):
        return results[cell[0], cell[1], k, shift]["r2"]
    return max(s for s in shifts
               if all(r2(c, s) >= r2(c, min(shifts)) - TOLERANCE for c in cells))


def choose_k(results, cells, ks, shift):
    """The smallest k within TOLERANCE of the dense R² in every cell (else the largest),
    and each k's largest shortfall."""
    shortfall = {k: max(results[c[0], c[1], None, None]["r2"] - results[c[0], c[1], k, shift]["r2"]
                        for c in cells) for k in ks}
    fitting = [k for k in ks if shortfall[k] <= TOLERANCE]
    return (min(fitting) if fitting else max(ks)), shortfall


def large(k):
    """The ``--large`` comparison at 20 000 rows, printed as fitted."""
    X, y = make_friedman1(25_000, n_features=10, noise=1.0, random_state=0)
    sets = {"friedman1": (X[:20_000], y[:20_000], X[20_000:], y[20_000:])}
    X, y = load_available(["diamonds"], max_rows=25_000)["diamonds"]
    X, X_test, y, y_test = train_test_split(X, y, test_size=5_000, random_state=0)
    sets["diamonds"] = X, y, X_test, y_test
    models = {name: model for name, model in peers().items()
              if name in ("MLPRegressor", "HistGradientBoosting")}
    models[f"CV in-context, n_neighbors={k}"] = make_pipeline(
        StandardScaler(), SoftmaxAttentionRegressorCV(**IN_CONTEXT, n_neighbors=k,
                                                      random_state=0, n_jobs=2))
    print("| set | model | fit (s) | test R² |\n|---|---|---|---|")
    for name, (X, y, X_test, y_test) in sets.items():
        for label, model in models.items():
            seconds, r2 = timed_fit(model, X, y, X_test, y_test)
            print(f"| {name} | {label} | {seconds:.1f} | {r2:.4f} |", flush=True)


def main():
    parser = script_parser(__doc__)
    parser.add_argument("--k", type=int, nargs="+", default=[16, 32, 64, 128])
    parser.add_argument("--shifts", type=float, nargs="+", default=[0.03, 0.1, 0.3])
    parser.add_argument("--scales", type=float, nargs="+", default=[3.0, 30.0])
    parser.add_argument("--sets", nargs="+",
                        default=["friedman1-2000", "friedman1-5000", "PSID", "gpa2", "Exam"])
    parser.add_argument("--large", type=int, metavar="K")
    args = parser.parse_args()
    if args.large:
        return large(args.large)
    sets = data_sets(args.sets)
    cells = [(name, scale) for name in sets for scale in args.scales]
    k_ref = 64 if 64 in args.k else args.k[len(args.k) // 2]
    print(f"# 1. the refresh shift, at k = {k_ref}")
    results = run(sets, args.scales, [(k_ref, shift) for shift in args.shifts])
    shift = choose_shift(results, cells, k_ref, args.shifts)
    print(f"\n# 2. k, at the chosen refresh shift {shift:g}")
    more = run(sets, args.scales, [(k, shift) for k in args.k if k != k_ref])
    results.update({key: r for key, r in more.items() if key[2] is not None})
    k, shortfall = choose_k(results, cells, args.k, shift)
    print(f"\nchosen by the rule: refresh shift {shift:g}, k = {k}")
    print("largest shortfall against dense (test R²) per k: "
          + ", ".join(f"{kk}: {v:+.4f}" for kk, v in shortfall.items()))
    print("SUMMARY " + json.dumps({
        "shift": shift, "k": k, "shortfall": {str(kk): v for kk, v in shortfall.items()},
        "fits": [dict(set=n, scale=s, k=kk, shift=sh, **r)
                 for (n, s, kk, sh), r in results.items()]}))


if __name__ == "__main__":
    main()
