"""The README's Python examples run, print what the README says they print, and warn
exactly as it says (nothing, where it shows no warning)."""

import contextlib
import io
import re
import warnings
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
INDENTED = r"((?:    [^\n]*\n)+)"
EXAMPLE = re.compile(r"```python\n(.*?)```\n\nprints\n\n" + INDENTED
                     + r"(?:\nand warns\n\n" + INDENTED + ")?", re.S)


def _unindent(block):
    return re.sub(r"(?m)^    ", "", block)


def test_readme_examples_print_and_warn_what_they_claim():
    examples = EXAMPLE.findall(README.read_text(encoding="utf-8"))
    assert examples, "no ```python block followed by 'prints' in README.md"
    for code, expected, expected_warnings in examples:
        out = io.StringIO()
        with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
            warnings.simplefilter("always")
            exec(compile(code, str(README), "exec"), {})
        assert out.getvalue() == _unindent(expected)
        shown = [f"{w.category.__name__}: {w.message}" for w in caught]
        assert shown == _unindent(expected_warnings).splitlines()
