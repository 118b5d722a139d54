"""Progress reports: what finished, what runs, and the time left, on the stream given."""

import io
import time

import pytest

from sklearn_softattn._progress import ProgressReport, parallel, track


def _square(x):
    return x * x


def test_track_reports_each_item_as_it_finishes():
    stream = io.StringIO()
    assert list(track(["a", "b", "c"], "loop", stream=stream)) == ["a", "b", "c"]
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("[loop]  33% after 0 s, about 0 s left; finished: a; running: b")
    assert lines[-1] == "[loop] 100% after 0 s; finished: c"


def test_parallel_keeps_the_order_and_finishes_a_label_with_its_last_job():
    stream = io.StringIO()
    jobs = [(f"label {i % 3}", i + 1, _square, (i,)) for i in range(7)]
    assert parallel(jobs, "jobs", n_jobs=2, stream=stream) == [i * i for i in range(7)]
    lines = stream.getvalue().splitlines()
    for k in range(3):
        assert sum(f"finished: label {k}" in line for line in lines) == 1
    assert lines[-1].startswith("[jobs] 100% after")
    assert "running" not in lines[-1]


def test_quiet_reports_nothing():
    stream = io.StringIO()
    assert parallel([("x", 1, _square, (3,))], "jobs", n_jobs=1, stream=stream,
                    quiet=True) == [9]
    assert list(track([1, 2], "loop", stream=stream, quiet=True)) == [1, 2]
    assert stream.getvalue() == ""


def test_time_left_is_weighted_by_the_costs():
    with ProgressReport(10, "work", stream=io.StringIO()) as report:
        assert report.left() is None
        time.sleep(0.05)
        report.advance(2)  # a fifth done: four times as long to go
        elapsed = time.perf_counter() - report.start
        assert report.left() == pytest.approx(4 * elapsed, rel=0.1)


def test_status_lines_are_throttled():
    stream = io.StringIO()
    with ProgressReport(100, "work", stream=stream, interval=3600) as report:
        for _ in range(99):
            report.running("step")
            report.advance()
        report.advance(finished="all")
    assert stream.getvalue().splitlines() == ["[work] 100% after 0 s; finished: all"]


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_rich_bar_on_a_terminal():
    pytest.importorskip("rich")
    stream = _Terminal()
    assert list(track(["first", "second"], "loop", stream=stream)) == ["first", "second"]
    out = stream.getvalue()
    assert "finished: first" in out and "finished: second" in out
    assert "[loop]" not in out  # no plain lines
