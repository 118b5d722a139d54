"""The user guide's Python examples run (each page's blocks in order, in a fresh
folder) and print what the page says they print: a ```python block followed by a
paragraph "prints" and an indented block shows that block's exact output, as in the
README (tests/test_readme.py). A block without one prints nothing, but for the progress
bars of the callbacks page, whose output depends on timing. The guide lists the paper's
baseline as sklearn_softattn.PAPER_BASELINE."""

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

import sklearn_softattn

GUIDE = Path(__file__).resolve().parents[1] / "doc" / "user_guide"
BLOCK = re.compile(r"```python\n(.*?)```\n(?:\nprints\n\n((?:    [^\n]*\n)+))?", re.S)
# Each page with examples, and the optional modules its examples import.
PAGES = {"model.md": [], "selection.md": [], "callbacks.md": ["sklearn.callback", "rich"],
         "persistence.md": ["skops"], "inspect.md": ["matplotlib"],
         "scale.md": ["dask", "dask_ml", "distributed"]}
PROGRESS_BARS = {"callbacks.md"}  # what they draw depends on timing: not shown on the page


def test_every_page_with_examples_is_run():
    with_examples = {p.name for p in GUIDE.glob("*.md") if BLOCK.search(p.read_text())}
    assert with_examples == set(PAGES)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("page", sorted(PAGES))
def test_user_guide_examples_print_what_they_show(page, tmp_path, monkeypatch):
    for module in PAGES[page]:
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{page} needs {module}")
    monkeypatch.chdir(tmp_path)  # pages that save files write them here
    namespace = {}
    for code, shown in BLOCK.findall((GUIDE / page).read_text(encoding="utf-8")):
        # A buffer, not None: the processes of n_jobs flush sys.stdout.
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(GUIDE / page), "exec"), namespace)
        if shown:
            assert out.getvalue() == re.sub(r"(?m)^    ", "", shown), code
        elif page not in PROGRESS_BARS:
            assert out.getvalue() == "", f"{page}: a block prints, and the page does not show it"


@pytest.mark.parametrize("page", ["results.md", "robustness.md"])
def test_the_paper_baseline_is_listed_as_the_package_defines_it(page):
    listed = ", ".join(f'{k}="{v}"' if isinstance(v, str) else f"{k}={v}"
                       for k, v in sklearn_softattn.PAPER_BASELINE.items())
    assert f"`{listed}`" in " ".join((GUIDE / page).read_text(encoding="utf-8").split())
