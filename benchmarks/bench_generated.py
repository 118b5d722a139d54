"""How does the CV estimator compare with scikit-learn's regressors on generated data?

    pip install ".[benchmarks]"
    python benchmarks/bench_generated.py            # about 5 minutes on 2 cores
    python benchmarks/bench_generated.py --n 20000  # over an hour (MLKR is O(n²))
    python benchmarks/bench_generated.py --n 20000 --features-only --model "attention CV" \
        --model "attention CV, features only" --model "MLPRegressor, unscaled targets" \
        --model HistGradientBoosting --model RidgeCV   # about 8 minutes
    OMP_NUM_THREADS=1 python benchmarks/bench_generated.py --paper-layer
    python benchmarks/bench_generated.py --attention-layer   # about 5 minutes
    python benchmarks/bench_generated.py --linear-cost       # about 2 minutes
    OMP_NUM_THREADS=1 python benchmarks/bench_generated.py --skip-start   # about 2 minutes

``make_friedman1``, ``make_friedman2`` and ``make_friedman3`` with scikit-learn's default
noise: ``--n`` training rows (default 2000, seed 0) and ``--test-rows`` fresh test rows
(default 2000, seed 1); each model behind a StandardScaler (the peers of
``_common.peers`` and this package's CV estimator at its defaults; with
``--paper-layer`` also as ``_common.PAPER_LAYER``, its earlier defaults: the paper's
layer with gd, which takes 14 to 120 times the MLP's fit time here, so several minutes
more), fitted once, one after the other in one process. Prints the test R² and the fit
time relative to MLPRegressor's in the same run; nothing is cached or written.

``--attention-layer``: data drawn from the paper's layer
(:func:`sklearn_softattn.datasets.make_attention_regression`, 8 features, 600 training
and 2000 test rows, seeds 0 to 7): the CV estimator's test R² over the best linear
model's (RidgeCV or LinearRegression), per seed and on average. ``--linear-cost``: where
the linear model is right, ``make_regression(12000, 20, noise=10)`` with 10 000 training
rows, each fit on one thread: the CV estimator's CPU time over
``MLPRegressor(max_iter=2000)``'s, at its defaults (whose first fold screens the others
from 1 000 rows on), with ``score_features="features"``, with
``first_fold_screening=False`` and with ``screening_stop=True`` (asked at the counts of
``max_iters`` only), ``"first_iteration"`` and ``"far_behind"``, and RidgeCV's.
``--skip-start``: the skip term's fit (``linear_skip=True``, target tokens, distance
scores, 40 L-BFGS iterations) on 20 000 rows of ``make_friedman2``, at the sharpness the CV
estimator's automatic grid starts at there, from three context samples (seeds 0 to 2):
test R², iterations and final training loss from the spectral start (local values) and
from the linear limit (the values at zero, the start before it). Quoted by the in-context
page of the user guide. ``--features-only``: also the CV estimator with
``score_features="features"`` ("attention CV, features only"), its default before the folds
chose what the scores read from 2 000 rows on.

Shown on the selection page of the user guide ("On Friedman's data"; the output of the
last command is kept in ``benchmarks/results/generated.txt``) and quoted by the
in-context page and the README.
"""

import time
import warnings

import numpy as np
from sklearn.datasets import make_friedman1, make_friedman2, make_friedman3, make_regression
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import r2_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from _common import markdown_table, package_models, peers, script_parser, selected
from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV
from sklearn_softattn._layer import (
    fitted_layer,
    initial_params,
    layer_predict,
    skip_alone,
    solve,
)
from sklearn_softattn._problem import build_problem
from sklearn_softattn.datasets import make_attention_regression

GENERATORS = {"make_friedman1": make_friedman1, "make_friedman2": make_friedman2,
              "make_friedman3": make_friedman3}


def features_only_models():
    """The CV estimator with the scores reading the features alone (``--features-only``),
    behind a StandardScaler: ``{label: model}``."""
    return {"attention CV, features only": make_pipeline(
        StandardScaler(), SoftmaxAttentionRegressorCV(score_features="features", random_state=0))}


def measure(n, paper_layer=False, test_rows=2000, labels=None, features_only=False):
    """``{set: {model: (test R², fit time)}}``; with ``labels``, those models and the
    time reference, MLPRegressor, only."""
    features = features_only_models() if features_only else {}
    models = selected({**peers(), **package_models(paper_layer), **features}, labels,
                      also=["MLPRegressor"])
    results = {}
    for name, make in GENERATORS.items():
        X, y = make(n_samples=n, random_state=0)
        X_test, y_test = make(n_samples=test_rows, random_state=1)
        results[name] = {}
        for label, model in models.items():
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


def attention_layer_gains(seeds=range(8), n=600, test_rows=2000):
    """Per seed, the CV estimator's test R² less the best linear model's, on data drawn
    from the paper's layer."""
    models = peers()
    linear = [models["RidgeCV"], models["LinearRegression"]]
    gains = []
    for seed in seeds:
        X, y = make_attention_regression(n + test_rows, 8, random_state=seed)
        (X, X_test), (y, y_test) = np.split(X, [n]), np.split(y, [n])
        best_linear = max(model.fit(X, y).score(X_test, y_test) for model in linear)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model = package_models()["attention CV"].fit(X, y)
        gains.append(model.score(X_test, y_test) - best_linear)
    return gains


def linear_cost():
    """``{model: (test R², CPU time)}`` on one thread where the target is linear."""
    X, y = make_regression(n_samples=12_000, n_features=20, noise=10, random_state=0)
    unscreened = make_pipeline(StandardScaler(), SoftmaxAttentionRegressorCV(
        first_fold_screening=False, random_state=0))
    stops = {stop: make_pipeline(StandardScaler(), SoftmaxAttentionRegressorCV(
        screening_stop=stop, random_state=0)) for stop in (True, "first_iteration", "far_behind")}
    models = {"RidgeCV": peers()["RidgeCV"], **package_models(), **features_only_models(),
              "attention CV, first_fold_screening=False": unscreened,
              **{f"attention CV, screening_stop={stop!r}": model for stop, model in stops.items()},
              "MLPRegressor(max_iter=2000)": peers()["MLPRegressor, unscaled targets"]}
    results = {}
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for label, model in models.items():
            start = time.process_time()
            model.fit(X[:10_000], y[:10_000])
            results[label] = (model.score(X[10_000:], y[10_000:]),
                              time.process_time() - start)
    return results


def skip_starts(n=20_000, seeds=range(3), max_iter=40, test_rows=2000):
    """``{start: [(test R², iterations, final training loss) per seed]}``: the skip
    term's fit on ``make_friedman2`` from its spectral start and from the linear limit,
    each seed drawing the context."""
    X, y = make_friedman2(n_samples=n, random_state=0)
    X_test, y_test = make_friedman2(n_samples=test_rows, random_state=1)
    scaler = StandardScaler().fit(X)
    X, X_test = scaler.transform(X), scaler.transform(X_test)
    layer = dict(linear_skip=True, target_tokens=True, attention_scores="distance",
                 solver="lbfgs", renormalize=False, balance_strength=0.0, shrinkage="auto")
    # The automatic grid's first positive scale (whose paths the CV estimator's defaults
    # fit as ``layer``; one iteration is enough to find it).
    cv = SoftmaxAttentionRegressorCV(linear_skip=True, score_features="features",
                                     max_iters=(1,), random_state=0)
    scale = float(cv.fit(X, y).attention_scales_[1])
    params = SoftmaxAttentionRegressor(attention_scale=scale, max_iter=max_iter,
                                       **layer).get_params()
    results = {"spectral start (local values)": [], "linear limit (values at zero)": []}
    for seed in seeds:
        for start in results:
            rng = np.random.RandomState(seed)
            problem = build_problem(X, y[:, None], np.ones(n), params, rng)
            K, V = initial_params(problem, params, rng)
            if start.startswith("linear"):
                V = skip_alone(problem, V)
            curve = []
            with threadpool_limits(1), warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                K, V, progress, _, _ = solve(problem, K, V, params, rng, max_iter=max_iter,
                                             loss_curve=curve)
            fitted = fitted_layer(K, V, problem, 1)
            r2 = r2_score(y_test, layer_predict(fitted, X_test, "radius"))
            results[start].append((r2, progress.n_iter, curve[-1]))
    return scale, results


def main(argv=None):
    parser = script_parser(__doc__)
    parser.add_argument("--n", type=int, default=2000, help="training rows")
    parser.add_argument("--test-rows", type=int, default=2000, help="fresh test rows")
    parser.add_argument("--paper-layer", action="store_true",
                        help="also the CV estimator's earlier defaults: the paper's layer, gd")
    parser.add_argument("--attention-layer", action="store_true",
                        help="the gain over linear models on data drawn from the paper's layer")
    parser.add_argument("--linear-cost", action="store_true",
                        help="the fit time where a linear model is right")
    parser.add_argument("--skip-start", action="store_true",
                        help="the skip term's fit from its spectral start and the linear limit")
    parser.add_argument("--features-only", action="store_true",
                        help="also the CV estimator with score_features='features'")
    parser.add_argument("--model", action="append",
                        help="fit these models only, besides MLPRegressor (repeatable)")
    args = parser.parse_args(argv)
    if args.attention_layer:
        gains = attention_layer_gains()
        print("Data drawn from the paper's layer (600 training rows, 8 features): the CV "
              "estimator's test R² over the best linear model's")
        print("per seed: " + ", ".join(f"{gain:+.3f}" for gain in gains))
        print(f"mean: {np.mean(gains):+.3f}")
    elif args.skip_start:
        scale, results = skip_starts()
        print(f"make_friedman2, 20 000 training rows, 2 000 test rows; the skip term at "
              f"attention_scale={scale:.3g}, 40 L-BFGS iterations, one thread\n")
        print(markdown_table(
            ["start", "test R² (seeds 0, 1, 2)", "iterations", "final training loss"],
            [[start, ", ".join(f"{r2:.4f}" for r2, _, _ in runs),
              ", ".join(str(it) for _, it, _ in runs),
              ", ".join(f"{loss:.4g}" for _, _, loss in runs)]
             for start, runs in results.items()]))
    elif args.linear_cost:
        results = linear_cost()
        reference = results["MLPRegressor(max_iter=2000)"][1]
        print("make_regression(12000, 20, noise=10), 10 000 training rows, one thread\n")
        print(markdown_table(["model", "test R²", "CPU time", "/ MLPRegressor's"],
                             [[label, f"{r2:.4f}", f"{t:.2f} s", f"{t / reference:.2g}"]
                              for label, (r2, t) in results.items()]))
    else:
        print(f"Test R² at n = {args.n}, {args.test_rows} test rows "
              "(fit time / MLPRegressor's)\n")
        print(table(measure(args.n, args.paper_layer, args.test_rows, args.model,
                            args.features_only)))


if __name__ == "__main__":
    main()
