"""SoftmaxAttentionRegressor: validation, orchestration and fitted attributes."""

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.metaestimators import available_if

from ._base import BaseAttentionRegressor, check_layer_params
from ._callbacks import Task
from ._geometry import check_metric
from ._layer import (
    every_row_context,
    fitted_layer,
    handles_float_errors,
    initial_params,
    iteration_hook,
    linear_limit,
    solve,
)
from ._problem import build_problem, check_spread, holdout_split

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


class SoftmaxAttentionRegressor(BaseAttentionRegressor):
    """Regression with one softmax self-attention layer over the training samples.

    A query ``x`` attends over context tokens ``c_j`` (the training rows, or a
    seeded subsample of at most ``max_context`` of them)::

        f(x) = ȳ + Σ_j softmax_j((x - x̄)ᵀ K (c_j - x̄) + log w_j) V (c_j - x̄)

    with the key-query matrix ``K`` (d × d) and the value matrix ``V`` (q × d)
    (with ``target_tokens``, values ``V (c_j - x̄) + U (y_j - ȳ)``; with
    ``attention_scores="distance"``, scores ``-½ ‖L (x - c_j)‖²``, ``K = LᵀL``).
    Training minimizes the leave-one-out squared error (each training row
    attends over every token but its own) with the structure-aware gradient
    descent of Goel, Soltanolkotabi and Bartlett (2026): spectral
    initialization, covariance preconditioner, balancing regularizer and
    renormalization. Each part can be switched off; all off with
    ``solver="sgd"`` is the paper's baseline, plain SGD from a random start
    (:data:`PAPER_BASELINE`).

    Parameters
    ----------
    attention_scale : float, default=0.03
        The softmax's sharpness: the Frobenius norm of ``K`` in whitened
        coordinates, which the renormalization keeps (with
        ``renormalize=False``, the norm of the initial ``K``). Towards 0 the
        model tends to least squares; larger values make it a local, nonlinear
        smoother. ``0`` is the linear limit itself, in closed form. Choose it
        with :class:`SoftmaxAttentionRegressorCV`.

    init : {"spectral", "random"}, default="spectral"
        ``"spectral"``: the balanced factorization ``V₀ K₀ᵀ = M̂`` of the
        least-squares (ridge, with a ``shrinkage``) coefficient in whitened
        coordinates. ``"random"``: i.i.d. Gaussian entries (seeded by
        ``random_state``), the paper's baseline.

    preconditioner : {"covariance"} or None, default="covariance"
        ``"covariance"``: precondition the gradients by ``Σ̂⁻¹``, i.e. descend
        in whitened coordinates, so that the features' units do not matter
        (eigenvalues of their correlation matrix are floored at 1e-8 times the
        largest). ``None``: plain gradients on centered features.

    regularization : {"balance"} or None, default="balance"
        ``"balance"``: add ``balance_strength * L₀ * ||VᵀV/||V||² -
        KᵀK/||K||²||²_F`` (whitened coordinates, ``L₀`` the loss of predicting
        the mean), zero on balanced factorizations and invariant to the
        rescaling ``(K / c, c V)``. ``None``: no regularizer. Not used with
        ``linear_skip=True``, where the linear limit is the skip term's.

    balance_strength : float, default=1.0
        Strength of the balancing regularizer. Strong balance keeps the layer
        near its linear limit (for one target it forces a rank-one ``K``);
        nonlinear data want it weak or 0.

    shrinkage : float or "auto", default=0.0
        Ridge penalty on the layer's linear limit, in the units of
        :class:`~sklearn.linear_model.Ridge`'s ``alpha`` on standardized
        features: at ``attention_scale=0`` the model is that ridge regression.
        ``"auto"``: the penalty :class:`~sklearn.linear_model.RidgeCV` chooses
        among ``np.logspace(-3, 3, 13)`` on the training rows. Raise it for
        small or many-featured data.

    target_tokens : bool, default=False
        Let the context tokens carry their targets (in-context regression): a
        token's value becomes ``V (c_j - x̄) + U (y_j - ȳ)``, ``U`` starting
        at 0. With distance scores the layer is a kernel smoother of the
        targets in a learned metric beside its linear part.

    attention_scores : {"bilinear", "distance"}, default="bilinear"
        ``"bilinear"``: ``(x - x̄)ᵀ K (c_j - x̄)``, the paper's, which tilts the
        softmax towards tokens far out along a direction. ``"distance"``:
        ``-½ ‖L (x - c_j)‖²`` with ``K = LᵀL``: the softmax weighs the tokens
        near ``x`` in the learned metric (local attention). Both have the same
        linear limit.

    renormalize : bool, default=True
        After the initialization and every step, rescale ``(K, V) -> (K / c,
        c V)`` so that ``K`` keeps the Frobenius norm ``attention_scale`` in
        whitened coordinates (the paper's renormalization). ``False`` lets the
        solver learn the sharpness.

    solver : {"gd", "lbfgs", "sgd", "adam"}, default="gd"
        ``"gd"``: full-batch gradient descent with block steps invariant to the
        rescaling, halved whenever the objective would increase (the paper's
        algorithm). ``"lbfgs"``: scipy's L-BFGS on the same parametrization, in
        fewer passes over the data. ``"sgd"``, ``"adam"``: minibatch steps on
        plain gradients.

    learning_rate : float or "auto", default="auto"
        Step size. ``"auto"``: 1.0 for ``"gd"`` (the full block step), 0.03 for
        ``"sgd"`` and 0.05 for ``"adam"`` (for standardized targets). Not used
        by ``"lbfgs"``, whose line search chooses each step.

    batch_size : int or "auto", default="auto"
        Minibatch size of ``"sgd"`` and ``"adam"``; ``"auto"`` is
        ``min(200, n_samples)``.

    max_iter : int, default=200
        Maximum number of iterations (epochs for ``"sgd"`` and ``"adam"``).

    tol : float, default=1e-4
        Training stops when for ``n_iter_no_change`` consecutive iterations the
        objective has not improved by ``tol`` times the loss of predicting the
        mean (with early stopping: the validation R² by ``tol``).

    n_iter_no_change : int, default=10
        Number of iterations without improvement before stopping.

    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the training rows, stop when their
        R² stops improving, and keep the parameters that scored best.

    validation_fraction : float, default=0.1
        Fraction of the training rows held out for early stopping.

    max_context : int or None, default=2048
        Maximum number of context tokens: with more training rows, a seeded
        uniform sample of that many forms the context, whose mean and
        covariance center and whiten the features; every row is still a
        training query. ``None``: every row. Lower it to trade accuracy for
        time.

    n_neighbors : int or None, default=None
        Local attention, with distance scores: each query attends only to its
        ``n_neighbors`` nearest context rows in the current metric, and the
        context is every training row, so that a pass costs n_samples ×
        ``n_neighbors`` instead of n_samples × context. ``None``: every query
        attends to the whole context.

    context_neighbors : int or None, default=None
        With distance scores and more training rows than ``max_context``: fit
        on the sampled context, then predict attending to the
        ``context_neighbors`` nearest of every training row in the learned
        metric (``context_`` becomes every row). ``None``: predict over the
        sampled context. :class:`SoftmaxAttentionRegressorCV` chooses it.

    linear_skip : bool, default=False
        Add a linear term ``S (x - x_offset_)`` to the attention's output
        (``skip_coef_``), on which the ridge ``shrinkage`` falls. It starts at
        the ridge fit. With ``target_tokens=True`` on the features the values
        start local: the attended targets, each corrected by ``S`` times the
        query's offset from its row (TabR's values); otherwise at zero, so that
        the attention fits what a linear model leaves.

    score_features : {"features", "ranks"}, default="features"
        What the attention reads. ``"ranks"``: each feature's normal scores
        (normal quantiles of its training ranks, see ``attention_tokens``),
        which heavy tails and outliers do not dominate, as with gradient
        boosting's invariance to monotone maps. Needs ``linear_skip=True``.

    additive_base : bool, default=False
        First fit an additive model on the training rows: ridge regression on
        each feature's cubic B-splines (four knots over the training range,
        flat beyond it), its penalty chosen from 0.1 to 1000 by efficient
        leave-one-out. The layer is then fitted on what it leaves (its
        residuals; ``context_targets_`` holds them), and ``predict`` adds the
        two: one smooth function of each feature, and the attention for what
        they miss, such as interactions. ``tol`` stays relative to the loss of
        predicting the mean of ``y``, so that on residuals that are noise the
        layer stops at once. Its penalty is chosen by
        leave-one-out over the rows, with the weights counted relative to their
        mean, so there integer sample weights are not repeated rows.

    fit_intercept : bool, default=True
        Center features and targets by their (weighted) means. If False, the
        data are assumed centered.

    extrapolation : {"clip", "radius", "range", "targets", "continue"}, default="clip"
        ``"clip"``: a query farther from the training rows' mean than any
        training row (Mahalanobis distance, ``data_radius_``) is pulled back to
        that distance for its scores; the linear limit and a skip term
        extrapolate linearly. ``"radius"``: pulled back so for every part.
        ``"range"``: first, each feature is clipped to ``[data_min_, data_max_]``
        widened by half its width on each side, for every part. ``"targets"``:
        as ``"clip"``, and every prediction is then clipped to the training
        targets' range, ``[target_min_, target_max_]``, within which a softmax
        average of the targets stays: the linear part extrapolates a trend,
        but not past the targets seen. ``"continue"``: no clipping.

    warm_start : bool, default=False
        Start from the parameters of the previous fit instead of initializing.

    random_state : int, RandomState instance or None, default=None
        Seeds the random initialization, the context subsample, the minibatch
        order and the validation split. Pass an int for reproducible fits.

    verbose : int, default=0
        Print the objective at every iteration.

    Attributes
    ----------
    key_query_ : ndarray of shape (n_features, n_features)
        Key-query matrix ``K``, acting on the tokens of ``attention_tokens``
        (features centered by ``x_offset_``; zero at the linear limit).

    value_ : ndarray of shape (n_targets, n_features)
        Value matrix ``V`` (always 2-D), acting on the tokens of
        ``attention_tokens``.

    target_value_ : ndarray of shape (n_targets, n_targets) or None
        The matrix ``U`` of the tokens' targets, with ``target_tokens=True``.

    skip_coef_ : ndarray of shape (n_features,) or (n_targets, n_features) or None
        The skip term's ``S``, with ``linear_skip=True``.

    attention_scale_ : float
        The fitted sharpness: the Frobenius norm of ``key_query_`` in whitened
        coordinates (``attention_scale`` itself with ``renormalize=True``; 0
        at the linear limit).

    context_ : ndarray of shape (n_context, n_features)
        The raw context rows attended by every prediction.

    context_targets_ : ndarray of shape (n_context, n_targets) or None
        The targets of the context rows (always 2-D), with ``target_tokens=True``.

    context_weight_ : ndarray of shape (n_context,)
        Multiplicity of each context row (its sample weight; ones without), in
        float64.

    data_radius_ : float
        The largest Mahalanobis distance of a training row from
        ``x_offset_``: where ``extrapolation`` pulls farther rows back to.

    data_min_, data_max_ : ndarray of shape (n_features,)
        Each feature's smallest and largest training value (rows of positive
        weight), which ``extrapolation="range"`` reads.

    target_min_, target_max_ : float or ndarray of shape (n_targets,)
        Each target's smallest and largest training value (rows of positive
        weight), to which ``extrapolation="targets"`` clips the predictions.

    x_offset_ : ndarray of shape (n_features,)
        Weighted feature means of the context rows (zeros if
        ``fit_intercept=False``).

    y_offset_ : ndarray of shape (n_targets,)
        Weighted target means (zeros if ``fit_intercept=False``).

    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
        The infinite-data linear limit ``V Σ̂ Kᵀ`` of the model (with target
        tokens ``(V Σ̂ + U Σ̂_yx) Kᵀ``, plus ``skip_coef_``; ``skip_coef_`` alone
        with ``score_features="ranks"``): compare with
        ``LinearRegression().coef_``.

    intercept_ : float or ndarray of shape (n_targets,)
        Intercept of that linear limit.

    n_iter_ : int
        Number of iterations run by the last ``fit`` (or the number of
        ``partial_fit`` calls since the first); 1 at the linear limit.

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
    SoftmaxAttentionRegressorCV : The sharpness and the iteration count chosen
        by cross-validation.
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
    locally weighted smoother. The paper leaves open, and this package
    chooses (see the :doc:`model page <../user_guide/model>`), the covariance
    floor, the form and scaling of the regularizer, the block step sizes, the
    random initialization's scale and the stopping rule.

    Training queries are the training rows themselves, each excluded from its
    own context, so the training loss measures what ``predict`` does on unseen
    points. A sample weight ``w_j`` counts a token ``w_j`` times in every
    softmax (and ``w_j - 1`` times in its own query's), so with integer weights
    the objective is that of the repeated rows. ``"gd"`` then takes the same
    steps, and the two fits agree to round-off (1e-14 relative after 200
    iterations on 40 rows). L-BFGS's line search amplifies round-off: the two
    fits agree for a few iterations and then part (1e-8 relative after 40
    iterations, 0.3 after 100, on the same rows), as a fit on rows perturbed
    by 1e-15 does: equivalent problems, not equal iterates. Local attention
    (``n_neighbors``) counts a repeated row once per copy among a query's
    neighbors, a weighted row once. Weights are kept in float64 whatever the
    data's dtype; a row whose weight relative to the largest is below the
    dtype's range takes no part, as a zero weight.

    The compiled kernel runs on as many threads as scikit-learn's OpenMP
    estimators (such as ``HistGradientBoostingRegressor``) would: all cores,
    unless limited by ``OMP_NUM_THREADS``,
    :func:`threadpoolctl.threadpool_limits` or a joblib worker; results do not
    depend on the number. With scikit-learn 1.9 or later, ``set_callbacks``
    attaches the callbacks of :mod:`sklearn.callback` to ``fit``, each solver
    iteration being one of its tasks.

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
        "balance_strength": [Interval(Real, 0, None, closed="left")],
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
        "context_neighbors": [Interval(Integral, 1, None, closed="left"), None],
        "linear_skip": ["boolean"],
        "score_features": [StrOptions({"features", "ranks"})],
        "additive_base": ["boolean"],
        "fit_intercept": ["boolean"],
        "extrapolation": [StrOptions({"clip", "radius", "range", "targets", "continue"})],
        "warm_start": ["boolean"],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        attention_scale=0.03,
        *,
        init="spectral",
        preconditioner="covariance",
        regularization="balance",
        balance_strength=1.0,
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
        context_neighbors=None,
        linear_skip=False,
        score_features="features",
        additive_base=False,
        fit_intercept=True,
        extrapolation="clip",
        warm_start=False,
        random_state=None,
        verbose=0,
    ):
        self.attention_scale = attention_scale
        self.init = init
        self.preconditioner = preconditioner
        self.regularization = regularization
        self.balance_strength = balance_strength
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
        self.context_neighbors = context_neighbors
        self.linear_skip = linear_skip
        self.score_features = score_features
        self.additive_base = additive_base
        self.fit_intercept = fit_intercept
        self.extrapolation = extrapolation
        self.warm_start = warm_start
        self.random_state = random_state
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
        params = self.get_params()
        check_layer_params(params)
        X, Y, sample_weight, y_ndim = self._check_training_data(
            X, y, sample_weight, reset=True
        )
        rng = check_random_state(self.random_state)
        validation = None
        if self.early_stopping and self.attention_scale > 0:
            X, Y, sample_weight, validation = self._validation_split(X, Y, sample_weight, rng)
        problem = build_problem(X, Y, sample_weight, params, rng)
        if self.attention_scale == 0:
            # The linear limit, in closed form: one pass over the data, no iterations.
            layer = fitted_layer(*linear_limit(problem, params), problem, y_ndim, linear=True)
            self.n_iter_, self.loss_curve_ = 1, []
            self.validation_scores_ = self.best_validation_score_ = None
        else:
            if self.warm_start and np.any(getattr(self, "key_query_", 0)):
                # With renormalize=True the solver first rescales them to attention_scale.
                K, V = self._stored_params("warm_start")
            else:
                K, V = initial_params(problem, params, rng)
            keep_curve = self.warm_start and hasattr(self, "loss_curve_")
            K, V, progress, converged, self._optimizer = solve(
                problem, K, V, params, rng,
                max_iter=self.max_iter,
                loss_curve=self.loss_curve_ if keep_curve else [],
                validation=validation,
                on_iteration=iteration_hook(task, problem, y_ndim),
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
            layer = fitted_layer(K, V, problem, y_ndim)
            self.n_iter_ = progress.n_iter
            self.loss_curve_ = progress.loss_curve
            self.validation_scores_ = (progress.validation_scores if self.early_stopping
                                       else None)
            self.best_validation_score_ = (
                progress.best_validation_score if self.early_stopping else None
            )
        if self.context_neighbors is not None:
            every_row = every_row_context(layer, problem.X, problem.given_Y, problem.weight,
                                          self.context_neighbors)
            layer = layer if every_row is None else every_row
        self._store(layer)
        task.end({})  # the model is self
        return self

    def _validation_split(self, X, Y, sample_weight, rng):
        """Training rows and the validation rows ``(X, Y, sample_weight)`` of early
        stopping."""
        train, val = holdout_split(X.shape[0], self.validation_fraction, rng)
        if len(train) < 2:
            raise ValueError(
                f"early_stopping with validation_fraction={self.validation_fraction} "
                f"leaves {len(train)} of n_samples={X.shape[0]} for training; "
                "at least 2 are needed. Use more samples or early_stopping=False."
            )
        return (X[train], Y[train], sample_weight[train],
                (X[val], Y[val], sample_weight[val]))

    def _stored_params(self, how):
        """The fitted raw ``(K, V)`` to continue from (``V`` with ``U``'s columns), after
        checking that the layer they belong to is this one's (``how``: the reason)."""
        fitted = {}  # what the fit recorded (parameters set by hand record nothing)
        if hasattr(self, "target_value_"):
            fitted["target_tokens"] = self.target_value_ is not None
        if hasattr(self, "_attention_scores"):
            fitted["attention_scores"] = self._attention_scores
        if hasattr(self, "skip_coef_"):
            fitted["linear_skip"] = self.skip_coef_ is not None
        if hasattr(self, "_score_map"):
            fitted["score_features"] = "features" if self._score_map is None else "ranks"
        for name, value in fitted.items():
            if getattr(self, name) != value:
                raise ValueError(f"{how} continues a layer fitted with {name}={value!r}, "
                                 f"not {getattr(self, name)!r}; set {name}={value!r} or "
                                 "fit afresh.")
        if self.attention_scores == "distance":
            check_metric(self.key_query_, "key_query_")
        parts = [getattr(self, name, None) for name in ("target_value_", "skip_coef_")]
        return self.key_query_, np.hstack([self.value_, *(np.atleast_2d(part) for part in parts
                                                          if part is not None)])

    def _has_iterations(self):
        if self.attention_scale == 0:
            raise AttributeError("partial_fit is only available for attention_scale > 0: "
                                 "attention_scale=0 is the layer's linear limit, which fit "
                                 "computes in closed form.")
        if self.linear_skip or self.score_features != "features" or self.additive_base:
            raise AttributeError("partial_fit is only available without linear_skip and "
                                 "additive_base, and with score_features='features': those "
                                 "fit the features' representation, the linear term and "
                                 "the additive model on the first batch.")
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
        context. So the first batch should be representative and hold at
        least ``max_context`` rows. ``early_stopping``, ``warm_start`` and
        ``context_neighbors`` are ignored; no ``ConvergenceWarning`` is raised.

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
        params = self.get_params()
        if first:
            check_layer_params({**params, "context_neighbors": None})
        X, Y, sample_weight, y_ndim = self._check_training_data(
            X, y, sample_weight, reset=first
        )
        rng = check_random_state(self.random_state)
        if first:
            problem = build_problem(X, Y, sample_weight, params, rng)
            K, V = initial_params(problem, params, rng)
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
            check_spread(X - self.x_offset_, "X")
            # Batch rows are new queries: none is a context token, nor counted
            # in the offsets, so none leaves them.
            problem = build_problem(
                X, Y, sample_weight, params, rng,
                context=(self.context_, self.context_weight_, self.context_targets_),
                stored=(self.x_offset_, self.y_offset_, self._covariance),
                radius=self.data_radius_, data_range=(self.data_min_, self.data_max_),
                target_range=(self.target_min_, self.target_max_),
            )
        K, V, progress, _, self._optimizer = solve(
            problem, K, V, params, rng,
            max_iter=1, loss_curve=[] if first else self.loss_curve_,
            optimizer=None if first else getattr(self, "_optimizer", None),
        )
        self._store(fitted_layer(K, V, problem, y_ndim))
        self.n_iter_ = 1 if first else self.n_iter_ + 1
        self.loss_curve_ = progress.loss_curve
        self.validation_scores_ = self.best_validation_score_ = None
        return self
