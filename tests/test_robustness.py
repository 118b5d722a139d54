"""Robustness: hostile input, numerical extremes and invariances.

Every fit either raises a ``ValueError``/``TypeError`` that says what is wrong
or gives finite predictions, and never modifies its inputs.
"""

import numpy as np
import pytest

from sklearn_softattn._attention import attention_weights


# --- numerical safety of the kernel ------------------------------------------


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_attention_weights_extreme_finite_scores(sign):
    # Scores of +-1e300 and 0: finite inputs, one winning token.
    Zq = np.array([[sign * 1e150]])
    KZc = np.array([[1e150], [-1e150], [0.0]])
    A = attention_weights(Zq, KZc, np.zeros(3))
    expected = [1.0, 0.0, 0.0] if sign > 0 else [0.0, 1.0, 0.0]
    np.testing.assert_array_equal(A, [expected])


def test_attention_weights_overflowing_scores():
    # Each score overflows float64 (1e310 and 1e309), yet the inputs are
    # finite: the weights are those of the limit, a hard maximum.
    Zq = np.array([[1e300], [-1e300], [1e-10]])
    KZc = np.array([[1e10], [1e9], [0.0]])
    with np.errstate(over="raise", invalid="raise"):
        A = attention_weights(Zq, KZc, np.zeros(3))
    np.testing.assert_array_equal(A[:2], [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    # A query that does not overflow keeps the ordinary softmax.
    np.testing.assert_allclose(A[2], attention_weights(Zq[2:], KZc, np.zeros(3))[0])
    assert A[2, 0] > A[2, 1] > A[2, 2] > 0


def test_attention_weights_overflow_guard_keeps_weights_and_masks():
    # Both queries' score bounds overflow (1e300 * 1e10). The first query's
    # scores are all 0: the guard must leave the weighted softmax intact.
    Zq = np.array([[1e300, 0.0], [0.0, 1e300]])
    KZc = np.array([[0.0, 1e10], [0.0, -1e10], [0.0, -2e10]])
    log_w = np.log([1.0, 3.0, 2.0])
    A = attention_weights(Zq, KZc, log_w)
    np.testing.assert_allclose(A, [[1 / 6, 0.5, 1 / 3], [1.0, 0.0, 0.0]], rtol=1e-15)
    # A masked own token gets weight exactly zero, even with the top score.
    A = attention_weights(
        Zq, KZc, log_w, self_index=np.array([0, 0]), log_self=np.array([-np.inf, -np.inf])
    )
    np.testing.assert_allclose(A, [[0.0, 0.6, 0.4], [0.0, 1.0, 0.0]], rtol=1e-15)
    assert A[0, 0] == A[1, 0] == A[1, 2] == 0.0
