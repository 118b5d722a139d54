"""scikit-learn's estimator checks, for the default and for the paper's baseline."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from sklearn_softattn import PAPER_BASELINE, SoftmaxAttentionRegressor


@parametrize_with_checks(
    [SoftmaxAttentionRegressor(), SoftmaxAttentionRegressor(**PAPER_BASELINE)]
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
