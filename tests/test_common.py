"""scikit-learn's estimator checks, for the default, the L-BFGS solver, the paper's baseline,
the linear limit (attention_scale=0), target tokens and distance scores, local attention,
and the CV estimator (at its defaults, with fixed sharpnesses, choosing what the scores
read, choosing how the linear limit reads far rows, keeping one split's fit, with
the additive end, and on an additive base)."""

from sklearn.model_selection import ShuffleSplit
from sklearn.utils.estimator_checks import parametrize_with_checks

from sklearn_softattn import PAPER_BASELINE, SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV


def _expected_failed_checks(estimator):
    """Distance scores on the weights check's data, 15 rows of 30 features: the metric
    (30 × 30) has many flat directions there, along which round-off grows with the
    iterations (relative differences 1e-9 after one, 4e-6 after the 107 of the
    default), so weights and repetitions agree to about 1e-6, not the check's 1e-7.
    test_incontext.py checks the equivalence on data with fewer features than rows.
    Local attention (n_neighbors, context_neighbors) counts distinct tokens: a repeated
    row takes one of a query's positions per copy, a weighted row one. Without a refit,
    the model is fitted on one split's training rows, which differ between a repeated row
    and a weighted one. The additive base's penalty is chosen by leave-one-out, which
    leaves out one copy of a repeated row, with the weights counted relative to their mean."""
    if estimator.get_params().get("additive_base") is True and not hasattr(estimator, "cv"):
        return {"check_sample_weight_equivalence_on_dense_data":
                "the additive base's leave-one-out leaves out one copy of a repeated row"}
    if estimator.get_params().get("refit") is False:
        return {"check_sample_weight_equivalence_on_dense_data":
                "one split's fit is the model: repeats and weights split differently"}
    if (estimator.get_params().get("n_neighbors") is not None
            or estimator.get_params().get("context_neighbors") is not None):
        return {"check_sample_weight_equivalence_on_dense_data":
                "n_neighbors counts distinct rows: repeats take more of them than a weight"}
    if estimator.get_params().get("attention_scores") == "distance":
        return {"check_sample_weight_equivalence_on_dense_data":
                "round-off grows along the metric's flat directions (30 features, 15 rows)"}
    return {}


@parametrize_with_checks(
    [
        SoftmaxAttentionRegressor(),
        SoftmaxAttentionRegressor(solver="lbfgs"),
        SoftmaxAttentionRegressor(**PAPER_BASELINE),
        SoftmaxAttentionRegressor(attention_scale=0, shrinkage=1.0),
        SoftmaxAttentionRegressor(target_tokens=True),
        SoftmaxAttentionRegressor(attention_scores="distance"),
        SoftmaxAttentionRegressor(attention_scale=1.0, target_tokens=True,
                                  attention_scores="distance"),
        SoftmaxAttentionRegressor(target_tokens=True, attention_scores="distance",
                                  solver="lbfgs", max_iter=20),
        SoftmaxAttentionRegressor(attention_scale=3.0, target_tokens=True,
                                  attention_scores="distance", solver="lbfgs", max_iter=20,
                                  n_neighbors=5),
        # A shorter path and fewer folds, as scikit-learn runs its own iterative
        # estimators with fewer iterations in these checks.
        # A context sampled from the checks' rows, predicting over the nearest of every row.
        SoftmaxAttentionRegressor(attention_scale=1.0, target_tokens=True,
                                  attention_scores="distance", solver="lbfgs", max_iter=20,
                                  renormalize=False, max_context=50, context_neighbors=16),
        SoftmaxAttentionRegressor(linear_skip=True, extrapolation="range"),
        SoftmaxAttentionRegressor(linear_skip=True, extrapolation="radius"),
        SoftmaxAttentionRegressor(linear_skip=True, extrapolation="targets"),
        SoftmaxAttentionRegressor(linear_skip=True, score_features="ranks", solver="lbfgs",
                                  attention_scores="distance", max_iter=20),
        # The layer on what an additive model leaves.
        SoftmaxAttentionRegressor(additive_base=True),
        SoftmaxAttentionRegressor(attention_scale=1.0, target_tokens=True,
                                  attention_scores="distance", solver="lbfgs", max_iter=20,
                                  additive_base=True),
        SoftmaxAttentionRegressorCV(attention_scales=[0, 1.0], balance_strengths=[0.0, 10.0],
                                    cv=3, max_iters=50),
        SoftmaxAttentionRegressorCV(attention_scales=[0, 1.0], cv=3, max_iters=50,
                                    target_tokens=True, attention_scores="distance"),
        SoftmaxAttentionRegressorCV(),  # the defaults: the learned sharpness
        SoftmaxAttentionRegressorCV(cv=3, max_iters=(5, 10), linear_skip=True,
                                    score_features="ranks"),
        # The representation chosen on the folds.
        SoftmaxAttentionRegressorCV(cv=3, max_iters=(5, 10), score_features="choose"),
        # Restarts, the first fold screening the others (stopping the paths that trail its
        # linear end), and features clipped to their range.
        SoftmaxAttentionRegressorCV(cv=3, max_iters=(5, 10), start_multiples=(0.3, 1.0, 3.0),
                                    first_fold_screening=True, extrapolation="range"),
        # The screening fold's paths stopped from their first iteration.
        SoftmaxAttentionRegressorCV(cv=3, max_iters=(5, 10), first_fold_screening=True,
                                    screening_stop="first_iteration"),
        # ... only where they are far, or significantly, behind the linear end there.
        SoftmaxAttentionRegressorCV(cv=3, max_iters=(5, 10), first_fold_screening=True,
                                    screening_stop="far_behind"),
        SoftmaxAttentionRegressorCV(cv=3, max_iters=(5, 10), first_fold_screening=True,
                                    screening_stop="significantly_behind"),
        # ... or where they tie it, or do not close the gap (from the first iteration on).
        SoftmaxAttentionRegressorCV(cv=3, max_iters=(1, 5), first_fold_screening=True,
                                    screening_stop="not_closing"),
        # A context sampled from the checks' rows, and the nearest of every row instead;
        # every part's rows pulled back to the training radius.
        SoftmaxAttentionRegressorCV(cv=3, max_iters=(5, 10), max_context=8,
                                    context_neighbors=4, extrapolation="radius"),
        SoftmaxAttentionRegressorCV(attention_scales=[0, 0.3, 3.0], cv=3, max_iters=(5, 15),
                                    solver="lbfgs", target_tokens=True,
                                    attention_scores="distance", path_warm_start=False),
        # The linear limit's far rows read as they are where its folds score that higher.
        SoftmaxAttentionRegressorCV(cv=3, max_iters=(5, 10), extrapolation="auto"),
        SoftmaxAttentionRegressorCV(cv=3, max_iters=(5, 10), extrapolation="targets"),
        # The additive end scored beside the linear limit, taken where it leads.
        SoftmaxAttentionRegressorCV(attention_scales=[0], cv=3, selection_rule="best",
                                    additive_end=True),
        # Every point on what an additive model leaves.
        SoftmaxAttentionRegressorCV(cv=3, max_iters=(5, 10), additive_base=True),
        # One split, whose fit of the chosen point is the model (no refit).
        SoftmaxAttentionRegressorCV(cv=ShuffleSplit(1, test_size=0.25, random_state=0),
                                    max_iters=(5, 10), refit=False),
    ],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
