"""The lab notebooks (docs/labs/lab*.ipynb) run from top to bottom: every cell, their
checker cells included, on a Jupyter kernel of this interpreter (the one hdgcl is
installed in), from docs/labs/ as a student's Jupyter would.  A cell that raises fails
the test with the cell's error.  The notebooks are committed without outputs
(docs/labs/README.md says why); test_stripped keeps them so."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from conftest import ROOT

try:  # required, not skipped: .ci/setup installs them (Debian), or pip install './python[test]'
    import ipykernel  # noqa: F401  (the kernel the notebooks run on)
    import nbclient
    import nbformat
except ImportError as e:
    raise ImportError(f"{e}: the notebook tests need nbclient, nbformat and ipykernel "
                      "(Debian: python3-nbclient python3-nbformat python3-ipykernel)") from e

LABS = ROOT / "docs" / "labs"
NOTEBOOKS = sorted(LABS.glob("lab*.ipynb"))
KERNEL = "hdgcl-tests"  # a kernelspec of sys.executable, made in a scratch folder


@pytest.fixture(scope="module")
def kernel(tmp_path_factory, cli):
    """A kernelspec that starts this interpreter (the system's `python3` kernelspec, where
    Debian's python3-ipykernel installs one, starts /usr/bin/python3, which may not see
    the venv's hdgcl), found through JUPYTER_PATH; HDGCL_CLI for the cells that run the CLI."""
    spec = tmp_path_factory.mktemp("jupyter")
    (spec / "kernels" / KERNEL).mkdir(parents=True)
    (spec / "kernels" / KERNEL / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-Xfrozen_modules=off", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "hdgcl tests", "language": "python"}))
    saved = {k: os.environ.get(k) for k in ("JUPYTER_PATH", "HDGCL_CLI", "MPLBACKEND")}
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        [str(spec)] + ([saved["JUPYTER_PATH"]] if saved["JUPYTER_PATH"] else []))
    os.environ["HDGCL_CLI"] = str(cli)
    os.environ["MPLBACKEND"] = "Agg"
    yield KERNEL
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def execute(path: Path, kernel_name: str, timeout: int = 300):
    """Runs the notebook at path in docs/labs/ (its cwd in Jupyter) and returns it with
    its outputs; a cell that raises raises nbclient's CellExecutionError."""
    nb = nbformat.read(path, as_version=4)
    # one more cell: which interpreter and which hdgcl the kernel ran
    nb.cells.append(nbformat.v4.new_code_cell(
        "import sys, hdgcl; print(sys.executable); print(hdgcl.__file__)"))
    client = nbclient.NotebookClient(nb, kernel_name=kernel_name, timeout=timeout,
                                     resources={"metadata": {"path": str(LABS)}})
    client.execute()
    return nb


def stdout(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", ())
                   if o.get("output_type") == "stream")


def test_notebooks_present():
    names = [p.name for p in NOTEBOOKS]
    for lab in ("lab1-convergence", "lab2-pipeline", "lab3-solvers"):
        assert f"{lab}.ipynb" in names
        assert (LABS / f"{lab}.md").is_file()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stripped(path):
    """Committed without outputs or execution counts."""
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, \
                f"{path.name}: cell {i} has outputs (strip them before committing)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, kernel):
    nb = execute(path, kernel)
    executable, package = stdout(nb.cells[-1]).split()
    assert Path(executable).resolve() == Path(sys.executable).resolve()
    import hdgcl
    assert Path(package).resolve() == Path(hdgcl.__file__).resolve()
    out = "\n".join(stdout(c) for c in nb.cells)
    passed = [line for line in out.splitlines() if line.startswith("PASS: ")]
    assert passed, f"{path.name}: no checker printed PASS"
    assert "FAIL" not in out
    # the answer cells are left for the student: they remind, and do not fail
    assert "not answered yet" in out


def test_failing_cell_fails(tmp_path, kernel):
    """A notebook whose cell raises fails execute(): a broken copy of lab 1 (a checker that
    cannot pass), stopping there."""
    nb = nbformat.read(LABS / "lab1-convergence.ipynb", as_version=4)
    setup = next(i for i, c in enumerate(nb.cells) if "def check(" in c.source)
    nb.cells = nb.cells[:setup + 1] + [
        nbformat.v4.new_code_cell('check(1 + 1 == 3, "arithmetic")'),
        nbformat.v4.new_code_cell('print("not reached")')]
    broken = tmp_path / "broken.ipynb"
    nbformat.write(nb, broken)
    with pytest.raises(nbclient.exceptions.CellExecutionError) as err:
        execute(broken, kernel)
    assert "AssertionError: arithmetic" in str(err.value)


# the answer cells: a right answer (what any device computes: errors to about 10 digits,
# iteration counts exactly) and a wrong one (a likely mistake)
ANSWERS = [
    ("lab1-convergence", "predicted_ustar_64", "6.9e-10", "1.38e-09"),  # rate p+1, not p+2
    ("lab2-pipeline", "predicted_unknowns_32", "12032", "12288"),  # every edge, not interior
    ("lab3-solvers", "predicted_pmg_restart10", "11", "22"),
]


@pytest.mark.parametrize("lab, name, right, wrong", ANSWERS, ids=[a[0] for a in ANSWERS])
def test_answer_checker(tmp_path, kernel, lab, name, right, wrong):
    """The answer cell's checker passes the right answer and fails a wrong one: the
    notebook's setup, then its answer cell and the checker after it, twice."""
    nb = nbformat.read(LABS / f"{lab}.ipynb", as_version=4)
    setup = next(c for c in nb.cells if "def check_answer(" in c.source)
    i = next(i for i, c in enumerate(nb.cells) if f"{name} = None" in c.source)
    checker = nb.cells[i + 1]
    assert name in checker.source
    cells = [setup]
    for value in (right, wrong):
        cells += [nbformat.v4.new_code_cell(nb.cells[i].source.replace(
            f"{name} = None", f"{name} = {value}")), nbformat.v4.new_code_cell(checker.source)]
    nb.cells = cells
    path = tmp_path / f"{lab}.ipynb"
    nbformat.write(nb, path)
    out = execute(path, kernel)
    first, second = (stdout(out.cells[k]).splitlines()[-1] for k in (2, 4))
    assert first.startswith("PASS: "), first
    assert second.startswith("FAIL: "), second
