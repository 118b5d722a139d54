"""docs/make_results.py reads the numbers it puts in the README correctly."""

import importlib.util
import sys
from pathlib import Path

import pytest

from sklearn_softattn.__main__ import main

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "make_results.py"


@pytest.fixture(scope="module")
def make_results():
    spec = importlib.util.spec_from_file_location("make_results", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_reads_the_main_jobs_tables_and_claims(make_results, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    main(["--n-samples", "60", "--n-features", "3", "--n-targets", "2", "--max-iter", "5",
          "--output", str(tmp_path / "x.png"), "--n-jobs", "1"])
    out = capsys.readouterr().out
    table = make_results.section(out, "| method |")
    assert len(table.splitlines()) == 2 + 1 + 6
    rows = make_results.claim_rows(out)
    assert [r[:2] for r in rows] == [(c, t) for t in ["predict", "linear limit"]
                                     for c in ["(a)", "(b)", "(c)"]]
    assert all(r[4] in {"held", "NOT held"} for r in rows)


def test_reads_the_baselines_table(make_results):
    table = make_results.table_rows(
        "| model | diabetes | friedman1 | gaussian linear |\n"
        "|---|---|---|---|\n"
        "| LinearRegression | 0.489 ± 0.090 | 0.714 ± 0.042 | 0.872 ± 0.028 |\n"
        "| SoftmaxAttention (tuned) | 0.495 ± 0.094 | 0.820 ± 0.042 | 0.861 ± 0.030 |\n"
        "| MLPRegressor | 0.472 ± 0.130 | 0.905 ± 0.016 | 0.800 ± 0.033 |\n"
    )
    claims = make_results.r2_claims(table)
    assert [(d, h) for _, d, h in claims] == [("-0.011", False), ("+0.106", True),
                                              ("-0.085", False)]
