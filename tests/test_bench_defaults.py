"""benchmarks/bench_defaults.py: the rule that chooses the CV estimator's defaults."""

import re

import pytest
from _scripts import ROOT, load_script


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/bench_defaults.py")


def _results(bench, candidates, n_sets=40):
    """A summary of ``n_sets`` sets: RidgeCV at R² 0.5 and the reference MLP at 1 s on
    each, and per candidate ``(r2 per set, fit time per set)``."""
    sets = [f"s{k}" for k in range(n_sets)]
    results = {"RidgeCV": {s: (0.5, 0.01) for s in sets},
               bench.TIME_REFERENCE: {s: (0.5, 1.0) for s in sets}}
    for label, (r2, seconds) in candidates.items():
        results[label] = {s: (r2[k], seconds[k]) for k, s in enumerate(sets)}
    return results


@pytest.fixture
def two_candidates(bench, monkeypatch):
    monkeypatch.setattr(bench, "CANDIDATES", {"defaults": {}, "other": {}})


def test_the_highest_mean_of_the_qualifiers_wins(bench, two_candidates):
    results = _results(bench, {"defaults": ([0.55] * 40, [0.5] * 40),
                               "other": ([0.6] * 40, [0.9] * 40)})
    assert bench.verdict(results)[0] == "other"


@pytest.mark.parametrize("r2, seconds, why", [
    ([0.6] * 39 + [0.44], [0.9] * 40, "one set more than 0.05 below RidgeCV"),
    ([0.6] * 37 + [0.47] * 3, [0.9] * 40, "3 of 40 sets more than 0.02 below: over 5%"),
    ([0.6] * 40, [1.1] * 40, "a median time over the MLP's"),
])
def test_a_candidate_that_breaks_a_condition_does_not_qualify(bench, two_candidates, r2,
                                                              seconds, why):
    results = _results(bench, {"defaults": ([0.55] * 40, [0.5] * 40), "other": (r2, seconds)})
    assert bench.verdict(results)[0] == "defaults", why


def test_two_sets_of_forty_more_than_0_02_below_ridge_still_qualify(bench, two_candidates):
    results = _results(bench, {"defaults": ([0.55] * 40, [0.5] * 40),
                               "other": ([0.6] * 38 + [0.47] * 2, [0.9] * 40)})
    assert bench.verdict(results)[0] == "other"  # 2 of 40 is 5%, none 0.05 below


def test_within_0_001_the_cheaper_wins_and_the_large_sets_limit_time(bench, two_candidates):
    results = _results(bench, {"defaults": ([0.6] * 40, [0.5] * 40),
                               "other": ([0.6005] * 40, [0.9] * 40)})
    assert bench.verdict(results)[0] == "defaults"
    large = {bench.TIME_REFERENCE: {"big": (0.5, 10.0)}, "defaults": {"big": (0.5, 25.0)},
             "other": {"big": (0.5, 15.0)}}
    assert bench.verdict(results, large)[0] == "other"  # the defaults take 2.5 times there


def test_the_second_round_limits_the_median_time_on_large_sets(bench, two_candidates):
    results = _results(bench, {"defaults": ([0.6] * 40, [0.5] * 40),
                               "other": ([0.65] * 40, [0.9] * 40)})
    # The other takes 5 times the reference's time on one large set of three, 1.5 on two.
    large = {bench.TIME_REFERENCE: {s: (0.5, 10.0) for s in "abc"},
             "defaults": {s: (0.5, 10.0) for s in "abc"},
             "other": {"a": (0.5, 50.0), "b": (0.5, 15.0), "c": (0.5, 15.0)}}
    _, large_time, *_ = bench.ROUNDS["second"]
    assert bench.verdict(results, large, ("defaults", "other"), large_time)[0] == "other"
    assert bench.verdict(results, large, ("defaults", "other"))[0] == "defaults"  # the largest
    large["other"]["b"] = (0.5, 25.0)
    assert bench.verdict(results, large, ("defaults", "other"), large_time)[0] == "defaults"


def test_the_paired_tie_break_sees_the_sets_where_the_times_differ(bench, two_candidates):
    # The same fits on 30 sets, up to noise (the other 5% slower there), and a third of
    # the time on 10: by the medians of ratios to the MLP, the defaults are cheaper; paired
    # over the sets, the other.
    results = _results(bench, {"defaults": ([0.6] * 40, [0.5] * 40),
                               "other": ([0.6] * 40, [0.525] * 30 + [0.1667] * 10)})
    assert bench.verdict(results, labels=("defaults", "other"))[0] == "defaults"
    assert bench.verdict(results, labels=("defaults", "other"), paired=True)[0] == "other"
    assert bench.paired_time(results, "other", "defaults") == pytest.approx(
        (1.05 ** 30 * (0.1667 / 0.5) ** 10) ** (1 / 40))


def test_a_round_reads_the_time_reference_refitted_beside_it(bench, two_candidates):
    # The other at 1.2 s against the recorded MLP's 1 s, the MLP refitted beside it at 2 s.
    results = _results(bench, {"defaults": ([0.55] * 40, [0.5] * 40),
                               "other": ([0.6] * 40, [1.2] * 40)})
    refit = bench.TWENTY_SECOND_REFERENCE
    results[refit] = {s: (0.5, 2.0) for s in results["RidgeCV"]}
    assert bench.verdict(results)[0] == "defaults"
    choice, table = bench.verdict(results, reference=refit)
    assert choice == "other" and f"median time / {refit} |" in table
    assert bench.latest_reference(results) == refit
    # Outside the rounds, the defaults' times read the refit, which is not a row of its own.
    assert bench.refit_of_reference(results)[0] == refit
    assert "took 2 times its recorded times" in bench.refit_of_reference(results)[1]
    rows = bench.overview(results, refit).splitlines()[2:]
    assert "| defaults (time / MLP refit) | 40 |" in rows[-2] and rows[-2].endswith("| 0.25 |")
    assert not any(refit in row for row in rows)
    del results[refit]
    assert bench.latest_reference(results) == bench.TIME_REFERENCE


def test_none_qualifying_keeps_the_defaults(bench, two_candidates):
    results = _results(bench, {"defaults": ([0.3] * 40, [2.0] * 40),
                               "other": ([0.3] * 40, [2.0] * 40)})
    assert bench.verdict(results)[0] == "defaults (none qualifies)"


def test_the_headroom_is_the_mean_gain_of_the_better_model_per_set(bench):
    """A model better on one set of four by 0.4, worse on the others, and one below 0 where
    the reference is at 0.1: the headroom counts the first set's gain only (R² below 0 as
    0), on every set and on the large ones."""
    results = {"ref": {"a": (0.2, 1), "b": (0.5, 1), "c": (0.1, 1), "d": (0.6, 1)},
               "other": {"a": (0.6, 1), "b": (0.4, 1), "c": (-3.0, 1), "d": (0.5, 1)}}
    shapes = {"a": (2000, 3), "b": (2000, 3), "c": (100, 3), "d": (100, 3)}
    table = bench.headroom(results, "ref", shapes, min_rows=1000)
    assert table.splitlines()[0] == ("| model | headroom on 4 sets | on the 2 of at least "
                                     "1000 rows |")
    assert table.splitlines()[2] == "| other | +0.1000 | +0.2000 |"


def _block(page, name, command):
    text = (ROOT / "doc" / "user_guide" / page).read_text(encoding="utf-8")
    found = re.search(f"<!-- {name}: written by {re.escape(command)} -->\n(.*?)\n"
                      f"<!-- end of {name} -->", text, re.S)
    assert found, (page, name)
    return found.group(1)


@pytest.mark.parametrize("which", ["development", "confirmation"])
def test_the_pages_and_the_readme_are_the_summary_files(bench, capsys, which):
    """The README's real-data table, the selection page's and each half's pages are what
    ``bench_defaults.py --half <half> --analyse`` prints from the committed summaries."""
    command = f"python benchmarks/bench_defaults.py --half {which} --analyse"
    bench.main(["--half", which, "--analyse"])
    printed = capsys.readouterr().out
    blocks = [b.strip() for b in printed.split("\n\n")]
    tables = [b for b in blocks if b.startswith("|")]
    page = _block(f"{which}.md", which, command)
    for part in page.split("\n\n"):
        assert part in blocks
    if which == "confirmation":
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        assert tables[0] in readme and command in readme
        assert _block("selection.md", "confirmation", command) == tables[0]
        assert tables[1] in page  # every set
    else:
        rounds = ["verdict", *(f"{name} round" for name in list(bench.ROUNDS)[1:])]
        for k, (name, table) in enumerate(zip(rounds, tables)):
            # The first five rounds on the development page, the next ten on their own, the
            # sixteenth to the nineteenth with the large sets, the twentieth to the
            # twenty-fourth apart, and the later ones apart again.
            page_of_round = ("development.md" if k < 5 else "development_rounds.md" if k < 15
                             else "development_large.md" if k < 19
                             else "development_latest.md" if k < 24
                             else "development_recent.md")
            verdict = _block(page_of_round, name, command)
            assert verdict.startswith(table)
            assert verdict.endswith(blocks[blocks.index(table) + 1] + ".")
        every_model, first_sets, later_sets, last_sets = tables[len(rounds):len(rounds) + 4]
        assert every_model in page
        assert _block("development_sets.md", "development sets", command) == first_sets
        assert _block("development_later.md", "development later", command) == later_sets
        assert _block("development_latest_sets.md", "development latest", command) == last_sets
        for part in _block("development_large.md", "development large", command).split("\n\n"):
            assert part in blocks


@pytest.mark.parametrize("which", ["development", "confirmation"])
def test_the_fifth_reading_page_is_its_summary_files(bench, capsys, which):
    """The fifth reading's page holds what ``--fifth --analyse`` prints for each half."""
    command = f"python benchmarks/bench_defaults.py --half {which} --fifth --analyse"
    bench.main(["--half", which, "--fifth", "--analyse"])
    blocks = [b.strip() for b in capsys.readouterr().out.split("\n\n")]
    assert "fifth reading: 3 real sets" in blocks[0]
    for part in _block("fifth_reading.md", f"fifth {which}", command).split("\n\n"):
        assert part in blocks


@pytest.mark.parametrize("boosting, gaps, seconds, met", [
    (0.60, (0.0,) * 40, 0.5, ["yes"] * 4),
    (0.615, (0.0,) * 40, 0.5, ["no", "yes", "yes", "yes"]),  # boosting within 0.01
    (0.60, (0.03,) * 3 + (0.0,) * 37, 0.5, ["yes", "no", "yes", "yes"]),  # 3 of 40 > 5%
    (0.60, (0.06,) + (0.0,) * 39, 0.5, ["yes", "yes", "no", "yes"]),
    (0.60, (0.0,) * 40, 1.5, ["yes"] * 3 + ["no"]),
])
def test_must_show_checks_each_target_of_the_confirmation_half(
        bench, boosting, gaps, seconds, met):
    results = _results(bench, {"defaults": ([0.62 - g for g in gaps], [seconds] * 40),
                               bench.BOOSTING: ([boosting] * 40, [0.1] * 40)})
    results["RidgeCV"] = {s: (0.62, 0.01) for s in results["RidgeCV"]}
    large = {"defaults": {"big": (0.5, 3.0)}, bench.TIME_REFERENCE: {"big": (0.5, 1.0)}}
    rows = bench.must_show(results, large).splitlines()[2:]
    assert [row.split(" | ")[-1].rstrip(" |") for row in rows] == [*met, "no"]
    assert rows[-1].startswith(f"| largest fit time / {bench.TIME_REFERENCE}")
    assert "| 3 |" in rows[-1]
    # Refitted beside the defaults, the reference's time is the refit's.
    results[bench.TWENTY_SECOND_REFERENCE] = {s: (0.5, 3.0) for s in results["RidgeCV"]}
    large[bench.TWENTY_SECOND_REFERENCE] = {"big": (0.5, 3.0)}
    rows = bench.must_show(results, large).splitlines()[2:]
    assert rows[-1].startswith(f"| largest fit time / {bench.TWENTY_SECOND_REFERENCE}")
    assert [row.split(" | ")[-1].rstrip(" |") for row in rows][-2:] == ["yes", "yes"]
