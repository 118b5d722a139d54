"""Target tokens and distance scores: the layer that reads the context rows' targets and
attends locally, from the objective's gradient to the fitted estimator."""

import numpy as np
import pytest
from sklearn.datasets import make_friedman1
from sklearn.exceptions import ConvergenceWarning

from _layer_data import assert_weights_are_repeated_rows, layer_data as _data
from _layer_data import layer_problem as _problem
from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV
from sklearn_softattn._geometry import Renormalization, change_basis, symmetric_root
from sklearn_softattn._init import isotropic_init, spectral_init

VARIANTS = [
    dict(target_tokens=True, attention_scores="bilinear"),
    dict(target_tokens=False, attention_scores="distance"),
    dict(target_tokens=True, attention_scores="distance"),
]
IDS = ["targets", "distance", "targets+distance"]


def _raw_params(d, q, target_tokens, distance, seed=1):
    """Raw parameters of a layer: K positive definite for distance scores."""
    rng = np.random.default_rng(seed)
    K = rng.standard_normal((d, d)) * 0.3
    if distance:
        K = K.T @ K + 0.1 * np.eye(d)
    V = rng.standard_normal((q, d + (q if target_tokens else 0)))
    return K, V


def _solver_params(problem, K, V):
    """The solver's parameters (working coordinates; ``L`` for distance scores)."""
    K, V = change_basis(K, V, problem.T_inv)
    return (symmetric_root(K) if problem.objective.scores == "distance" else K), V


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@pytest.mark.parametrize("preconditioner", ["covariance", None])
@pytest.mark.parametrize("q", [1, 2])
def test_objective_gradient_matches_finite_differences(variant, preconditioner, q):
    X, Y = _data(q=q)
    problem = _problem(X, Y, preconditioner=preconditioner, **variant)
    objective = problem.objective
    objective.strength, objective.shrinkage = 0.3, 0.2  # both regularizers on
    rng = np.random.default_rng(3)
    K = rng.standard_normal((3, 3)) * 0.4  # a general L (or K): not symmetric
    V = rng.standard_normal((q, 3 + (q if variant.get("target_tokens") else 0)))
    _, grad_K, grad_V = objective(K, V)
    step = 1e-5  # near eps^(1/3): see numeric_gradient in conftest.py
    for P, G, which in ((K, grad_K, 0), (V, grad_V, 1)):
        numeric = np.zeros_like(P)
        for idx in np.ndindex(P.shape):
            E = np.zeros_like(P)
            E[idx] = step
            args_plus = (K + E, V) if which == 0 else (K, V + E)
            args_minus = (K - E, V) if which == 0 else (K, V - E)
            numeric[idx] = (objective(*args_plus)[0] - objective(*args_minus)[0]) / (2 * step)
        np.testing.assert_allclose(G, numeric, rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("P", [None, "random"])
def test_metric_renormalization_keeps_the_norm_and_its_tangent_is_the_gradient(P):
    rng = np.random.default_rng(0)
    P = None if P is None else rng.standard_normal((3, 3))
    L, V = rng.standard_normal((3, 3)), rng.standard_normal((2, 3))
    project = Renormalization(0.7, P, metric=True)
    L1, V1 = project(L, V)
    K, K1 = L.T @ L, L1.T @ L1
    whitened = K1 if P is None else P @ K1 @ P.T
    assert np.isclose(np.linalg.norm(whitened), 0.7)
    np.testing.assert_allclose(V1 @ K1.T, V @ K.T, rtol=1e-12)  # the linear limit stays

    def f(L):  # any smooth function of the renormalized metric
        L = project.onto(L)[0]
        return np.sum(np.sin(L.T @ L @ V.T))

    def grad_f(L):
        K = L.T @ L
        G = (np.cos(K @ V.T) @ V)  # df/dK
        return L @ (G + G.T)

    step, numeric = 1e-6, np.zeros_like(L1)
    for idx in np.ndindex(L1.shape):
        E = np.zeros_like(L1)
        E[idx] = step
        numeric[idx] = (f(L1 + E) - f(L1 - E)) / (2 * step)
    np.testing.assert_allclose(project.tangent(L1, grad_f(L1)), numeric, rtol=1e-5, atol=1e-8)


def test_change_basis_keeps_the_target_columns():
    rng = np.random.default_rng(0)
    K, V, M = rng.standard_normal((3, 3)), rng.standard_normal((2, 5)), rng.standard_normal((3, 3))
    K1, V1 = change_basis(K, V, M)
    np.testing.assert_array_equal(V1[:, 3:], V[:, 3:])
    np.testing.assert_allclose(V1[:, :3], V[:, :3] @ M.T)
    K2, V2 = change_basis(K1, V1, np.linalg.inv(M))
    np.testing.assert_allclose(K2, K, atol=1e-12)
    np.testing.assert_allclose(V2, V, atol=1e-12)


def test_symmetric_root_is_the_metric_of_a_positive_semi_definite_matrix():
    rng = np.random.default_rng(0)
    A = rng.standard_normal((4, 2))
    K = A @ A.T  # rank 2
    L = symmetric_root(K)
    np.testing.assert_allclose(L.T @ L, K, atol=1e-12)
    np.testing.assert_allclose(L, L.T)


def test_isotropic_start_has_the_spectral_start_s_linear_limit():
    X, Y = _data(q=2)
    Z = (X - X.mean(0)) @ np.linalg.inv(np.linalg.cholesky(np.cov(X.T, bias=True))).T
    w = np.ones(len(X))
    K0, V0 = spectral_init(Z, Y - Y.mean(0), w)
    K1, V1 = isotropic_init(Z, Y - Y.mean(0), w)
    np.testing.assert_allclose(V1 @ K1.T, V0 @ K0.T, atol=1e-12)
    assert np.linalg.matrix_rank(K0) == 2 and np.linalg.matrix_rank(K1) == 3


def _loo_prediction(X, Y, K, V, i, distance):
    """Row i's prediction by the layer with raw parameters ``(K, V)`` over the other
    rows, offsets recomputed without row i: from the definition."""
    keep = np.arange(len(X)) != i
    x_mean, y_mean = X[keep].mean(0), Y[keep].mean(0)
    Zc, Yc = X[keep] - x_mean, Y[keep] - y_mean
    z = X[i] - x_mean
    scores = Zc @ K.T @ z
    if distance:
        scores -= 0.5 * np.einsum("jd,de,je->j", Zc, K, Zc)
    a = np.exp(scores - scores.max())
    a /= a.sum()
    d = X.shape[1]
    values = Zc @ V[:, :d].T + (Yc @ V[:, d:].T if V.shape[1] > d else 0)
    return y_mean + a @ values


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_leave_one_out_is_exact(variant):
    """Row i's term of the training objective is the error of the layer fitted without
    row i (offsets included), so changing ``y_i`` changes it only through ``y_i``."""
    X, Y = _data(n=12, q=2)
    distance = variant.get("attention_scores") == "distance"
    K, V = _raw_params(3, 2, variant.get("target_tokens", False), distance)
    for i in (0, 5):
        prediction = _loo_prediction(X, Y, K, V, i, distance)
        for shift in (0.0, 7.0):
            Y_changed = Y.copy()
            Y_changed[i] += shift
            problem = _problem(X, Y_changed, **variant)
            term = problem.objective(*_solver_params(problem, K, V), rows=np.array([i]))[0]
            assert np.isclose(term, 0.5 * np.sum((prediction - Y_changed[i]) ** 2), rtol=1e-9)
        # ... and the prediction itself does not read y_i
        assert np.allclose(_loo_prediction(X, Y_changed, K, V, i, distance), prediction)


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_integer_weights_equal_repeated_rows(variant):
    X, Y = _data(n=30, q=1)
    weight = np.random.default_rng(0).integers(1, 4, len(X))
    params = dict(attention_scale=1.0, solver="lbfgs", max_iter=15, random_state=0, **variant)
    assert_weights_are_repeated_rows(X, Y[:, 0], weight, _data(n=10, seed=5)[0], **params)


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_attention_weights_reproduce_predict(variant):
    X, Y = _data(n=50, q=2)
    model = SoftmaxAttentionRegressor(attention_scale=2.0, max_iter=20, tol=0, solver="lbfgs",
                                      **variant).fit(X, Y)
    X_new = _data(n=7, seed=3)[0]
    A = model.attention_weights(X_new)
    values = (model.context_ - model.x_offset_) @ model.value_.T
    if model.target_value_ is not None:
        values += (model.context_targets_ - model.y_offset_) @ model.target_value_.T
    np.testing.assert_allclose(model.y_offset_ + A @ values, model.predict(X_new), rtol=1e-10)
    indices, top = model.attention_weights(X_new, top_k=5)
    np.testing.assert_allclose(top, np.take_along_axis(A, indices, axis=1))


def test_distance_scores_are_local_and_their_metric_positive_semi_definite():
    X, Y = _data(n=80)
    model = SoftmaxAttentionRegressor(attention_scale=5.0, attention_scores="distance",
                                      solver="lbfgs", max_iter=30, tol=0).fit(X, Y[:, 0])
    assert np.linalg.eigvalsh(model.key_query_).min() >= -1e-10
    x = model.context_[:1]
    A = model.attention_weights(x)[0]
    diff = model.context_ - x
    distance = np.einsum("jd,de,je->j", diff, model.key_query_, diff)
    # The weights fall with the distance in the learned metric, and only with it.
    expected = np.exp(-0.5 * (distance - distance.min()))
    np.testing.assert_allclose(A, expected / expected.sum(), rtol=1e-8)


def test_target_tokens_fit_multi_output_with_sample_weights():
    X, Y = _data(n=60, q=3)
    weight = np.random.default_rng(1).uniform(0.5, 2, len(X))
    X0, Y0, w0 = X.copy(), Y.copy(), weight.copy()
    model = SoftmaxAttentionRegressor(attention_scale=1.0, target_tokens=True,
                                      attention_scores="distance", solver="lbfgs",
                                      max_iter=30).fit(X, Y, sample_weight=weight)
    assert model.target_value_.shape == (3, 3) and model.context_targets_.shape == (60, 3)
    assert model.predict(X).shape == (60, 3) and np.all(np.isfinite(model.predict(X)))
    # nothing the caller passed is modified
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(Y, Y0)
    np.testing.assert_array_equal(weight, w0)


def test_predict_on_training_rows_attends_to_their_own_tokens():
    """Like KNeighborsRegressor, ``predict`` on a training row reads that row's own target:
    sharp local attention over target tokens nearly returns it, far better than the
    leave-one-out error of training."""
    X, Y = _data(n=60)
    model = SoftmaxAttentionRegressor(attention_scale=30.0, target_tokens=True,
                                      attention_scores="distance", regularization=None,
                                      solver="lbfgs").fit(X, Y[:, 0])
    train_error = np.mean((model.predict(X) - Y[:, 0]) ** 2)
    loo_error = 2 * model.loss_curve_[-1]
    assert train_error < 0.5 * loo_error


def test_target_tokens_and_distance_scores_fit_a_nonlinear_curve_the_paper_s_layer_cannot():
    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, (300, 1))
    y = np.sin(2 * X[:, 0]) + 0.1 * rng.standard_normal(300)
    X_test = rng.uniform(-3, 3, (300, 1))
    y_test = np.sin(2 * X_test[:, 0])
    common = dict(attention_scale=30.0, solver="lbfgs", max_iter=100, regularization=None)
    local = SoftmaxAttentionRegressor(target_tokens=True, attention_scores="distance",
                                      **common).fit(X, y)
    paper = SoftmaxAttentionRegressor(**common).fit(X, y)
    assert local.score(X_test, y_test) > 0.9
    assert local.score(X_test, y_test) > paper.score(X_test, y_test) + 0.3


def test_target_weight_learns_a_smoother_at_sharp_scales():
    # U's block step has its own unit (the targets' variance), not 1 / ||K||₂²: at a
    # sharp scale that unit made U hardly move from 0 (target_value_ 0.15, R² 0.32).
    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, (300, 1))
    y = np.sin(2 * X[:, 0]) + 0.1 * rng.standard_normal(300)
    X_test = rng.uniform(-3, 3, (300, 1))
    model = SoftmaxAttentionRegressor(target_tokens=True, attention_scores="distance",
                                      attention_scale=30.0, max_iter=50, regularization=None)
    model.fit(X, y)
    assert model.target_value_.item() > 0.8
    assert model.score(X_test, np.sin(2 * X_test[:, 0])) > 0.9


@pytest.mark.parametrize("metric", [False, True])
def test_renormalization_leaves_the_target_weight_alone(metric):
    rng = np.random.default_rng(0)
    K, V = rng.standard_normal((3, 3)), rng.standard_normal((2, 5))  # V = [V_x, U]
    K1, V1 = Renormalization(0.7, metric=metric)(K, V)
    np.testing.assert_array_equal(V1[:, 3:], V[:, 3:])
    key_query = (lambda L: L.T @ L) if metric else (lambda K: K)
    np.testing.assert_allclose(V1[:, :3] @ key_query(K1).T, V[:, :3] @ key_query(K).T,
                               rtol=1e-12)
    assert np.isclose(np.linalg.norm(key_query(K1)), 0.7)


@pytest.mark.parametrize("option, value, fitted", [
    ("attention_scores", "distance", "bilinear"),
    ("target_tokens", True, False),
])
@pytest.mark.parametrize("how", ["warm_start", "partial_fit"])
def test_continuing_a_different_layer_raises(option, value, fitted, how):
    X, Y = _data(n=30)
    model = SoftmaxAttentionRegressor(max_iter=3, tol=0)
    with pytest.warns(ConvergenceWarning):
        model.fit(X, Y[:, 0])
    model.set_params(**{option: value}, warm_start=how == "warm_start")
    with pytest.raises(ValueError, match=f"{how} continues a layer fitted with "
                                         f"{option}={fitted!r}"):
        model.fit(X, Y[:, 0]) if how == "warm_start" else model.partial_fit(X, Y[:, 0])


def test_distance_scores_from_a_matrix_that_is_no_metric_raise():
    """A key-query matrix set by hand, as a warm start, must be a metric's."""
    X, Y = _data(n=30)
    model = SoftmaxAttentionRegressor(attention_scores="distance", warm_start=True)
    model.key_query_ = -np.eye(3)  # negative definite: no distance
    model.value_ = np.ones((1, 3))
    with pytest.raises(ValueError, match="symmetric positive semi-definite key_query_"):
        model.fit(X, Y[:, 0])
    K = np.eye(3)
    K[0, 1] = 1.0  # not symmetric
    model.key_query_ = K
    with pytest.raises(ValueError, match="has asymmetry 1 "):
        model.fit(X, Y[:, 0])


def test_unknown_attention_scores_raise():
    X, Y = _data(n=20)
    with pytest.raises(ValueError, match="attention_scores"):
        SoftmaxAttentionRegressor(attention_scores="cosine").fit(X, Y[:, 0])


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_warm_start_and_partial_fit_continue_the_variant(variant):
    X, Y = _data(n=40)
    model = SoftmaxAttentionRegressor(attention_scale=1.0, solver="lbfgs", max_iter=5, tol=0,
                                      **variant)
    with pytest.warns(ConvergenceWarning):
        model.fit(X, Y[:, 0])
    before = model.loss_curve_[-1]
    model.partial_fit(X[:20], Y[:20, 0])
    assert np.all(np.isfinite(model.predict(X)))
    model.set_params(warm_start=True)
    with pytest.warns(ConvergenceWarning):
        model.fit(X, Y[:, 0])
    assert model.loss_curve_[-1] <= before + 1e-12


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_cv_estimator_takes_the_variants(variant):
    X, y = make_friedman1(n_samples=150, noise=0.5, random_state=0)
    model = SoftmaxAttentionRegressorCV(attention_scales=[0, 1.0], shrinkages=[0.0], cv=3,
                                        solver="lbfgs", max_iters=[5, 20], random_state=0,
                                        **variant).fit(X[:100], y[:100])
    assert model.score_path_.shape == (2, 2, 1, 1, 3)
    assert (model.target_value_ is not None) == variant["target_tokens"]
    assert model.score(X[100:], y[100:]) > 0.5


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@pytest.mark.parametrize("solver", ["gd", "lbfgs"])
@pytest.mark.parametrize("renormalize", [True, False])
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_scaling_y_scales_the_fit_and_nothing_else(variant, solver, renormalize):
    """Every step is in the units of y (U's in those of V_x over the targets'): scaling
    y by 10³ or 10⁻³ scales the predictions and changes neither the iterations nor
    the sharpness."""
    X, Y = _data(n=60, q=2)
    params = dict(attention_scale=1.0, solver=solver, renormalize=renormalize, max_iter=30,
                  random_state=0, **variant)
    reference = SoftmaxAttentionRegressor(**params).fit(X, Y)
    for c in (1e3, 1e-3):
        scaled = SoftmaxAttentionRegressor(**params).fit(X, c * Y)
        assert scaled.n_iter_ == reference.n_iter_
        np.testing.assert_allclose(scaled.key_query_, reference.key_query_, rtol=1e-7)
        np.testing.assert_allclose(scaled.predict(X) / c, reference.predict(X), rtol=1e-7)
