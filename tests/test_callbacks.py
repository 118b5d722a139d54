"""scikit-learn's callbacks: progress bars and score monitors (scikit-learn >= 1.9).

With an older scikit-learn only the first test runs: the package works, without
``set_callbacks``.
"""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_friedman1
from sklearn.model_selection import GridSearchCV

from sklearn_softattn import PAPER_BASELINE, SoftmaxAttentionRegressor
from sklearn_softattn._callbacks import Task

try:
    import sklearn.callback as callback
except ImportError:
    callback = None

# Short fits reach max_iter on purpose.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
needs_callbacks = pytest.mark.skipif(callback is None,
                                     reason="scikit-learn < 1.9 has no sklearn.callback")

FITTED = ["key_query_", "value_", "context_", "context_weight_", "x_offset_", "y_offset_",
          "coef_", "intercept_", "n_iter_", "loss_curve_"]


def make_data():
    return make_friedman1(80, 5, noise=0.5, random_state=0)


def test_without_the_callback_api_the_estimator_fits_and_tasks_are_inert():
    X, y = make_data()
    reg = SoftmaxAttentionRegressor(max_iter=5, random_state=0).fit(X, y)
    assert np.isfinite(reg.score(X, y))
    if callback is None:
        assert not hasattr(reg, "set_callbacks")
    task = Task.begin_fit(object(), X, y, None, max_subtasks=5)  # an object without the API
    assert task.subtask("fold", 3) is task
    assert task.iteration_hook(lambda K, V: {}) is None
    assert task.end({}) is False


@needs_callbacks
@pytest.mark.parametrize("params", [{}, PAPER_BASELINE, {"early_stopping": True}])
def test_callbacks_change_no_fitted_value(params):
    pytest.importorskip("rich")
    X, y = make_data()
    reg = SoftmaxAttentionRegressor(max_iter=15, random_state=0, **params)
    plain = clone(reg).fit(X, y)
    watched = clone(reg).set_callbacks(
        callback.ProgressBar(), callback.ScoringMonitor(scoring="r2")
    ).fit(X, y)
    for name in FITTED:
        np.testing.assert_array_equal(getattr(watched, name), getattr(plain, name))
    np.testing.assert_array_equal(watched.predict(X), plain.predict(X))


@needs_callbacks
def test_scoring_monitor_records_a_score_per_iteration():
    X, y = make_data()
    monitor = callback.ScoringMonitor(scoring="r2")
    reg = SoftmaxAttentionRegressor(max_iter=12, tol=0, random_state=0)
    reg.set_callbacks(monitor).fit(X, y)
    rows = monitor.get_logs().data
    iterations = [row for row in rows if row["task_name"] == "iteration"]
    assert len(iterations) == reg.n_iter_ == 12
    assert [row["task_id"] for row in iterations] == list(range(12))
    # The last iteration's model is the fitted one; the fit task scores it too.
    fit_row = next(row for row in rows if row["task_name"] == "fit")
    assert iterations[-1]["r2"] == pytest.approx(reg.score(X, y), rel=1e-12)
    assert fit_row["r2"] == pytest.approx(reg.score(X, y), rel=1e-12)
    # Training improves the training R² of the spectral start's first step.
    assert iterations[-1]["r2"] > iterations[0]["r2"]


@needs_callbacks
def test_scoring_monitor_scores_data_frames_and_1d_targets():
    pd = pytest.importorskip("pandas")
    X, y = make_data()
    X = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
    monitor = callback.ScoringMonitor(scoring="neg_mean_squared_error")
    with warnings.catch_warnings():
        # No feature-name warning from the copies that are scored.
        warnings.filterwarnings("error", message=".*feature names")
        SoftmaxAttentionRegressor(max_iter=3, random_state=0).set_callbacks(
            monitor).fit(X, y)
    assert all(np.isfinite(row["neg_mean_squared_error"])
               for row in monitor.get_logs().data)


class StopAfter:
    """A callback that asks fit to stop after ``n`` iterations."""

    def __init__(self, n):
        self.n = n

    def setup(self, estimator, context):
        pass

    def on_fit_task_begin(self, estimator, context):
        pass

    def on_fit_task_end(self, estimator, context):
        return context.task_name == "iteration" and context.task_id + 1 >= self.n

    def teardown(self, estimator, context):
        pass


@needs_callbacks
@pytest.mark.parametrize("solver", ["gd", "adam"])
def test_a_callback_can_stop_fit(solver):
    X, y = make_data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # stopped on request: no ConvergenceWarning
        reg = SoftmaxAttentionRegressor(solver=solver, tol=0, random_state=0)
        reg.set_callbacks(StopAfter(3)).fit(X, y)
    assert reg.n_iter_ == 3 and len(reg.loss_curve_) == 3


@needs_callbacks
def test_progress_bar_shows_fit(capsys):
    pytest.importorskip("rich")
    X, y = make_data()
    SoftmaxAttentionRegressor(max_iter=5, random_state=0).set_callbacks(
        callback.ProgressBar()).fit(X, y)
    assert "SoftmaxAttentionRegressor - fit" in capsys.readouterr().out


@needs_callbacks
def test_progress_bar_nests_fits_under_grid_search(capsys, monkeypatch):
    pytest.importorskip("rich")
    monkeypatch.setenv("COLUMNS", "200")  # rich's width: room for every description
    X, y = make_data()
    search = GridSearchCV(SoftmaxAttentionRegressor(max_iter=3, random_state=0),
                          {"attention_scale": [0.5, 1.0]}, cv=2)
    search.set_callbacks(callback.ProgressBar(max_propagation_depth=None)).fit(X, y)
    out = capsys.readouterr().out
    assert out.count("SoftmaxAttentionRegressor - fit") == 2 * 2 + 1  # and the refit


@needs_callbacks
def test_tasks_nest_folds_path_points_and_iterations(capsys, monkeypatch):
    """The task tree a cross-validated path builds: folds, then path points,
    then the solver's iterations, each iteration's model scored on its fold."""
    pytest.importorskip("rich")
    monkeypatch.setenv("COLUMNS", "200")
    from sklearn.callback._callback_support import callback_management_context

    X, y = make_data()
    fitted = SoftmaxAttentionRegressor(max_iter=4, random_state=0).fit(X, y)
    monitor = callback.ScoringMonitor(scoring="r2")
    reg = clone(fitted).set_callbacks(monitor, callback.ProgressBar())
    folds, scales, n_iter = [np.arange(0, 80, 2), np.arange(1, 80, 2)], [0.5, 2.0], 3
    with callback_management_context(reg):  # what _fit_context does around fit
        root = Task.begin_fit(reg, X, y, None, max_subtasks=len(folds))
        fold_tasks = [root.subtask("fold", len(scales), X=X[rows], y=y[rows])
                      for rows in folds]
        for fold in fold_tasks:
            for scale in scales:
                point = fold.subtask(f"attention_scale={scale:g}", n_iter)
                on_iteration = point.iteration_hook(
                    lambda K, V: dict(vars(fitted), key_query_=K, value_=V))
                for _ in range(n_iter):
                    assert not on_iteration(fitted.key_query_, fitted.value_)
                point.end()
            fold.end()
        root.end()
    rows = monitor.get_logs().data
    assert [row["task_id_path"] for row in rows] == [
        (0, f, p, i) for f in range(2) for p in range(2) for i in range(n_iter)
    ]
    # Every iteration's model is the fitted one, scored on its own fold.
    for row in rows:
        fold_rows = folds[row["task_id_path"][1]]
        assert row["r2"] == pytest.approx(fitted.score(X[fold_rows], y[fold_rows]))
    out = capsys.readouterr().out
    assert out.count("fold #") == 2 and out.count("attention_scale=2 #1") == 2


@needs_callbacks
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_cross_validated_path_reports_folds_paths_points_and_iterations(n_jobs):
    from sklearn_softattn import SoftmaxAttentionRegressorCV

    X, y = make_data()
    # Shrinkages far apart, so that no fold fits the two as one path.
    cv = SoftmaxAttentionRegressorCV(attention_scales=[0.1, 1.0], balance_strengths=[0.1, 1.0],
                                     shrinkages=[0.0, 100.0], attention_shrinkages=None, cv=2,
                                     max_iters=3, tol=0, random_state=0, n_jobs=n_jobs)
    plain = clone(cv).fit(X, y)
    monitor = callback.ScoringMonitor(scoring="r2")
    watched = clone(cv).set_callbacks(monitor).fit(X, y)
    np.testing.assert_array_equal(watched.score_path_, plain.score_path_)
    np.testing.assert_array_equal(watched.predict(X), plain.predict(X))
    paths = {row["task_id_path"] for row in monitor.get_logs().data}
    # fit / fold / (balance_strength, shrinkage) / attention scale / iteration. The refit
    # is a SoftmaxAttentionRegressor's fit, which follows scikit-learn's propagation:
    # callbacks that propagate (ProgressBar) go with it, a ScoringMonitor does not.
    folds = {(0, f, a, s, i) for f in range(2) for a in range(4) for s in range(2)
             for i in range(3)}
    assert paths == folds | {(0,)}
