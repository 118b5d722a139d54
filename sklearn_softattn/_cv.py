"""SoftmaxAttentionRegressorCV: the softmax's sharpness chosen by cross-validation.

The path of attention scales starts at the least-squares end and sharpens step
by step, each point warm-started from the last (as ``LassoCV`` follows the
lasso's path from the empty model), so that least squares itself is always
among the candidates.
"""

import warnings
from numbers import Integral

import numpy as np
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import check_scoring, get_scorer_names
from sklearn.model_selection import check_cv
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.parallel import Parallel, delayed

from ._callbacks import Task
from ._estimator import (
    SoftmaxAttentionRegressor,
    _AttentionLayerModel,
    _iteration_hook,
    _positive_rows,
)
from ._geometry import renormalize

# The grid of attention scales when only its length is given: from nearly
# linear attention (least squares) to a sharp, local smoother.
SCALE_RANGE = (0.001, 10.0)


def attention_scale_grid(attention_scales):
    """The ascending grid of attention scales: a count, or the values themselves."""
    if isinstance(attention_scales, Integral):
        return np.geomspace(*SCALE_RANGE, num=attention_scales)
    scales = np.asarray(attention_scales, dtype=float)
    if scales.ndim != 1 or scales.size == 0 or not np.all(np.isfinite(scales) & (scales > 0)):
        raise ValueError(
            "attention_scales must be a positive int or a non-empty 1-D array of "
            f"positive finite values; got {attention_scales!r}."
        )
    return np.unique(scales)  # sorted


def scale_path(estimator, problem, scales, rng, task, y_ndim):
    """Fit ``estimator`` along ascending ``scales``, each point from the last.

    The first point starts from the estimator's initialization; every later
    one from the previous parameters renormalized to its scale. ``alpha`` is
    the estimator's. Yields, per scale, the raw ``(K, V)``, the
    :class:`~sklearn_softattn._solvers.Progress` and whether it converged.
    Each point is a subtask of ``task`` for the callbacks, and each of its
    iterations a subtask of the point's.
    """
    K = V = None
    for scale in scales:
        estimator.set_params(attention_scale=scale)
        if K is None:
            K, V = estimator._initial_params(problem, rng)
        else:
            K, V = renormalize(K, V, scale, problem.W_inv)
        point = task.subtask(f"attention_scale={scale:.3g}", estimator.max_iter)
        K, V, progress, converged = estimator._solve(
            problem, K, V, rng, max_iter=estimator.max_iter, loss_curve=[],
            on_iteration=_iteration_hook(point, problem, y_ndim),
        )
        point.end()
        yield K, V, progress, converged


def choose_point(score_path, selection="2se"):
    """Indices ``(scale, alpha)`` of the chosen point of a score path.

    ``"best"``: the highest mean score over the folds (the first maximum: the
    smallest scale, then the smallest alpha). ``"1se"`` and ``"2se"``: the
    smallest scale that any alpha brings within one (two) standard errors of
    the best, the errors being those of the fold-by-fold differences to the
    best point (paired, so that folds which are harder for every point do not
    widen them); at that scale, the alpha with the highest mean. Selection
    noise then tips towards least squares, not away from it.

    Parameters
    ----------
    score_path : ndarray of shape (n_scales, n_alphas, n_folds)
        Validation scores, larger is better; scales in increasing order.
    selection : {"2se", "1se", "best"}, default="2se"

    Returns
    -------
    scale_index, alpha_index : int
    """
    mean = score_path.mean(axis=-1)
    best = np.unravel_index(np.argmax(mean), mean.shape)
    n_folds = score_path.shape[-1]
    if selection == "best" or n_folds < 2:
        return tuple(int(i) for i in best)
    n_errors = {"1se": 1, "2se": 2}[selection]
    gap = score_path[best][None, None, :] - score_path
    close = gap.mean(axis=-1) <= n_errors * gap.std(axis=-1, ddof=1) / np.sqrt(n_folds)
    scale = int(np.flatnonzero(close.any(axis=1))[0])
    return scale, int(np.argmax(np.where(close[scale], mean[scale], -np.inf)))


def _fold_scores(estimator, scorer, X, Y, sample_weight, y_ndim, train, test, scales, alphas,
                 task):
    """Validation scores (n_scales, n_alphas) of one fold: one problem, one path per alpha.

    ``task`` is the fold's, for the callbacks: each path is a subtask of it.
    """
    rng = check_random_state(estimator.random_state)
    problem = estimator._problem(*_positive_rows(X[train], Y[train], sample_weight[train], 2),
                                 rng)
    X_test, y_test = X[test], (Y[test, 0] if y_ndim == 1 else Y[test])
    estimator.n_features_in_ = X.shape[1]
    scores = np.empty((len(scales), len(alphas)))
    for a, alpha in enumerate(alphas):
        estimator.set_params(alpha=alpha)
        path = task.subtask(f"alpha={alpha:.3g}", len(scales))
        for s, (K, V, _, _) in enumerate(
            scale_path(estimator, problem, scales, rng, path, y_ndim)
        ):
            estimator._store(K, V, problem, y_ndim)
            scores[s, a] = scorer(estimator, X_test, y_test, sample_weight=sample_weight[test])
        path.end()
    task.end()
    return scores


class SoftmaxAttentionRegressorCV(_AttentionLayerModel):
    """Softmax attention regression with the sharpness chosen by cross-validation.

    For every fold and every ``alpha``, the layer is fitted along a path of
    increasing ``attention_scale`` (the Frobenius norm of the key-query matrix
    in whitened coordinates, i.e. the softmax's sharpness): the first point is
    nearly linear attention, which is least squares, and each later point is
    warm-started from the previous one. The training problem of a fold
    (centering, whitening, context) is built once and shared by all its path
    points. The point chosen (by default the smallest scale within two
    standard errors of the best mean validation score) is refitted on all the
    data, along the same path, so where the data are linear the model stays
    least squares.

    Parameters
    ----------
    attention_scales : int or array-like of shape (n_scales,), default=9
        The path of attention scales. An int: that many values spaced
        geometrically from 0.001 (least squares, for practical purposes, even
        for a heavy-tailed feature, whose scores reach scale × its largest
        squared standardized value) to 10 (a sharp, local smoother); the
        default 9 steps by half-decades. An
        array: the values themselves, fitted in increasing order.

    alphas : array-like of shape (n_alphas,), default=(0.0, 1.0)
        Strengths of the balancing regularizer to try (only the first with
        ``regularization=None``). Without it a sharp softmax can be fully
        nonlinear, which is what nonlinear data need; a balance of 1 keeps the
        layer closer to its linear limit and regularizes small or
        many-featured data. On the twelve data sets of
        ``benchmarks/bench_selection.py --path`` these two came within 0.004
        R² of the best of (0, 0.1, 1, 10) on every set, at half the cost.

    cv : int, cross-validation generator or iterable, default=5
        Folds, as in :func:`sklearn.model_selection.check_cv` (``KFold``
        without shuffling for an int).

    scoring : str, callable or None, default=None
        Validation score, as in :func:`sklearn.metrics.check_scoring`;
        ``None`` is R² (the estimator's ``score``). Larger is better.

    selection : {"2se", "1se", "best"}, default="2se"
        How the point is chosen from the mean validation scores. ``"best"``:
        the highest (ties to the smaller scale). ``"2se"`` (``"1se"``): the
        smallest scale within two standard errors (one) of the highest, the
        standard error of the fold-by-fold differences (the
        "one-standard-error rule" and its stricter form): a sharper softmax
        must beat the flatter one by more than the folds' noise. Measured by
        nested cross-validation on seventeen data sets
        (``benchmarks/bench_selection.py --rules``), ``"2se"`` lost at most
        0.012 R² to least squares where ``"1se"`` lost 0.042 and ``"best"``
        0.204. It gave up at most 0.003 of ``"1se"``'s gains on sixteen of
        them, but 0.061 on ``make_friedman3`` with 300 rows: with small
        nonlinear data, ``"1se"`` can gain more. With few folds the standard
        error is itself noisy and the rule stricter still.

    init, preconditioner, regularization, renormalize, solver, learning_rate, \
batch_size, max_iter, tol, n_iter_no_change, max_context, fit_intercept
        As in :class:`SoftmaxAttentionRegressor`; ``max_iter`` and ``tol``
        apply to every point of the path.

    random_state : int, RandomState instance or None, default=None
        As in :class:`SoftmaxAttentionRegressor`; every fold and the refit
        draw from the same seed.

    n_jobs : int, default=None
        Folds fitted in parallel (joblib), and threads of the refit and of
        ``predict``. ``None`` means 1 unless in a :func:`joblib.parallel_config`
        context.

    verbose : int, default=0
        Print the chosen point; above 1, the objective at every iteration of
        the refit.

    Attributes
    ----------
    attention_scale_ : float
        The chosen attention scale.

    alpha_ : float
        The chosen regularization strength.

    attention_scales_ : ndarray of shape (n_scales,)
        The path of attention scales, increasing.

    alphas_ : ndarray of shape (n_alphas,)
        The regularization strengths tried.

    score_path_ : ndarray of shape (n_scales, n_alphas, n_folds)
        Validation score of every path point on every fold.

    key_query_, value_, context_, context_weight_, x_offset_, y_offset_, \
coef_, intercept_, n_iter_, loss_curve_
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
    The cost is about ``n_folds * n_alphas`` fits along the path, plus one
    refit along its start up to the chosen scale; warm starts make every point
    after the first cheap. Fit on standardized targets or not: scores and the
    regularizer do not depend on the scale of ``y``.

    Examples
    --------
    >>> from sklearn.datasets import make_friedman1
    >>> from sklearn_softattn import SoftmaxAttentionRegressorCV
    >>> X, y = make_friedman1(n_samples=200, noise=0.5, random_state=0)
    >>> reg = SoftmaxAttentionRegressorCV(attention_scales=[0.01, 1.0], alphas=[0.0], cv=3,
    ...                                   random_state=0).fit(X[:150], y[:150])
    >>> reg.attention_scale_
    1.0
    >>> round(reg.score(X[150:], y[150:]), 2)
    0.97
    """

    _parameter_constraints: dict = {
        **{
            name: constraint
            for name, constraint in SoftmaxAttentionRegressor._parameter_constraints.items()
            if name not in ("attention_scale", "alpha", "early_stopping",
                            "validation_fraction", "warm_start")
        },
        "attention_scales": [Interval(Integral, 1, None, closed="left"), "array-like"],
        "alphas": ["array-like"],
        "cv": ["cv_object"],
        "scoring": [StrOptions(set(get_scorer_names())), callable, None],
        "selection": [StrOptions({"2se", "1se", "best"})],
    }

    def __init__(
        self,
        attention_scales=9,
        alphas=(0.0, 1.0),
        *,
        cv=5,
        scoring=None,
        selection="2se",
        init="spectral",
        preconditioner="covariance",
        regularization="balance",
        renormalize=True,
        solver="gd",
        learning_rate="auto",
        batch_size="auto",
        max_iter=200,
        tol=1e-4,
        n_iter_no_change=10,
        max_context=2048,
        fit_intercept=True,
        random_state=None,
        n_jobs=None,
        verbose=0,
    ):
        self.attention_scales = attention_scales
        self.alphas = alphas
        self.cv = cv
        self.scoring = scoring
        self.selection = selection
        self.init = init
        self.preconditioner = preconditioner
        self.regularization = regularization
        self.renormalize = renormalize
        self.solver = solver
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.max_context = max_context
        self.fit_intercept = fit_intercept
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _path_estimator(self, n_jobs=None):
        """A :class:`SoftmaxAttentionRegressor` with the shared parameters."""
        shared = {
            name: getattr(self, name)
            for name in SoftmaxAttentionRegressor._parameter_constraints
            if name in self._parameter_constraints
        }
        shared.update(n_jobs=n_jobs, verbose=max(self.verbose - 1, 0))
        return SoftmaxAttentionRegressor(**shared)

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
        scales = attention_scale_grid(self.attention_scales)
        alphas = np.asarray(self.alphas, dtype=float).ravel()
        if alphas.size == 0 or not np.all(np.isfinite(alphas) & (alphas >= 0)):
            raise ValueError(
                f"alphas must be non-empty, finite and non-negative; got {self.alphas!r}."
            )
        if self.regularization is None:
            alphas = alphas[:1]
        y_split = Y[:, 0] if y_ndim == 1 else Y
        folds = list(check_cv(self.cv, y_split).split(X, y_split))
        task = Task.begin_fit(self, *given, max_subtasks=len(folds) + 1)
        # The folds' tasks are made here, before the folds go to joblib's workers;
        # their estimators fit validated arrays, and so see those.
        fold_tasks = [
            task.subtask("fold", len(alphas), X=X[train], y=y_split[train],
                         sample_weight=None if given[2] is None else sample_weight[train])
            for train, _ in folds
        ]
        scorer = check_scoring(self._path_estimator(), scoring=self.scoring)
        scores = Parallel(n_jobs=self.n_jobs)(
            delayed(_fold_scores)(self._path_estimator(), scorer, X, Y, sample_weight,
                                  y_ndim, train, test, scales, alphas, fold_task)
            for (train, test), fold_task in zip(folds, fold_tasks)
        )
        self.score_path_ = np.stack(scores, axis=-1)
        best_scale, best_alpha = choose_point(self.score_path_, self.selection)
        self.attention_scales_, self.alphas_ = scales, alphas
        self.attention_scale_ = float(scales[best_scale])
        self.alpha_ = float(alphas[best_alpha])
        if self.verbose:
            print(f"attention_scale_={self.attention_scale_:.4g}, alpha_={self.alpha_:.4g}, "
                  "mean validation score "
                  f"{self.score_path_[best_scale, best_alpha].mean():.6g}")

        estimator = self._path_estimator(self.n_jobs).set_params(alpha=self.alpha_)
        rng = check_random_state(self.random_state)
        problem = estimator._problem(*_positive_rows(X, Y, sample_weight, 2), rng)
        self.n_iter_, self.loss_curve_ = 0, []
        refit = task.subtask("refit", best_scale + 1)
        for K, V, progress, converged in scale_path(
            estimator, problem, scales[: best_scale + 1], rng, refit, y_ndim
        ):
            self.n_iter_ += progress.n_iter
            self.loss_curve_ += progress.loss_curve
        refit.end()
        if not converged:
            warnings.warn(
                f"SoftmaxAttentionRegressorCV: maximum iterations ({self.max_iter}) "
                "reached before the stopping rule was met in the refit at "
                f"attention_scale={self.attention_scale_:.4g}. Increase max_iter or tol.",
                ConvergenceWarning,
            )
        self._store(K, V, problem, y_ndim)
        task.end({})  # the model is self
        return self
