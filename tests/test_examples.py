"""Every gallery example runs at reduced size and writes its figure."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FIGURES = {
    "plot_paper_reproduction.py": "paper_reproduction.png",
    "plot_data_and_compute.py": "data_and_compute.png",
    "plot_linear_baselines.py": "linear_baselines.png",
    "plot_score_path.py": "score_path.png",
    "plot_explain_prediction.py": "explain_prediction.png",
}


def test_every_example_is_listed():
    assert {p.name for p in EXAMPLES.glob("plot_*.py")} == set(FIGURES)


@pytest.mark.parametrize("script", sorted(FIGURES))
def test_example_runs_and_writes_its_figure(script, tmp_path):
    env = dict(os.environ, SOFTATTN_EXAMPLES_QUICK="1", SOFTATTN_EXAMPLES_OUTPUT=str(tmp_path),
               MPLBACKEND="Agg")
    proc = subprocess.run([sys.executable, str(EXAMPLES / script)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    figure = tmp_path / FIGURES[script]
    assert figure.exists() and figure.stat().st_size > 1000
    assert f"Figure written to {figure.name}" in proc.stdout
