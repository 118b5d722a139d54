"""The README's Python examples run and print what the README says they print."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
EXAMPLE = re.compile(r"```python\n(.*?)```\n\nprints\n\n((?:    [^\n]*\n)+)", re.S)


def test_readme_examples_print_what_they_claim():
    examples = EXAMPLE.findall(README.read_text(encoding="utf-8"))
    assert examples, "no ```python block followed by 'prints' in README.md"
    for code, expected in examples:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(README), "exec"), {})
        assert out.getvalue() == re.sub(r"(?m)^    ", "", expected)
