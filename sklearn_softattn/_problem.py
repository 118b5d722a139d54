"""The training problem: validated rows in the solver's working coordinates.

:func:`build_problem` centers and whitens the training rows, draws the context,
sets up the exact leave-one-out queries and the objective, once per fit; both
estimators and every fold of the cross-validated one go through it. Everything
here is a plain function of arrays and of the estimator's parameters (a dict, as
``get_params`` gives it).
"""

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from sklearn.utils import gen_batches

from ._additive import fit_additive, predict_additive
from ._geometry import distance_map, feature_scale, weighted_covariance, whitening
from ._neighbors import TrainingNeighbors, locality_order
from ._objective import Objective, Skip, leave_one_out
from ._ranks import fit_normal_scores, normal_scores
from ._ridge import ridge_loo

# The ridge penalties among which ``shrinkage="auto"`` chooses (Ridge's alpha on
# standardized features), by RidgeCV's efficient leave-one-out.
AUTO_SHRINKAGES = np.logspace(-3, 3, 13)


def check_spread(centered, name):
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


def column_means(A, weights):
    """Weighted column means, exact for constant columns.

    The round-off of a constant column's mean (``0.1`` averages to
    ``0.1 + 4e-17``) would otherwise be whitened into a spurious feature.
    """
    means = np.average(A, axis=0, weights=weights).astype(A.dtype)
    constant = np.all(A == A[0], axis=0)
    means[constant] = A[0, constant]
    return means


def positive_rows(X, Y, sample_weight, needed):
    """The rows of positive weight (no copy when all are), at least ``needed`` of them.

    A weight counts as positive from ``2**20 / M`` times the largest weight, ``M``
    the largest number of the data's dtype (about 6e-303 of it in float64, 3e-33
    in float32); a row below takes no part, as a zero weight. Its share of every
    weighted sum is far below the dtype's precision, yet a row alone in a direction
    lies about ``share ** -0.5`` standard deviations out there, which whitening
    squares: that must not overflow, as the spread of the data must not (see
    :func:`check_spread`, whose margin this is).
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


def holdout_split(n_samples, fraction, rng):
    """Positions ``(train, test)`` of one shuffled hold-out of ``ceil(fraction *
    n_samples)`` rows, drawn from ``rng`` (as ``ShuffleSplit(1, test_size=fraction)``
    draws them)."""
    n_test = int(np.ceil(fraction * n_samples))
    order = rng.permutation(n_samples)
    return order[n_test:], order[:n_test]


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


@dataclass(frozen=True)
class Coordinates:
    """The solver's working coordinates of a representation ``r`` of the rows (the
    features, or their normal scores): ``z = (r - offset) @ T``, whitened (``T = W``,
    ``Wᵀ Σ W = I`` for the context rows' covariance ``Σ``) with the covariance
    preconditioner, only centred without it (``T = I``); ``P`` maps working to
    whitened coordinates (None: they are whitened)."""

    offset: np.ndarray
    covariance: np.ndarray
    W: np.ndarray
    W_inv: np.ndarray
    T: np.ndarray
    T_inv: np.ndarray
    P: np.ndarray

    @classmethod
    def of(cls, offset, covariance, preconditioner):
        W, W_inv = whitening(covariance)
        if preconditioner == "covariance":
            return cls(offset, covariance, W, W_inv, W, W_inv, None)
        identity = np.eye(len(covariance), dtype=covariance.dtype)
        return cls(offset, covariance, W, W_inv, identity, identity, W_inv)

    @property
    def standardize(self):
        """Whitened to standardized linear coefficients (``C^{-1/2}``, ``C`` the
        correlation matrix), for a ridge penalty."""
        return feature_scale(self.covariance)[:, None] * self.W


@dataclass
class Problem:
    """A training problem in the solver's working coordinates, built once per fit.

    ``objective`` holds the leave-one-out queries, targets and context (its
    regularizer strengths are set by the solver from the parameters); ``T`` maps
    centered features to working coordinates and ``W`` whitens them (``Wᵀ Σ̂ W = I``).
    ``loss_scale`` is the loss of predicting the mean, ``L₀``; ``radius`` is the
    largest Mahalanobis distance ``‖(x - x̄) P‖`` of a training query, for the
    ``distance`` map ``P`` (:func:`~._geometry.distance_map`), and ``data_range`` the
    training queries' smallest and largest value of each feature (``target_range``: of
    each target, as given, before an additive base). With target tokens,
    ``context_Y`` holds the context rows' raw targets and ``target_covariance`` their
    weighted covariance with the context rows' features (q × d); both None without.
    ``X``, ``Y`` and ``weight`` are the training rows as the problem orders them.
    ``T``, ``W`` (and their inverses), ``x_offset`` and ``covariance`` are the features'
    coordinates (:class:`Coordinates`), in which the linear limit and a skip term are
    fitted; the attention (``K``, and ``V``'s first columns) works in ``score``'s, the
    features' own or, with ``score_map`` (:func:`~._ranks.fit_normal_scores`), their
    normal scores'. With an additive ``base`` (:func:`~._additive.fit_additive`, fitted on
    the rows), ``Y`` holds what it leaves: the targets less its predictions; ``loss_scale``
    is then that of what it leaves, and ``tol_scale``, to which the solver's ``tol`` is
    relative, that of the targets as given (``loss_scale`` without a base).
    """

    objective: Objective
    X: np.ndarray
    Y: np.ndarray
    Xc: np.ndarray
    Yc: np.ndarray
    T: np.ndarray
    T_inv: np.ndarray
    W: np.ndarray
    W_inv: np.ndarray
    context_X: np.ndarray
    distance: np.ndarray
    radius: float
    data_range: tuple
    target_range: tuple
    x_offset: np.ndarray
    y_offset: np.ndarray
    covariance: np.ndarray
    loss_scale: float
    score: Coordinates = None
    score_map: tuple = None
    context_Y: np.ndarray = None
    target_covariance: np.ndarray = None
    base: tuple = None
    tol_scale: float = None
    fit_intercept: bool = True

    def queries(self, X):
        """New rows in the working coordinates the scores read, and in the features'
        (the skip term's), which are the same without normal scores."""
        features = (X - self.x_offset) @ self.T
        if self.score_map is None:
            return features, features
        scores = (normal_scores(X, *self.score_map) - self.score.offset) @ self.score.T
        return scores, features

    @property
    def skip(self):
        """Whether the layer has a linear skip term (``V``'s last columns)."""
        return self.objective.skip is not None

    @property
    def weight(self):
        """The training rows' sample weights."""
        return self.objective.weight

    @property
    def given_Y(self):
        """The training rows' targets as given: ``Y``, plus the base's predictions with
        an additive base."""
        return self.Y if self.base is None else self.Y + predict_additive(*self.base, self.X)

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
        w = self.weight
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
        return float(min(shrinkage / self.weight.sum(), most))

    @cached_property
    def auto_shrinkage(self):
        """The shrinkage that :class:`~sklearn.linear_model.RidgeCV` chooses on the
        training rows' standardized features, among :data:`AUTO_SHRINKAGES`, by
        its efficient leave-one-out error (:func:`~._ridge.ridge_loo`)."""
        # Weights over their largest and penalties likewise: the same problem, with
        # weights spanning hundreds of orders of magnitude cannot overflow.
        unit = self.weight.max()
        alpha = ridge_loo(self.Xc / feature_scale(self.covariance), self.Yc,
                          self.weight / unit, AUTO_SHRINKAGES / unit)[2]
        return float(alpha * unit)


def mean_loss(Yc, sample_weight):
    """The loss of predicting the mean, ``L₀``, of the centered targets ``Yc``: half
    their weighted mean square, a Python float (the weights' sums are float64 and must
    not widen the data)."""
    return float(0.5 * np.sum(sample_weight @ (Yc * Yc)) / sample_weight.sum())


def statistics(X, Y, sample_weight, context, fit_intercept):
    """Offsets and covariance, after checking the range of the data.

    The feature offset and covariance are those of the ``context`` rows, so
    that the tokens attended are exactly centered and whitened, as the
    infinite-data limit assumes; with a subsampled context (more rows than
    ``max_context``) this is what keeps the layer close to least squares.
    The target offset is the mean of all rows.
    """
    if fit_intercept:
        x_offset = column_means(X[context], sample_weight[context])
        y_offset = column_means(Y, sample_weight)
    else:
        x_offset = np.zeros(X.shape[1], X.dtype)
        y_offset = np.zeros(Y.shape[1], X.dtype)
    check_spread(X - x_offset, "X")
    check_spread(Y - y_offset, "y")
    covariance = weighted_covariance(X[context] - x_offset, sample_weight[context])
    return x_offset, y_offset, covariance


def widened(extent, earlier):
    """The smallest and largest values ``extent`` of each column, widened to the
    ``earlier`` ones (None: none)."""
    if earlier is None:
        return extent
    return np.minimum(extent[0], earlier[0]), np.maximum(extent[1], earlier[1])


def build_problem(X, Y, sample_weight, params, rng, *, context=None, stored=None,
                  radius=0.0, data_range=None, target_range=None):
    """The training problem of the rows ``X``, ``Y`` (2-D) of positive weight.

    ``params`` are :class:`~sklearn_softattn.SoftmaxAttentionRegressor`'s (a dict,
    as ``get_params`` gives it): its ``preconditioner``, ``target_tokens``,
    ``attention_scores``, ``n_neighbors``, ``max_context`` and ``fit_intercept``
    apply. By default the context, offsets and covariance come from the training
    rows themselves (``fit``: the context drawn from ``rng``); ``partial_fit``
    passes the stored ones, ``context=(rows, weights, targets)`` and
    ``stored=(x_offset, y_offset, covariance)``, with the ``radius``, ``data_range`` and
    ``target_range`` of its earlier batches, and its rows are then new queries, which
    may widen them. The solver works in the coordinates of :class:`Coordinates`; with
    ``score_features="ranks"`` the attention reads the features' normal scores
    (fitted on these rows), with ``linear_skip`` a linear term reads the features.
    With ``additive_base``, an additive model (:func:`~._additive.fit_additive`) is fitted
    on the rows first, and the problem's targets are what it leaves.
    """
    base = tol_scale = None
    target_range = widened((Y.min(axis=0), Y.max(axis=0)), target_range)
    if params.get("additive_base", False):
        base = fit_additive(X, Y, sample_weight)
        offset = column_means(Y, sample_weight) if params["fit_intercept"] else 0.0
        tol_scale = mean_loss(Y - offset, sample_weight)
        Y = Y - predict_additive(*base, X)
    n_neighbors, distance_scores = params["n_neighbors"], params["attention_scores"] == "distance"
    if context is None and n_neighbors is not None and n_neighbors + 1 < len(X):
        # Rows near each other next to each other, so that the gathers of local
        # attention stay in cache (on standardized features, near the whitened
        # start metric; not when every query keeps every row: the dense layer).
        order = locality_order(X / np.maximum(X.std(axis=0), np.finfo(X.dtype).tiny))
        X, Y, sample_weight = X[order], Y[order], sample_weight[order]
    if context is None:
        rows = context_rows(X.shape[0], params["max_context"], n_neighbors, rng)
        self_index = np.full(X.shape[0], -1)
        self_index[rows] = np.arange(len(rows))
        context_X, context_weight, context_Y = X[rows], sample_weight[rows], Y[rows]
        x_offset, y_offset, covariance = statistics(X, Y, sample_weight, rows,
                                                    params["fit_intercept"])
        target_total = sample_weight.sum()
    else:
        (context_X, context_weight, context_Y), (x_offset, y_offset, covariance) = (
            context, stored)
        self_index = np.full(X.shape[0], -1)
        target_total = None
    linear = Coordinates.of(x_offset, covariance, params["preconditioner"])
    Xc, Yc = X - x_offset, Y - y_offset
    score_map = None
    if params.get("score_features", "features") == "ranks":
        score_map = fit_normal_scores(X, sample_weight)
        R, context_R = normal_scores(X, *score_map), normal_scores(context_X, *score_map)
        offset = column_means(context_R, context_weight)
        score = Coordinates.of(offset, weighted_covariance(context_R - offset, context_weight),
                               params["preconditioner"])
        Z, context_Z = (R - offset) @ score.T, (context_R - offset) @ score.T
    else:
        score = linear
        Z, context_Z = Xc @ linear.T, (context_X - x_offset) @ linear.T
    shift, targets, target_covariance = None, None, None
    if params["target_tokens"]:
        targets = context_Y - y_offset
        target_covariance = weighted_covariance(context_X - x_offset, context_weight, targets)
    else:
        context_Y = None
    skip_queries = Xc @ linear.T
    if params["fit_intercept"]:
        loo = (sample_weight, self_index, context_weight.sum(), target_total)
        Z, shift, Y_loo = leave_one_out(Z, Yc, *loo, params["target_tokens"], distance_scores)
        skip_queries = leave_one_out(skip_queries, Yc, *loo)[0]  # the query, off the mean
    else:
        Y_loo = Yc
    neighbors = (None if n_neighbors is None else
                 TrainingNeighbors(Z, context_Z, n_neighbors, self_index))
    objective = Objective(
        Z=Z,
        Y=Y_loo,
        weight=sample_weight,
        context=context_Z,
        context_weight=context_weight,
        self_index=self_index,
        value_shift=shift,
        targets=targets,
        scores=params["attention_scores"],
        standardize=score.standardize,
        P=score.P,
        neighbors=neighbors,
        skip=(Skip(skip_queries, linear.standardize) if params.get("linear_skip", False)
              else None),
    )
    loss_scale = mean_loss(Yc, sample_weight)
    distance = distance_map(covariance)
    radius = max(radius, float(mahalanobis_norms(Xc, distance).max()))
    return Problem(objective, X=X, Y=Y, Xc=Xc, Yc=Yc, T=linear.T, T_inv=linear.T_inv,
                   W=linear.W, W_inv=linear.W_inv, context_X=context_X, distance=distance,
                   radius=radius, data_range=widened((X.min(axis=0), X.max(axis=0)), data_range),
                   target_range=target_range, x_offset=x_offset,
                   y_offset=y_offset,
                   covariance=covariance, loss_scale=loss_scale, score=score,
                   score_map=score_map, context_Y=context_Y,
                   target_covariance=target_covariance,
                   fit_intercept=params["fit_intercept"], base=base,
                   tol_scale=loss_scale if tol_scale is None else tol_scale)
