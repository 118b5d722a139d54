"""benchmarks/bench_local.py: the rule that chooses the refresh shift and k."""

import pytest
from _scripts import load_script


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/bench_local.py")


def _results(table):
    """``{(set, scale, k, shift): {"r2": r2}}`` from ``{(k, shift): [r2 per cell]}``."""
    cells = [("a", 3.0), ("b", 30.0)]
    return cells, {(name, scale, k, shift): {"r2": r2s[i]}
                   for (k, shift), r2s in table.items() for i, (name, scale) in enumerate(cells)}


def test_rule_takes_the_largest_shift_within_the_tolerance_everywhere(bench):
    cells, results = _results({(64, 0.03): [0.90, 0.50], (64, 0.1): [0.897, 0.49],
                               (64, 0.3): [0.91, 0.40]})
    # 0.1 is 0.003 and 0.010 below 0.03: out in cell b; 0.3 is out in cell b too.
    assert bench.choose_shift(results, cells, 64, [0.03, 0.1, 0.3]) == 0.03
    results["b", 30.0, 64, 0.1]["r2"] = 0.496
    assert bench.choose_shift(results, cells, 64, [0.03, 0.1, 0.3]) == 0.1


def test_rule_takes_the_smallest_k_within_the_tolerance_of_dense(bench):
    cells, results = _results({(None, None): [0.90, 0.50], (16, 0.1): [0.88, 0.52],
                               (64, 0.1): [0.897, 0.51], (128, 0.1): [0.899, 0.50]})
    k, shortfall = bench.choose_k(results, cells, [16, 64, 128], 0.1)
    assert k == 64
    assert shortfall[16] == pytest.approx(0.02)
    results["a", 3.0, 64, 0.1]["r2"] = results["a", 3.0, 128, 0.1]["r2"] = 0.80
    assert bench.choose_k(results, cells, [16, 64, 128], 0.1)[0] == 128  # none fits
