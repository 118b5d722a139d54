"""Past the linear limit, should the CV estimator's attention carry the ridge penalty?

    pip install ".[benchmarks]" && pip install --no-deps ISLP   # its bundled data only
    python benchmarks/bench_shrinkage.py      # about 6 minutes on 2 cores

The ridge penalty (``shrinkage``) falls on ``V Kᵀ``, the layer's linear part near the
linear limit. With the sharpness learned (``renormalize=False``) it grows with the
sharpness for the same values, so that past the linear limit it can hold the metric at
its start. The data: ISLP's ``Bikeshare`` (hourly bike rentals, 8 645 rows; the month as
its number, the hour as a number, the weather one-hot; ``casual`` and ``registered``, the
target's parts, dropped), read from the package's files without importing it; a set of
neither half of ``datasets.csv``. Every model behind a StandardScaler, one thread.

Two parts, written to ``results/shrinkage.txt``:

- On one outer fold's training rows (the second of ``KFold(3, shuffle=True,
  random_state=0)``, 5 763 rows), ``SoftmaxAttentionRegressor`` at the point the CV
  estimator chooses there with ``attention_shrinkages=("auto",)``, fitted from ten
  context samples (``random_state`` 0 to 9) at that point's shrinkage ``"auto"`` and
  at 0: the test R² and the learned sharpness of each.
- The 3-fold R² and fit time of the CV estimator with ``attention_shrinkages`` ``("auto",)``
  (the default before the seventeenth round of ``bench_defaults.py``), ``(0.0,)`` (the
  default since) and ``(0.0, "auto")``, beside the peers RidgeCV, HistGradientBoosting and
  ``MLPRegressor(max_iter=2000)`` (``_common.peers``).

Quoted by the docstring of ``attention_shrinkages`` and the selection page of the user
guide.
"""

from importlib.metadata import PackageNotFoundError, files
from pathlib import Path

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from _common import cpu_timed_fit, markdown_table, peers, script_parser, selected
from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV

RESULTS = Path(__file__).resolve().parent / "results" / "shrinkage.txt"
MONTHS = ["Jan", "Feb", "March", "April", "May", "June", "July", "Aug", "Sept", "Oct", "Nov",
          "Dec"]
CHOICES = {"auto": ("auto",), "0": (0.0,), "0 and auto": (0.0, "auto")}
PEERS = ("RidgeCV", "HistGradientBoosting", "MLPRegressor, unscaled targets")


def bikeshare():
    """``(X, y)``: ISLP's Bikeshare as the module docstring prepares it."""
    import pandas as pd

    try:
        path = next(f for f in files("ISLP") if f.name == "Bikeshare.csv").locate()
    except (PackageNotFoundError, StopIteration, TypeError):
        raise SystemExit("ISLP's data are needed: pip install --no-deps ISLP") from None
    frame = pd.read_csv(path)
    frame["mnth"] = frame["mnth"].map({m: k for k, m in enumerate(MONTHS)})
    frame["hr"] = frame["hr"].astype(int)
    y = frame.pop("bikers").to_numpy(float)
    frame = frame.drop(columns=["casual", "registered"])
    X = pd.get_dummies(frame, columns=["weathersit"], drop_first=True).astype(float)
    return X.to_numpy(), y


def context_samples(X, y, folds, seeds=range(10)):
    """Per shrinkage, the (test R², learned sharpness) of the chosen point's fit from
    each context sample, on the second fold; and the point."""
    train, test = folds[1]
    scaler = StandardScaler().fit(X[train])
    X_train, X_test = scaler.transform(X[train]), scaler.transform(X[test])
    cv = SoftmaxAttentionRegressorCV(attention_shrinkages=("auto",), random_state=0)
    cpu_timed_fit(cv, X_train, y[train])
    point = {**cv._shared_params(), **cv.best_params_}  # what its refit fits
    runs = {}
    for shrinkage in ("auto", 0.0):
        for seed in seeds:
            reg = SoftmaxAttentionRegressor(**{**point, "shrinkage": shrinkage,
                                               "random_state": seed})
            cpu_timed_fit(reg, X_train, y[train])
            runs.setdefault(shrinkage, []).append((reg.score(X_test, y[test]),
                                                   reg.attention_scale_))
    return point, runs


def cross_validated(X, y, folds):
    """Per model, the mean test R² and fit time over the folds."""
    models = {f"attention CV, attention_shrinkages={value}": make_pipeline(
                  StandardScaler(),
                  SoftmaxAttentionRegressorCV(attention_shrinkages=value, random_state=0))
              for value in CHOICES.values()}
    models |= selected(peers(), PEERS)
    table = {}
    for label, model in models.items():
        scores, seconds = [], 0.0
        for train, test in folds:
            fitted = clone(model)
            seconds += cpu_timed_fit(fitted, X[train], y[train])
            scores.append(fitted.score(X[test], y[test]))
        table[label] = (float(np.mean(scores)), seconds / len(folds))
        print(f"{label}: {table[label][0]:.3f}", flush=True)
    return table


def main(argv=None):
    script_parser(__doc__).parse_args(argv)
    X, y = bikeshare()
    folds = list(KFold(3, shuffle=True, random_state=0).split(X))
    point, runs = context_samples(X, y, folds)
    lines = [f"Bikeshare ({X.shape[0]} rows, {X.shape[1]} features), the second outer fold's "
             f"{len(folds[1][0])} training rows, at the point chosen with shrinkage 'auto': "
             f"attention_scale={point['attention_scale']:.3g}, max_iter={point['max_iter']}, "
             f"context_neighbors={point['context_neighbors']}; ten context samples\n",
             markdown_table(["shrinkage", "test R² (random_state 0 to 9)", "learned sharpness"],
                            [[str(s), ", ".join(f"{r2:.3f}" for r2, _ in r),
                              ", ".join(f"{a:.3g}" for _, a in r)] for s, r in runs.items()]),
             "\n3-fold shuffled R² and mean fit time (CPU seconds, one thread)\n",
             markdown_table(["model", "R²", "fit (s)"],
                            [[label, f"{r2:.3f}", f"{t:.1f}"]
                             for label, (r2, t) in cross_validated(X, y, folds).items()])]
    text = "\n".join(lines) + "\n"
    print(text)
    RESULTS.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
