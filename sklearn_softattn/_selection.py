"""The selection rules: which point of a score path the folds choose
(:func:`choose_point`), which representation (:func:`choose_representation`), and whether
one candidate leads another (:func:`leads`), each by the one paired comparison
(:func:`mean_exceeds`) that the screening stop makes on a fold's validation rows
(:func:`~._path.trails_significantly`)."""

import numpy as np


def mean_exceeds(differences, n_errors, sample_weight=None):
    """Whether the mean of the paired ``differences`` over their last axis, weighted by
    ``sample_weight``, is above ``n_errors`` standard errors of it.

    The count of differences is Kish's effective one, ``(Σw)² / Σw²``: at unit weights
    the standard error is the sample standard deviation (ddof 1) over the count's
    square root, and the weights' scale does not count. A single difference has no
    standard error: it exceeds where it is positive.

    Parameters
    ----------
    differences : array-like of shape (..., n_pairs)
    n_errors : float
    sample_weight : array-like of shape (n_pairs,), default=None
        Non-negative, some positive; ``None`` for unit weights.

    Returns
    -------
    exceeds : bool or ndarray of bool of shape differences.shape[:-1]
    """
    differences = np.asarray(differences, dtype=float)
    weights = (np.ones(differences.shape[-1]) if sample_weight is None
               else np.asarray(sample_weight, dtype=float))
    total = weights.sum()
    mean = differences @ weights / total
    variance = (differences - mean[..., None]) ** 2 @ weights / total
    count = total**2 / (weights @ weights)
    error = np.sqrt(variance / (count - 1)) if count > 1 else 0.0
    return mean > n_errors * error


def scorable(score_path):
    """Which points and folds of a score path take part in the choice.

    A score is NaN where the point could not be scored, and :data:`~._path.SKIPPED`
    (-inf) where its path stopped before it. A fold where no point has a
    finite score is left out; so is a point that
    lacks a finite score on one of the remaining folds.

    Returns
    -------
    points : ndarray of bool, of shape ``score_path.shape[:-1]``
    folds : ndarray of bool, of shape (n_folds,)
    """
    finite = np.isfinite(score_path)
    folds = finite.reshape(-1, score_path.shape[-1]).any(axis=0)
    points = finite[..., folds].all(axis=-1) & folds.any()
    return points, folds


# The standard errors of each selection rule's margin.
N_ERRORS = {"best": 0, "1se": 1, "2se": 2}


def choose_point(score_path, selection_rule="2se"):
    """Indices ``(scale, max_iter, balance_strength, shrinkage)`` of the chosen point.

    ``"best"``: the highest mean score over the folds (the first maximum: the
    smallest scale, then the smallest indices of the other axes).
    ``"1se"`` and ``"2se"``: the smallest scale that any point brings within
    one (two) standard errors of the best, the errors being those of the
    fold-by-fold differences to the best point (paired, so that folds which
    are harder for every point do not widen them); at that scale, the
    close point of the other axes (iteration count, balance strength, shrinkage)
    with the highest mean. Selection noise then tips towards the linear end,
    not away from it. A point whose mean is below the best of the linear end
    (the first scale) is never close: a fit that fails on one fold widens its
    own standard error, and must not become the choice that way. Points and
    folds that could not be scored are left out (see :func:`scorable`). With a
    single fold there are no standard errors, and every rule is ``"best"``.

    Parameters
    ----------
    score_path : ndarray of shape (n_scales, ..., n_folds)
        Validation scores, larger is better; scales in increasing order. The CV
        estimator's grid axes come between, ``(n_max_iters, n_balance_strengths,
        n_shrinkages)``; any number of them will do.
    selection_rule : {"2se", "1se", "best"}, default="2se"

    Returns
    -------
    indices : tuple of int
        One index per grid axis: the scale's first.
    """
    points, folds = scorable(score_path)
    if not points.any():
        raise ValueError("No point of the path has a finite validation score on any fold.")
    path = np.where(points[..., None], score_path[..., folds], 0.0)
    mean = np.where(points, path.mean(axis=-1), -np.inf)
    best = np.unravel_index(np.argmax(mean), mean.shape)
    if selection_rule == "best" or path.shape[-1] < 2:
        return tuple(int(i) for i in best)
    n_errors = N_ERRORS[selection_rule]
    gap = path[best] - path
    # A point worse on average than the linear end never counts as close, however
    # noisy: one fold far below the rest widens its own standard error, and would
    # otherwise make its scale the choice by accident.
    close = points & (mean >= mean[0].max()) & ~mean_exceeds(gap, n_errors)
    scale = int(np.flatnonzero(close.reshape(len(close), -1).any(axis=1))[0])
    rest = np.where(close[scale], mean[scale], -np.inf)
    return (scale, *(int(i) for i in np.unravel_index(np.argmax(rest), rest.shape)))


def leads(scores, over, n_errors):
    """Whether the fold-by-fold ``scores`` lead those of ``over`` by ``n_errors``
    standard errors of their differences (a selection rule's margin: :data:`N_ERRORS`):
    their mean above that many (above 0 for a single fold)."""
    gaps = np.asarray(scores) - np.asarray(over)
    return bool(np.all(np.isfinite(gaps)) and mean_exceeds(gaps, n_errors))


def choose_representation(score_paths, selection_rule="2se"):
    """Index of the score path, one per representation (on the same folds and grid
    but for the scales), that holds the point :func:`choose_point` takes from all of
    them in a row, each representation's scales after the one's before as if
    sharper: a later representation is chosen only where it leads the earlier ones'
    best by the rule's margin."""
    scale = choose_point(np.concatenate(score_paths), selection_rule)[0]
    return int(np.searchsorted(np.cumsum([len(path) for path in score_paths]), scale,
                               side="right"))
