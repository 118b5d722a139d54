"""benchmarks/bench_solvers.py: --varpro (V in closed form, and descent on K alone),
--validation (gd's validation R² at every iteration of the inner paths) and
--validation-stop (the path points stopped on it)."""

from dataclasses import replace

import numpy as np
import pytest
from sklearn.datasets import make_friedman1

from sklearn_softattn import SoftmaxAttentionRegressorCV

from _scripts import load_script


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/bench_solvers.py")


@pytest.fixture(scope="module")
def problem(bench):
    X, y = make_friedman1(80, noise=0.5, random_state=0)
    return bench._path_problem(X, y, "gd", 0.0)[-1]


@pytest.mark.parametrize("shrinkage", [0.0, 10.0])
def test_best_values_zero_the_value_gradient(bench, problem, shrinkage):
    objective = replace(problem.objective, shrinkage=problem.ridge_strength(shrinkage))
    K = 0.3 * np.random.default_rng(0).standard_normal((10, 10))
    V = bench.best_values(objective, K)
    value, _, grad_V = objective(K, V)
    assert np.abs(grad_V).max() < 1e-8 * problem.loss_scale
    # Any other V does worse.
    other = V + 1e-3 * np.random.default_rng(1).standard_normal(V.shape)
    assert objective(K, other)[0] > value


def test_variable_projection_descends_at_the_scale(bench, problem):
    objective = problem.objective
    K0 = np.random.default_rng(0).standard_normal((10, 10))
    K0 *= 0.5 / np.linalg.norm(K0)
    start = objective(K0, bench.best_values(objective, K0))[0]
    K, V, curve = bench.variable_projection(objective, K0, 0.5, problem.loss_scale, 1e-4, 10, 20)
    assert np.linalg.norm(K) == pytest.approx(0.5)  # the renormalization holds
    assert curve and curve[-1][0] < start
    assert objective(K, V)[0] == pytest.approx(min(c[0] for c in curve))


def test_stall(bench):
    rising_then_flat = [0.1, 0.2, 0.3, 0.30005, 0.2, 0.25]
    # 0.30005 is no rise by 1e-4: two flat iterations after 0.3 end it at the fifth.
    assert bench.stall(rising_then_flat, patience=2) == 5
    assert bench.stall(rising_then_flat, patience=3) == 6
    assert bench.stall(rising_then_flat, patience=4) is None
    assert bench.stall([0.1, 0.2, 0.4], patience=1) is None


def test_validation_curves_score_the_fits_own_points(bench):
    X, y = make_friedman1(60, noise=0.5, random_state=0)
    points, params = bench.validation_curves(X, y)
    assert points
    for score, curve in points:
        assert 1 <= len(curve) <= params["max_iter"]
        # The last iteration's model is the point's: the fold scores it the same.
        assert curve[-1] == pytest.approx(score, abs=1e-12)


def test_validation_stopped_fit(bench):
    X, y = make_friedman1(60, noise=0.5, random_state=0)
    default = SoftmaxAttentionRegressorCV(random_state=0)
    with bench.Recorder() as rec:
        default.fit(X, y)
    # Without a stop, the inner folds are the default's own.
    unstopped = bench.validation_stopped_fit(X, y, np.inf)
    np.testing.assert_array_equal(unstopped.score_path_, default.score_path_)
    assert unstopped.attention_scale_ == default.attention_scale_
    with bench.Recorder() as stopped_rec:
        stopped = bench.validation_stopped_fit(X, y, 2)
    assert stopped_rec.passes < rec.passes
    assert np.all(np.isfinite(stopped.predict(X)))
