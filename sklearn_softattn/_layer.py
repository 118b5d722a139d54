"""The attention layer as plain functions, under both estimators.

From a :class:`~._problem.Problem`: the initial parameters (:func:`initial_params`),
the linear limit in closed form (:func:`linear_limit`) and a run of the solver
(:func:`solve`) give raw parameters ``(K, V)``; :func:`fitted_layer` turns them into
a :class:`FittedLayer`, the whole fitted state, which :func:`layer_predict` predicts
with. The estimators validate, orchestrate and store a ``FittedLayer`` as their
fitted attributes (:meth:`FittedLayer.attributes`).
"""

from dataclasses import dataclass, fields, replace
from functools import wraps

import numpy as np

from ._additive import predict_additive
from ._attention import _one_blas_thread, attention_forward
from ._geometry import (
    Renormalization,
    change_basis,
    distance_map,
    feature_scale,
    frobenius_norm,
    renormalize,
    symmetric_root,
)
from ._init import isotropic_init, linear_coefficient, random_init, spectral_init
from ._neighbors import query_neighbors
from ._problem import mahalanobis_norms
from ._ranks import normal_scores
from ._solvers import OPTIMIZERS, Progress, gd, lbfgs, minibatch

# Default learning rate of each solver (``learning_rate="auto"``).
AUTO_LEARNING_RATE = {"gd": 1.0, "sgd": 0.03, "adam": 0.05}


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


def minibatch_size(batch_size, n_samples):
    """Queries per minibatch: ``batch_size``, ``"auto"`` meaning 200, at most ``n_samples``."""
    return min(200 if batch_size == "auto" else batch_size, n_samples)


def weighted_r2(y_true, y_pred, sample_weight):
    """Weighted R², as :func:`sklearn.metrics.r2_score` gives it (outputs averaged
    uniformly; an output whose targets are constant scores 1 if predicted exactly,
    else 0), without its input checks, which cost more than the score at every
    iteration or checkpoint scored. NaN for fewer than two rows or no weight."""
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


# ---------------------------------------------------------------- the fitted state

@dataclass(frozen=True)
class FittedLayer:
    """The fitted state of a layer: what ``predict`` needs, and the linear limit.

    The estimators store it as their fitted attributes (:meth:`attributes`): each
    public field as the attribute of its name plus ``_`` (``key_query`` is
    ``key_query_``), the others (:data:`PRIVATE`) as private attributes.
    ``key_query`` and ``value`` are zero at the linear limit, which predicts with
    ``coef`` and ``intercept``; with a ``spline_map`` (the additive end,
    :mod:`._additive`: each feature's lowest training value and knot spacing), ``coef``
    reads each feature's splines. With an additive ``base`` (``additive_base``: the
    spline map, coefficients and intercept of :func:`~._additive.fit_additive`), the
    layer models what the base leaves, and its predictions add the base's.
    """

    key_query: np.ndarray
    value: np.ndarray
    target_value: np.ndarray
    context: np.ndarray
    context_targets: np.ndarray
    context_weight: np.ndarray
    data_radius: float
    data_min: np.ndarray
    data_max: np.ndarray
    target_min: np.ndarray
    target_max: np.ndarray
    x_offset: np.ndarray
    y_offset: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray
    attention_scale: float
    skip_coef: np.ndarray
    attention_scores: str
    n_neighbors: int
    distance: np.ndarray
    covariance: np.ndarray
    score_map: tuple
    score_offset: np.ndarray
    spline_map: tuple = None
    base: tuple = None

    PRIVATE = ("attention_scores", "n_neighbors", "distance", "covariance", "score_map",
               "score_offset", "spline_map", "base")

    @staticmethod
    def _attribute(name):
        return f"_{name}" if name in FittedLayer.PRIVATE else f"{name}_"

    def attributes(self):
        """The fitted attributes of an estimator holding this layer, by name."""
        return {self._attribute(f.name): getattr(self, f.name) for f in fields(self)}

    @classmethod
    def of(cls, estimator):
        """The layer a fitted estimator holds."""
        return cls(**{f.name: getattr(estimator, cls._attribute(f.name)) for f in fields(cls)})

    @property
    def linear(self):
        """Whether this is the linear limit: no positive scale has a zero ``key_query``."""
        return not np.any(self.key_query)

    @property
    def value_matrix(self):
        """``value``, followed by the columns of ``target_value`` with target tokens."""
        return self.value if self.target_value is None else np.hstack([self.value,
                                                                       self.target_value])


_PARAMETERS = ("key_query", "value", "target_value", "skip_coef", "coef", "intercept")


def to_raw(K, V, problem):
    """Raw parameters from the solver's working ones: ``K`` and the attention's values
    in the raw coordinates of the scores' representation, a skip term's ``S`` (``V``'s
    last columns) in the features'."""
    attention, S = problem.objective.split(V)
    K, attention = change_basis(K, attention, problem.score.T)
    return K, attention if S is None else np.hstack([attention, S @ problem.T.T])


def to_working(K, V, problem):
    """The solver's working parameters from raw ones (the inverse of :func:`to_raw`)."""
    attention, S = problem.objective.split(V)
    K, attention = change_basis(K, attention, problem.score.T_inv)
    return K, attention if S is None else np.hstack([attention, S @ problem.T_inv.T])


def fitted_layer(K, V, problem, y_ndim, linear=False):
    """The :class:`FittedLayer` of raw parameters ``(K, V)`` on ``problem``.

    ``linear=True``: the layer's limit as ``attention_scale`` tends to 0, where
    ``K -> 0`` and ``V -> ∞`` with ``V Σ̂ Kᵀ`` fixed; any ``(K, V)`` on that
    ray gives its ``coef``, and ``key_query`` and ``value`` are stored as
    zeros, which is how :func:`layer_predict` knows the model is linear.
    With target tokens ``V`` is ``[V_x, U]`` and the linear limit
    ``(V_x Σ̂ + U Σ̂_yx) Kᵀ``, ``Σ̂_yx`` the targets' covariance with the features.
    With a skip term (``V``'s last columns ``S``) the linear limit adds ``S``, and
    it is ``S`` alone where the scores read the features' normal scores, in which
    the attention's own linear term is not linear in the features.
    ``attention_scale`` is the fitted ``‖K‖_F`` in whitened coordinates.
    """
    d = K.shape[0]
    attention, S = problem.objective.split(V)
    V, U = attention[:, :d], (attention[:, d:] if problem.context_Y is not None else None)
    coef = np.zeros((V.shape[0], problem.X.shape[1]), dtype=V.dtype) if S is None else S.copy()
    if problem.score_map is None:
        coef += V @ problem.covariance @ K.T
        if U is not None:
            coef += U @ problem.target_covariance @ K.T
    # The linear limit is a linear model fitted on all the training rows, with their
    # own means; the layer is centred on the context's.
    intercept = problem.y_offset - coef @ (problem.feature_mean if linear else problem.x_offset)
    if linear:
        K, V = np.zeros_like(K), np.zeros_like(V)
        U = None if U is None else np.zeros_like(U)
        S = None if S is None else np.zeros_like(S)
    neighbors = problem.objective.neighbors
    return FittedLayer(
        key_query=K,
        value=V,
        target_value=U,
        context=problem.context_X,
        context_targets=problem.context_Y,
        context_weight=problem.objective.context_weight,
        data_radius=problem.radius,
        data_min=problem.data_range[0],
        data_max=problem.data_range[1],
        target_min=problem.target_range[0][0] if y_ndim == 1 else problem.target_range[0],
        target_max=problem.target_range[1][0] if y_ndim == 1 else problem.target_range[1],
        x_offset=problem.x_offset,
        y_offset=problem.y_offset,
        coef=coef[0] if y_ndim == 1 else coef,
        intercept=intercept[0] if y_ndim == 1 else intercept,
        attention_scale=float(frobenius_norm(problem.score.W_inv @ K @ problem.score.W_inv.T)),
        skip_coef=None if S is None else (S[0] if y_ndim == 1 else S),
        attention_scores=problem.objective.scores,
        n_neighbors=None if neighbors is None else neighbors.k,
        distance=problem.distance,
        covariance=problem.covariance,
        score_map=problem.score_map,
        score_offset=None if problem.score_map is None else problem.score.offset,
        base=problem.base,
    )


def not_finite(layer):
    """The names of the parameters of a :class:`FittedLayer` that are not finite.

    The solvers keep every iterate's objective finite; what can still overflow is the
    map to the raw features' units, on data whose spread, under the sample weights,
    spans more than the dtype's range in some direction.
    """
    return [f"{name}_" for name in _PARAMETERS
            if getattr(layer, name) is not None and not np.all(np.isfinite(getattr(layer, name)))]


def check_finite(layer):
    """Raise a ValueError unless the parameters of a :class:`FittedLayer` are finite."""
    bad = not_finite(layer)
    if bad:
        raise _overflow(f"The fitted {', '.join(bad)} are")


def _overflow(what):
    return ValueError(
        f"{what} not finite: in raw units the layer's parameters overflow. The rows' "
        "spread, under sample_weight, spans more than the range of X's dtype in some "
        "direction: rescale X (StandardScaler), use float64 X, or give sample_weight a "
        "narrower range."
    )


def every_row_context(layer, X, Y, sample_weight, k, base=None):
    """``layer`` made to attend to the ``k`` nearest of the rows ``X`` (targets ``Y``,
    2-D, and positive weights) in its learned metric instead of to its context; None
    where that does not apply: the linear limit (no softmax), bilinear scores, or a
    context that holds every row already. Its parameters (metric, values, offsets)
    stay as fitted; with an additive base, its context targets are what the base
    leaves of ``Y``: ``base``, its predictions at ``X`` where computed already (2-D),
    as for every point of a fold."""
    if layer.linear or layer.attention_scores != "distance" or len(layer.context) >= len(X):
        return None
    if layer.context_targets is not None and layer.base is not None:
        Y = Y - (predict_additive(*layer.base, X) if base is None else base)
    return replace(layer, context=X, context_weight=sample_weight, n_neighbors=k,
                   context_targets=None if layer.context_targets is None else Y)


# ---------------------------------------------------------------- prediction

# With extrapolation="range", how far past the training rows' range a query's feature may
# reach, as a fraction of that range (on each side): far enough that mild extrapolation
# of a linear trend goes on, near enough that a test row several ranges out (an entry
# error, another unit) does not carry a linear term with it.
RANGE_MARGIN = 0.5


def clipped_features(layer, X, extrapolation):
    """Validated ``X`` as every part of the layer reads it: with
    ``extrapolation="range"``, each feature clipped to the training rows' range widened
    by :data:`RANGE_MARGIN` of it on each side; with ``"radius"``, each row pulled back
    to the training radius as :func:`centered_queries` pulls the softmax's queries (new
    arrays); otherwise ``X`` itself."""
    if extrapolation == "radius":
        return layer.x_offset + centered_queries(layer, X, "clip")
    if extrapolation != "range":
        return X
    reach = RANGE_MARGIN * (layer.data_max - layer.data_min)
    return np.clip(X, layer.data_min - reach, layer.data_max + reach)


def centered_queries(layer, X, extrapolation):
    """Validated ``X`` centered by ``x_offset``, as the softmax sees it: with
    ``extrapolation`` ``"clip"``, ``"range"`` or ``"targets"``, a row whose Mahalanobis distance
    from ``x_offset`` exceeds ``data_radius`` (the largest of a training row) is
    pulled back along its ray to that distance; rows within it are unchanged. The
    distances are invariant under invertible linear maps of the features."""
    Xc = X - layer.x_offset
    # (With "radius", :func:`clipped_features` pulled the rows back already.)
    if extrapolation in ("clip", "range", "targets"):
        norms = mahalanobis_norms(Xc, layer.distance)
        far = norms > layer.data_radius
        Xc[far] *= (layer.data_radius / norms[far])[:, None]
    return Xc


def attention_tokens(layer, X):
    """Rows as the attention reads them: centred features, or their normal scores
    (:func:`~._ranks.normal_scores`) centred on the context's mean."""
    if layer.score_map is None:
        return X - layer.x_offset
    return normal_scores(X, *layer.score_map) - layer.score_offset


def attention_queries(layer, X, extrapolation):
    """Queries and context tokens ``(Zq, Zc)`` as the scores read them
    (:func:`attention_tokens`): far rows pulled back to the data's radius
    (:func:`centered_queries`), except in normal scores, which are bounded."""
    Zc = attention_tokens(layer, layer.context)
    if layer.score_map is None:
        return centered_queries(layer, X, extrapolation), Zc
    return attention_tokens(layer, X), Zc


def predict_neighbors(layer, Zq, Zc):
    """With local attention (``n_neighbors`` not None), each centred query's nearest
    context tokens in the fitted metric (any ``L`` with ``LᵀL = key_query``); None
    otherwise, at the linear limit (no softmax), or when they are all the tokens."""
    if layer.n_neighbors is None or layer.linear:
        return None
    return query_neighbors(Zq, Zc, symmetric_root(layer.key_query), layer.n_neighbors)


def softmax_inputs(layer, X, extrapolation):
    """What the softmax of a positive scale reads at validated ``X``: its
    :func:`clipped_features`, the queries and context tokens of
    :func:`attention_queries`, and each query's tokens (:func:`predict_neighbors`)."""
    X = clipped_features(layer, X, extrapolation)
    Zq, Zc = attention_queries(layer, X, extrapolation)
    return X, Zq, Zc, predict_neighbors(layer, Zq, Zc)


def layer_predict(layer, X, extrapolation="clip", base=None):
    """Predictions of a :class:`FittedLayer` at validated ``X``; 1-D for a 1-D ``coef``.

    Every part reads the :func:`clipped_features` of ``X``. The linear limit predicts
    with ``coef``: it has no softmax; at a positive scale the scores read the queries
    of :func:`attention_queries`, and a skip term the features. With a ``spline_map``
    (the additive end, :mod:`._additive`), ``coef`` reads each feature's splines, which
    are flat beyond the training range. With an additive ``base``, its predictions (which
    read ``X`` as given: its splines are flat beyond the training range too) are added:
    ``base``, where they were computed already (2-D), as for every point of a fold.
    With ``extrapolation="targets"`` the predictions are then clipped to the training
    targets' range, ``[target_min, target_max]``.
    """
    y = _layer_predict(layer, X, extrapolation)
    if layer.base is not None:
        base = predict_additive(*layer.base, X) if base is None else base
        y = y + (base.ravel() if np.ndim(layer.coef) == 1 else base)
    if extrapolation == "targets":
        y = np.clip(y, layer.target_min, layer.target_max)
    return y


def _layer_predict(layer, X, extrapolation):
    """:func:`layer_predict` without the additive base."""
    if layer.spline_map is not None:
        return predict_additive(layer.spline_map, layer.coef, layer.intercept, X)
    if layer.linear:
        X = clipped_features(layer, X, extrapolation)
        coef = np.atleast_2d(layer.coef)
        # In the fitted model's dtype, as the layer's predictions are: a float32 query
        # of a float64 model may have predictions beyond float32's range.
        y = np.atleast_1d(layer.intercept) + X @ coef.T
        return y.ravel() if np.ndim(layer.coef) == 1 else y
    targets = None if layer.target_value is None else layer.context_targets - layer.y_offset
    X, Zq, Zc, neighbors = softmax_inputs(layer, X, extrapolation)
    y = layer.y_offset + attention_forward(
        Zq, Zc, layer.key_query, layer.value_matrix, layer.context_weight,
        targets=targets, scores=layer.attention_scores, neighbors=neighbors,
    )
    if layer.skip_coef is not None:
        y += (X - layer.x_offset) @ np.atleast_2d(layer.skip_coef).T
    return y.ravel() if np.ndim(layer.coef) == 1 else y


# ---------------------------------------------------------------- fitting

def iteration_hook(task, problem, y_ndim):
    """``task``'s per-iteration hook for parameters in the solver's coordinates: the
    callbacks see the fitted attributes of each iterate."""
    return task.iteration_hook(
        lambda K, V: fitted_layer(*to_raw(K, V, problem), problem, y_ndim).attributes()
    )


def _validation_score(problem, objective, X, Y, sample_weight):
    """The weighted R² of the solver's parameters ``(K, V)`` on validation rows, as a
    function of them (early stopping)."""
    Z, skip = problem.queries(X)
    Yc = Y - problem.y_offset

    def validation_score(K, V):
        return weighted_r2(Yc, objective.forward(Z, K, V, skip), sample_weight)

    return validation_score


def solve(problem, K, V, params, rng, *, max_iter, loss_curve, validation=None,
          optimizer=None, on_iteration=None):
    """Run the solver on ``problem`` from the raw parameters ``(K, V)``.

    ``params`` are :class:`~sklearn_softattn.SoftmaxAttentionRegressor`'s (a dict,
    as ``get_params`` gives them): its ``attention_scale``, ``balance_strength``
    and ``shrinkage`` apply, so that one problem serves a whole path of them.
    ``validation=(X, Y, sample_weight)``: validation rows, scored by weighted R²
    after each iteration (early stopping). ``"sgd"``/``"adam"`` continue with
    ``optimizer`` (Adam's moments, a halved learning rate) when one of their kind
    is given, as ``partial_fit`` does. ``on_iteration(K, V)`` reports each
    iteration, in the solver's coordinates, to the callbacks.

    Returns the raw ``(K, V)``, the :class:`~._solvers.Progress`, whether it
    converged, and the minibatch optimizer as it ends (None for the full-batch
    solvers).
    """
    objective, loss_scale = problem.objective, problem.loss_scale
    # The balance steers the factorization of the attention's linear limit V Kᵀ; a skip
    # term carries the linear limit instead, and the values start at 0, where the
    # penalty jumps (it is scale-invariant in V).
    balance = params["regularization"] == "balance" and not problem.skip
    objective = replace(
        objective,
        strength=params["balance_strength"] * loss_scale if balance else 0.0,
        shrinkage=problem.ridge_strength(params["shrinkage"]),
    )
    # With distance scores the solvers work on the metric L (K = LᵀL); everything
    # outside them sees K.
    metric = objective.metric
    scale = params["attention_scale"] if params["renormalize"] else None
    project = Renormalization(scale, objective.P, metric, objective.n_skip)
    key_query = objective.key_query

    validation_score = None if validation is None else _validation_score(
        problem, objective, *validation)
    if on_iteration is not None and metric:
        report = on_iteration

        def on_iteration(L, V):
            return report(key_query(L), V)

    progress = Progress(params["tol"], params["n_iter_no_change"], loss_scale,
                        validation_score=validation_score, verbose=params["verbose"],
                        loss_curve=loss_curve, on_iteration=on_iteration,
                        tol_scale=problem.tol_scale)
    solver = params["solver"]
    learning_rate = (
        AUTO_LEARNING_RATE.get(solver)
        if params["learning_rate"] == "auto"
        else params["learning_rate"]
    )
    if not (np.all(np.isfinite(K)) and np.all(np.isfinite(V))):
        raise _overflow("The initial parameters are")
    K, V = to_working(K, V, problem)
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
            batch_size = minibatch_size(params["batch_size"], objective.Z.shape[0])
            if not isinstance(optimizer, OPTIMIZERS[solver]):
                optimizer = OPTIMIZERS[solver](learning_rate)
            K, V, converged, optimizer = minibatch(
                objective, K, V, optimizer=optimizer, batch_size=batch_size,
                max_iter=max_iter, project=project, progress=progress, random_state=rng,
            )
    if progress.best_params is not None:
        K_best, V_best = progress.best_params
        progress.best_params = to_raw(key_query(K_best), V_best, problem)
    return *to_raw(key_query(K), V, problem), progress, converged, optimizer


def initial_params(problem, params, rng):
    """Initial raw ``(K, V)`` of ``params["init"]``, renormalized to
    ``params["attention_scale"]`` (``params`` as for :func:`solve`).

    With distance scores the spectral start is :func:`~._init.isotropic_init`'s
    (same linear limit, a metric of full rank) and the random one draws the
    metric ``L`` (``K = LᵀL``); with target tokens ``U`` starts at 0, where the
    layer is the paper's. With a skip term the spectral start is the isotropic
    metric and ``S`` the least-squares (ridge) coefficient. With target tokens on
    the features (not their normal scores) the values start local, ``U = I`` and
    ``V_x = -S``: the start predicts ``Σ_j a_j (y_j - S x_j) + S x``, the attended
    targets corrected by the linear fit for the query's offset from the attended
    rows (TabR's values, Gorishniy et al., ICLR 2024), which tends to the linear
    limit as the softmax flattens. From the linear limit itself instead (the values
    at zero) the attention must grow as ``S`` shrinks, and L-BFGS stalled on that
    valley from some context samples (the in-context page of the user guide).
    Without target tokens, or on normal scores, the values start at zero: the
    start is the linear limit. The random start has ``S = 0``.
    """
    W, W_inv, Yc = problem.score.W, problem.score.W_inv, problem.Yc
    distance, q = problem.objective.metric, Yc.shape[1]
    S = None
    if params["init"] == "spectral":
        A = feature_scale(problem.covariance)[:, None] * problem.W  # to standardized
        shrinkage = problem.ridge_strength(params["shrinkage"])
        ridge = shrinkage * (A @ A.T) if shrinkage > 0 else None
        # Least squares on the training rows, centred at their own mean.
        whitened = not problem.subsampled
        Z = (problem.Xc - (problem.feature_mean - problem.x_offset)) @ problem.W
        if problem.skip:
            directions = W_inv @ distance_map(problem.score.covariance)
            K = directions @ directions.T
            V = np.zeros((q, K.shape[0]), dtype=K.dtype)
            S = linear_coefficient(Z, Yc, problem.weight, ridge, whitened) @ problem.W.T
        elif distance:  # the whitened directions of the distance map: orthonormal
            K, V = isotropic_init(Z, Yc, problem.weight, ridge, W_inv @ problem.distance,
                                  whitened)
        else:
            K, V = spectral_init(Z, Yc, problem.weight, ridge, whitened)
        K, V = change_basis(K, V, W)  # whitened to raw
    else:
        # The targets' root mean square per output: L₀ = mean squared norm / 2.
        target_scale = np.sqrt(2 * problem.loss_scale / q)
        K, V = random_init(W.shape[0], q, target_scale, rng, Yc.dtype)
        if distance:
            K = K.T @ K
        if params["preconditioner"] == "covariance":
            K, V = change_basis(K, V, W)  # drawn in the solver's (whitened) coordinates
        if problem.skip:
            S = np.zeros((q, problem.X.shape[1]), dtype=V.dtype)
    if problem.context_Y is not None:
        V = np.hstack([V, np.zeros((q, q), V.dtype)])
    K, V = renormalize(K, V, params["attention_scale"], W_inv)
    if S is None:
        return K, V
    local = problem.context_Y is not None and problem.score_map is None
    if params["init"] == "spectral" and local:
        V = np.hstack([-S, np.eye(q, dtype=V.dtype)])
    return K, np.hstack([V, S])


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
    K, V = initial_params(problem, {**params, "init": "spectral", "attention_scale": 1.0}, None)
    return K, skip_alone(problem, V)


def skip_alone(problem, V):
    """With a skip term, ``V`` with the attention's values at zero and ``S`` kept: the
    layer is then the linear fit ``S`` beside a silent attention, at any scale (the
    linear limit's values, and the skip term's spectral start before it became local).
    Without one, ``V`` itself."""
    attention, S = problem.objective.split(V)
    return V if S is None else np.hstack([np.zeros_like(attention), S])
