"""examples/python_l_shape.py runs and says what its docstring promises."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import ROOT


def test_l_shape_example(tmp_path):
    pytest.importorskip("matplotlib")
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "python_l_shape.py"),
                          "--out", str(tmp_path), "--n", "4"],
                         check=True, capture_output=True, text=True).stdout
    flux = float(re.search(r"flux: outer: \[(\S+)\]", out).group(1))
    assert abs(flux + 3) < 1e-8  # the source's total through the Dirichlet edges
    assert "symmetric: True" in out
    rates = [float(x) for x in re.search(r"rates of u: \[(.*)\]", out).group(1).split(",")]
    assert all(2.7 < r < 3.3 for r in rates[1:])
    for name in ("u", "convergence", "stages"):
        assert (tmp_path / f"l-shape-{name}.png").stat().st_size > 10000
