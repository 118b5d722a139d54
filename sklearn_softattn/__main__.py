"""The paper's experiment: ``python -m sklearn_softattn``.

Fits the structure-aware default, the paper's baseline (plain SGD from a
random start) and one ablation per part of the algorithm on the paper's
synthetic data (:func:`~sklearn_softattn.datasets.make_gaussian_regression`),
and reports the excess risk against the progress made, least squares' excess
risk as reference and the geometric rate of each training curve.

Progress is counted in parameter updates (the default: the paper's
"iterations"; one per ``gd`` iteration, one per minibatch of ``sgd``, whose
iteration is an epoch of several minibatches) or in passes over the training
data (one full gradient's worth of queries: one per ``gd`` iteration, one per
``sgd`` epoch), which compares the methods at equal compute. An epoch is one
pass for both solvers. A minibatch method runs whole epochs: at each
checkpoint, the number of epochs nearest to it.

The layer is evaluated as the paper writes it (``extrapolation="continue"``).
Every checkpoint is its own fit from the same seed with ``max_iter`` set to the
iterations the checkpoint counts (``tol=0`` and ``n_iter_no_change=max_iter``, so no run stops
early). Fits are deterministic, so this is exactly the state of one long run
after that many iterations. ``warm_start`` would be cheaper but not exact: the
``gd`` step size (which a long run may have halved) restarts at every fit, and
so does the seeded shuffling of ``sgd``.

The functions here are importable so that tests can run the experiment small::

    from sklearn_softattn.__main__ import run_experiment, format_table
    print(format_table(run_experiment(n_samples=100, max_iter=30)))
"""

import argparse
import math
import sys
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression

from ._estimator import PAPER_BASELINE, SoftmaxAttentionRegressor
from ._layer import minibatch_size
from ._progress import parallel
from .datasets import excess_risk, linear_excess_risk, make_gaussian_regression


# Method name -> parameters changed from the estimator's defaults.
METHODS = {
    "default (structure-aware)": {},
    "plain SGD, random start": PAPER_BASELINE,
    "random init": {"init": "random"},
    "no preconditioner": {"preconditioner": None},
    "no regularizer": {"regularization": None},
    "no renormalization": {"renormalize": False},
}

DEFAULT_CHECKPOINTS = (1, 3, 10, 30, 100, 300, 1000, 2000)

# How progress is counted: the unit, singular and plural.
COUNTS = {"updates": ("update", "updates"), "passes": ("pass", "passes")}

# Fresh samples of the Monte-Carlo excess risk.
N_TEST = 5000


def checkpoints_up_to(max_iter, checkpoints=DEFAULT_CHECKPOINTS):
    """The checkpoints below ``max_iter``, and ``max_iter`` itself."""
    return sorted({c for c in checkpoints if c < max_iter} | {max_iter})


def updates_per_iteration(params, n_samples):
    """Parameter updates in one iteration of the estimator with ``params``.

    One for ``solver="gd"``; for ``"sgd"`` and ``"adam"`` an iteration is an
    epoch of ``ceil(n / batch_size)`` minibatches, sized as the estimator
    sizes them.

    >>> updates_per_iteration({"solver": "sgd"}, 500), updates_per_iteration({}, 500)
    (3, 1)
    """
    if params.get("solver", "gd") == "gd":
        return 1
    return math.ceil(n_samples / minibatch_size(params.get("batch_size", "auto"), n_samples))


def amount(number, count):
    """``number`` units of ``count`` in words: ``amount(1, "passes") == "1 pass"``."""
    return f"{number} {COUNTS[count][number != 1]}"


def iterations_for(budget, params, n_samples, count):
    """Whole iterations of the estimator nearest to ``budget`` units of ``count`` (at least 1).

    >>> iterations_for(2000, {"solver": "sgd"}, 500, "updates")
    667
    >>> iterations_for(2000, {"solver": "sgd"}, 500, "passes")
    2000
    """
    if count not in COUNTS:
        raise ValueError(f"count must be one of {sorted(COUNTS)}, got {count!r}.")
    per_iteration = updates_per_iteration(params, n_samples) if count == "updates" else 1
    return max(1, round(budget / per_iteration))


def _fit_and_score(params, X, y, M, covariance, max_iter, seed, keep_curve):
    # The paper's layer at every fresh sample: the excess risk is an expectation over
    # all x ~ N(0, Σ), and pulling the rare samples beyond the training radius back to
    # it (the estimator's default) is a safeguard for real data, not the paper's model.
    est = SoftmaxAttentionRegressor(
        **params, max_iter=max_iter, tol=0.0, n_iter_no_change=max_iter, random_state=seed,
        extrapolation="continue",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X, y)
    return (
        excess_risk(est, M, covariance, n_samples=N_TEST, random_state=seed + 1),
        linear_excess_risk(est.coef_, est.intercept_, M, covariance),
        list(est.loss_curve_) if keep_curve else None,
    )


def geometric_rate(curve, *, floor=1e-2):
    """Per-iteration contraction ``μ`` fitted to a training curve.

    With ``gap_t = L_t - L_T`` (``L_T`` the last value, the run's proxy for
    its limit), ``log(gap_t)`` is fitted by least squares to ``a + t log μ``
    over the early part of the run: the iterations ``t ≤ T / 2`` while the gap
    stays above ``floor`` times its first value (so that the proxy ``L_T`` does
    not bias the fit). Returns NaN when fewer than 3 points qualify (e.g. a
    curve that is flat from the start).

    Parameters
    ----------
    curve : sequence of float
        Training objective after each iteration.
    floor : float, default=1e-2
        Relative gap below which iterations are left out of the fit.

    Returns
    -------
    float
        ``μ``; the gap shrinks by about ``μ`` per iteration.

    Examples
    --------
    >>> round(geometric_rate([1 + 0.9**t for t in range(200)]), 3)
    0.9
    """
    curve = np.asarray(curve, dtype=float)
    gap = curve[: len(curve) // 2] - curve[-1]
    if len(gap) < 3 or not gap[0] > 0:
        return math.nan
    keep = np.flatnonzero(gap < floor * gap[0])
    gap = gap[: keep[0] if len(keep) else len(gap)]
    if len(gap) < 3 or np.any(gap <= 0):
        return math.nan
    slope = np.polyfit(np.arange(len(gap)), np.log(gap), 1)[0]
    return float(np.exp(slope))


def run_experiment(
    n_samples=500,
    n_features=10,
    n_targets=20,
    max_iter=2000,
    *,
    noise=0.5,
    condition_number=30.0,
    seed=0,
    checkpoints=DEFAULT_CHECKPOINTS,
    methods=None,
    count="updates",
    n_jobs=-1,
    show_progress=False,
):
    """Excess risk of every method against progress, counted in ``count``.

    Parameters
    ----------
    n_samples, n_features, n_targets : int
        Size of the synthetic problem (the paper's n, d and q).
    max_iter : int
        Budget of the longest run, in units of ``count``; the last checkpoint.
    noise, condition_number : float
        Passed to :func:`~sklearn_softattn.datasets.make_gaussian_regression`.
    seed : int
        Seeds the data, every fit and the fresh test samples.
    checkpoints : sequence of int
        Budgets, in units of ``count``, at which the excess risk is measured
        (those below ``max_iter``, and ``max_iter``).
    methods : dict or None
        Method name -> estimator parameters; None for :data:`METHODS`.
    count : {"updates", "passes"}, default="updates"
        Unit of the checkpoints: parameter updates, or passes over the
        training data (full-gradient equivalents; one per epoch).
    n_jobs : int or None
        Parallel fits (joblib).
    show_progress : bool, default=False
        Report on stderr each method as its fits finish, with the time left
        (estimated from the iterations done).

    Returns
    -------
    dict
        ``"config"`` (the arguments), ``"checkpoints"`` (in units of
        ``count``), ``"least_squares"`` (its Monte-Carlo excess
        risk), ``"least_squares_exact"`` (its exact excess risk), and per
        method name: ``"max_iter"`` (the estimator's iterations run for each
        checkpoint), ``"updates_per_iteration"``, ``"excess"`` (Monte-Carlo
        excess risk of ``predict`` at each checkpoint), ``"linear_excess"``
        (exact excess risk of the linear limit ``coef_``), ``"loss_curve"``
        (training objective of the longest run, per iteration) and ``"rate"``
        (:func:`geometric_rate` of that curve, per unit of ``count``), and
        ``"seconds"`` (wall time).
    """
    start = time.perf_counter()
    methods = METHODS if methods is None else methods
    budgets = checkpoints_up_to(max_iter, checkpoints)
    X, y, M, covariance = make_gaussian_regression(
        n_samples, n_features, n_targets, noise=noise,
        condition_number=condition_number, random_state=seed, return_truth=True,
    )
    ls = LinearRegression().fit(X, y)
    runs = {name: [iterations_for(b, params, n_samples, count) for b in budgets]
            for name, params in methods.items()}

    # Each distinct run once, longest first, so that the parallel workers finish together.
    jobs = sorted({(name, it) for name, its in runs.items() for it in its},
                  key=lambda job: (-job[1], job[0]))
    scores = parallel(
        [(name, it, _fit_and_score,
          (methods[name], X, y, M, covariance, it, seed, it == runs[name][-1]))
         for name, it in jobs],
        "python -m sklearn_softattn", n_jobs=n_jobs, quiet=not show_progress,
    )
    by_job = dict(zip(jobs, scores))
    results = {}
    for name, params in methods.items():
        curve = by_job[name, runs[name][-1]][2]
        per_iteration = updates_per_iteration(params, n_samples)
        unit = per_iteration if count == "updates" else 1
        results[name] = {
            "max_iter": runs[name],
            "updates_per_iteration": per_iteration,
            "excess": [by_job[name, it][0] for it in runs[name]],
            "linear_excess": [by_job[name, it][1] for it in runs[name]],
            "loss_curve": curve,
            "rate": geometric_rate(curve) ** (1 / unit),
        }
    return {
        "config": dict(n_samples=n_samples, n_features=n_features, n_targets=n_targets,
                       max_iter=max_iter, noise=noise, condition_number=condition_number,
                       seed=seed, count=count),
        "checkpoints": budgets,
        "least_squares": excess_risk(ls, M, covariance, n_samples=N_TEST, random_state=seed + 1),
        "least_squares_exact": linear_excess_risk(ls.coef_, ls.intercept_, M, covariance),
        "methods": results,
        "seconds": time.perf_counter() - start,
    }


def _markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def format_table(result, *, key="excess"):
    """The results as a Markdown table: one row per method, one column per checkpoint.

    ``key="excess"`` tabulates the excess risk of ``predict`` (Monte Carlo);
    ``key="linear_excess"`` that of the linear limit ``coef_`` (exact). The
    last column is the measured rate ``μ`` of the training objective, per unit
    of the result's count.
    """
    checkpoints = result["checkpoints"]
    header = ["method"] + [f"m={it}" for it in checkpoints] + ["rate μ"]
    ls = result["least_squares" if key == "excess" else "least_squares_exact"]
    rows = [["least squares (reference)"] + [f"{ls:.4g}"] * len(checkpoints) + ["–"]]
    for name, res in result["methods"].items():
        rate = "–" if math.isnan(res["rate"]) else f"{res['rate']:.4f}"
        rows.append([name] + [f"{v:.4g}" for v in res[key]] + [rate])
    return _markdown_table(header, rows)


def claims(result, *, key="excess"):
    """The paper's three claims, measured on a result of :func:`run_experiment`.

    (a) the default's excess after the first checkpoint (one update or pass)
    is within 3x of least squares'; (b) the random-start ablation
    (preconditioner, regularizer and renormalization on) comes within 2x of
    the default's final excess within 100 units; (c) plain SGD from a random
    start is at least 10x worse than the default at the last checkpoint.
    Units are the result's count. Needs :data:`METHODS`' names.

    Returns
    -------
    list of (str, float, bool)
        Statement, measured ratio and whether the claim held.
    """
    it, count = result["checkpoints"], result["config"]["count"]
    res = {name: r[key] for name, r in result["methods"].items()}
    ls = result["least_squares" if key == "excess" else "least_squares_exact"]
    default, final = res["default (structure-aware)"], res["default (structure-aware)"][-1]
    early = [v for m, v in zip(it, res["random init"]) if m <= 100]
    return [
        (f"(a) default after {amount(it[0], count)} / least squares <= 3", default[0] / ls,
         default[0] <= 3 * ls),
        (f"(b) random start, best within {amount(100, count)} / default's final <= 2",
         min(early) / final, min(early) <= 2 * final),
        (f"(c) plain SGD, random start / default, both after {amount(it[-1], count)} >= 10",
         res["plain SGD, random start"][-1] / final,
         res["plain SGD, random start"][-1] >= 10 * final),
    ]


def progress(method_result, count):
    """Units of ``count`` each fit of a method actually ran (whole epochs for SGD)."""
    per_iteration = method_result["updates_per_iteration"] if count == "updates" else 1
    return [it * per_iteration for it in method_result["max_iter"]]


def counting_note(result):
    """What the checkpoints count, and the iterations each minibatch method ran."""
    cfg = result["config"]
    lines = [f"m counts {cfg['count']}: "
             + ("one per gd iteration, one per minibatch of an SGD epoch."
                if cfg["count"] == "updates" else
                "one per gd iteration (a full-batch gradient), one per SGD epoch.")]
    for name, res in result["methods"].items():
        if res["updates_per_iteration"] > 1:
            epochs = ", ".join(map(str, res["max_iter"]))
            lines.append(f"{name}: {res['updates_per_iteration']} updates per epoch; "
                         f"epochs run (the nearest whole number): {epochs}.")
    return "\n".join(lines)


def plot_results(result, path):
    """Excess risk against progress (the result's count), log-log, one curve per method.

    Returns the path written, or None when matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, res in result["methods"].items():
        ax.plot(progress(res, result["config"]["count"]), res["excess"], marker="o", ms=3,
                label=name)
    ax.axhline(result["least_squares"], color="k", ls="--", lw=1, label="least squares")
    ax.set(xscale="log", yscale="log", xlabel=f"{result['config']['count']} m",
           ylabel="excess risk  ½E‖f(x) − Mx‖²")
    cfg = result["config"]
    ax.set_title(f"n={cfg['n_samples']}, d={cfg['n_features']}, q={cfg['n_targets']}, "
                 f"cond={cfg['condition_number']:g}, noise={cfg['noise']:g}", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m sklearn_softattn",
        description="Reproduce the paper's experiment: excess risk against progress of "
        "the structure-aware default, plain SGD from a random start (the paper's "
        "baseline) and one ablation per part of the algorithm, on Gaussian data "
        "with a condition-number-30 covariance and noise 0.5. The tables go to stdout; "
        "progress (each method as it finishes, the time left) to stderr.",
    )
    parser.add_argument("--n-samples", type=int, default=500, help="n (default: 500)")
    parser.add_argument("--n-features", type=int, default=10, help="d (default: 10)")
    parser.add_argument("--n-targets", type=int, default=20, help="q (default: 20)")
    parser.add_argument("--max-iter", type=int, default=2000,
                        help="budget of the longest run, in units of --count (default: 2000)")
    parser.add_argument("--count", choices=sorted(COUNTS), default="updates",
                        help="count progress in parameter updates (the paper's iterations: "
                        "one per gd step, one per SGD minibatch) or in passes over the "
                        "training data (full-gradient equivalents: one per gd step, one "
                        "per SGD epoch; compute-fair) (default: updates)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument("--output", default="paper_reproduction.png",
                        help="path of the PNG plot (default: paper_reproduction.png)")
    parser.add_argument("--n-jobs", type=int, default=-1,
                        help="parallel fits, joblib convention (default: -1, all cores)")
    return parser


def main(argv=None):
    """Command-line entry point; returns the exit status."""
    args = _parser().parse_args(argv)
    result = run_experiment(
        args.n_samples, args.n_features, args.n_targets, args.max_iter,
        seed=args.seed, count=args.count, n_jobs=args.n_jobs, show_progress=True,
    )
    cfg = result["config"]
    print(f"Excess risk ½E‖f(x) − Mx‖² against {args.count} m "
          f"(n={cfg['n_samples']}, d={cfg['n_features']}, q={cfg['n_targets']}, "
          f"cond={cfg['condition_number']:g}, noise={cfg['noise']:g}, seed={cfg['seed']}).")
    print(counting_note(result))
    print(f"\nExcess risk of predict (Monte Carlo on {N_TEST} fresh samples):\n")
    print(format_table(result))
    print("\nExcess risk of the linear limit coef_ (exact):\n")
    print(format_table(result, key="linear_excess"))
    per_epoch = " (an SGD epoch's rate to the power 1/updates per epoch)" * (
        args.count == "updates")
    print(f"\nrate μ: per {COUNTS[args.count][0]}{per_epoch}; exp(slope) of a least-squares "
          "fit of log(L_t − L_final) against t,\nL_t the training objective after iteration "
          "t, over t ≤ T/2 while the gap exceeds 1% of its first value ('–': flat curve).")
    if set(METHODS) <= set(result["methods"]):
        for key, what in [("excess", "predict"), ("linear_excess", "linear limit coef_")]:
            print(f"\nThe paper's claims, on the excess risk of {what}:")
            for statement, ratio, held in claims(result, key=key):
                print(f"  {statement}: measured {ratio:.3g}, {'held' if held else 'NOT held'}")
    path = plot_results(result, args.output)
    if path is None:
        print("\nmatplotlib is not installed: no plot written "
              "(pip install 'sklearn-softattn[examples]').")
    else:
        print(f"\nPlot written to {path}")
    print(f"Done in {result['seconds']:.1f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
