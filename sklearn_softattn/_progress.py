"""Progress of long runs, on stderr, so that results on stdout stay clean.

A bar from ``rich`` (the ``progress`` extra) when it is installed and stderr is
a terminal; plain lines otherwise (logs, pipes, tests). Each report says what
is running, what finished, the time so far and an estimate of the time left:
the time so far times the share of the work left over the share done, the work
being counted in the costs the caller gives (iterations, say), so that it
weighs long jobs as long.

Two ways in: :func:`track` for a loop, :func:`parallel` for joblib jobs.
"""

import sys
import time
from collections import Counter

from joblib import effective_n_jobs
from sklearn.utils.parallel import Parallel, delayed


def _duration(seconds):
    seconds = round(seconds)
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"


class ProgressReport:
    """Progress of ``total`` units of work, reported on ``stream`` (stderr by default).

    Use as a context manager; call :meth:`running` with what starts and
    :meth:`advance` with the units done. Plain lines come for each finished
    item and otherwise at most every ``interval`` seconds. ``quiet=True``
    reports nothing.
    """

    def __init__(self, total, description, *, stream=None, interval=10.0, quiet=False):
        self.total, self.description = max(total, 1e-300), description
        self.stream = sys.stderr if stream is None else stream
        self.interval = interval
        self.quiet = quiet
        self.done, self.now_running = 0, ""

    def __enter__(self):
        self.start = self.last_line = time.perf_counter()
        self._bar, self._reported_end = None, False
        if not self.quiet and getattr(self.stream, "isatty", lambda: False)():
            try:
                from rich.console import Console
                from rich.progress import (BarColumn, Progress, TaskProgressColumn, TextColumn,
                                           TimeElapsedColumn, TimeRemainingColumn)
            except ImportError:
                pass
            else:
                self._bar = Progress(
                    TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                    TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                    TextColumn("{task.fields[running]}"),
                    console=Console(file=self.stream), speed_estimate_period=1e6,
                )
                self._bar.start()
                self._task = self._bar.add_task(description=self.description,
                                                total=self.total, running="")
        return self

    def __exit__(self, *exc_info):
        if self._bar is not None:
            self._bar.stop()
        elif exc_info[0] is None and not self._reported_end:
            self._line(f"done in {_duration(time.perf_counter() - self.start)}")

    def running(self, what):
        """Say what is running now."""
        self.now_running = what
        if self._bar is not None:
            self._bar.update(self._task, running=self._running_field())
        elif time.perf_counter() - self.last_line >= self.interval:
            self._status()

    def advance(self, units=1, finished=None, running=None):
        """Count ``units`` more done; ``finished`` names what just finished and
        ``running`` what runs now (if it changed)."""
        self.done += units
        if running is not None:
            self.now_running = running
        if self._bar is not None:
            self._bar.update(self._task, advance=units, running=self._running_field())
            if finished is not None:
                self._bar.console.print(f"finished: {finished}")
        elif finished is not None or time.perf_counter() - self.last_line >= self.interval:
            self._status(finished)

    def _running_field(self):
        return f"running: {self.now_running}" if self.now_running else ""

    def left(self):
        """Estimated seconds left, or None before anything is done."""
        if self.done <= 0:
            return None
        return (time.perf_counter() - self.start) * max(self.total - self.done, 0) / self.done

    def _status(self, finished=None):
        elapsed, left = time.perf_counter() - self.start, self.left()
        estimate = "" if left is None or self.done >= self.total else (
            f", about {_duration(left)} left")
        what = [f"finished: {finished}"] if finished is not None else []
        if self.now_running and self.done < self.total:
            what.append(f"running: {self.now_running}")
        percent = int(100 * self.done / self.total)  # 100 only when done
        self._line(f"{percent:3d}% after {_duration(elapsed)}{estimate}"
                   + "".join(f"; {w}" for w in what))

    def _line(self, text):
        if self.quiet:
            return
        self._reported_end = self.done >= self.total
        print(f"[{self.description}] {text}", file=self.stream, flush=True)
        self.last_line = time.perf_counter()


def track(items, description, *, label=str, cost=None, stream=None, quiet=False):
    """Iterate over ``items``, reporting each as it runs and finishes.

    ``label(item)`` names an item; ``cost(item)`` weighs it in the estimate of
    the time left (1 each by default). ``quiet=True`` reports nothing.
    """
    items = list(items)
    labels = [label(item) for item in items]
    costs = [1 if cost is None else cost(item) for item in items]
    with ProgressReport(sum(costs), description, stream=stream, quiet=quiet) as report:
        for k, item in enumerate(items):
            if k == 0:
                report.running(labels[0])
            yield item
            report.advance(costs[k], finished=labels[k],
                           running=labels[k + 1] if k + 1 < len(items) else "")


def _indexed(index, function, args):
    return index, function(*args)


def parallel(jobs, description, *, n_jobs=None, stream=None, quiet=False):
    """Results of ``jobs`` run by joblib, in the jobs' order, with progress.

    Each job is ``(label, cost, function, args)``. Several jobs may share a
    label (the fits of one method, say): the label is reported finished when
    the last of them is. What is running is taken to be the first unfinished
    jobs, one per worker, as joblib dispatches them in order. ``quiet=True``
    reports nothing.
    """
    jobs = list(jobs)
    results = [None] * len(jobs)
    unfinished = Counter(label for label, *_ in jobs)
    pending = list(range(len(jobs)))
    n_workers = effective_n_jobs(n_jobs)

    def now_running():
        labels = dict.fromkeys(jobs[i][0] for i in pending[:n_workers])
        return ", ".join(labels)

    with ProgressReport(sum(cost for _, cost, *_ in jobs), description, stream=stream,
                        quiet=quiet) as report:
        report.running(now_running())
        outputs = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
            delayed(_indexed)(i, function, args) for i, (_, _, function, args) in enumerate(jobs)
        )
        for i, result in outputs:
            results[i] = result
            pending.remove(i)
            label, cost = jobs[i][:2]
            unfinished[label] -= 1
            report.advance(cost, finished=label if unfinished[label] == 0 else None,
                           running=now_running())
    return results
