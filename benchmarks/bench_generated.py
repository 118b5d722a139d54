"""How does the CV estimator compare with scikit-learn's regressors on Friedman's three
generated data sets?

    pip install ".[benchmarks]"
    python benchmarks/bench_generated.py            # about 5 minutes on 2 cores
    python benchmarks/bench_generated.py --n 500    # a quicker look
    OMP_NUM_THREADS=1 python benchmarks/bench_generated.py --paper-layer

``make_friedman1``, ``make_friedman2`` and ``make_friedman3`` with scikit-learn's default
noise: ``--n`` training rows (default 2000, seed 0) and as many fresh test rows (seed 1);
each model behind a StandardScaler (the peers of ``_common.peers`` and this package's CV
estimator at its defaults; with ``--paper-layer`` also as ``_common.PAPER_LAYER``, its
earlier defaults: the paper's layer with gd, which takes 14 to 120 times the MLP's fit
time here, so several minutes more), fitted once, one after the other in one process.
Prints the test R² and the fit time relative to MLPRegressor's in the same run; nothing
is cached or written.

Shown on the selection page of the user guide ("On Friedman's data"; the output of the
last command is kept in ``benchmarks/results/generated.txt``) and quoted by the
in-context page and the README.
"""

import time
import warnings

from sklearn.datasets import make_friedman1, make_friedman2, make_friedman3
from sklearn.exceptions import ConvergenceWarning

from _common import markdown_table, package_models, peers, script_parser

GENERATORS = {"make_friedman1": make_friedman1, "make_friedman2": make_friedman2,
              "make_friedman3": make_friedman3}


def measure(n, paper_layer=False):
    """``{set: {model: (test R², fit time)}}``."""
    results = {}
    for name, make in GENERATORS.items():
        X, y = make(n_samples=n, random_state=0)
        X_test, y_test = make(n_samples=n, random_state=1)
        results[name] = {}
        for label, model in {**peers(), **package_models(paper_layer)}.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                start = time.perf_counter()
                model.fit(X, y)
                elapsed = time.perf_counter() - start
            results[name][label] = (model.score(X_test, y_test), elapsed)
    return results


def table(results):
    labels = list(next(iter(results.values())))
    rows = [[name, *(f"{r2:.3f} ({t / by_model['MLPRegressor'][1]:.2g}×)"
                     for r2, t in by_model.values())]
            for name, by_model in results.items()]
    return markdown_table(["data set", *labels], rows)


def main(argv=None):
    parser = script_parser(__doc__)
    parser.add_argument("--n", type=int, default=2000, help="training (and test) rows")
    parser.add_argument("--paper-layer", action="store_true",
                        help="also the CV estimator's earlier defaults: the paper's layer, gd")
    args = parser.parse_args(argv)
    print(f"Test R² at n = {args.n} (fit time / MLPRegressor's)\n")
    print(table(measure(args.n, args.paper_layer)))


if __name__ == "__main__":
    main()
