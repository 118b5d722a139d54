"""scikit-learn's callbacks (``sklearn.callback``, scikit-learn >= 1.9).

A fit is a tree of tasks that callbacks such as ``ProgressBar`` and
``ScoringMonitor`` see begin and end: ``fit`` is the root, and each solver
iteration is a leaf under it. A :class:`Task` wraps one node of that tree
with the estimator and the data it reports; with an older scikit-learn every
task is inert and the estimator has no ``set_callbacks``.
"""

try:
    from sklearn.callback import CallbackSupportMixin
except ImportError:  # scikit-learn < 1.9: no callback API

    class CallbackSupportMixin:
        """Nothing: this scikit-learn has no callback API."""


class Task:
    """One task of a fit, as the callbacks see it.

    Parameters
    ----------
    context : sklearn.callback.CallbackContext or None
        The task's context; None for an inert task (no callback API).
    estimator : estimator instance
        The estimator whose fit this task is part of.
    X, y : array-like or None
        The data of the task, as the user passed it: ``ScoringMonitor``
        scores the model of each iteration on them.
    sample_weight : array-like or None
        Passed to the callbacks as metadata.
    """

    def __init__(self, context, estimator, X=None, y=None, sample_weight=None):
        self.context = context
        self.estimator = estimator
        self.X, self.y, self.sample_weight = X, y, sample_weight

    @classmethod
    def begin_fit(cls, estimator, X, y, sample_weight, max_subtasks):
        """The root task of ``estimator.fit``, begun; inert without the callback API.

        Call first in ``fit`` (``fit`` must be wrapped by ``_fit_context``,
        which tears the callbacks down however ``fit`` ends).
        """
        if not hasattr(estimator, "_init_callback_context"):
            return cls(None, estimator)
        context = estimator._init_callback_context(max_subtasks=max_subtasks)
        return cls(context, estimator, X, y, sample_weight)._begin()

    def subtask(self, name, max_subtasks=0, *, X=None, y=None, sample_weight=None):
        """A child task, begun, with at most ``max_subtasks`` children of its own.

        Its data default to this task's. Under joblib, create the tasks to be
        dispatched before dispatching them (as ``GridSearchCV`` does); tasks
        below them may be created in the workers.
        """
        if self.context is None:
            return self
        context = self.context.subcontext(task_name=name, max_subtasks=max_subtasks)
        if X is None:
            X, y, sample_weight = self.X, self.y, self.sample_weight
        return type(self)(context, self.estimator, X, y, sample_weight)._begin()

    def _data(self):
        metadata = {} if self.sample_weight is None else {"sample_weight": self.sample_weight}
        return dict(estimator=self.estimator, X=self.X, y=self.y, metadata=metadata)

    def _begin(self):
        self.context.call_on_fit_task_begin(**self._data())
        return self

    def end(self, fitted_attributes=None):
        """End the task; True if a callback asks to stop the enclosing loop.

        ``fitted_attributes``: the fitted attributes (a dict, or a function
        returning one, called only if a callback wants it) that make a copy of
        the estimator predict as at the end of this task; ``{}`` when the
        estimator itself is fitted by then; None when there is no such model
        (callbacks that score models then skip the task).
        """
        if self.context is None:
            return False
        return self.context.call_on_fit_task_end(
            **self._data(),
            reconstruction_attributes=fitted_attributes,
        )

    def fit_subestimator(self, estimator, X, y, sample_weight=None):
        """Fit ``estimator`` as this task's child: the callbacks that propagate (such
        as ``ProgressBar``) follow it, as in scikit-learn's meta-estimators."""
        if self.context is None:
            return estimator.fit(X, y, sample_weight=sample_weight)
        with self.context.propagate_callback_context(estimator):
            return estimator.fit(X, y, sample_weight=sample_weight)

    def iteration_hook(self, fitted_attributes):
        """``on_iteration(K, V)`` for :class:`~sklearn_softattn._solvers.Progress`.

        Each call is one iteration: a leaf subtask of this task, begun and
        ended; it returns True if a callback asks to stop. ``fitted_attributes(K, V)``
        gives the fitted attributes of the model at ``(K, V)``. None when no
        callback is set, so that training then does no extra work.
        """
        if self.context is None or not getattr(self.estimator, "_skl_callbacks", None):
            return None

        def on_iteration(K, V):
            return self.subtask("iteration").end(lambda: fitted_attributes(K, V))

        return on_iteration
