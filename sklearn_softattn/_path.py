"""The paths of :class:`~sklearn_softattn.SoftmaxAttentionRegressorCV` on one fold.

:func:`attention_path` fits the layer along ascending attention scales, each point from
the last, as :func:`sklearn.linear_model.lasso_path` follows the lasso; :func:`_fold_scores`
fits a fold's paths on one :func:`~._problem.build_problem` and scores their points on the
fold's validation rows, for the estimator to choose from (:mod:`._cv`).
"""

from functools import partial
from itertools import count, product
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils import check_random_state

from ._additive import predict_additive
from ._callbacks import Task
from ._geometry import renormalize
from ._layer import (
    every_row_context,
    fitted_layer,
    handles_float_errors,
    initial_params,
    iteration_hook,
    layer_predict,
    linear_limit,
    not_finite,
    solve,
    to_raw,
    weighted_r2,
)
from ._problem import build_problem, positive_rows
from ._selection import mean_exceeds


def screened(scores, attention_paths):
    """The paths of ``attention_paths`` (bool, per balance strength and shrinkage) that
    go on past their linear limits after a first fold's ``scores`` (scales, max_iters,
    balance strengths, shrinkages), from scale 0: those whose best point past the linear
    limit scored above the best linear limit there. Where the data are linear, the other
    folds then fit the linear limits only."""
    linear = linear_end(scores)
    past = scores[1:].reshape(-1, *scores.shape[2:])
    best = np.max(np.where(np.isfinite(past), past, -np.inf), axis=0, initial=-np.inf)
    return attention_paths & (best > linear)


def linear_end(scores):
    """The best linear limit's score among a fold's ``scores`` (scales first, scale 0
    the first), -inf where none is finite."""
    return np.max(np.where(np.isfinite(scores[0]), scores[0], -np.inf), initial=-np.inf)


def _label(value):
    """A grid value for messages and labels: a number to 3 digits, or ``"auto"``."""
    return value if isinstance(value, str) else f"{value:.3g}"


class PathPoint(NamedTuple):
    """One point of :func:`attention_path`: the raw parameters and how the solver ended."""

    K: np.ndarray
    V: np.ndarray
    n_iter: int
    converged: bool
    loss_curve: list
    iterates: list


def _recording_hook(on_iteration, checkpoints, problem, iterates, checkpoint_stop=None,
                    count_stops=None):
    """``on_iteration(K, V)`` that also appends to ``iterates`` the raw ``(K, V)``
    after each iteration count of ``checkpoints``, then passes the call on. After each
    count ``n`` of ``count_stops`` where ``count_stops[n](K, V)`` (of the raw
    parameters) is true, and else at the checkpoints where ``checkpoint_stop(K, V)``
    is, it stops the solver instead, and its ``stopped`` becomes True."""
    counter = count(1)
    count_stops = {} if count_stops is None else count_stops

    def hook(K, V):
        n = next(counter)
        stop = False
        if n in checkpoints or n in count_stops:
            raw = to_raw(K, V, problem)  # new arrays: a copy
            if n in checkpoints:
                iterates.append(raw)
            stop = n in count_stops and count_stops[n](*raw)
            stop = stop or (n in checkpoints and checkpoint_stop is not None
                            and checkpoint_stop(*raw))
        if stop:
            hook.stopped = True
            return True
        return on_iteration is not None and on_iteration(K, V)

    hook.stopped = False
    return hook


def attention_path(problem, scales, params, *, K0=None, V0=None, random_state=None,
                   task=None, y_ndim=1, checkpoints=None, last_max_iter=None,
                   warm_start=True, checkpoint_stop=None, count_stops=None):
    """Fit the attention layer along ascending ``scales``, each point from the last.

    As :func:`sklearn.linear_model.lasso_path` is to ``LassoCV``: a plain
    function over a prepared training problem. A scale of 0 is the layer's
    linear limit, in closed form (:func:`~._layer.linear_limit`). The first positive
    scale starts from ``(K0, V0)`` renormalized to it or, without them, from
    the initialization of ``params["init"]``; every later one from the
    previous point renormalized to its own scale (with ``warm_start=False``,
    from that initialization too).

    Parameters
    ----------
    problem : Problem
        The training problem, as :func:`~._problem.build_problem` builds it.
    scales : array-like of shape (n_scales,)
        Attention scales, in increasing order.
    params : dict
        :class:`SoftmaxAttentionRegressor`'s parameters (as ``get_params``
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
        final iterate where the solver stopped before; none after a
        ``checkpoint_stop``). None: the final iterate only.
    last_max_iter : int, default=None
        The iterations of the last point, if not ``params["max_iter"]``
        (the refit of a count chosen at one point of the path).
    warm_start : bool, default=True
        Whether each positive scale after the first starts from the previous
        point (True) or afresh from the initialization (False).
    checkpoint_stop : callable, default=None
        ``checkpoint_stop(K, V)``, called with a positive point's raw parameters
        at each count of ``checkpoints``: where true, the point stops there, its
        ``iterates`` end with those parameters, and the path ends with it.
    count_stops : dict, default=None
        ``{n: stop}``: after ``n`` iterations (before ``checkpoint_stop`` where
        ``n`` is a count of ``checkpoints``), ``stop(K, V)`` is asked as
        ``checkpoint_stop`` is: where true, the point stops there, with the
        ``iterates`` of the checkpoints up to there, and the path ends with it.

    Yields
    ------
    point : PathPoint
        Per scale, the raw ``(K, V)`` (at scale 0, a pair on the ray whose
        limit it is: pass ``linear=True`` to :func:`~._layer.fitted_layer`), the
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
            K, V = renormalize(K, V, scale, problem.score.W_inv)
        max_iter = (last_max_iter if last_max_iter is not None and s == len(scales) - 1
                    else params["max_iter"])
        point = task.subtask(f"attention_scale={scale:.3g}", max_iter)
        iterates = []
        hook = _recording_hook(iteration_hook(point, problem, y_ndim), set(checkpoints),
                               problem, iterates, checkpoint_stop, count_stops)
        K, V, progress, converged, _ = solve(
            problem, K, V, point_params, rng, max_iter=max_iter, loss_curve=[],
            on_iteration=hook,
        )
        point.end()
        if not hook.stopped:
            iterates += [(K, V)] * (len(checkpoints) - len(iterates))
        yield PathPoint(K, V, progress.n_iter, converged, progress.loss_curve, iterates)
        if hook.stopped:
            return


# The score of a point left unfitted because its path stopped early (see
# :func:`_fold_scores`): below every score, so never chosen, and not a failure
# (a failure is NaN).
SKIPPED = -np.inf

# With trailing_stop="far_behind", a path of the screening fold stops after its
# point's first iteration where the point's validation loss is more than this many
# times the fold's linear end's. After one iteration, on make_friedman1 and 3 (2000
# rows) the paths that lead after five trail the linear end by less than 0.03 of its
# loss; on make_regression the path trails by 7 times the linear end's loss.
FAR_BEHIND = 2.0
# With trailing_stop="significantly_behind", it stops there where its squared error
# exceeds the linear end's by more than this many standard errors of their paired
# difference over the validation rows. After one iteration, on make_regression (2000
# and 10 000 rows) the path trails by 23 and 10 standard errors; on make_friedman1 by
# 0.5, and on make_friedman2 and 3 it leads.
SIGNIFICANTLY_BEHIND = 2.0
# With trailing_stop="not_closing", it stops there only where it also trails the linear
# end by less than this R²: a near tie. After one iteration, on make_regression (10 000
# rows) the path trails by 0.001; on the screened sets of the benchmarks' development half,
# whether they lead later or never, by 0.07 to 0.25: where the attention has far to go,
# one iteration of L-BFGS leaves it far behind.
NEAR_TIE = 0.01


def trails_significantly(y, y_pred, y_linear, sample_weight, n_errors):
    """Whether predictions ``y_pred`` of ``y`` have a larger squared error than
    ``y_linear``'s by more than ``n_errors`` standard errors of the rows' paired
    differences (weighted by ``sample_weight``; summed over targets;
    :func:`~._selection.mean_exceeds`)."""
    diffs = ((y - y_pred) ** 2 - (y - y_linear) ** 2).reshape(len(y), -1).sum(axis=1)
    return bool(mean_exceeds(diffs, n_errors, sample_weight))


class PathStop:
    """The early stop of a path: called with each point's validation R², in order of
    increasing scale, it says when to stop, once the R² has stayed more than ``margin``
    below its best so far at ``count`` consecutive points (:data:`~._cv.EARLY_STOP`). A NaN R²
    neither raises the best nor counts as a fall."""

    def __init__(self, margin, count):
        self.margin, self.count = margin, count
        self.best, self.fallen = -np.inf, 0

    def __call__(self, r2):
        self.best = max(self.best, r2)
        self.fallen = self.fallen + 1 if r2 < self.best - self.margin else 0
        return self.fallen == self.count


# Two paths of a fold (with the same balance strength) whose linear limits predict the
# fold's training rows alike, to within this root-mean-square difference relative to
# the predictions' spread, are one path there, fitted once: their shrinkages then barely
# act on that many rows (see the selection page of the user guide).
SAME_PATH = 0.01


def same_paths(predictions, groups, sample_weight=None, tolerance=0.0):
    """Which path each path of a fold is fitted as.

    Parameters
    ----------
    predictions : list of ndarray of shape (n_samples,) or (n_samples, n_targets)
        Each path's linear limit's predictions at the fold's training rows.
    groups : list
        Each path's group (its balance strength, say): only paths of one group can
        be one.
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


class _Predictions(RegressorMixin, BaseEstimator):
    """What a scorer scores at a path point: a "model" whose predictions at ``X`` are
    ``X`` itself, given the point's predictions (as ``RidgeCV`` scores its
    leave-one-out predictions)."""

    def predict(self, y_pred):
        return y_pred


def _score(scorer, layer, extrapolation, X, y, sample_weight, base=None):
    """The validation score of a :class:`~._layer.FittedLayer`: ``scorer``'s, or R²
    (scorer None); NaN, not scorable, where its parameters are not finite. ``base``: its
    additive base's predictions at ``X``, where computed already."""
    if not_finite(layer):
        return np.nan
    return score_predictions(scorer, layer_predict(layer, X, extrapolation, base), y,
                             sample_weight)


def score_predictions(scorer, y_pred, y, sample_weight):
    """The validation score of predictions ``y_pred`` of ``y``: ``scorer``'s, or R²
    (scorer None)."""
    if scorer is None:
        return weighted_r2(y, y_pred, sample_weight)
    return scorer(_Predictions(), y_pred, y, sample_weight=sample_weight)


def as_given(Y, y_ndim):
    """The targets ``Y`` (2-D, as the fit works on them) in the shape they were given:
    one column as a 1-D array where ``y`` was 1-D."""
    return Y[:, 0] if y_ndim == 1 else Y


class FoldScores(NamedTuple):
    """What :func:`_fold_scores` gives for one fold: arrays of shape (n_scales,
    n_max_iters, n_balance_strengths, n_shrinkages)."""

    scores: np.ndarray
    neighbor_scores: np.ndarray  # of each point attending to its nearest training rows
    linear_scores: np.ndarray  # of the linear limits reading far rows another way
    fits: np.ndarray = None  # each point's (FittedLayer, n_iter, loss_curve), if kept


@handles_float_errors  # also in a worker process
def _fold_scores(params, scorer, X, Y, sample_weight, y_ndim, train, test, scales,
                 max_iters, balance_strengths, shrinkages, task=None, stop=None,
                 warm_start=True, attention_paths=None, context_neighbors=None,
                 screened_out=None, screens=False, trailing_stop=False,
                 linear_extrapolation=None, keep_fits=False):
    """Validation scores (n_scales, n_max_iters, n_balance_strengths, n_shrinkages) of
    one fold: one problem, one :func:`attention_path` per ``(balance_strength,
    shrinkage)``, each point run to the largest of ``max_iters`` and scored after each
    of them. A path whose entry of ``attention_paths`` (bool, per balance strength and
    shrinkage; None: all True) is False ends at its linear limit (scale 0), its other
    points :data:`SKIPPED`; so does one whose entry of ``screened_out`` (of the same
    shape; None: none) is True, though it is still grouped as a path that goes past.

    ``params`` are :class:`SoftmaxAttentionRegressor`'s (each path's
    ``balance_strength`` and ``shrinkage`` its own); ``scorer`` is a scorer, or None
    for R². A score that is not finite is NaN: the point could not be scored.
    ``stop=(margin, count)``: a path stops once its best validation R² over
    ``max_iters`` has stayed more than ``margin`` below its best so far at ``count``
    consecutive points, and its remaining points score :data:`SKIPPED`; with
    ``stop=None`` every point is fitted. A path that :func:`same_paths` finds one
    with an earlier path of the fold is not fitted: its scores are that path's.
    ``task`` is the fold's, for the callbacks: each fitted path is a subtask of it.
    ``warm_start``: as for :func:`attention_path`.

    Returns a :class:`FoldScores`: the scores and, of the same shape, those of each
    point attending to its ``context_neighbors`` nearest training rows of the fold (see
    :func:`~._layer.every_row_context`), NaN where that does not apply or
    ``context_neighbors`` is None. With ``screens`` (the fold screens the others,
    :func:`screened`), those are computed only on the paths that pass the screen: the
    others' points are skipped on the other folds, so the choice cannot take them.
    With ``trailing_stop`` too, a path stops at the first count where its point scores
    below the best linear limit of the fold so far (the path's own included): it would
    then need to gain past a point that trails, and is screened out as it stands, its
    later counts and points :data:`SKIPPED`. With ``trailing_stop="first_iteration"``
    it is also asked after each point's first iteration; with ``"far_behind"`` a point
    stops there only where its validation loss, 1 - R², is more than :data:`FAR_BEHIND`
    times the best linear limit's of the fold so far (R², whatever ``scorer``); with
    ``"significantly_behind"`` only where its squared error trails that linear limit's
    by more than :data:`SIGNIFICANTLY_BEHIND` standard errors
    (:func:`trails_significantly`). With ``"not_closing"``, it stops there only where it
    also trails by less than :data:`NEAR_TIE` of R², and at a count only where it also
    gained less R² since its last reading (its first iteration, or the count before) than
    it still trails by: it is not closing the gap.

    With ``linear_extrapolation`` (a value of ``extrapolation``), ``linear_scores`` holds
    the scores of the linear limits reading the rows that way instead; NaN elsewhere,
    and everywhere where it is None. With ``keep_fits``, ``fits`` holds each fitted
    point's layer, iterations and loss curve (None where it was not fitted), for a
    model that is not refitted.
    """
    rng = check_random_state(params["random_state"])
    rows = positive_rows(X[train], Y[train], sample_weight[train], 2)
    problem = build_problem(*rows, params, rng)
    X_test, Y_test = X[test], Y[test]
    y_test = as_given(Y_test, y_ndim)
    w_test = sample_weight[test]
    # The additive base's predictions, once a fold: every point adds them at the
    # validation rows, the paths compared read them at the training rows, and every-row
    # contexts take them from the targets of the rows of positive weight.
    base = train_base = rows_base = None
    if problem.base is not None:
        base = predict_additive(*problem.base, X_test)
        train_base = predict_additive(*problem.base, X[train])
        if context_neighbors is not None:
            rows_base = predict_additive(*problem.base, rows[0])
    extrapolation = params["extrapolation"]
    task = Task(None, None) if task is None else task
    scores = np.full((len(scales), len(max_iters), len(balance_strengths), len(shrinkages)),
                     SKIPPED)
    neighbor_scores = np.full_like(scores, np.nan)
    linear_scores = np.full_like(scores, np.nan)
    fits = np.full(scores.shape, None, dtype=object) if keep_fits else None
    if attention_paths is None:
        attention_paths = np.ones((len(balance_strengths), len(shrinkages)), dtype=bool)
    paths = list(product(enumerate(balance_strengths), enumerate(shrinkages)))

    def best_linear_score():
        return np.max(scores[0], initial=-np.inf, where=np.isfinite(scores[0]))

    def trails(K, V):
        """Whether a positive point scores below the best linear limit so far."""
        score = _score(scorer, fitted_layer(K, V, problem, y_ndim), extrapolation, X_test,
                       y_test, w_test, base)
        return score < best_linear_score()

    # The validation R² and predictions of the fold's linear limits, for the stops after
    # a point's first iteration.
    linear_ends = []

    def best_linear_end():
        return max([end for end in linear_ends if np.isfinite(end[0])], key=lambda end: end[0],
                   default=(-np.inf, None))

    def far_behind(K, V):
        """Whether a positive point's validation loss is more than FAR_BEHIND times the
        best linear limit's so far."""
        r2 = _score(None, fitted_layer(K, V, problem, y_ndim), extrapolation, X_test, y_test,
                    w_test, base)
        return 1 - r2 > FAR_BEHIND * (1 - best_linear_end()[0])

    # The validation R² of the point being fitted at its last reading (its first
    # iteration, then each count of "not_closing"), which the next count's stop reads.
    last_r2 = [np.nan]

    def validation(K, V):
        """A positive point's validation predictions, its R² kept as its last reading."""
        y_pred = layer_predict(fitted_layer(K, V, problem, y_ndim), X_test, extrapolation,
                               base)
        last_r2[0] = score_predictions(None, y_pred, y_test, w_test)
        return y_pred

    def significantly_behind(K, V, within=np.inf):
        """Whether a positive point trails the best linear limit so far significantly
        (and by less than ``within`` of R²)."""
        y_pred, (best_r2, linear) = validation(K, V), best_linear_end()
        return (linear is not None and not best_r2 - last_r2[0] >= within
                and trails_significantly(Y_test, y_pred.reshape(linear.shape), linear, w_test,
                                         SIGNIFICANTLY_BEHIND))

    near_tie = partial(significantly_behind, within=NEAR_TIE)

    def not_closing(K, V):
        """Whether a positive point scores below the best linear limit so far, and gained
        less R² since its last reading than it trails that limit's by."""
        before = last_r2[0]
        y_pred = validation(K, V)
        r2 = last_r2[0]
        score = r2 if scorer is None else score_predictions(scorer, y_pred, y_test, w_test)
        return score < best_linear_score() and not r2 - before >= best_linear_end()[0] - r2

    first_stop = None if not screens else {
        "first_iteration": trails, "far_behind": far_behind,
        "significantly_behind": significantly_behind, "not_closing": near_tie,
    }.get(trailing_stop)
    reads_linear_ends = first_stop in (far_behind, significantly_behind, near_tie)
    checkpoint_stop = (None if not screens or not trailing_stop else
                       not_closing if trailing_stop == "not_closing" else trails)

    # Only paths of one balance strength that both go past their linear limits (or both
    # do not) can be one.
    fitted_as = same_paths(
        [layer_predict(fitted_layer(*linear_limit(problem, {**params, "shrinkage": shrinkage}),
                                    problem, y_ndim, linear=True), X[train], base=train_base)
         for _, (_, shrinkage) in paths],
        [(a, attention_paths[a, r]) for (a, _), (r, _) in paths], sample_weight[train],
        SAME_PATH)
    # The every-row scores are computed once the fold's paths are fitted: the layers
    # due, then the copies (of an iterate where the solver had stopped; of a path that
    # is one with an earlier path), in order, into every array but the scores, which
    # the stops read as the paths go.
    due, copies = [], []
    for p, ((a, balance), (r, shrinkage)) in enumerate(paths):
        if fitted_as[p] != p:  # one path with an earlier one: its scores are that one's
            (a_as, _), (r_as, _) = paths[fitted_as[p]]
            scores[..., a, r] = scores[..., a_as, r_as]
            copies.append(((..., a, r), (..., a_as, r_as)))
            continue
        path_params = {**params, "balance_strength": balance, "shrinkage": shrinkage}
        past = attention_paths[a, r] and not (screened_out is not None and screened_out[a, r])
        path_scales = scales if past else scales[:int(scales[0] == 0)]
        path = task.subtask(f"balance_strength={balance:.3g}, shrinkage={_label(shrinkage)}",
                            len(path_scales))
        stopped = None if stop is None else PathStop(*stop)
        points = attention_path(problem, path_scales, path_params, random_state=rng, task=path,
                                y_ndim=y_ndim, checkpoints=max_iters, warm_start=warm_start,
                                checkpoint_stop=checkpoint_stop,
                                count_stops={1: first_stop} if first_stop else None)
        for s, point in enumerate(points):
            r2s = np.full(len(max_iters), np.nan)
            for t, (K, V) in enumerate(point.iterates):
                if t > 0 and point.iterates[t] is point.iterates[t - 1]:  # the solver had stopped
                    scores[s, t, a, r], r2s[t] = scores[s, t - 1, a, r], r2s[t - 1]
                    copies.append(((s, t, a, r), (s, t - 1, a, r)))
                    continue
                layer = fitted_layer(K, V, problem, y_ndim, scales[s] == 0)
                if keep_fits:
                    n_iter = min(point.n_iter, max_iters[t])
                    fits[s, t, a, r] = layer, n_iter, point.loss_curve[:n_iter]
                read = stop is not None or scales[s] == 0 and reads_linear_ends
                if scorer is None or read and len(test) > 1:
                    # (R² needs two rows: with one it is not defined.)
                    r2s[t] = _score(None, layer, extrapolation, X_test, y_test, w_test, base)
                score = r2s[t] if scorer is None else _score(
                    scorer, layer, extrapolation, X_test, y_test, w_test, base)
                scores[s, t, a, r] = score if np.isfinite(score) else np.nan
                if linear_extrapolation is not None and scales[s] == 0:
                    score = _score(scorer, layer, linear_extrapolation, X_test, y_test, w_test,
                                   base)
                    linear_scores[s, t, a, r] = score if np.isfinite(score) else np.nan
                every = (None if context_neighbors is None else
                         every_row_context(layer, *rows, context_neighbors, rows_base))
                if every is not None:
                    due.append(((s, t, a, r), every))
            if scales[s] == 0 and reads_linear_ends:
                # A linear limit's counts are one fit, its layer the one built at the first.
                linear_ends.append((r2s[0], layer_predict(layer, X_test, extrapolation, base)
                                    .reshape(Y_test.shape)))
            if stopped is not None and stopped(np.nanmax(r2s) if np.isfinite(r2s).any()
                                               else np.nan):
                break
        path.end()
    passing = screened(scores, attention_paths) if screens else attention_paths
    for (s, t, a, r), every in due:
        if passing[a, r]:
            score = _score(scorer, every, extrapolation, X_test, y_test, w_test, base)
            neighbor_scores[s, t, a, r] = score if np.isfinite(score) else np.nan
    for target, source in copies:
        for copied in (neighbor_scores, linear_scores, fits):
            if copied is not None:
                copied[target] = copied[source]
    task.end()
    return FoldScores(scores, neighbor_scores, linear_scores, fits)
