import warnings
from dataclasses import replace
from functools import partial

import numpy as np
import pytest
from sklearn.datasets import make_friedman1, make_regression
from sklearn.exceptions import ConvergenceWarning, FitFailedWarning
from sklearn.linear_model import LinearRegression, Ridge, RidgeCV
from sklearn.metrics import r2_score
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    ShuffleSplit,
    cross_val_score,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV
from sklearn_softattn import _cv, _grid, _path
from sklearn_softattn._grid import attention_scale_grid, inner_folds
from sklearn_softattn._layer import fitted_layer, layer_predict
from sklearn_softattn._layer import weighted_r2 as r2
from sklearn_softattn._problem import build_problem, positive_rows
from sklearn_softattn._selection import choose_point, choose_representation
from sklearn_softattn.datasets import make_gaussian_regression

# The one-standard-error rule, which some tests below rely on: the default ("best")
# chooses a sharper point wherever it scores higher, however little.
# The paper's layer on a warm-started gd path (the defaults until the in-context layer
# with L-BFGS replaced it): the path mechanics below are shown on it, without the additive
# end, which would take its place on Friedman's data (tests/test_additive.py).
PAPER = dict(target_tokens=False, attention_scores="bilinear", solver="gd",
             path_warm_start=True, path_early_stop=True, renormalize=True, additive_end=False)
FAST = dict(attention_scales=[0.01, 0.5, 2.0], balance_strengths=[0.0, 10.0], shrinkages=[0.0], cv=3,
            selection_rule="1se", max_iters=100, random_state=0, **PAPER)


def fold_problem(params, X, Y, sample_weight, rng):
    """The training problem of a fold's rows, as the CV estimator builds it."""
    return build_problem(*positive_rows(X, Y, sample_weight, 2), params, rng)


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
    grid = attention_scale_grid(5)  # the linear limit, then 0.01 to 10 geometrically
    assert grid[0] == 0 and grid[1] == pytest.approx(0.01) and grid[-1] == pytest.approx(10)
    np.testing.assert_allclose(grid[2:] / grid[1:-1], grid[2] / grid[1])
    np.testing.assert_array_equal(attention_scale_grid(1), [0.0])
    np.testing.assert_array_equal(attention_scale_grid([3, 0.1, 1]), [0.1, 1, 3])
    np.testing.assert_array_equal(attention_scale_grid([1, 0, 0.1]), [0, 0.1, 1])
    # Beyond 10, at the same ratio, up to the first value past ``sharpest``.
    np.testing.assert_allclose(attention_scale_grid(5, 150.0), [0, 0.01, 0.1, 1, 10, 100, 1000])
    np.testing.assert_array_equal(attention_scale_grid(5, 10.0), grid)
    np.testing.assert_array_equal(attention_scale_grid(5, np.nan), grid)

    for bad in ([], [0.1, -1], [[0.1, 1]], [np.nan], [0.1, np.inf]):
        with pytest.raises(ValueError, match="attention_scales"):
            attention_scale_grid(bad)
    # "auto": the linear limit and one start (1 where the start is not defined).
    np.testing.assert_array_equal(attention_scale_grid("auto", start=3.5), [0.0, 3.5])
    np.testing.assert_array_equal(attention_scale_grid("auto", start=np.nan), [0.0, 1.0])
    np.testing.assert_array_equal(attention_scale_grid("auto"), [0.0, 1.0])


def test_auto_scales_start_at_a_tenth_of_the_sharpest_distance_scale(small):
    X, y = small
    w = np.ones(len(X))
    common = dict(attention_scales="auto", shrinkages=[0.0], cv=3, max_iters=5,
                  solver="lbfgs", renormalize=False, random_state=0)
    distance = SoftmaxAttentionRegressorCV(attention_scores="distance", **common).fit(X, y)
    # Its nearest neighbor at the median spacing scores 0.5 below the row's own position,
    # where the sharpest scale of an int path has it score 5 below.
    start = _grid.neighbor_sharpness(X, w) / 10
    assert _grid.neighbor_sharpness(X, w, 0.5) == pytest.approx(start)
    np.testing.assert_allclose(distance.attention_scales_, [0.0, start])
    bilinear = SoftmaxAttentionRegressorCV(attention_scores="bilinear", **common).fit(X, y)
    np.testing.assert_array_equal(bilinear.attention_scales_, [0.0, 1.0])
    with pytest.raises(ValueError, match="attention_scales"):
        SoftmaxAttentionRegressorCV(attention_scales="spacing").fit(X, y)


def test_auto_start_is_measured_on_as_many_rows_as_the_context_holds():
    # 400 rows in 2-D, a context of 50: the spacing of 50 rows is wider than that of
    # 400, so the start is broader, and it is the spacing of the rows that the fit's
    # own random_state would draw as its context.
    rng = np.random.default_rng(0)
    X = rng.standard_normal((400, 2))
    y = X[:, 0] + 0.1 * rng.standard_normal(len(X))
    w = np.ones(len(X))
    common = dict(attention_scales="auto", shrinkages=[0.0], cv=2, max_iters=2,
                  solver="lbfgs", random_state=3)
    small = SoftmaxAttentionRegressorCV(max_context=50, **common).fit(X, y)
    rows = np.sort(np.random.RandomState(3).choice(len(X), 50, replace=False))
    start = _grid.neighbor_sharpness(X[rows], w[rows], 0.5)
    np.testing.assert_allclose(small.attention_scales_, [0.0, start])
    assert start < _grid.neighbor_sharpness(X, w, 0.5) / 2
    # With every row in the context (a larger max_context, or local attention) the
    # start is the spacing of all of them.
    every = _grid.neighbor_sharpness(X, w, 0.5)
    for params in (dict(max_context=400), dict(max_context=50, n_neighbors=10)):
        reg = SoftmaxAttentionRegressorCV(**params, **common).fit(X, y)
        np.testing.assert_allclose(reg.attention_scales_, [0.0, every])


def test_attention_shrinkages_end_the_other_paths_at_their_linear_limit(small):
    X, y = small
    reg = SoftmaxAttentionRegressorCV(attention_scales=[0.0, 1.0], shrinkages=[0.0, "auto", 1e4],
                                      attention_shrinkages=["auto"], cv=3, max_iters=(5, 10),
                                      solver="lbfgs", random_state=0).fit(X, y)
    path = reg.score_path_  # (scales, counts, alphas, shrinkages, folds)
    assert np.isfinite(path[0]).all()  # every linear limit is scored
    assert np.isfinite(path[1, :, :, 1]).all()  # "auto" goes on
    assert np.isneginf(path[1, :, :, [0, 2]]).all()  # the others are not fitted
    assert reg.best_params_["attention_scale"] == 0 or reg.best_params_["shrinkage"] == "auto"
    # The path that goes on is the one it has when every path does.
    full = SoftmaxAttentionRegressorCV(**{**reg.get_params(), "attention_shrinkages": None})
    np.testing.assert_array_equal(full.fit(X, y).score_path_[..., 1, :], path[..., 1, :])
    # A grid without any of them is fitted whole, as with None.
    mask = _grid.attention_path_mask
    np.testing.assert_array_equal(mask(_grid.shrinkage_grid([0.0, "auto", 1e4]), ["auto", 1.0]),
                                  [False, True, False])
    for shrinkages in ([0.0], [0.0, 1e4]):
        grid = _grid.shrinkage_grid(shrinkages)
        np.testing.assert_array_equal(mask(grid, ["auto"]), mask(grid, None))
        assert mask(grid, None).all()


def test_distance_scores_path_reaches_the_rows_spacing():
    # Rows on 6 distinct points 0.01 apart, in 1-D: a smoother of the targets that tells
    # them apart is far sharper than 10, and the distance scores' path goes there; the
    # bilinear scores' path stops at 10.
    rng = np.random.default_rng(0)
    X = np.repeat(np.arange(6) * 0.01, 8)[:, None]
    y = np.sin(300 * X[:, 0]) + 0.01 * rng.standard_normal(len(X))
    common = dict(attention_scales=4, max_iters=5, solver="lbfgs", random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        distance = SoftmaxAttentionRegressorCV(target_tokens=True, attention_scores="distance",
                                               **common).fit(X, y)
        bilinear = SoftmaxAttentionRegressorCV(target_tokens=False,
                                               attention_scores="bilinear", **common).fit(X, y)
    np.testing.assert_array_equal(bilinear.attention_scales_, attention_scale_grid(4))
    # Standardized, the points are 0.01 / std apart; the nearest scores 5 below at
    # s = 2 * 5 / spacing.
    sharpest = 10 / (0.01 / X.std()) ** 2
    assert _grid.neighbor_sharpness(X, np.ones(len(X))) == pytest.approx(sharpest)
    np.testing.assert_allclose(distance.attention_scales_[:4], attention_scale_grid(4))
    assert distance.attention_scales_[-2] < sharpest <= distance.attention_scales_[-1]
    assert distance.score(X, y) > 0.9



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


def test_choose_representation_asks_the_rules_margin_of_the_second():
    rng = np.random.default_rng(0)
    first = 0.5 + 0.01 * rng.standard_normal((2, 1, 1, 1, 10))
    first[1] += 0.02  # the attention leads the linear end clearly
    second = first.copy()
    assert choose_representation([first, second], "best") == 0  # a tie: the first
    # Ahead of the first's best by 1.5 standard errors: enough for one, not for two.
    gain = 0.01 * rng.standard_normal(10)
    gain += 1.5 * gain.std(ddof=1) / np.sqrt(10) - gain.mean()
    second[1] = first[1] + gain
    assert choose_representation([first, second], "best") == 1
    assert choose_representation([first, second], "1se") == 1
    assert choose_representation([first, second], "2se") == 0
    # Paths of other lengths: the second's attention against the first's linear end.
    assert choose_representation([first[:1], second], "2se") == 1
    assert choose_representation([first, second[:1]], "best") == 0


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
    assert reg.score_path_.shape == (3, 1, 2, 1, 3)
    s, t, a, r = choose_point(reg.score_path_)
    assert reg.best_params_["attention_scale"] == reg.attention_scales_[s]
    assert reg.best_params_["max_iter"] == reg.max_iters_[t] == 100
    assert reg.best_params_["balance_strength"] == reg.balance_strengths_[a] and reg.best_params_["shrinkage"] == reg.shrinkages_[r] == 0
    # The refit is the model at the chosen point: a sharper scale than least squares'.
    assert reg.best_params_["attention_scale"] > 0.01
    assert reg.coef_.shape == (10,) and reg.predict(X[:5]).shape == (5,)


def test_linear_data_stays_least_squares(linear):
    """On linear data the least-squares end wins, and the model is least squares."""
    X, y = linear
    reg = SoftmaxAttentionRegressorCV(**FAST).fit(X, y)
    assert reg.best_params_["attention_scale"] == 0.01
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
    reg = SoftmaxAttentionRegressorCV(attention_scales=[0.5], balance_strengths=[1.0], shrinkages=[0.1],
                                      cv=2, max_iters=20, random_state=0, **PAPER).fit(X, y)
    base = SoftmaxAttentionRegressor(0.5, balance_strength=1.0, shrinkage=0.1, max_iter=20,
                                     random_state=0).fit(X, y)
    np.testing.assert_allclose(reg.key_query_, base.key_query_, rtol=1e-12)
    np.testing.assert_allclose(reg.predict(X), base.predict(X), rtol=1e-12)
    # A longer path warm-starts its later points: the refit ends at the chosen scale.
    reg = fitted
    root = np.linalg.cholesky(np.cov(X.T, bias=True))
    assert np.linalg.norm(root.T @ reg.key_query_ @ root) == pytest.approx(reg.best_params_["attention_scale"])
    assert reg.n_iter_ == len(reg.loss_curve_) > 0


def test_without_warm_starts_each_point_is_the_base_estimator_at_its_scale(small):
    """With ``path_warm_start=False`` the points of a path are independent: each is the
    base estimator fitted at its scale, in the folds as in the refit."""
    X, y = small
    params = dict(solver="lbfgs", target_tokens=True, attention_scores="distance",
                  renormalize=True, random_state=0)
    problem = fold_problem(SoftmaxAttentionRegressor(**params).get_params(), X, y[:, None],
                           np.ones(len(y)), np.random.RandomState(0))
    base_params = SoftmaxAttentionRegressor(max_iter=15, **params).get_params()
    fresh = list(_path.attention_path(problem, [0.3, 3.0], base_params, warm_start=False))
    warm = list(_path.attention_path(problem, [0.3, 3.0], base_params))
    alone, = _path.attention_path(problem, [3.0], base_params)
    np.testing.assert_array_equal(fresh[1].K, alone.K)
    assert not np.allclose(warm[1].K, alone.K)  # the warm start mattered here
    reg = SoftmaxAttentionRegressorCV(attention_scales=[0.3, 3.0], balance_strengths=[0.0],
                                      shrinkages=[0.0], max_iters=(5, 15), selection_rule="1se",
                                      path_warm_start=False, cv=3, additive_end=False,
                                      **params).fit(X, y)
    base = SoftmaxAttentionRegressor(reg.best_params_["attention_scale"], balance_strength=0.0, shrinkage=0.0,
                                     max_iter=reg.best_params_["max_iter"], **params).fit(X, y)
    assert reg.best_params_["attention_scale"] == 3.0
    np.testing.assert_allclose(reg.key_query_, base.key_query_, rtol=1e-10)
    np.testing.assert_allclose(reg.predict(X), base.predict(X), rtol=1e-10)
    assert reg.n_iter_ == base.n_iter_


def test_scoring_changes_the_criterion(small):
    X, y = small
    reg = SoftmaxAttentionRegressorCV(scoring="neg_mean_absolute_error", **FAST).fit(X, y)
    assert np.all(reg.score_path_ < 0)


def test_regularization_none_tries_one_alpha(small):
    X, y = small
    reg = SoftmaxAttentionRegressorCV(regularization=None, **FAST).fit(X, y)
    assert reg.score_path_.shape == (3, 1, 1, 1, 3) and reg.balance_strengths_.tolist() == [0.0]


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
                          {"selection_rule": ["2se", "best"]}, cv=2).fit(X, y)
    assert search.best_score_ > 0.5
    assert search.best_estimator_.score_path_.shape == (3, 1, 2, 1, 3)


def test_n_jobs_gives_the_same_choice(small):
    X, y = small
    one = SoftmaxAttentionRegressorCV(**FAST).fit(X, y)
    two = SoftmaxAttentionRegressorCV(n_jobs=2, **FAST).fit(X, y)
    np.testing.assert_allclose(one.score_path_, two.score_path_, rtol=1e-10)
    np.testing.assert_allclose(one.predict(X), two.predict(X), rtol=1e-10)


def test_n_jobs_is_joblibs_and_the_kernel_takes_openmps_threads(small, monkeypatch):
    # As in scikit-learn: n_jobs=None runs the folds in turn, an int in that many
    # joblib workers; every kernel call in this process (the folds in turn, the refit,
    # predict) asks OpenMP for its threads (None: all cores unless limited).
    from sklearn_softattn import _attention

    seen = []
    n_threads = _attention._n_threads
    monkeypatch.setattr(_attention, "_n_threads",
                        lambda n_jobs: seen.append(n_jobs) or n_threads(n_jobs))
    X, y = small
    reg = SoftmaxAttentionRegressorCV(**FAST).fit(X, y)
    assert seen and set(seen) == {None}
    assert n_threads(None) == _attention._openmp_effective_n_threads()  # all cores
    seen.clear()
    reg = SoftmaxAttentionRegressorCV(n_jobs=2, **FAST).fit(X, y)
    assert seen and set(seen) == {None}  # the refit, in this process
    seen.clear()
    reg.predict(X)
    assert seen and set(seen) == {None}


def test_verbose_prints_the_choice(linear, capsys):
    SoftmaxAttentionRegressorCV(verbose=1, **FAST).fit(*linear)
    out = capsys.readouterr().out
    assert "attention_scale=0.01" in out
    assert "Iteration" not in out


def test_verbose_2_prints_the_iterations_of_the_inner_folds_and_of_the_refit(small, capsys):
    reg = SoftmaxAttentionRegressorCV(verbose=2, **FAST).fit(*small)  # folds in turn
    folds, choice, refit = capsys.readouterr().out.partition("attention_scale=")
    assert choice
    assert folds.count("Iteration ") > reg.n_iter_  # every fold's points, three folds
    assert refit.count("Iteration ") == reg.n_iter_ == len(reg.loss_curve_)


@pytest.mark.parametrize("name", ["balance_strengths", "shrinkages"])
def test_bad_penalty_grids_are_rejected(linear, name):
    for bad in ([], [-1.0], [np.inf], [np.nan], [[0.1, 1.0]]):
        with pytest.raises(ValueError, match=name):
            SoftmaxAttentionRegressorCV(**{name: bad}).fit(*linear)


def test_auto_shrinkage_in_a_grid_and_bad_strings(linear):
    kw = dict(FAST, attention_scales=[0.0, 1.0], balance_strengths=[0.0], max_iters=5)
    reg = SoftmaxAttentionRegressorCV(**dict(kw, shrinkages=(0.0, "auto"))).fit(*linear)
    assert list(reg.shrinkages_) == [0.0, "auto"] and reg.best_params_["shrinkage"] in (0.0, "auto")
    for bad in ("fast", ["auto", "fast"], ["auto", -1.0], ["auto", np.nan]):
        with pytest.raises(ValueError, match="shrinkages"):
            SoftmaxAttentionRegressorCV(**dict(kw, shrinkages=bad)).fit(*linear)


def test_auto_linear_limit_is_ridgecv_on_each_folds_training_rows():
    """With shrinkage "auto" the path's first point is, on every fold, RidgeCV (as
    StandardScaler + RidgeCV over the same 13 alphas) fitted on that fold's training rows
    (and, as RidgeCV does, extrapolating linearly: extrapolation="clip")."""
    X, y = make_gaussian_regression(80, 12, 1, noise=1.0, random_state=0)
    cv = KFold(4, shuffle=True, random_state=0)
    reg = SoftmaxAttentionRegressorCV(attention_scales=[0.0, 1.0], balance_strengths=[0.0],
                                      shrinkages=["auto"], cv=cv, max_iters=5,
                                      extrapolation="clip", random_state=0).fit(X, y)
    ridge = make_pipeline(StandardScaler(), RidgeCV(alphas=np.logspace(-3, 3, 13)))
    expected = cross_val_score(ridge, X, y, cv=cv)
    np.testing.assert_allclose(reg.score_path_[0, 0, 0, 0], expected, rtol=1e-9)
    if reg.best_params_["attention_scale"] == 0:
        np.testing.assert_allclose(reg.predict(X), ridge.fit(X, y).predict(X), rtol=1e-9)


def test_int_cv_is_shuffled_and_seeded_a_splitter_is_used_as_given(small):
    X, y = small
    X, y = X[:40], y[:40]
    kw = dict(FAST, max_iters=5)
    reg = SoftmaxAttentionRegressorCV(**dict(kw, cv=4)).fit(X, y)
    given = SoftmaxAttentionRegressorCV(**dict(kw, cv=KFold(4, shuffle=True, random_state=0)))
    np.testing.assert_array_equal(reg.score_path_, given.fit(X, y).score_path_)
    blocks = SoftmaxAttentionRegressorCV(**dict(kw, cv=KFold(4))).fit(X, y)
    assert not np.allclose(reg.score_path_, blocks.score_path_)


@pytest.mark.parametrize("cv, weights, match", [
    (1, None, "'cv' parameter"),  # fewer than two folds
    (11, None, "cv=11 asks for 11 folds of n_samples=10"),
    (KFold(11), None, r"cv=KFold\(.*\) cannot split n_samples=10"),
    ("auto", None, "cv='auto' cannot split n_samples=4"),
    ([], None, "cv gives no fold"),
    (KFold(2), [0, 0, 0, 0, 1, 1, 1, 1, 1, 1], "cv: fold 1 leaves 1 training row"),
])
def test_bad_folds_are_rejected(cv, weights, match):
    X, y = make_friedman1(4 if cv == "auto" else 10, n_features=5, random_state=0)
    with pytest.raises(ValueError, match=match):
        SoftmaxAttentionRegressorCV(**dict(FAST, cv=cv)).fit(X, y, sample_weight=weights)


def _same_folds(folds, others):
    return len(folds) == len(others) and all(
        np.array_equal(a, b) for fa, fb in zip(folds, others) for a, b in zip(fa, fb))


def test_auto_folds_are_five_twice_then_five_then_one_hold_out(monkeypatch):
    X, y = make_friedman1(60, n_features=5, random_state=0)
    weights = np.ones(60)
    twice = inner_folds(RepeatedKFold(n_splits=5, n_repeats=2, random_state=0), X, y,
                        weights, 0)
    assert len(twice) == 10 and _same_folds(inner_folds("auto", X, y, weights, 0), twice)
    # Each repeat is a partition of the rows: every row is validated once per repeat.
    for repeat in (twice[:5], twice[5:]):
        np.testing.assert_array_equal(np.sort(np.concatenate([t for _, t in repeat])),
                                      np.arange(60))
    monkeypatch.setattr(_grid, "REPEATED_ROWS", 59)
    assert _same_folds(inner_folds("auto", X, y, weights, 0), inner_folds(5, X, y, weights, 0))
    monkeypatch.setattr(_grid, "HOLDOUT_ROWS", 59)
    ((train, test),) = inner_folds("auto", X, y, weights, 0)
    assert len(test) == 6 and np.array_equal(np.sort(np.r_[train, test]), np.arange(60))
    assert not np.array_equal(test, np.arange(54, 60))  # shuffled, not the last rows


def test_one_split_chooses_the_best_point(small):
    X, y = small
    holdout = ShuffleSplit(1, test_size=0.25, random_state=0)
    reg = SoftmaxAttentionRegressorCV(**dict(FAST, cv=holdout, selection_rule="2se")).fit(X, y)
    assert reg.score_path_.shape[-1] == 1
    best = np.unravel_index(np.argmax(reg.score_path_[..., 0]), reg.score_path_.shape[:-1])
    assert (reg.best_params_["attention_scale"], reg.best_params_["balance_strength"]) == (reg.attention_scales_[best[0]],
                                                   reg.balance_strengths_[best[2]])


def test_an_unscorable_fold_is_left_out_with_a_warning():
    # Five rows in three folds: the last fold's single row has no R².
    X, y = make_friedman1(5, n_features=5, random_state=0)
    with pytest.warns(FitFailedWarning, match=r"fold\(s\) \[2\] left out of the choice"):
        reg = SoftmaxAttentionRegressorCV(**dict(FAST, cv=KFold(3))).fit(X, y)
    # The other folds are scored (or skipped where their paths stopped), never NaN.
    assert np.all(np.isnan(reg.score_path_[..., 2])) and not np.isnan(reg.score_path_[..., :2]).any()
    assert reg.best_params_["attention_scale"] in reg.attention_scales_
    # The case a fuzz found (then an IndexError): adam, weights with a zero, a one-row fold.
    X, y = make_friedman1(4, n_features=5, random_state=0)
    with pytest.warns(FitFailedWarning, match="left out of the choice"):
        SoftmaxAttentionRegressorCV(attention_scales=[0.01, 1], balance_strengths=[0, 1], cv=KFold(3),
                                    solver="adam", random_state=0).fit(
            X, y, sample_weight=[0, 2, 3, 1])


def test_an_unscorable_point_is_left_out_with_a_warning(small, monkeypatch):
    # A point whose parameters are not finite cannot be scored: here the sharpest.
    X, y = small
    original = _path.fitted_layer

    def sharp_fails(K, V, problem, y_ndim, linear=False):
        layer = original(K, V, problem, y_ndim, linear)
        if layer.attention_scale > 1:
            return replace(layer, coef=np.full_like(layer.coef, np.nan))
        return layer

    monkeypatch.setattr(_path, "fitted_layer", sharp_fails)
    with pytest.warns(FitFailedWarning, match=r"\(attention_scale=2, max_iter=100, "
                                              r"balance_strength=0, shrinkage=0\)"):
        reg = SoftmaxAttentionRegressorCV(**FAST).fit(X, y)
    assert np.all(np.isnan(reg.score_path_[2])) and reg.best_params_["attention_scale"] < 2
    assert choose_point(np.array([[[0.5, np.nan]], [[0.9, 0.9]]])[:, :, None], "best") == (1, 0, 0)


def test_nothing_scorable_says_why():
    X, y = make_friedman1(6, n_features=5, random_state=0)
    with pytest.raises(ValueError, match="no point of the path could be scored"):
        SoftmaxAttentionRegressorCV(**dict(FAST, cv=LeaveOneOut())).fit(X, y)
    with pytest.raises(ValueError, match="No point"):
        choose_point(np.full((2, 1, 1, 3), np.nan))


def test_nothing_the_caller_passed_is_modified(small):
    X, y = small
    X, y, w = X.copy(), y.copy(), np.linspace(0.5, 2, len(y))
    alphas, shrinkages, scales = np.array([1.0, 0.0]), np.array([0.1, 0.0]), np.array([2.0, 0.01])
    folds = list(KFold(3, shuffle=True, random_state=0).split(X))
    copies = [a.copy() for a in (X, y, w, alphas, shrinkages, scales)]
    reg = SoftmaxAttentionRegressorCV(scales, alphas, shrinkages, cv=folds, max_iters=5).fit(
        X, y, sample_weight=w)
    for before, after in zip(copies, (X, y, w, alphas, shrinkages, scales)):
        np.testing.assert_array_equal(before, after)
    assert reg.balance_strengths_ is not alphas and reg.shrinkages_ is not shrinkages
    assert len(folds) == 3


def test_sorted_rows_score_as_shuffled_ones():
    """The default inner folds are shuffled: rows sorted by the feature the target
    bends along give the model of the same rows in random order. (With blocks of
    the sorted rows, ``cv=KFold(5)``, held-out R² was 0.43 here instead of 0.84.)"""
    rng = np.random.default_rng(0)
    X = rng.uniform(-2, 2, (1120, 3))
    y = np.sin(2 * X[:, 0]) + 0.5 * X[:, 1] + 0.1 * rng.standard_normal(len(X))
    X_test, y_test, X, y = X[120:], y[120:], X[:120], y[:120]
    order = np.argsort(X[:, 0])
    shuffled = SoftmaxAttentionRegressorCV(random_state=0).fit(X, y)
    ordered = SoftmaxAttentionRegressorCV(random_state=0).fit(X[order], y[order])
    assert abs(ordered.score(X_test, y_test) - shuffled.score(X_test, y_test)) < 0.02
    assert shuffled.score(X_test, y_test) > 0.8


def test_a_point_failing_on_one_fold_is_not_chosen_by_its_own_noise():
    """A sharp point beats the linear end on every fold; an intermediate one fails
    badly on one fold (as alpha 0 did at attention_scale 0.3 on star98, R² -2.5 and
    -11), which widens its standard error enough to pass as close to the best."""
    linear_end = np.array([0.70, 0.72, 0.68, 0.71, 0.69])
    best = linear_end + np.array([0.10, 0.11, 0.09, 0.10, 0.12])
    failing = np.array([0.80, 0.82, -2.50, 0.81, 0.80])
    path = np.stack([linear_end, failing, best])[:, None, None, :]
    gap = best - failing
    assert gap.mean() <= 2 * gap.std(ddof=1) / np.sqrt(5)  # "close" by its own noise
    assert choose_point(path, "2se") == choose_point(path, "1se") == (2, 0, 0)


def test_shrinkages_reach_ridge_on_small_many_featured_data():
    """60 rows, 15 features, linear: ridge beats least squares, and so does the path's ridge end."""
    X, y = make_gaussian_regression(60, 15, 1, noise=1.0, random_state=0)
    X_test, y_test = make_gaussian_regression(1000, 15, 1, noise=1.0, random_state=0)
    # The stricter rule, so that the choice is the path's ridge end itself, extrapolating
    # linearly as Ridge does.
    kw = dict(attention_scales=[0.0, 0.1, 1.0], balance_strengths=[1.0], selection_rule="2se",
              extrapolation="clip", random_state=0)
    least_squares_end = SoftmaxAttentionRegressorCV(shrinkages=[0.0], **kw).fit(X, y)
    ridge_end = SoftmaxAttentionRegressorCV(shrinkages=[0.0, 6.0, 60.0], **kw).fit(X, y)
    ridge = make_pipeline(StandardScaler(), RidgeCV(alphas=np.logspace(-3, 3, 13))).fit(X, y)
    assert ridge_end.best_params_["shrinkage"] > 0 and ridge_end.best_params_["attention_scale"] == 0
    assert ridge_end.score(X_test, y_test) > least_squares_end.score(X_test, y_test) + 0.03
    assert ridge_end.score(X_test, y_test) > ridge.score(X_test, y_test) - 0.02
    # At scale 0 the refitted model is Ridge itself.
    exact = make_pipeline(StandardScaler(), Ridge(alpha=ridge_end.best_params_["shrinkage"])).fit(X, y)
    np.testing.assert_allclose(ridge_end.predict(X_test), exact.predict(X_test), atol=1e-9)


def test_the_path_function_gives_the_recorded_path_and_model(small):
    """The score path and refitted model recorded (scikit-learn 1.9.1, numpy 2.4) when
    the path was fitted by a base estimator whose parameters were set point by point:
    the plain path function and the scores computed from each point's parameters give
    them again (to round-off: other BLAS builds may sum in another order)."""
    X, y = small
    recorded = {
        None: ([0.7155779474900865, 0.7006706091108501, 0.7344662909235542,
                0.715861295456004, 0.7053560938559895, 0.7348262947889919,
                0.7702489483849138, 0.789046567755785, 0.7788744620789786,
                0.7187081544447104, 0.6996808333388995, 0.7223609563781603,
                0.8514053068219594, 0.8136960578508933, 0.8478832980404681,
                0.6471415933864765, 0.6665195792329008, 0.6410953479612529],
               (2.0, 0.0, 211),
               [10.422402408680911, 8.11593631510811, -2.9467634058805796,
                13.612434989631176, 5.682202276946432], -3.1272466499404725),
        "neg_mean_absolute_error": (
               [-2.202266469474076, -1.8587628916584593, -2.014105801208951,
                -2.207867582880269, -1.8520914719363863, -2.029467478946978,
                -2.089535649445632, -1.6123104029158837, -1.8785663264887613,
                -2.251259634916191, -1.8362008779070942, -2.0918377098438006,
                -1.7178410332620186, -1.5761859350920322, -1.7192464911840664,
                -2.684022768820628, -1.921004768810625, -2.409459970839347],
               (0.5, 0.0, 111),
               [5.2665860610176525, 5.903487228536139, 0.7347933440867953,
                11.850315618991822, 4.890690563520753], 0.09101060183733267),
    }
    for scoring, (path, choice, coef, intercept) in recorded.items():
        # Recorded under the two-standard-error rule, the default then, and before
        # validation rows were clipped to the training radius.
        reg = SoftmaxAttentionRegressorCV(**dict(FAST, shrinkages=[0.0], scoring=scoring,
                                                 selection_rule="2se", extrapolation="continue"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            reg.fit(X, y)
        np.testing.assert_allclose(reg.score_path_.ravel(), path, rtol=1e-10)
        assert (reg.best_params_["attention_scale"], reg.best_params_["balance_strength"], reg.n_iter_) == choice
        np.testing.assert_allclose(reg.coef_, coef, rtol=1e-10)
        # intercept_ = y_offset_ - coef_ @ x_offset_: coef_'s accuracy on terms that may
        # cancel (0.091 of terms near 14 for the second scoring).
        assert reg.intercept_ == pytest.approx(
            intercept, rel=1e-10, abs=1e-10 * np.abs(coef) @ np.abs(reg.x_offset_))


def test_a_fold_whose_score_has_fallen_skips_the_sharper_points(linear):
    """Along increasing scales, a fold's path stops once its validation R² is more
    than the margin below its best so far: its sharper points are -inf, never
    chosen and no failure (no warning); the points fitted are unchanged."""
    X, y = linear[0][:120], linear[1][:120]
    margin, count = _cv.EARLY_STOP
    assert count == 1  # (the check below is of one point)
    params = dict(attention_scales=[0.01, 3.0, 10.0, 30.0], balance_strengths=[0.0], shrinkages=[0.0],
                  cv=3, max_iters=30, random_state=0, **PAPER)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("error", UserWarning)
        reg = SoftmaxAttentionRegressorCV(**params).fit(X, y)
        full = SoftmaxAttentionRegressorCV(**{**params, "path_early_stop": False}).fit(
            X, y).score_path_
    assert np.isfinite(full).all()  # without the stop, every point is fitted
    path = reg.score_path_
    for fold in range(3):
        scores = full[:, 0, 0, 0, fold]
        fallen = scores < np.maximum.accumulate(scores) - margin
        stop = np.flatnonzero(fallen)[0] if fallen[:-1].any() else len(scores) - 1
        np.testing.assert_array_equal(path[: stop + 1, 0, 0, 0, fold], scores[: stop + 1])
        assert np.all(path[stop + 1:, 0, 0, 0, fold] == -np.inf)
    assert np.isneginf(path).any() and not np.isnan(path).any()  # this data set stops early
    assert reg.best_params_["attention_scale"] == 0.01
    # A skipped point is never chosen, even with every fitted point worse.
    skipped = np.array([[[0.5, 0.6]], [[-np.inf, 0.9]]])[:, :, None]
    assert choose_point(skipped, "best") == choose_point(skipped, "2se") == (0, 0, 0)


def test_attention_path_is_a_plain_function_of_the_problem_and_can_resume(small):
    """The path over two scales is its first point, then a path of one scale started
    from it (K0, V0); the point's fitted attributes predict as the refit does."""
    X, y = small
    params = SoftmaxAttentionRegressor(balance_strength=0.0, max_iter=30, random_state=0).get_params()
    Y, w = y[:, None], np.ones(len(y))
    problem = fold_problem(params, X, Y, w, np.random.RandomState(0))
    both = list(_path.attention_path(problem, [0.1, 1.0], params))
    first, = _path.attention_path(problem, [0.1], params)
    resumed, = _path.attention_path(problem, [1.0], params, K0=first.K, V0=first.V)
    for a, b in ((both[0], first), (both[1], resumed)):
        np.testing.assert_array_equal(a.K, b.K)
        np.testing.assert_array_equal(a.V, b.V)
        assert a.n_iter == len(a.loss_curve) == b.n_iter
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        reg = SoftmaxAttentionRegressorCV(attention_scales=[0.1, 1.0], balance_strengths=[0.0],
                                          shrinkages=[0.0], cv=2, max_iters=30,
                                          random_state=0, **PAPER).fit(X, y)
    chosen = both[reg.attention_scales_.tolist().index(reg.best_params_["attention_scale"])]
    np.testing.assert_array_equal(reg.key_query_, chosen.K)
    np.testing.assert_array_equal(reg.predict(X), layer_predict(
        fitted_layer(chosen.K, chosen.V, problem, 1), X))


def test_a_scorer_scores_each_points_predictions(small):
    """A scorer is called once per point and fold on the point's predictions at the
    validation rows (as RidgeCV calls it), and R² through a scorer is the default's."""
    X, y = small
    seen = []

    def recording(model, y_pred, y, sample_weight=None):
        seen.append(y_pred)
        return r2_score(y, model.predict(y_pred), sample_weight=sample_weight)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        reg = SoftmaxAttentionRegressorCV(**dict(FAST, scoring=recording)).fit(X, y)
        plain = SoftmaxAttentionRegressorCV(**FAST).fit(X, y)
    np.testing.assert_allclose(reg.score_path_, plain.score_path_, rtol=1e-12)
    assert len(seen) == reg.score_path_.size  # (the count of 100 once: one checkpoint)
    assert {len(y_pred) for y_pred in seen} == {len(y) // 3, len(y) - 2 * (len(y) // 3)}


def test_extrapolation_applies_to_the_validation_rows(friedman):
    # Rows far out in the data: the inner folds' validation rows among them are
    # pulled back (the default), clipped or not, as the refit model's predict rows are.
    X, y = friedman
    X = X.copy()
    X[:6, 0] += np.array([30.0, -30.0, 40.0, -40.0, 50.0, -50.0])
    scores = {}
    for extrapolation in ("clip", "range", "continue"):
        reg = SoftmaxAttentionRegressorCV(**dict(FAST, attention_scales=[0.0, 0.5, 2.0],
                                                 balance_strengths=[0.0]),
                                          extrapolation=extrapolation).fit(X, y)
        scores[extrapolation] = reg.score_path_
        assert reg.extrapolation == extrapolation
    # "clip" leaves the linear limit alone and pulls the attention's queries back;
    # clipping the features to their range moves the linear limit too.
    np.testing.assert_array_equal(scores["clip"][0], scores["continue"][0])
    assert not np.array_equal(scores["clip"][1:], scores["continue"][1:])
    assert not np.array_equal(scores["range"][0], scores["clip"][0])


@pytest.fixture(scope="module")
def heavy_tailed_rows():
    """Heavy-tailed features (Student's t, two degrees of freedom): many validation rows
    lie past their fold's training rows. The second target follows the first feature up
    to 2 and is flat past it."""
    rng = np.random.default_rng(0)
    X = rng.standard_t(2, (300, 3))
    noise = 0.3 * rng.standard_normal((2, 300))
    return X, X @ [1.0, -2.0, 0.5] + noise[0], np.clip(X[:, 0], -2.0, 2.0) + noise[1]


@pytest.mark.parametrize("target, taken", [(1, "clip"), (2, "radius")])
def test_auto_extrapolation_reads_far_rows_as_the_linear_limits_folds_score_higher(
        heavy_tailed_rows, target, taken):
    # A linear limit alone: its far validation rows read as they are score higher where
    # the trend goes on (target 1), pulled back where it stops (target 2).
    X, y = heavy_tailed_rows[0], heavy_tailed_rows[target]
    kw = dict(attention_scales=[0.0], additive_end=False, random_state=0)
    auto = SoftmaxAttentionRegressorCV(extrapolation="auto", **kw).fit(X, y)
    fits = {e: SoftmaxAttentionRegressorCV(extrapolation=e, **kw).fit(X, y)
            for e in ("radius", "clip")}
    # Every point is scored as with "radius"; the choice between the two follows.
    np.testing.assert_array_equal(auto.score_path_, fits["radius"].score_path_)
    shrinkage = list(auto.shrinkages_).index(auto.best_params_["shrinkage"])
    means = {e: fit.score_path_[0, 0, 0, shrinkage].mean() for e, fit in fits.items()}
    assert (means["clip"] > means["radius"]) == (taken == "clip")
    assert auto.best_params_ == {**fits["radius"].best_params_, "extrapolation": taken}
    far = 10.0 * X[:20]
    np.testing.assert_array_equal(auto.predict(far), fits[taken].predict(far))
    assert not np.allclose(fits["clip"].predict(far), fits["radius"].predict(far))


def test_auto_extrapolation_pulls_far_rows_back_past_the_linear_limit(heavy_tailed_rows):
    X, y = heavy_tailed_rows[0], heavy_tailed_rows[2]
    auto = SoftmaxAttentionRegressorCV(extrapolation="auto", random_state=0).fit(X, y)
    radius = SoftmaxAttentionRegressorCV(random_state=0).fit(X, y)
    assert auto.best_params_["attention_scale"] > 0
    assert auto.best_params_ == radius.best_params_
    np.testing.assert_array_equal(auto.predict(10.0 * X), radius.predict(10.0 * X))


@pytest.mark.parametrize("refit", [False, "auto"])  # "auto" is the default
def test_without_refit_the_model_is_the_chosen_point_as_its_single_fold_fitted_it(
        friedman, refit):
    X, y = friedman
    split = ShuffleSplit(1, test_size=0.25, random_state=0)
    train = next(split.split(X))[0]
    kw = dict(shrinkages=("auto",), cv=split, context_neighbors=None, additive_end=False,
              random_state=0)
    kept = SoftmaxAttentionRegressorCV(refit=refit, **kw).fit(X, y)
    refitted = SoftmaxAttentionRegressorCV(refit=True, **kw).fit(X, y)
    assert kept.best_params_ == refitted.best_params_
    assert kept.best_params_["attention_scale"] > 0
    # As the regressor of the chosen parameters fitted on the fold's training rows.
    layer_params = SoftmaxAttentionRegressor().get_params()
    shared = {name: value for name, value in refitted.get_params().items()
              if name in layer_params and name not in kept.best_params_}
    fold = SoftmaxAttentionRegressor(**shared, **kept.best_params_).fit(X[train], y[train])
    np.testing.assert_allclose(kept.predict(X), fold.predict(X), rtol=1e-10)
    assert kept.n_iter_ == fold.n_iter_ and len(kept.loss_curve_) == kept.n_iter_
    assert not np.allclose(kept.predict(X), refitted.predict(X))


def test_without_refit_the_chosen_context_neighbors_are_of_every_row():
    # A context of 200 of the fold's 1 125 training rows; the nearest 32 of every row do
    # better, and the model attends to the nearest 32 of all 1 500, as a refit would.
    rng = np.random.default_rng(0)
    X = rng.uniform(-2, 2, (1500, 2))
    y = np.sin(3 * X[:, 0]) + 0.1 * rng.standard_normal(1500)
    kept = SoftmaxAttentionRegressorCV(cv=ShuffleSplit(1, test_size=0.25, random_state=0),
                                       max_context=200, context_neighbors=32, refit=False,
                                       random_state=0).fit(X, y)
    assert kept.best_params_["context_neighbors"] == 32
    np.testing.assert_array_equal(kept.context_, X)


def test_refit_auto_refits_where_the_folds_are_several_false_needs_one(small):
    X, y = small
    kw = dict(cv=3, max_iters=(5, 10), random_state=0)
    auto = SoftmaxAttentionRegressorCV(**kw).fit(X, y)  # refit="auto"
    refitted = SoftmaxAttentionRegressorCV(refit=True, **kw).fit(X, y)
    np.testing.assert_array_equal(auto.predict(X), refitted.predict(X))
    with pytest.raises(ValueError, match="needs one split of the rows; cv=3 gives 3"):
        SoftmaxAttentionRegressorCV(refit=False, **kw).fit(X, y)


def test_path_stop_fires_after_count_consecutive_falls_below_the_best_so_far():
    stop = _path.PathStop(0.1, 2)
    # 0.5 is the best; 0.45 is within the margin; a fall (0.3), a recovery (0.42, which
    # resets the count), then two falls in a row; a NaN neither raises the best nor falls.
    verdicts = [stop(r2) for r2 in (0.2, 0.5, 0.45, 0.3, 0.42, float("nan"), 0.1, 0.35)]
    assert verdicts == [False] * 7 + [True]
    assert stop.best == 0.5


# --- the iteration count, chosen on the folds -----------------------------------------


@pytest.mark.parametrize("solver", ["gd", "lbfgs"])
def test_checkpoints_are_the_iterates_of_shorter_runs(small, solver):
    """A point's iterate after c iterations is exactly a run of c iterations, and the
    last point of a path may run its own count (the refit's)."""
    X, y = small
    params = SoftmaxAttentionRegressor(balance_strength=0.0, max_iter=12, tol=0, solver=solver,
                                       random_state=0).get_params()
    problem = fold_problem(params, X, y[:, None], np.ones(len(y)), np.random.RandomState(0))
    long = list(_path.attention_path(problem, [0.0, 0.3, 1.0], params, checkpoints=[3, 12]))
    assert [len(p.iterates) for p in long] == [2, 2, 2]
    np.testing.assert_array_equal(long[2].iterates[1][0], long[2].K)
    for s in (1, 2):
        short = list(_path.attention_path(problem, [0.0, 0.3, 1.0][: s + 1], params,
                                          last_max_iter=3))[-1]
        assert short.n_iter == 3
        np.testing.assert_array_equal(long[s].iterates[0][0], short.K)
        np.testing.assert_array_equal(long[s].iterates[0][1], short.V)
        assert not np.array_equal(long[s].iterates[0][0], long[s].K)


def test_a_point_that_stops_early_keeps_its_last_iterate():
    X, y = make_gaussian_regression(60, 3, 1, noise=0.1, random_state=0)
    params = SoftmaxAttentionRegressor(balance_strength=0.0, max_iter=500, tol=1e-2,
                                       random_state=0).get_params()
    problem = fold_problem(params, X, y[:, None], np.ones(len(y)), np.random.RandomState(0))
    point, = _path.attention_path(problem, [0.1], params, checkpoints=[2, 400, 500])
    assert 2 < point.n_iter < 400 and point.converged
    assert point.iterates[1] is point.iterates[2]
    np.testing.assert_array_equal(point.iterates[2][0], point.K)


@pytest.mark.parametrize("solver", ["gd", "lbfgs"])
@pytest.mark.parametrize("stop_counts, calls, n_iter",
                         [((), 2, 6), ({1, 4}, 3, 4), ({3}, 2, 3)])
def test_a_checkpoint_stop_ends_the_point_and_the_path_there(small, solver, stop_counts, calls,
                                                             n_iter):
    X, y = small
    params = SoftmaxAttentionRegressor(balance_strength=0.0, max_iter=12, tol=0, solver=solver,
                                       random_state=0).get_params()
    problem = fold_problem(params, X, y[:, None], np.ones(len(y)), np.random.RandomState(0))
    checkpoints, seen = [3, 6, 12], []

    def stop(K, V):
        seen.append(K)
        return len(seen) == calls

    path = list(_path.attention_path(problem, [0.0, 0.3, 1.0], params, checkpoints=checkpoints,
                                     checkpoint_stop=stop,
                                     count_stops=dict.fromkeys(stop_counts, stop)))
    full = list(_path.attention_path(problem, [0.0, 0.3, 1.0], params, checkpoints=checkpoints))
    # Asked at the positive point's counts (the checkpoints' and stop_counts', both at a
    # count of both): stopped at the call that says so, after n_iter iterations, with the
    # parameters it was asked about and the checkpoints' iterates up to there; the sharper
    # point is not fitted.
    assert len(path) == 2 and len(seen) == calls
    assert path[1].n_iter == n_iter
    kept = [count for count in checkpoints if count <= n_iter]
    assert len(path[1].iterates) == len(kept)
    for (K, V), (K_full, V_full) in zip(path[1].iterates, full[1].iterates):
        np.testing.assert_array_equal(K, K_full)
        np.testing.assert_array_equal(V, V_full)
    np.testing.assert_array_equal(path[1].K, seen[-1])
    if n_iter in kept:  # stopped at a checkpoint, whose iterate ends the point
        np.testing.assert_array_equal(path[1].K, path[1].iterates[-1][0])


def test_max_iters_is_a_grid_axis_scored_on_the_folds(small):
    """Each count's scores are those of a path run to that count, up to the first
    positive scale (later points warm-start from the largest count's iterate)."""
    X, y = small
    kw = dict(attention_scales=[0.0, 0.5, 2.0], balance_strengths=[0.0], shrinkages=[0.0], cv=3,
              tol=0, random_state=0, **PAPER)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        both = SoftmaxAttentionRegressorCV(max_iters=[4, 25], **kw).fit(X, y)
        few = SoftmaxAttentionRegressorCV(max_iters=4, **kw).fit(X, y)
        many = SoftmaxAttentionRegressorCV(max_iters=[25], **kw).fit(X, y)
    assert both.score_path_.shape == (3, 2, 1, 1, 3) and both.max_iters_.tolist() == [4, 25]
    np.testing.assert_array_equal(both.score_path_[:2, 0], few.score_path_[:2, 0])
    np.testing.assert_array_equal(both.score_path_[:, 1], many.score_path_[:, 0])
    assert not np.array_equal(both.score_path_[1, 0], both.score_path_[1, 1])
    s, t, _, _ = choose_point(both.score_path_, both.selection_rule)
    assert (both.best_params_["attention_scale"], both.best_params_["max_iter"]) == (both.attention_scales_[s],
                                                       both.max_iters_[t])


def test_refit_runs_the_chosen_count_without_a_convergence_warning(small, monkeypatch,
                                                                    capsys):
    """A count is a choice, the largest too: the refit's last point runs it, and
    reaching it is no failure to converge."""
    X, y = small
    monkeypatch.setattr(_cv, "choose_point", lambda path, rule: (1, 0, 0, 0))
    kw = dict(attention_scales=[0.0, 0.5], balance_strengths=[0.0], shrinkages=[0.0], cv=2, tol=0,
              random_state=0, **PAPER)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reg = SoftmaxAttentionRegressorCV(max_iters=[3, 50], **kw).fit(X, y)
    assert reg.best_params_["max_iter"] == 3 and reg.n_iter_ == 1 + 3  # the linear limit, then 3
    base = SoftmaxAttentionRegressor(0.5, balance_strength=0.0, shrinkage=0.0, max_iter=3, tol=0,
                                     random_state=0)
    with pytest.warns(ConvergenceWarning):
        base.fit(X, y)
    np.testing.assert_allclose(reg.predict(X), base.predict(X), rtol=1e-12)
    # The largest count is a choice too: no warning, and verbose says it may be short.
    monkeypatch.setattr(_cv, "choose_point", lambda path, rule: (1, 1, 0, 0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reg = SoftmaxAttentionRegressorCV(max_iters=[3, 50], verbose=1, **kw).fit(X, y)
    assert reg.best_params_["max_iter"] == 50 and reg.n_iter_ == 1 + 50
    assert "max_iter=50 is the largest of max_iters" in capsys.readouterr().out


@pytest.mark.parametrize("max_iters", [0, [], [2.5], [[3]], [3, -1], "many"])
def test_bad_max_iters_raise(small, max_iters):
    X, y = small
    with pytest.raises(ValueError, match="max_iters"):
        SoftmaxAttentionRegressorCV(max_iters=max_iters, cv=2).fit(X, y)


def test_same_paths_merges_paths_whose_linear_limits_predict_alike():
    rng = np.random.default_rng(0)
    base = rng.standard_normal(50)
    near, far = base + 0.005 * base.std(), base + 0.05 * base.std()  # RMS 0.5%, 5%
    assert _path.same_paths([base, near, far], [0, 0, 0], tolerance=0.01) == [0, 0, 2]
    # Only paths of one group (alpha), and only onto a path fitted on its own.
    assert _path.same_paths([base, near, far], [0, 1, 1], tolerance=0.01) == [0, 1, 2]
    assert _path.same_paths([base, far, far + 0.009 * base.std()], [0, 0, 0],
                            tolerance=0.01) == [0, 1, 1]
    # Tolerance 0: equal predictions only.
    assert _path.same_paths([base, base.copy(), near], [0, 0, 0], tolerance=0.0) == [0, 0, 2]
    # The differences are weighted: a row of weight 0 does not count.
    moved = base.copy()
    moved[3] += 100.0
    weight = np.ones(50)
    assert _path.same_paths([base, moved], [0, 0], weight, tolerance=0.01) == [0, 1]
    weight[3] = 0
    assert _path.same_paths([base, moved], [0, 0], weight, tolerance=0.01) == [0, 0]
    # Several targets: the differences summed over them, relative to the spread.
    two = np.column_stack([base, 2 * base])
    assert _path.same_paths([two, two + 0.005 * base.std()], [0, 0], tolerance=0.01) == [0, 0]
    # A constant prediction has no spread: only an equal one is the same path.
    assert _path.same_paths([np.ones(5), np.ones(5) + 1e-12], [0, 0], tolerance=0.01) == [0, 1]


def test_paths_alike_on_a_fold_are_fitted_once_and_score_as_fitted(monkeypatch):
    """On 1 500 rows a shrinkage of 0.1 barely acts: its path is fitted as the
    least-squares one (one attention_path per fold fewer), its scores are that
    path's, and they are close to what fitting it would give; 1e4 acts, and is fitted."""
    X, y = make_friedman1(1500, n_features=5, noise=1.0, random_state=0)
    params = dict(attention_scales=[0.0, 0.3, 3.0], shrinkages=[0.0, 0.1, 1e4], cv=3,
                  max_iters=30, attention_shrinkages=None, random_state=0, **PAPER)
    paths = []
    original = _path.attention_path

    def counted(problem, scales, params, **kwargs):
        paths.append(params["shrinkage"])
        return original(problem, scales, params, **kwargs)

    monkeypatch.setattr(_path, "attention_path", counted)  # the folds'
    monkeypatch.setattr(_cv, "attention_path", counted)  # the refit's
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        merged = SoftmaxAttentionRegressorCV(**params).fit(X, y)
        fitted_paths, paths[:] = list(paths), []
        monkeypatch.setattr(_path, "SAME_PATH", 0.0)
        every = SoftmaxAttentionRegressorCV(**params).fit(X, y)
    # Per fold: 0 and 1e4, not 0.1; then the refit's one path.
    assert fitted_paths[:6] == [0.0, 1e4] * 3 and len(fitted_paths) == 7
    assert paths[:9] == [0.0, 0.1, 1e4] * 3
    path, full = merged.score_path_, every.score_path_
    np.testing.assert_array_equal(path[:, :, :, 1], path[:, :, :, 0])
    np.testing.assert_array_equal(path[:, :, :, [0, 2]], full[:, :, :, [0, 2]])
    np.testing.assert_allclose(path[:, :, :, 1], full[:, :, :, 1], atol=2e-3)


@pytest.mark.parametrize("case", ["one output", "two outputs", "weights with zeros",
                                  "constant, predicted", "constant, missed", "one constant output"])
def test_path_r2_is_sklearns_r2_score(case):
    from sklearn.metrics import r2_score

    rng = np.random.default_rng(0)
    y = rng.normal(size=(30, 2) if "two" in case or "one constant" in case else 30)
    pred = y + rng.normal(scale=0.5, size=y.shape)
    w = rng.uniform(0.5, 2, size=30)
    if case == "weights with zeros":
        w[::3] = 0
    if case.startswith("constant"):
        y[:] = 1.5
        pred = y.copy() if case == "constant, predicted" else pred
    if case == "one constant output":
        y[:, 1] = 0.0
    assert r2(y, pred, w) == pytest.approx(r2_score(y, pred, sample_weight=w), abs=1e-12)


def test_path_r2_is_nan_where_r2_is_not_defined():
    assert np.isnan(r2(np.array([1.0]), np.array([2.0]), np.array([1.0])))
    assert np.isnan(r2(np.arange(3.0), np.zeros(3), np.zeros(3)))


def _refit_by_hand(cv, X, y):
    """``SoftmaxAttentionRegressor(**shared, **cv.best_params_)``, fitted on ``X, y``:
    ``shared`` the CV estimator's parameters that the base estimator has too."""
    base = SoftmaxAttentionRegressor().get_params()
    shared = {k: v for k, v in cv.get_params().items() if k in base}
    return SoftmaxAttentionRegressor(**{**shared, **cv.best_params_}).fit(X, y)


@pytest.mark.parametrize("params", [
    # The variants scikit-learn's checks run (test_common.py), at their grids.
    dict(attention_scales=[0, 1.0], balance_strengths=[0.0, 10.0], cv=3, max_iters=50),
    dict(attention_scales=[0, 1.0], cv=3, max_iters=50, target_tokens=True,
         attention_scores="distance"),
    dict(),
    dict(cv=3, max_iters=(5, 10), max_context=8, context_neighbors=4),
    dict(attention_scales=[0, 0.3, 3.0], cv=3, max_iters=(5, 15), path_warm_start=False),
    dict(FAST, path_warm_start=False),
    dict(cv=3, max_iters=(5, 10), score_features="choose"),
])
def test_the_refit_is_the_base_estimator_at_best_params(friedman, params):
    X, y = friedman
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        cv = SoftmaxAttentionRegressorCV(**{"random_state": 0, "additive_end": False,
                                            **params}).fit(X, y)
        by_hand = _refit_by_hand(cv, X, y)
    np.testing.assert_array_equal(by_hand.predict(X), cv.predict(X))  # bit for bit
    assert by_hand.attention_scale_ == cv.attention_scale_


def test_the_refit_with_context_neighbors_chosen_is_the_base_estimator():
    # Every training row as context, each query attending to its nearest 32.
    rng = np.random.default_rng(0)
    X = rng.uniform(-2, 2, (1500, 2))
    y = np.sin(3 * X[:, 0]) + 0.1 * rng.standard_normal(1500)
    cv = SoftmaxAttentionRegressorCV(max_context=200, context_neighbors=32,
                                     random_state=0).fit(X, y)
    assert cv.best_params_["context_neighbors"] == 32 and len(cv.context_) == len(X)
    by_hand = _refit_by_hand(cv, X, y)
    np.testing.assert_array_equal(by_hand.predict(X[:300]), cv.predict(X[:300]))


def test_a_warm_started_path_is_replayed_beyond_its_first_positive_scale(friedman):
    # Where each point starts from the one before, no single fit of the base estimator
    # gives the chosen point: the refit replays the path up to it.
    X, y = friedman
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        cv = SoftmaxAttentionRegressorCV(**FAST).fit(X, y)
        by_hand = _refit_by_hand(cv, X, y)
    assert cv.best_params_["attention_scale"] > cv.attention_scales_[0]
    assert cv.n_iter_ > by_hand.n_iter_  # the points before the chosen one
    assert not np.allclose(by_hand.predict(X), cv.predict(X))


def test_first_fold_screening_fits_linear_data_to_the_linear_ends_only(linear):
    X, y = linear
    params = dict(max_iters=(5, 15), cv=5, random_state=0)
    screened = SoftmaxAttentionRegressorCV(first_fold_screening=True, screening_stop=False,
                                           **params).fit(X, y)
    every = SoftmaxAttentionRegressorCV(**params).fit(X, y)
    # The first fold as without screening; on the others the attention point is skipped.
    np.testing.assert_array_equal(screened.score_path_[..., 0], every.score_path_[..., 0])
    assert np.all(screened.score_path_[1:, ..., 1:] == -np.inf)
    np.testing.assert_array_equal(screened.score_path_[0], every.score_path_[0])
    assert screened.best_params_["attention_scale"] == 0
    np.testing.assert_array_equal(screened.predict(X), every.predict(X))


def test_first_fold_screening_auto_screens_from_a_number_of_weighted_rows(linear, monkeypatch):
    X, y = linear
    monkeypatch.setattr(_cv, "SCREENING_ROWS", len(X))
    params = dict(first_fold_screening="auto", max_iters=(5,), cv=3, random_state=0)
    weight = np.ones(len(X))
    screened = SoftmaxAttentionRegressorCV(**params).fit(X, y, sample_weight=weight)
    assert np.all(screened.score_path_[1:, ..., 1:] == -np.inf)
    weight[0] = 0  # one row fewer of positive weight: below the threshold
    every = SoftmaxAttentionRegressorCV(**params).fit(X, y, sample_weight=weight)
    assert np.all(np.isfinite(every.score_path_[1:, ..., 0, 1:]))  # shrinkage 0's path


def test_first_fold_screening_changes_nothing_where_attention_wins_the_first_fold(friedman):
    X, y = friedman
    params = dict(max_iters=(5, 15, 40), cv=5, random_state=0)
    screened = SoftmaxAttentionRegressorCV(first_fold_screening=True, screening_stop=False,
                                           **params).fit(X, y)
    every = SoftmaxAttentionRegressorCV(**params).fit(X, y)
    np.testing.assert_array_equal(screened.score_path_, every.score_path_)
    assert screened.best_params_ == every.best_params_


@pytest.mark.parametrize("data", ["linear", "friedman"])
def test_first_fold_screening_scores_every_row_context_where_the_choice_can_take_it(data,
                                                                                   request):
    # A sampled context, so that each point is also scored attending to every row's
    # nearest: the screening fold scores so only the paths that pass its screen.
    X, y = request.getfixturevalue(data)
    params = dict(max_iters=(5, 15), cv=3, max_context=64, context_neighbors=16,
                  random_state=0)
    screened = SoftmaxAttentionRegressorCV(first_fold_screening=True, screening_stop=False,
                                           **params).fit(X, y)
    every = SoftmaxAttentionRegressorCV(first_fold_screening=False, **params).fit(X, y)
    np.testing.assert_array_equal(screened.score_path_[..., 0], every.score_path_[..., 0])
    attention = np.s_[1:, :, :, 0, 0]  # fold 0's points past shrinkage 0's linear limit
    assert np.all(np.isfinite(every.neighbor_score_path_[attention]))
    if data == "linear":  # screened out: the other folds skip these points
        assert np.all(screened.score_path_[1:, :, :, 0, 1:] == -np.inf)
        assert np.all(np.isnan(screened.neighbor_score_path_[attention]))
    else:
        np.testing.assert_array_equal(screened.neighbor_score_path_, every.neighbor_score_path_)
    assert screened.best_params_ == every.best_params_


def test_screening_stop_ends_a_first_fold_path_where_it_trails_the_linear_end(linear,
                                                                              friedman):
    params = dict(first_fold_screening=True, max_iters=(5, 15, 40), cv=3, random_state=0)
    X, y = linear
    every = SoftmaxAttentionRegressorCV(screening_stop=False, **params).fit(X, y)
    stopped = SoftmaxAttentionRegressorCV(screening_stop=True, **params).fit(X, y)
    # The attention path (shrinkage 0) trails the linear end at 5 iterations: its
    # later counts are not fitted, and the fit is the same.
    first = every.score_path_[..., 0, 0]  # (scales, counts) of the first fold
    assert first[1, 0] < every.score_path_[0, ..., 0].max()
    np.testing.assert_array_equal(stopped.score_path_[1, 0, 0, 0, 0], first[1, 0])
    assert np.all(stopped.score_path_[1, 1:, 0, 0, 0] == -np.inf)
    assert np.all(np.isfinite(every.score_path_[1, 1:, 0, 0, 0]))
    np.testing.assert_array_equal(stopped.score_path_[0], every.score_path_[0])
    assert stopped.best_params_ == every.best_params_
    np.testing.assert_array_equal(stopped.predict(X), every.predict(X))
    # Where the attention leads the linear end at every count, nothing changes; where it
    # trails at 5 and 15 iterations and leads at 40, the stop loses it (its cost).
    # (On these 300 rows the path of shrinkage "auto" leads; that of 0 overfits.)
    X, y = friedman
    params["attention_shrinkages"] = ("auto",)
    for max_iters in [(40,), (5, 15, 40)]:
        params["max_iters"] = max_iters
        every = SoftmaxAttentionRegressorCV(screening_stop=False, **params).fit(X, y)
        stopped = SoftmaxAttentionRegressorCV(screening_stop=True, **params).fit(X, y)
        first, linear_end = every.score_path_[1, :, 0, 1, 0], every.score_path_[0, ..., 0].max()
        assert first[-1] > linear_end + 0.1 and every.best_params_["attention_scale"] > 0
        if len(max_iters) == 1:
            np.testing.assert_array_equal(stopped.score_path_, every.score_path_)
        else:
            assert np.all(first[:2] < linear_end)
            assert stopped.best_params_["attention_scale"] == 0


def test_screening_stop_after_the_first_iteration_ends_a_trailing_path_there(linear):
    params = dict(first_fold_screening=True, max_iters=(5, 15, 40), cv=3, random_state=0)
    X, y = linear
    counts = SoftmaxAttentionRegressorCV(screening_stop=True, **params).fit(X, y)
    first = SoftmaxAttentionRegressorCV(screening_stop="first_iteration", **params).fit(X, y)
    # The attention path trails the linear end after one iteration: none of its counts
    # is fitted, where the stop at the counts fitted the first; the fit is the same.
    assert np.isfinite(counts.score_path_[1, 0, 0, 0, 0])
    assert np.all(first.score_path_[1:, :, 0, 0, 0] == -np.inf)
    np.testing.assert_array_equal(first.score_path_[0], counts.score_path_[0])
    assert first.best_params_ == counts.best_params_
    np.testing.assert_array_equal(first.predict(X), counts.predict(X))


@pytest.mark.parametrize("stop", ["far_behind", "significantly_behind"])
@pytest.mark.parametrize("make, trails_far", [
    (partial(make_regression, n_features=4, noise=1.0), True),
    (partial(make_friedman1, noise=1.0), False)])
def test_screening_stops_by_how_far_behind_end_a_path_after_one_iteration_where_linear(
        make, trails_far, stop):
    X, y = make(300, random_state=0)
    X = StandardScaler().fit_transform(X)
    params = dict(first_fold_screening=True, max_iters=(5, 15, 40), cv=3, random_state=0)
    fits = {value: SoftmaxAttentionRegressorCV(screening_stop=value, **params).fit(X, y)
            for value in (True, "first_iteration", stop)}
    # After one iteration both attention paths trail the linear end; on the linear data
    # their loss is several times the linear end's, and the path ends there; on
    # make_friedman1 it trails a little, goes on, and its scores are the count stop's.
    assert np.all(fits["first_iteration"].score_path_[1:, :, 0, 0, 0] == -np.inf)
    far = fits[stop].score_path_
    expected = fits["first_iteration" if trails_far else True].score_path_
    np.testing.assert_array_equal(far, expected)
    assert np.isfinite(far[1, 0, 0, 0, 0]) != trails_far


def test_screening_stop_not_closing_spares_a_path_that_closes_the_gap():
    X, y = make_friedman1(600, noise=1.0, random_state=0)
    X = StandardScaler().fit_transform(X)
    params = dict(first_fold_screening=True, max_iters=(5, 15, 40), cv=3, random_state=0)
    fits = {stop: SoftmaxAttentionRegressorCV(screening_stop=stop, **params).fit(X, y)
            for stop in (False, "significantly_behind", "not_closing")}
    # The first fold's path trails the linear end a little after 5 iterations and leads
    # it by far after 40: stopped at 5 where it trails at all, it goes on where it gained
    # more since its first iteration than it trails by, and the fit is the unstopped one.
    path, linear_end = fits[False].score_path_[1, :, 0, 0, 0], fits[False].score_path_[0].max()
    assert path[0] < linear_end < path[-1] - 0.1
    assert np.all(fits["significantly_behind"].score_path_[1, 1:, 0, 0, 0] == -np.inf)
    np.testing.assert_array_equal(fits["not_closing"].score_path_, fits[False].score_path_)
    assert fits["not_closing"].best_params_ == fits[False].best_params_
    assert fits["not_closing"].best_params_["attention_scale"] > 0


@pytest.mark.parametrize("make, stopped_after", [
    # After one iteration the path trails by less than 0.01 of R², significantly.
    (partial(make_regression, 1000, n_features=20, noise=10, random_state=0), 0),
    # It trails by 0.08 there, closes most of the gap by 5 iterations, falls back by 15.
    (partial(make_gaussian_regression, 600, 4, 1, noise=1.0, random_state=2), 2)])
def test_screening_stop_not_closing_ends_a_path_that_ties_or_falls_back(make, stopped_after):
    X, y = make()
    X = StandardScaler().fit_transform(X)
    params = dict(first_fold_screening=True, max_iters=(5, 15, 40), cv=3, random_state=0)
    every = SoftmaxAttentionRegressorCV(screening_stop=False, **params).fit(X, y)
    stopped = SoftmaxAttentionRegressorCV(screening_stop="not_closing", **params).fit(X, y)
    path, linear_end = every.score_path_[1, :, 0, 0, 0], every.score_path_[0].max()
    ran = stopped.score_path_[1, :, 0, 0, 0]
    assert np.all(ran[stopped_after:] == -np.inf)
    np.testing.assert_array_equal(ran[:stopped_after], path[:stopped_after])
    assert np.all(path[max(stopped_after - 1, 0):] < linear_end)
    np.testing.assert_array_equal(stopped.score_path_[0], every.score_path_[0])
    assert stopped.best_params_ == every.best_params_
    assert stopped.best_params_["attention_scale"] == 0


def test_trails_significantly_reads_the_paired_differences_standard_error():
    rng = np.random.RandomState(0)
    y = rng.normal(size=400)
    linear = y + rng.normal(scale=0.5, size=400)
    weights = np.ones(400)
    # The same errors, or a little more than the noise of their difference: not behind.
    assert not _path.trails_significantly(y, linear, linear, weights, 2.0)
    shuffled = y + rng.permutation(linear - y)
    assert not _path.trails_significantly(y, shuffled, linear, weights, 2.0)
    # Twice the errors: behind, by far more than two standard errors.
    assert _path.trails_significantly(y, y + 2 * (linear - y), linear, weights, 2.0)
    assert not _path.trails_significantly(y, y + 2 * (linear - y), linear, weights, 1e3)
    # A row of weight 0 is left out, and the weights' scale does not count; a target of
    # one column reads as 1-D.
    kept = rng.randint(0, 2, size=400).astype(float)
    worse = y + 1.1 * (linear - y)
    rows = kept == 1
    found = [_path.trails_significantly(y, worse, linear, 7 * kept, n_errors)
             for n_errors in (1, 3, 10, 30)]
    assert found == [_path.trails_significantly(y[rows], worse[rows], linear[rows],
                                                weights[rows], n_errors)
                     for n_errors in (1, 3, 10, 30)]
    assert True in found and False in found
    assert (_path.trails_significantly(y[:, None], worse[:, None], linear[:, None], weights, 2.0)
            == _path.trails_significantly(y, worse, linear, weights, 2.0))


def test_screened_keeps_the_paths_that_beat_the_linear_end():
    # (scales, counts, balance strengths, shrinkages): two paths, the second wins.
    scores = np.full((2, 2, 1, 2), 0.5)
    scores[1, :, 0, 0] = [0.4, 0.5]     # never above the best linear end (0.5)
    scores[1, :, 0, 1] = [0.45, 0.51]  # above it after the second count
    np.testing.assert_array_equal(_path.screened(scores, np.ones((1, 2), bool)), [[False, True]])
    scores[1, :, 0, 1] = np.nan  # not scorable: not above either
    assert not _path.screened(scores, np.ones((1, 2), bool)).any()


def test_start_multiples_start_the_auto_path_at_multiples_of_its_start():
    np.testing.assert_allclose(attention_scale_grid("auto", start=2.0, multiples=(0.3, 1, 3)),
                               [0, 0.6, 2.0, 6.0])
    X, y = make_friedman1(100, random_state=0)
    reg = SoftmaxAttentionRegressorCV(start_multiples=(0.3, 1.0), max_iters=3, cv=2,
                                      random_state=0).fit(X, y)
    start = SoftmaxAttentionRegressorCV(max_iters=3, cv=2, random_state=0).fit(
        X, y).attention_scales_[1]
    np.testing.assert_allclose(reg.attention_scales_, [0, 0.3 * start, start])
    with pytest.raises(ValueError, match="start_multiples"):
        SoftmaxAttentionRegressorCV(start_multiples=(0.0, 1.0)).fit(X, y)


@pytest.fixture(scope="module")
def heavy_tailed():
    """A target smooth in the logarithms of log-normal features: far rows rule the
    features' distances, not their ranks'."""
    rng = np.random.default_rng(0)
    X = rng.lognormal(0.0, 2.0, (400, 3))
    y = np.tanh(np.log(X[:, 0])) + np.sin(np.log(X[:, 1])) + 0.1 * rng.standard_normal(400)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


def test_score_features_choose_is_the_representation_the_folds_choose(heavy_tailed, linear):
    X, y = heavy_tailed
    chosen = SoftmaxAttentionRegressorCV(score_features="choose", random_state=0).fit(X, y)
    features = SoftmaxAttentionRegressorCV(random_state=0).fit(X, y)
    ranks = SoftmaxAttentionRegressorCV(score_features="ranks", linear_skip=True,
                                        random_state=0).fit(X, y)
    assert chosen.best_params_ == {**ranks.best_params_, "score_features": "ranks",
                                   "linear_skip": True}
    np.testing.assert_array_equal(chosen.score_path_, ranks.score_path_)
    np.testing.assert_array_equal(chosen.predict(X), ranks.predict(X))  # bit for bit
    assert (ranks.score_path_.mean(axis=-1).max()
            > features.score_path_.mean(axis=-1).max() + 0.1)
    # Where the linear end wins both, the features' is kept.
    linear_chosen = SoftmaxAttentionRegressorCV(score_features="choose",
                                                random_state=0).fit(*linear)
    assert linear_chosen.best_params_["score_features"] == "features"
    assert linear_chosen.best_params_["linear_skip"] is False
    np.testing.assert_array_equal(
        linear_chosen.predict(linear[0]),
        SoftmaxAttentionRegressorCV(random_state=0).fit(*linear).predict(linear[0]))


def test_a_representation_screened_out_on_the_first_fold_is_not_scored_further(
        linear, monkeypatch):
    calls = []
    fold_scores = _cv._fold_scores
    monkeypatch.setattr(_cv, "_fold_scores", lambda params, *args, **kwargs: calls.append(
        params["score_features"]) or fold_scores(params, *args, **kwargs))
    options = dict(score_features="choose", first_fold_screening=True, cv=3, random_state=0)
    chosen = SoftmaxAttentionRegressorCV(**options).fit(*linear)
    # Neither representation goes past its linear limit on the first fold: the normal
    # scores' other folds are not scored, and the fit is the features' own.
    assert calls == ["features"] * 3 + ["ranks"]
    features = SoftmaxAttentionRegressorCV(**{**options, "score_features": "features"})
    features.fit(*linear)
    assert chosen.best_params_ == {**features.best_params_, "score_features": "features",
                                   "linear_skip": False}
    np.testing.assert_array_equal(chosen.score_path_, features.score_path_)
    np.testing.assert_array_equal(chosen.predict(linear[0]), features.predict(linear[0]))
    calls.clear()  # without the screen, every fold of each
    SoftmaxAttentionRegressorCV(**{**options, "first_fold_screening": False}).fit(*linear)
    assert calls == ["features"] * 3 + ["ranks"] * 3


@pytest.mark.parametrize("value", ["choose", "auto"])
def test_choosing_score_features_is_the_cv_estimators_alone(linear, value):
    with pytest.raises(ValueError, match="score_features"):
        SoftmaxAttentionRegressor(score_features=value).fit(*linear)


def test_score_features_auto_chooses_from_a_number_of_weighted_rows(heavy_tailed,
                                                                     monkeypatch):
    X, y = heavy_tailed
    monkeypatch.setattr(_cv, "REPRESENTATION_ROWS", len(X))
    weight = np.ones(len(X))
    auto = SoftmaxAttentionRegressorCV(score_features="auto", random_state=0)
    chosen = SoftmaxAttentionRegressorCV(score_features="choose", random_state=0)
    auto.fit(X, y, sample_weight=weight)
    assert auto.best_params_ == chosen.fit(X, y, sample_weight=weight).best_params_
    assert auto.best_params_["score_features"] == "ranks"
    np.testing.assert_array_equal(auto.predict(X), chosen.predict(X))
    weight[0] = 0  # one row fewer of positive weight: below the threshold, the features
    auto.fit(X, y, sample_weight=weight)
    features = SoftmaxAttentionRegressorCV(random_state=0).fit(X, y, sample_weight=weight)
    assert auto.best_params_ == {**features.best_params_, "score_features": "features",
                                 "linear_skip": False}
    np.testing.assert_array_equal(auto.predict(X), features.predict(X))


def test_verbose_says_which_representation_the_folds_chose(heavy_tailed, capsys):
    SoftmaxAttentionRegressorCV(score_features="choose", random_state=0, verbose=1).fit(
        *heavy_tailed)
    assert "score_features='ranks', linear_skip=True: chosen on the folds" in (
        capsys.readouterr().out)
