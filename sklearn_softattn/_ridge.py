"""Ridge regression with its penalty chosen by exact leave-one-out, as
:class:`~sklearn.linear_model.RidgeCV` chooses it, at O(n_samples · n_features) a penalty
and in blocks of rows: the additive end's penalty (:mod:`._additive`) and the ``"auto"``
shrinkage (:attr:`~._problem.Problem.auto_shrinkage`)."""

import numpy as np
from sklearn.utils import gen_batches

# Rows read at a time: the memory beside the design matrix.
BLOCK_ROWS = 4096


def ridge_loo(X, Y, sample_weight, alphas, block_rows=BLOCK_ROWS):
    """Ridge regression of ``Y`` (2-D) on ``X`` with an unpenalized intercept, its penalty
    the one of ``alphas`` whose leave-one-out squared errors (weighted, over the rows and
    targets) have the least mean, the first of equals: :class:`~sklearn.linear_model.RidgeCV`'s
    choice with its default scoring. One eigendecomposition of the centred, weighted
    ``Xᵀ X`` serves every penalty, and each costs O(n_samples · n_features); the rows are
    read in blocks of ``block_rows``, so that beside ``X`` the memory is O(block_rows ·
    n_features): ``(coef (n_targets, n_features), intercept (n_targets,), alpha)``, in
    float64."""
    share = sample_weight / sample_weight.sum()
    x_mean, y_mean = share @ X, share @ Y
    root = np.sqrt(sample_weight)[:, None]
    blocks = list(gen_batches(X.shape[0], block_rows))

    def centred(rows):
        return ((np.asarray(X[rows], dtype=np.float64) - x_mean) * root[rows],
                (np.asarray(Y[rows], dtype=np.float64) - y_mean) * root[rows])

    gram, XY = 0.0, 0.0
    for rows in blocks:
        Xc, Yc = centred(rows)
        gram, XY = gram + Xc.T @ Xc, XY + Xc.T @ Yc
    eigvals, V = np.linalg.eigh(gram)
    eigvals = np.maximum(eigvals, 0.0)  # (rounding: the splines of a feature sum to one)
    PY = V.T @ XY
    shrinks = 1.0 / (eigvals[:, None] + np.asarray(alphas, dtype=np.float64))  # (p, alphas)
    errors = np.zeros(len(alphas))
    for rows in blocks:
        Xc, Yc = centred(rows)
        P = Xc @ V  # the rows in the eigenbasis
        # The hat matrix's diagonal: the intercept's share of each row, then the ridge's.
        hat = share[rows, None] + (P * P) @ shrinks  # (rows, alphas)
        for k in range(len(alphas)):
            residual = Yc - P @ (shrinks[:, k, None] * PY)
            errors[k] += np.sum((residual / (1.0 - hat[:, k, None])) ** 2)
    alpha = alphas[int(np.argmin(errors))]
    coef = (V @ (PY / (eigvals + alpha)[:, None])).T
    return coef, y_mean - coef @ x_mean, alpha
