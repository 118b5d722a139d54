"""
============================================================
Data and compute: the two terms of the paper's bound
============================================================

The paper bounds the excess risk after m iterations on n samples by a term
geometric in m (the optimization error, ``μ^m``) plus a statistical term that
shrinks with n. We measure both on the paper's Gaussian data (d = 10, q = 20,
condition number 30, noise 0.5):

* against n, from 100 to 10 000 samples, the default estimator as it stops by
  itself, beside least squares (whose excess is ``σ² d q / (2n)`` to first
  order); the slope is fitted on a log-log scale;
* against m at n = 500, the default (spectral start) and the random-start
  ablation; the rate μ is fitted to ``log(excess_m − excess_final)``.

Above ``max_context`` (2048 by default) training samples, the estimator attends
over a random subset of 2048 of them, so its statistical term stops shrinking
there: the slope is fitted for n ≤ 2048 only, and the points beyond are shown.

Set ``SOFTATTN_EXAMPLES_QUICK=1`` for a reduced run.
"""

import os
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression

from sklearn_softattn import SoftmaxAttentionRegressor
from sklearn_softattn.datasets import excess_risk, make_gaussian_regression

QUICK = bool(os.environ.get("SOFTATTN_EXAMPLES_QUICK"))
# (The gallery, which sets the variable, runs the script without __file__.)
OUTPUT = Path(os.environ.get("SOFTATTN_EXAMPLES_OUTPUT") or Path(__file__).resolve().parent)
warnings.simplefilter("ignore", ConvergenceWarning)

d, q = (3, 4) if QUICK else (10, 20)
data = dict(n_features=d, n_targets=q, noise=0.5, condition_number=30.0, return_truth=True)

# %%
# Excess risk against the number of samples n
# --------------------------------------------
sizes = [100, 300, 1000] if QUICK else [100, 200, 500, 1000, 2000, 5000, 10000]
seeds = [0] if QUICK else [0, 1]
attention, least_squares = [], []
for n in sizes:
    a, b = [], []
    for seed in seeds:
        X, y, M, cov = make_gaussian_regression(n, random_state=seed, **data)
        reg = SoftmaxAttentionRegressor(random_state=seed).fit(X, y)
        a.append(excess_risk(reg, M, cov))
        b.append(excess_risk(LinearRegression().fit(X, y), M, cov))
    attention.append(np.mean(a))
    least_squares.append(np.mean(b))
    print(f"n={n:6d}  attention {attention[-1]:.4f}  least squares {least_squares[-1]:.4f}")

sizes_arr = np.array(sizes)
in_context = sizes_arr <= 2048
slope_att = np.polyfit(np.log(sizes_arr[in_context]), np.log(np.array(attention)[in_context]), 1)[0]
slope_ls = np.polyfit(np.log(sizes_arr), np.log(least_squares), 1)[0]
print(f"fitted slope of log excess against log n: attention {slope_att:.2f} "
      f"(n <= 2048), least squares {slope_ls:.2f}")

# %%
# Excess risk against the number of iterations m
# ----------------------------------------------
# One seeded fit per checkpoint (tol=0, so no run stops early): exactly the
# state of one long run after m iterations.
n = 500
X, y, M, cov = make_gaussian_regression(n, random_state=0, **data)
checkpoints = [1, 3, 10, 30] if QUICK else [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
curves = {}
for name, params in [("default (spectral start)", {}), ("random start", {"init": "random"})]:
    curves[name] = [
        excess_risk(SoftmaxAttentionRegressor(**params, max_iter=m, tol=0.0,
                                              n_iter_no_change=m, random_state=0).fit(X, y),
                    M, cov)
        for m in checkpoints
    ]
ls_500 = excess_risk(LinearRegression().fit(X, y), M, cov)


def fitted_rate(m, excess):
    """exp(slope) of log(excess − final) against m, while the gap exceeds 1% of its first value."""
    gap = np.asarray(excess[:-1]) - excess[-1]
    keep = np.flatnonzero(gap < 0.01 * gap[0])
    stop = keep[0] if len(keep) else len(gap)
    if stop < 2 or np.any(gap[:stop] <= 0):
        return np.nan
    return float(np.exp(np.polyfit(np.asarray(m[:stop]), np.log(gap[:stop]), 1)[0]))


rates = {name: fitted_rate(checkpoints, c) for name, c in curves.items()}
print(f"\nexcess risk against iterations m at n = {n} (least squares {ls_500:.4f}):")
print(f"{'m':>26s}" + "".join(f"{m:>8d}" for m in checkpoints) + "   rate μ")
for name, c in curves.items():
    print(f"{name:>26s}" + "".join(f"{v:8.4f}" for v in c) + f"   {rates[name]:.3f}")

# %%
# Plot both terms
# ---------------
fig, (ax_n, ax_m) = plt.subplots(1, 2, figsize=(11, 4.2))
ax_n.plot(sizes, attention, "o-", label=f"attention (slope {slope_att:.2f}, n ≤ 2048)")
ax_n.plot(sizes, least_squares, "s--", label=f"least squares (slope {slope_ls:.2f})")
ax_n.axvline(2048, color="grey", lw=0.8, ls=":")
ax_n.set(xscale="log", yscale="log", xlabel="samples n", ylabel="excess risk",
         title="statistical term")
ax_n.legend(fontsize=8)
for name, c in curves.items():
    ax_m.plot(checkpoints, c, "o-", ms=3, label=f"{name} (μ = {rates[name]:.3f})")
ax_m.axhline(ls_500, color="k", ls="--", lw=1, label="least squares")
ax_m.set(xscale="log", yscale="log", xlabel="iterations m", title=f"optimization term (n = {n})")
ax_m.legend(fontsize=8)
fig.tight_layout()
path = OUTPUT / "data_and_compute.png"
fig.savefig(path, dpi=85)
print(f"Figure written to {path}")
