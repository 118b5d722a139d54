"""ScorePathDisplay: the cross-validated score path of the softmax's sharpness, drawn."""

import itertools

import numpy as np
from sklearn.utils._optional_dependencies import check_matplotlib_support
from sklearn.utils.validation import check_is_fitted


def _score_name(scoring):
    """The y label's name of a ``scoring`` parameter: R² by default."""
    if scoring is None:
        return "R²"
    if isinstance(scoring, str):
        return scoring.replace("neg_", "negative ").replace("_", " ")
    return "score"


class ScorePathDisplay:
    """The validation score along the path of attention scales.

    One line per combination of the other parameters tried (``max_iter``,
    ``balance_strength`` and ``shrinkage``): the mean validation score over
    the folds against ``attention_scale`` (log axis), with a band of one
    standard deviation of the folds' scores, the chosen point marked and the
    linear limit labelled; the additive end's mean score, where the folds scored
    it, is a dashed level. A path that starts at the linear limit itself
    (``attention_scale=0``, as the default grid does) is drawn on a symmetric
    log axis, linear up to its first positive scale, so that 0 has a place. A
    point that a fold's path skipped (its early stop) is a gap in its line. Use
    :meth:`ScorePathDisplay.from_estimator` to make one from a fitted
    :class:`~sklearn_softattn.SoftmaxAttentionRegressorCV`; all parameters
    are stored as attributes.

    Parameters
    ----------
    attention_scales : ndarray of shape (n_scales,)
        The attention scales of the path, increasing.

    scores : ndarray of shape (n_scales, n_lines, n_folds)
        The validation score of every path point on every fold, one column
        per line.

    labels : list of str of length n_lines
        The legend's label of each line.

    chosen : tuple of int
        Indices ``(scale, line)`` of the chosen point.

    score_name : str, default="R²"
        The name of the score, for the y axis.

    additive_score : float, default=None
        The additive end's mean validation score, drawn as a dashed level; None
        or not finite (the first fold screened it out): not drawn.

    additive_taken : bool, default=False
        Whether the model is the additive end rather than the chosen point: the
        level's label says so.

    Attributes
    ----------
    ax_ : matplotlib Axes
        Axes with the score path.

    figure_ : matplotlib Figure
        Figure containing the score path.

    lines_ : list of matplotlib Line2D
        The mean validation score of each line, in the order of ``labels``.

    fill_between_ : list of matplotlib PolyCollection or None
        The folds' spread (mean ± one standard deviation) of each line; None
        with ``std_display_style=None``.

    chosen_ : matplotlib Line2D
        The marker of the chosen point.

    additive_line_ : matplotlib Line2D or None
        The additive end's level; None where it is not drawn.

    See Also
    --------
    SoftmaxAttentionRegressorCV : The estimator whose ``score_path_`` this draws.
    sklearn.model_selection.ValidationCurveDisplay : The same kind of plot for
        any estimator and parameter.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sklearn.datasets import make_friedman1
    >>> from sklearn_softattn import ScorePathDisplay, SoftmaxAttentionRegressorCV
    >>> X, y = make_friedman1(n_samples=150, noise=0.5, random_state=0)
    >>> reg = SoftmaxAttentionRegressorCV(attention_scales=3, cv=3, max_iters=20,
    ...                                   random_state=0).fit(X, y)
    >>> display = ScorePathDisplay.from_estimator(reg)
    >>> len(display.lines_)  # one per shrinkage of the default grid
    3
    >>> display.lines_[1].get_label()  # a single value is not repeated in the labels
    'shrinkage=auto'
    >>> plt.close(display.figure_)
    """

    def __init__(self, *, attention_scales, scores, labels, chosen, score_name="R²",
                 additive_score=None, additive_taken=False):
        self.attention_scales = attention_scales
        self.scores = scores
        self.labels = labels
        self.chosen = chosen
        self.score_name = score_name
        self.additive_score = additive_score
        self.additive_taken = additive_taken

    def plot(self, ax=None, *, std_display_style="fill_between", line_kw=None,
             fill_between_kw=None, chosen_kw=None):
        """Plot the score path.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; None makes a new figure and axes.

        std_display_style : {"fill_between"} or None, default="fill_between"
            ``"fill_between"``: a band of one standard deviation of the folds'
            scores around each mean; None: the means only.

        line_kw : dict, default=None
            Keyword arguments of ``ax.plot`` for the mean scores.

        fill_between_kw : dict, default=None
            Keyword arguments of ``ax.fill_between`` for the bands.

        chosen_kw : dict, default=None
            Keyword arguments of ``ax.plot`` for the chosen point's marker.

        Returns
        -------
        display : ScorePathDisplay
            The display, with ``ax_``, ``figure_``, ``lines_``,
            ``fill_between_``, ``chosen_`` and ``additive_line_`` set.
        """
        check_matplotlib_support(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt

        if std_display_style not in ("fill_between", None):
            raise ValueError(
                "std_display_style must be 'fill_between' or None; got "
                f"{std_display_style!r}."
            )
        if ax is None:
            _, ax = plt.subplots()
        scales = np.asarray(self.attention_scales)
        # A point its path skipped (-inf on a fold) is a gap in its line.
        scores = np.where(np.isneginf(self.scores), np.nan, self.scores)
        mean, std = scores.mean(axis=-1), scores.std(axis=-1)
        self.lines_, self.fill_between_ = [], None if std_display_style is None else []
        for j, label in enumerate(self.labels):
            (line,) = ax.plot(scales, mean[:, j], **{"marker": "o", "markersize": 3,
                                                      "label": label, **(line_kw or {})})
            self.lines_.append(line)
            if std_display_style == "fill_between":
                self.fill_between_.append(ax.fill_between(
                    scales, mean[:, j] - std[:, j], mean[:, j] + std[:, j],
                    **{"alpha": 0.2, "color": line.get_color(), **(fill_between_kw or {})}
                ))
        scale, j = self.chosen
        (self.chosen_,) = ax.plot(
            scales[scale], mean[scale, j],
            **{"marker": "*", "markersize": 14, "color": self.lines_[j].get_color(),
               "markeredgecolor": "k", "linestyle": "none",
               "label": f"chosen: attention_scale={scales[scale]:.3g}, {self.labels[j]}",
               **(chosen_kw or {})}
        )
        self.additive_line_ = None
        if self.additive_score is not None and np.isfinite(self.additive_score):
            self.additive_line_ = ax.axhline(
                self.additive_score, color="0.3", linestyle="--", linewidth=1,
                label="additive end" + (": the model" if self.additive_taken else ""))
        positive = scales[scales > 0]
        if scales[0] == 0:
            ax.annotate("linear limit", xy=(0, mean[0].max()), xytext=(0, 12),
                        textcoords="offset points", ha="left", fontsize=8,
                        arrowprops=dict(arrowstyle="-", color="0.5"))
            ax.set_xscale("symlog", linthresh=positive[0] if positive.size else 1.0,
                          linscale=0.5)
        else:
            ax.set_xscale("log")
        n_folds = self.scores.shape[-1]
        folds = "one split" if n_folds == 1 else f"mean of {n_folds} folds"
        ax.set(xlabel="attention_scale", ylabel=f"validation {self.score_name}, {folds}")
        ax.legend(fontsize=8)
        self.ax_, self.figure_ = ax, ax.figure
        return self

    @classmethod
    def from_estimator(cls, estimator, *, ax=None, score_name=None,
                       std_display_style="fill_between", line_kw=None, fill_between_kw=None,
                       chosen_kw=None):
        """Draw the score path of a fitted :class:`~sklearn_softattn.SoftmaxAttentionRegressorCV`.

        Parameters
        ----------
        estimator : SoftmaxAttentionRegressorCV
            A fitted cross-validated estimator.

        ax : matplotlib Axes, default=None
            Axes to plot on; None makes a new figure and axes.

        score_name : str, default=None
            The name of the score for the y axis; None derives it from the
            estimator's ``scoring`` (R² by default).

        std_display_style, line_kw, fill_between_kw, chosen_kw
            As in :meth:`plot`.

        Returns
        -------
        display : ScorePathDisplay
        """
        check_matplotlib_support(f"{cls.__name__}.from_estimator")
        check_is_fitted(estimator)
        if not hasattr(estimator, "score_path_"):
            raise TypeError(
                f"{cls.__name__}.from_estimator needs a fitted "
                f"SoftmaxAttentionRegressorCV; got {type(estimator).__name__}."
            )
        scales = estimator.attention_scales_
        # One line per (max_iter, balance_strength, shrinkage), in the order of
        # score_path_'s axes, labelled by the parameters that vary (all of them if none
        # does).
        best = estimator.best_params_
        grids = {"max_iter": (estimator.max_iters_, best["max_iter"]),
                 "balance_strength": (estimator.balance_strengths_, best["balance_strength"]),
                 "shrinkage": (estimator.shrinkages_, best["shrinkage"])}
        combinations = list(itertools.product(*(values for values, _ in grids.values())))
        shown = [k for k, (values, _) in enumerate(grids.values()) if len(values) > 1]
        shown = shown or range(len(grids))
        names = list(grids)
        labels = [", ".join(f"{names[k]}={values[k]:g}" if not isinstance(values[k], str)
                            else f"{names[k]}={values[k]}" for k in shown)
                  for values in combinations]
        chosen = (int(np.flatnonzero(scales == best["attention_scale"])[0]),
                  combinations.index(tuple(value for _, value in grids.values())))
        display = cls(
            attention_scales=scales,
            scores=estimator.score_path_.reshape(len(scales), len(combinations), -1),
            labels=labels,
            chosen=chosen,
            score_name=_score_name(estimator.scoring) if score_name is None else score_name,
            additive_score=(None if estimator.additive_scores_ is None else
                            float(np.mean(estimator.additive_scores_))),
            additive_taken=estimator.additive_end_,
        )
        return display.plot(ax=ax, std_display_style=std_display_style, line_kw=line_kw,
                            fill_between_kw=fill_between_kw, chosen_kw=chosen_kw)
