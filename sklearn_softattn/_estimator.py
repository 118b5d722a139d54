"""SoftmaxAttentionRegressor: validation, orchestration and fitted attributes."""

import warnings
from dataclasses import dataclass, replace
from functools import cached_property, wraps
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin, _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import RidgeCV
from sklearn.utils import check_random_state, check_scalar, gen_batches
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from . import _attention
from ._attention import _one_blas_thread, attention_forward
from ._callbacks import CallbackSupportMixin, Task
from ._geometry import (
    Renormalization,
    change_basis,
    check_metric,
    distance_map,
    feature_scale,
    renormalize,
    symmetric_root,
    weighted_covariance,
    whitening,
)
from ._init import isotropic_init, random_init, spectral_init
from ._neighbors import TrainingNeighbors, locality_order, query_neighbors
from ._objective import Objective, leave_one_out
from ._solvers import OPTIMIZERS, Progress, gd, lbfgs, minibatch

# The paper's baseline: plain minibatch SGD from a random start, without the
# preconditioner, the regularizer or the renormalization.
PAPER_BASELINE = dict(
    attention_scale=1.0,  # the norm of the random start's K (nothing renormalizes it)
    init="random",
    preconditioner=None,
    regularization=None,
    renormalize=False,
    solver="sgd",
)

# The ridge penalties among which ``shrinkage="auto"`` chooses (Ridge's alpha on
# standardized features), by RidgeCV's efficient leave-one-out.
AUTO_SHRINKAGES = np.logspace(-3, 3, 13)

# Default learning rate of each solver (``learning_rate="auto"``).
_AUTO_LEARNING_RATE = {"gd": 1.0, "sgd": 0.03, "adam": 0.05}


def handles_float_errors(method):
    """``method`` with numpy's floating-point warnings off.

    The fit meets overflow and values that are not finite on extreme inputs, and
    handles them where they arise: a step whose objective is not finite is halved
    or stepped back from, scores that could overflow are scaled, weights that
    underflow drop out. What it cannot handle ends in a ``ValueError`` of its own,
    and fitted parameters are checked to be finite; numpy's warnings would only
    repeat, in its words, what was handled.
    """

    @wraps(method)
    def quiet(*args, **kwargs):
        with np.errstate(all="ignore"):
            return method(*args, **kwargs)

    return quiet


def _check_spread(centered, name):
    """Raise a ValueError if ``centered`` values are too large or too small.

    Training squares them (covariance, loss) and stores the key-query matrix
    in raw units, which scale like their inverse square: with a margin of
    ``2**20``, both must stay within the floating-point range. For float64,
    the largest deviation from the mean must lie between about 1e-151 and
    1e151 (or be exactly 0: constant values are fine).
    """
    finfo = np.finfo(centered.dtype)
    low, high = np.sqrt(finfo.tiny) * 2**10, np.sqrt(finfo.max) / 2**10
    spread = np.max(np.abs(centered))
    if spread != 0 and not low <= spread <= high:
        raise ValueError(
            f"{name} deviates from its mean by up to {spread:.3g}; "
            f"SoftmaxAttentionRegressor needs that spread between {low:.1e} and "
            f"{high:.1e} ({centered.dtype}) to square it without overflow or "
            f"underflow. Rescale {name}, e.g. with StandardScaler."
        )


def _column_means(A, weights):
    """Weighted column means, exact for constant columns.

    The round-off of a constant column's mean (``0.1`` averages to
    ``0.1 + 4e-17``) would otherwise be whitened into a spurious feature.
    """
    means = np.average(A, axis=0, weights=weights).astype(A.dtype)
    constant = np.all(A == A[0], axis=0)
    means[constant] = A[0, constant]
    return means


def _batch_size(batch_size, n_samples):
    """Queries per minibatch: ``batch_size``, ``"auto"`` meaning 200, at most ``n_samples``."""
    return min(200 if batch_size == "auto" else batch_size, n_samples)


def _positive_rows(X, Y, sample_weight, needed):
    """The rows of positive weight (no copy when all are), at least ``needed`` of them.

    A weight counts as positive from ``2**20 / M`` times the largest weight, ``M``
    the largest number of the data's dtype (about 6e-303 of it in float64, 3e-33
    in float32); a row below takes no part, as a zero weight. Its share of every
    weighted sum is far below the dtype's precision, yet a row alone in a direction
    lies about ``share ** -0.5`` standard deviations out there, which whitening
    squares: that must not overflow, as the spread of the data must not (see
    :func:`_check_spread`, whose margin this is).
    """
    largest = sample_weight.max() if len(sample_weight) else 0.0
    keep = sample_weight > 0
    if largest > 0:
        keep &= sample_weight / largest >= 2.0**20 / np.finfo(X.dtype).max
    if not np.all(keep):
        X, Y, sample_weight = X[keep], Y[keep], sample_weight[keep]
    if X.shape[0] < needed:
        raise ValueError(
            f"n_samples={X.shape[0]} with positive weight, but softmax attention "
            f"needs at least {needed}: each training row attends over the others."
        )
    return X, Y, sample_weight


@dataclass
class _Problem:
    """A training problem in the solver's working coordinates, built once per fit.

    ``objective`` holds the leave-one-out queries, targets and context (its
    regularizer strength is set by the solver from ``alpha``); ``T`` maps
    centered features to working coordinates and ``W`` whitens them (``Wᵀ Σ̂ W = I``).
    ``loss_scale`` is the loss of predicting the mean, ``L₀``; ``radius`` is the
    largest Mahalanobis distance ``‖(x - x̄) P‖`` of a training query, for the
    ``distance`` map ``P`` (:func:`~._geometry.distance_map`). With target tokens,
    ``context_Y`` holds the context rows' raw targets and ``target_covariance`` their
    weighted covariance with the context rows' features (q × d); both None without.
    """

    objective: Objective
    Xc: np.ndarray
    Yc: np.ndarray
    T: np.ndarray
    T_inv: np.ndarray
    W: np.ndarray
    W_inv: np.ndarray
    context_X: np.ndarray
    distance: np.ndarray
    radius: float
    x_offset: np.ndarray
    y_offset: np.ndarray
    covariance: np.ndarray
    loss_scale: float
    context_Y: np.ndarray = None
    target_covariance: np.ndarray = None
    fit_intercept: bool = True

    @property
    def subsampled(self):
        """Whether the context, whose mean and covariance center and whiten the
        features, is a subsample of the training rows."""
        return len(self.context_X) < len(self.Xc)

    @cached_property
    def feature_mean(self):
        """The training rows' weighted feature mean (the context's offset plus the
        rows' mean offset from it); the offset itself where the context is every row
        or without an intercept (offset 0)."""
        if not (self.subsampled and self.fit_intercept):
            return self.x_offset
        w = self.objective.weight
        return self.x_offset + (w / w.sum()).astype(self.Xc.dtype) @ self.Xc

    def ridge_strength(self, shrinkage):
        """The objective's weight of the ridge penalty for a ``shrinkage`` in
        :class:`~sklearn.linear_model.Ridge`'s units (or ``"auto"``, see
        :attr:`auto_shrinkage`): the loss is the weighted mean of squared
        errors over 2, so ``shrinkage`` over the sum of the weights.

        At most ``1 / ε`` (the data's machine epsilon): the penalty then shrinks
        the standardized coefficients to ``ε`` times least squares' or less, which
        is zero to working precision, as any larger strength would give. (Sample
        weights far below 1 make the strength as large as their sum is small.)"""
        if isinstance(shrinkage, str):  # "auto"
            shrinkage = self.auto_shrinkage
        most = 1 / np.finfo(self.Xc.dtype).eps
        return float(min(shrinkage / self.objective.weight.sum(), most))

    @cached_property
    def auto_shrinkage(self):
        """The shrinkage that :class:`~sklearn.linear_model.RidgeCV` chooses on the
        training rows' standardized features, among :data:`AUTO_SHRINKAGES`, by
        its efficient leave-one-out error."""
        # Weights over their largest and penalties likewise: the same problem, with
        # weights spanning hundreds of orders of magnitude cannot overflow.
        unit = self.objective.weight.max()
        ridge = RidgeCV(alphas=AUTO_SHRINKAGES / unit).fit(
            self.Xc / feature_scale(self.covariance), self.Yc,
            sample_weight=self.objective.weight / unit)
        return float(ridge.alpha_ * unit)


def _fitted_attributes(K, V, problem, y_ndim, linear=False):
    """The fitted attributes of the model with raw parameters ``(K, V)``.

    ``linear=True``: the layer's limit as ``attention_scale`` tends to 0, where
    ``K -> 0`` and ``V -> ∞`` with ``V Σ̂ Kᵀ`` fixed; any ``(K, V)`` on that
    ray gives its ``coef_``, and ``key_query_`` and ``value_`` are stored as
    zeros, which is how :func:`layer_predict` knows the model is linear.
    With target tokens ``V`` is ``[V_x, U]`` and the linear limit
    ``(V_x Σ̂ + U Σ̂_yx) Kᵀ``, ``Σ̂_yx`` the targets' covariance with the features.
    """
    d = K.shape[0]
    V, U = V[:, :d], (V[:, d:] if problem.context_Y is not None else None)
    coef = V @ problem.covariance @ K.T
    if U is not None:
        coef += U @ problem.target_covariance @ K.T
    # The linear limit is a linear model fitted on all the training rows, with their
    # own means; the layer is centred on the context's.
    intercept = problem.y_offset - coef @ (problem.feature_mean if linear else problem.x_offset)
    if linear:
        K, V = np.zeros_like(K), np.zeros_like(V)
        U = None if U is None else np.zeros_like(U)
    return dict(
        key_query_=K,
        value_=V,
        target_value_=U,
        context_targets_=problem.context_Y,
        _attention_scores=problem.objective.scores,
        _n_neighbors=(None if problem.objective.neighbors is None
                      else problem.objective.neighbors.k),
        context_=problem.context_X,
        context_weight_=problem.objective.context_weight,
        data_radius_=problem.radius,
        _distance=problem.distance,
        x_offset_=problem.x_offset,
        y_offset_=problem.y_offset,
        _covariance=problem.covariance,
        coef_=coef[0] if y_ndim == 1 else coef,
        intercept_=intercept[0] if y_ndim == 1 else intercept,
    )


_PARAMETERS = ("key_query_", "value_", "target_value_", "coef_", "intercept_")


def not_finite(attributes):
    """The names of the parameters of fitted ``attributes`` that are not finite.

    The solvers keep every iterate's objective finite; what can still overflow is the
    map to the raw features' units, on data whose spread, under the sample weights,
    spans more than the dtype's range in some direction.
    """
    return [name for name in _PARAMETERS
            if attributes[name] is not None and not np.all(np.isfinite(attributes[name]))]


def check_finite_fit(attributes):
    """Raise a ValueError unless the parameters of fitted ``attributes`` are finite."""
    bad = not_finite(attributes)
    if bad:
        raise _overflow(f"The fitted {', '.join(bad)} are")


def _overflow(what):
    return ValueError(
        f"{what} not finite: in raw units the layer's parameters overflow. The rows' "
        "spread, under sample_weight, spans more than the range of X's dtype in some "
        "direction: rescale X (StandardScaler), use float64 X, or give sample_weight a "
        "narrower range."
    )


def context_rows(n_samples, max_context, n_neighbors, rng):
    """Positions of the rows that form the context, ascending: every row, or with
    more than ``max_context`` rows and dense attention (``n_neighbors`` None) a
    uniform sample of ``max_context`` of them drawn from ``rng``."""
    if max_context is None or n_samples <= max_context or n_neighbors is not None:
        return np.arange(n_samples)
    return np.sort(rng.choice(n_samples, max_context, replace=False))


def mahalanobis_norms(Xc, P):
    """The norms ``‖x P‖`` of the rows of centered ``Xc``: their Mahalanobis
    distances from the mean, for a :func:`~._geometry.distance_map` ``P``.
    Computed in blocks of rows, so that no copy of ``Xc`` is held; where the sum
    of squares overflows, by ``hypot`` (an infinite norm only where ``x P`` is)."""
    P = P.astype(Xc.dtype, copy=False)
    norms = np.empty(Xc.shape[0], dtype=Xc.dtype)
    for rows in gen_batches(Xc.shape[0], 4096):
        with np.errstate(over="ignore"):
            Z = Xc[rows] @ P
            norms[rows] = np.sqrt(np.einsum("ij,ij->i", Z, Z))
        overflow = np.isinf(norms[rows])
        if overflow.any():
            norms[rows][overflow] = np.hypot.reduce(Z[overflow], axis=1)
    return norms


def centered_queries(attributes, X, extrapolation):
    """Validated ``X`` centered by ``x_offset_``, as the softmax sees it: with
    ``extrapolation="clip"``, a row whose Mahalanobis distance from
    ``x_offset_`` exceeds ``data_radius_`` (the largest of a training row)
    is pulled back along its ray to that distance; rows within it are
    unchanged. The distances are invariant under invertible linear maps of
    the features, and so is the clipped model."""
    Xc = X - attributes["x_offset_"]
    if extrapolation == "clip":
        norms = mahalanobis_norms(Xc, attributes["_distance"])
        far = norms > attributes["data_radius_"]
        Xc[far] *= (attributes["data_radius_"] / norms[far])[:, None]
    return Xc


def layer_predict(attributes, X, n_jobs=None, extrapolation="clip"):
    """Predictions at validated ``X`` of the model with the fitted ``attributes``
    (as :func:`_fitted_attributes` gives them); 1-D for a 1-D ``coef_``.

    A zero ``key_query_`` is the linear limit (``attention_scale=0``), which
    predicts with ``coef_``: no positive scale has a zero key-query matrix.
    It has no softmax, and extrapolates as the linear model it is; at a
    positive scale the queries go through :func:`centered_queries`.
    """
    if not np.any(attributes["key_query_"]):
        coef = np.atleast_2d(attributes["coef_"])
        # In the fitted model's dtype, as the layer's predictions are: a float32 query
        # of a float64 model may have predictions beyond float32's range.
        y = np.atleast_1d(attributes["intercept_"]) + X @ coef.T
        return y.ravel() if np.ndim(attributes["coef_"]) == 1 else y
    x_offset, y_offset = attributes["x_offset_"], attributes["y_offset_"]
    targets = None
    if attributes["target_value_"] is not None:
        targets = attributes["context_targets_"] - y_offset
    Zq, Zc = centered_queries(attributes, X, extrapolation), attributes["context_"] - x_offset
    y = y_offset + attention_forward(
        Zq, Zc,
        attributes["key_query_"],
        value_matrix(attributes),
        attributes["context_weight_"],
        n_jobs,
        targets=targets,
        scores=attributes["_attention_scores"],
        neighbors=predict_neighbors(attributes, Zq, Zc, n_jobs),
    )
    return y.ravel() if np.ndim(attributes["coef_"]) == 1 else y


def predict_neighbors(attributes, Zq, Zc, n_jobs=None):
    """With local attention (``_n_neighbors`` of fitted ``attributes`` not None), each
    centred query's nearest context tokens in the fitted metric (any ``L`` with ``LᵀL
    = key_query_``); None otherwise, or when they are all the tokens."""
    k = attributes.get("_n_neighbors")
    if k is None or not np.any(attributes["key_query_"]):  # the linear limit: no softmax
        return None
    return query_neighbors(Zq, Zc, symmetric_root(attributes["key_query_"]), k, n_jobs)


def value_matrix(attributes):
    """The whole value matrix of fitted ``attributes``: ``value_``, followed by the
    columns of ``target_value_`` with target tokens (absent or None: without)."""
    U = attributes.get("target_value_")
    return attributes["value_"] if U is None else np.hstack([attributes["value_"], U])


def _iteration_hook(task, problem, y_ndim):
    """``task``'s per-iteration hook for parameters in the solver's coordinates."""
    return task.iteration_hook(
        lambda K, V: _fitted_attributes(*change_basis(K, V, problem.T), problem, y_ndim)
    )


def solve(problem, K, V, params, rng, *, max_iter, loss_curve, validation=None,
          optimizer=None, on_iteration=None):
    """Run the solver on ``problem`` from the raw parameters ``(K, V)``.

    ``params`` are :class:`SoftmaxAttentionRegressor`'s (a dict, as
    ``get_params`` gives them): its ``attention_scale``, ``alpha`` and
    ``shrinkage`` apply, so that one problem serves a whole path of them.
    ``"sgd"``/``"adam"`` continue with ``optimizer`` (Adam's moments, a halved
    learning rate) when one of their kind is given, as ``partial_fit`` does.
    ``on_iteration(K, V)`` reports each iteration, in the solver's
    coordinates, to the callbacks.

    Returns the raw ``(K, V)``, the :class:`Progress`, whether it converged,
    and the minibatch optimizer as it ends (None for the full-batch solvers).
    """
    T, T_inv, objective = problem.T, problem.T_inv, problem.objective
    loss_scale = problem.loss_scale
    objective = replace(
        objective,
        strength=params["alpha"] * loss_scale if params["regularization"] == "balance" else 0.0,
        shrinkage=problem.ridge_strength(params["shrinkage"]),
    )
    # With distance scores the solvers work on the metric L (K = LᵀL); everything
    # outside them sees K.
    metric = objective.metric
    project = (Renormalization(params["attention_scale"], objective.P, metric)
               if params["renormalize"] else Renormalization(metric=metric))
    key_query = objective.key_query

    validation_score = None
    if validation is not None:
        X_val, Y_val, w_val = validation
        Z_val, Yc_val = (X_val - problem.x_offset) @ T, Y_val - problem.y_offset
        total = np.sum(w_val @ (Yc_val - np.average(Yc_val, axis=0, weights=w_val)) ** 2)

        def validation_score(K, V):
            residual = objective.forward(Z_val, K, V) - Yc_val
            return 1 - np.sum(w_val @ residual**2) / max(total, np.finfo(float).tiny)

    if on_iteration is not None and metric:
        report = on_iteration

        def on_iteration(L, V):
            return report(key_query(L), V)

    progress = Progress(params["tol"], params["n_iter_no_change"], loss_scale,
                        validation_score=validation_score, verbose=params["verbose"],
                        loss_curve=loss_curve, on_iteration=on_iteration)
    solver = params["solver"]
    learning_rate = (
        _AUTO_LEARNING_RATE.get(solver)
        if params["learning_rate"] == "auto"
        else params["learning_rate"]
    )
    if not (np.all(np.isfinite(K)) and np.all(np.isfinite(V))):
        raise _overflow("The initial parameters are")
    K, V = change_basis(K, V, T_inv)
    if metric:
        K = symmetric_root(K)
    # BLAS runs one thread for the whole run, entered once: the kernel's products have
    # an inner dimension of d (or q), and the solvers' own ones are d × d or over a few
    # hundred variables, too thin for BLAS threads to pay (on 2 busy cores, two threads
    # made each L-BFGS iteration 100 times slower: 17 ms against 0.2 ms, scipy 1.17).
    with _one_blas_thread():
        if solver == "lbfgs":
            K, V, converged = lbfgs(objective, K, V, max_iter=max_iter, project=project,
                                    progress=progress)
            optimizer = None
        elif solver == "gd":
            K, V, converged = gd(objective, K, V, learning_rate=learning_rate,
                                 max_iter=max_iter, project=project, progress=progress)
            optimizer = None
        else:
            batch_size = _batch_size(params["batch_size"], objective.Z.shape[0])
            if not isinstance(optimizer, OPTIMIZERS[solver]):
                optimizer = OPTIMIZERS[solver](learning_rate)
            K, V, converged, optimizer = minibatch(
                objective, K, V, optimizer=optimizer, batch_size=batch_size,
                max_iter=max_iter, project=project, progress=progress, random_state=rng,
            )
    if progress.best_params is not None:
        K_best, V_best = progress.best_params
        progress.best_params = change_basis(key_query(K_best), V_best, T)
    return *change_basis(key_query(K), V, T), progress, converged, optimizer


def initial_params(problem, params, rng):
    """Initial raw ``(K, V)`` of ``params["init"]``, renormalized to
    ``params["attention_scale"]`` (``params`` as for :func:`solve`).

    With distance scores the spectral start is :func:`~._init.isotropic_init`'s
    (same linear limit, a metric of full rank) and the random one draws the
    metric ``L`` (``K = LᵀL``); with target tokens ``U`` starts at 0, where the
    layer is the paper's.
    """
    W, W_inv, Yc = problem.W, problem.W_inv, problem.Yc
    distance = problem.objective.metric
    if params["init"] == "spectral":
        A = problem.objective.standardize
        shrinkage = problem.ridge_strength(params["shrinkage"])
        ridge = shrinkage * (A @ A.T) if shrinkage > 0 else None
        # Least squares on the training rows, centred at their own mean.
        whitened = not problem.subsampled
        Z = (problem.Xc - (problem.feature_mean - problem.x_offset)) @ W
        if distance:  # the whitened directions of the distance map: orthonormal
            K, V = isotropic_init(Z, Yc, problem.objective.weight, ridge,
                                  W_inv @ problem.distance, whitened)
        else:
            K, V = spectral_init(Z, Yc, problem.objective.weight, ridge, whitened)
        K, V = change_basis(K, V, W)  # whitened to raw
    else:
        # The targets' root mean square per output: L₀ = mean squared norm / 2.
        target_scale = np.sqrt(2 * problem.loss_scale / Yc.shape[1])
        K, V = random_init(W.shape[0], Yc.shape[1], target_scale, rng, Yc.dtype)
        if distance:
            K = K.T @ K
        if params["preconditioner"] == "covariance":
            K, V = change_basis(K, V, W)  # drawn in the solver's (whitened) coordinates
    if problem.context_Y is not None:
        V = np.hstack([V, np.zeros((V.shape[0], Yc.shape[1]), V.dtype)])
    return renormalize(K, V, params["attention_scale"], W_inv)


def linear_limit(problem, params):
    """Raw ``(K, V)`` whose linear limit ``V Σ̂ Kᵀ`` is the model's as
    ``attention_scale`` tends to 0: the spectral start's, least squares (ridge
    regression with ``params["shrinkage"]``) on the training rows.

    This is the infinite-data problem's minimizer, where the spectral
    initialization starts, whatever ``params["init"]``. Descent on the
    finite-data objective at a small positive scale can leave it: run to
    convergence at scale 0.001 on ``make_friedman1``, ``||V||`` grew from
    1.5e4 to 2.7e6 and the test R² fell from 0.750 to 0.718, since the
    training loss is not exactly the linear one at any positive scale.
    """
    return initial_params(problem, {**params, "init": "spectral", "attention_scale": 1.0}, None)


class _AttentionLayerModel(CallbackSupportMixin, RegressorMixin, BaseEstimator):
    """A fitted softmax attention layer: data validation, fitted attributes, predict.

    Shared by :class:`SoftmaxAttentionRegressor` and the cross-validated
    estimator, which store the same fitted attributes.
    """

    def _check_training_data(self, X, y, sample_weight, reset, positive_only=True):
        """Validated float arrays ``X``, 2-D ``Y`` and positive weights, and ``y.ndim``.

        Rows of zero weight take no part in training and are dropped, unless
        ``positive_only`` is False (the cross-validated estimator's folds index
        all rows; it drops them per fold with :func:`_positive_rows`).
        """
        # scikit-learn's own message names neither y nor its shape.
        if getattr(y, "ndim", 0) > 2:
            raise ValueError(f"y must be 1-D (n_samples,) or 2-D (n_samples, n_targets); got "
                             f"an array of {y.ndim} dimensions, shape {y.shape}.")
        X, y = validate_data(
            self, X, y, reset=reset, multi_output=True, y_numeric=True,
            dtype=[np.float64, np.float32],
        )
        # Weights in float64 whatever the data: a weight is a count, whose sums and
        # ratios are taken before anything meets the data's dtype.
        sample_weight = _check_sample_weight(
            sample_weight, X, dtype=np.float64, ensure_non_negative=True
        )
        Y = y.reshape(len(y), -1).astype(X.dtype, copy=False)
        if not np.all(np.isfinite(Y)):  # finite before the cast: validate_data checked
            raise ValueError(
                f"y has values up to {np.max(np.abs(y)):.3g}, beyond the range of X's "
                f"dtype, {X.dtype}, in which the layer is fitted. Pass X as float64, or "
                "rescale y."
            )
        if positive_only:
            # The first fit's rows are also the context: at least two.
            X, Y, sample_weight = _positive_rows(X, Y, sample_weight, 2 if reset else 1)
        return X, Y, sample_weight, y.ndim

    def _store(self, K, V, problem, y_ndim, linear=False):
        """Set the fitted attributes from raw parameters (see :func:`_fitted_attributes`),
        after checking that they are finite."""
        fitted = _fitted_attributes(K, V, problem, y_ndim, linear)
        check_finite_fit(fitted)
        vars(self).update(fitted)

    @handles_float_errors
    def predict(self, X):
        """Predict with the attention layer over the stored context.

        Each row attends over ``context_`` only, never over the other rows. A
        training row among the context rows attends to its own token too (only
        training leaves it out), as in
        :class:`~sklearn.neighbors.KNeighborsRegressor`: with target tokens it
        reads its own target, so ``score`` on the training rows is optimistic.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,) or (n_samples, n_targets)
            Predicted values; 1-D when ``fit`` saw a 1-D ``y``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        return layer_predict(vars(self), X, self.n_jobs, self.extrapolation)

    @handles_float_errors
    def attention_weights(self, X, top_k=None):
        """The softmax weights of each row of ``X`` over the context rows.

        ``predict`` averages the context rows' values with these weights:
        ``predict(X)`` equals ``y_offset_ + A @ ((context_ - x_offset_) @ value_.T)``
        for ``A = attention_weights(X)`` (raveled for a 1-D ``y``), plus
        ``A @ ((context_targets_ - y_offset_) @ target_value_.T)`` with target
        tokens. The score of row ``x`` on context row ``c_j`` is
        ``(x - x_offset_)ᵀ key_query_ (c_j - x_offset_) + log context_weight_[j]``,
        less ``½ (c_j - x_offset_)ᵀ key_query_ (c_j - x_offset_)`` with distance
        scores, so a row of weight ``w_j`` counts ``w_j`` times, as in ``predict``
        (and, as there, ``x`` is first pulled back to ``data_radius_`` with
        ``extrapolation="clip"``). With ``n_neighbors``, only the row's
        ``n_neighbors`` nearest context rows in the fitted metric have a
        nonzero weight, as in ``predict``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.
        top_k : int, default=None
            If given, return only the ``top_k`` heaviest context rows of each
            sample, computed block by block so that the dense
            (n_samples, n_context) matrix is never held whole.

        Returns
        -------
        weights : ndarray of shape (n_samples, n_context)
            Without ``top_k``: row ``i`` holds sample ``i``'s weight on every
            row of ``context_``; each row sums to one.
        indices, weights : ndarrays of shape (n_samples, top_k)
            With ``top_k``: the positions in ``context_`` of each sample's
            heaviest rows and their weights, by decreasing weight.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        n_context = self.context_.shape[0]
        Zq = centered_queries(vars(self), X, self.extrapolation)
        Zc = self.context_ - self.x_offset_
        KZc = Zc @ self.key_query_.T
        bias = _attention.key_bias(Zc, self.key_query_, self._attention_scores)
        log_w = np.log(self.context_weight_)
        neighbors = predict_neighbors(vars(self), Zq, Zc, self.n_jobs)

        def weights_of(block):
            return _attention.attention_weights(
                Zq[block], KZc, log_w, bias=bias,
                neighbors=None if neighbors is None else neighbors[block])

        if top_k is None:
            return weights_of(slice(None))
        check_scalar(top_k, "top_k", Integral, min_val=1, max_val=n_context)
        indices = np.empty((X.shape[0], top_k), dtype=np.intp)
        weights = np.empty((X.shape[0], top_k), dtype=np.result_type(Zq, KZc))
        # Blocks of queries of at most the kernel's block of scores.
        for block in gen_batches(X.shape[0], _attention._block_rows(X.shape[0], n_context)):
            A = weights_of(block)
            heaviest = np.argpartition(-A, top_k - 1, axis=1)[:, :top_k]
            order = np.argsort(-np.take_along_axis(A, heaviest, axis=1), axis=1,
                               kind="stable")
            indices[block] = np.take_along_axis(heaviest, order, axis=1)
            weights[block] = np.take_along_axis(A, indices[block], axis=1)
        return indices, weights

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags


class SoftmaxAttentionRegressor(_AttentionLayerModel):
    """Regression with one softmax self-attention layer over the training samples.

    A query ``x`` attends over context tokens ``c_j`` (the training rows, or a
    seeded subsample of at most ``max_context`` of them)::

        f(x) = ȳ + Σ_j softmax_j((x - x̄)ᵀ K (c_j - x̄) + log w_j) V (c_j - x̄)

    with the key-query matrix ``K`` (d × d) and the value matrix ``V`` (q × d)
    (with ``target_tokens``, values ``V (c_j - x̄) + U (y_j - ȳ)``; with
    ``attention_scores="distance"``, scores ``-½ ‖L (x - c_j)‖²``, ``K = LᵀL``);
    a query farther from ``x̄`` than any training row is first pulled back to
    that distance (``extrapolation``).
    Training minimizes the leave-one-out squared error (each training row
    attends over every token but its own) with the structure-aware gradient
    descent of Goel, Soltanolkotabi and Bartlett (2026): spectral
    initialization, covariance preconditioner, balancing regularizer and
    renormalization. Each part can be switched off; all off with
    ``solver="sgd"`` is the paper's baseline, plain SGD from a random start.

    Parameters
    ----------
    attention_scale : float, default=0.03
        Frobenius norm of the key-query matrix in whitened coordinates, which
        the renormalization maintains (the paper's bound on ``||K||``): the
        sharpness of the softmax. Towards 0 the model tends to least squares;
        larger values make it a more local, nonlinear smoother. With
        ``renormalize=False`` it only sets the norm of the initial ``K`` (a
        warm start then continues from the previous ``K`` as it is). The best value depends on the data (from
        about 0.5 to 4 on nonlinear benchmarks, the smallest on linear ones,
        where anything above 0.1 can cost R²): choose it with
        :class:`SoftmaxAttentionRegressorCV`. The default, close to least
        squares, is the one fixed value that lost at most 0.02 R² to least
        squares on eleven of twelve benchmark data sets (0.07 on the twelfth,
        one heavy-tailed feature); every larger one lost more. ``0`` is the
        limit itself, computed in closed form without iterations: the linear
        model ``coef_`` of the spectral start (least squares, or ridge
        regression with a ``shrinkage``; through the origin with
        ``fit_intercept=False``), whatever ``init``; ``key_query_`` and
        ``value_`` are then zero (the softmax is uniform, and the limit of
        ``V Σ̂ Kᵀ`` is kept in ``coef_``), and ``partial_fit`` does not apply.

    init : {"spectral", "random"}, default="spectral"
        ``"spectral"``: the balanced factorization ``V₀ K₀ᵀ = M̂`` of the
        least-squares coefficient in whitened coordinates (the ridge
        coefficient with ``shrinkage > 0``), from its SVD.
        ``"random"``: i.i.d. Gaussian entries (seeded by ``random_state``).

    preconditioner : {"covariance"} or None, default="covariance"
        ``"covariance"``: precondition the gradients by the inverse empirical
        covariance ``Σ̂⁻¹``, i.e. descend in whitened coordinates. Eigenvalues of
        the features' correlation matrix are floored at ``1e-8`` times the
        largest, so singular covariances are fine and the units of the
        features do not matter. ``None``: plain gradients on centered features.

    regularization : {"balance"} or None, default="balance"
        ``"balance"``: add ``alpha * L₀ * ||VᵀV/||V||² - KᵀK/||K||²||²_F``
        (whitened coordinates), zero on balanced factorizations and invariant
        to the rescaling ``(K / c, c V)``. ``L₀`` is the loss of predicting the
        mean, so scaling ``y`` does not change the regularizer's weight.

    alpha : float, default=1.0
        Strength of the balancing regularizer. Strong balance keeps the layer
        near its linear limit (for one target it forces a rank-one ``K``) and
        regularizes small data; nonlinear data want it weak or off (0).

    shrinkage : float or "auto", default=0.0
        Ridge penalty on the layer's linear limit, in the units of
        :class:`~sklearn.linear_model.Ridge`'s ``alpha`` on standardized
        features: ``shrinkage * ||coef_ * D||²_F / (2 n)`` is added to the
        objective (a weighted mean of squared errors over 2), ``D`` the
        features' standard deviations and ``n`` the sum of the sample weights
        (independent of ``regularization``). It depends on ``V Kᵀ`` only, so
        the renormalization leaves it unchanged, and the spectral start
        becomes the ridge solution. As ``attention_scale`` tends to 0 the
        model tends to ``make_pipeline(StandardScaler(), Ridge(alpha=shrinkage))``,
        and at 0 it is that model; 0 is the paper's algorithm, tending to
        least squares. Like ``Ridge``'s ``alpha``, its effect fades as the
        data grow. ``"auto"``: the value that
        :class:`~sklearn.linear_model.RidgeCV` chooses on the training rows'
        standardized features among ``np.logspace(-3, 3, 13)``, by its
        efficient leave-one-out error (chosen anew at every ``fit``), so
        that the linear limit is that ``RidgeCV``.

    target_tokens : bool, default=False
        Let the context tokens carry their targets, as in in-context
        regression: a token's value becomes ``V (c_j - x̄) + U (y_j - ȳ)``, with
        ``U`` of shape (n_targets, n_targets) (``target_value_``), starting
        at 0. Training still leaves each row's own token out, so the
        objective stays an exact leave-one-out error. The regularizers apply
        to ``V`` as before; ``U`` is not penalized. With
        ``attention_scores="distance"`` the layer is a kernel smoother of the
        targets in a learned metric (learned-metric kernel regression,
        Weinberger & Tesauro 2007) beside its linear part. ``predict`` on a
        training row lets it attend to its own token, target included, as
        :class:`~sklearn.neighbors.KNeighborsRegressor` does, so ``score``
        on the training rows is optimistic.

    attention_scores : {"bilinear", "distance"}, default="bilinear"
        The score of query ``x`` on token ``c_j`` (centered by ``x̄``).
        ``"bilinear"``: ``(x - x̄)ᵀ K (c_j - x̄)``, the paper's, which tilts the
        softmax towards tokens far out along a direction (global attention).
        ``"distance"``: ``-½ ‖L (x - c_j)‖²`` with ``K = LᵀL`` positive
        semi-definite: the softmax weighs the tokens near ``x`` in the learned
        metric ``L`` (local attention, a kernel smoother). It is the
        bilinear score plus a key bias ``-½ (c_j - x̄)ᵀ K (c_j - x̄)``; as
        ``attention_scale`` tends to 0 it has the same linear limit. The
        solvers work on ``L``; the spectral start is the identity metric in
        whitened coordinates (the Mahalanobis distance) with the spectral
        start's linear limit, since the spectral ``K₀`` has rank at most
        n_targets and a metric of that rank would keep it.
        ``attention_scale`` is ``‖K‖_F`` in whitened coordinates, as for
        bilinear scores.

    renormalize : bool, default=True
        After the initialization and every step, rescale ``(K, V) -> (K / c, c V)``
        so that ``K`` keeps the Frobenius norm ``attention_scale`` in whitened
        coordinates. This leaves the infinite-data loss unchanged.

    solver : {"gd", "lbfgs", "sgd", "adam"}, default="gd"
        ``"gd"``: full-batch gradient descent with block steps invariant to the
        rescaling (``learning_rate / ||K||₂²`` for ``V``,
        ``learning_rate / ||V||₂²`` for ``K``) and step halving whenever the
        objective would increase (the paper's algorithm). ``"lbfgs"``:
        limited-memory BFGS (scipy's L-BFGS-B) on the renormalized
        parametrization ``K = attention_scale · K̃ / ||K̃||_F`` (whitened
        norm; with ``renormalize=False``, on ``K`` itself), with the same
        rescaling-invariant units; it reaches gd's objective in fewer passes
        over the data (``benchmarks/bench_solvers.py``); ``learning_rate``
        does not apply to it. ``"sgd"``: minibatch SGD with a constant
        learning rate on plain gradients. ``"adam"``: minibatch Adam.
        Full-batch solvers stop at once, after one iteration that takes no
        step, at a start that is already converged to first order.

    learning_rate : float or "auto", default="auto"
        Step size. ``"auto"``: 1.0 for ``"gd"`` (the full rescaled block
        step; halved whenever the objective would increase), 0.03 for ``"sgd"`` and 0.05 for ``"adam"`` (suited to
        standardized targets: plain gradient steps are not scale-free).
        Ignored by ``"lbfgs"``, whose line search chooses each step.

    batch_size : int or "auto", default="auto"
        Minibatch size of ``"sgd"`` and ``"adam"``; ``"auto"`` is
        ``min(200, n_samples)``. Ignored by ``"gd"``.

    max_iter : int, default=200
        Maximum number of iterations (epochs for ``"sgd"`` and ``"adam"``;
        L-BFGS iterations, each of one or more passes, for ``"lbfgs"``).

    tol : float, default=1e-4
        Tolerance of the stopping rule. Training stops when for
        ``n_iter_no_change`` consecutive iterations the objective has not
        improved by ``tol`` times the loss of predicting the mean (so the rule
        does not depend on the scale of ``y``), or, with early stopping, the
        validation R² has not improved by ``tol``.

    n_iter_no_change : int, default=10
        Number of iterations without improvement before stopping.

    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the training data, stop when its
        R² stops improving, and keep the parameters that scored best. Not at
        ``attention_scale=0``, which has no iterations to stop: the linear
        limit is computed from all the training rows.

    validation_fraction : float, default=0.1
        Fraction of the training data held out for early stopping.

    max_context : int or None, default=2048
        Maximum number of context tokens. With more training rows, a uniform
        random subset of ``max_context`` of them (seeded by ``random_state``)
        forms the context; every row is still a training query. The feature
        means and the covariance ``Σ̂`` are those of the context rows, so that
        the attended tokens are exactly centered and whitened. ``None``: all
        training rows. Not used with ``n_neighbors``, whose context is every
        training row.

    n_neighbors : int or None, default=None
        Local attention, for ``attention_scores="distance"``: each query
        attends only to its ``n_neighbors`` nearest context rows in the
        current metric ``L`` (found with a compiled k-d tree, ties broken by
        position in ``context_``: for rows that coincide, their order in ``X``,
        so reordering repeated rows of different targets can change a
        prediction; in training, the own row besides them, down-weighted as
        before), and
        the context is every training row. A pass then costs n_samples ×
        ``n_neighbors`` × n_features instead of n_samples × context ×
        n_features. The rows left out are at least as far as the farthest
        kept one, so their softmax weight is bounded (see
        ``sklearn_softattn._neighbors.dropped_mass_bound``): the layer
        approximates the dense one closely where that weight is small, and
        is the dense layer exactly when ``n_neighbors`` + 1 is at least the
        number of training rows. Training searches the neighbours anew
        whenever the direction ``L / ‖L‖_F`` has moved by more than 0.03
        (spectral norm) since the last search, so between searches a
        query's list may lag the metric by that much; ``predict`` searches
        in the fitted metric. Where the softmax is broad (small
        ``attention_scale``) the rows left out carry real weight and the
        fit differs from the dense one: on five sets of 2 000 to 5 000 rows
        (``benchmarks/bench_local.py``), 128 neighbours scored up to 0.021
        test R² below the dense layer and, on others, up to 0.025 above it.
        A repeated row takes one of a query's ``n_neighbors`` positions per
        copy, a weighted row one, so integer weights are not repeated rows
        here. None: every query attends to the whole context (the dense
        layer).

    fit_intercept : bool, default=True
        Center features and targets by their (weighted) means. If False, the
        data are assumed centered.

    extrapolation : {"clip", "continue"}, default="clip"
        How ``predict`` treats a row farther from the training rows' mean
        than any training row, in Mahalanobis distance (``data_radius_``).
        ``"clip"``: before its attention scores are computed, the row is
        pulled back towards the mean, along its ray, to that distance.
        Without it, the scores of a row far out grow with its distance and
        the softmax puts all its weight on one context row, whose value
        alone becomes the prediction; at a small ``attention_scale`` the
        values are large and cancel only on average, so one row many
        standard deviations out can be predicted far outside the range of
        the targets. ``"continue"``: the layer as it is, at every row. The
        distance does not change under invertible linear maps of the
        features, and training rows lie within it, so the fit and the
        predictions at the training rows do not depend on this; nor does the
        linear limit (``attention_scale=0``), which has no softmax and
        extrapolates as the linear model it is.

    warm_start : bool, default=False
        Start from the parameters of the previous fit instead of initializing
        (after a fit at ``attention_scale=0``, whose key-query matrix is zero,
        from the initialization: with ``init="spectral"`` that is the ray of
        the linear limit).

    random_state : int, RandomState instance or None, default=None
        Seeds the random initialization, the context subsample, the minibatch
        order and the validation split. Pass an int for reproducible fits.

    n_jobs : int, default=None
        OpenMP threads of the compiled attention kernel over blocks of
        queries, in training and in ``predict`` (each thread uses one BLAS
        thread). ``None`` means as many as scikit-learn's OpenMP estimators
        (such as ``HistGradientBoostingRegressor``) would use: all cores,
        unless limited by ``OMP_NUM_THREADS``,
        :func:`threadpoolctl.threadpool_limits` or a joblib worker process (so
        ``GridSearchCV(n_jobs=2)`` runs one thread per fit, not two); a
        negative value counts back from that number (-1: all of them), as in
        scikit-learn's OpenMP estimators. Small problems use fewer threads.
        Results do not depend on it.

    verbose : int, default=0
        Print the objective at every iteration.

    Attributes
    ----------
    key_query_ : ndarray of shape (n_features, n_features)
        Key-query matrix ``K``, acting on features centered by ``x_offset_``.

    value_ : ndarray of shape (n_targets, n_features)
        Value matrix ``V`` (always 2-D).

    target_value_ : ndarray of shape (n_targets, n_targets) or None
        The matrix ``U`` of the tokens' targets, with ``target_tokens=True``.

    context_targets_ : ndarray of shape (n_context, n_targets) or None
        The targets of the context rows (always 2-D), with ``target_tokens=True``.

    context_ : ndarray of shape (n_context, n_features)
        The raw context rows attended by every prediction (with
        ``n_neighbors``, every training row, in an order that keeps near rows
        together).

    context_weight_ : ndarray of shape (n_context,)
        Multiplicity of each context row (its sample weight; ones without), in
        float64 whatever the data's dtype.

    data_radius_ : float
        The largest Mahalanobis distance of a training row (of positive
        weight; with ``partial_fit``, of every batch so far) from
        ``x_offset_``, under the context rows' covariance ``Σ̂`` and within the
        directions in which they vary (with more features than rows, their
        span): the distance that ``extrapolation="clip"`` pulls farther rows
        back to.

    x_offset_ : ndarray of shape (n_features,)
        Weighted feature means of the context rows (zeros if
        ``fit_intercept=False``).

    y_offset_ : ndarray of shape (n_targets,)
        Weighted target means (zeros if ``fit_intercept=False``).

    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
        The infinite-data linear limit ``V Σ̂ Kᵀ`` of the model: for Gaussian
        features and an infinite context, ``f(x) = coef_ @ x + intercept_``.
        Compare with ``LinearRegression().coef_``. With target tokens it is
        ``(V Σ̂ + U Σ̂_yx) Kᵀ``, ``Σ̂_yx`` the context targets' covariance with
        its features.

    intercept_ : float or ndarray of shape (n_targets,)
        Intercept of that linear limit.

    n_iter_ : int
        Number of iterations run by the last ``fit`` (or the number of
        ``partial_fit`` calls since the first); 1 at ``attention_scale=0``,
        whose closed form takes one pass over the data.

    loss_curve_ : list of float
        Training objective after each iteration (accumulated over warm starts).

    validation_scores_ : list of float or None
        Validation R² after each iteration, with early stopping.

    best_validation_score_ : float or None
        Best validation R², with early stopping.

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, when they are all strings.

    See Also
    --------
    sklearn.linear_model.LinearRegression : The least-squares limit of this
        model as ``attention_scale`` tends to zero.
    sklearn.neural_network.MLPRegressor : A generic neural regressor.

    Notes
    -----
    In the infinite-data limit with Gaussian features, the softmax average is
    the mean of an exponentially tilted Gaussian, the layer becomes the linear
    map ``x -> V Σ Kᵀ x`` and training becomes a nonconvex matrix
    factorization; the spectral initialization starts at least squares. With
    finite data and larger ``attention_scale`` the model is a nonlinear,
    locally weighted smoother.

    Training queries are the training rows themselves, each excluded from its
    own context, so the training loss measures what ``predict`` does on unseen
    points. A sample weight ``w_j`` counts a token ``w_j`` times in every
    softmax (and ``w_j - 1`` times in its own query's), so with integer weights
    the objective is that of the repeated rows. ``"gd"`` then takes the same
    steps, and the two fits agree to round-off (1e-14 relative after 200
    iterations on 40 rows). L-BFGS's line search amplifies round-off: the two
    fits agree for a few iterations and then part (1e-8 relative after 40
    iterations, 0.3 after 100, on the same rows), as a fit on rows perturbed
    by 1e-15 does: equivalent problems, not equal iterates. Weights are kept in
    float64 whatever the data's dtype; a row whose weight relative to the
    largest is 0 in the data's dtype takes no part, as a zero weight.

    Choices the paper leaves open (our reconstruction): the covariance floor,
    the form and scaling of the regularizer, the block step sizes, the random
    initialization's scale and the stopping rule.

    With scikit-learn 1.9 or later, ``set_callbacks`` attaches the callbacks
    of :mod:`sklearn.callback` to ``fit``, each solver iteration being one of
    its tasks: ``set_callbacks(ProgressBar())`` shows a progress bar,
    ``ScoringMonitor`` records a score per iteration.

    References
    ----------
    Goel, Soltanolkotabi, Bartlett. "Training Dynamics of Softmax
    Self-Attention: Fast Global Convergence via Preconditioning", 2026,
    arXiv:2603.01514.

    Examples
    --------
    >>> from sklearn.datasets import make_regression
    >>> from sklearn_softattn import SoftmaxAttentionRegressor
    >>> X, y = make_regression(n_samples=200, n_features=5, noise=1.0, random_state=0)
    >>> reg = SoftmaxAttentionRegressor(random_state=0).fit(X[:150], y[:150])
    >>> round(reg.score(X[150:], y[150:]), 2)
    1.0
    """

    _parameter_constraints: dict = {
        "attention_scale": [Interval(Real, 0, None, closed="left")],
        "init": [StrOptions({"spectral", "random"})],
        "preconditioner": [StrOptions({"covariance"}), None],
        "regularization": [StrOptions({"balance"}), None],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "shrinkage": [Interval(Real, 0, None, closed="left"), StrOptions({"auto"})],
        "target_tokens": ["boolean"],
        "attention_scores": [StrOptions({"bilinear", "distance"})],
        "renormalize": ["boolean"],
        "solver": [StrOptions({"gd", "lbfgs", "sgd", "adam"})],
        "learning_rate": [StrOptions({"auto"}), Interval(Real, 0, None, closed="neither")],
        "batch_size": [StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
        "early_stopping": ["boolean"],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "max_context": [Interval(Integral, 2, None, closed="left"), None],
        "n_neighbors": [Interval(Integral, 1, None, closed="left"), None],
        "fit_intercept": ["boolean"],
        "extrapolation": [StrOptions({"clip", "continue"})],
        "warm_start": ["boolean"],
        "random_state": ["random_state"],
        # 0 threads or workers means nothing (a negative count counts back from all).
        "n_jobs": [Interval(Integral, None, -1, closed="right"),
                   Interval(Integral, 1, None, closed="left"), None],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        attention_scale=0.03,
        *,
        init="spectral",
        preconditioner="covariance",
        regularization="balance",
        alpha=1.0,
        shrinkage=0.0,
        target_tokens=False,
        attention_scores="bilinear",
        renormalize=True,
        solver="gd",
        learning_rate="auto",
        batch_size="auto",
        max_iter=200,
        tol=1e-4,
        n_iter_no_change=10,
        early_stopping=False,
        validation_fraction=0.1,
        max_context=2048,
        n_neighbors=None,
        fit_intercept=True,
        extrapolation="clip",
        warm_start=False,
        random_state=None,
        n_jobs=None,
        verbose=0,
    ):
        self.attention_scale = attention_scale
        self.init = init
        self.preconditioner = preconditioner
        self.regularization = regularization
        self.alpha = alpha
        self.shrinkage = shrinkage
        self.target_tokens = target_tokens
        self.attention_scores = attention_scores
        self.renormalize = renormalize
        self.solver = solver
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.max_context = max_context
        self.n_neighbors = n_neighbors
        self.fit_intercept = fit_intercept
        self.extrapolation = extrapolation
        self.warm_start = warm_start
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    @handles_float_errors
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the attention layer to data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
            Target values.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; a weight counts a row that many times in the
            loss and in the context.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        task = Task.begin_fit(self, X, y, sample_weight, max_subtasks=self.max_iter)
        X, Y, sample_weight, y_ndim = self._check_training_data(
            X, y, sample_weight, reset=True
        )
        rng = check_random_state(self.random_state)
        validation = None
        if self.early_stopping and self.attention_scale > 0:
            X, Y, sample_weight, validation = self._validation_split(X, Y, sample_weight, rng)
        problem = self._problem(X, Y, sample_weight, rng)
        if self.attention_scale == 0:
            return self._fit_linear_limit(problem, y_ndim, task)
        if self.warm_start and np.any(getattr(self, "key_query_", 0)):
            # With renormalize=True the solver first rescales them to attention_scale.
            K, V = self._stored_params("warm_start")
        else:
            K, V = initial_params(problem, self.get_params(), rng)
        keep_curve = self.warm_start and hasattr(self, "loss_curve_")
        K, V, progress, converged, self._optimizer = solve(
            problem, K, V, self.get_params(), rng,
            max_iter=self.max_iter,
            loss_curve=self.loss_curve_ if keep_curve else [],
            validation=validation,
            on_iteration=_iteration_hook(task, problem, y_ndim),
        )
        if self.early_stopping and progress.best_params is not None:
            K, V = progress.best_params
        if not converged:
            warnings.warn(
                f"SoftmaxAttentionRegressor: maximum iterations ({self.max_iter}) "
                "reached before the stopping rule was met. Increase max_iter, "
                "increase tol, or set early_stopping=True.",
                ConvergenceWarning,
            )
        self._store(K, V, problem, y_ndim)
        self.n_iter_ = progress.n_iter
        self.loss_curve_ = progress.loss_curve
        self.validation_scores_ = progress.validation_scores if self.early_stopping else None
        self.best_validation_score_ = (
            progress.best_validation_score if self.early_stopping else None
        )
        task.end({})  # the model is self
        return self

    def _stored_params(self, how):
        """The fitted raw ``(K, V)`` to continue from (``V`` with ``U``'s columns), after
        checking that the layer they belong to is this one's (``how``: the reason)."""
        fitted = {}  # what the fit recorded (parameters set by hand record nothing)
        if hasattr(self, "target_value_"):
            fitted["target_tokens"] = self.target_value_ is not None
        if hasattr(self, "_attention_scores"):
            fitted["attention_scores"] = self._attention_scores
        for name, value in fitted.items():
            if getattr(self, name) != value:
                raise ValueError(f"{how} continues a layer fitted with {name}={value!r}, "
                                 f"not {getattr(self, name)!r}; set {name}={value!r} or "
                                 "fit afresh.")
        if self.attention_scores == "distance":
            check_metric(self.key_query_, "key_query_")
        return self.key_query_, value_matrix(vars(self))

    def _fit_linear_limit(self, problem, y_ndim, task):
        """``attention_scale=0``: the layer's linear limit, in closed form (no iterations)."""
        K, V = linear_limit(problem, self.get_params())
        self._store(K, V, problem, y_ndim, linear=True)
        self.n_iter_, self.loss_curve_ = 1, []
        self.validation_scores_ = self.best_validation_score_ = None
        task.end({})
        return self

    def _has_iterations(self):
        if self.attention_scale == 0:
            raise AttributeError("partial_fit is only available for attention_scale > 0: "
                                 "attention_scale=0 is the layer's linear limit, which fit "
                                 "computes in closed form.")
        return True

    @available_if(_has_iterations)
    @handles_float_errors
    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y, sample_weight=None):
        """One training pass over a batch of data (one iteration of the solver).

        The first call sets everything ``fit`` would from its batch (offsets,
        covariance and preconditioner, context, initialization); later calls
        keep them and take one iteration of the solver (one ``"gd"`` step, one
        ``"lbfgs"`` iteration, whose curvature memory starts afresh, or one
        epoch of ``"sgd"``/``"adam"``, whose optimizer state carries over
        from call to call) with the batch's rows as queries over the stored
        context. So the
        first batch should be representative and hold at least
        ``max_context`` rows. ``early_stopping`` and ``warm_start`` are
        ignored; no ``ConvergenceWarning`` is raised.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
            Target values.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the batch's rows.

        Returns
        -------
        self : object
            The estimator.
        """
        first = not hasattr(self, "key_query_")
        X, Y, sample_weight, y_ndim = self._check_training_data(
            X, y, sample_weight, reset=first
        )
        rng = check_random_state(self.random_state)
        if first:
            problem = self._problem(X, Y, sample_weight, rng)
            K, V = initial_params(problem, self.get_params(), rng)
        else:
            if Y.shape[1] != self.value_.shape[0] or y_ndim != np.ndim(self.coef_):
                raise ValueError(
                    f"y has {Y.shape[1]} target(s) of {y_ndim} dimension(s), but the "
                    f"estimator was fitted on {self.value_.shape[0]} of "
                    f"{np.ndim(self.coef_)}."
                )
            K, V = self._stored_params("partial_fit")
            X, Y = X.astype(self.x_offset_.dtype, copy=False), Y.astype(self.x_offset_.dtype,
                                                                         copy=False)
            _check_spread(X - self.x_offset_, "X")
            # Batch rows are new queries: none is a context token, nor counted
            # in the offsets, so none leaves them.
            problem = self._problem(
                X, Y, sample_weight, rng,
                context=(self.context_, self.context_weight_, self.context_targets_),
                statistics=(self.x_offset_, self.y_offset_, self._covariance),
                radius=self.data_radius_,
            )
        K, V, progress, _, self._optimizer = solve(
            problem, K, V, self.get_params(), rng,
            max_iter=1, loss_curve=[] if first else self.loss_curve_,
            optimizer=None if first else getattr(self, "_optimizer", None),
        )
        self._store(K, V, problem, y_ndim)
        self.n_iter_ = 1 if first else self.n_iter_ + 1
        self.loss_curve_ = progress.loss_curve
        self.validation_scores_ = self.best_validation_score_ = None
        return self

    def _statistics(self, X, Y, sample_weight, context):
        """Offsets and covariance, after checking the range of the data.

        The feature offset and covariance are those of the context rows, so
        that the tokens attended are exactly centered and whitened, as the
        infinite-data limit assumes; with a subsampled context (more rows than
        ``max_context``) this is what keeps the layer close to least squares.
        The target offset is the mean of all rows.
        """
        if self.fit_intercept:
            x_offset = _column_means(X[context], sample_weight[context])
            y_offset = _column_means(Y, sample_weight)
        else:
            x_offset = np.zeros(X.shape[1], X.dtype)
            y_offset = np.zeros(Y.shape[1], X.dtype)
        _check_spread(X - x_offset, "X")
        _check_spread(Y - y_offset, "y")
        covariance = weighted_covariance(X[context] - x_offset, sample_weight[context])
        return x_offset, y_offset, covariance

    def _problem(self, X, Y, sample_weight, rng, context=None, statistics=None, radius=0.0):
        """The training problem in the solver's working coordinates.

        By default the context, offsets and covariance come from the training
        rows themselves (``fit``); ``partial_fit`` passes the stored ones and
        the ``radius`` of its earlier batches, and its rows are then new
        queries, which may widen that radius. The solver works in coordinates
        ``z = Tᵀ (x - x̄)``: whitened (``T = W``) with the covariance
        preconditioner, centered raw features without; ``P`` maps them to
        whitened ones for the renormalization and the regularizer.
        """
        if self.n_neighbors is not None and self.attention_scores != "distance":
            raise ValueError(
                f"n_neighbors={self.n_neighbors} needs attention_scores='distance': "
                f"{self.attention_scores!r} scores are not local (a far token can carry "
                "most of the weight), so every query attends to the whole context. Set "
                "attention_scores='distance' or n_neighbors=None.")
        if context is None and self.n_neighbors is not None and self.n_neighbors + 1 < len(X):
            # Rows near each other next to each other, so that the gathers of local
            # attention stay in cache (on standardized features, near the whitened
            # start metric; not when every query keeps every row: the dense layer).
            order = locality_order(X / np.maximum(X.std(axis=0), np.finfo(X.dtype).tiny))
            X, Y, sample_weight = X[order], Y[order], sample_weight[order]
        if context is None:
            rows, self_index = self._context(X.shape[0], rng)
            context_X, context_weight, context_Y = X[rows], sample_weight[rows], Y[rows]
            x_offset, y_offset, covariance = self._statistics(X, Y, sample_weight, rows)
            target_total = sample_weight.sum()
        else:
            (context_X, context_weight, context_Y), (x_offset, y_offset, covariance) = (
                context, statistics)
            self_index = np.full(X.shape[0], -1)
            target_total = None
        W, W_inv = whitening(covariance)
        if self.preconditioner == "covariance":
            T, T_inv, P = W, W_inv, None
        else:
            T = T_inv = np.eye(X.shape[1], dtype=X.dtype)
            P = W_inv
        Xc, Yc = X - x_offset, Y - y_offset
        Z = Xc @ T
        shift, targets, target_covariance = None, None, None
        if self.target_tokens:
            targets = context_Y - y_offset
            target_covariance = weighted_covariance(context_X - x_offset, context_weight,
                                                    targets)
        else:
            context_Y = None
        if self.fit_intercept:
            Z, shift, Y_loo = leave_one_out(Z, Yc, sample_weight, self_index,
                                            context_weight.sum(), target_total,
                                            self.target_tokens,
                                            self.attention_scores == "distance")
        else:
            Y_loo = Yc
        context_Z = (context_X - x_offset) @ T
        neighbors = (None if self.n_neighbors is None else
                     TrainingNeighbors(Z, context_Z, self.n_neighbors, self_index, self.n_jobs))
        objective = Objective(
            Z=Z,
            Y=Y_loo,
            weight=sample_weight,
            context=context_Z,
            context_weight=context_weight,
            self_index=self_index,
            value_shift=shift,
            targets=targets,
            scores=self.attention_scores,
            standardize=feature_scale(covariance)[:, None] * W,
            P=P,
            n_jobs=self.n_jobs,
            neighbors=neighbors,
        )
        # A Python float, as the weights' sums are float64 and must not widen the data.
        loss_scale = float(0.5 * np.sum(sample_weight @ (Yc * Yc)) / sample_weight.sum())
        distance = distance_map(covariance)
        radius = max(radius, float(mahalanobis_norms(Xc, distance).max()))
        return _Problem(objective, Xc=Xc, Yc=Yc, T=T, T_inv=T_inv, W=W, W_inv=W_inv,
                        context_X=context_X, distance=distance, radius=radius,
                        x_offset=x_offset, y_offset=y_offset,
                        covariance=covariance, loss_scale=loss_scale, context_Y=context_Y,
                        target_covariance=target_covariance,
                        fit_intercept=self.fit_intercept)

    def _validation_split(self, X, Y, sample_weight, rng):
        n_val = int(np.ceil(self.validation_fraction * X.shape[0]))
        if X.shape[0] - n_val < 2:
            raise ValueError(
                f"early_stopping with validation_fraction={self.validation_fraction} "
                f"leaves {X.shape[0] - n_val} of n_samples={X.shape[0]} for training; "
                "at least 2 are needed. Use more samples or early_stopping=False."
            )
        order = rng.permutation(X.shape[0])
        tr, val = order[n_val:], order[:n_val]
        return X[tr], Y[tr], sample_weight[tr], (X[val], Y[val], sample_weight[val])

    def _context(self, n_samples, rng):
        """Rows that form the context, and each row's position in it (-1: none): all
        rows with local attention."""
        context = context_rows(n_samples, self.max_context, self.n_neighbors, rng)
        self_index = np.full(n_samples, -1)
        self_index[context] = np.arange(len(context))
        return context, self_index
