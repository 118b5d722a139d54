"""benchmarks/bench_shrinkage.py: the ridge penalty past the linear limit."""

from importlib.metadata import PackageNotFoundError

import numpy as np
import pytest
from _scripts import load_script
from sklearn.datasets import make_friedman1
from sklearn.model_selection import KFold


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/bench_shrinkage.py")


def test_without_islp_the_error_says_how_to_get_its_data(bench, monkeypatch):
    def missing(name):
        raise PackageNotFoundError(name)

    monkeypatch.setattr(bench, "files", missing)
    with pytest.raises(SystemExit, match="pip install --no-deps ISLP"):
        bench.bikeshare()


def test_context_samples_refit_the_chosen_point_at_both_shrinkages(bench):
    X, y = make_friedman1(240, noise=1.0, random_state=0)
    folds = list(KFold(3, shuffle=True, random_state=0).split(X))
    point, runs = bench.context_samples(X, y, folds, seeds=range(2))
    assert point["shrinkage"] in ("auto", 0.0, 10.0) and point["max_iter"] in (5, 15, 40)
    assert set(runs) == {"auto", 0.0}
    for fits in runs.values():
        r2, sharpness = np.array(fits).T
        assert len(fits) == 2 and np.all(np.isfinite(r2)) and np.all(sharpness >= 0)
