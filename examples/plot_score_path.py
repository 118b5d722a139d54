"""
=====================================================
The cross-validated score path of the sharpness
=====================================================

:class:`~sklearn_softattn.SoftmaxAttentionRegressorCV` fits the layer along a
path of increasing ``attention_scale``, the sharpness of the softmax, for each
fold and each ``(balance_strength, shrinkage)``, and keeps the smallest scale
whose mean validation score is within one standard error of the best.
:class:`~sklearn_softattn.ScorePathDisplay` draws that path, as
``LassoCV``'s path is drawn in scikit-learn's gallery: the mean validation R²
against ``attention_scale`` (a log axis, linear up to its first positive
value, so that the linear limit 0 has a place), one line per
``(max_iter, balance_strength, shrinkage)``, the folds' spread as a band, the
chosen point as a star, and the additive end's mean score (ridge regression on
each feature's splines, which is the model instead where it leads the chosen
point by one standard error) as a dashed level. Its default path is short (the linear limit and one
start, from which the solver learns the sharpness, past the linear limit of
shrinkage 0 alone); here it is a path of five scales, ``attention_scales=5``,
past the linear limit of every shrinkage (``attention_shrinkages=None``), so that
there is a path to see.

Two data sets:

* linear data (the paper's Gaussian design, one target): the path is flat from
  its linear limit until the softmax becomes sharp enough to smooth
  locally, and then falls. The chosen point stays at the linear limit or at the
  first scale past it, where the softmax is nearly flat;
* ``make_friedman1``, a smooth nonlinear function of 5 of 10 features: the
  score rises well above the linear limit before it falls again, and
  the chosen point is where the layer is nonlinear.

Set ``SOFTATTN_EXAMPLES_QUICK=1`` for a reduced run.
"""

import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from sklearn.datasets import make_friedman1

from sklearn_softattn import ScorePathDisplay, SoftmaxAttentionRegressorCV
from sklearn_softattn.datasets import make_gaussian_regression

QUICK = bool(os.environ.get("SOFTATTN_EXAMPLES_QUICK"))
# (The gallery, which sets the variable, runs the script without __file__.)
OUTPUT = Path(os.environ.get("SOFTATTN_EXAMPLES_OUTPUT") or Path(__file__).resolve().parent)

# %%
# Fit the cross-validated estimator on both data sets
# ---------------------------------------------------
# ``attention_scales=5``: the linear limit (0) and 4 scales from 0.01 to 10
# (further with distance scores, until they resolve the rows' spacing); the
# paths of every shrinkage; the rest at the defaults: the iteration counts 5, 15 and
# 40, ``balance_strengths=(0,)``, ``shrinkages=(0, "auto", 10)``, 5 shuffled folds
# drawn twice.
n_samples = 200 if QUICK else 400
datasets = {
    "linear (Gaussian design, d = 10)": make_gaussian_regression(
        n_samples, 10, 1, noise=1.0, random_state=0),
    "nonlinear (make_friedman1)": make_friedman1(n_samples, noise=1.0, random_state=0),
}
fitted = {}
for name, (X, y) in datasets.items():
    fitted[name] = SoftmaxAttentionRegressorCV(attention_scales=5, attention_shrinkages=None,
                                               random_state=0).fit(X, y)
    reg, best = fitted[name], fitted[name].best_params_
    mean = reg.score_path_.mean(axis=-1)  # (scales, max_iters, balance strengths, shrinkages)
    chosen = mean[list(reg.attention_scales_).index(best["attention_scale"]),
                  list(reg.max_iters_).index(best["max_iter"]),
                  list(reg.balance_strengths_).index(best["balance_strength"]),
                  list(reg.shrinkages_).index(best["shrinkage"])]
    print(f"{name}: attention_scale={best['attention_scale']:.3g}, "
          f"shrinkage={best['shrinkage']}; mean validation R² {chosen:.3f} there, "
          f"{mean[0].max():.3f} at the linear limit, {mean.max():.3f} at the best point; "
          f"the additive end {reg.additive_scores_.mean():.3f}"
          f"{', taken' if reg.additive_end_ else ''}")
# What the introduction says: linear at the linear limit, nonlinear away from it.
linear = fitted["linear (Gaussian design, d = 10)"]
assert linear.best_params_["attention_scale"] <= linear.attention_scales_[1]
assert fitted["nonlinear (make_friedman1)"].best_params_["attention_scale"] > 0

# %%
# Draw the paths
# --------------
# ``from_estimator`` takes the fitted estimator and the axes to draw on.
fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
for ax, (name, reg) in zip(axes, fitted.items()):
    ScorePathDisplay.from_estimator(reg, ax=ax)
    ax.set_title(name)
fig.tight_layout()
path = OUTPUT / "score_path.png"
fig.savefig(path, dpi=85)
print(f"Figure written to {path.name}")
