"""The README and the user guide read as documentation, not as a log: no commit hashes,
and pages short enough to read (the benchmark log, the guide's last page, excepted)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "doc" / "user_guide"
PAGES = [ROOT / "README.md", ROOT / "doc" / "index.md", *sorted(GUIDE.glob("*.md"))]
# A word of 7 to 40 hexadecimal characters holding a digit and a letter: a commit hash.
HASH = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_commit_hash(page):
    assert HASH.findall(page.read_text(encoding="utf-8")) == []


def test_hash_pattern():
    assert HASH.findall("at db57a366, 0e201b82 and 1234567; a decade, 2e-05") == [
        "db57a366", "0e201b82"]


@pytest.mark.parametrize("page", sorted(GUIDE.glob("*.md")), ids=lambda p: p.name)
def test_guide_pages_are_short(page):
    if page.name != "benchmark_log.md":
        assert page.stat().st_size <= 20 * 1024


def test_readme_is_short():
    assert (ROOT / "README.md").stat().st_size < 10 * 1024
