"""The additive end: one smooth function of each feature, summed.

Ridge regression on each feature's cubic B-splines
(:class:`~sklearn.preprocessing.SplineTransformer`: four knots over the training range,
flat beyond it), its penalty chosen among :data:`ALPHAS` by efficient leave-one-out, as
:class:`~sklearn.linear_model.RidgeCV` chooses it (:func:`ridge_loo`). The cross-validated
estimator's folds may take it in place of the attention's chosen point
(``additive_end``); the model is then a linear limit whose ``coef`` reads the splines
(:attr:`~._layer.FittedLayer.spline_map`).
"""

from dataclasses import replace

import numpy as np
from sklearn.preprocessing import SplineTransformer
from sklearn.utils import gen_batches

# The ridge penalties (on the splines' coefficients, as they are): from 0.1, since smaller
# ones let the outermost splines chase a few outlying targets (the user guide's benchmark
# log, "An additive end, probed").
ALPHAS = np.logspace(-1, 3, 9)
# Rows read at a time by ridge_loo: its memory beside the splines' matrix.
BLOCK_ROWS = 4096


def fit_additive(X, Y, sample_weight):
    """The additive end fitted on the rows ``X``, ``Y`` (2-D): its fitted spline map, its
    coefficients on the splines (n_targets, n_splines) and its intercept (n_targets,).
    The weights count relative to their mean, so that the penalties are unit weights'
    whatever the weights' scale, which may lie beyond the range of ``X``'s dtype."""
    sample_weight = sample_weight / sample_weight.mean()
    splines = SplineTransformer(n_knots=4, extrapolation="constant")
    S = splines.fit_transform(X, sample_weight=sample_weight)
    coef, intercept, _ = ridge_loo(S, Y, sample_weight, ALPHAS)
    return splines, coef.astype(X.dtype), intercept.astype(X.dtype)


def ridge_loo(X, Y, sample_weight, alphas, block_rows=BLOCK_ROWS):
    """Ridge regression of ``Y`` (2-D) on ``X`` with an unpenalized intercept, its penalty
    the one of ``alphas`` whose leave-one-out squared errors (weighted, over the rows and
    targets) have the least mean, the first of equals: :class:`~sklearn.linear_model.RidgeCV`'s
    choice with its default scoring. One eigendecomposition of the centred, weighted
    ``Xᵀ X`` serves every penalty, and each costs O(n_samples · n_features); the rows are
    read in blocks of ``block_rows``, so that beside ``X`` the memory is O(block_rows ·
    n_features): ``(coef (n_targets, n_features), intercept (n_targets,), alpha)``, in
    float64."""
    share = sample_weight / sample_weight.sum()
    x_mean, y_mean = share @ X, share @ Y
    root = np.sqrt(sample_weight)[:, None]
    blocks = list(gen_batches(X.shape[0], block_rows))

    def centred(rows):
        return ((np.asarray(X[rows], dtype=np.float64) - x_mean) * root[rows],
                (np.asarray(Y[rows], dtype=np.float64) - y_mean) * root[rows])

    gram, XY = 0.0, 0.0
    for rows in blocks:
        Xc, Yc = centred(rows)
        gram, XY = gram + Xc.T @ Xc, XY + Xc.T @ Yc
    eigvals, V = np.linalg.eigh(gram)
    eigvals = np.maximum(eigvals, 0.0)  # (rounding: the splines of a feature sum to one)
    PY = V.T @ XY
    shrinks = 1.0 / (eigvals[:, None] + np.asarray(alphas, dtype=np.float64))  # (p, alphas)
    errors = np.zeros(len(alphas))
    for rows in blocks:
        Xc, Yc = centred(rows)
        P = Xc @ V  # the rows in the eigenbasis
        # The hat matrix's diagonal: the intercept's share of each row, then the ridge's.
        hat = share[rows, None] + (P * P) @ shrinks  # (rows, alphas)
        for k in range(len(alphas)):
            residual = Yc - P @ (shrinks[:, k, None] * PY)
            errors[k] += np.sum((residual / (1.0 - hat[:, k, None])) ** 2)
    alpha = alphas[int(np.argmin(errors))]
    coef = (V @ (PY / (eigvals + alpha)[:, None])).T
    return coef, y_mean - coef @ x_mean, alpha


def predict_additive(splines, coef, intercept, X):
    """Predictions (2-D) of an additive end at ``X``; 1-D for a 1-D ``coef``."""
    y = intercept + splines.transform(X).astype(X.dtype, copy=False) @ np.atleast_2d(coef).T
    return y.ravel() if np.ndim(coef) == 1 else y


def additive_layer(layer, X, Y, sample_weight):
    """``layer``, a linear limit fitted on the rows ``X``, ``Y`` (2-D, positive weights),
    with its linear part the additive end's fit on the same rows instead."""
    splines, coef, intercept = fit_additive(X, Y, sample_weight)
    if np.ndim(layer.coef) == 1:
        coef, intercept = coef[0], intercept[0]
    return replace(layer, coef=coef, intercept=intercept, spline_map=splines)
