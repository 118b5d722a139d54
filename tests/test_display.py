"""ScorePathDisplay draws the CV estimator's score path (Agg backend)."""

import sys
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_friedman1, make_regression
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import ShuffleSplit

from sklearn_softattn import (
    ScorePathDisplay,
    SoftmaxAttentionRegressor,
    SoftmaxAttentionRegressorCV,
)

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


@pytest.fixture(scope="module")
def fitted():
    X, y = make_friedman1(n_samples=120, noise=0.5, random_state=0)
    return SoftmaxAttentionRegressorCV(attention_scales=[0.0, 0.1, 1.0], balance_strengths=[0.0, 1.0],
                                       shrinkages=[0.0, 10.0], attention_shrinkages=None,
                                       cv=3, max_iters=30, random_state=0).fit(X, y)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_from_estimator_draws_one_line_per_alpha_and_shrinkage(fitted):
    display = ScorePathDisplay.from_estimator(fitted)
    mean = fitted.score_path_.mean(axis=-1)[:, 0]  # (scales, alphas, shrinkages): one count
    mean[np.isneginf(mean)] = np.nan  # points a fold's path stopped before: not drawn
    assert [line.get_label() for line in display.lines_] == [
        "balance_strength=0, shrinkage=0", "balance_strength=0, shrinkage=10",
        "balance_strength=1, shrinkage=0", "balance_strength=1, shrinkage=10",
    ]
    for (a, r), line in zip(np.ndindex(2, 2), display.lines_):
        np.testing.assert_array_equal(line.get_xdata(), fitted.attention_scales_)
        np.testing.assert_allclose(line.get_ydata(), mean[:, a, r])
    assert len(display.fill_between_) == 4
    # The linear limit (scale 0) has a place: linear up to the first positive scale.
    assert display.ax_.get_xscale() == "symlog"
    assert display.ax_.xaxis.get_transform().linthresh == 0.1
    assert display.ax_.get_xlabel() == "attention_scale"
    assert "R²" in display.ax_.get_ylabel() and "3 folds" in display.ax_.get_ylabel()
    assert display.figure_ is display.ax_.figure
    # The chosen point, on the chosen (alpha, shrinkage)'s line.
    s = list(fitted.attention_scales_).index(fitted.best_params_["attention_scale"])
    a = list(fitted.balance_strengths_).index(fitted.best_params_["balance_strength"])
    r = list(fitted.shrinkages_).index(fitted.best_params_["shrinkage"])
    assert display.chosen == (s, 2 * a + r)
    np.testing.assert_allclose(display.chosen_.get_xdata(), [fitted.best_params_["attention_scale"]])
    np.testing.assert_allclose(display.chosen_.get_ydata(), [mean[s, a, r]])
    assert "chosen" in display.chosen_.get_label()
    assert "linear limit" in [text.get_text() for text in display.ax_.texts]
    legend = [text.get_text() for text in display.ax_.get_legend().get_texts()]
    assert legend[:4] == [line.get_label() for line in display.lines_]
    assert legend[4].startswith("chosen")


def test_the_band_is_the_folds_spread(fitted):
    display = ScorePathDisplay.from_estimator(fitted)
    mean, std = fitted.score_path_.mean(axis=-1)[:, 0], fitted.score_path_.std(axis=-1)[:, 0]
    vertices = display.fill_between_[3].get_paths()[0].vertices[:, 1]
    assert np.isclose(vertices.min(), (mean[:, 1, 1] - std[:, 1, 1]).min())
    assert np.isclose(vertices.max(), (mean[:, 1, 1] + std[:, 1, 1]).max())


def test_plot_on_given_axes_and_without_band(fitted):
    fig, (left, right) = plt.subplots(1, 2)
    display = ScorePathDisplay.from_estimator(fitted, ax=right, std_display_style=None,
                                              line_kw={"linewidth": 3})
    assert display.ax_ is right and display.figure_ is fig
    assert display.fill_between_ is None and not right.collections
    assert all(line.get_linewidth() == 3 for line in display.lines_)
    assert not left.lines
    # The display draws again elsewhere.
    display.plot(ax=left)
    # Four lines, the marker and the additive end's level.
    assert display.ax_ is left and len(left.lines) == 6 and display.additive_line_ in left.lines
    with pytest.raises(ValueError, match="std_display_style"):
        display.plot(std_display_style="errorbar")


def test_score_name_follows_scoring(fitted):
    est = clone(fitted).set_params(scoring="neg_mean_squared_error")
    est.fit(*make_friedman1(n_samples=120, noise=0.5, random_state=0))
    display = ScorePathDisplay.from_estimator(est)
    assert "negative mean squared error" in display.ax_.get_ylabel()
    display = ScorePathDisplay.from_estimator(est, score_name="MSE")
    assert "MSE" in display.ax_.get_ylabel()


def test_one_split_is_named_as_such(fitted):
    est = clone(fitted).set_params(cv=ShuffleSplit(1, test_size=0.25, random_state=0))
    est.fit(*make_friedman1(n_samples=120, noise=0.5, random_state=0))
    assert ScorePathDisplay.from_estimator(est).ax_.get_ylabel() == "validation R², one split"


def test_labels_name_the_parameters_that_vary(fitted):
    est = clone(fitted).set_params(shrinkages=[0.0])
    est.fit(*make_friedman1(n_samples=120, noise=0.5, random_state=0))
    display = ScorePathDisplay.from_estimator(est)
    assert [line.get_label() for line in display.lines_] == ["balance_strength=0", "balance_strength=1"]
    est.set_params(balance_strengths=[1.0]).fit(*make_friedman1(n_samples=120, noise=0.5, random_state=0))
    display = ScorePathDisplay.from_estimator(est)
    assert [line.get_label() for line in display.lines_] == [
        "max_iter=30, balance_strength=1, shrinkage=0"]
    est.set_params(max_iters=[10, 30]).fit(*make_friedman1(n_samples=120, noise=0.5,
                                                            random_state=0))
    display = ScorePathDisplay.from_estimator(est)
    assert [line.get_label() for line in display.lines_] == ["max_iter=10", "max_iter=30"]
    mean = est.score_path_.mean(axis=-1)
    for t, line in enumerate(display.lines_):
        np.testing.assert_allclose(line.get_ydata(), mean[:, t, 0, 0])


def test_no_least_squares_label_on_a_sharp_path():
    X, y = make_friedman1(n_samples=120, noise=0.5, random_state=0)
    est = SoftmaxAttentionRegressorCV(attention_scales=[0.5, 2.0], balance_strengths=[0.0],
                                      shrinkages=[0.0], cv=3, max_iters=20,
                                      random_state=0).fit(X, y)
    assert not ScorePathDisplay.from_estimator(est).ax_.texts


def test_unfitted_and_wrong_estimators():
    with pytest.raises(NotFittedError):
        ScorePathDisplay.from_estimator(SoftmaxAttentionRegressorCV())
    X, y = make_friedman1(n_samples=60, random_state=0)
    with pytest.raises(TypeError, match="SoftmaxAttentionRegressorCV"):
        ScorePathDisplay.from_estimator(SoftmaxAttentionRegressor(max_iter=5).fit(X, y))


def test_without_matplotlib(fitted, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib then fails
    with pytest.raises(ImportError, match=r"requires matplotlib.*pip install matplotlib"):
        ScorePathDisplay.from_estimator(fitted)


def test_a_skipped_point_is_a_gap_in_its_line():
    """A point a fold's path skipped (its early stop, -inf) is drawn as a gap, without
    warnings, and the fitted points keep their means."""
    scores = np.array([[[0.5, 0.6]], [[0.7, 0.8]], [[-np.inf, 0.4]]])  # scales, lines, folds
    display = ScorePathDisplay(attention_scales=np.array([0.001, 0.1, 1.0]), scores=scores,
                               labels=["balance_strength=0"], chosen=(1, 0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        display.plot()
    y = display.lines_[0].get_ydata()
    np.testing.assert_allclose(y[:2], [0.55, 0.75])
    assert np.isnan(y[2])
    # Without the linear limit the axis is plainly logarithmic, and nothing is labelled.
    assert display.ax_.get_xscale() == "log" and not display.ax_.texts


def test_an_auto_shrinkage_is_labelled_by_name():
    X, y = make_friedman1(n_samples=60, noise=0.5, random_state=0)
    est = SoftmaxAttentionRegressorCV(attention_scales=[0.0, 1.0], balance_strengths=[0.0],
                                      shrinkages=[0.0, "auto"], cv=3, max_iters=5,
                                      random_state=0).fit(X, y)
    display = ScorePathDisplay.from_estimator(est)
    assert [line.get_label() for line in display.lines_] == ["shrinkage=0", "shrinkage=auto"]
    assert display.chosen[1] == list(est.shrinkages_).index(est.best_params_["shrinkage"])


def test_the_additive_end_is_a_level_labelled_by_whether_it_is_the_model():
    rng = np.random.RandomState(0)
    X = rng.uniform(-2, 2, (300, 3))
    y = np.sin(2 * X[:, 0]) + X[:, 1] ** 2 + 0.1 * rng.randn(300)
    taken = SoftmaxAttentionRegressorCV(cv=3, random_state=0).fit(X, y)
    display = ScorePathDisplay.from_estimator(taken)
    assert taken.additive_end_
    assert display.additive_line_.get_label() == "additive end: the model"
    assert display.additive_line_.get_ydata()[0] == pytest.approx(taken.additive_scores_.mean())
    plt.close(display.figure_)
    without = clone(taken).set_params(additive_end=False).fit(X, y)
    display = ScorePathDisplay.from_estimator(without)
    assert display.additive_line_ is None
    plt.close(display.figure_)
    X, y = make_regression(1200, 5, noise=5.0, random_state=0)  # screened out: not drawn
    screened = SoftmaxAttentionRegressorCV(random_state=0).fit(X, y)
    display = ScorePathDisplay.from_estimator(screened)
    assert display.additive_line_ is None
    plt.close(display.figure_)
