"""Normal scores of ranks: the representation the attention scores may read.

A distance on standardized features is ruled by their tails: one far row, or a
heavy-tailed feature, makes every other row look alike. Gradient boosting does not
care, being invariant to monotone maps of a feature; attention over rows can read a
feature through its ranks instead. :func:`fit_normal_scores` maps each training value
to the normal quantile of its mid-rank among the training rows (ties share one, the
sample weights count as repeated rows), and :func:`normal_scores` maps new values by
linear interpolation between the training values, constant beyond them, so that a far
row scores as the most extreme training row does.
"""

import numpy as np
from scipy.special import ndtri


def fit_normal_scores(X, sample_weight):
    """Per column, its distinct values (ascending) and their normal scores.

    The score of a value is ``Φ⁻¹((W_below + W_at / 2) / W)``: the normal quantile of
    its weighted mid-rank, ``W_at`` the weight of the rows at that value, ``W_below``
    of those below and ``W`` the total. A constant column scores 0; a binary one two
    values of opposite signs (about ±0.67 for an even split).

    Parameters
    ----------
    X : ndarray of shape (n, d)
    sample_weight : ndarray of shape (n,)
        Positive weights.

    Returns
    -------
    knots : tuple of ndarray
        Per column, its distinct values, ascending.
    scores : tuple of ndarray
        Per column, the normal score of each of them (in X's dtype).
    """
    knots, scores = [], []
    total = sample_weight.sum()
    for column in X.T:
        values, inverse = np.unique(column, return_inverse=True)
        at = np.bincount(inverse.ravel(), weights=sample_weight, minlength=len(values))
        below = np.cumsum(at) - at
        above = np.cumsum(at[::-1])[::-1] - at
        # Each tail from its own side: 1 - p rounds to 0 for a top row of tiny weight.
        lower, upper = (below + at / 2) / total, (above + at / 2) / total
        score = np.where(lower <= upper, ndtri(lower), -ndtri(upper))
        knots.append(values)
        scores.append(score.astype(X.dtype))
    return tuple(knots), tuple(scores)


def normal_scores(X, knots, scores):
    """``X`` in normal scores: each column interpolated linearly between its training
    values (:func:`fit_normal_scores`), constant beyond the smallest and the largest."""
    R = np.empty(X.shape, dtype=X.dtype)
    for j, (values, score) in enumerate(zip(knots, scores)):
        R[:, j] = score[0] if len(values) == 1 else np.interp(X[:, j], values, score)
    return R
