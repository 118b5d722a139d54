"""How the CV estimator compares with scikit-learn's regressors on Friedman's data.

    pip install ".[benchmarks]"
    python benchmarks/bench_generated.py            # about 5 minutes on 2 cores
    python benchmarks/bench_generated.py --n 500    # a quicker look
    python benchmarks/bench_generated.py --paper-layer  # and the earlier defaults
    python benchmarks/bench_generated.py --in-context   # and the in-context layer
    python benchmarks/bench_generated.py --round-choice # the peers and the fifth round's
                                                        # choice only (about 1 minute)

``make_friedman1``, ``make_friedman2`` and ``make_friedman3`` with scikit-learn's default
noise: ``--n`` training rows (default 2000, seed 0) and as many fresh test rows (seed 1);
each model behind a StandardScaler (the peers of ``_common.peers``, and this package's
CV estimator with its defaults, with ``--paper-layer`` also as ``_common.PAPER_LAYER`` (the
earlier defaults: the paper's layer, gd), and with ``--in-context`` as ``_common.IN_CONTEXT``:
target tokens, distance scores, L-BFGS; with ``--round-choice`` the peers and
``_common.ROUND_CHOICE`` only, the candidate that ``bench_panel.py --candidates --round 5``
chose), fitted once, one after the other in one process. Prints
the test R² and the fit time relative to MLPRegressor's in the same run; nothing is
cached or written.
"""

import time
import warnings

from sklearn.datasets import make_friedman1, make_friedman2, make_friedman3
from sklearn.exceptions import ConvergenceWarning

from _common import markdown_table, package_models, peers, script_parser

GENERATORS = {"make_friedman1": make_friedman1, "make_friedman2": make_friedman2,
              "make_friedman3": make_friedman3}


def measure(n, in_context=False, round_choice=False, paper_layer=False):
    """``{set: {model: (test R², fit time)}}``."""
    results = {}
    for name, make in GENERATORS.items():
        X, y = make(n_samples=n, random_state=0)
        X_test, y_test = make(n_samples=n, random_state=1)
        results[name] = {}
        models = package_models(in_context, defaults=not round_choice,
                                round_choice=round_choice, paper_layer=paper_layer)
        for label, model in {**peers(), **models}.items():
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
    parser.add_argument("--in-context", action="store_true",
                        help="also the CV estimator with target tokens and distance scores")
    parser.add_argument("--round-choice", action="store_true",
                        help="the peers and the fifth round's choice, without the defaults")
    args = parser.parse_args(argv)
    print(f"Test R² at n = {args.n} (fit time / MLPRegressor's)\n")
    print(table(measure(args.n, args.in_context, args.round_choice, args.paper_layer)))


if __name__ == "__main__":
    main()
