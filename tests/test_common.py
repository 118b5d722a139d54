"""scikit-learn's estimator checks, for the default and for the paper's baseline."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from sklearn_softattn import SoftmaxAttentionRegressor

# Plain SGD from a random start, no preconditioner, regularizer or renormalization.
PAPER_BASELINE = dict(
    init="random",
    preconditioner=None,
    regularization=None,
    renormalize=False,
    solver="sgd",
)


@parametrize_with_checks(
    [SoftmaxAttentionRegressor(), SoftmaxAttentionRegressor(**PAPER_BASELINE)]
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
