"""Saving a fitted estimator with skops, which loads only types it is told to
trust (the pickle round-trip is in test_robustness.py)."""

import numpy as np
import pytest
from sklearn.datasets import make_friedman1

from sklearn_softattn import PAPER_BASELINE, SoftmaxAttentionRegressor

sio = pytest.importorskip("skops.io")

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


def fitted(params, n_targets=1):
    X, y = make_friedman1(60, 5, noise=0.5, random_state=0)
    y = y if n_targets == 1 else np.column_stack([y, -y])
    return SoftmaxAttentionRegressor(max_iter=5, random_state=0, **params).fit(X, y), X


@pytest.mark.parametrize("params, n_targets", [
    ({}, 1), ({}, 2), (PAPER_BASELINE, 1), ({"solver": "adam"}, 1), ({"solver": "lbfgs"}, 1),
    ({"early_stopping": True}, 1),
])
def test_skops_round_trip_predicts_identically(params, n_targets, tmp_path):
    reg, X = fitted(params, n_targets)
    path = tmp_path / "model.skops"
    sio.dump(reg, path)
    unknown = sio.get_untrusted_types(file=path)
    # Only this package's own classes need trusting: everything else is
    # numpy arrays and builtins, which skops loads safely.
    assert all(name.startswith("sklearn_softattn.") for name in unknown)
    loaded = sio.load(path, trusted=unknown)
    assert type(loaded) is SoftmaxAttentionRegressor
    np.testing.assert_array_equal(loaded.predict(X), reg.predict(X))
    assert loaded.get_params() == reg.get_params()
    # partial_fit goes on from the loaded state as from the original.
    np.testing.assert_array_equal(loaded.partial_fit(X, reg.predict(X)).predict(X),
                                  reg.partial_fit(X, reg.predict(X)).predict(X))


def test_skops_refuses_untrusted_types(tmp_path):
    reg, _ = fitted({})
    path = tmp_path / "model.skops"
    sio.dump(reg, path)
    with pytest.raises(TypeError, match="Untrusted types"):
        sio.load(path)


@pytest.mark.parametrize("params", [
    {"attention_scales": [0], "additive_end": True},  # the additive end, taken
    {"attention_scales": [0, 1.0], "max_iters": 5, "additive_base": True},
])
def test_skops_round_trip_of_the_additive_model(params, tmp_path):
    from sklearn_softattn import SoftmaxAttentionRegressorCV

    rng = np.random.RandomState(0)
    X = rng.uniform(-2, 2, (200, 2))
    y = np.sin(2 * X[:, 0]) + X[:, 1] ** 2
    reg = SoftmaxAttentionRegressorCV(cv=3, random_state=0, **params).fit(X, y)
    assert reg.additive_end_ or reg._base is not None
    path = tmp_path / "model.skops"
    sio.dump(reg, path)
    unknown = sio.get_untrusted_types(file=path)
    # The splines are two arrays a feature: nothing but the package to trust.
    assert all(name.startswith("sklearn_softattn.") for name in unknown)
    loaded = sio.load(path, trusted=unknown)
    np.testing.assert_array_equal(loaded.predict(X), reg.predict(X))
