"""benchmarks/bench_solvers.py: --varpro (V in closed form, and descent on K alone)."""

from dataclasses import replace

import numpy as np
import pytest
from sklearn.datasets import make_friedman1


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
