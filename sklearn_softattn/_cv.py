"""SoftmaxAttentionRegressorCV: the softmax's sharpness chosen by cross-validation.

The path of attention scales starts at the layer's linear limit (scale 0,
computed in closed form) and sharpens step by step, as ``LassoCV`` follows the
lasso's path from the empty model, so that least squares itself, and ridge
regression for each ``shrinkage``, are always among the candidates. The grid and
the folds come from :mod:`._grid`; each fold fits and scores its paths with
:func:`~._path.attention_path` on one :func:`~._problem.build_problem`; the chosen
point is refitted as a :class:`~sklearn_softattn.SoftmaxAttentionRegressor`.
"""

import warnings
from numbers import Integral

import numpy as np
from sklearn.base import _fit_context, clone
from sklearn.exceptions import ConvergenceWarning, FitFailedWarning
from sklearn.metrics import check_scoring, get_scorer_names
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.parallel import Parallel, delayed

from ._additive import additive_layer, fit_additive, predict_additive
from ._base import BaseAttentionRegressor, check_layer_params
from ._callbacks import Task
from ._estimator import SoftmaxAttentionRegressor
from ._grid import (
    START_MARGIN,
    attention_path_mask,
    attention_scale_grid,
    inner_folds,
    max_iter_grid,
    neighbor_sharpness,
    penalty_grid,
    shrinkage_grid,
)
from ._layer import (
    FittedLayer,
    every_row_context,
    fitted_layer,
    handles_float_errors,
    linear_limit,
)
from ._path import (
    SKIPPED,
    _fold_scores,
    _label,
    as_given,
    attention_path,
    linear_end,
    score_predictions,
    screened,
)
from ._problem import build_problem, context_rows, positive_rows
from ._ranks import fit_normal_scores, normal_scores
from ._selection import N_ERRORS, choose_point, choose_representation, leads, scorable

# The parameters of SoftmaxAttentionRegressor that the cross-validation chooses; the
# others are the CV estimator's own, shared by every point.
CHOSEN = ("attention_scale", "max_iter", "balance_strength", "shrinkage", "context_neighbors",
          "extrapolation")
# extrapolation="auto": how the folds read far rows at every point, and how the linear
# limit may read them instead (extrapolating its linear trend), which it does where the
# folds score that higher.
AUTO_EXTRAPOLATION = ("radius", "clip")


# A fold's path stops once its validation R² has been more than 0.1 below its
# best so far at 1 point (margin, count): with path_early_stop (see the selection
# page of the user guide).
EARLY_STOP = (0.1, 1)
# With first_fold_screening="auto", the first fold screens the others from this many
# rows of positive weight on (a fold then validates on some 300 rows or more).
SCREENING_ROWS = 1000


# What the scores read, for score_features="choose": the features, or their normal scores
# with the skip term, which rank scores need (a linear term in the features themselves).
REPRESENTATIONS = ({"score_features": "features"},
                   {"score_features": "ranks", "linear_skip": True})
# With score_features="auto", the folds choose the representation from this many rows of
# positive weight on (a fold then validates on some 400 rows or more); below, the scores
# read the features.
REPRESENTATION_ROWS = 2000
# With additive_base="auto", the layer fits what an additive model leaves from this many
# rows of positive weight on, where the folds train on 1600 rows or more (on fewer, a base
# can fit a few extreme targets that the layer then cannot undo: on mariokart's 143 rows,
# under bench_defaults' outer folds, additive_base=True scores 0.58 below the defaults).
BASE_ROWS = 2000


def from_rows(sample_weight, rows):
    """Whether an ``"auto"`` that starts at ``rows`` rows applies: at least that many
    rows of positive weight (:data:`SCREENING_ROWS`, :data:`REPRESENTATION_ROWS`,
    :data:`BASE_ROWS`)."""
    return np.count_nonzero(sample_weight > 0) >= rows


class SoftmaxAttentionRegressorCV(BaseAttentionRegressor):
    """Softmax attention regression with the sharpness chosen by cross-validation.

    For every fold and every ``(balance_strength, shrinkage)``, the layer is fitted
    along a path of increasing ``attention_scale`` (the softmax's sharpness): its
    first point, scale 0, is the linear limit in closed form (least squares, or
    ridge regression with a ``shrinkage``), and every later one starts from the
    spectral initialization at its scale and is scored after each of the iteration
    counts ``max_iters``. By default the path is short: the linear limit and one
    start, from which the solver learns the sharpness with the rest of the layer;
    from 1000 rows on, the other folds go past the linear limit only where the
    first fold's did better than it (``first_fold_screening``; the first fold's
    path stops where it falls behind, ``screening_stop``), and a row farther out
    than the training rows is read at their radius (``extrapolation``).
    The point chosen (by default the smallest scale within one standard error of
    the best mean validation score) is refitted on all the data as a
    :class:`SoftmaxAttentionRegressor` with the chosen parameters
    (``best_params_``), so where the data are linear the model is linear; above
    10 000 rows, where it is validated on one hold-out, it is kept as the
    hold-out's training rows fitted it (``refit``). The same folds also score an
    additive model, ridge regression on each feature's splines, which is the
    model instead where it leads the chosen point by the rule's margin
    (``additive_end``).

    By default the layer is the in-context one, fitted with L-BFGS: every context
    token carries its target as well as its features, and the scores are
    distances in a learned metric, so that attention is a kernel smoother on top
    of the linear limit. The paper's layer and algorithm are
    ``target_tokens=False, attention_scores="bilinear", solver="gd"``.

    Parameters
    ----------
    attention_scales : "auto", int or array-like of shape (n_scales,), default="auto"
        The path of attention scales. ``"auto"``: 0 and one start, a smoother over
        a few neighbors (distance scores: a row's nearest neighbor at the median
        spacing scores 0.5 below its own position; bilinear: 1). An int: 0, then
        geometrically from 0.01 to 10 (with distance scores, on until the spacing
        is resolved). An array: the values, fitted in increasing order.

    start_multiples : array-like of shape (n_starts,), default=(1.0,)
        With ``attention_scales="auto"``, the path's points start at the
        automatic start times each of these; with ``renormalize=False`` each
        learns its sharpness from there, so several are restarts, at that many
        times the cost past the linear limit.

    balance_strengths : array-like of shape (n_balance_strengths,), default=(0.0,)
        Strengths of the balancing regularizer to try (only the first with
        ``regularization=None``). A strong balance keeps the layer near its
        linear limit; keep 0 in the grid for nonlinear data.

    shrinkages : array-like of shape (n_shrinkages,), default=(0.0, "auto", 10.0)
        Ridge penalties on the linear limit to try, in the units of
        :class:`~sklearn.linear_model.Ridge`'s ``alpha`` on standardized
        features. ``"auto"``: the penalty :class:`~sklearn.linear_model.RidgeCV`
        chooses on each fold's training rows. Each has its own path; on a fold
        where two linear limits predict alike, their paths are fitted once.

    attention_shrinkages : array-like or None, default=(0.0,)
        The shrinkages whose paths go on past the linear limit (every one if
        none of ``shrinkages`` is among these, or with None); the others are
        tried at their linear limit only, which costs one pass over a fold's rows.
        The ridge penalty falls on ``V Kᵀ``, the layer's linear part near the
        linear limit; with the sharpness learned (``renormalize=False``) it grows
        with the sharpness for the same values, and past the linear limit it can
        hold the metric at its start: on 5 763 rows of ISLP's ``Bikeshare`` the
        fit at ``"auto"`` stayed there from 7 of 10 context samples (test R² 0.36
        to 0.47), and at 0 left it from all 10 (0.904 to 0.912). On a few hundred
        rows the penalty can keep the fit from the noise instead: on 200 rows of
        ``make_friedman1`` (noise 0.5) the folds take the linear limit at 0 (test
        R² 0.71) and the attention at ``"auto"`` (0.87). ``(0.0, "auto")`` lets
        the folds choose, at up to twice the time past the linear limit.

    cv : int, "auto", cross-validation generator or iterable, default="auto"
        Folds. ``"auto"``: 5 shuffled folds, drawn twice up to 5 000 rows
        (``RepeatedKFold(n_splits=5, n_repeats=2)``: ten folds narrow the
        standard errors of ``selection_rule``) and once up to 10 000 rows,
        and one shuffled hold-out of 10% above. An int (or None, 5) is
        ``KFold(cv, shuffle=True, random_state=random_state)``: a local
        smoother must be validated on rows drawn at random, not on blocks of
        a sorted data set. A splitter or an iterable is used as given.

    scoring : str, callable or None, default=None
        Validation score, as in :func:`sklearn.metrics.check_scoring`;
        ``None`` is R². Larger is better.

    selection_rule : {"1se", "2se", "best"}, default="1se"
        How the point is chosen from the mean validation scores. ``"best"``: the
        highest. ``"1se"`` (``"2se"``): the smallest scale within one (two)
        standard errors of the highest, so that a sharper softmax must beat a
        flatter one by more than the folds' noise. A single split always takes
        the best.

    refit : bool or "auto", default="auto"
        Refit the chosen point on all the rows. With False, as in
        :class:`~sklearn.linear_model.LogisticRegressionCV`, there is no final
        fit: the model is the chosen point as the folds fitted it, which needs
        the folds to be one split (``cv="auto"`` above 10 000 rows, or a
        splitter of one split), as early stopping keeps the model it validated.
        ``"auto"``: False where the folds are one split, True otherwise. On the
        development sets of 10 000 rows or more, ``"auto"`` fitted in 0.59 to
        0.93 of the time of ``True``, at a mean R² 0.002 higher.

    path_warm_start : bool, default=False
        Whether each point of a path after the first positive scale starts from
        the previous point, renormalized to its scale, instead of afresh. Warm
        starts suit gd; L-BFGS moves far from a warm start in a few iterations.

    path_early_stop : bool, default=False
        Whether a fold's path stops once its validation R² has fallen more than
        0.1 below its best so far: its sharper points are then skipped
        (``score_path_``). It saves time on long paths.

    first_fold_screening : "auto" or bool, default="auto"
        Fit the first fold alone first; on the others, a path goes on past its
        linear limit, and the additive end (``additive_end``) is scored, only if
        it scored above the best linear limit on that fold.
        Where the data are linear the fit costs about a fifth as much; a path
        that the first fold alone misjudges is lost. ``"auto"``: screen from
        1000 rows of positive weight on, where one fold's validation score is
        reliable and a fit's cost matters. Not with a single split.

    screening_stop : bool or {"first_iteration", "far_behind", "significantly_behind", \
            "not_closing"}, default="significantly_behind"
        Whether a path of the first fold, where it screens the others
        (``first_fold_screening``), stops at the first count of ``max_iters``
        where its point scores below the best linear limit of the fold: the path
        is then screened out without running its later counts and scales. Where
        the data are linear, most of a screened fit's cost is that path; a path
        that trails the linear end early and leads it later is lost.
        ``"first_iteration"``: it is also asked after each point's first
        iteration, so that where the data are linear the path costs one
        iteration, not the first count's. ``"far_behind"``: after the first
        iteration the path stops only where its validation loss (1 - R²) is
        more than twice the best linear limit's, so that a path that trails a
        little there, and leads after a few iterations, goes on.
        ``"significantly_behind"``: only where its squared error exceeds the
        linear limit's by more than two standard errors of their paired
        difference over the validation rows. ``"not_closing"``: there only where
        it also trails by less than 0.01 of R², a near tie, and at a count only
        where it also gained less R² since its first iteration (at the first
        count) or since the count before than it still trails by, so that a path
        that starts far behind and closes the gap goes on.

    target_tokens : bool, default=True
        Whether the context tokens carry their targets (see
        :class:`SoftmaxAttentionRegressor`, whose default is False).

    attention_scores : {"bilinear", "distance"}, default="distance"
        ``"distance"``: local attention in a learned metric; ``"bilinear"``: the
        paper's scores (see :class:`SoftmaxAttentionRegressor`).

    init : {"spectral", "random"}, default="spectral"
        The initialization of every positive point (see
        :class:`SoftmaxAttentionRegressor`).

    preconditioner : {"covariance"} or None, default="covariance"
        The covariance preconditioner (see :class:`SoftmaxAttentionRegressor`).

    regularization : {"balance"} or None, default="balance"
        The balancing regularizer (see :class:`SoftmaxAttentionRegressor`), of
        strengths ``balance_strengths``.

    renormalize : bool, default=False
        ``False``: each point starts at its scale and the solver moves the
        sharpness too, so that the folds choose where it ends (through
        ``max_iters``). ``True`` keeps each point at its scale (the paper's).

    solver : {"gd", "lbfgs", "sgd", "adam"}, default="lbfgs"
        The solver of every point (see :class:`SoftmaxAttentionRegressor`, whose
        default is the paper's ``"gd"``).

    learning_rate : float or "auto", default="auto"
        Step size of ``"gd"``, ``"sgd"`` and ``"adam"`` (see
        :class:`SoftmaxAttentionRegressor`).

    batch_size : int or "auto", default="auto"
        Minibatch size of ``"sgd"`` and ``"adam"``.

    max_iters : int or array-like of shape (n_max_iters,), default=(5, 15, 40)
        Iteration counts to try at every point: each point runs to the largest
        and is scored after each, so the count is chosen on held-out rows, as
        boosting's and an MLP's early stopping choose theirs. The refit stops at
        the chosen count without a ``ConvergenceWarning``.

    tol : float, default=1e-4
        Tolerance of every point's stopping rule (see
        :class:`SoftmaxAttentionRegressor`).

    n_iter_no_change : int, default=10
        Iterations without improvement before a point stops.

    max_context : int or None, default=2048
        The most training rows that serve as context tokens, in every fold and
        in the refit (a seeded sample; ``None``: every row). Past it, the time
        per iteration grows with it.

    context_neighbors : int or None, default=256
        With distance scores and more training rows than ``max_context``, each
        fold also scores every point attending to its ``context_neighbors``
        nearest training rows (``neighbor_score_path_``), and the refit predicts
        so where that scored higher at the chosen point. ``None``: never.

    n_neighbors : int or None, default=None
        Local attention in training (see :class:`SoftmaxAttentionRegressor`).

    linear_skip : bool, default=False
        A linear term beside the attention, which starts at the ridge fit (see
        :class:`SoftmaxAttentionRegressor`).

    score_features : {"features", "ranks", "choose", "auto"}, default="auto"
        What the attention reads: the features or their normal scores (see
        :class:`SoftmaxAttentionRegressor`; ``"ranks"`` needs ``linear_skip``).
        ``"choose"``: the folds choose. Both paths are scored on the same folds,
        the normal scores' with the skip term, and ``selection_rule`` chooses
        from the two as from one path, the normal scores' points after the
        features' as if sharper: they are taken where they lead by the rule's
        margin (``best_params_`` holds the chosen ``score_features`` and
        ``linear_skip``). The folds cost twice as much, but for a first fold that
        screens the others (``first_fold_screening``) and finds no path of the
        normal scores past the linear limit: their other folds are then not
        scored, since the linear limit reads no scores. ``"auto"``: ``"choose"``
        from 2000 rows of positive weight on, where the folds are large enough
        for a few extreme targets not to decide the choice; ``"features"`` below.

    additive_end : bool, default=True
        Also score, on the same folds, an additive model: ridge regression on each
        feature's cubic B-splines (four knots over the training range, flat beyond
        it), its penalty chosen from 0.1 to 1000 by efficient leave-one-out. It is
        taken in place of the chosen point where it leads it by the margin of
        ``selection_rule`` (``additive_end_``), and is then fitted on all the rows:
        ``coef_`` holds its coefficients on the splines, and the model has no
        attention. Pass False to keep the layer at the point the folds chose.
        Not scored with an additive base (``additive_base_``), where the path's
        linear limit holds it.

    additive_base : bool or "auto", default=False
        Fit every point of the path, on each fold and in the refit, on what an
        additive model fitted on the same rows leaves, and predict with the two
        summed (see :class:`SoftmaxAttentionRegressor`'s ``additive_base``): the
        linear limit is then the additive model (with a linear term), and the
        attention models what it misses, such as interactions. ``"auto"``: from
        2000 rows of positive weight on (``additive_base_``), where each fold's
        base is fitted on 1600 rows or more; on fewer, a base can fit a few
        extreme targets that the attention then cannot undo.

    fit_intercept : bool, default=True
        Center features and targets by their (weighted) means.

    extrapolation : {"clip", "radius", "range", "targets", "continue", "auto"}, \
            default="radius"
        How far rows are scored, in the folds and in ``predict`` (see
        :class:`SoftmaxAttentionRegressor`, whose default is ``"clip"``): by
        default a row farther from the training rows' mean than any of them is
        pulled back to that distance for every part, the linear limit included.
        ``"auto"``: ``"radius"``, but where the chosen point is a linear limit,
        its folds are also scored with the far rows read as they are
        (``"clip"``), and that is taken where it scores higher (the rows'
        linear trend goes on past the training rows): ``best_params_`` holds
        the one taken.

    random_state : int, RandomState instance or None, default=None
        Seeds the folds of an int ``cv``, and every fold's and the refit's
        draws (context sample, random start). Pass an int for reproducible fits.

    n_jobs : int, default=None
        Folds fitted in parallel by joblib: ``None`` means 1 unless in a
        :func:`joblib.parallel_config` context, ``-1`` all processors. The
        compiled kernel uses the cores left to it by OpenMP's limits, in the
        folds, the refit and ``predict``. Results do not depend on it.

    verbose : int, default=0
        Print the chosen point, how many paths the first fold's screen lets on
        (``first_fold_screening``) and whether the additive end is taken; above 1,
        also the objective at every iteration of every point, in the folds and in
        the refit.

    Attributes
    ----------
    best_params_ : dict
        The chosen ``attention_scale`` (where the chosen point starts),
        ``max_iter``, ``balance_strength``, ``shrinkage``,
        ``context_neighbors`` and ``extrapolation`` (this estimator's, or the
        one ``"auto"`` took), and with ``score_features`` ``"choose"`` or
        ``"auto"`` the chosen ``score_features`` and ``linear_skip``: the refit is
        ``SoftmaxAttentionRegressor(**{**shared, **best_params_})`` fitted on
        all the data, ``shared`` this estimator's layer parameters, its
        ``additive_base`` that of ``additive_base_`` (with
        ``path_warm_start=True``, the path replayed up to the chosen point).

    additive_end_ : bool
        Whether the folds took the additive end (``additive_end``): the model is
        then the additive end, and ``best_params_`` the point it was taken over.

    additive_scores_ : ndarray of shape (n_folds,) or None
        The additive end's validation score on each fold (the folds of
        ``score_path_``), -inf on those the first fold screened it from
        (``first_fold_screening``); None without ``additive_end`` or with an
        additive base.

    additive_base_ : bool
        Whether the path was fitted on an additive base (``additive_base``).

    attention_scale_ : float
        The refitted layer's sharpness: the Frobenius norm of ``key_query_`` in
        whitened coordinates (0 at the linear limit).

    attention_scales_ : ndarray of shape (n_scales,)
        The path of attention scales, increasing.

    max_iters_ : ndarray of shape (n_max_iters,)
        The iteration counts tried, increasing.

    balance_strengths_ : ndarray of shape (n_balance_strengths,)
        The balance strengths tried.

    shrinkages_ : ndarray of shape (n_shrinkages,)
        The ridge penalties tried (of dtype object when they hold ``"auto"``).

    score_path_ : ndarray of shape (n_scales, n_max_iters, n_balance_strengths, n_shrinkages, n_folds)
        Validation score of every point after every iteration count on every
        fold: NaN where a point could not be scored (left out of the choice,
        with a ``FitFailedWarning``), -inf where its path stopped before it
        (``path_early_stop``).

    neighbor_score_path_ : ndarray of the shape of ``score_path_``
        The same points' validation scores when each validation row attends to
        its ``context_neighbors`` nearest training rows of the fold; NaN where
        that does not apply.

    key_query_, value_, target_value_, skip_coef_, context_, context_weight_, \
context_targets_, data_radius_, data_min_, data_max_, target_min_, target_max_, x_offset_, \
y_offset_, coef_, intercept_, n_iter_, loss_curve_
        As in :class:`SoftmaxAttentionRegressor`, for the model refitted on all
        the data; ``n_iter_`` and ``loss_curve_`` cover its whole path.

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, when they are all strings.

    See Also
    --------
    SoftmaxAttentionRegressor : The model with a fixed sharpness.
    ScorePathDisplay : The validation score along the path, drawn.
    sklearn.linear_model.LassoCV : The same idea for the lasso's penalty.
    sklearn.linear_model.RidgeCV : Ridge regression with built-in cross-validation.

    Notes
    -----
    The cost is about ``n_folds * n_balance_strengths * n_shrinkages`` fits along
    the path (each point at most ``max(max_iters)`` iterations, the linear limit
    one pass over the data), plus one refit of the chosen point. Scores and the
    regularizers do not depend on the scale of ``y``. The defaults were chosen on
    real data by rules written before their fits: see the :doc:`selection page
    <../user_guide/selection>` of the user guide.

    When tuning :class:`SoftmaxAttentionRegressor` with
    :class:`~sklearn.model_selection.GridSearchCV` instead, pass
    ``cv=KFold(5, shuffle=True, random_state=0)`` if the rows may be ordered:
    an int ``cv`` there means unshuffled blocks.

    Examples
    --------
    >>> from sklearn.datasets import make_friedman1
    >>> from sklearn_softattn import SoftmaxAttentionRegressorCV
    >>> X, y = make_friedman1(n_samples=400, noise=0.5, random_state=0)
    >>> reg = SoftmaxAttentionRegressorCV(random_state=0).fit(X[:300], y[:300])
    >>> round(reg.best_params_["attention_scale"], 2), reg.best_params_["max_iter"]
    (0.8, 40)
    >>> reg.additive_end_  # the folds scored the additive end higher, and took it
    True
    >>> round(reg.score(X[300:], y[300:]), 2)
    0.89
    """

    _parameter_constraints: dict = {
        **{
            name: constraint
            for name, constraint in SoftmaxAttentionRegressor._parameter_constraints.items()
            if name not in ("attention_scale", "balance_strength", "shrinkage", "max_iter",
                            "early_stopping", "validation_fraction", "warm_start")
        },
        "attention_scales": [Interval(Integral, 1, None, closed="left"), "array-like",
                             StrOptions({"auto"})],
        "start_multiples": ["array-like"],
        "max_iters": [Interval(Integral, 1, None, closed="left"), "array-like"],
        "balance_strengths": ["array-like"],
        "shrinkages": ["array-like"],
        "attention_shrinkages": ["array-like", None],
        "cv": ["cv_object", StrOptions({"auto"})],
        "scoring": [StrOptions(set(get_scorer_names())), callable, None],
        "selection_rule": [StrOptions({"2se", "1se", "best"})],
        "refit": ["boolean", StrOptions({"auto"})],
        "path_warm_start": ["boolean"],
        "path_early_stop": ["boolean"],
        "first_fold_screening": [StrOptions({"auto"}), "boolean"],
        "screening_stop": ["boolean", StrOptions({"first_iteration", "far_behind",
                                                  "significantly_behind", "not_closing"})],
        "score_features": [StrOptions({"features", "ranks", "choose", "auto"})],
        "additive_end": ["boolean"],
        "additive_base": ["boolean", StrOptions({"auto"})],
        "extrapolation": [StrOptions({"clip", "radius", "range", "targets", "continue",
                                      "auto"})],
        # Joblib's workers: a negative count counts back from all, 0 means nothing.
        "n_jobs": [Interval(Integral, None, -1, closed="right"),
                   Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self,
        attention_scales="auto",
        balance_strengths=(0.0,),
        shrinkages=(0.0, "auto", 10.0),
        *,
        start_multiples=(1.0,),
        attention_shrinkages=(0.0,),
        cv="auto",
        scoring=None,
        selection_rule="1se",
        refit="auto",
        path_warm_start=False,
        path_early_stop=False,
        first_fold_screening="auto",
        screening_stop="significantly_behind",
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
        linear_skip=False,
        score_features="auto",
        additive_end=True,
        additive_base=False,
        fit_intercept=True,
        extrapolation="radius",
        random_state=None,
        n_jobs=None,
        verbose=0,
    ):
        self.attention_scales = attention_scales
        self.balance_strengths = balance_strengths
        self.shrinkages = shrinkages
        self.start_multiples = start_multiples
        self.attention_shrinkages = attention_shrinkages
        self.cv = cv
        self.scoring = scoring
        self.selection_rule = selection_rule
        self.refit = refit
        self.path_warm_start = path_warm_start
        self.path_early_stop = path_early_stop
        self.first_fold_screening = first_fold_screening
        self.screening_stop = screening_stop
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
        self.linear_skip = linear_skip
        self.score_features = score_features
        self.additive_end = additive_end
        self.additive_base = additive_base
        self.fit_intercept = fit_intercept
        self.extrapolation = extrapolation
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _fold_extrapolation(self):
        """How the folds read a row farther out than their training rows."""
        return AUTO_EXTRAPOLATION[0] if self.extrapolation == "auto" else self.extrapolation

    def _extrapolation(self):
        """How ``predict`` reads a row farther out than the training rows: as the
        refit does (``best_params_``); before the choice (a fold's iterate, as the
        callbacks see it), as the folds do."""
        if hasattr(self, "best_params_"):
            return self.best_params_["extrapolation"]
        return self._fold_extrapolation()

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
                          FitFailedWarning)
        # Skipped points (-inf) are left out too, but are no failure.
        failed = np.isnan(self.score_path_[..., folds]).any(axis=-1)
        left_out = [
            f"(attention_scale={self.attention_scales_[s]:.3g}, max_iter={self.max_iters_[t]}, "
            f"balance_strength={self.balance_strengths_[a]:.3g}, "
            f"shrinkage={_label(self.shrinkages_[r])})"
            for s, t, a, r in zip(*np.nonzero(failed))
        ]
        if left_out:
            warnings.warn("SoftmaxAttentionRegressorCV: path point(s) "
                          f"{', '.join(left_out)} left out of the choice: {why}.",
                          FitFailedWarning)

    def _grid(self, X, sample_weight):
        """The checked grid: the scales and the iteration counts (ascending), the
        balance strengths (only the first without a balancing regularizer) and the
        shrinkages, and which of their paths go past the linear limit (bool, per balance
        strength and shrinkage)."""
        balance_strengths = penalty_grid(self.balance_strengths, "balance_strengths")
        shrinkages = shrinkage_grid(self.shrinkages)
        sharpest = start = np.nan
        if self.attention_scores == "distance" and isinstance(self.attention_scales,
                                                             (str, Integral)):
            # The spacing a smoother resolves is that of the rows it attends over: as
            # many as each fit's context holds, drawn as it is drawn, from the rows of
            # positive weight.
            X, _, sample_weight = positive_rows(X, X[:, :0], sample_weight, 2)
            if self.score_features == "ranks":  # the representation the scores read
                X = normal_scores(X, *fit_normal_scores(X, sample_weight))
            rows = context_rows(len(X), self.max_context, self.n_neighbors,
                                check_random_state(self.random_state))
            if isinstance(self.attention_scales, str):
                start = neighbor_sharpness(X[rows], sample_weight[rows], START_MARGIN)
            else:
                sharpest = neighbor_sharpness(X[rows], sample_weight[rows])
        if self.regularization is None:
            balance_strengths = balance_strengths[:1]
        paths = np.broadcast_to(attention_path_mask(shrinkages, self.attention_shrinkages),
                                (len(balance_strengths), len(shrinkages))).copy()
        multiples = penalty_grid(self.start_multiples, "start_multiples")
        if not np.all(multiples > 0):
            raise ValueError(f"start_multiples must be positive; got {self.start_multiples!r}.")
        return (attention_scale_grid(self.attention_scales, sharpest, start, multiples),
                max_iter_grid(self.max_iters), balance_strengths, shrinkages, paths)

    def _screens(self, sample_weight, folds, scales):
        """Whether the first fold screens the others (``first_fold_screening``): there
        are others, and the paths start at the linear limit that screening compares with."""
        if len(folds) < 2 or scales[0] != 0:
            return False
        if self.first_fold_screening == "auto":
            return from_rows(sample_weight, SCREENING_ROWS)
        return self.first_fold_screening

    def _representations(self, sample_weight):
        """The representations the folds choose from (``score_features``), or None
        where the scores read what this estimator says."""
        if self.score_features == "choose" or (
                self.score_features == "auto"
                and from_rows(sample_weight, REPRESENTATION_ROWS)):
            return REPRESENTATIONS
        return REPRESENTATIONS[:1] if self.score_features == "auto" else None

    def _scorer(self):
        """The folds' scorer (``scoring``), or None for R²."""
        return None if self.scoring is None else check_scoring(
            SoftmaxAttentionRegressor(), scoring=self.scoring)

    def _shared_params(self):
        """The parameters of :class:`SoftmaxAttentionRegressor` that every point shares
        (those of this estimator's that it has too); the refit adds ``best_params_``."""
        shared = {name: getattr(self, name)
                  for name in SoftmaxAttentionRegressor._parameter_constraints
                  if name in self._parameter_constraints and name not in CHOSEN}
        return {**shared, "additive_base": self.additive_base_}

    def _path_params(self, max_iter):
        """The parameters of :class:`SoftmaxAttentionRegressor` of the folds' paths,
        whose points run ``max_iter`` iterations (the largest count)."""
        defaults = SoftmaxAttentionRegressor().get_params()
        return {**defaults, **self._shared_params(), "max_iter": max_iter,
                "context_neighbors": None, "extrapolation": self._fold_extrapolation(),
                "verbose": max(self.verbose - 1, 0)}

    @handles_float_errors
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Choose the sharpness (with ``score_features`` ``"choose"`` or ``"auto"``,
        also what the scores read) by cross-validation, then refit on all the data.

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
        # An earlier fit's choice is not this one's (the callbacks' copies predict by it).
        vars(self).pop("best_params_", None)
        X, Y, sample_weight, y_ndim = self._check_training_data(
            X, y, sample_weight, reset=True, positive_only=False
        )
        # One estimator per representation the folds choose from: this one, or one of
        # each of _representations.
        representations = self._representations(sample_weight)
        candidates = [self] if representations is None else [
            clone(self).set_params(**representation) for representation in representations]
        base = (from_rows(sample_weight, BASE_ROWS) if self.additive_base == "auto"
                else self.additive_base)
        if self.verbose and base:
            print("an additive base: every point fits what an additive model leaves")
        for candidate in candidates:
            candidate.additive_base_ = base
            # (context_neighbors applies to distance scores only, where the folds try it.)
            check_layer_params({**candidate.get_params(), "context_neighbors": None})
        y_split = as_given(Y, y_ndim)
        folds = inner_folds(self.cv, X, y_split, sample_weight, self.random_state)
        refit = len(folds) > 1 if self.refit == "auto" else bool(self.refit)
        if not refit and len(folds) > 1:
            raise ValueError(
                f"refit=False keeps the chosen point as the folds fitted it, which needs "
                f"one split of the rows; cv={self.cv!r} gives {len(folds)}. Pass a "
                "splitter of one split, or refit=True.")
        task = Task.begin_fit(self, *given, max_subtasks=len(candidates) * len(folds) + 1)
        scored = []  # (candidate, its point, its fit); one may drop out (see _choose)
        for candidate in candidates:
            chosen = candidate._choose(X, Y, sample_weight, y_ndim, given, folds, task,
                                       linear_drops=bool(scored), keep_fit=not refit)
            if chosen is not None:
                scored.append((candidate, *chosen))
        k = choose_representation([candidate.score_path_ for candidate, _, _ in scored],
                                  self.selection_rule)
        if scored[k][0].best_params_["attention_scale"] == 0:
            k = 0  # the linear limit reads no scores: there the representations are one
        chosen, point, fit = scored[k]
        chosen._score_additive_end(X, Y, sample_weight, y_ndim, folds, point)
        if chosen.additive_end_:
            chosen._fit_additive_end(X, Y, sample_weight, y_ndim)
        elif refit:
            chosen._refit(X, Y, sample_weight, y_ndim, given, task, best_scale=point[0])
        else:
            chosen._keep(X, Y, sample_weight, fit)
        if (self.verbose and not chosen.additive_end_
                and chosen.best_params_["max_iter"] == chosen.max_iters_[-1]):
            print(f"max_iter={chosen.max_iters_[-1]} is the largest of max_iters: a longer "
                  "max_iters may score better")
        if chosen is not self:  # its fitted state (every attribute but its parameters)
            params = chosen.get_params()
            vars(self).update({name: value for name, value in vars(chosen).items()
                               if name not in params})
            representation = {name: params[name] for name in REPRESENTATIONS[-1]}
            self.best_params_ = {**chosen.best_params_, **representation}
            if self.verbose and len(candidates) > 1:
                print(", ".join(f"{name}={value!r}" for name, value in representation.items())
                      + ": chosen on the folds")
        task.end({})  # the model is self
        return self

    def _choose(self, X, Y, sample_weight, y_ndim, given, folds, task, linear_drops=False,
                keep_fit=False):
        """Score the grid's paths on ``folds`` and choose the point: set ``score_path_``,
        ``best_params_`` and the grid's attributes, and return the point's indices
        (:func:`~._selection.choose_point`) and, with ``keep_fit`` (one fold), its fit there (a
        :class:`~._path.FoldScores` fit), else None.

        With ``linear_drops`` (a representation after the first), return None, the
        other folds unscored, where the first fold screens out every path: all this
        representation could then add is its linear limits, which read no scores and
        are the first representation's, and a linear limit is never its choice
        (:meth:`fit`)."""
        scales, max_iters, balance_strengths, shrinkages, attention_paths = self._grid(
            X, sample_weight)
        y_split = as_given(Y, y_ndim)
        params = self._path_params(int(max_iters[-1]))
        scorer = self._scorer()

        def fold_args(k):
            # The fold's task is made here, before the fold goes to joblib's workers;
            # its estimators fit validated arrays, and so see those.
            train, test = folds[k]
            weight = None if given[2] is None else sample_weight[train]
            fold_task = task.subtask("fold", len(balance_strengths) * len(shrinkages),
                                     X=X[train], y=y_split[train], sample_weight=weight)
            return (params, scorer, X, Y, sample_weight, y_ndim, train, test, scales,
                    max_iters, balance_strengths, shrinkages, fold_task)

        auto = self.extrapolation == "auto"
        options = dict(stop=EARLY_STOP if self.path_early_stop else None,
                       warm_start=self.path_warm_start, context_neighbors=self.context_neighbors,
                       linear_extrapolation=AUTO_EXTRAPOLATION[1] if auto else None,
                       keep_fits=keep_fit)
        scores = []
        if self._screens(sample_weight, folds, scales):
            # The first fold alone: on the others, a path goes on past its linear limit
            # only where it scored above the linear end there.
            scores.append(_fold_scores(*fold_args(0), attention_paths=attention_paths,
                                       screens=True, trailing_stop=self.screening_stop,
                                       **options))
            passing = screened(scores[0].scores, attention_paths)
            if self.verbose:
                reads = (f" (score_features={self.score_features!r})"
                         if self.score_features in ("features", "ranks") else "")
                print(f"the first fold screens the paths{reads}: {passing.sum()} of "
                      f"{attention_paths.sum()} past the linear limit scored above its linear "
                      "end there and go on to the other folds")
            if linear_drops and not passing.any():
                return None
            options["screened_out"] = attention_paths & ~passing
        later = [fold_args(k) for k in range(len(scores), len(folds))]  # tasks made first
        scores += Parallel(n_jobs=self.n_jobs)(
            delayed(_fold_scores)(*args, attention_paths=attention_paths, **options)
            for args in later)
        self.score_path_ = np.stack([fold.scores for fold in scores], axis=-1)
        self.neighbor_score_path_ = np.stack([fold.neighbor_scores for fold in scores], axis=-1)
        self.attention_scales_, self.max_iters_ = scales, max_iters
        self.balance_strengths_, self.shrinkages_ = balance_strengths, shrinkages
        self._warn_unscorable()
        chosen = choose_point(self.score_path_, self.selection_rule)
        best_scale, best_iter, best_balance, best_shrinkage = chosen
        shrinkage = shrinkages[best_shrinkage]
        folds = scorable(self.score_path_)[1]
        every, dense = self.neighbor_score_path_[chosen][folds], self.score_path_[chosen][folds]
        extrapolating = np.stack([fold.linear_scores for fold in scores],
                                 axis=-1)[chosen][folds]
        self.best_params_ = {
            "attention_scale": float(scales[best_scale]),
            "max_iter": int(max_iters[best_iter]),
            "balance_strength": float(balance_strengths[best_balance]),
            "shrinkage": shrinkage if isinstance(shrinkage, str) else float(shrinkage),
            "context_neighbors": (self.context_neighbors if np.isfinite(every).all()
                                  and every.mean() > dense.mean() else None),
            "extrapolation": (AUTO_EXTRAPOLATION[1] if auto and np.isfinite(extrapolating).all()
                              and extrapolating.mean() > dense.mean()
                              else params["extrapolation"]),
        }
        if self.verbose:
            print(", ".join(f"{name}={_label(value) if isinstance(value, float) else value}"
                            for name, value in self.best_params_.items())
                  + f": mean validation score "
                    f"{(every if self.best_params_['context_neighbors'] else dense).mean():.6g}")
        return chosen, scores[0].fits[chosen] if keep_fit else None

    def _score_additive_end(self, X, Y, sample_weight, y_ndim, folds, point):
        """With ``additive_end``, score the additive end (:mod:`._additive`) on
        ``folds`` and set ``additive_scores_``, and ``additive_end_``: whether it leads
        the chosen ``point`` there by the margin of ``selection_rule``."""
        self.additive_scores_, self.additive_end_ = None, False
        if not self.additive_end or self.additive_base_:
            return
        scorer = self._scorer()
        screens = self._screens(sample_weight, folds, self.attention_scales_)
        scores, screened_out = np.full(len(folds), SKIPPED), False
        for k, (train, test) in enumerate(folds):
            if k == 1 and screens and not scores[0] > linear_end(self.score_path_[..., 0]):
                screened_out = True  # by the first fold, as the paths are
                break
            fit = fit_additive(*positive_rows(X[train], Y[train], sample_weight[train], 2))
            y_pred = as_given(predict_additive(*fit, X[test]), y_ndim)
            scores[k] = score_predictions(scorer, y_pred, as_given(Y[test], y_ndim),
                                          sample_weight[test])
        self.additive_scores_ = scores
        kept = scorable(self.score_path_)[1]
        self.additive_end_ = leads(self.additive_scores_[kept], self.score_path_[point][kept],
                                   N_ERRORS[self.selection_rule])
        if self.verbose and screened_out:
            print(f"the additive end: validation score {scores[0]:.6g} on the first fold, "
                  "not above its linear end: screened out")
        elif self.verbose:
            print(f"the additive end: mean validation score "
                  f"{self.additive_scores_[kept].mean():.6g}, "
                  f"{'taken' if self.additive_end_ else 'not taken'}")

    def _fit_additive_end(self, X, Y, sample_weight, y_ndim):
        """Fit the additive end on all the rows and store it: a linear limit whose
        ``coef`` reads the splines."""
        rows = positive_rows(X, Y, sample_weight, 2)
        params = self._path_params(int(self.max_iters_[-1]))
        problem = build_problem(*rows, params, check_random_state(self.random_state))
        layer = fitted_layer(*linear_limit(problem, params), problem, y_ndim, linear=True)
        self.n_iter_, self.loss_curve_ = 0, []
        self._store(additive_layer(layer, *rows))

    def _refit(self, X, Y, sample_weight, y_ndim, given, task, best_scale):
        """Refit the chosen point (``best_params_``, its scale the ``best_scale``-th of
        ``attention_scales_``) on all the rows and store it."""
        y_split = as_given(Y, y_ndim)
        if self.path_warm_start and best_scale > 0:
            refit = task.subtask("refit", best_scale + 1)
            layer = self._refit_path(X, Y, sample_weight, y_ndim,
                                     self.attention_scales_[:best_scale + 1], refit)
        else:
            refit = task.subtask("refit")  # a leaf, whose task the refit's fit becomes
            model = SoftmaxAttentionRegressor(
                **{**self._shared_params(), "verbose": max(self.verbose - 1, 0)},
                **self.best_params_)
            # The count is a hyperparameter, as RidgeCV's alpha is: the refit stops at
            # the chosen one by design, even at the largest, and does not warn.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                refit.fit_subestimator(model, X, y_split, None if given[2] is None
                                       else sample_weight)
            layer = FittedLayer.of(model)
            self.n_iter_, self.loss_curve_ = model.n_iter_, model.loss_curve_
        refit.end()
        self._store(layer)

    def _keep(self, X, Y, sample_weight, fit):
        """Store the chosen point as the single fold fitted it (``refit`` False): its
        layer, iterations and loss curve, its ``context_neighbors`` (as a refit's)
        the nearest of every row."""
        layer, self.n_iter_, self.loss_curve_ = fit
        self._store(self._attending_to_every_row(layer, positive_rows(X, Y, sample_weight, 2)))

    def _attending_to_every_row(self, layer, rows):
        """``layer`` attending to the ``context_neighbors`` nearest of ``rows`` (as
        :func:`~._problem.positive_rows` gives them) where ``best_params_`` chose them;
        ``layer`` itself otherwise."""
        k = self.best_params_["context_neighbors"]
        every = None if k is None else every_row_context(layer, *rows, k)
        return layer if every is None else every

    def _refit_path(self, X, Y, sample_weight, y_ndim, scales, task):
        """The layer at the chosen point of a warm-started path, replayed on all the
        rows: every point before it runs the largest count, as in the folds, and the
        chosen point its own count. (Its start depends on the points before it, so no
        single :class:`SoftmaxAttentionRegressor` fit gives it.)"""
        params = {**self._path_params(int(max_iter_grid(self.max_iters)[-1])),
                  "balance_strength": self.best_params_["balance_strength"],
                  "shrinkage": self.best_params_["shrinkage"]}
        rng = check_random_state(self.random_state)
        rows = positive_rows(X, Y, sample_weight, 2)
        problem = build_problem(*rows, params, rng)
        self.n_iter_, self.loss_curve_ = 0, []
        for point in attention_path(problem, scales, params, random_state=rng, task=task,
                                    y_ndim=y_ndim, last_max_iter=self.best_params_["max_iter"]):
            self.n_iter_ += point.n_iter
            self.loss_curve_ += point.loss_curve
        return self._attending_to_every_row(fitted_layer(point.K, point.V, problem, y_ndim),
                                            rows)
