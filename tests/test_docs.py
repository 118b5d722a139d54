"""The user guide's short Python examples run (each page's blocks in order, in a
fresh folder). The long ones of the scale page need a dask cluster and minutes;
tests/test_scale.py checks what they show."""

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[1] / "doc" / "user_guide"
BLOCK = re.compile(r"```python\n(.*?)```", re.S)
# Each page, and the optional modules its examples import.
PAGES = {"model.md": [], "selection.md": [], "callbacks.md": ["sklearn.callback", "rich"],
         "persistence.md": ["skops"], "inspect.md": ["matplotlib"]}


def test_every_page_with_examples_is_run_or_said_to_be_long():
    with_examples = {p.name for p in GUIDE.glob("*.md") if BLOCK.search(p.read_text())}
    assert with_examples == set(PAGES) | {"scale.md"}


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("page", sorted(PAGES))
def test_user_guide_examples_run(page, tmp_path, monkeypatch):
    for module in PAGES[page]:
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{page} needs {module}")
    monkeypatch.chdir(tmp_path)  # pages that save files write them here
    namespace = {}
    # A buffer, not None: the processes of n_jobs flush sys.stdout.
    with contextlib.redirect_stdout(io.StringIO()):
        for code in BLOCK.findall((GUIDE / page).read_text(encoding="utf-8")):
            exec(compile(code, str(GUIDE / page), "exec"), namespace)
