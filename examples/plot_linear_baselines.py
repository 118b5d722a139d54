"""
==========================================
Comparison against linear baselines
==========================================

Five-fold cross-validated R² of least squares (``LinearRegression``),
``RidgeCV`` and :class:`~sklearn_softattn.SoftmaxAttentionRegressor` tuned by
``GridSearchCV`` (nested: the grid search runs inside each outer fold) over
``attention_scale``, the sharpness of the softmax, the number of iterations
and ``balance_strength``, the strength of the balancing regularizer (a strong
one suits small data but forces a rank-one key-query matrix for a single
target, which limits the nonlinear model), with ``MLPRegressor`` and
``HistGradientBoostingRegressor`` for context, on three data sets:

* ``load_diabetes``: real data, nearly linear;
* ``make_friedman1(600, noise=1.0)``: a smooth nonlinear function of 5 of 10
  features;
* the paper's Gaussian linear setting (n = 500, d = 10, one target, condition
  number 30, noise 0.5), where least squares is the right model.

As ``attention_scale`` tends to 0 the layer tends to linear attention and the
model to least squares, so on linear data the tuned model should match
``LinearRegression``; the right panel sets the model's linear limit ``coef_``
beside ``LinearRegression().coef_`` on ``load_diabetes``.

Set ``SOFTATTN_EXAMPLES_QUICK=1`` for a reduced run, and
``SOFTATTN_EXAMPLES_SEED`` to draw other ``make_friedman1`` and Gaussian data
(default 0), to check that the comparison is not a property of one draw.
"""

import os
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from sklearn.base import clone
from sklearn.datasets import load_diabetes, make_friedman1
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression, RidgeCV
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_softattn import SoftmaxAttentionRegressor
from sklearn_softattn.datasets import make_gaussian_regression

QUICK = bool(os.environ.get("SOFTATTN_EXAMPLES_QUICK"))
SEED = int(os.environ.get("SOFTATTN_EXAMPLES_SEED", 0))
# (The gallery, which sets the variable, runs the script without __file__.)
OUTPUT = Path(os.environ.get("SOFTATTN_EXAMPLES_OUTPUT") or Path(__file__).resolve().parent)
warnings.simplefilter("ignore", ConvergenceWarning)

# %%
# Data sets and models
# --------------------
X_diabetes, y_diabetes = load_diabetes(return_X_y=True)
datasets = {
    "diabetes": (X_diabetes, y_diabetes),
    "friedman1": make_friedman1(600, noise=1.0, random_state=SEED),
    "gaussian linear": make_gaussian_regression(500, 10, 1, noise=0.5, random_state=SEED),
}
if QUICK:
    datasets = {name: (X[:120], y[:120]) for name, (X, y) in datasets.items()}

# ``tol=0`` with a large ``n_iter_no_change`` turns the stopping rule off, so
# that ``max_iter`` is the number of iterations.
param_grid = (
    {"attention_scale": [0.3, 2.0], "balance_strength": [10.0], "max_iter": [10]}
    if QUICK
    else {"attention_scale": [0.5, 2.0], "balance_strength": [0.01, 10.0],
          "max_iter": [100, 1000]}
)
attention = GridSearchCV(
    SoftmaxAttentionRegressor(tol=0.0, n_iter_no_change=10_000, random_state=0),
    param_grid,
    cv=KFold(3, shuffle=True, random_state=0),
    n_jobs=1 if QUICK else -1,
)
models = {
    "LinearRegression": LinearRegression(),
    "RidgeCV": RidgeCV(alphas=np.logspace(-3, 3, 13)),
    "SoftmaxAttention (tuned)": attention,
    "MLPRegressor": make_pipeline(
        StandardScaler(),
        MLPRegressor(max_iter=50 if QUICK else 2000, random_state=0),
    ),
    "HistGradientBoosting": HistGradientBoostingRegressor(random_state=0),
}

# %%
# Cross-validated R²
# ------------------
outer = KFold(3 if QUICK else 5, shuffle=True, random_state=0)
results = {
    (data, model): cross_validate(est, X, y, cv=outer, return_estimator=True)
    for data, (X, y) in datasets.items()
    for model, est in models.items()
}
scores = {key: res["test_score"] for key, res in results.items()}
print(f"{outer.get_n_splits()}-fold cross-validated R² (mean ± std over folds):\n")
print("| model | " + " | ".join(datasets) + " |")
print("|---|" + "---|" * len(datasets))
for model in models:
    print(f"| {model} | " + " | ".join(
        f"{scores[data, model].mean():.3f} ± {scores[data, model].std():.3f}"
        for data in datasets) + " |")
print()
for data in datasets:
    choices = [search.best_params_ for search in
               results[data, "SoftmaxAttention (tuned)"]["estimator"]]
    print(f"GridSearchCV's choice in each outer fold, {data}: "
          + "; ".join(f"{c['attention_scale']:g}/{c['balance_strength']:g}/{c['max_iter']}"
                      for c in choices)
          + " (attention_scale/balance_strength/max_iter)")

# %%
# The linear limit ``coef_`` beside least squares
# -----------------------------------------------
# The grid search refitted on all of ``load_diabetes``.
attention = clone(attention).fit(*datasets["diabetes"])
linear = LinearRegression().fit(*datasets["diabetes"])
print("\ncoef_ on diabetes, attention (tuned):", np.round(attention.best_estimator_.coef_, 1))
print("coef_ on diabetes, LinearRegression:  ", np.round(linear.coef_, 1))

# %%
# Plot
# ----
fig, (ax_r2, ax_coef) = plt.subplots(1, 2, figsize=(12, 4.2),
                                     gridspec_kw={"width_ratios": [3, 2]})
width = 0.8 / len(models)
for i, model in enumerate(models):
    means = [scores[data, model].mean() for data in datasets]
    stds = [scores[data, model].std() for data in datasets]
    ax_r2.bar(np.arange(len(datasets)) + (i - (len(models) - 1) / 2) * width, means, width,
              yerr=stds, capsize=2, label=model)
ax_r2.set_xticks(np.arange(len(datasets)), list(datasets))
ax_r2.set(ylabel=f"{outer.get_n_splits()}-fold CV R²", ylim=(0, 1.05),
          title="cross-validated R²")
ax_r2.legend(fontsize=7, loc="lower left")
features = np.arange(X_diabetes.shape[1])
ax_coef.bar(features - 0.2, linear.coef_, 0.4, label="LinearRegression().coef_")
ax_coef.bar(features + 0.2, attention.best_estimator_.coef_, 0.4, label="attention coef_")
ax_coef.set_xticks(features, load_diabetes().feature_names, fontsize=8)
ax_coef.set(title="load_diabetes: linear limit vs least squares")
ax_coef.legend(fontsize=8)
fig.tight_layout()
path = OUTPUT / "linear_baselines.png"
fig.savefig(path, dpi=85)
print(f"Figure written to {path.name}")
