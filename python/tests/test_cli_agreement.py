"""The same numbers through Python as through `hdgcl solve --json`: every key of the
result dict, every count and string, every error and residual to 1e-12, and the trace
matrix of --export-matrix."""
from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.io

import hdgcl

# Times and rates differ from run to run; the kernel-variant choices may come from a
# trial in one run and the cache in the other.
TIMING = {"seconds", "gflops", "gbs", "total_seconds", "setup_seconds", "precond_seconds",
          "seconds_per_iteration"}
SOURCES = {"local_invert_source", "local_schur_source", "local_element_source",
           "local_gemm_z_source", "local_gemm_k_source"}


def compare(py, cli, path="result"):
    if isinstance(cli, dict):
        assert isinstance(py, dict), path
        assert sorted(py) == sorted(cli), f"{path}: keys differ"
        for key in cli:
            if key in TIMING:
                assert isinstance(py[key], float), f"{path}.{key}"
            elif key not in SOURCES:
                compare(py[key], cli[key], f"{path}.{key}")
    elif isinstance(cli, list):
        assert isinstance(py, list) and len(py) == len(cli), f"{path}: lengths differ"
        for i, (a, b) in enumerate(zip(py, cli)):
            compare(a, b, f"{path}[{i}]")
    elif isinstance(py, float):  # the CLI writes a real number without ".0" if it can
        assert type(cli) in (float, int), f"{path}: {py!r} != {cli!r}"
        assert math.isclose(py, cli, rel_tol=1e-12, abs_tol=1e-300), f"{path}: {py} != {cli}"
    else:  # int, str, bool, None
        assert py == cli and type(py) is type(cli), f"{path}: {py!r} != {cli!r}"


CASES = [
    ("square:4", {"order": 2}),
    ("quad:3,perturb=0.1", {"order": 3, "precond": "jacobi", "tau": 2.5}),
    ("cube:2", {"order": 1, "problem": "poisson-mixed"}),
    ("square:4", {"order": 2, "problem": "convection-diffusion", "solver": "gmres",
                  "restart": 10}),
    ("square:3", {"order": 2, "problem": "elasticity", "lambda": 10.0}),
    ("square:4", {"order": 2, "precond": "chebyshev", "cheb_degree": 3}),
    ("square:3", {"order": 2, "problem": "heat-boundary", "scheme": "bdf2", "time_step": 0.1,
                  "final_time": 0.3}),
    ("square:4", {"order": 2, "problem": "nonlinear-diffusion"}),
    ("square:3", {"order": 1, "problem": "nonlinear-heat", "scheme": "be", "time_step": 0.1,
                  "final_time": 0.2, "device": "ref"}),
]


@pytest.mark.parametrize("mesh,options", CASES, ids=[f"{m}-{o}" for m, o in CASES])
def test_result_matches_cli(mesh, options, run_cli):
    args = ["--mesh", mesh]
    for key, value in options.items():
        args += [f"--{key.replace('_', '-')}", str(value)]
    expected = run_cli(*args)
    with hdgcl.solve(mesh, **options) as s:
        compare(s.result, expected)
        assert s.result["iterations"] > 0


def test_problem_file_outputs_match_cli(run_cli, examples):
    """A user's problem with outputs (examples/heat-plate.json), given by `options`."""
    problem = str(examples / "heat-plate.json")
    expected = run_cli("--mesh", "square:8,split=x:0.5", "--order", "2", "--problem-file",
                       problem)
    mesh = hdgcl.Mesh.from_spec("square:8,split=x:0.5")
    with hdgcl.solve(mesh, order=2, options={"problem-file": problem}) as s:
        compare(s.result, expected)
        assert [o["label"] for o in s.result["outputs"]][:2] == ["flux: left", "flux: right"]


def test_gmsh_file_matches_cli(run_cli, examples):
    msh = examples / "plate-hole.msh"
    problem = examples / "plate-hole.json"
    expected = run_cli("--mesh", str(msh), "--order", "1", "--problem-file", str(problem))
    with hdgcl.solve(hdgcl.Mesh.read_gmsh(msh), order=1, problem_file=problem) as s:
        compare(s.result, expected)


def test_matrix_matches_export(cli, tmp_path):
    import subprocess
    prefix = tmp_path / "A"
    subprocess.run([str(cli), "solve", "--quiet", "--mesh", "square:3", "--order", "2",
                    "--export-matrix", str(prefix)], check=True)
    expected = scipy.io.mmread(str(prefix) + ".mtx").tocsr()
    rhs = scipy.io.mmread(str(prefix) + ".rhs.mtx").ravel()
    with hdgcl.solve("square:3", order=2) as s:
        A, b = s.matrix()
        assert A.shape == expected.shape == (s.result["trace_dofs"],) * 2
        assert A.nnz == expected.nnz
        np.testing.assert_allclose(A.toarray(), expected.toarray(), rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(b, rhs, rtol=1e-12, atol=1e-14)
        # Python's own export is the CLI's file
        s.export_matrix(tmp_path / "B")
        assert (tmp_path / "B.mtx").read_text() == (tmp_path / "A.mtx").read_text()


def test_convergence_matches_cli(run_cli):
    expected = run_cli("--mesh", "square:2", "--order", "1", "--convergence", "3")
    study = hdgcl.convergence("square:2", 3, order=1)
    compare(study, expected)
    assert 1.5 < study["rates"][-1]["u"] < 2.5
