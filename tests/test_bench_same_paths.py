"""benchmarks/bench_same_paths.py: the rule that chooses SAME_PATH."""

import pytest
from _scripts import load_script


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/bench_same_paths.py")


def _results(by_tolerance):
    """``{set: {tolerance: {"r2": r2}}}`` from ``{tolerance: [r2 per set]}``."""
    sets = range(len(by_tolerance[0.0]))
    return {s: {t: {"r2": r2s[s]} for t, r2s in by_tolerance.items()} for s in sets}


def test_rule_takes_the_largest_tolerance_within_the_margins(bench):
    results = _results({0.0: [0.5, 0.7, 0.9], 0.01: [0.5, 0.699, 0.9],
                        0.03: [0.5, 0.694, 0.9]})
    # 0.03 is 0.006 below on one set: out; 0.01 passes.
    chosen, summary = bench.choose(results, [0.01, 0.03])
    assert chosen == 0.01
    assert summary[0.03]["worst"] == pytest.approx(-0.006)
    assert summary[0.01]["mean"] == pytest.approx(-0.001 / 3)


def test_rule_also_bounds_the_mean_and_falls_back_to_every_path(bench):
    # Each within 0.005, but 0.004 below on average: fails the mean; so does 0.01.
    results = _results({0.0: [0.5, 0.7], 0.01: [0.496, 0.696], 0.03: [0.496, 0.696]})
    assert bench.choose(results, [0.01, 0.03])[0] == 0.0
    # Better is never a failure of the mean (but is of the per-set margin).
    results = _results({0.0: [0.5, 0.7], 0.01: [0.504, 0.7], 0.03: [0.51, 0.7]})
    assert bench.choose(results, [0.01, 0.03])[0] == 0.01
