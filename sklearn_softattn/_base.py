"""What both estimators share: data validation, the stored layer, predict."""

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils import check_scalar, gen_batches
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from . import _attention
from ._callbacks import CallbackSupportMixin
from ._layer import (
    FittedLayer,
    attention_tokens,
    check_finite,
    handles_float_errors,
    layer_predict,
    softmax_inputs,
)
from ._problem import positive_rows


def check_layer_params(params):
    """Raise a ValueError where two of the layer's parameters (a dict, as
    ``get_params`` gives it) do not go together; called at the start of ``fit``."""
    if params["score_features"] == "ranks" and not params["linear_skip"]:
        raise ValueError(
            "score_features='ranks' needs linear_skip=True: the normal scores of the "
            "features are bounded, so without a linear term in the features the layer "
            "cannot follow a target linear in them, nor extrapolate it.")
    if params["attention_scores"] != "distance":
        for name in ("n_neighbors", "context_neighbors"):
            if params.get(name) is not None:
                raise ValueError(
                    f"{name}={params[name]} needs attention_scores='distance': "
                    f"{params['attention_scores']!r} scores are not local (a far token can "
                    "carry most of the weight), so every query attends to the whole "
                    f"context. Set attention_scores='distance' or {name}=None.")


class BaseAttentionRegressor(CallbackSupportMixin, RegressorMixin, BaseEstimator):
    """A softmax attention layer as a regressor: validation, fitted layer, predict.

    Both estimators store a :class:`~._layer.FittedLayer` as their fitted attributes
    and predict with it.
    """

    def _check_training_data(self, X, y, sample_weight, reset, positive_only=True):
        """Validated float arrays ``X``, 2-D ``Y`` and float64 weights, and ``y.ndim``.

        Rows of zero weight take no part in training and are dropped, unless
        ``positive_only`` is False (the cross-validated estimator's folds index
        all rows; it drops them per fold with :func:`~._problem.positive_rows`).
        """
        # scikit-learn's own message names neither y nor its shape.
        if getattr(y, "ndim", 0) > 2:
            raise ValueError(f"y must be 1-D (n_samples,) or 2-D (n_samples, n_targets); got "
                             f"an array of {y.ndim} dimensions, shape {y.shape}.")
        X, y = validate_data(
            self, X, y, reset=reset, multi_output=True, y_numeric=True,
            dtype=[np.float64, np.float32],
        )
        # Weights in float64 whatever the data: a weight is a count, whose sums and
        # ratios are taken before anything meets the data's dtype.
        sample_weight = _check_sample_weight(
            sample_weight, X, dtype=np.float64, ensure_non_negative=True
        )
        Y = y.reshape(len(y), -1).astype(X.dtype, copy=False)
        if not np.all(np.isfinite(Y)):  # finite before the cast: validate_data checked
            raise ValueError(
                f"y has values up to {np.max(np.abs(y)):.3g}, beyond the range of X's "
                f"dtype, {X.dtype}, in which the layer is fitted. Pass X as float64, or "
                "rescale y."
            )
        if positive_only:
            # The first fit's rows are also the context: at least two.
            X, Y, sample_weight = positive_rows(X, Y, sample_weight, 2 if reset else 1)
        return X, Y, sample_weight, y.ndim

    def _store(self, layer):
        """Set the fitted attributes of a :class:`~._layer.FittedLayer`, after checking
        that its parameters are finite."""
        check_finite(layer)
        vars(self).update(layer.attributes())

    def _extrapolation(self):
        """How ``predict`` reads a row farther out than the training rows
        (``extrapolation``)."""
        return self.extrapolation

    def _fitted_layer(self, X):
        """The fitted layer, and ``X`` validated as its queries."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        return FittedLayer.of(self), X

    @handles_float_errors
    def predict(self, X):
        """Predict with the attention layer over the stored context.

        Each row attends over ``context_`` only, never over the other rows. A
        training row among the context rows attends to its own token too (only
        training leaves it out), as in
        :class:`~sklearn.neighbors.KNeighborsRegressor`: with target tokens it
        reads its own target, so ``score`` on the training rows is optimistic.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,) or (n_samples, n_targets)
            Predicted values; 1-D when ``fit`` saw a 1-D ``y``.
        """
        layer, X = self._fitted_layer(X)
        return layer_predict(layer, X, self._extrapolation())

    @handles_float_errors
    def attention_tokens(self, X):
        """Rows as the attention's scores and values read them.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        tokens : ndarray of shape (n_samples, n_features)
            ``X - x_offset_``; with ``score_features="ranks"``, each feature's
            normal scores (the normal quantile of its mid-rank among the
            training rows, interpolated between them and constant beyond),
            centred on the context rows' mean.
        """
        layer, X = self._fitted_layer(X)
        return attention_tokens(layer, X)

    @handles_float_errors
    def attention_weights(self, X, top_k=None):
        """The softmax weights of each row of ``X`` over the context rows.

        ``predict`` averages the context rows' values with these weights: with
        ``A = attention_weights(X)`` and ``t = attention_tokens``, ``predict(X)``
        equals ``y_offset_ + A @ (t(context_) @ value_.T)`` (raveled for a 1-D
        ``y``), plus ``A @ ((context_targets_ - y_offset_) @ target_value_.T)``
        with target tokens, ``(X - x_offset_) @ skip_coef_.T`` with a skip
        term, and the additive model's predictions with ``additive_base`` (the
        context targets are then what it leaves); with ``extrapolation="targets"``
        that sum clipped to ``[target_min_, target_max_]``. The score of row ``x`` on
        context row ``c_j`` is ``t(x)ᵀ key_query_ t(c_j) + log
        context_weight_[j]``, less ``½ t(c_j)ᵀ key_query_ t(c_j)`` with distance
        scores, so a row of weight ``w_j`` counts ``w_j`` times (and,
        as in ``predict``, ``x`` is first clipped and pulled back as
        ``extrapolation`` says). With local attention, only the row's nearest
        context rows in the fitted metric have a nonzero weight. A model without
        attention (``attention_scale_`` 0: the linear limit, or the additive end of
        :class:`SoftmaxAttentionRegressorCV`) gives every context row its share of
        ``context_weight_``, and ``predict`` does not read the weights.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.
        top_k : int, default=None
            If given, return only the ``top_k`` heaviest context rows of each
            sample, computed block by block so that the dense
            (n_samples, n_context) matrix is never held whole.

        Returns
        -------
        weights : ndarray of shape (n_samples, n_context)
            Without ``top_k``: row ``i`` holds sample ``i``'s weight on every
            row of ``context_``; each row sums to one.
        indices, weights : ndarrays of shape (n_samples, top_k)
            With ``top_k``: the positions in ``context_`` of each sample's
            heaviest rows and their weights, by decreasing weight.
        """
        layer, X = self._fitted_layer(X)
        n_context = layer.context.shape[0]
        X, Zq, Zc, neighbors = softmax_inputs(layer, X, self._extrapolation())
        KZc = Zc @ layer.key_query.T
        bias = _attention.key_bias(Zc, layer.key_query, layer.attention_scores)
        log_w = np.log(layer.context_weight)

        def weights_of(block):
            return _attention.attention_weights(
                Zq[block], KZc, log_w, bias=bias,
                neighbors=None if neighbors is None else neighbors[block])

        if top_k is None:
            return weights_of(slice(None))
        check_scalar(top_k, "top_k", Integral, min_val=1, max_val=n_context)
        indices = np.empty((X.shape[0], top_k), dtype=np.intp)
        weights = np.empty((X.shape[0], top_k), dtype=np.result_type(Zq, KZc))
        # Blocks of queries of at most the kernel's block of scores.
        for block in gen_batches(X.shape[0], _attention._block_rows(X.shape[0], n_context)):
            A = weights_of(block)
            heaviest = np.argpartition(-A, top_k - 1, axis=1)[:, :top_k]
            order = np.argsort(-np.take_along_axis(A, heaviest, axis=1), axis=1,
                               kind="stable")
            indices[block] = np.take_along_axis(heaviest, order, axis=1)
            weights[block] = np.take_along_axis(A, indices[block], axis=1)
        return indices, weights

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags
