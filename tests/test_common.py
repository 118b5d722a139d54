"""scikit-learn's estimator checks, for the default, the L-BFGS solver, the paper's baseline,
the linear limit (attention_scale=0) and the CV estimator."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from sklearn_softattn import PAPER_BASELINE, SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV


@parametrize_with_checks(
    [
        SoftmaxAttentionRegressor(),
        SoftmaxAttentionRegressor(solver="lbfgs"),
        SoftmaxAttentionRegressor(**PAPER_BASELINE),
        SoftmaxAttentionRegressor(attention_scale=0, shrinkage=1.0),
        # A shorter path and fewer folds, as scikit-learn runs its own iterative
        # estimators with fewer iterations in these checks.
        SoftmaxAttentionRegressorCV(attention_scales=[0, 1.0], alphas=[0.0, 10.0], cv=3,
                                    max_iters=50),
    ]
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
