"""SoftmaxAttentionRegressorCV: the softmax's sharpness chosen by cross-validation.

The path of attention scales starts at the layer's linear limit (scale 0,
computed in closed form) and sharpens step by step, each point warm-started
from the last (as ``LassoCV`` follows the lasso's path from the empty model),
so that least squares itself, and ridge regression for each ``shrinkage``,
are always among the candidates.
"""

import warnings
from itertools import count, product
from numbers import Integral
from typing import NamedTuple

import numpy as np
from sklearn.base import _fit_context
from sklearn.metrics import check_scoring, get_scorer_names
from sklearn.model_selection import KFold, ShuffleSplit, check_cv
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.parallel import Parallel, delayed

from ._callbacks import Task
from ._estimator import (
    SoftmaxAttentionRegressor,
    _AttentionLayerModel,
    _fitted_attributes,
    _iteration_hook,
    _positive_rows,
    context_rows,
    handles_float_errors,
    initial_params,
    layer_predict,
    linear_limit,
    not_finite,
    solve,
)
from ._geometry import (
    change_basis,
    distance_map,
    neighbour_spacing,
    renormalize,
    weighted_covariance,
)

# The grid of attention scales when only its length is given: the linear limit
# (0), then geometrically from nearly linear attention to a sharp, local smoother.
SCALE_RANGE = (0.01, 10.0)
# cv="auto": above this many rows, one shuffled hold-out of this fraction of them
# validates the path instead of 5 folds, as HistGradientBoostingRegressor's
# early_stopping="auto" and validation_fraction do (their values, not tuned here).
HOLDOUT_ROWS, HOLDOUT_FRACTION = 10_000, 0.1
# With distance scores the path goes on until a row's nearest distinct neighbour, at
# the median spacing, scores this much below the row's own position (weight e⁻⁵ ≈
# 0.7%): nearest-neighbour regression (see :func:`neighbour_sharpness`).
NEIGHBOUR_MARGIN = 5.0
# attention_scales="auto": the linear limit and one start, from which the solver learns
# the sharpness. With distance scores the start is the sharpness at which that
# neighbour scores this much below the row's own position (weight e^-0.5 ≈ 0.61 of the
# row's own), a tenth of the sharpest scale above: a smoother over a few neighbours.
# With bilinear scores, which have no spacing to resolve, the start is AUTO_BILINEAR.
START_MARGIN, AUTO_BILINEAR = 0.5, 1.0


def neighbour_sharpness(X, sample_weight, margin=NEIGHBOUR_MARGIN):
    """The attention scale at which distance scores resolve the rows' spacing.

    Under the isotropic metric in whitened coordinates (``K = s I / √r``, of
    Frobenius norm ``s``, ``r`` the directions of the data), a row at squared
    distance ``h²`` scores ``s h² / (2 √r)`` below one at the query's own position.
    With ``h²`` the median spacing of :func:`~sklearn_softattn._geometry.neighbour_spacing`
    in the coordinates of :func:`~sklearn_softattn._geometry.distance_map`,
    this is the ``s`` at which that score is ``margin``. NaN if no two rows differ.
    """
    X, _, sample_weight = _positive_rows(X, X[:, :0], sample_weight, 2)
    Xc = X - np.average(X, axis=0, weights=sample_weight)
    P = distance_map(weighted_covariance(Xc, sample_weight))
    spacing = neighbour_spacing(Xc @ P, sample_weight)
    return 2 * margin * np.sqrt(P.shape[1]) / spacing if spacing > 0 else np.nan


def attention_scale_grid(attention_scales, sharpest=np.nan, start=AUTO_BILINEAR):
    """The ascending grid of attention scales: a count, ``"auto"``, or the values.

    A count gives 0, then ``attention_scales - 1`` values spaced geometrically over
    :data:`SCALE_RANGE`, continued at the same ratio until they reach ``sharpest``
    (if larger: :func:`neighbour_sharpness` for distance scores). ``"auto"`` gives
    0 and ``start`` (:func:`neighbour_sharpness` at :data:`START_MARGIN` for
    distance scores; 1 where it is NaN)."""
    if isinstance(attention_scales, str):  # "auto", the only string the check lets by
        return np.array([0.0, start if np.isfinite(start) else AUTO_BILINEAR])
    if isinstance(attention_scales, Integral):
        scales = np.geomspace(*SCALE_RANGE, num=attention_scales - 1)
        if len(scales) > 1 and sharpest > scales[-1]:
            ratio = scales[-1] / scales[-2]
            more = int(np.ceil(np.log(sharpest / scales[-1]) / np.log(ratio) - 1e-9))
            scales = np.r_[scales, scales[-1] * ratio ** np.arange(1, more + 1)]
        return np.r_[0.0, scales]
    scales = np.asarray(attention_scales, dtype=float)
    if scales.ndim != 1 or scales.size == 0 or not np.all(np.isfinite(scales) & (scales >= 0)):
        raise ValueError(
            "attention_scales must be a positive int or a non-empty 1-D array of "
            f"non-negative finite values; got {attention_scales!r}."
        )
    return np.unique(scales)  # sorted


def max_iter_grid(max_iters):
    """The ascending grid of iteration counts: positive ints, without repeats."""
    grid = np.atleast_1d(np.asarray(max_iters))
    if (grid.ndim != 1 or grid.size == 0 or grid.dtype.kind not in "iu"
            or not np.all(grid >= 1)):
        raise ValueError(
            "max_iters must be a positive int or a non-empty 1-D array-like of positive "
            f"ints; got {max_iters!r}."
        )
    return np.unique(grid).astype(int)  # sorted


def penalty_grid(values, name):
    """A grid of penalty strengths (``alphas``, ``shrinkages``): non-empty,
    one-dimensional, finite and non-negative, in the order given."""
    grid = np.atleast_1d(np.asarray(values, dtype=float))
    if grid.ndim != 1 or grid.size == 0 or not np.all(np.isfinite(grid) & (grid >= 0)):
        raise ValueError(
            f"{name} must be a non-empty 1-D array-like of finite, non-negative values; "
            f"got {values!r}."
        )
    return grid.copy()


def shrinkage_grid(values):
    """The grid of ``shrinkages``: as :func:`penalty_grid`, and ``"auto"`` (see
    :class:`SoftmaxAttentionRegressor`'s ``shrinkage``); an object array if it
    holds ``"auto"``."""
    items = [values] if isinstance(values, str) or np.ndim(values) == 0 else list(values)
    names = [v for v in items if isinstance(v, str)]
    if not names:
        return penalty_grid(values, "shrinkages")
    if any(name != "auto" for name in names):
        raise ValueError("shrinkages must be a non-empty 1-D array-like of finite, "
                         f"non-negative values or 'auto'; got {values!r}.")
    numbers = [v for v in items if not isinstance(v, str)]
    if numbers:
        penalty_grid(numbers, "shrinkages")  # checks them
    return np.array([v if isinstance(v, str) else float(v) for v in items], dtype=object)


def attention_path_mask(shrinkages, attention_shrinkages):
    """Which of the checked ``shrinkages`` have paths past the linear limit: those in
    ``attention_shrinkages``, or all of them if none is (or if it is None), so that a
    grid of ``shrinkages`` without the default's ``"auto"`` is fitted whole."""
    if attention_shrinkages is not None:
        chosen = shrinkage_grid(attention_shrinkages)
        mask = np.array([any(r == v for v in chosen) for r in shrinkages])
        if mask.any():
            return mask
    return np.ones(len(shrinkages), dtype=bool)


def _label(value):
    """A grid value for messages and labels: a number to 3 digits, or ``"auto"``."""
    return value if isinstance(value, str) else f"{value:.3g}"


def inner_folds(cv, X, y, sample_weight, random_state):
    """The (train, test) index pairs of ``cv``, checked.

    An int (or None, 5) is ``KFold(cv, shuffle=True, random_state=random_state)``:
    a local smoother's validation folds must be drawn at random, since a
    block of rows sorted by some feature has no neighbours left in training.
    ``"auto"`` is 5 such folds up to :data:`HOLDOUT_ROWS` rows, and above
    them one shuffled hold-out of :data:`HOLDOUT_FRACTION` of the rows.
    A splitter or an iterable is used as given.
    """
    n_samples = X.shape[0]
    if isinstance(cv, str):  # "auto", the only string the parameter's check lets by
        if n_samples <= HOLDOUT_ROWS:
            cv = 5
        else:
            cv = ShuffleSplit(1, test_size=HOLDOUT_FRACTION, random_state=random_state)
    if cv is None or isinstance(cv, Integral):
        n_splits = 5 if cv is None else cv
        if n_splits > n_samples:
            raise ValueError(f"cv={cv} asks for {n_splits} folds of n_samples={n_samples}; "
                             "there cannot be more folds than rows.")
        cv = KFold(n_splits, shuffle=True, random_state=random_state)
    try:
        folds = list(check_cv(cv, y).split(X, y))
    except ValueError as error:  # a splitter asking for more folds than rows, say
        raise ValueError(f"cv={cv!r} cannot split n_samples={n_samples}: {error}") from error
    if not folds:
        raise ValueError("cv gives no fold; at least one is needed to compare the points "
                         "of the path.")
    for k, (train, _) in enumerate(folds):
        positive = np.count_nonzero(sample_weight[train] > 0)
        if positive < 2:
            raise ValueError(
                f"cv: fold {k} leaves {positive} training row(s) of positive weight; "
                "softmax attention needs at least 2. Use fewer folds or more rows."
            )
    return folds


class PathPoint(NamedTuple):
    """One point of :func:`attention_path`: the raw parameters and how the solver ended."""

    K: np.ndarray
    V: np.ndarray
    n_iter: int
    converged: bool
    loss_curve: list
    iterates: list


def _recording_hook(on_iteration, checkpoints, problem, iterates):
    """``on_iteration(K, V)`` that also appends to ``iterates`` the raw ``(K, V)``
    after each iteration count of ``checkpoints``, then passes the call on."""
    counter = count(1)

    def hook(K, V):
        if next(counter) in checkpoints:  # change_basis makes new arrays: a copy
            iterates.append(change_basis(K, V, problem.T))
        return on_iteration is not None and on_iteration(K, V)

    return hook


def attention_path(problem, scales, params, *, K0=None, V0=None, random_state=None,
                   task=None, y_ndim=1, checkpoints=None, last_max_iter=None,
                   warm_start=True):
    """Fit the attention layer along ascending ``scales``, each point from the last.

    As :func:`sklearn.linear_model.lasso_path` is to ``LassoCV``: a plain
    function over a prepared training problem. A scale of 0 is the layer's
    linear limit, in closed form (:func:`linear_limit`). The first positive
    scale starts from ``(K0, V0)`` renormalized to it or, without them, from
    the initialization of ``params["init"]``; every later one from the
    previous point renormalized to its own scale (with ``warm_start=False``,
    from that initialization too).

    Parameters
    ----------
    problem : _Problem
        The training problem, as ``SoftmaxAttentionRegressor._problem`` builds it.
    scales : array-like of shape (n_scales,)
        Attention scales, in increasing order.
    params : dict
        :class:`SoftmaxAttentionRegressor`'s parameters (``alpha``,
        ``shrinkage``, ``solver``, ``max_iter``, ...; as ``get_params``
        gives them); ``attention_scale`` is each point's, and ``max_iter``
        the iterations of each point.
    K0, V0 : ndarrays of shape (n_features, n_features) and (n_targets, n_features), default=None
        Raw parameters to start the first point from.
    random_state : int, RandomState instance or None, default=None
        The draws of a random start and of the minibatch solvers, shared by
        all the points.
    task : Task, default=None
        For the callbacks: each point is a subtask of it, and each of its
        iterations a subtask of the point's.
    y_ndim : int, default=1
        The dimensions of ``y``, for the models the callbacks see.
    checkpoints : sequence of int, default=None
        Increasing iteration counts, at most ``params["max_iter"]``: each
        point's ``iterates`` holds its raw ``(K, V)`` after each of them (the
        final iterate where the solver stopped before). None: the final
        iterate only.
    last_max_iter : int, default=None
        The iterations of the last point, if not ``params["max_iter"]``
        (the refit of a count chosen at one point of the path).
    warm_start : bool, default=True
        Whether each positive scale after the first starts from the previous
        point (True) or afresh from the initialization (False).

    Yields
    ------
    point : PathPoint
        Per scale, the raw ``(K, V)`` (at scale 0, a pair on the ray whose
        limit it is: pass ``linear=True`` to :func:`_fitted_attributes`), the
        number of iterations, whether the stopping rule was met, the loss
        curve and the iterates at ``checkpoints``. Stop iterating to leave
        the remaining points unfitted.
    """
    rng = check_random_state(random_state)
    task = Task(None, None) if task is None else task
    checkpoints = [params["max_iter"]] if checkpoints is None else list(checkpoints)
    K, V = K0, V0
    for s, scale in enumerate(scales):
        point_params = {**params, "attention_scale": scale}
        if scale == 0:
            # The linear limit, in closed form; the next point starts afresh.
            K_lin, V_lin = linear_limit(problem, point_params)
            yield PathPoint(K_lin, V_lin, 1, True, [], [(K_lin, V_lin)] * len(checkpoints))
            continue
        if K is None or not warm_start:
            K, V = initial_params(problem, point_params, rng)
        else:
            K, V = renormalize(K, V, scale, problem.W_inv)
        max_iter = (last_max_iter if last_max_iter is not None and s == len(scales) - 1
                    else params["max_iter"])
        point = task.subtask(f"attention_scale={scale:.3g}", max_iter)
        iterates = []
        hook = _recording_hook(_iteration_hook(point, problem, y_ndim), set(checkpoints),
                               problem, iterates)
        K, V, progress, converged, _ = solve(
            problem, K, V, point_params, rng, max_iter=max_iter, loss_curve=[],
            on_iteration=hook,
        )
        point.end()
        iterates += [(K, V)] * (len(checkpoints) - len(iterates))
        yield PathPoint(K, V, progress.n_iter, converged, progress.loss_curve, iterates)


# The score of a point left unfitted because its path stopped early (see
# :func:`_fold_scores`): below every score, so never chosen, and not a failure
# (a failure is NaN).
SKIPPED = -np.inf
# A fold's path stops once its validation R² has been more than 0.1 below its
# best so far at 1 point (margin, count). On the 17 data sets of
# ``benchmarks/bench_selection.py --stop`` this left the "2se" choice unchanged on
# every one, and saved 21% of the passes of the folds' paths.
EARLY_STOP = (0.1, 1)


class PathStop:
    """The early stop of a path: called with each point's validation R², in order of
    increasing scale, it says when to stop, once the R² has stayed more than ``margin``
    below its best so far at ``count`` consecutive points (:data:`EARLY_STOP`). A NaN R²
    neither raises the best nor counts as a fall."""

    def __init__(self, margin, count):
        self.margin, self.count = margin, count
        self.best, self.fallen = -np.inf, 0

    def __call__(self, r2):
        self.best = max(self.best, r2)
        self.fallen = self.fallen + 1 if r2 < self.best - self.margin else 0
        return self.fallen == self.count


def r2(y_true, y_pred, sample_weight):
    """Weighted R² of ``y_pred``, as :func:`sklearn.metrics.r2_score` gives it (outputs
    averaged uniformly; an output whose targets are constant scores 1 if predicted
    exactly, else 0), without its input checks, which cost more than the score at
    every checkpoint of a path. NaN for fewer than two rows or no weight."""
    if len(y_true) < 2 or not sample_weight.sum() > 0:
        return np.nan
    y_true = y_true.reshape(len(y_true), -1)
    y_pred = y_pred.reshape(len(y_pred), -1)
    w = sample_weight[:, None]
    residual = (w * (y_true - y_pred) ** 2).sum(axis=0)
    total = (w * (y_true - np.average(y_true, axis=0, weights=sample_weight)) ** 2).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = np.where(total != 0, 1 - residual / total, np.where(residual == 0, 1.0, 0.0))
    return float(scores.mean())


def scorable(score_path):
    """Which points and folds of a score path take part in the choice.

    A score is NaN where the point could not be scored, and :data:`SKIPPED`
    (-inf) where its path stopped before it. A fold where no point has a
    finite score is left out; so is a point that
    lacks a finite score on one of the remaining folds.

    Returns
    -------
    points : ndarray of bool, of shape ``score_path.shape[:-1]``
    folds : ndarray of bool, of shape (n_folds,)
    """
    finite = np.isfinite(score_path)
    folds = finite.reshape(-1, score_path.shape[-1]).any(axis=0)
    points = finite[..., folds].all(axis=-1) & folds.any()
    return points, folds


def choose_point(score_path, selection="2se"):
    """Indices ``(scale, max_iter, alpha, shrinkage)`` of the chosen point of a score path.

    ``"best"``: the highest mean score over the folds (the first maximum: the
    smallest scale, then the smallest alpha and shrinkage indices).
    ``"1se"`` and ``"2se"``: the smallest scale that any point brings within
    one (two) standard errors of the best, the errors being those of the
    fold-by-fold differences to the best point (paired, so that folds which
    are harder for every point do not widen them); at that scale, the
    close point of the other axes (iteration count, alpha, shrinkage) with
    the highest mean. Selection noise then tips
    towards the linear end, not away from it. A point whose mean is below the
    best of the linear end (the first scale) is never close: a fit that fails
    on one fold widens its own standard error, and must not become the choice
    that way. Points and folds that could not be scored are left out (see
    :func:`scorable`). With a single fold there are no standard errors, and
    every selection is ``"best"``.

    Parameters
    ----------
    score_path : ndarray of shape (n_scales, n_max_iters, n_alphas, n_shrinkages, n_folds)
        Validation scores, larger is better; scales in increasing order. (Any
        number of grid axes after the scales' will do.)
    selection : {"2se", "1se", "best"}, default="2se"

    Returns
    -------
    indices : tuple of int
        One index per grid axis: the scale's first.
    """
    points, folds = scorable(score_path)
    if not points.any():
        raise ValueError("No point of the path has a finite validation score on any fold.")
    path = np.where(points[..., None], score_path[..., folds], 0.0)
    mean = np.where(points, path.mean(axis=-1), -np.inf)
    best = np.unravel_index(np.argmax(mean), mean.shape)
    n_folds = path.shape[-1]
    if selection == "best" or n_folds < 2:
        return tuple(int(i) for i in best)
    n_errors = {"1se": 1, "2se": 2}[selection]
    gap = path[best] - path
    # A point worse on average than the linear end never counts as close, however
    # noisy: one fold far below the rest widens its own standard error, and would
    # otherwise make its scale the choice by accident.
    close = points & (mean >= mean[0].max()) & (
        gap.mean(axis=-1) <= n_errors * gap.std(axis=-1, ddof=1) / np.sqrt(n_folds)
    )
    scale = int(np.flatnonzero(close.reshape(len(close), -1).any(axis=1))[0])
    rest = np.where(close[scale], mean[scale], -np.inf)
    return (scale, *(int(i) for i in np.unravel_index(np.argmax(rest), rest.shape)))


# Two paths of a fold (with the same alpha) whose linear limits predict the fold's
# training rows alike, to within this root-mean-square difference relative to the
# predictions' spread, are one path there, fitted once: their shrinkages then barely
# act on that many rows. Chosen by benchmarks/bench_same_paths.py's rule, between 0.01
# and 0.03: on the 166 sets of the panel (at most 4 000 rows) 0.01 moved the test R² by
# at most 0.0037 (mean -0.00004), 0.03 by up to 0.026 (TeachingRatings, 463 rows).
SAME_PATH = 0.01


def same_paths(predictions, groups, sample_weight=None, tolerance=0.0):
    """Which path each path of a fold is fitted as.

    Parameters
    ----------
    predictions : list of ndarray of shape (n_samples,) or (n_samples, n_targets)
        Each path's linear limit's predictions at the fold's training rows.
    groups : list
        Each path's group (its ``alpha``, say): only paths of one group can be one.
    sample_weight : ndarray of shape (n_samples,), default=None
        Weights of the rows in the differences.
    tolerance : float, default=0.0
        The largest weighted root-mean-square difference of two paths'
        predictions, relative to the weighted root-mean-square spread of the
        earlier one's about their mean, at which they are one path (0: only
        paths of equal predictions are).

    Returns
    -------
    fitted_as : list of int
        Per path, the first earlier path of its group fitted on its own whose
        predictions are that close to its own; its own index if none is.
    """
    def rms(E):
        E = E.reshape(len(E), -1)
        return np.sqrt(np.average(np.sum(E**2, axis=1), weights=sample_weight))

    def alike(P, Q):
        return rms(P - Q) <= tolerance * rms(Q - np.average(Q, axis=0, weights=sample_weight))

    fitted_as = []
    for p, (P, group) in enumerate(zip(predictions, groups)):
        fitted_as.append(next((q for q in range(p) if fitted_as[q] == q and groups[q] == group
                               and alike(P, predictions[q])), p))
    return fitted_as


def _problem(params, X, Y, sample_weight, rng):
    """The training problem of ``params`` on the rows of positive weight."""
    return SoftmaxAttentionRegressor(**params)._problem(
        *_positive_rows(X, Y, sample_weight, 2), rng)


def _linear_predictions(problem, params, X, y_ndim):
    """Predictions at validated ``X`` of the linear limit of ``params`` on ``problem``."""
    K, V = linear_limit(problem, params)
    return layer_predict(_fitted_attributes(K, V, problem, y_ndim, True), X)


def every_row_context(attributes, X, Y, sample_weight, k):
    """Fitted ``attributes`` of a layer with distance scores, made to attend to the
    ``k`` nearest of the rows ``X`` (targets ``Y``, 2-D, and positive weights) in
    its learned metric instead of to its context; None where that does not apply:
    the linear limit (no softmax), bilinear scores, or a context that holds every
    row already. Its parameters (metric, values, offsets) stay as fitted."""
    if (not np.any(attributes["key_query_"]) or attributes["_attention_scores"] != "distance"
            or len(attributes["context_"]) >= len(X)):
        return None
    targets = None if attributes["context_targets_"] is None else Y
    return {**attributes, "context_": X, "context_targets_": targets,
            "context_weight_": sample_weight, "_n_neighbors": k}


def _point_model(params, attributes, n_features):
    """A fitted :class:`SoftmaxAttentionRegressor` at one path point, for a scorer."""
    model = SoftmaxAttentionRegressor(**params)
    vars(model).update(attributes, n_features_in_=n_features)
    return model


@handles_float_errors  # also in a worker process
def _fold_scores(params, scorer, X, Y, sample_weight, y_ndim, train, test, scales,
                 max_iters, alphas, shrinkages, task=None, stop=None, warm_start=True,
                 attention_paths=None, context_neighbors=None):
    """Validation scores (n_scales, n_max_iters, n_alphas, n_shrinkages) of one fold:
    one problem, one :func:`attention_path` per ``(alpha, shrinkage)``, each point
    run to the largest of ``max_iters`` and scored after each of them. A shrinkage
    whose entry of ``attention_paths`` (bool per shrinkage; None: all True) is False
    has its path end at its linear limit (scale 0), its other points
    :data:`SKIPPED`.

    ``params`` are :class:`SoftmaxAttentionRegressor`'s (each path's
    ``alpha`` and ``shrinkage`` its own); ``scorer`` is a scorer, called with
    a model fitted at each point, or None for R², computed from the point's
    parameters without a model. A score that is not finite is NaN: the point
    could not be scored. ``stop=(margin, count)``: a path stops once its
    best validation R² over ``max_iters`` has stayed more than ``margin``
    below its best so far at ``count`` consecutive points, and its remaining
    points score :data:`SKIPPED`; with ``stop=None`` (as for the outer scores
    of a benchmark) every point is fitted. A path that :func:`same_paths` finds
    one with an earlier path of the fold is not fitted: its scores are that
    path's. ``task`` is the fold's, for the callbacks: each fitted path is a
    subtask of it. ``warm_start``: as for :func:`attention_path`.

    Returns the scores and, of the same shape, those of each point attending to its
    ``context_neighbors`` nearest training rows of the fold (see
    :func:`every_row_context`), NaN where that does not apply or
    ``context_neighbors`` is None.
    """
    rng = check_random_state(params["random_state"])
    problem = _problem(params, X[train], Y[train], sample_weight[train], rng)
    every_row = (None if context_neighbors is None else
                 _positive_rows(X[train], Y[train], sample_weight[train], 2))
    X_test, y_test = X[test], (Y[test, 0] if y_ndim == 1 else Y[test])
    w_test = sample_weight[test]
    task = Task(None, None) if task is None else task
    scores = np.full((len(scales), len(max_iters), len(alphas), len(shrinkages)), SKIPPED)
    neighbor_scores = np.full_like(scores, np.nan)
    if attention_paths is None:
        attention_paths = np.ones(len(shrinkages), dtype=bool)
    paths = list(product(enumerate(alphas), enumerate(shrinkages)))
    # Only paths of one alpha that both go past their linear limits (or both do not)
    # can be one.
    fitted_as = same_paths(
        [_linear_predictions(problem, {**params, "alpha": alpha, "shrinkage": shrinkage},
                             X[train], y_ndim)
         for (_, alpha), (_, shrinkage) in paths],
        [(a, attention_paths[r]) for (a, _), (r, _) in paths], sample_weight[train],
        SAME_PATH)
    for p, ((a, alpha), (r, shrinkage)) in enumerate(paths):
        if fitted_as[p] != p:  # one path with an earlier one: its scores are that one's
            (a_as, _), (r_as, _) = paths[fitted_as[p]]
            scores[..., a, r] = scores[..., a_as, r_as]
            neighbor_scores[..., a, r] = neighbor_scores[..., a_as, r_as]
            continue
        path_params = {**params, "alpha": alpha, "shrinkage": shrinkage}
        path_scales = scales if attention_paths[r] else scales[:int(scales[0] == 0)]
        path = task.subtask(f"alpha={alpha:.3g}, shrinkage={_label(shrinkage)}",
                            len(path_scales))
        stopped = None if stop is None else PathStop(*stop)
        points = attention_path(problem, path_scales, path_params, random_state=rng, task=path,
                                y_ndim=y_ndim, checkpoints=max_iters, warm_start=warm_start)
        for s, point in enumerate(points):
            r2s = np.full(len(max_iters), np.nan)
            for t, (K, V) in enumerate(point.iterates):
                if t > 0 and point.iterates[t] is point.iterates[t - 1]:  # the solver had stopped
                    scores[s, t, a, r], r2s[t] = scores[s, t - 1, a, r], r2s[t - 1]
                    neighbor_scores[s, t, a, r] = neighbor_scores[s, t - 1, a, r]
                    continue
                attributes = _fitted_attributes(K, V, problem, y_ndim, scales[s] == 0)
                point_params = {**path_params, "attention_scale": scales[s],
                                "max_iter": max_iters[t]}
                if scorer is None or (stop is not None and len(test) > 1):
                    # (R² needs two rows: with one it is not defined.)
                    r2s[t] = _score(None, point_params, attributes, X_test, y_test, w_test)
                score = r2s[t] if scorer is None else _score(
                    scorer, point_params, attributes, X_test, y_test, w_test)
                scores[s, t, a, r] = score if np.isfinite(score) else np.nan
                every = (None if every_row is None else
                         every_row_context(attributes, *every_row, context_neighbors))
                if every is not None:
                    score = _score(scorer, point_params, every, X_test, y_test, w_test)
                    neighbor_scores[s, t, a, r] = score if np.isfinite(score) else np.nan
            if stopped is not None and stopped(np.nanmax(r2s) if np.isfinite(r2s).any()
                                               else np.nan):
                break
        path.end()
    task.end()
    return scores, neighbor_scores


def _score(scorer, params, attributes, X, y, sample_weight):
    """The validation score of the model with fitted ``attributes``: ``scorer``'s, or
    R² (scorer None); NaN, not scorable, where its parameters are not finite."""
    if not_finite(attributes):
        return np.nan
    if scorer is None:
        return r2(y, layer_predict(attributes, X, params["n_jobs"], params["extrapolation"]),
                  sample_weight)
    return scorer(_point_model(params, attributes, X.shape[1]), X, y,
                  sample_weight=sample_weight)


class SoftmaxAttentionRegressorCV(_AttentionLayerModel):
    """Softmax attention regression with the sharpness chosen by cross-validation.

    For every fold and every ``(alpha, shrinkage)``, the layer is fitted along a path of
    increasing ``attention_scale`` (the Frobenius norm of the key-query matrix
    in whitened coordinates, i.e. the softmax's sharpness): the first point,
    scale 0, is the layer's linear limit in closed form (least squares, or
    ridge regression with a ``shrinkage``), and every later one starts from
    its spectral factorization (or from the previous point: see
    ``path_warm_start``) and is scored after each of the iteration counts
    ``max_iters``. By default the path is short: the linear limit and one
    start, from which the solver learns the sharpness along with the rest of
    the layer (``attention_scales="auto"``, ``renormalize=False``).
    The training problem of a fold (centering, whitening,
    context) is built once and shared by all its paths. The point chosen (by
    default the smallest scale within two standard errors of the best mean
    validation score) is refitted on all the data, so where the data are
    linear the model is linear: least squares, or ridge with a
    ``shrinkage``.

    By default the layer is the in-context one, fitted with L-BFGS: every
    context token carries its target as well as its features, and the
    scores are distances in a learned metric, so that attention is a
    kernel smoother on top of the linear limit (see
    :class:`SoftmaxAttentionRegressor`'s ``target_tokens`` and
    ``attention_scores``). The paper's layer and algorithm are
    ``target_tokens=False, attention_scores="bilinear", solver="gd"``.

    Parameters
    ----------
    attention_scales : "auto", int or array-like of shape (n_scales,), default="auto"
        The path of attention scales. ``"auto"``: 0 (the linear limit) and
        one start, from which with ``renormalize=False`` the solver learns the
        sharpness as well, as metric learning for kernel regression learns its
        metric's scale: with distance scores, the isotropic metric under which a
        row's nearest distinct neighbour, at the median such distance
        (Mahalanobis, over the context's rows: with more than ``max_context``
        training rows, a sample of that many drawn as the context is), scores
        0.5 below the row's own
        position (weight e^-0.5, a tenth of the sharpest scale of an int path:
        a smoother over a few neighbours); with bilinear scores, 1. An int: 0,
        then one fewer values spaced geometrically from 0.01 (nearly linear
        attention) to 10 (a sharp, local smoother); 5 steps by decades.
        With ``attention_scores="distance"`` the steps go on past 10, at the
        same ratio, until the rows' spacing is resolved: until a row's nearest
        distinct neighbour, at the median such distance (Mahalanobis, over the
        context's rows), scores 5 below the row's own position (weight e⁻⁵), as in
        nearest-neighbour regression. Data on few distinct points or many
        rows in few features need that: on a real set of 105 rows on 19
        distinct points, a Nadaraya–Watson smoother on standardized features
        scores R² 0.68 at a sharpness of 10⁴. An array: the values themselves
        (non-negative), fitted in increasing order. With ``renormalize=False``
        a scale is where its points start, not where they end.

    alphas : array-like of shape (n_alphas,), default=(0.0,)
        Strengths of the balancing regularizer to try (only the first with
        ``regularization=None``). Without it a sharp softmax can be fully
        nonlinear, which is what nonlinear data need; a balance of 1 or more
        keeps the layer closer to its linear limit (for one target, a strong
        one makes ``K`` nearly rank one). Keep 0 in the grid: measured on the
        README's ``make_friedman1`` data with the paper's layer (the earlier
        defaults), ``alphas=(10.0,)`` (with ``shrinkages=(0.0, "auto",
        10.0)``) fell back to ridge regression and scored 0.743 R², where
        ``(0.0,)`` scored 0.866. The default grid (``alphas``,
        ``shrinkages``) was chosen, with the paper's layer and the rule
        ``"1se"``, by nested cross-validation on eighty real data sets, by a
        criterion written before the results, and are reported on 53 more
        held out from every choice (the user guide's benchmark log): among the
        candidates that stay within 0.01 R² of the best of least squares and
        ``RidgeCV`` on every set, the cheapest of those within 0.002 of the
        largest mean gain, and if none does (as on these eighty sets), the
        one whose worst set loses least; with 0 required in both grids, since
        a panel of mostly linear data cannot show what a grid without it
        costs on nonlinear data.

    shrinkages : array-like of shape (n_shrinkages,), default=(0.0, "auto", 10.0)
        Ridge penalties on the linear limit to try, in the units of
        :class:`~sklearn.linear_model.Ridge`'s ``alpha`` on standardized
        features (the ``shrinkage`` of :class:`SoftmaxAttentionRegressor`):
        the path's linear limit is then ridge regression, which beats least
        squares (0) on small or many-featured data, and the attention layer
        along the path is shrunk the same way. ``"auto"`` is the value that
        :class:`~sklearn.linear_model.RidgeCV` chooses on each fold's
        training rows (and on all the rows for the refit), so that its linear
        limit is that ``RidgeCV``: on the real-data panel, the sets that the
        previous defaults ``(0.0, 10.0)`` lost most on were those where
        ``RidgeCV`` beat least squares by far. Every ``(alpha, shrinkage)``
        has its own path, and its linear limit is computed in closed form;
        a fit's time is nearly proportional to the paths. On a fold where two
        shrinkages' linear limits predict its training rows alike (their
        root-mean-square difference at most 1% of the predictions' spread,
        ``sklearn_softattn._cv.SAME_PATH``), the penalties barely act there
        and their paths are one, fitted once: at 4 000 rows a fold fitted a
        mean 1.9 of its three paths on the panel's sets that large, in a
        median 0.67 of the time, and on every set of the panel the test R²
        moved by at most 0.004 (``benchmarks/bench_same_paths.py``). The default has
        three, where the grid first chosen, ``(0.0, "auto", 1.0, 10.0)``, had
        four: by a criterion written before the fits (the sixth protocol of
        the user guide's benchmark log), the cheaper
        candidates were fitted on the eighty sets, and three paths took a
        median 0.75 of the passes over the data (0.75 of the time) for a
        mean R² of 0.3488 against 0.3481, with the same five sets more than
        0.01 below the best linear model. (The criterion's own choice,
        ``max_iter=100`` at 0.74 of the passes, lost 0.007-0.082 R² on each
        of eight nonlinear synthetic fits, which that panel cannot show;
        three paths matched four there within 0.001.)

    attention_shrinkages : array-like or None, default=("auto",)
        The shrinkages whose paths go on past the linear limit: those of
        ``shrinkages`` that are among these, or every one if none is (with
        ``shrinkages=[0.0]``, say) or with None. Each of the others is tried
        at its linear limit only, in closed form, which costs a pass over a
        fold's rows where each point past it costs up to ``max(max_iters)``
        iterations. On the real-data panel at 1 500 rows (see Notes) None
        scored a mean R² 0.0008 below the default's, with as many sets more
        than 0.02 below ``RidgeCV``, at 2.6 times its median fit time.

    max_iters : int or array-like of shape (n_max_iters,), default=(5, 15, 40)
        Iteration counts of the solver to try at every point of the path, a
        hyperparameter like the others: each point runs to the largest and
        is scored after each of them, its stopping rule (``tol``,
        ``n_iter_no_change``) still applying. As boosting's and an MLP's early
        stopping choose their iterations on held-out rows, the chosen count is
        the refit's at the chosen point (``max_iter_``): on real data the
        validation score of a sharp point often peaks long before the solver's
        convergence, so fewer iterations are a regularizer as well as a
        saving. The refit stops at the chosen count without a
        ``ConvergenceWarning``, even where it is the largest; there the
        validation score was still rising, and a longer ``max_iters`` may
        score better (``verbose`` says so). An int: that count only.

    cv : int, "auto", cross-validation generator or iterable, default="auto"
        Folds. ``"auto"``: 5 shuffled folds (below) up to 10 000 rows; above
        them one shuffled hold-out of 10% of the rows, where
        ``HistGradientBoostingRegressor`` validates its early stopping by
        default, so that each point of the path is fitted once on 90% of the
        rows instead of five times on 80%. A single split has no
        fold-to-fold spread to take standard errors from: its best point is
        chosen, whatever ``selection``. An int (or None, 5) is
        ``KFold(cv, shuffle=True, random_state=random_state)``: shuffled, as
        the internal validation splits of ``HistGradientBoostingRegressor``
        and ``MLPRegressor`` are, because for a local smoother a block of
        rows sorted by some feature (by year, by region) is extrapolation: its
        rows have no neighbours left in training, every sharp point scores
        badly there, and the choice falls back to the linear end. With
        ``random_state=None`` the folds then differ from fit to fit. A
        splitter or an iterable is used as given (pass ``KFold(5)`` for
        blocks of the row order). On eleven fits of 17 800-100 000 rows
        (``benchmarks/bench_validation.py``, its rule written before its
        fits) ``"auto"`` took a median 0.30 of five folds' time, for a mean
        test R² 0.0019 higher (CPS1988 0.225 against the linear end's 0.199;
        ``diamonds`` 0.973 against 0.978, the largest loss); the first run,
        before the path's start followed the context, had kept 5 folds.
        Every split must leave at least 2 training rows of positive weight.

    scoring : str, callable or None, default=None
        Validation score, as in :func:`sklearn.metrics.check_scoring`;
        ``None`` is R² (the estimator's ``score``). Larger is better.

    selection : {"2se", "1se", "best"}, default="2se"
        How the point is chosen from the mean validation scores. ``"best"``:
        the highest (ties to the smaller scale). ``"1se"`` (``"2se"``): the
        smallest scale within one standard error (two) of the highest, the
        standard error of the fold-by-fold differences (the
        "one-standard-error rule" and its stricter form): a sharper softmax
        must beat the flatter one by more than the folds' noise. A point
        whose mean is below the best of the linear limit is never chosen
        this way. The default is the real-data panel's choice (see Notes):
        ``"best"`` takes a sharper point wherever it scores higher, however
        little, so on linear data too it may choose a positive scale whose
        validation score is higher by chance, where ``"2se"`` keeps to the
        linear limit. With the other defaults, ``"1se"`` fell more than 0.02
        R² below ``RidgeCV`` on 16 of the panel's 166 sets, ``"2se"`` on 4.
        With few folds the standard error is itself noisy.

    path_warm_start : bool, default=False
        Whether each point of a path after the first positive scale starts
        from the previous point, renormalized to its scale (True), or afresh
        from the initialization of ``init`` (False), as the first does. Warm
        starts suit gd, whose small steps move little from a good start.
        L-BFGS moves far in a few iterations: along a warm path at the flat
        scales it can leave the linear fit for points that score below it,
        and carry them to the sharp ones: on 120 rows of ``sin(2 x₁) + 0.5
        x₂`` plus noise (three uniform features), the defaults score a test
        R² of 0.96 without warm starts and 0.43 with them. Without warm
        starts the points of a path are independent, and the refit fits the
        chosen one only.

    path_early_stop : bool, default=False
        Whether a fold's path stops once its validation R² has fallen more
        than 0.1 below its best so far (whatever the ``scoring``): its
        sharper points are then skipped (``score_path_``). The rule was
        measured on warm-started paths, where a point that has fallen is
        the start of the next; with fresh starts (``path_warm_start=False``)
        a flat point that fails does not make the sharper ones fail. On
        20 000 rows of ggplot2's ``diamonds`` the first positive scale scores
        R² -1.7 on the folds, and with the stop the choice is the linear end
        (test R² 0.923); without it the folds reach 0.94 at a scale of 100.
        On the real-data panel the stop saved 2% of the median fit time and
        cost 0.008 of the mean R² (see Notes).

    target_tokens : bool, default=True
        As in :class:`SoftmaxAttentionRegressor`, whose default is False:
        the context tokens carry their targets.

    attention_scores : {"bilinear", "distance"}, default="distance"
        As in :class:`SoftmaxAttentionRegressor`, whose default is
        ``"bilinear"``: distance scores make attention local.

    solver : {"gd", "lbfgs", "sgd", "adam"}, default="lbfgs"
        As in :class:`SoftmaxAttentionRegressor`, whose default is the
        paper's ``"gd"``.

    max_context : int or None, default=2048
        As in :class:`SoftmaxAttentionRegressor`: the most training rows that
        serve as context tokens (a seeded subsample), in every fold and in the
        refit. A kernel smoother on fewer tokens has more variance: on the
        real-data panel's 42 sets of more than 1500 rows, at most 5000 of them
        (``benchmarks/bench_panel.py --candidates --round 15 --max-rows
        5000``), 2048 tokens scored a mean of max(R², 0) of 0.323 against
        1024's 0.320 (Star +0.04, PSID +0.05, diamonds +0.005), at 3.0 times
        the MLP's median fit time against 2.0; on Friedman's three data sets
        (n = 2000) 0.989, 0.998 and 0.965 against 0.986, 0.997 and 0.952.
        Past 2048 rows the time per iteration grows with it; lower it, or
        pass ``None`` for every row, to trade one for the other.

    context_neighbors : int or None, default=256
        With distance scores and more training rows than ``max_context``:
        each fold also scores every point of the path as it would predict if
        its queries attended to their ``context_neighbors`` nearest training
        rows in the learned metric, every training row of the fold a
        candidate, instead of to the sampled context (``neighbor_score_path_``).
        Where that mean validation score is higher at the chosen point, the
        refit predicts so (``context_neighbors_``): its parameters are fitted
        on the sampled context as before, and its context becomes every
        training row. A smoother learned on a sample then averages over more
        rows at the same sharpness. It is chosen by the folds and not assumed,
        because the layer's value term, fitted for the sampled context, can
        also move with the rows attended. Costs one neighbour search of the
        validation rows per scored point, and one per ``predict``. The default
        was chosen by a rule written before its fits
        (``benchmarks/bench_context_neighbors.py``): on 35 sets of more than
        2560 rows, 256 raised the mean test R² by 0.0022 (PSID +0.024, Star
        +0.014, HI +0.011, Computers +0.010; chosen on 7 sets, no set lower)
        at 1.14 times the median fit time; on ``make_friedman1`` the folds
        kept the sample. ``None``: never.

    renormalize : bool, default=False
        As in :class:`SoftmaxAttentionRegressor`, whose default is the
        paper's ``True``: without it, each point of the path starts at its
        scale and the solver moves the sharpness too (the metric's norm, with
        distance scores), so that the leave-one-out error chooses it within
        the iterations that the folds choose. ``True`` keeps each point at its
        scale, and the path tries the sharpnesses instead: on the real-data
        panel the earlier defaults did so on 5 or more scales, for a mean R²
        0.004 lower at 4.6 times the median fit time (see Notes).

    init, preconditioner, regularization, learning_rate, batch_size, tol, \
n_iter_no_change, n_neighbors, fit_intercept, extrapolation
        As in :class:`SoftmaxAttentionRegressor`; ``tol`` applies to every
        point of the path, and ``extrapolation`` to the validation rows that
        score it as to ``predict``. With ``n_neighbors`` the points of a
        fold's paths share one neighbour search until the metric's shape
        moves (a rescaled metric orders the rows as before).

    random_state : int, RandomState instance or None, default=None
        As in :class:`SoftmaxAttentionRegressor`; every fold and the refit
        draw from the same seed, which also shuffles the inner folds of an
        int ``cv``. Pass an int for reproducible folds and fits.

    n_jobs : int, default=None
        Folds fitted in parallel on joblib's worker processes, and threads of
        the compiled kernel in the refit and in ``predict``. For the folds,
        ``None`` means one after the other unless in a
        :func:`joblib.parallel_config` context; each fold's kernel runs the
        threads of :class:`SoftmaxAttentionRegressor`'s ``n_jobs=None`` where
        the fold runs: all cores when the folds run in turn, a worker's share
        of them in a worker process (joblib limits OpenMP there). For the
        refit and ``predict``, ``n_jobs`` is :class:`SoftmaxAttentionRegressor`'s:
        ``None`` means all cores, unless limited by ``OMP_NUM_THREADS``,
        :func:`threadpoolctl.threadpool_limits` or a joblib worker process.
        Results do not depend on it.

    verbose : int, default=0
        Print the chosen point; above 1, also the objective at every
        iteration of every path point fitted, in the inner folds (before the
        chosen point is printed; a fold fitted in a worker process prints
        there) and in the refit (after it).

    Attributes
    ----------
    attention_scale_ : float
        The chosen attention scale: with ``renormalize=False``, where the chosen
        point started (its sharpness is then the fitted ``key_query_``'s).

    alpha_ : float
        The chosen regularization strength.

    attention_scales_ : ndarray of shape (n_scales,)
        The path of attention scales, increasing.

    alphas_ : ndarray of shape (n_alphas,)
        The regularization strengths tried.

    shrinkage_ : float or "auto"
        The chosen ridge penalty of the linear limit.

    shrinkages_ : ndarray of shape (n_shrinkages,)
        The ridge penalties tried (of dtype object when they hold ``"auto"``).

    max_iter_ : int
        The chosen iteration count of the chosen point.

    max_iters_ : ndarray of shape (n_max_iters,)
        The iteration counts tried, increasing.

    score_path_ : ndarray of shape (n_scales, n_max_iters, n_alphas, n_shrinkages, n_folds)
        Validation score of every path point after every iteration count on
        every fold (as ``ElasticNetCV.mse_path_`` holds one per
        ``l1_ratio``, alpha and fold). NaN where a point could not be scored (a fold too small for
        R², say, or a scorer that gives a value that is not finite): that
        leaves its point, or a fold where no point has one, out of the
        choice, with a warning. -inf where the point was not fitted: with
        ``path_early_stop=True``, along increasing scales, a fold's path
        stops once its validation R² has fallen more than 0.1 below its best
        so far (whatever the ``scoring``), and its sharper points are
        skipped; a skipped point is never chosen, without a warning. On a
        fold where two shrinkages' paths are one (see ``shrinkages``), the
        later one's scores are copies of the earlier one's.

    neighbor_score_path_ : ndarray of the shape of ``score_path_``
        The same points' validation scores when each validation row attends
        to its ``context_neighbors`` nearest training rows of the fold (see
        ``context_neighbors``); NaN where that does not apply: the linear
        limit, bilinear scores, a fold whose context holds every training
        row, or ``context_neighbors=None``.

    context_neighbors_ : int or None
        ``context_neighbors`` if the refit attends to that many nearest
        training rows, every training row in ``context_``; None if it attends
        to its sampled context.

    key_query_, value_, target_value_, context_, context_weight_, context_targets_, \
data_radius_, x_offset_, y_offset_, coef_, intercept_, n_iter_, loss_curve_
        As in :class:`SoftmaxAttentionRegressor`, for the model refitted on all
        the data; ``n_iter_`` and ``loss_curve_`` cover its whole path.

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, when they are all strings.

    See Also
    --------
    SoftmaxAttentionRegressor : The model with a fixed sharpness.
    sklearn.linear_model.LassoCV : The same idea for the lasso's penalty.
    sklearn.linear_model.RidgeCV : Ridge regression with built-in cross-validation.

    Notes
    -----
    The cost is about ``n_folds * n_alphas * n_shrinkages`` fits along the
    path, plus one refit of the chosen point (with ``path_warm_start``, of
    the path up to it); the linear limit costs one pass over the data, each
    later point at most ``max(max_iters)`` iterations (with
    ``path_early_stop``, a fold's path stops where its validation score has
    clearly fallen: see ``score_path_``). Fit on standardized targets or not:
    scores and the regularizers do not depend on the scale of ``y``.

    The defaults of ``attention_scales``, ``attention_shrinkages``,
    ``renormalize``, ``selection``, ``path_warm_start``, ``path_early_stop``,
    ``target_tokens``, ``attention_scores``, ``solver``, ``max_iters`` and
    ``max_context`` were
    chosen on the real-data panel in rounds, each by a rule written before
    its fits (the user guide's selection page). On its 166 sets (at most 300
    rows, 5 outer folds) they score a mean R² (each set's clipped at 0) of
    0.388, with 1 set more than 0.02 below ``RidgeCV``, in a median 0.43
    times the fit time of ``MLPRegressor`` (on standardized targets); at
    most 1 500 rows, 0.410 with 1 set below, in 0.67 times. The
    previous defaults, which tried 5 or more scales at fixed sharpness,
    scored 0.385 with 4 sets below in 4.4 times its time, and the paper's
    layer with gd and 200 iterations on 8 scales 0.374 with 4 sets below in
    5.2 times.

    When tuning :class:`SoftmaxAttentionRegressor` with
    :class:`~sklearn.model_selection.GridSearchCV` instead, pass
    ``cv=KFold(5, shuffle=True, random_state=0)`` if the rows may be ordered:
    an int ``cv`` there means unshuffled blocks.

    Examples
    --------
    >>> from sklearn.datasets import make_friedman1
    >>> from sklearn_softattn import SoftmaxAttentionRegressorCV
    >>> X, y = make_friedman1(n_samples=300, noise=0.5, random_state=0)
    >>> reg = SoftmaxAttentionRegressorCV(random_state=0).fit(X[:200], y[:200])
    >>> round(reg.attention_scale_, 2), reg.max_iter_, reg.shrinkage_
    (0.71, 40, 'auto')
    >>> round(reg.score(X[200:], y[200:]), 2)
    0.87
    """

    _parameter_constraints: dict = {
        **{
            name: constraint
            for name, constraint in SoftmaxAttentionRegressor._parameter_constraints.items()
            if name not in ("attention_scale", "alpha", "shrinkage", "max_iter",
                            "early_stopping", "validation_fraction", "warm_start")
        },
        "attention_scales": [Interval(Integral, 1, None, closed="left"), "array-like",
                             StrOptions({"auto"})],
        "max_iters": [Interval(Integral, 1, None, closed="left"), "array-like"],
        "alphas": ["array-like"],
        "shrinkages": ["array-like"],
        "attention_shrinkages": ["array-like", None],
        "cv": ["cv_object", StrOptions({"auto"})],
        "scoring": [StrOptions(set(get_scorer_names())), callable, None],
        "selection": [StrOptions({"2se", "1se", "best"})],
        "path_warm_start": ["boolean"],
        "path_early_stop": ["boolean"],
        "context_neighbors": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self,
        attention_scales="auto",
        alphas=(0.0,),
        shrinkages=(0.0, "auto", 10.0),
        *,
        attention_shrinkages=("auto",),
        cv="auto",
        scoring=None,
        selection="2se",
        path_warm_start=False,
        path_early_stop=False,
        target_tokens=True,
        attention_scores="distance",
        init="spectral",
        preconditioner="covariance",
        regularization="balance",
        renormalize=False,
        solver="lbfgs",
        learning_rate="auto",
        batch_size="auto",
        max_iters=(5, 15, 40),
        tol=1e-4,
        n_iter_no_change=10,
        max_context=2048,
        context_neighbors=256,
        n_neighbors=None,
        fit_intercept=True,
        extrapolation="clip",
        random_state=None,
        n_jobs=None,
        verbose=0,
    ):
        self.attention_scales = attention_scales
        self.alphas = alphas
        self.shrinkages = shrinkages
        self.attention_shrinkages = attention_shrinkages
        self.cv = cv
        self.scoring = scoring
        self.selection = selection
        self.path_warm_start = path_warm_start
        self.path_early_stop = path_early_stop
        self.target_tokens = target_tokens
        self.attention_scores = attention_scores
        self.init = init
        self.preconditioner = preconditioner
        self.regularization = regularization
        self.renormalize = renormalize
        self.solver = solver
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        self.max_iters = max_iters
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.max_context = max_context
        self.context_neighbors = context_neighbors
        self.n_neighbors = n_neighbors
        self.fit_intercept = fit_intercept
        self.extrapolation = extrapolation
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _warn_unscorable(self):
        """Warn of the folds and points of ``score_path_`` left out of the choice;
        raise if none is left."""
        points, folds = scorable(self.score_path_)
        why = ("validation scores that are not finite (R² needs at least two "
               "validation rows of positive weight and targets that vary)")
        if not points.any():
            raise ValueError(f"SoftmaxAttentionRegressorCV: no point of the path could be "
                             f"scored on any fold: {why}. Use fewer folds (cv) or more rows.")
        if not folds.all():
            warnings.warn("SoftmaxAttentionRegressorCV: fold(s) "
                          f"{np.flatnonzero(~folds).tolist()} left out of the choice: {why}.",
                          UserWarning)
        # Skipped points (-inf) are left out too, but are no failure.
        failed = np.isnan(self.score_path_[..., folds]).any(axis=-1)
        left_out = [
            f"(attention_scale={self.attention_scales_[s]:.3g}, max_iter={self.max_iters_[t]}, "
            f"alpha={self.alphas_[a]:.3g}, shrinkage={_label(self.shrinkages_[r])})"
            for s, t, a, r in zip(*np.nonzero(failed))
        ]
        if left_out:
            warnings.warn("SoftmaxAttentionRegressorCV: path point(s) "
                          f"{', '.join(left_out)} left out of the choice: {why}.", UserWarning)

    def _grid(self, X, sample_weight):
        """The checked grid: the scales and the iteration counts (ascending), the
        alphas (only the first without a balancing regularizer) and the shrinkages,
        and which shrinkages have paths past the linear limit."""
        alphas = penalty_grid(self.alphas, "alphas")
        shrinkages = shrinkage_grid(self.shrinkages)
        sharpest = start = np.nan
        if self.attention_scores == "distance" and isinstance(self.attention_scales,
                                                             (str, Integral)):
            # The spacing a smoother resolves is that of the rows it attends over: as
            # many as each fit's context holds, drawn as it is drawn, from the rows of
            # positive weight.
            X, _, sample_weight = _positive_rows(X, X[:, :0], sample_weight, 2)
            rows = context_rows(len(X), self.max_context, self.n_neighbors,
                                check_random_state(self.random_state))
            if isinstance(self.attention_scales, str):
                start = neighbour_sharpness(X[rows], sample_weight[rows], START_MARGIN)
            else:
                sharpest = neighbour_sharpness(X[rows], sample_weight[rows])
        return (attention_scale_grid(self.attention_scales, sharpest, start),
                max_iter_grid(self.max_iters),
                alphas if self.regularization is not None else alphas[:1],
                shrinkages, attention_path_mask(shrinkages, self.attention_shrinkages))

    def _path_params(self, n_jobs=None):
        """The parameters of :class:`SoftmaxAttentionRegressor` that the paths share
        (``max_iter``: the largest count, which every point but a refit's last runs)."""
        shared = {
            name: getattr(self, name)
            for name in SoftmaxAttentionRegressor._parameter_constraints
            if name in self._parameter_constraints
        }
        shared.update(n_jobs=n_jobs, verbose=max(self.verbose - 1, 0),
                      max_iter=int(max_iter_grid(self.max_iters)[-1]))
        return shared

    @handles_float_errors
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Choose the sharpness by cross-validation, then refit on all the data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
            Target values.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights, in training and in the validation scores.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        given = X, y, sample_weight  # what the callbacks see (and score on)
        X, Y, sample_weight, y_ndim = self._check_training_data(
            X, y, sample_weight, reset=True, positive_only=False
        )
        scales, max_iters, alphas, shrinkages, attention_paths = self._grid(X, sample_weight)
        y_split = Y[:, 0] if y_ndim == 1 else Y
        folds = inner_folds(self.cv, X, y_split, sample_weight, self.random_state)
        task = Task.begin_fit(self, *given, max_subtasks=len(folds) + 1)
        # The folds' tasks are made here, before the folds go to joblib's workers;
        # their estimators fit validated arrays, and so see those.
        fold_tasks = [
            task.subtask("fold", len(alphas) * len(shrinkages), X=X[train], y=y_split[train],
                         sample_weight=None if given[2] is None else sample_weight[train])
            for train, _ in folds
        ]
        params = self._path_params()
        scorer = None if self.scoring is None else check_scoring(
            SoftmaxAttentionRegressor(**params), scoring=self.scoring)
        scores = Parallel(n_jobs=self.n_jobs)(
            delayed(_fold_scores)(params, scorer, X, Y, sample_weight, y_ndim, train, test,
                                  scales, max_iters, alphas, shrinkages, fold_task,
                                  stop=EARLY_STOP if self.path_early_stop else None,
                                  warm_start=self.path_warm_start,
                                  attention_paths=attention_paths,
                                  context_neighbors=self.context_neighbors)
            for (train, test), fold_task in zip(folds, fold_tasks)
        )
        self.score_path_ = np.stack([dense for dense, _ in scores], axis=-1)
        self.neighbor_score_path_ = np.stack([every for _, every in scores], axis=-1)
        self.attention_scales_, self.max_iters_ = scales, max_iters
        self.alphas_, self.shrinkages_ = alphas, shrinkages
        self._warn_unscorable()
        best_scale, best_iter, best_alpha, best_shrinkage = choose_point(self.score_path_,
                                                                         self.selection)
        self.attention_scale_ = float(scales[best_scale])
        self.max_iter_ = int(max_iters[best_iter])
        self.alpha_ = float(alphas[best_alpha])
        self.shrinkage_ = shrinkages[best_shrinkage]
        if not isinstance(self.shrinkage_, str):
            self.shrinkage_ = float(self.shrinkage_)
        folds = scorable(self.score_path_)[1]
        chosen = (best_scale, best_iter, best_alpha, best_shrinkage)
        every, dense = self.neighbor_score_path_[chosen][folds], self.score_path_[chosen][folds]
        self.context_neighbors_ = (self.context_neighbors if np.isfinite(every).all()
                                   and every.mean() > dense.mean() else None)
        if self.verbose:
            print(f"attention_scale_={self.attention_scale_:.4g}, max_iter_={self.max_iter_}, "
                  f"alpha_={self.alpha_:.4g}, shrinkage_={_label(self.shrinkage_)}, mean "
                  f"validation score {dense.mean():.6g}"
                  + ("" if self.context_neighbors_ is None else
                     f"; attending to the {self.context_neighbors_} nearest of every "
                     f"training row: {every.mean():.6g}"))

        # The refit follows the folds' path: every point before the chosen one runs
        # the largest count, as in the folds, and the chosen point its own count.
        # Without warm starts the chosen point depends on no earlier one.
        first = 0 if self.path_warm_start else best_scale
        params = {**self._path_params(self.n_jobs), "alpha": self.alpha_,
                  "shrinkage": self.shrinkage_}
        rng = check_random_state(self.random_state)
        problem = _problem(params, X, Y, sample_weight, rng)
        self.n_iter_, self.loss_curve_ = 0, []
        refit = task.subtask("refit", best_scale + 1 - first)
        for point in attention_path(problem, scales[first: best_scale + 1], params,
                                    random_state=rng, task=refit, y_ndim=y_ndim,
                                    last_max_iter=self.max_iter_,
                                    warm_start=self.path_warm_start):
            self.n_iter_ += point.n_iter
            self.loss_curve_ += point.loss_curve
        refit.end()
        # The count is a hyperparameter, as RidgeCV's alpha is: the refit stops at
        # the chosen one by design, even at the largest, and does not warn.
        if self.verbose and self.max_iter_ == max_iters[-1] and not point.converged:
            print(f"max_iter_={self.max_iter_} is the largest of max_iters and the solver "
                  "had not converged there: a longer max_iters may score better")
        self._store(point.K, point.V, problem, y_ndim, linear=self.attention_scale_ == 0)
        if self.context_neighbors_ is not None:
            every_row = every_row_context(vars(self), *_positive_rows(X, Y, sample_weight, 2),
                                          self.context_neighbors_)
            # (Folds that repeat rows can outnumber the context where the refit does not.)
            if every_row is None:
                self.context_neighbors_ = None
            else:
                vars(self).update(every_row)
        task.end({})  # the model is self
        return self
