"""The grid of :class:`~sklearn_softattn.SoftmaxAttentionRegressorCV`: the attention
scales, iteration counts and penalties its paths are fitted at, and the folds that score
them.
"""

from numbers import Integral

import numpy as np
from sklearn.model_selection import KFold, RepeatedKFold, check_cv
from sklearn.utils import check_random_state

from ._geometry import distance_map, neighbor_spacing, weighted_covariance
from ._problem import holdout_split, positive_rows

# The grid of attention scales when only its length is given: the linear limit
# (0), then geometrically from nearly linear attention to a sharp, local smoother.
SCALE_RANGE = (0.01, 10.0)
# cv="auto": above this many rows, one shuffled hold-out of this fraction of them
# validates the path instead of 5 folds, as HistGradientBoostingRegressor's
# early_stopping="auto" and validation_fraction do (their values, not tuned here).
HOLDOUT_ROWS, HOLDOUT_FRACTION = 10_000, 0.1
# cv="auto": up to this many rows the 5 folds are drawn twice (RepeatedKFold), so that the
# paired standard errors of the selection rule rest on 10 folds, each a fifth of the rows:
# chosen on the development half by the eighth round (+0.003 of its mean; the selection
# page of the user guide), where ten folds of a tenth fell 0.057 below RidgeCV on 130 rows.
REPEATED_ROWS = 5_000
# With distance scores the path goes on until a row's nearest distinct neighbor, at
# the median spacing, scores this much below the row's own position (weight e⁻⁵ ≈
# 0.7%): nearest-neighbor regression (see :func:`neighbor_sharpness`).
NEIGHBOR_MARGIN = 5.0
# attention_scales="auto": the linear limit and one start, from which the solver learns
# the sharpness. With distance scores the start is the sharpness at which that
# neighbor scores this much below the row's own position (weight e^-0.5 ≈ 0.61 of the
# row's own), a tenth of the sharpest scale above: a smoother over a few neighbors.
# With bilinear scores, which have no spacing to resolve, the start is AUTO_BILINEAR.
START_MARGIN, AUTO_BILINEAR = 0.5, 1.0


def neighbor_sharpness(X, sample_weight, margin=NEIGHBOR_MARGIN):
    """The attention scale at which distance scores resolve the rows' spacing.

    Under the isotropic metric in whitened coordinates (``K = s I / √r``, of
    Frobenius norm ``s``, ``r`` the directions of the data), a row at squared
    distance ``h²`` scores ``s h² / (2 √r)`` below one at the query's own position.
    With ``h²`` the median spacing of :func:`~sklearn_softattn._geometry.neighbor_spacing`
    in the coordinates of :func:`~sklearn_softattn._geometry.distance_map`,
    this is the ``s`` at which that score is ``margin``. NaN if no two rows differ.
    """
    X, _, sample_weight = positive_rows(X, X[:, :0], sample_weight, 2)
    Xc = X - np.average(X, axis=0, weights=sample_weight)
    P = distance_map(weighted_covariance(Xc, sample_weight))
    spacing = neighbor_spacing(Xc @ P, sample_weight)
    return 2 * margin * np.sqrt(P.shape[1]) / spacing if spacing > 0 else np.nan


def attention_scale_grid(attention_scales, sharpest=np.nan, start=AUTO_BILINEAR,
                         multiples=(1.0,)):
    """The ascending grid of attention scales: a count, ``"auto"``, or the values.

    A count gives 0, then ``attention_scales - 1`` values spaced geometrically over
    :data:`SCALE_RANGE`, continued at the same ratio until they reach ``sharpest``
    (if larger: :func:`neighbor_sharpness` for distance scores). ``"auto"`` gives
    0 and ``start`` (:func:`neighbor_sharpness` at :data:`START_MARGIN` for
    distance scores; 1 where it is NaN) times each of ``multiples``."""
    if isinstance(attention_scales, str):  # "auto", the only string the check lets by
        start = start if np.isfinite(start) else AUTO_BILINEAR
        return np.unique(np.r_[0.0, start * np.asarray(multiples, dtype=float)])
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
    """A grid of penalty strengths (``balance_strengths``, ``shrinkages``): non-empty,
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


def inner_folds(cv, X, y, sample_weight, random_state):
    """The (train, test) index pairs of ``cv``, checked.

    An int (or None, 5) is ``KFold(cv, shuffle=True, random_state=random_state)``:
    a local smoother's validation folds must be drawn at random, since a
    block of rows sorted by some feature has no neighbors left in training.
    ``"auto"`` is 5 such folds, drawn twice up to :data:`REPEATED_ROWS` rows
    (``RepeatedKFold(n_splits=5, n_repeats=2)``) and once up to
    :data:`HOLDOUT_ROWS`, and above them one shuffled hold-out of
    :data:`HOLDOUT_FRACTION` of the rows (:func:`~._problem.holdout_split`). A
    splitter or an iterable is used as given.
    """
    n_samples, asked = X.shape[0], cv
    if isinstance(cv, str):  # "auto", the only string the parameter's check lets by
        if n_samples > HOLDOUT_ROWS:
            folds = [holdout_split(n_samples, HOLDOUT_FRACTION,
                                   check_random_state(random_state))]
            return _checked_folds(folds, sample_weight)
        cv = (5 if n_samples > REPEATED_ROWS else
              RepeatedKFold(n_splits=5, n_repeats=2, random_state=random_state))
    if cv is None or isinstance(cv, Integral):
        n_splits = 5 if cv is None else cv
        if n_splits > n_samples:
            raise ValueError(f"cv={cv} asks for {n_splits} folds of n_samples={n_samples}; "
                             "there cannot be more folds than rows.")
        cv = KFold(n_splits, shuffle=True, random_state=random_state)
    try:
        folds = list(check_cv(cv, y).split(X, y))
    except ValueError as error:  # a splitter asking for more folds than rows, say
        raise ValueError(f"cv={asked!r} cannot split n_samples={n_samples}: {error}") from error
    return _checked_folds(folds, sample_weight)


def _checked_folds(folds, sample_weight):
    """``folds``, after checking that there is one and that each trains on two rows."""
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
