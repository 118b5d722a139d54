"""benchmarks/bench_context_neighbors.py: the rule for context_neighbors' default."""

import pytest
from _scripts import load_script


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/bench_context_neighbors.py")


def _rows(none, every):
    """Summary rows from ``[(seconds, r2)]`` of the two settings."""
    return [{"context_neighbors=None": {"seconds": sn, "r2": rn},
             "context_neighbors=256": {"seconds": se, "r2": re}}
            for (sn, rn), (se, re) in zip(none, every)]


def test_the_rule_adopts_a_gain_at_a_little_more_time(bench):
    result = bench.verdict(_rows([(10, 0.9), (20, 0.5), (30, 0.2)],
                                 [(12, 0.9), (24, 0.51), (33, 0.2)]))
    assert result["adopt"]
    assert result["mean_gain"] == pytest.approx(0.01 / 3)
    assert result["median_time_ratio"] == pytest.approx(1.2)


@pytest.mark.parametrize("every", [
    [(10, 0.9), (20, 0.504), (30, 0.2)],   # the mean gains 0.0013 (< 0.002)
    [(10, 0.885), (20, 0.54), (30, 0.2)],  # one set 0.015 below (> 0.01), the mean higher
    [(14, 0.9), (28, 0.52), (30, 0.2)],    # the median time 1.4 times (> 1.3)
])
def test_the_rule_keeps_none_when_a_condition_fails(bench, every):
    assert not bench.verdict(_rows([(10, 0.9), (20, 0.5), (30, 0.2)], every))["adopt"]
