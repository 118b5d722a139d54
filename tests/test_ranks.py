"""The normal scores of ranks that the attention scores may read."""

import numpy as np
import pytest
from scipy.stats import norm

from sklearn_softattn._ranks import fit_normal_scores, normal_scores


def test_scores_are_normal_quantiles_of_mid_ranks():
    X = np.array([[3.0], [1.0], [2.0], [2.0]])
    knots, scores = fit_normal_scores(X, np.ones(4))
    np.testing.assert_array_equal(knots[0], [1.0, 2.0, 3.0])
    # mid-ranks 0.5, 2 (the tie shares positions 1 and 2) and 3.5, of 4 rows
    np.testing.assert_allclose(scores[0], norm.ppf([0.5 / 4, 2 / 4, 3.5 / 4]))
    np.testing.assert_allclose(normal_scores(X, knots, scores)[:, 0],
                               norm.ppf([3.5 / 4, 0.5 / 4, 2 / 4, 2 / 4]))


def test_weights_are_repeated_rows_and_columns_are_apart():
    rng = np.random.default_rng(0)
    X = np.round(rng.standard_normal((30, 3)), 1)
    w = rng.integers(1, 4, 30)
    weighted = fit_normal_scores(X, w.astype(float))
    repeated = fit_normal_scores(np.repeat(X, w, axis=0), np.ones(w.sum()))
    for a, b in zip(weighted[1], repeated[1]):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    alone = fit_normal_scores(X[:, 1:2], w.astype(float))
    np.testing.assert_array_equal(alone[1][0], weighted[1][1])


def test_new_values_interpolate_and_stay_within_the_training_scores():
    X = np.array([[0.0], [1.0], [10.0]])
    knots, scores = fit_normal_scores(X, np.ones(3))
    R = normal_scores(np.array([[-1e6], [0.5], [5.5], [1e300]]), knots, scores)[:, 0]
    np.testing.assert_allclose(R, [scores[0][0], scores[0][:2].mean(), scores[0][1:].mean(),
                                   scores[0][2]])


def test_monotone_maps_of_a_feature_change_nothing_and_constants_score_zero():
    rng = np.random.default_rng(1)
    x = rng.lognormal(size=(50, 1))
    X = np.hstack([x, np.exp(3 * x), np.full((50, 1), 7.0)])
    R = normal_scores(X, *fit_normal_scores(X, np.ones(50)))
    np.testing.assert_array_equal(R[:, 0], R[:, 1])
    np.testing.assert_array_equal(R[:, 2], 0.0)
    assert np.abs(R[:, 0]).max() < 3  # a far row is the most extreme rank, no more


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dtype_is_kept(dtype):
    X = np.arange(12, dtype=dtype).reshape(6, 2)
    knots, scores = fit_normal_scores(X, np.ones(6))
    assert normal_scores(X, knots, scores).dtype == dtype and scores[0].dtype == dtype


def test_scores_are_finite_and_symmetric_for_rows_of_tiny_weight():
    X = np.array([[0.0], [1.0], [2.0]])
    w = np.array([1e-250, 1.0, 1e-250])  # a mid-rank 1 - 5e-251 rounds to 1
    scores = fit_normal_scores(X, w)[1][0]
    assert np.all(np.isfinite(scores))
    np.testing.assert_allclose(scores, [norm.ppf(5e-251), 0.0, -norm.ppf(5e-251)])
