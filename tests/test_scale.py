"""Scale: float32, blocked queries, n_jobs, and running under joblib, dask and dask-ml.

The dask, distributed and dask-ml tests skip cleanly where those packages are
missing; the ``tests`` extra installs them (pinned to versions tested together),
so CI runs them.
"""

import tracemalloc
import warnings

import joblib
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone
from sklearn.datasets import make_friedman1
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import r2_score
from sklearn.model_selection import GridSearchCV, KFold

from _scripts import load_script
from test_attention import _forward_scale, _term_scales
from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV, _attention
from sklearn_softattn._attention import attention_forward, attention_loss_grad


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


@pytest.fixture
def data():
    X, y = make_friedman1(300, 6, noise=0.5, random_state=0)
    return X, y


def _reg(**params):
    return SoftmaxAttentionRegressor(**{"max_iter": 5, "tol": 0, "random_state": 0} | params)


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of a few rows, so that small data spans many blocks, on every thread."""
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 256)
    monkeypatch.setattr(_attention, "_THREAD_SCORES", 1)


# float32 and float64


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dtype_kept_through_fit_and_predict(data, dtype):
    X, y = data
    reg = _reg(max_context=100).fit(X.astype(dtype), y.astype(dtype))
    for name in ["key_query_", "value_", "context_", "x_offset_", "y_offset_", "coef_"]:
        assert getattr(reg, name).dtype == dtype, name
    assert reg.context_weight_.dtype == np.float64  # weights are counts: float64 always
    assert reg.predict(X.astype(dtype)).dtype == dtype
    assert np.all(np.isfinite(reg.predict(X.astype(dtype))))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_partial_fit_keeps_dtype(data, dtype):
    X, y = data
    reg = _reg(max_context=100)
    for rows in np.array_split(np.arange(len(X)), 3):
        reg.partial_fit(X[rows].astype(dtype), y[rows].astype(dtype))
    assert reg.key_query_.dtype == dtype
    assert reg.predict(X).dtype in (dtype, np.float64)  # float64 input may stay float64


def test_float32_close_to_float64(data):
    X, y = data
    reg64 = _reg().fit(X, y)
    reg32 = _reg().fit(X.astype(np.float32), y.astype(np.float32))
    scale = np.std(y)
    assert_allclose(reg32.predict(X.astype(np.float32)), reg64.predict(X),
                    atol=1e-3 * scale, rtol=1e-3)
    assert abs(reg32.score(X, y) - reg64.score(X, y)) < 1e-3


# Query blocks and threads


def test_blocked_kernel_matches_one_block(monkeypatch):
    rng = np.random.default_rng(0)
    n, m, d, q = 97, 31, 4, 2
    Z, Y = rng.standard_normal((n, d)), rng.standard_normal((n, q))
    K, V = rng.standard_normal((d, d)) / 2, rng.standard_normal((q, d))
    weight, context_weight = rng.uniform(0.5, 2, n), rng.integers(1, 3, m).astype(float)
    self_index = np.where(np.arange(n) < m, np.arange(n), -1)
    args = (Z, Y, weight, Z[:m], K, V, context_weight, self_index)
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 10**9)
    assert _attention._block_rows(n, m) == n
    loss, grad_K, grad_V = attention_loss_grad(*args)
    forward = attention_forward(Z, Z[:m], K, V, context_weight)
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 3 * m)
    monkeypatch.setattr(_attention, "_THREAD_SCORES", 1)  # n_jobs=2 on two threads
    assert _attention._block_rows(n, m) == 3
    # BLAS may round products of other shapes differently: round-off relative to the
    # sizes of the terms each result sums (a prediction or gradient entry may cancel
    # to near 0, where it has no relative accuracy).
    loss_scale, gradient_scale = _term_scales(Z, Y, Z[:m], V, None)
    forward_scale = _forward_scale(Z, Z[:m], K, V, context_weight)
    for n_jobs in [1, 2]:
        blocked = attention_loss_grad(*args, n_jobs=n_jobs)
        assert_allclose(blocked[0], loss, rtol=1e-13, atol=1e-13 * loss_scale)
        assert_allclose(blocked[1], grad_K, rtol=1e-12, atol=1e-12 * gradient_scale)
        assert_allclose(blocked[2], grad_V, rtol=1e-12, atol=1e-12 * gradient_scale)
        assert_allclose(attention_forward(Z, Z[:m], K, V, context_weight, n_jobs),
                        forward, rtol=1e-13, atol=1e-13 * forward_scale)


def test_predict_many_rows_in_bounded_memory(monkeypatch):
    """Memory of predict: the centered copy of X plus one block, never n x m."""
    X, y = make_friedman1(2000, 5, random_state=0)
    reg = _reg(max_context=500, max_iter=1).fit(X, y)
    X_big = np.random.default_rng(0).random((40_000, 5))
    monkeypatch.setattr(_attention, "_BLOCK_ELEMENTS", 2**14)
    expected = np.concatenate([reg.predict(X_big[i:i + 5000])
                               for i in range(0, len(X_big), 5000)])
    tracemalloc.start()
    try:
        predicted = reg.predict(X_big)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert_allclose(predicted, expected, rtol=1e-13)  # other blocks: round-off only
    full_scores = len(X_big) * 500 * 8  # 160 MB, never allocated
    assert peak < 2 * X_big.nbytes + 2 * 2**20, (peak, full_scores)


@pytest.mark.parametrize("solver", ["gd", "adam"])
def test_threads_give_identical_fits(data, small_blocks, solver, openmp_threads):
    X, y = data
    fits = []
    for limit in [1, 2, None]:
        with openmp_threads(limit):
            reg = _reg(solver=solver).fit(X, y)
            fits.append((reg, reg.predict(X)))
    for reg, predicted in fits[1:]:
        assert_array_equal(reg.key_query_, fits[0][0].key_query_)
        assert_array_equal(reg.value_, fits[0][0].value_)
        assert reg.loss_curve_ == fits[0][0].loss_curve_
        assert_array_equal(predicted, fits[0][1])


def test_threads_give_identical_partial_fits(data, small_blocks, openmp_threads):
    X, y = data
    fits = []
    for limit in [1, 2]:
        with openmp_threads(limit):
            reg = _reg()
            for rows in np.array_split(np.arange(len(X)), 3):
                reg.partial_fit(X[rows], y[rows])
            fits.append((reg, reg.predict(X)))
    assert_array_equal(fits[0][0].key_query_, fits[1][0].key_query_)
    assert_array_equal(fits[0][1], fits[1][1])


def test_max_context_bounds_the_context(data):
    X, y = data
    reg = _reg(max_context=50).fit(X, y)
    assert reg.context_.shape == (50, X.shape[1])
    again = _reg(max_context=50).fit(X, y)
    assert_array_equal(reg.context_, again.context_)  # seeded by random_state


def test_the_cv_estimator_attends_over_the_base_estimators_default_context():
    # 2048 tokens by default, in the folds and the refit, as the base estimator.
    X, y = make_friedman1(2100, 5, random_state=0)
    cv = SoftmaxAttentionRegressorCV(attention_scales=[0.0, 0.1], cv=2, max_iters=2,
                                     random_state=0).fit(X, y)
    assert cv.context_.shape == (2048, 5)
    assert SoftmaxAttentionRegressor().max_context == 2048


# Beyond one process


def _grid():
    return GridSearchCV(_reg(max_context=100), {"attention_scale": [0.5, 2.0]},
                        cv=KFold(3), scoring="r2")


def _check_same_search(search, X, y):
    reference = _grid().fit(X, y)
    assert search.best_params_ == reference.best_params_
    assert_allclose(search.cv_results_["mean_test_score"],
                    reference.cv_results_["mean_test_score"], rtol=1e-10)
    assert_allclose(search.predict(X), reference.predict(X), rtol=1e-10)


def test_grid_search_loky(data):
    X, y = data
    with joblib.parallel_config(backend="loky", n_jobs=2):
        search = _grid().fit(X, y)
    _check_same_search(search, X, y)


@pytest.fixture(scope="module")
def dask_client():
    pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client


def test_grid_search_dask(data, dask_client):
    X, y = data
    with joblib.parallel_config(backend="dask"):
        search = _grid().fit(X, y)
    _check_same_search(search, X, y)
    assert dask_client.status == "running"


def test_cv_estimator_folds_on_a_dask_cluster(data):
    """The folds of SoftmaxAttentionRegressorCV run on two dask workers through joblib's
    dask backend, and give the score path and choice of a sequential fit."""
    pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")
    X, y = data
    reg = SoftmaxAttentionRegressorCV(attention_scales=[0.01, 1.0, 3.0], balance_strengths=[0.0, 1.0],
                                      shrinkages=[0.0], cv=3, max_iters=20, random_state=0)
    sequential = clone(reg).fit(X, y)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client, joblib.parallel_config(backend="dask"):
            with distributed.get_task_stream(client) as stream:
                on_dask = clone(reg).fit(X, y)
    assert stream.data  # the folds ran as tasks on the cluster
    assert_array_equal(on_dask.score_path_, sequential.score_path_)
    assert (on_dask.best_params_["attention_scale"], on_dask.best_params_["balance_strength"]) == (sequential.best_params_["attention_scale"],
                                                          sequential.best_params_["balance_strength"])
    assert_array_equal(on_dask.predict(X), sequential.predict(X))


def test_dask_ml_incremental_equals_partial_fit(data, dask_client):
    da = pytest.importorskip("dask.array")
    wrappers = pytest.importorskip("dask_ml.wrappers")
    X, y = data
    X_da, y_da = da.from_array(X, chunks=(100, -1)), da.from_array(y, chunks=100)
    incremental = wrappers.Incremental(_reg(max_context=100), shuffle_blocks=False)
    incremental.fit(X_da, y_da)
    reference = _reg(max_context=100)
    for start in range(0, len(X), 100):
        reference.partial_fit(X[start:start + 100], y[start:start + 100])
    fitted = incremental.estimator_
    assert fitted.n_iter_ == reference.n_iter_ == 3
    assert_allclose(fitted.key_query_, reference.key_query_, rtol=1e-12)
    assert_allclose(fitted.value_, reference.value_, rtol=1e-12)
    # Score on computed predictions: Incremental(...).score goes through
    # dask-ml's own r2 metric, which is not what is tested here.
    predicted = incremental.predict(X_da)
    assert isinstance(predicted, da.Array)
    assert_allclose(predicted.compute(), reference.predict(X), rtol=1e-12)
    assert r2_score(y, predicted.compute()) > 0.5


def test_dask_ml_parallel_post_fit_predict(data, dask_client):
    da = pytest.importorskip("dask.array")
    wrappers = pytest.importorskip("dask_ml.wrappers")
    X, y = data
    wrapped = wrappers.ParallelPostFit(_reg(max_context=100)).fit(X, y)
    X_big = np.random.default_rng(1).random((1000, X.shape[1]))
    predicted = wrapped.predict(da.from_array(X_big, chunks=(250, -1)))
    assert isinstance(predicted, da.Array)
    assert_allclose(predicted.compute(), wrapped.estimator.predict(X_big), rtol=1e-13)


def test_benchmark_children_run(tmp_path):
    """The scale benchmark's measurements, at toy sizes, in this process."""
    import pickle

    bench = load_script("benchmarks/bench_scale.py")
    fit = bench.child_fit({"n": 300, "d": 5, "max_iter": 2, "max_context": 100,
                           "threads": 1, "n_test": 100})
    assert fit["n_iter"] == 2 and fit["passes"] >= 3 and fit["rss_peak_mib"] > 0
    assert np.isfinite(fit["r2"])
    model = tmp_path / "model.pkl"
    model.write_bytes(pickle.dumps(_reg(max_context=100).fit(*make_friedman1(300, 5))))
    predict = bench.child_predict({"model": str(model), "rows": 1000, "threads": [1, 2],
                                   "repeat": 1})
    assert set(predict["best_s"]) == {"1", "2"}
    compare = bench.child_compare({"n": 300, "n_test": 100, "d": 5,
                                   "attention": [{"max_iter": 2}]})
    assert len(compare) == 4


def test_more_than_two_to_the_31_scores():
    """2**31 + 2**11 scores in one call (8 MiB of input): 64-bit indices, one block at a time."""
    import _reference as reference

    n, m = 2**20 + 1, 2**11
    rng = np.random.default_rng(0)
    Zq, Zc = rng.standard_normal((n, 1)), rng.standard_normal((m, 1))
    K, V = np.array([[0.7]]), np.array([[1.3]])
    out = attention_forward(Zq, Zc, K, V, np.ones(m))
    assert np.all(np.isfinite(out))
    rows = np.r_[0:5, n // 2, n - 5:n]  # the last rows are past 2**31 scores
    assert_allclose(out[rows], reference.attention_forward(Zq[rows], Zc, K, V, np.ones(m)),
                    rtol=1e-12, atol=1e-12 * _forward_scale(Zq[rows], Zc, K, V, np.ones(m)))
