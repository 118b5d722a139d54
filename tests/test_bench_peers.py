"""The benchmarks' own peers (MLKR with a Nadaraya-Watson prediction) and
benchmarks/bench_generated.py."""

import numpy as np
import pytest
from scipy.optimize import check_grad
from sklearn.datasets import make_friedman1
from sklearn.linear_model import RidgeCV

from _scripts import load_script


@pytest.fixture(scope="module")
def generated():
    return load_script("benchmarks/bench_generated.py")


@pytest.fixture(scope="module")
def common(generated):
    import _common  # imported by the benchmark, from beside it

    return _common


def test_mlkr_gradient_and_leave_one_out(common, monkeypatch):
    X, y = make_friedman1(n_samples=40, random_state=0)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    seen = {}

    def spy(fun, x0, **kwargs):
        seen["fun"] = fun
        return common.minimize.__wrapped__(fun, x0, **kwargs)

    spy.__wrapped__ = common.minimize
    monkeypatch.setattr(common, "minimize", spy)
    model = common.MLKRNadarayaWatson(max_iter=5).fit(X, y)
    fun = seen["fun"]
    point = np.random.default_rng(0).normal(size=X.shape[1] ** 2) * 0.3
    error = check_grad(lambda v: fun(v)[0], lambda v: fun(v)[1], point)
    assert error < 1e-5 * np.linalg.norm(fun(point)[1])
    # The objective is the leave-one-out error: at L = I, each row's prediction is the
    # Nadaraya-Watson mean of the other rows.
    D = ((X[:, None] - X[None]) ** 2).sum(axis=-1)
    np.fill_diagonal(D, np.inf)
    A = np.exp(-(D - D.min(axis=1, keepdims=True)))
    loo = A @ y / A.sum(axis=1)
    assert fun(np.eye(X.shape[1]).ravel())[0] == pytest.approx(np.sum((loo - y) ** 2))
    # predict smooths the training targets in the learned metric (own row included).
    assert model.predict(X[:3]).shape == (3,)


def test_mlkr_learns_a_metric_that_beats_identity_on_friedman1(common):
    X, y = make_friedman1(n_samples=200, noise=0.5, random_state=0)
    X_test, y_test = make_friedman1(n_samples=200, noise=0.5, random_state=1)
    mean, std = X.mean(axis=0), X.std(axis=0)
    X, X_test = (X - mean) / std, (X_test - mean) / std
    learned = common.MLKRNadarayaWatson(max_iter=50).fit(X, y).score(X_test, y_test)
    identity = common.MLKRNadarayaWatson()  # the Nadaraya-Watson smoother, L = I
    identity.components_, identity.X_fit_, identity.y_fit_ = np.eye(10), X, y
    assert learned > identity.score(X_test, y_test) + 0.1


def test_generated_table_has_every_set_and_model(generated, monkeypatch):
    monkeypatch.setattr(generated, "peers", lambda: {"MLPRegressor": RidgeCV(),
                                                    "RidgeCV": RidgeCV()})
    monkeypatch.setattr(generated, "package_models", lambda *args, **kwargs: {})
    table = generated.table(generated.measure(50)).splitlines()
    assert table[0] == "| data set | MLPRegressor | RidgeCV |"
    assert [row.split(" | ")[0] for row in table[2:]] == [
        "| make_friedman1", "| make_friedman2", "| make_friedman3"]
    assert all("(1×)" in row.split(" | ")[1] for row in table[2:])


def test_generated_fits_the_models_asked_for_and_the_time_reference(generated, monkeypatch):
    monkeypatch.setattr(generated, "peers", lambda: {"MLPRegressor": RidgeCV(),
                                                    "RidgeCV": RidgeCV(), "other": RidgeCV()})
    monkeypatch.setattr(generated, "package_models", lambda *args, **kwargs: {})
    results = generated.measure(50, labels=["other"])
    assert all(list(r) == ["MLPRegressor", "other"] for r in results.values())
    with pytest.raises(SystemExit, match="unknown models: nope"):
        generated.measure(50, labels=["nope"])
