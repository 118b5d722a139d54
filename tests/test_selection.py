"""The selection rules and their paired comparison (sklearn_softattn._selection)."""

import numpy as np
import pytest

from sklearn_softattn._selection import mean_exceeds


def test_at_unit_weights_the_error_is_the_sample_standard_deviation_over_root_n():
    rng = np.random.RandomState(0)
    differences = rng.normal(loc=0.3, size=(4, 3, 10))
    error = differences.std(axis=-1, ddof=1) / np.sqrt(10)
    margins = differences.mean(axis=-1) / error
    for n_errors in (0.5, 1.0, 2.0):
        found = mean_exceeds(differences, n_errors)
        assert found.shape == (4, 3)
        np.testing.assert_array_equal(found, margins > n_errors)
    assert mean_exceeds(differences, 0.0).any() and not mean_exceeds(differences, 1e3).any()


def test_weights_count_by_kish_and_their_scale_does_not():
    rng = np.random.RandomState(1)
    differences = rng.normal(loc=0.2, size=50)
    weights = rng.uniform(0.5, 2.0, size=50)
    mean = np.average(differences, weights=weights)
    variance = np.average((differences - mean) ** 2, weights=weights)
    count = weights.sum() ** 2 / (weights @ weights)
    margin = mean / np.sqrt(variance / (count - 1))
    for n_errors in (margin - 1e-6, margin + 1e-6):
        assert mean_exceeds(differences, n_errors, weights) == (margin > n_errors)
        assert mean_exceeds(differences, n_errors, 7 * weights) == (margin > n_errors)
    # A difference of weight 0 is left out.
    padded = np.r_[differences, 100.0]
    for n_errors in (1.0, margin - 1e-6, margin + 1e-6):
        assert (mean_exceeds(padded, n_errors, np.r_[weights, 0.0])
                == mean_exceeds(differences, n_errors, weights))


@pytest.mark.parametrize("difference, expected", [(0.01, True), (0.0, False), (-0.01, False)])
def test_a_single_difference_exceeds_where_it_is_positive(difference, expected):
    assert bool(mean_exceeds([difference], 2.0)) is expected
