"""The additive model (sklearn_softattn._additive): the CV estimator's additive end, and the
additive base under the layer (additive_base)."""

import numpy as np
import pytest
from sklearn.datasets import make_regression
from sklearn.linear_model import RidgeCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import SplineTransformer

from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV
from sklearn_softattn._additive import ALPHAS, fit_additive, predict_additive, spline_basis
from sklearn_softattn._cv import BASE_ROWS
from sklearn_softattn._selection import N_ERRORS, leads


def additive_data(n, random_state=0, noise=0.1):
    """A target that is a sum of one bent function of each of two features (a third
    is noise)."""
    rng = np.random.RandomState(random_state)
    X = rng.uniform(-2, 2, (n, 3))
    return X, np.sin(2 * X[:, 0]) + X[:, 1] ** 2 + noise * rng.randn(n)


def reference():
    return make_pipeline(SplineTransformer(n_knots=4, extrapolation="constant"),
                         RidgeCV(alphas=ALPHAS))


def test_the_additive_end_is_ridge_on_each_features_splines_flat_beyond_the_range():
    X, y = additive_data(200)
    fit = fit_additive(X, y[:, None], np.ones(len(y)))
    X_new = np.array([[0.5, -1.0, 0.0], [1e6, -1.0, 0.0], [2.0, -1.0, 0.0]])
    assert np.allclose(predict_additive(*fit, X_new)[:, 0],
                       reference().fit(X, y).predict(X_new))
    far, edge = predict_additive(*fit, X_new[1:])[:, 0]
    assert far == pytest.approx(edge, abs=0.1)  # 2.0 is near the largest training value


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_splines_are_spline_transformers(dtype):
    # Uniform knots over each feature's training range, flat beyond it; a constant
    # feature's splines are 0, as scikit-learn's are.
    rng = np.random.RandomState(0)
    X = (rng.randn(200, 3) * [1.0, 5.0, 0.0] + [0.0, 2.0, 7.0]).astype(dtype)
    rows = np.r_[X, [[1e6, -1e6, 7.0], [3.0, 3.0, 8.0], X.max(axis=0)]].astype(dtype)
    spline_map = fit_additive(X, X[:, :1], np.ones(len(X)))[0]
    reference = SplineTransformer(n_knots=4, extrapolation="constant").fit(X)
    np.testing.assert_allclose(spline_basis(spline_map, rows), reference.transform(rows),
                               atol=1e-6 if dtype == np.float32 else 1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_weights_count_relative_to_their_mean(dtype):
    X, y = additive_data(200)
    X = X.astype(dtype)
    weights = np.random.RandomState(0).uniform(0.5, 2.0, len(y))
    fit = fit_additive(X, y[:, None], weights)
    for scale in (1e-200, 1e200):  # beyond float32's range
        scaled = fit_additive(X, y[:, None], weights * scale)
        assert np.allclose(predict_additive(*scaled, X), predict_additive(*fit, X))
    unit = fit_additive(X, y[:, None], np.ones(len(y)))
    assert np.allclose(predict_additive(*unit, X)[:, 0],
                       reference().fit(X, y).predict(X), atol=1e-5)


def test_the_folds_take_the_additive_end_where_the_target_is_additive():
    X, y = additive_data(600)
    X_test, y_test = additive_data(300, random_state=1, noise=0.0)
    cv = SoftmaxAttentionRegressorCV(random_state=0).fit(X, y)
    assert cv.additive_end_ and cv.additive_scores_.shape == (cv.score_path_.shape[-1],)
    assert np.allclose(cv.predict(X_test), reference().fit(X, y).predict(X_test))
    assert cv.coef_.shape == (18,) and cv.n_iter_ == 0
    without = SoftmaxAttentionRegressorCV(additive_end=False, random_state=0).fit(X, y)
    assert cv.score(X_test, y_test) > without.score(X_test, y_test)


def test_where_a_linear_model_is_right_the_folds_keep_the_chosen_point():
    X, y = make_regression(400, 5, noise=5.0, random_state=0)
    cv = SoftmaxAttentionRegressorCV(random_state=0).fit(X, y)
    without = SoftmaxAttentionRegressorCV(additive_end=False, random_state=0).fit(X, y)
    assert not cv.additive_end_ and cv.best_params_ == without.best_params_
    assert np.array_equal(cv.predict(X), without.predict(X))


def test_the_first_fold_screens_the_additive_end_as_it_screens_the_paths(capsys):
    # From 1000 rows the other folds score it only where the first fold's scored it
    # above the linear end there.
    X, y = make_regression(1200, 5, noise=5.0, random_state=0)
    cv = SoftmaxAttentionRegressorCV(random_state=0, verbose=1).fit(X, y)
    linear = cv.score_path_[0, ..., 0].max()
    assert cv.additive_scores_[0] <= linear and np.all(cv.additive_scores_[1:] == -np.inf)
    assert not cv.additive_end_
    out = capsys.readouterr().out
    assert "not above its linear end: screened out" in out
    assert ("the first fold screens the paths (score_features='features'): 0 of 1 past "
            "the linear limit scored above its linear end") in out
    every = SoftmaxAttentionRegressorCV(first_fold_screening=False, random_state=0).fit(X, y)
    assert every.additive_scores_[0] == cv.additive_scores_[0]
    assert np.all(np.isfinite(every.additive_scores_))
    X, y = additive_data(1200)
    cv = SoftmaxAttentionRegressorCV(random_state=0).fit(X, y)
    assert np.all(np.isfinite(cv.additive_scores_)) and cv.additive_end_


def test_without_the_option_nothing_is_scored():
    X, y = additive_data(100)
    cv = SoftmaxAttentionRegressorCV(attention_scales=[0], cv=3, additive_end=False).fit(X, y)
    assert cv.additive_scores_ is None and not cv.additive_end_


def test_several_targets_and_a_scorer():
    X, y = additive_data(300)
    Y = np.c_[y, -2 * y]
    cv = SoftmaxAttentionRegressorCV(attention_scales=[0], cv=3,
                                     scoring="neg_mean_absolute_error").fit(X, Y)
    assert cv.additive_end_ and np.all(cv.additive_scores_ < 0)
    assert cv.predict(X[:4]).shape == (4, 2)
    assert np.allclose(cv.predict(X), reference().fit(X, Y).predict(X))


@pytest.mark.parametrize("scores, over, rule, expected", [
    ([0.6, 0.9], [0.5, 0.5], "1se", True),  # gaps 0.1, 0.4: mean 0.25, standard error 0.15
    ([0.6, 0.9], [0.5, 0.5], "2se", False),  # 0.25 is not above two standard errors
    ([0.4, 0.6], [0.5, 0.5], "best", False),  # no lead
    ([0.51], [0.5], "2se", True),  # one fold: any lead
    ([np.nan, 0.9], [0.5, 0.5], "best", False),  # a fold it could not score
])
def test_a_lead_by_the_rules_margin(scores, over, rule, expected):
    assert leads(scores, over, N_ERRORS[rule]) is expected


# ---------------------------------------------------------------- the additive base

def interacting_data(n, random_state=0, noise=0.1):
    """:func:`additive_data` plus an interaction of the first and third features, which
    no sum of one function a feature holds."""
    X, y = additive_data(n, random_state, noise)
    return X, y + X[:, 0] * X[:, 2]


LAYER = dict(attention_scale=1.0, target_tokens=True, attention_scores="distance",
             solver="lbfgs", max_iter=30, random_state=0)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("params", [LAYER, {**LAYER, "attention_scale": 0.0},
                                    {**LAYER, "max_context": 50, "context_neighbors": 10}])
def test_the_layer_fits_what_the_additive_base_leaves(params):
    X, y = interacting_data(300)
    X_new = interacting_data(20, random_state=1)[0]
    model = SoftmaxAttentionRegressor(additive_base=True, **params).fit(X, y)
    base = fit_additive(X, y[:, None], np.ones(len(y)))
    residuals = y - predict_additive(*base, X)[:, 0]
    layer = SoftmaxAttentionRegressor(**params).fit(X, residuals)
    np.testing.assert_allclose(model.predict(X_new),
                               layer.predict(X_new) + predict_additive(*base, X_new)[:, 0],
                               rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(model.context_targets_, layer.context_targets_, atol=1e-10)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_on_an_additive_base_tol_is_relative_to_the_targets_as_given():
    # Where a linear model is right, what the base leaves is noise: the layer fitted on
    # it stops as soon as it gains nothing against the targets' variance, not theirs.
    X, y = make_regression(n_samples=600, n_features=5, noise=1.0, random_state=0)
    model = SoftmaxAttentionRegressor(additive_base=True, **LAYER).fit(X, y)
    base = fit_additive(X, y[:, None], np.ones(len(y)))
    residuals = y - predict_additive(*base, X)[:, 0]
    alone = SoftmaxAttentionRegressor(**LAYER).fit(X, residuals)
    scaled = SoftmaxAttentionRegressor(tol=1e-4 * y.var() / residuals.var(), **LAYER)
    scaled.fit(X, residuals)
    assert model.n_iter_ == scaled.n_iter_ < alone.n_iter_
    np.testing.assert_allclose(model.predict(X),
                               scaled.predict(X) + predict_additive(*base, X)[:, 0],
                               rtol=1e-10, atol=1e-10)


def test_partial_fit_is_not_available_on_an_additive_base():
    # (The first batch would fit the base, which the later ones could not revise.)
    assert not hasattr(SoftmaxAttentionRegressor(additive_base=True), "partial_fit")
    assert hasattr(SoftmaxAttentionRegressor(), "partial_fit")


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_auto_fits_the_path_on_an_additive_base_from_2000_rows():
    X, y = interacting_data(BASE_ROWS)
    kw = dict(attention_scales=[0.0], cv=3, additive_base="auto", random_state=0)
    cv = SoftmaxAttentionRegressorCV(**kw).fit(X, y)
    assert cv.additive_base_ and cv._base is not None and cv.additive_scores_ is None
    weights = np.ones(len(y))
    weights[0] = 0.0  # one row fewer of positive weight
    below = SoftmaxAttentionRegressorCV(**kw).fit(X, y, sample_weight=weights)
    assert not below.additive_base_ and below._base is None
    assert below.additive_scores_ is not None


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_on_an_additive_base_the_folds_find_the_interaction():
    X, y = interacting_data(600)
    X_test, y_test = interacting_data(300, random_state=1, noise=0.0)
    kw = dict(max_iters=(5, 15), random_state=0)
    on_base = SoftmaxAttentionRegressorCV(additive_base=True, **kw).fit(X, y)
    assert on_base.best_params_["attention_scale"] > 0
    refit = SoftmaxAttentionRegressor(**{**on_base._shared_params(), **on_base.best_params_})
    np.testing.assert_allclose(on_base.predict(X_test), refit.fit(X, y).predict(X_test))
    additive = reference().fit(X, y)
    assert on_base.score(X_test, y_test) > additive.score(X_test, y_test) + 0.05
    without = SoftmaxAttentionRegressorCV(additive_base=False, **kw).fit(X, y)
    assert on_base.score(X_test, y_test) > without.score(X_test, y_test)
