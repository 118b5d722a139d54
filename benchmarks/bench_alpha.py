"""How the balancing regularizer's strength alpha trades small data against nonlinear fits.

Run: python benchmarks/bench_alpha.py

For each alpha, with every other parameter at its default: 5-fold
cross-validated R² minus LinearRegression's on small Gaussian linear data
(n=30, d=5, one target, 10 seeds: mean and worst), and the cross-validated R²
on load_diabetes and make_friedman1(600, noise=1.0). This is the measurement
behind the default alpha=10.
"""

import warnings

import numpy as np
from sklearn.datasets import load_diabetes, make_friedman1
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import KFold, cross_val_score

from sklearn_softattn import SoftmaxAttentionRegressor
from sklearn_softattn.datasets import make_gaussian_regression

CV = KFold(5, shuffle=True, random_state=0)


def cv_r2(estimator, X, y):
    return cross_val_score(estimator, X, y, cv=CV).mean()


def main(alphas=(0.01, 1.0, 10.0, 100.0), seeds=range(10)):
    warnings.simplefilter("ignore", ConvergenceWarning)
    small = [make_gaussian_regression(30, 5, 1, random_state=seed) for seed in seeds]
    linear_small = [cv_r2(LinearRegression(), X, y) for X, y in small]
    diabetes = load_diabetes(return_X_y=True)
    friedman = make_friedman1(600, noise=1.0, random_state=0)
    print("| alpha | n=30, d=5: mean R² − least squares' | worst | diabetes | friedman1 |")
    print("|---|---|---|---|---|")
    print(f"| LinearRegression | 0 | 0 | {cv_r2(LinearRegression(), *diabetes):.3f} "
          f"| {cv_r2(LinearRegression(), *friedman):.3f} |")
    for alpha in alphas:
        model = SoftmaxAttentionRegressor(alpha=alpha, random_state=0)
        gaps = [cv_r2(model, X, y) - lin for (X, y), lin in zip(small, linear_small)]
        print(f"| {alpha:g} | {np.mean(gaps):+.3f} | {min(gaps):+.3f} "
              f"| {cv_r2(model, *diabetes):.3f} | {cv_r2(model, *friedman):.3f} |", flush=True)


if __name__ == "__main__":
    main()
