"""The additive end: one smooth function of each feature, summed.

Ridge regression on each feature's cubic B-splines (:func:`spline_basis`: four uniform knots
over the training range, flat beyond it, as :class:`~sklearn.preprocessing.SplineTransformer`
makes them with ``n_knots=4, extrapolation="constant"``), its penalty chosen among
:data:`ALPHAS` by efficient leave-one-out, as :class:`~sklearn.linear_model.RidgeCV` chooses
it (:func:`~._ridge.ridge_loo`). The cross-validated estimator's folds may take it in place
of the attention's chosen point (``additive_end``); the model is then a linear limit whose
``coef`` reads the splines (:attr:`~._layer.FittedLayer.spline_map`).
"""

from dataclasses import replace

import numpy as np

from ._ridge import ridge_loo

# The ridge penalties (on the splines' coefficients, as they are): from 0.1, since smaller
# ones let the outermost splines chase a few outlying targets (the user guide's benchmark
# log, "An additive end, probed").
ALPHAS = np.logspace(-1, 3, 9)
# Knots over each feature's training range: three intervals, six cubic B-splines.
N_KNOTS = 4
# The four cubic B-splines that are nonzero on an interval, at its point s in [0, 1]: the
# coefficients of 1, s, s², s³ (times 6), the first spline's last piece to the last's first.
PIECES = np.array([[1, -3, 3, -1], [4, 0, -6, 3], [1, 3, 3, -3], [0, 0, 0, 1]]) / 6.0


def fit_additive(X, Y, sample_weight):
    """The additive end fitted on the rows ``X``, ``Y`` (2-D): its fitted spline map, its
    coefficients on the splines (n_targets, n_splines) and its intercept (n_targets,).
    The weights count relative to their mean, so that the penalties are unit weights'
    whatever the weights' scale, which may lie beyond the range of ``X``'s dtype."""
    sample_weight = sample_weight / sample_weight.mean()
    lower = X.min(axis=0).astype(np.float64)
    spline_map = lower, (X.max(axis=0) - lower) / (N_KNOTS - 1)
    coef, intercept, _ = ridge_loo(spline_basis(spline_map, X), Y, sample_weight, ALPHAS)
    return spline_map, coef.astype(X.dtype), intercept.astype(X.dtype)


def spline_basis(spline_map, X):
    """Each feature's six cubic B-splines at the rows ``X``, (n_samples, 6 · n_features),
    a feature's six side by side: knots at ``lower + k · step`` for k = -3 to 6 (the
    ``spline_map``, ``(lower, step)`` per feature), so that the four of the training
    range, k = 0 to 3, span it; a row beyond it reads the splines at its end, and a
    constant feature's splines are 0."""
    lower, step = spline_map
    intervals = N_KNOTS - 1
    u = np.divide(X - lower, step, out=np.zeros(X.shape), where=step > 0)
    u = np.clip(u, 0.0, intervals)
    interval = np.minimum(u.astype(np.intp), intervals - 1)
    s = (u - interval)[..., None] ** np.arange(4)
    values = np.where(step[:, None] > 0, s @ PIECES.T, 0.0)  # (rows, features, 4)
    basis = np.zeros((*X.shape, intervals + 3))
    np.put_along_axis(basis, interval[..., None] + np.arange(4), values, axis=-1)
    return basis.reshape(X.shape[0], -1)


def predict_additive(spline_map, coef, intercept, X):
    """Predictions (2-D) of an additive end at ``X``; 1-D for a 1-D ``coef``."""
    S = spline_basis(spline_map, X).astype(X.dtype, copy=False)
    y = intercept + S @ np.atleast_2d(coef).T
    return y.ravel() if np.ndim(coef) == 1 else y


def additive_layer(layer, X, Y, sample_weight):
    """``layer``, a linear limit fitted on the rows ``X``, ``Y`` (2-D, positive weights),
    with its linear part the additive end's fit on the same rows instead."""
    spline_map, coef, intercept = fit_additive(X, Y, sample_weight)
    if np.ndim(layer.coef) == 1:
        coef, intercept = coef[0], intercept[0]
    return replace(layer, coef=coef, intercept=intercept, spline_map=spline_map)
