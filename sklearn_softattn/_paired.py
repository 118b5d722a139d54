"""The paired comparison behind the CV estimator's choices: whether the mean of paired
differences between two candidates is above a number of its standard errors. The
selection rule pairs the folds' scores (:func:`~._cv.choose_point`, :func:`~._cv.leads`),
the screening stop a fold's validation rows, weighted
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
