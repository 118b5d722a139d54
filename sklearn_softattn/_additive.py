"""The additive end: one smooth function of each feature, summed.

Ridge regression on each feature's cubic B-splines
(:class:`~sklearn.preprocessing.SplineTransformer`: four knots over the training range,
flat beyond it), its penalty chosen among :data:`ALPHAS` by
:class:`~sklearn.linear_model.RidgeCV`'s efficient leave-one-out. The cross-validated
estimator's folds may take it in place of the attention's chosen point
(``additive_end``); the model is then a linear limit whose ``coef`` reads the splines
(:attr:`~._layer.FittedLayer.spline_map`).
"""

from dataclasses import replace

import numpy as np
from sklearn.linear_model import RidgeCV
from sklearn.preprocessing import SplineTransformer

# The ridge penalties (on the splines' coefficients, as they are): from 0.1, since smaller
# ones let the outermost splines chase a few outlying targets (the user guide's benchmark
# log, "An additive end, probed").
ALPHAS = np.logspace(-1, 3, 9)


def fit_additive(X, Y, sample_weight):
    """The additive end fitted on the rows ``X``, ``Y`` (2-D): its fitted spline map, its
    coefficients on the splines (n_targets, n_splines) and its intercept (n_targets,).
    The weights count relative to their mean, so that the penalties are unit weights'
    whatever the weights' scale, which may lie beyond the range of ``X``'s dtype."""
    sample_weight = sample_weight / sample_weight.mean()
    splines = SplineTransformer(n_knots=4, extrapolation="constant")
    S = splines.fit_transform(X, sample_weight=sample_weight)
    ridge = RidgeCV(alphas=ALPHAS).fit(S, Y, sample_weight=sample_weight)
    return (splines, np.atleast_2d(ridge.coef_).astype(X.dtype, copy=False),
            np.atleast_1d(ridge.intercept_).astype(X.dtype, copy=False))


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
