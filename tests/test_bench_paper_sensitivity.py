"""benchmarks/bench_paper_sensitivity.py: its random start, its counts and its verdicts."""

import numpy as np
import pytest

from _scripts import load_script
from sklearn_softattn import PAPER_BASELINE, SoftmaxAttentionRegressor
from sklearn_softattn.datasets import make_gaussian_regression


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/bench_paper_sensitivity.py")


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_unit_start_has_unit_variance_entries(bench):
    X, y = make_gaussian_regression(50, 4, 3, random_state=0)
    est = SoftmaxAttentionRegressor(**dict(PAPER_BASELINE, learning_rate=1e-12), max_iter=1,
                                    random_state=0)
    bench.unit_start_fit(est, X, y, seed=3)
    rng = np.random.RandomState(3)
    # A negligible learning rate leaves the start where it was drawn.
    np.testing.assert_allclose(est.key_query_, rng.standard_normal((4, 4)), atol=1e-8)
    np.testing.assert_allclose(est.value_, rng.standard_normal((3, 4)), atol=1e-8)
    assert len(est.loss_curve_) == 1


def test_cells_count_the_seeds_a_claim_held_on(bench):
    assert bench.held([9.0, 10.0, 11.0], "c") == 2
    assert bench.held([2.0, 3.0, 3.5], "a") == 2
    assert bench.cell([1.0, 2.0, 4.0]) == "2 [1–4]"
    assert bench.cell([1.0, 2.0, 4.0], "b") == "2 [1–4] 2/3"


def test_verdicts_group_readings(bench):
    ratios = {}
    for key in bench.KEYS:
        ratios["a", key, 1.0] = [1.0, 1.0]  # held on both seeds
        ratios["b", key, 1.0] = [5.0, 1.0]  # on one
        ratios["c", key, 1.0, "targets", "updates", "best"] = [1.0, 2.0]  # on none
        ratios["c", key, 1.0, "targets", "passes", "best"] = [20.0, 30.0]
    result = dict(ratios=ratios, conditions=[1.0], starts=[(1.0, "targets")],
                  counts={"updates": 667, "passes": 2000})
    lines = bench.verdicts(result).splitlines()
    assert lines[0] == "(a) on predict: held on every seed: cond 1"
    assert lines[2] == "(b) on predict: held on some seeds: cond 1"
    assert lines[4] == ("(c) on predict: held on every seed: cond 1 targets start passes; "
                        "held on no seed: cond 1 targets start updates")


def test_random_starts_measured(bench):
    assert bench.random_starts((1.0, 30.0, 300.0)) == [
        (1.0, "targets"), (30.0, "targets"), (300.0, "targets"), (30.0, "unit")]
