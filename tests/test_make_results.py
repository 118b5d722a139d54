"""docs/make_results.py reads the numbers it puts in the README correctly."""

import importlib.util
import sys
from pathlib import Path

import pytest

from sklearn_softattn.__main__ import main

ROOT = Path(__file__).resolve().parents[1]


def _load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def make_results():
    return _load(ROOT / "docs" / "make_results.py")


@pytest.fixture(scope="module")
def sensitivity_output():
    bench = _load(ROOT / "benchmarks" / "bench_paper_sensitivity.py")
    result = bench.run(n_samples=40, budget=2, seeds=range(2), learning_rates=(0.03, 0.1),
                       n_jobs=1)
    return bench.report(result)


def test_reads_the_main_jobs_tables_and_claims(make_results, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    main(["--n-samples", "60", "--n-features", "3", "--n-targets", "2", "--max-iter", "5",
          "--output", str(tmp_path / "x.png"), "--n-jobs", "1"])
    out = capsys.readouterr().out
    table = make_results.section(out, "| method |")
    assert len(table.splitlines()) == 2 + 1 + 6
    assert make_results.section(out, "m counts").startswith("m counts updates")
    rows = make_results.claim_rows(out)
    assert [r[:2] for r in rows] == [(c, t) for t in ["predict", "linear limit"]
                                     for c in ["(a)", "(b)", "(c)"]]
    assert all(r[4] in {"held", "NOT held"} for r in rows)
    c_table = ("| cond | start | counted in | SGD epochs | lr=0.01 | lr=0.03 | best lr |\n"
               "|---|---|---|---|---|---|---|\n"
               "| 300 | targets | updates | 667 | 2.44 [1.96–48.9] 2/5 | 1.2 [1–2] 0/5 "
               "| 1.2 [1–2] 0/5 |\n"
               "| 30 | unit | passes | 2000 | 1 [1–1] 0/5 | 12 [11–14] 5/5 | 1 [1–1] 0/5 |")
    assert make_results.fixed_rate_holds(c_table) == (
        "cond 300 targets start updates lr=0.01 (2/5), cond 30 unit start passes lr=0.03 (5/5)")
    text = make_results.summary(rows, "(a) on predict: held on every seed: cond 1",
                                {"predict": c_table})
    assert "- (c) on predict: cond 300 targets start updates lr=0.01 (2/5)" in text
    for claim in ["(a)", "(b)", "(c)"]:
        assert f"- {claim} " in text
    assert "- (a) on predict: held on every seed: cond 1" in text


def test_reads_the_sensitivity_benchmark(make_results, sensitivity_output):
    sens = make_results.sensitivity_sections(sensitivity_output)
    assert sens["header"].startswith("Sensitivity of the paper's claims: n=40")
    assert len(sens["ab"].splitlines()) == 2 + 3  # conditions 1, 30, 300
    assert len(sens["starts"].splitlines()) == 2 + 4  # three with "targets", one "unit"
    for key in ["c_predict", "c_linear"]:
        lines = sens[key].splitlines()
        assert lines[0] == ("| cond | start | counted in | SGD epochs | lr=0.03 | lr=0.1 "
                            "| best lr |")
        assert len(lines) == 2 + 4 * 2  # (cond, start) pairs times the two counts
    assert sens["c_predict"] != sens["c_linear"]
    verdicts = sens["verdicts"].splitlines()
    assert [v[:3] for v in verdicts] == ["(a)", "(a)", "(b)", "(b)", "(c)", "(c)"]
    assert sens["control"].startswith("Control, plain SGD after")
    assert int(sens["seconds"]) >= 0


def test_replaces_only_between_markers(make_results):
    markers = ("<!-- a -->", "<!-- b -->")
    text = "top\n<!-- a -->\nold\n<!-- b -->\nbottom\n"
    assert make_results.replace_between(text, markers, "new\n") == (
        "top\n<!-- a -->\nnew\n<!-- b -->\nbottom\n")


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
