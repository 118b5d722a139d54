"""How do the paper's three claims depend on the readings the paper leaves open?

Run: python benchmarks/bench_paper_sensitivity.py   (about 15 minutes on 2 idle cores;
progress, with an estimate of the time left, goes to stderr)

Shown on the results page of the user guide, and in the README's table of the claims:
``python doc/make_results.py`` runs it, keeps its output in
``doc/results/sensitivity.txt`` and draws ``doc/images/sensitivity.png`` from it.

On the paper's data (:func:`~sklearn_softattn.datasets.make_gaussian_regression`,
n = 500, d = 10, q = 20, noise 0.5) for covariance condition numbers 1, 30 and
300 and seeds 0–4 (a seed draws Σ, M, the samples, the random start, the
minibatch order and the test samples), every excess risk measured on ``predict``
(Monte Carlo) and on the linear limit ``coef_`` (exact):

(a) the default after one update, over least squares;
(b) the random-start ablation (``init="random"``, every other part of the
    algorithm on), its best within 100 updates (at 1, 3, 10, 30 and 100), over
    the default after the budget;
(c) plain SGD from a random start (the paper's baseline), over the default,
    both after the budget of 2000, read every way the paper leaves open:

    - counting: parameter updates (the paper's "iterations"; SGD runs the whole
      epochs nearest to 2000 updates, 667 epochs of 3 minibatches) or passes
      over the training data (full-gradient equivalents: 2000 SGD epochs
      against 2000 ``gd`` iterations, equal compute). The passes reading
      continues the updates reading's fit with ``warm_start=True`` (a fresh
      SGD with the same learning rate and shuffling seed);
    - the random start's scale: ``"targets"`` is the estimator's
      ``init="random"`` (``K`` entries N(0, 1/d), ``V`` entries N(0, s²/d),
      s the targets' RMS, then ``‖K‖`` set to ``attention_scale``); ``"unit"``
      has i.i.d. N(0, 1) entries in both (see :func:`unit_start_fit`), as
      initializers that ignore the fan-in do. To keep the run within about 15
      minutes, the unit start is measured at condition number 30 only;
    - the SGD learning rate, on a grid, each value reported, plus the best per
      seed (chosen on the test excess: the most favorable reading for SGD).

The "start" columns give the random start's excess risk over least squares'
(the paper: about three orders of magnitude), measured as SGD's excess after
one epoch at ``learning_rate=1e-12``, which does not move it.

Plain SGD runs in float32 (the default in float64): 2–3 times faster on these
long runs, and the printed control shows the excess risk it reaches equals
float64's to about six digits.

Every cell is the median [min–max] over the seeds and the number of seeds on
which the claim held.
"""

import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression

from _common import script_parser
from sklearn_softattn import PAPER_BASELINE, SoftmaxAttentionRegressor
from sklearn_softattn.__main__ import N_TEST, amount, iterations_for
from sklearn_softattn._progress import parallel
from sklearn_softattn.datasets import excess_risk, linear_excess_risk, make_gaussian_regression

LEARNING_RATES = (0.01, 0.03, 0.1, 0.3)
CONDITIONS = (1.0, 30.0, 300.0)
# Random start scale -> the condition numbers it is measured at (None: all).
SCALES = {"targets": None, "unit": (30.0,)}
ABLATION_CHECKPOINTS = (1, 3, 10, 30, 100)
# The claims' thresholds: (a) at most, (b) at most, (c) at least.
THRESHOLDS = {"a": 3.0, "b": 2.0, "c": 10.0}
KEYS = {"excess": "predict", "linear_excess": "linear limit coef_"}


def unit_start_fit(estimator, X, y, seed):
    """Fit ``estimator`` from ``K`` and ``V`` with i.i.d. N(0, 1) entries.

    No public parameter sets the scale of the random start, so the start is
    set as the fitted parameters of a ``warm_start`` estimator, which ``fit``
    then trains from (without renormalizing it). The entries act on centered
    raw features, which is the solver's working space without the covariance
    preconditioner (the paper's baseline). Returns the fitted estimator.
    """
    rng = np.random.RandomState(seed)
    d, q = X.shape[1], np.reshape(y, (len(y), -1)).shape[1]
    estimator.set_params(warm_start=True)
    estimator.key_query_ = rng.standard_normal((d, d)).astype(X.dtype)
    estimator.value_ = rng.standard_normal((q, d)).astype(X.dtype)
    return estimator.fit(X, y)


def _scores(estimator, M, covariance, seed):
    return {
        "excess": excess_risk(estimator, M, covariance, n_samples=N_TEST,
                              random_state=seed + 1),
        "linear_excess": linear_excess_risk(estimator.coef_, estimator.intercept_, M,
                                            covariance),
    }


def _estimator(params, max_iter, seed):
    return SoftmaxAttentionRegressor(**params, max_iter=max_iter, tol=0.0,
                                     n_iter_no_change=max_iter, random_state=seed)


def _data(n_samples, condition_number, seed, dtype=np.float64):
    X, y, M, covariance = make_gaussian_regression(
        n_samples, 10, 20, noise=0.5, condition_number=condition_number,
        random_state=seed, return_truth=True,
    )
    return X.astype(dtype), y.astype(dtype), M, covariance


def _gd_runs(params, max_iters, n_samples, condition_number, seed):
    """Scores of seeded ``gd`` fits, one per ``max_iter``."""
    X, y, M, covariance = _data(n_samples, condition_number, seed)
    return [_scores(_estimator(params, it, seed).fit(X, y), M, covariance, seed)
            for it in max_iters]


def _sgd_runs(scale, learning_rate, epochs, n_samples, condition_number, seed,
              dtype=np.float32):
    """Scores of plain SGD after each cumulative number of ``epochs`` (one fit
    continued with ``warm_start``); ``epochs=(1,)`` with a negligible
    ``learning_rate`` scores the start."""
    X, y, M, covariance = _data(n_samples, condition_number, seed, dtype)
    params = dict(PAPER_BASELINE, learning_rate=learning_rate)
    est = _estimator(params, epochs[0], seed)
    est = unit_start_fit(est, X, y, seed) if scale == "unit" else est.fit(X, y)
    scores = [_scores(est, M, covariance, seed)]
    for done, total in zip(epochs[:-1], epochs[1:]):
        est.set_params(warm_start=True, max_iter=total - done).fit(X, y)
        scores.append(_scores(est, M, covariance, seed))
    return scores


def _quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fn(*args)


# How the progress report names a job (its key without the seed).
_LABELS = {
    "default": "default, cond {1:g}",
    "ablation": "random-start ablation, cond {1:g}",
    "start": "{2} start, cond {1:g}",
    "sgd": "plain SGD, {2} start, lr={3:g}, cond {1:g}",
    "control": "{1} control",
}


def _progress_job(key, fn, args):
    """A job for :func:`~sklearn_softattn._progress.parallel`: its label, and its
    cost in iterations (``gd``) or epochs (SGD), for the estimate of the time left."""
    cost = sum(args[1]) if fn is _gd_runs else args[2][-1]
    return _LABELS[key[0]].format(*key), cost, _quiet, (fn, *args)


def run(n_samples=500, budget=2000, seeds=range(5), conditions=CONDITIONS,
        learning_rates=LEARNING_RATES, n_jobs=-1):
    """Every fit of the sensitivity study; returns the ratios, per claim and reading."""
    seeds = list(seeds)
    counts = {c: iterations_for(budget, PAPER_BASELINE, n_samples, c)
              for c in ("updates", "passes")}
    epochs = sorted(set(counts.values()))
    checkpoints = [c for c in ABLATION_CHECKPOINTS if c <= budget]
    cells = [(cond, seed) for cond in conditions for seed in seeds]
    starts = random_starts(conditions)
    jobs = []  # (key, function, arguments)
    for cond, seed in cells:
        data = (n_samples, cond, seed)
        jobs.append((("default", cond, seed), _gd_runs, ({}, [1, budget], *data)))
        jobs.append((("ablation", cond, seed), _gd_runs,
                     ({"init": "random"}, checkpoints, *data)))
    for cond, scale in starts:
        for seed in seeds:
            data = (n_samples, cond, seed)
            jobs.append((("start", cond, scale, seed), _sgd_runs, (scale, 1e-12, [1], *data)))
            for lr in learning_rates:
                jobs.append((("sgd", cond, scale, lr, seed), _sgd_runs,
                             (scale, lr, epochs, *data)))
    # Control: float32 against float64 plain SGD on one cell.
    control = dict(epochs=min(100, epochs[0]), cond=conditions[len(conditions) // 2],
                   seed=seeds[0], learning_rate=learning_rates[1])
    for dtype in (np.float32, np.float64):
        jobs.append((("control", dtype.__name__), _sgd_runs,
                     ("targets", control["learning_rate"], [control["epochs"]], n_samples,
                      control["cond"], control["seed"], dtype)))
    jobs.sort(key=lambda job: job[0][0] != "sgd")  # the long runs first

    start = time.perf_counter()
    outs = parallel([_progress_job(*job) for job in jobs], "sensitivity", n_jobs=n_jobs)
    out = {key: value for (key, _, _), value in zip(jobs, outs)}

    least_squares, final = {}, {}
    for cond, seed in cells:
        X, y, M, covariance = _data(n_samples, cond, seed)
        least_squares[cond, seed] = _scores(LinearRegression().fit(X, y), M, covariance, seed)

    ratios = {}  # (claim, key, reading...) -> one ratio per seed
    for key in KEYS:
        for cond in conditions:
            ls = [least_squares[cond, s][key] for s in seeds]
            default = [out["default", cond, s] for s in seeds]
            final[cond] = [d[-1][key] for d in default]
            ratios["a", key, cond] = [d[0][key] / v for d, v in zip(default, ls)]
            ratios["b", key, cond] = [min(r[key] for r in out["ablation", cond, s]) / f
                                      for s, f in zip(seeds, final[cond])]
        for cond, scale in starts:
            ratios["start", key, cond, scale] = [
                out["start", cond, scale, s][0][key] / least_squares[cond, s][key]
                for s in seeds
            ]
            for count, n_epochs in counts.items():
                at = epochs.index(n_epochs)
                per_lr = [[out["sgd", cond, scale, lr, s][at][key] / f
                           for s, f in zip(seeds, final[cond])] for lr in learning_rates]
                for lr, values in zip(learning_rates, per_lr):
                    ratios["c", key, cond, scale, count, lr] = values
                ratios["c", key, cond, scale, count, "best"] = list(np.min(per_lr, axis=0))
    for dtype in ("float32", "float64"):
        control[dtype] = out["control", dtype][0]["excess"]
    return dict(ratios=ratios, counts=counts, seeds=seeds, conditions=conditions,
                starts=starts, learning_rates=learning_rates, budget=budget,
                n_samples=n_samples, control=control, seconds=time.perf_counter() - start)


def random_starts(conditions):
    """The (condition number, random start scale) pairs measured."""
    return [(cond, scale) for scale, only in SCALES.items() for cond in conditions
            if only is None or cond in only]


def held(values, claim):
    """On how many of ``values`` the claim held."""
    threshold = THRESHOLDS[claim]
    return sum((v >= threshold) if claim == "c" else (v <= threshold) for v in values)


def cell(values, claim=None):
    """``median [min–max]``, and on how many seeds the claim held."""
    text = f"{np.median(values):.3g} [{min(values):.3g}–{max(values):.3g}]"
    return text if claim is None else f"{text} {held(values, claim)}/{len(values)}"


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(map(str, row)) + " |" for row in rows])


def verdicts(result):
    """For each claim and excess risk, the readings it held on for every seed, for
    none, and for some (claim (c) at the best learning rate of each seed)."""
    r, starts, counts = result["ratios"], result["starts"], result["counts"]
    readings = {
        "a": [((c,), f"cond {c:g}") for c in result["conditions"]],
        "b": [((c,), f"cond {c:g}") for c in result["conditions"]],
        "c": [((c, s, n, "best"), f"cond {c:g} {s} start {n}")
              for c, s in starts for n in counts],
    }
    lines = []
    for claim, cases in readings.items():
        for key, what in KEYS.items():
            groups = {"every seed": [], "no seed": [], "some seeds": []}
            for reading, name in cases:
                values = r[(claim, key) + reading]
                k = held(values, claim)
                group = "every seed" if k == len(values) else "no seed" if k == 0 else "some seeds"
                groups[group].append(name)
            lines.append(f"({claim}) on {what}: " + "; ".join(
                f"held on {g}: {', '.join(names)}" for g, names in groups.items() if names))
    return "\n".join(lines)


def report(result):
    """The sensitivity tables as text (Markdown tables)."""
    r, conds, lrs = result["ratios"], result["conditions"], result["learning_rates"]
    n, budget, counts, starts = (result[k] for k in ("n_samples", "budget", "counts", "starts"))
    seeds, ctl = result["seeds"], result["control"]
    return "\n".join([
        f"Sensitivity of the paper's claims: n={n}, d=10, q=20, noise 0.5, seeds "
        f"{seeds[0]}–{seeds[-1]}, budget {budget}. Each cell: median [min–max] over the "
        f"{len(seeds)} seeds, then on how many seeds the claim held.",
        "",
        f"(a) default after 1 update / least squares (claim: <= {THRESHOLDS['a']:g}); "
        f"(b) random start (init=\"random\"), best within {amount(100, 'updates')} / "
        f"default after {budget} (claim: <= {THRESHOLDS['b']:g}):",
        "",
        _table(["cond", "(a) predict", "(a) linear limit", "(b) predict", "(b) linear limit"],
               [[f"{c:g}"] + [cell(r[claim, key, c], claim) for claim in "ab" for key in KEYS]
                for c in conds]),
        "",
        "Random starts: their excess risk / least squares':",
        "",
        _table(["cond", "start", "predict", "linear limit"],
               [[f"{c:g}", s] + [cell(r["start", key, c, s]) for key in KEYS]
                for c, s in starts]),
    ] + [
        line
        for key, what in KEYS.items()
        for line in [
            "",
            f"(c) plain SGD from a random start / default, both after {budget} "
            f"(claim: >= {THRESHOLDS['c']:g}), excess risk of {what}:",
            "",
            _table(["cond", "start", "counted in", "SGD epochs"]
                   + [f"lr={lr:g}" for lr in lrs] + ["best lr"],
                   [[f"{c:g}", s, count, epochs]
                    + [cell(r["c", key, c, s, count, lr], "c") for lr in list(lrs) + ["best"]]
                    for c, s in starts for count, epochs in counts.items()]),
        ]
    ] + [
        "",
        "Readings under which each claim held:",
        verdicts(result),
        "",
        f"Control, plain SGD after {ctl['epochs']} epochs (cond {ctl['cond']:g}, seed "
        f"{ctl['seed']}, lr={ctl['learning_rate']:g}): excess risk of predict "
        f"{ctl['float32']:.6g} in float32, {ctl['float64']:.6g} in float64.",
        f"Done in {result['seconds']:.0f} s.",
    ])


def main(argv=None):
    parser = script_parser(__doc__)
    parser.add_argument("--n-samples", type=int, default=500)
    parser.add_argument("--budget", type=int, default=2000,
                        help="updates or passes of the longest runs (default: 2000)")
    parser.add_argument("--seeds", type=int, default=5, help="seeds 0..N-1 (default: 5)")
    parser.add_argument("--n-jobs", type=int, default=-1)
    args = parser.parse_args(argv)
    print(report(run(args.n_samples, args.budget, range(args.seeds), n_jobs=args.n_jobs)))


if __name__ == "__main__":
    main()
