"""Load a script of the repository (a benchmark, the docs' generator) as a module."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_script(path):
    """The module of the script at ``path``, relative to the repository's root."""
    path = ROOT / path
    # As running it would: the script's folder first on the path, for its own imports.
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
