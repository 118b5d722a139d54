"""benchmarks/bench_validation.py: the rule that would make cv="auto" the default."""

import pytest
from _scripts import load_script


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/bench_validation.py")


def _rows(five, auto):
    """Summary rows from ``[(seconds, r2)]`` of five folds and of the hold-out."""
    return [{"cv=5": {"seconds": s5, "r2": r5}, "cv='auto'": {"seconds": sa, "r2": ra}}
            for (s5, r5), (sa, ra) in zip(five, auto)]


def test_the_rule_adopts_a_cheaper_hold_out_that_loses_nothing(bench):
    result = bench.verdict(_rows([(10, 0.9), (20, 0.5), (30, 0.2)],
                                 [(3, 0.9), (5, 0.499), (20, 0.21)]))
    assert result["adopt"]
    assert result["median_time_ratio"] == pytest.approx(0.3)  # of 0.3, 0.25, 0.67
    assert result["mean_gain"] == pytest.approx(0.009 / 3)


@pytest.mark.parametrize("auto", [
    [(3, 0.88), (5, 0.5), (6, 0.2)],    # the mean falls 0.0067 (> 0.002)
    [(3, 0.885), (5, 0.52), (6, 0.21)],  # one set 0.015 below (> 0.01), the mean higher
    [(7, 0.9), (14, 0.5), (6, 0.2)],    # the median time 0.7 of five folds' (> 0.6)
])
def test_the_rule_keeps_five_folds_when_a_condition_fails(bench, auto):
    assert not bench.verdict(_rows([(10, 0.9), (20, 0.5), (30, 0.2)], auto))["adopt"]
