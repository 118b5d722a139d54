"""Solvers: structure-aware gradient descent, L-BFGS, minibatch SGD and Adam.

Each solver takes an objective ``f(K, V, rows=None) -> (value, grad_K, grad_V)``,
a starting point, a ``project`` (a :class:`~sklearn_softattn._geometry.Renormalization`:
called on ``(K, V)`` after every step) and a :class:`Progress` that records
the loss curve and decides when to stop. They return the final ``(K, V)``.
"""

import numpy as np
from scipy.linalg import lapack
from scipy.optimize import minimize

# A step that does not decrease the objective is halved, at most this often in a row.
MAX_HALVINGS = 40
# gd doubles its step after this many consecutive steps taken without a halving.
GROW_AFTER = 10


def descent_slack(dtype):
    """Relative slack of gd's descent test, so that round-off alone never rejects a step.

    1e-12 in float64; in float32, 4 machine epsilons: the float32
    objective's relative error (against float64, at the same parameters) was
    measured up to 6e-8, half an epsilon, and a slack of 1e-12 there made gd
    halve its step on noise until, after 40 halvings, it stopped as if at a
    stationary point (n = 2000, d = 20, one target).
    """
    return max(1e-12, 4 * float(np.finfo(dtype).eps))


class Progress:
    """Loss curve, validation scores and the stopping rule (MLPRegressor's).

    Training stops when, for ``n_iter_no_change`` consecutive iterations, the
    training objective has not fallen by ``tol * tol_scale`` below its best
    value or, with a validation score, that score has not risen by ``tol``
    above its best. The best parameters under validation are kept.
    ``loss_scale`` is the loss of predicting the mean of the targets the solver fits,
    in which it measures its steps; ``tol_scale`` (default: ``loss_scale``) that of
    the targets as given, larger where an additive base has fitted part of them.
    ``on_iteration(K, V)``, if given, reports each iteration to the
    callbacks; when it returns True, training stops too.
    """

    def __init__(self, tol, n_iter_no_change, loss_scale, validation_score=None,
                 verbose=0, loss_curve=None, on_iteration=None, tol_scale=None):
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.loss_scale = loss_scale
        self.tol_scale = loss_scale if tol_scale is None else tol_scale
        self.validation_score = validation_score
        self.verbose = verbose
        self.loss_curve = [] if loss_curve is None else loss_curve
        self.on_iteration = on_iteration
        self.validation_scores = []
        self.best_loss = np.inf
        self.best_validation_score = -np.inf
        self.best_params = None
        self.n_iter = 0
        self._no_improvement = 0

    def update(self, loss, K, V):
        """Record one iteration; return True when training should stop."""
        self.n_iter += 1
        self.loss_curve.append(loss)
        if self.verbose:
            print(f"Iteration {self.n_iter}, loss = {loss:.8g}")
        if self.validation_score is not None:
            score = self.validation_score(K, V)
            self.validation_scores.append(score)
            if self.verbose:
                print(f"Validation score: {score:.6f}")
            improved = score >= self.best_validation_score + self.tol
            if score > self.best_validation_score:
                self.best_validation_score = score
                self.best_params = (K.copy(), V.copy())
        else:
            improved = loss <= self.best_loss - self.tol * self.tol_scale
            self.best_loss = min(self.best_loss, loss)
        self._no_improvement = 0 if improved else self._no_improvement + 1
        stop = self.on_iteration is not None and self.on_iteration(K, V)
        return stop or self._no_improvement >= self.n_iter_no_change

    def objective_changed(self, loss):
        """The objective changed between iterations (local attention searched its
        neighbors anew): its best value so far is ``loss``, the new objective's at
        the current point, since the old values belong to another function."""
        self.best_loss = loss

    def stationary(self, decrease):
        """Whether a point is converged to first order: ``n_iter_no_change``
        steps that each decrease the objective by ``decrease`` (see
        :func:`predicted_decrease`) would not improve it by ``tol * tol_scale``,
        the improvement the stopping rule asks for."""
        return self.n_iter_no_change * decrease <= self.tol * self.tol_scale


def predicted_decrease(K, V, grad_K, grad_V, project, loss_scale):
    """The decrease of the objective that one full block step predicts, to first order.

    The step is gd's with ``learning_rate=1``, along the gradient of the
    renormalized parametrization (``project.tangent``)::

        ||tangent(grad_K)||² / ||V||₂² + ||grad_V||² / ||K||₂²

    Like the step, it is invariant to the rescaling ``(K / c, c V)`` of the
    start (the point is renormalized), and it scales as the loss does with
    ``y``, so it compares with ``tol`` times the loss of predicting the mean.
    It is zero exactly at a stationary point of the renormalized problem.
    ``loss_scale`` is the loss of predicting the mean (see :func:`block_scales`).
    """
    tangent_K = project.tangent(K, grad_K)
    k_scale, v_scale = block_scales(K, V, project.metric, loss_scale, project.n_skip)
    return float(np.vdot(tangent_K, tangent_K) * k_scale
                 + np.vdot(grad_V, grad_V * v_scale))


def block_scales(K, V, metric=False, loss_scale=1.0, n_skip=0):
    """The scales of gd's block steps: ``1 / ||V||₂²`` for ``K`` and ``1 / ||K||₂²``
    for ``V`` (0 while the other block is zero, see :func:`_inverse_square_norm`).

    For a metric ``L`` (distance scores, ``K = LᵀL``; ``metric=True``, ``K`` is
    then ``L``): ``1 / (4 ||V||₂² ||L||₂²)`` and ``1 / ||L||₂⁴``, which move
    ``LᵀL`` as the bilinear steps move ``K``, to first order, and are invariant
    to the rescaling ``(L / √c, c V)``.

    With target tokens ``V = [V_x, U]`` has more columns than ``K`` has rows: the
    norm of ``V`` in ``K``'s scale is that of ``[V_x, σ U]``, ``σ`` the targets' root
    mean square per output, and the scale of ``V`` is one per column: ``V_x``'s as
    above and, for ``U``, the
    larger of that and 1, times ``q / (2 loss_scale)``, the inverse variance of
    one target (the loss of predicting the mean, ``loss_scale``, is half the
    targets' total variance). ``U`` acts on the targets where ``V_x`` acts on
    whitened features, so its curvature is ``V_x``'s times that variance: ``U``'s
    term ``Σ_j A_ij (y_j − ȳ)`` is linear in ``K`` at flat scales, as ``V_x``'s
    is, and at sharp scales a smoother of the targets whose size no longer
    follows ``K``'s (``1 / ||K||₂²`` alone there made ``U`` hardly move from its
    start). Every scale then moves the parameters in the units of ``y``, so that
    scaling ``y`` scales the iterates and nothing else.

    A skip term's ``n_skip`` columns (``V``'s last) act on the query's features, not
    through the softmax: their scale is 1, the inverse curvature of a linear term
    in whitened features, and they take no part in ``K``'s.
    """
    d, q = K.shape[0], V.shape[0]
    attention = V[:, :V.shape[1] - n_skip]
    # The targets' root mean square per output, the unit of U's columns against V_x's.
    target_scale = np.sqrt(2 * loss_scale / q) if loss_scale > 0 else 1.0
    values = (attention if attention.shape[1] == d else
              np.hstack([attention[:, :d], attention[:, d:] * target_scale]))
    if not metric:
        k_scale, v_scale = _inverse_square_norm(values), _inverse_square_norm(K)
    else:
        inverse_l = _inverse_square_norm(K)
        k_scale, v_scale = _inverse_square_norm(values) * inverse_l / 4, inverse_l**2
    if V.shape[1] == d:
        return k_scale, v_scale
    u_scale = max(v_scale, 1.0) / target_scale**2
    return k_scale, np.concatenate([np.full(d, v_scale, V.dtype),
                                    np.full(attention.shape[1] - d, u_scale, V.dtype),
                                    np.ones(n_skip, V.dtype)])


def _diverged(what):
    # A ValueError, as scikit-learn's own SGD and MLP estimators raise when
    # training cannot go on: the fix is in the parameters or the data.
    return ValueError(
        f"The training objective {what}. Lower learning_rate, keep "
        "renormalize=True or standardize the features."
    )


def _not_finite_at_start():
    # The start is scaled to the data with the preconditioner (and the spectral start
    # always); a random start in raw units is not, and overflows on large features.
    return ValueError(
        "The training objective is not finite at the initial point: its predictions "
        "overflow. Standardize the features (StandardScaler), or keep "
        "preconditioner='covariance', which scales the start of init='random' to them."
    )


def gd(objective, K, V, *, learning_rate, max_iter, project, progress):
    """Structure-aware full-batch gradient descent (the paper's Algorithm 1).

    Block steps invariant to the rescaling ``(K / c, c V)``::

        V <- V - eta * grad_V / ||K||₂²,   K <- K - eta * grad_K / ||V||₂²

    followed by ``project``. A step that increases the objective (or makes it
    non-finite) is halved until it does not; after ``GROW_AFTER`` consecutive
    steps taken without a halving, ``eta`` doubles, so that a halving forced
    early on does not slow down the rest of the run. Every step decreases the
    objective, and the rule is invariant to the rescaling, as it looks at
    objective values only. On the paper's setting and on ``make_friedman1``
    it reached the objective where the halve-only rule stopped with up to 40%
    fewer passes, never more; with the default ``tol`` it sometimes runs a
    few more iterations, to a lower objective. The start is projected
    first, so that every step is compared with a point of the same sharpness.

    Training stops at once, after one iteration that takes no step, when
    the start is already converged to first order
    (:meth:`Progress.stationary` of :func:`predicted_decrease`): a warm
    start from a converged point costs one pass over the data, not
    ``n_iter_no_change`` iterations. The test is not applied after the
    steps: there, on a plateau of the sharper points of a warm-started
    path, it stopped gd where the stopping rule went on to a clearly lower
    objective.

    Before each step the objective may change (:func:`_refreshed`: local
    attention searched its neighbors anew); gd then evaluates its point again,
    so that every step is compared within one function.

    Returns
    -------
    K, V : ndarrays
        The final iterate.
    converged : bool
        False if ``max_iter`` was reached before the stopping rule fired.
    """
    K, V = project(K, V)
    value, grad_K, grad_V = objective(K, V)
    if not np.isfinite(value):
        raise _not_finite_at_start()
    eta, streak, slack = learning_rate, 0, descent_slack(objective.Z.dtype)
    if progress.stationary(eta * predicted_decrease(K, V, grad_K, grad_V, project,
                                                    progress.loss_scale)):
        progress.update(value, K, V)
        return K, V, True
    for _ in range(max_iter):
        if (new := _refreshed(objective, K, V, progress)) is not None:
            value, grad_K, grad_V = new
        k_scale, v_scale = block_scales(K, V, project.metric, progress.loss_scale,
                                        project.n_skip)
        for halvings in range(MAX_HALVINGS):
            K_new, V_new = project(K - eta * k_scale * grad_K, V - eta * v_scale * grad_V)
            new = objective(K_new, V_new)
            if np.isfinite(new[0]) and new[0] <= value + slack * abs(value):
                break
            eta /= 2
        else:
            # No step decreases the objective: a stationary point to machine precision.
            return K, V, True
        streak = 0 if halvings else streak + 1
        if streak == GROW_AFTER:
            eta, streak = 2 * eta, 0
        K, V = K_new, V_new
        value, grad_K, grad_V = new
        if progress.update(value, K, V):
            return K, V, True
    return K, V, False


def _refreshed(objective, K, V, progress):
    """Between iterations, let ``objective`` change
    (:meth:`~._objective.Objective.refresh`); if it did, return its value and
    gradients at ``(K, V)``, after telling ``progress``."""
    if not objective.refresh(K, V):
        return None
    new = objective(K, V)
    progress.objective_changed(new[0])
    return new


def lbfgs(objective, K, V, *, max_iter, project, progress):
    """L-BFGS (scipy's L-BFGS-B, without bounds) on the renormalized parametrization.

    The variables are ``(K̃, Ṽ)``, with ``K = project.onto(c_K K̃)`` (so the
    renormalization holds exactly at every point evaluated, and the
    objective is smooth in ``K̃``) and ``V = c_V Ṽ`` free. The constants
    ``c_K = √L₀ / ||V₀||₂`` and ``c_V = √L₀ / ||K₀||₂`` of the start (the
    square roots of ``L₀`` times :func:`block_scales`; with target tokens
    ``c_V`` is one per column of ``V``) make a
    unit gradient step in these variables gd's full block step, and the
    variables and the objective (divided by ``L₀``, the loss of predicting
    the mean) free of the units of ``y``. One iteration is one L-BFGS
    iteration, whose line search may take more than one pass over the data.

    Stopping is gd's: the rule of ``progress`` and the first-order test
    (:meth:`Progress.stationary`), checked at the start and after every
    iteration; scipy's own tolerances are off. The test's decrease is that
    of a unit gradient step in these variables, ``L₀ ||∇F||²``: at the start
    exactly :func:`predicted_decrease`, and no singular values to compute. A
    line search that finds no decrease ends training as converged: the
    point is stationary to machine precision. When the objective changes after
    an iteration (:func:`_refreshed`), scipy starts afresh from that point: its
    curvature memory and line search belong to the old function (kept, they
    stopped it in a failed line search). Run it with BLAS on one thread
    (as :func:`~sklearn_softattn._estimator.solve` does): its products are
    over a few hundred variables.

    Returns
    -------
    K, V : ndarrays
        The final iterate.
    converged : bool
        False if ``max_iter`` was reached before the stopping rule fired.
    """
    shape_K, shape_V, dtype = K.shape, V.shape, K.dtype
    K, V = project(K, V)
    loss_unit = progress.loss_scale if progress.loss_scale > 0 else 1.0
    # The square roots of L₀ times the block scales, each 1 where its scale is 0.
    k_scale, v_scale = block_scales(K, V, project.metric, progress.loss_scale,
                                    project.n_skip)
    c_K = np.sqrt(loss_unit * k_scale) or np.sqrt(loss_unit)
    c_V = np.sqrt(loss_unit * np.where(v_scale > 0, v_scale, 1.0))

    K_size = K.size
    x0 = np.concatenate([K.ravel() / c_K, (V / c_V).ravel()]).astype(np.float64)

    def parameters(x):
        """``(K, V)`` at the variables ``x``, and the renormalization's factor."""
        K, factor = project.onto(c_K * x[:K_size].reshape(shape_K).astype(dtype, copy=False))
        return K, (c_V * x[K_size:].reshape(shape_V)).astype(dtype, copy=False), factor
    last = {}  # the latest evaluation: scipy asks again for the start, and the
    # callback reads the gradient at each new iterate from it

    def evaluate(x):
        if "x" not in last or not np.array_equal(x, last["x"]):
            K, V, factor = parameters(x)
            value, grad_K, grad_V = objective(K, V)
            # float64 whatever the data: scipy < 1.11 takes no other
            grad = np.concatenate([(c_K * factor) * project.tangent(K, grad_K).ravel(),
                                   (c_V * grad_V).ravel()], dtype=np.float64) / loss_unit
            if not (np.isfinite(value) and np.all(np.isfinite(grad))):
                # Beyond the line search's reach (an overflow): it steps back.
                value, grad = np.inf, np.zeros_like(x)
            last.update(x=x.copy(), K=K, V=V, value=value, grad_K=grad_K, grad_V=grad_V,
                        scaled=(float(value) / loss_unit, grad))
        return last["scaled"]

    def stationary():
        grad = last["scaled"][1]
        return progress.stationary(loss_unit * np.vdot(grad, grad))

    evaluate(x0)
    K, V, value = last["K"], last["V"], last["value"]
    if not np.isfinite(value):
        raise _not_finite_at_start()
    if stationary():
        progress.update(value, K, V)
        return K, V, True
    state = dict(K=K, V=V, x=x0, stopped=False, refreshed=False)

    def callback(x):
        evaluate(x)  # the line search's last evaluation: no new pass
        state.update(K=last["K"], V=last["V"], x=last["x"])
        if progress.update(last["value"], last["K"], last["V"]) or stationary():
            state["stopped"] = True
            raise StopIteration
        if objective.refresh(last["K"], last["V"]):
            # A new objective: the curvature memory and the line search's values are
            # the old one's, so scipy starts afresh from this point.
            state["refreshed"] = True
            last.clear()
            evaluate(x)
            progress.objective_changed(last["value"])
            raise StopIteration

    reached_max_iter = False
    while not state["stopped"] and progress.n_iter < max_iter:
        state["refreshed"] = False
        try:
            result = minimize(evaluate, state["x"], jac=True, method="L-BFGS-B",
                              callback=callback,
                              options=dict(maxiter=max_iter - progress.n_iter, ftol=0.0,
                                           gtol=0.0))
            reached_max_iter = result.status == 1
        except StopIteration:  # scipy < 1.11 lets it through
            reached_max_iter = False
        if not state["refreshed"]:
            break
    if progress.n_iter == 0:  # no step decreased the objective: stationary
        progress.update(value, K, V)
    return (state["K"], state["V"],
            state["stopped"] or not (reached_max_iter or progress.n_iter >= max_iter))


def _inverse_square_norm(other):
    """``1 / ||other||₂²``, the scale of the other block's step, or 0 while
    ``other`` is zero (then this block's gradient is zero too, up to
    round-off, and no step is meaningful)."""
    norm = _spectral_norm(other)
    return 1 / norm**2 if norm > 0 else 0.0


def _spectral_norm(X):
    """``||X||₂``, the largest singular value, from LAPACK's ``gesdd`` through scipy.

    numpy's ``svd`` runs the same routine behind its checks and a ufunc's
    machinery, which between two kernel calls took about twice as long: the
    two norms of one gd iteration at d = 6, one target, cost 24 µs through
    numpy against 9 µs (the same values in float64; in float32 they may
    differ in the last bit). Raises ``LinAlgError`` where numpy's would.
    """
    singular_values, info = lapack.get_lapack_funcs("gesdd", (X,))(X, compute_uv=0)[1::2]
    if info:
        raise np.linalg.LinAlgError("SVD did not converge")
    return singular_values[0]


class SGD:
    """Plain gradient steps with a constant learning rate."""

    def __init__(self, learning_rate):
        self.learning_rate = learning_rate

    def step(self, K, V, grad_K, grad_V):
        return K - self.learning_rate * grad_K, V - self.learning_rate * grad_V

    def halved(self):
        """A fresh optimizer with half the learning rate."""
        return type(self)(self.learning_rate / 2)


class Adam(SGD):
    """Adam (Kingma & Ba, 2015) with MLPRegressor's default constants.

    Its moment estimates live on the object, so that ``partial_fit`` can carry
    them from one call to the next.
    """

    beta_1, beta_2, epsilon = 0.9, 0.999, 1e-8

    def __init__(self, learning_rate):
        super().__init__(learning_rate)
        self.t = 0
        self.moments = None  # first moments of K, V, then second moments

    def step(self, K, V, grad_K, grad_V):
        self.t += 1
        if self.moments is None:
            self.moments = [np.zeros_like(p) for p in (K, V, K, V)]
        b1, b2 = self.beta_1, self.beta_2
        lr = self.learning_rate * np.sqrt(1 - b2**self.t) / (1 - b1**self.t)
        new = []
        for i, (p, g) in enumerate(((K, grad_K), (V, grad_V))):
            m, v = self.moments[i], self.moments[i + 2]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            new.append(p - lr * m / (np.sqrt(v) + self.epsilon))
        return tuple(new)


OPTIMIZERS = {"sgd": SGD, "adam": Adam}


def minibatch(objective, K, V, *, optimizer, batch_size, max_iter, project, progress,
              random_state):
    """Minibatch SGD or Adam on plain gradients; one iteration is one epoch.

    Each epoch visits the queries in a random order, in batches of
    ``batch_size``, each attending over the whole context. The objective is
    then evaluated on all queries (this is the loss curve). An epoch that
    leaves it non-finite, or above twice the lowest value so far, is undone
    and retried with half the learning rate: plain gradient steps have no
    scale of their own, and this stops a divergence before it overflows.

    Returns
    -------
    K, V : ndarrays
        The final iterate.
    converged : bool
        False if ``max_iter`` was reached before the stopping rule fired.
    optimizer : SGD or Adam
        The optimizer as it ends (its state and, if halved, its learning rate).
    """
    n = objective.Z.shape[0]
    K, V = project(K, V)
    best = objective(K, V)[0]
    if not np.isfinite(best):
        raise _not_finite_at_start()
    for _ in range(max_iter):
        if (new := _refreshed(objective, K, V, progress)) is not None:
            best = new[0]
        for _ in range(MAX_HALVINGS):
            K_epoch, V_epoch = K, V
            order = random_state.permutation(n)
            with np.errstate(over="ignore", invalid="ignore"):
                for start in range(0, n, batch_size):
                    _, grad_K, grad_V = objective(K_epoch, V_epoch, order[start : start + batch_size])
                    K_epoch, V_epoch = project(*optimizer.step(K_epoch, V_epoch, grad_K, grad_V))
                value = objective(K_epoch, V_epoch)[0]
            if value <= 2 * best:  # False for NaN too
                break
            optimizer = optimizer.halved()  # also restarts Adam's moments
        else:
            raise _diverged(f"kept increasing after halving the learning rate {MAX_HALVINGS} times")
        K, V = K_epoch, V_epoch
        best = min(best, value)
        if progress.update(value, K, V):
            return K, V, True, optimizer
    return K, V, False, optimizer
