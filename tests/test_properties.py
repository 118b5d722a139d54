"""Property-based tests: any shape, scale and configuration fits or fails clearly."""

import re
import warnings

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sklearn_softattn import SoftmaxAttentionRegressor  # noqa: E402

# The errors fit raises on these datasets, each naming what is wrong. Measured
# over ~6000 generated examples: fewer than two rows of positive weight (~3%),
# and, with the minibatch solvers, divergence at the default learning rate (sgd:
# ~1%, mostly without the preconditioner; adam: none in those ~6000, but a fresh
# run found one, _ADAM_DIVERGES below); gd never failed otherwise.
NO_POSITIVE_WEIGHT = r"^Sample weights must contain at least one non-zero number\.$"
ONE_POSITIVE_WEIGHT = (r"^n_samples=1 with positive weight, but softmax attention needs "
                       r"at least 2: each training row attends over the others\.$")
DIVERGED = (r"^The training objective kept increasing after halving the learning rate "
            r"\d+ times\. Lower learning_rate, keep renormalize=True or standardize "
            r"the features\.$")

params_strategy = st.fixed_dictionaries(
    {
        "init": st.sampled_from(["spectral", "random"]),
        "preconditioner": st.sampled_from(["covariance", None]),
        "regularization": st.sampled_from(["balance", None]),
        "renormalize": st.booleans(),
        "solver": st.sampled_from(["gd", "sgd", "adam"]),
        "attention_scale": st.floats(1e-2, 1e2),
        "fit_intercept": st.booleans(),
    }
)


def make_dataset(n, d, q, x_scale, y_scale, seed, offset, degenerate, one_d, weights):
    """One generated dataset: ``X, y, sample_weight, X_test``."""
    rng = np.random.RandomState(seed)
    X = x_scale * rng.standard_normal((n, d)) * 10.0 ** rng.uniform(-1, 1, d)
    X += x_scale * offset
    if degenerate == "constant":
        X[:, 0] = 3.0 * x_scale
    elif degenerate == "duplicate" and d > 1:
        X[:, -1] = X[:, 0]
    elif degenerate == "integer":
        X = np.round(X / x_scale).astype(np.int64)
    Y = y_scale * (np.tanh(X[:, :1] / x_scale) * rng.standard_normal(q)
                   + 0.1 * rng.standard_normal((n, q)))
    y = Y[:, 0] if q == 1 and one_d else Y
    if weights == "integer":
        sample_weight = rng.randint(0, 4, n).astype(float)
    elif weights == "positive":
        sample_weight = rng.uniform(0.1, 10, n)
    else:
        sample_weight = None
    return X, y, sample_weight, rng.standard_normal((5, d)) * x_scale


@st.composite
def datasets(draw):
    return make_dataset(
        n=draw(st.integers(2, 40)),
        d=draw(st.integers(1, 6)),
        q=draw(st.integers(1, 3)),
        x_scale=10.0 ** draw(st.floats(-6, 6)),
        y_scale=10.0 ** draw(st.floats(-6, 6)),
        seed=draw(st.integers(0, 2**16)),
        offset=draw(st.sampled_from([0.0, 1.0, 1e3])),
        degenerate=draw(st.sampled_from(["none", "constant", "duplicate", "integer"])),
        one_d=draw(st.booleans()),
        weights=draw(st.sampled_from([None, "integer", "positive"])),
    )


def _with_weights(data, sample_weight):
    X, y, _, X_test = data
    return X, y, np.asarray(sample_weight, dtype=float), X_test


# Each error every run, whatever hypothesis draws: found examples of sgd's and
# adam's divergence (large unpreconditioned features), and weights leaving 0 and 1 rows.
_EXAMPLE = make_dataset(10, 2, 1, 1e3, 1.0, 7, 0.0, "none", True, None)
_SGD = {"init": "spectral", "preconditioner": None, "regularization": "balance",
        "renormalize": True, "solver": "sgd", "attention_scale": 1.0, "fit_intercept": True}
_ADAM_DIVERGES = (np.array([[1002831.64118453], [1000642.32880282]]),
                  np.array([[-2.13497366], [-2.35260061]]), None, np.ones((5, 1)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=datasets(), params=params_strategy)
@example(data=_EXAMPLE, params=_SGD)
@example(data=_with_weights(_EXAMPLE, np.zeros(10)), params={**_SGD, "solver": "gd"})
@example(data=_with_weights(_EXAMPLE, np.eye(10)[3]), params={**_SGD, "solver": "adam"})
@example(data=_ADAM_DIVERGES, params={**_SGD, "solver": "adam", "fit_intercept": False})
def test_fit_gives_finite_predictions_or_a_clear_error(data, params):
    X, y, sample_weight, X_test = data
    originals = [np.copy(a) for a in (X, y, X_test)]
    estimator = SoftmaxAttentionRegressor(max_iter=5, random_state=0, **params)
    n_positive = len(X) if sample_weight is None else int(np.sum(sample_weight > 0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if n_positive < 2:  # the data's fault, whatever the parameters
                match = NO_POSITIVE_WEIGHT if n_positive == 0 else ONE_POSITIVE_WEIGHT
                with pytest.raises(ValueError, match=match):
                    estimator.fit(X, y, sample_weight=sample_weight)
                return
            try:
                estimator.fit(X, y, sample_weight=sample_weight)
            except ValueError as error:
                if params["solver"] == "gd":
                    raise
                assert re.search(DIVERGED, str(error)), str(error)
                return
        finally:
            for original, array in zip(originals, (X, y)):
                np.testing.assert_array_equal(original, array)
        for queries in (X, X_test):
            y_pred = estimator.predict(queries)
            assert y_pred.shape == (len(queries),) + np.shape(y)[1:]
            assert np.all(np.isfinite(y_pred))
    np.testing.assert_array_equal(originals[2], X_test)
