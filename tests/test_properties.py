"""Property-based tests: any shape, scale and configuration fits or fails clearly."""

import warnings

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sklearn_softattn import SoftmaxAttentionRegressor  # noqa: E402

# The errors fit may raise; each must say what went wrong.
DOCUMENTED_ERRORS = (ValueError, TypeError)

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


@st.composite
def datasets(draw):
    n = draw(st.integers(2, 40))
    d = draw(st.integers(1, 6))
    q = draw(st.integers(1, 3))
    x_scale = 10.0 ** draw(st.floats(-6, 6))
    y_scale = 10.0 ** draw(st.floats(-6, 6))
    rng = np.random.RandomState(draw(st.integers(0, 2**16)))
    X = x_scale * rng.standard_normal((n, d)) * 10.0 ** rng.uniform(-1, 1, d)
    X += x_scale * draw(st.sampled_from([0.0, 1.0, 1e3]))  # an offset
    degenerate = draw(st.sampled_from(["none", "constant", "duplicate", "integer"]))
    if degenerate == "constant":
        X[:, 0] = 3.0 * x_scale
    elif degenerate == "duplicate" and d > 1:
        X[:, -1] = X[:, 0]
    elif degenerate == "integer":
        X = np.round(X / x_scale).astype(np.int64)
    Y = y_scale * (np.tanh(X[:, :1] / x_scale) * rng.standard_normal(q)
                   + 0.1 * rng.standard_normal((n, q)))
    y = Y[:, 0] if q == 1 and draw(st.booleans()) else Y
    weights = draw(st.sampled_from([None, "integer", "positive"]))
    if weights == "integer":
        sample_weight = rng.randint(0, 4, n).astype(float)
    elif weights == "positive":
        sample_weight = rng.uniform(0.1, 10, n)
    else:
        sample_weight = None
    return X, y, sample_weight, rng.standard_normal((5, d)) * x_scale


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=datasets(), params=params_strategy)
def test_fit_gives_finite_predictions_or_a_clear_error(data, params):
    X, y, sample_weight, X_test = data
    originals = [np.copy(a) for a in (X, y, X_test)]
    estimator = SoftmaxAttentionRegressor(max_iter=5, random_state=0, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            estimator.fit(X, y, sample_weight=sample_weight)
        except DOCUMENTED_ERRORS as error:
            assert len(str(error)) > 20  # a message, not a bare numpy error
            return
        finally:
            for original, array in zip(originals, (X, y)):
                np.testing.assert_array_equal(original, array)
        for queries in (X, X_test):
            y_pred = estimator.predict(queries)
            assert y_pred.shape == (len(queries),) + np.shape(y)[1:]
            assert np.all(np.isfinite(y_pred))
    np.testing.assert_array_equal(originals[2], X_test)
