"""benchmarks/bench_additive.py: the additive end, probed beside the CV estimator."""

import re

import numpy as np
import pytest
from _scripts import ROOT, load_script
from sklearn.datasets import make_friedman1
from sklearn.model_selection import KFold


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/bench_additive.py")


def test_a_fold_scores_each_model_and_the_choice_is_one_of_the_two(bench):
    X, y = make_friedman1(240, noise=1.0, random_state=0)
    train, test = next(KFold(3, shuffle=True, random_state=0).split(X))
    result = bench.fold_scores(X, y, train, test)
    # The CV estimator's ten folds (five, drawn twice) of its 160 training rows.
    assert result["folds"] == 10
    assert set(result["validation"]) == {"chosen point", *bench.ENDS}
    assert {len(v) for v in result["validation"].values()} == {10}
    r2, seconds = bench.with_choices(result)
    assert set(r2) == set(seconds) == set(bench.LABELS)
    for label, (end, margin) in bench.CHOICES.items():
        assert r2[label] == r2[end if bench.choose(result, end, margin) else "defaults"]
    # Friedman's first target is additive but for one product: splines fit it closely.
    assert r2["additive end"] > r2["RidgeCV"] + 0.05
    assert all(t > 0 for t in seconds.values())


def test_the_defaults_and_each_end_are_cached_apart(bench):
    X, y = make_friedman1(150, noise=1.0, random_state=0)
    train, test = next(KFold(3, shuffle=True, random_state=0).split(X))
    store, computed = {}, []

    def cache(part, compute):
        if part not in store:
            computed.append(part)
            store[part] = compute()
        return store[part]

    first = bench.fold_scores(X, y, train, test, cache)
    again = bench.fold_scores(X, y, train, test, cache)
    assert computed == ["defaults", *bench.ENDS]  # each once
    assert again == first and "additive end" not in store["defaults"]["r2"]


def test_a_margin_asks_the_additive_end_to_lead_by_that_many_standard_errors(bench):
    # Gaps 0.1, 0.3 (mean 0.2, standard error 0.1): ahead by 2 standard errors, not 3.
    fold = {"validation": {"chosen point": [0.5, 0.5], "additive end": [0.6, 0.8]}}
    assert [bench.choose(fold, "additive end", margin) for margin in (0, 1, 1.9, 2.1, 3)] == [
        True, True, True, False, False]
    behind = {"validation": {"chosen point": [0.5, 0.5], "additive end": [0.4, 0.6]}}
    assert not bench.choose(behind, "additive end", 0)


@pytest.mark.parametrize("end", ["additive end", "additive end from 0.1",
                                 "layer on the splines"])
def test_each_additive_end_is_flat_beyond_the_training_range(bench, end):
    X = np.linspace(-1, 1, 60)[:, None]
    model = bench.ENDS[end][0]().fit(X, X[:, 0] ** 2)
    far = model.predict(np.array([[1.0], [10.0], [1000.0]]))
    assert np.allclose(far, far[0])


def test_the_overview_counts_the_sets_below_ridge(bench):
    results = {"RidgeCV": {"a": (0.5, 1), "b": (0.5, 1), "c": (0.2, 1)},
               "other": {"a": (0.47, 1), "b": (0.4, 1), "c": (-1.0, 1)}}
    lines = bench.overview(results).splitlines()
    assert lines[2] == "| RidgeCV | 3 | 0.4000 | 0 | 0 |"
    assert lines[3] == "| other | 3 | 0.2900 | 3 | 2 |"


@pytest.mark.parametrize("part", ["development", "fifth", "large"])
def test_the_benchmark_log_is_the_summary_files(bench, capsys, part):
    bench.analyse(part)
    blocks = [b.strip() for b in capsys.readouterr().out.split("\n\n")]
    log = (ROOT / "doc" / "user_guide" / "benchmark_log.md").read_text(encoding="utf-8")
    found = re.search(f"<!-- additive {part}: written by python benchmarks/bench_additive.py "
                      f"--analyse -->\n(.*?)\n<!-- end of additive {part} -->", log, re.S)
    assert found
    for block in found.group(1).split("\n\n"):
        assert block in blocks
