"""benchmarks/bench_start.py: where the path starts when the rows outnumber the context."""

import numpy as np
import pytest
from _scripts import load_script

from sklearn_softattn._grid import START_MARGIN, neighbor_sharpness


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/bench_start.py")


def _rows(every, context):
    """Summary rows from ``[(seconds, r2)]`` of the two starts."""
    return [{"all-rows start": {"seconds": se, "r2": re},
             "context-sized start": {"seconds": sc, "r2": rc}}
            for (se, re), (sc, rc) in zip(every, context)]


def test_the_rule_adopts_a_start_that_loses_nothing_at_the_same_cost(bench):
    result = bench.verdict(_rows([(10, 0.9), (20, 0.5), (30, 0.2)],
                                 [(11, 0.895), (18, 0.52), (33, 0.2)]))
    assert result["adopt"]
    assert result["mean_gain"] == pytest.approx(0.015 / 3)
    assert result["worst_gain"] == pytest.approx(-0.005)
    assert result["median_time_ratio"] == pytest.approx(1.1)


@pytest.mark.parametrize("context", [
    [(10, 0.89), (20, 0.497), (30, 0.2)],  # the mean falls 0.0043 (> 0.002)
    [(10, 0.885), (20, 0.53), (30, 0.2)],  # one set 0.015 below (> 0.01), the mean higher
    [(13, 0.9), (26, 0.5), (30, 0.2)],     # the median time 1.3 times (> 1.2)
])
def test_the_rule_keeps_the_spacing_of_all_the_rows_when_a_condition_fails(bench, context):
    assert not bench.verdict(_rows([(10, 0.9), (20, 0.5), (30, 0.2)], context))["adopt"]


def test_the_candidate_start_is_the_one_auto_computes(bench):
    # The benchmark's candidate is what attention_scales="auto" now starts from.
    from sklearn_softattn import SoftmaxAttentionRegressorCV

    rng = np.random.default_rng(0)
    X = rng.standard_normal((bench.CONTEXT + 300, 3))
    every, context = bench.starts(X)
    assert every == pytest.approx(neighbor_sharpness(X, np.ones(len(X)), START_MARGIN))
    assert context < every
    grid = SoftmaxAttentionRegressorCV(random_state=0)._grid(X, np.ones(len(X)))[0]
    np.testing.assert_allclose(grid, [0.0, context])
