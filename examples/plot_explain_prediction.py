"""
=================================================
Explaining a prediction by the rows it attends to
=================================================

A softmax attention layer predicts a new row ``x`` as an average over the
stored context rows ``c_j`` (here the training set)::

    f(x) = ȳ + Σ_j a_j(x) · V (c_j − x̄),    Σ_j a_j(x) = 1,

so every prediction comes with the rows it averages over and their weights.
``attention_weights(X)`` returns the weights ``a_j(x)`` (``top_k=k``: only
the ``k`` heaviest rows, computed block by block for large contexts), and
``y_offset_ + A @ ((context_ - x_offset_) @ value_.T)`` is ``predict(X)``.

The data: scikit-learn's wine data set (178 wines of three cultivars, 13
chemical measurements), the flavanoid content of a wine predicted from its 12
other measurements. The cultivar is not a feature: it shows whether the rows
a wine attends to are wines like it.

The model is :class:`~sklearn_softattn.SoftmaxAttentionRegressorCV` with its
defaults but ``additive_end=False``: the additive end, which its folds may take
in the attention's place, has no rows to explain a prediction by. Beside it, for contrast, :class:`~sklearn_softattn.SoftmaxAttentionRegressor`
with its default ``attention_scale`` (0.03), close to least squares, where every
row gets nearly the same weight and no few rows explain a prediction.

Set ``SOFTATTN_EXAMPLES_QUICK=1`` for a reduced run.
"""

import os
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_wine
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split

from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV

QUICK = bool(os.environ.get("SOFTATTN_EXAMPLES_QUICK"))
# (The gallery, which sets the variable, runs the script without __file__.)
OUTPUT = Path(os.environ.get("SOFTATTN_EXAMPLES_OUTPUT") or Path(__file__).resolve().parent)
warnings.simplefilter("ignore", ConvergenceWarning)

# %%
# Data and models
# ---------------
wine = load_wine()
target = wine.feature_names.index("flavanoids")
features = [name for k, name in enumerate(wine.feature_names) if k != target]
X, y = np.delete(wine.data, target, axis=1), wine.data[:, target]
X_train, X_test, y_train, y_test, cultivar_train, cultivar_test = train_test_split(
    X, y, wine.target, random_state=0)

small = dict(attention_scales=[0.0, 1.0], shrinkages=[0.0], cv=3, max_iters=30) if QUICK else {}
models = {
    "least squares": LinearRegression(),
    "attention, default scale": SoftmaxAttentionRegressor(random_state=0),
    "attention CV": SoftmaxAttentionRegressorCV(**small, additive_end=False, random_state=0),
}
for name, model in models.items():
    model.fit(X_train, y_train)
    chosen = ("" if not hasattr(model, "best_params_") else
              f" (chosen start {model.best_params_['attention_scale']:.3g}, shrinkage "
              f"{model.best_params_['shrinkage']}; learned sharpness {model.attention_scale_:.3g})")
    print(f"test R² {name:24}: {model.score(X_test, y_test):.3f}{chosen}")
model = models["attention CV"]
# With fewer training rows than max_context, the context is the training set, in order.
assert np.array_equal(model.context_, X_train)

# %%
# The weights reproduce the prediction
# ------------------------------------
A = model.attention_weights(X_test)
values = (model.context_ - model.x_offset_) @ model.value_.T  # (n_context, 1)
rebuilt = model.y_offset_ + (A @ values)[:, 0]
print(f"\nmax |y_offset_ + A @ values - predict(X)| = "
      f"{np.abs(rebuilt - model.predict(X_test)).max():.1e}")
effective = 1 / np.sum(A**2, axis=1)  # the number of equal weights with the same spread
print(f"effective number of rows attended, median over the test wines: "
      f"{np.median(effective):.0f} of {A.shape[1]}")

# %%
# One prediction, row by row
# --------------------------
# The ten heaviest rows of the first test wine: each row's weight (and its
# ratio to the uniform weight ``1 / n_context``), its cultivar and flavanoids,
# and its contribution ``a_j V (c_j − x̄)`` to the prediction.
i, k = 0, 10
rows, weights = model.attention_weights(X_test[[i]], top_k=k)
rows, weights = rows[0], weights[0]
n_context = len(model.context_)
print(f"\ntest wine {i}: cultivar {cultivar_test[i]}, flavanoids {y_test[i]:.2f}, predicted "
      f"{model.predict(X_test[[i]])[0]:.2f} = y_offset_ {model.y_offset_[0]:.2f} "
      f"+ the weighted values {(A[i] @ values)[0]:+.2f}\n")
print("| context row | weight | × uniform | cultivar | flavanoids | contribution |")
print("|---|---|---|---|---|---|")
for row, weight in zip(rows, weights):
    print(f"| {row} | {weight:.3f} | {weight * n_context:.1f} | {cultivar_train[row]} | "
          f"{y_train[row]:.2f} | {weight * values[row, 0]:+.3f} |")
rest = np.setdiff1d(np.arange(n_context), rows)
print(f"| the other {len(rest)} | {A[i, rest].sum():.3f} | | | | "
      f"{A[i, rest] @ values[rest, 0]:+.3f} |")
same = A[i, cultivar_train == cultivar_test[i]].sum()
print(f"\nweight on wines of the same cultivar: {same:.2f} "
      f"(their share of the training set: {np.mean(cultivar_train == cultivar_test[i]):.2f})")

# %%
# Plot
# ----
# Left: the training wines in the two features of largest standardized
# linear-limit coefficient, sized by the weight the test wine gives them,
# coloured by cultivar. Right: the cumulative weight of the heaviest rows, for
# the two attention models (the dotted line: uniform weights).
strength = np.abs(model.coef_ * X_train.std(axis=0))
f1, f2 = np.argsort(strength)[::-1][:2]
fig, (ax_rows, ax_cum) = plt.subplots(1, 2, figsize=(12, 4.6))
for c in np.unique(cultivar_train):
    mask = cultivar_train == c
    ax_rows.scatter(X_train[mask, f1], X_train[mask, f2], s=4 + 3000 * A[i, mask],
                    alpha=0.6, label=f"cultivar {c}")
ax_rows.scatter(X_test[i, f1], X_test[i, f2], marker="*", s=250, color="k",
                label=f"test wine {i}")
ax_rows.set(xlabel=features[f1], ylabel=features[f2],
            title="training wines, sized by the weight of the prediction")
ax_rows.legend(fontsize=8)
ranks = np.arange(1, n_context + 1)
linear = models["attention, default scale"]
for name, scale in [("attention CV", model.attention_scale_),
                    ("attention, default scale", linear.attention_scale)]:
    w = np.sort(models[name].attention_weights(X_test[[i]])[0])[::-1]
    ax_cum.plot(ranks, np.cumsum(w), label=f"{name} (attention_scale={scale:.3g})")
ax_cum.plot(ranks, ranks / n_context, "k:", label="uniform weights")
ax_cum.set(xlabel="heaviest context rows", ylabel="their total weight", xscale="log",
           title=f"how concentrated the attention of test wine {i} is")
ax_cum.legend(fontsize=8)
fig.tight_layout()
path = OUTPUT / "explain_prediction.png"
fig.savefig(path, dpi=85)
print(f"Figure written to {path.name}")
