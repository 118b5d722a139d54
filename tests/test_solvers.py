import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from sklearn_softattn import SoftmaxAttentionRegressor
from sklearn_softattn._geometry import Renormalization
from sklearn_softattn._solvers import (
    OPTIMIZERS,
    Adam,
    Progress,
    _spectral_norm,
    descent_slack,
    gd,
    lbfgs,
    minibatch,
    predicted_decrease,
)
from sklearn_softattn.datasets import make_gaussian_regression


class Quadratic:
    """f(K, V) = 1 + ½||K - A||² + ½||V - B||², with a minibatch interface."""

    def __init__(self, scale=1.0, n=10):
        rng = np.random.default_rng(0)
        self.A, self.B = rng.standard_normal((2, 2)), rng.standard_normal((1, 2))
        self.scale = scale
        self.Z = np.zeros((n, 2))
        self.weight = np.ones(n)
        self.calls = 0

    def __call__(self, K, V, rows=None):
        self.calls += 1
        dK, dV = K - self.A, V - self.B
        s = self.scale
        return s * (1 + 0.5 * (np.sum(dK**2) + np.sum(dV**2))), s * dK, s * dV

    def refresh(self, K, V):
        """The objective never changes between iterations."""
        return False


class MovingQuadratic(Quadratic):
    """A Quadratic whose minimizer moves once, when the solver asks between
    iterations after ``after`` refresh calls (as local attention's neighbors do)."""

    def __init__(self, after):
        super().__init__()
        self.after, self.refreshes = after, 0

    def refresh(self, K, V):
        self.refreshes += 1
        if self.refreshes == self.after:
            self.A, self.B = self.A + 1, self.B - 1
            return True
        return False


identity = Renormalization()  # no renormalization


def test_gd_descends_and_stops():
    f = Quadratic()
    progress = Progress(tol=1e-8, n_iter_no_change=3, loss_scale=1.0)
    K, V, converged = gd(f, np.eye(2), np.ones((1, 2)), learning_rate=0.5, max_iter=500,
                         project=identity, progress=progress)
    assert converged
    assert np.all(np.diff(progress.loss_curve) <= 1e-12 * np.abs(progress.loss_curve[:-1]))
    np.testing.assert_allclose(K, f.A, atol=1e-3)
    np.testing.assert_allclose(V, f.B, atol=1e-3)


def test_gd_halves_a_step_that_would_increase_the_objective():
    f = Quadratic(scale=1e4)  # the step of 0.5 / ||·||² is far too long here
    progress = Progress(tol=0.0, n_iter_no_change=1000, loss_scale=1.0)
    _, _, converged = gd(f, np.eye(2), np.ones((1, 2)), learning_rate=0.5, max_iter=20,
                         project=identity, progress=progress)
    curve = np.array(progress.loss_curve)
    assert np.all(np.isfinite(curve))
    assert np.all(np.diff(curve) <= 1e-12 * curve[:-1])
    assert curve[-1] < f(np.eye(2), np.ones((1, 2)))[0]


def test_gd_grows_a_step_that_is_too_short():
    f = Quadratic()
    progress = Progress(tol=0.0, n_iter_no_change=1000, loss_scale=1.0)
    K, V, _ = gd(f, np.eye(2), np.ones((1, 2)), learning_rate=1e-3, max_iter=150,
                 project=identity, progress=progress)
    # 150 steps of 1e-3 / ||·||² would cover a few percent of the way; doubling
    # after every 10 clean steps gets there.
    np.testing.assert_allclose(K, f.A, atol=1e-6)
    curve = np.array(progress.loss_curve)
    assert np.all(np.diff(curve) <= 1e-12 * curve[:-1])


def test_gd_rejects_non_finite_start():
    f = Quadratic()
    with pytest.raises(ValueError, match="not finite"):
        gd(f, np.full((2, 2), np.inf), np.ones((1, 2)), learning_rate=0.5, max_iter=5,
           project=identity, progress=Progress(0, 5, 1.0))


def test_progress_stops_after_n_iter_no_change():
    p = Progress(tol=0.1, n_iter_no_change=2, loss_scale=10.0)
    K = V = np.zeros(1)
    assert not p.update(10.0, K, V)
    assert not p.update(9.5, K, V)  # improvement 0.5 < tol * loss_scale = 1
    assert p.update(9.4, K, V)
    assert p.n_iter == 3 and p.loss_curve == [10.0, 9.5, 9.4]


def test_progress_stops_relative_to_its_tol_scale():
    p = Progress(tol=0.1, n_iter_no_change=1, loss_scale=1.0, tol_scale=10.0)
    K = V = np.zeros(1)
    assert not p.update(10.0, K, V)
    assert p.update(9.5, K, V)  # improvement 0.5 < tol * tol_scale = 1
    assert not p.stationary(1.5) and p.stationary(0.5)
    assert Progress(tol=0.1, n_iter_no_change=1, loss_scale=1.0).tol_scale == 1.0


def test_progress_keeps_best_validation_params():
    scores = iter([0.5, 0.8, 0.6])
    p = Progress(tol=0.0, n_iter_no_change=5, loss_scale=1.0,
                 validation_score=lambda K, V: next(scores))
    for i in range(3):
        p.update(1.0, np.full(1, i), np.full(1, i))
    assert p.best_validation_score == 0.8
    assert p.best_params[0][0] == 1 and p.validation_scores == [0.5, 0.8, 0.6]


@pytest.mark.parametrize("solver", ["sgd", "adam"])
def test_minibatch_solvers_converge(solver):
    f = Quadratic()
    progress = Progress(tol=0.0, n_iter_no_change=1000, loss_scale=1.0)
    K, V, _, _ = minibatch(f, np.eye(2), np.ones((1, 2)), optimizer=OPTIMIZERS[solver](0.05),
                           batch_size=3, max_iter=100, project=identity, progress=progress,
                           random_state=np.random.RandomState(0))
    assert f.calls == 1 + 100 * (4 + 1)  # start, then ceil(10 / 3) batches and the epoch loss
    np.testing.assert_allclose(K, f.A, atol=1e-2)


def test_minibatch_retries_a_diverging_epoch_with_a_smaller_step():
    f = Quadratic(scale=100.0)  # plain SGD with step 0.05 diverges (|1 - 5| > 1)
    progress = Progress(tol=0.0, n_iter_no_change=1000, loss_scale=1.0)
    K, V, _, optimizer = minibatch(
        f, np.eye(2), np.ones((1, 2)), optimizer=OPTIMIZERS["sgd"](0.05), batch_size=1,
        max_iter=60, project=identity, progress=progress, random_state=np.random.RandomState(0),
    )
    assert np.all(np.isfinite(progress.loss_curve))
    np.testing.assert_allclose(K, f.A, atol=1e-6)
    # Stable steps need 0.05 * 100 < 2: the rate was halved twice, and stays so.
    assert optimizer.learning_rate == 0.05 / 4


def test_minibatch_that_cannot_stop_diverging_raises_a_value_error():
    f = Quadratic(scale=1e300)  # every epoch overflows, whatever the halved step
    with pytest.raises(ValueError, match="kept increasing.*Lower learning_rate"):
        minibatch(f, np.eye(2), np.ones((1, 2)), optimizer=OPTIMIZERS["sgd"](1.0),
                  batch_size=5, max_iter=5, project=identity,
                  progress=Progress(0.0, 1000, 1.0), random_state=np.random.RandomState(0))


def test_progress_reports_each_iteration_and_stops_when_asked():
    seen = []
    p = Progress(tol=0.0, n_iter_no_change=1000, loss_scale=1.0,
                 on_iteration=lambda K, V: seen.append(K[0]) or len(seen) == 2)
    assert not p.update(1.0, np.full(1, 7.0), np.zeros(1))
    assert p.update(0.5, np.full(1, 8.0), np.zeros(1))
    assert seen == [7.0, 8.0]


def test_adam_keeps_its_moments_between_calls():
    f = Quadratic()
    adam = Adam(0.05)
    for _ in range(2):
        minibatch(f, np.eye(2), np.ones((1, 2)), optimizer=adam, batch_size=5, max_iter=3,
                  project=identity, progress=Progress(0.0, 1000, 1.0),
                  random_state=np.random.RandomState(0))
    assert adam.t == 2 * 3 * 2  # two calls of three epochs of two batches


def test_lbfgs_descends_and_converges():
    passes = {}
    for name, solver in (("gd", gd), ("lbfgs", lbfgs)):
        f = Quadratic()
        progress = Progress(tol=1e-10, n_iter_no_change=3, loss_scale=1.0)
        kwargs = dict(learning_rate=0.5) if name == "gd" else {}
        K, V, converged = solver(f, np.eye(2), np.ones((1, 2)), max_iter=500,
                                 project=identity, progress=progress, **kwargs)
        curve = np.array(progress.loss_curve)
        assert converged and np.all(np.isfinite(curve))
        assert np.all(np.diff(curve) <= 1e-12 * curve[:-1])
        np.testing.assert_allclose(K, f.A, atol=1e-4)
        np.testing.assert_allclose(V, f.B, atol=1e-4)
        passes[name] = f.calls
    assert passes["lbfgs"] < passes["gd"]


def test_lbfgs_stops_at_max_iter_without_converging():
    f = Quadratic()
    progress = Progress(tol=0.0, n_iter_no_change=1000, loss_scale=1.0)
    _, _, converged = lbfgs(f, np.eye(2), np.ones((1, 2)), max_iter=1, project=identity,
                            progress=progress)
    assert not converged and progress.n_iter == 1


@pytest.mark.parametrize("solver", ["gd", "lbfgs"])
def test_a_converged_start_stops_after_one_iteration_without_a_step(solver):
    f = Quadratic()
    progress = Progress(tol=1e-4, n_iter_no_change=10, loss_scale=1.0)
    kwargs = dict(learning_rate=1.0) if solver == "gd" else {}
    K0, V0 = f.A + 1e-6, f.B.copy()
    K, V, converged = {"gd": gd, "lbfgs": lbfgs}[solver](
        f, K0, V0, max_iter=100, project=identity, progress=progress, **kwargs)
    assert converged and progress.n_iter == 1 and f.calls == 1
    np.testing.assert_array_equal(K, K0)


def test_predicted_decrease_is_zero_at_a_stationary_point_and_scales_as_the_loss():
    f = Quadratic()
    _, gK, gV = f(f.A, f.B)
    assert predicted_decrease(f.A, f.B, gK, gV, identity, 1.0) == 0
    rng = np.random.default_rng(0)
    K, GK = rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    V, GV = rng.standard_normal((1, 3)), rng.standard_normal((1, 3))
    sphere = Renormalization(1.0)
    K, V = sphere(K, V)
    base = predicted_decrease(K, V, GK, GV, sphere, 1.0)
    # y scaled by a: V by a, the loss and grad_K by a², grad_V by a.
    a = 1e3
    np.testing.assert_allclose(predicted_decrease(K, a * V, a**2 * GK, a * GV, sphere, 1.0),
                               a**2 * base, rtol=1e-12)
    # Only the radial part of grad_K: no decrease on the sphere.
    assert predicted_decrease(K, V, 5.0 * K, 0 * GV, sphere, 1.0) < 1e-28


def test_progress_stationary_compares_n_iter_no_change_steps_with_tol():
    p = Progress(tol=1e-3, n_iter_no_change=10, loss_scale=5.0)
    assert p.stationary(4.9e-4) and not p.stationary(5.1e-4)
    assert Progress(tol=0.0, n_iter_no_change=10, loss_scale=5.0).stationary(0.0)


def _paper_data():
    from sklearn_softattn.datasets import make_gaussian_regression

    X, y, *_ = make_gaussian_regression(200, 5, 3, random_state=0)
    return X, y


def _fit(X, y, **params):
    from sklearn_softattn import SoftmaxAttentionRegressor

    return SoftmaxAttentionRegressor(random_state=0, **params).fit(X, y)


@pytest.mark.parametrize("attention_scale", [0.03, 1.0])
def test_lbfgs_reaches_gd_objective_with_the_renormalization_holding(attention_scale):
    from sklearn_softattn._geometry import whitening

    X, y = _paper_data()
    fits = {s: _fit(X, y, solver=s, attention_scale=attention_scale, tol=1e-6, max_iter=3000)
            for s in ("gd", "lbfgs")}
    curve = np.array(fits["lbfgs"].loss_curve_)
    assert np.all(np.isfinite(curve)) and np.all(np.diff(curve) <= 1e-12 * curve[:-1])
    loss_scale = 0.5 * np.mean(np.sum((y - y.mean(axis=0)) ** 2, axis=1))
    assert curve[-1] <= fits["gd"].loss_curve_[-1] + 1e-6 * loss_scale
    for est in fits.values():
        _, W_inv = whitening(est._covariance)
        np.testing.assert_allclose(np.linalg.norm(W_inv @ est.key_query_ @ W_inv.T),
                                   attention_scale, rtol=1e-10)


@pytest.mark.parametrize("solver", ["gd", "lbfgs"])
def test_a_warm_start_from_a_converged_fit_stops_after_one_iteration(solver):
    X, y = _paper_data()
    est = _fit(X, y, solver=solver, attention_scale=0.5, tol=1e-8, max_iter=3000)
    before = est.predict(X)
    est.set_params(tol=1e-4, warm_start=True).fit(X, y)
    assert est.n_iter_ == 1
    np.testing.assert_allclose(est.predict(X), before, rtol=1e-10, atol=1e-12)


def test_lbfgs_is_deterministic_for_a_fixed_random_state():
    X, y = _paper_data()
    a, b = (_fit(X, y, solver="lbfgs", init="random", attention_scale=1.0) for _ in range(2))
    np.testing.assert_array_equal(a.key_query_, b.key_query_)
    np.testing.assert_array_equal(a.value_, b.value_)
    assert a.loss_curve_ == b.loss_curve_


def test_lbfgs_without_renormalization_and_in_float32():
    X, y = _paper_data()
    est = _fit(X.astype(np.float32), y.astype(np.float32), solver="lbfgs", renormalize=False,
               attention_scale=0.5)
    assert est.key_query_.dtype == np.float32 and np.all(np.isfinite(est.loss_curve_))
    assert est.score(X.astype(np.float32), y) > 0.5


def test_gd_in_float32_does_not_halve_its_step_on_round_off():
    # The float32 objective's round-off (measured up to 6e-8 of its value) is above a
    # float64 slack: with one, gd halved its step on noise here until it stopped, after
    # MAX_HALVINGS halvings, at iteration 12 as if at a stationary point.
    X, y = make_gaussian_regression(2000, 20, 1, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est = SoftmaxAttentionRegressor(max_iter=30, tol=0, random_state=0).fit(
            X.astype(np.float32), y.astype(np.float32))
    assert est.n_iter_ == 30
    assert descent_slack(np.float64) == 1e-12 < descent_slack(np.float32)


@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (3, 8), (8, 8), (8, 3)])
def test_spectral_norm_is_the_largest_singular_value(shape):
    X = np.random.default_rng(0).standard_normal(shape)
    assert _spectral_norm(X) == np.linalg.svd(X, compute_uv=False)[0]
    assert _spectral_norm(np.zeros(shape)) == 0
    X[0, 0] = np.nan
    with pytest.raises(np.linalg.LinAlgError):
        _spectral_norm(X)


@pytest.mark.parametrize("solver", ["gd", "lbfgs", "sgd"])
def test_solvers_follow_an_objective_that_changes_between_iterations(solver):
    # After the change every solver reaches the new minimizer: gd evaluates its
    # point again, L-BFGS starts afresh (its memory and line search belong to the
    # old function), and minibatch epochs read the new one.
    f = MovingQuadratic(after=3)
    progress = Progress(tol=1e-12, n_iter_no_change=5, loss_scale=1.0)
    start = (np.eye(2), np.ones((1, 2)))
    if solver == "gd":
        K, V, _ = gd(f, *start, learning_rate=0.5, max_iter=200, project=identity,
                     progress=progress)
    elif solver == "lbfgs":
        K, V, _ = lbfgs(f, *start, max_iter=200, project=identity, progress=progress)
    else:
        K, V, _, _ = minibatch(f, *start, optimizer=OPTIMIZERS["sgd"](0.2), batch_size=5,
                               max_iter=200, project=identity, progress=progress,
                               random_state=np.random.RandomState(0))
    assert f.refreshes > f.after  # the change happened mid-run
    np.testing.assert_allclose(K, f.A, atol=1e-4)
    np.testing.assert_allclose(V, f.B, atol=1e-4)
