"""doc/make_results.py reads the numbers it writes into the README and the results
page correctly, draws the sensitivity figure from them, and the README stays short."""

import re
import sys

import numpy as np
import pytest

from _scripts import ROOT, load_script
from sklearn_softattn.__main__ import main

README = ROOT / "README.md"


@pytest.fixture(scope="module")
def make_results():
    return load_script("doc/make_results.py")


@pytest.fixture(scope="module")
def sensitivity_output():
    bench = load_script("benchmarks/bench_paper_sensitivity.py")
    result = bench.run(n_samples=40, budget=2, seeds=range(2), learning_rates=(0.03, 0.1),
                       n_jobs=1)
    return bench.report(result)


@pytest.fixture(scope="module")
def main_output(tmp_path_factory):
    """The main job's output, on a small problem."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setitem(sys.modules, "matplotlib", None)
        capture = tmp_path_factory.mktemp("main") / "out.txt"
        with capture.open("w") as f, pytest.MonkeyPatch.context() as m:
            m.setattr(sys, "stdout", f)
            main(["--n-samples", "60", "--n-features", "3", "--n-targets", "2",
                  "--max-iter", "5", "--output", str(capture.with_suffix(".png")),
                  "--n-jobs", "1"])
    return capture.read_text()


@pytest.fixture(scope="module")
def saved(make_results):
    """The outputs kept in doc/results/, as ``make_results.py --from-saved`` reads them."""
    return {name: make_results.run(command, name, rerun=set())
            for name, command in make_results.COMMANDS.items()}


def test_reads_the_main_jobs_tables_and_claims(make_results, main_output):
    table = make_results.section(main_output, "| method |")
    assert len(table.splitlines()) == 2 + 1 + 6
    assert make_results.section(main_output, "m counts").startswith("m counts updates")
    rows = make_results.claim_rows(main_output)
    assert [r[:2] for r in rows] == [(c, t) for t in ["predict", "linear limit"]
                                     for c in ["(a)", "(b)", "(c)"]]
    assert all(r[4] in {"held", "NOT held"} for r in rows)
    (cond, start, count), rate = make_results.default_reading(main_output)
    assert (cond, start, count) == ("30", "targets", "updates")
    assert re.fullmatch(r"lr=[\d.]+", rate)


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
    assert sens["control"].startswith("Control, plain SGD after")
    assert int(sens["seconds"]) >= 0
    counts = make_results.sensitivity_counts(sens)
    assert set(counts) == {(c, t) for c in ["(a)", "(b)", "(c)"]
                           for t in ["predict", "linear limit"]}
    assert list(counts["(a)", "predict"]) == [("1",), ("30",), ("300",)]
    c_rows = counts["(c)", "linear limit"]
    assert len(c_rows) == 8 and ("30", "unit", "passes") in c_rows
    for cols in c_rows.values():
        assert list(cols) == ["lr=0.03", "lr=0.1", "best lr"]
        assert all(n == 2 and 0 <= k <= 2 for k, n in cols.values())


def test_reads_seeds_held_from_a_table(make_results):
    table = ("| cond | start | counted in | SGD epochs | lr=0.01 | lr=0.03 | best lr |\n"
             "|---|---|---|---|---|---|---|\n"
             "| 300 | targets | updates | 667 | 2.44 [1.96–48.9] 2/5 | 12 [11–14] 5/5 "
             "| 1.2 [1–2] 0/5 |\n"
             "| 30 | unit | passes | 2000 | 1 [1–1] 0/5 | 1 [1–1] 0/5 | 1 [1–1] 0/5 |")
    rows = make_results.held_counts(table)
    assert rows == {("300", "targets", "updates"): {"lr=0.01": (2, 5), "lr=0.03": (5, 5),
                                                    "best lr": (0, 5)},
                    ("30", "unit", "passes"): {"lr=0.01": (0, 5), "lr=0.03": (0, 5),
                                               "best lr": (0, 5)}}
    assert make_results.where_it_fails(rows) == (
        "fails on every seed under 2 of 2 readings at each seed's best learning rate, on "
        "some under 0; holds on every seed only under (cond 300, targets start, updates, "
        "lr=0.03)")
    assert make_results.where_it_fails({("1",): {"all": (5, 5)}, ("30",): {"all": (5, 5)}}) \
        == "nowhere: held on every seed under cond 1, cond 30"
    assert make_results.where_it_fails({("1",): {"all": (5, 5)}, ("30",): {"all": (3, 5)}}) \
        == ("fails on every seed under 0 of 2 readings, on some under 1; holds on every "
            "seed only under (cond 1, all)")


def test_claims_table_for_the_readme(make_results, main_output, sensitivity_output):
    sens = make_results.sensitivity_sections(sensitivity_output)
    text = make_results.claims_table(main_output, sens)
    rows = [line for line in text.splitlines() if line.startswith("| (")]
    assert [row[:5] for row in rows] == ["| (a)", "| (b)", "| (c)"]
    claims = make_results.claim_rows(main_output)
    for row, claim in zip(rows, claims[:3]):  # predict's ratio comes first
        assert f"| {claim[3]}× / " in row
        assert re.search(r"\| \d/2 / \d/2 \|", row)
    assert "(doc/images/sensitivity.png)" in text


def test_draws_the_sensitivity_figure(make_results, main_output, sensitivity_output,
                                      tmp_path):
    sens = make_results.sensitivity_sections(sensitivity_output)
    path = tmp_path / "sensitivity.png"
    fig = make_results.draw_sensitivity(sens, main_output, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    counts = make_results.sensitivity_counts(sens)
    panels = [ax for ax in fig.axes if ax.images]
    assert len(panels) == 2
    assert [t.get_text() for t in panels[0].get_yticklabels()][:2] == [
        "cond 1, targets start, updates", "cond 1, targets start, passes"]
    for ax, title in zip(panels, ["predict", "linear limit"]):
        rows = counts["(c)", title]
        expected = [[k for k, _ in cols.values()] for cols in rows.values()]
        np.testing.assert_array_equal(ax.images[0].get_array(), expected)
        # The main job's reading is outlined: cond 30, targets start, updates, lr=0.03.
        (outline,) = ax.patches
        assert outline.get_xy() == (0 - 0.5, list(rows).index(("30", "targets", "updates"))
                                    - 0.5)


def test_readme_is_short_and_its_regions_and_links_are_there(make_results):
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 10 * 1024
    assert text.startswith(
        "# sklearn-softattn\n\n"
        "    python -m pip install \".[examples]\" && python -m sklearn_softattn\n"
        "    python -m pip install -e \".[tests]\" && python -m pytest\n")
    for page, markers in [(README, make_results.CLAIMS_MARKERS),
                          (make_results.RESULTS_PAGE, make_results.RESULTS_MARKERS)]:
        page_text = page.read_text(encoding="utf-8")
        assert [page_text.count(m) for m in markers] == [1, 1]
        assert page_text.index(markers[0]) < page_text.index(markers[1])
    # Relative links and images resolve from the repository root, as on GitHub.
    targets = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text)
    assert "doc/images/sensitivity.png" in targets
    for target in targets:
        assert (ROOT / target).exists(), target


def test_readme_and_results_page_are_written_from_the_saved_outputs(make_results, saved):
    """What make_results.py --from-saved would write is what the files hold."""
    sens = make_results.sensitivity_sections(saved["sensitivity"])
    readme = README.read_text(encoding="utf-8")
    assert make_results.replace_between(readme, make_results.CLAIMS_MARKERS,
                                        make_results.claims_table(saved["main"], sens)) == readme
    page = make_results.RESULTS_PAGE.read_text(encoding="utf-8")
    start, end = make_results.RESULTS_MARKERS
    written = page.split(start + "\n", 1)[1].split(end, 1)[0]
    # The first line names the versions of the run's environment.
    assert (written.split("\n", 1)[1]
            == make_results.results_page(saved).split("\n", 1)[1])


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
