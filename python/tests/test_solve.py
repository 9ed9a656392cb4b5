"""Solutions as numpy arrays with the documented shapes, options and their errors, the
evaluation of the solution, the plots."""
from __future__ import annotations

import numpy as np
import pytest

import hdgcl


def test_devices_and_problems():
    devs = hdgcl.devices()
    assert devs and all({"index", "name", "type", "fp64"} <= set(d) for d in devs)
    names = [p["name"] for p in hdgcl.problems()]
    assert "helmholtz-sin" in names and "cantilever" in names
    assert "order" in hdgcl.SOLVER_OPTIONS and "no-cache" in hdgcl.CONTEXT_OPTIONS
    assert hdgcl.__version__.count(".") == 2


def test_package_version_is_the_librarys():
    from importlib import metadata
    try:
        installed = metadata.version("hdgcl")
    except metadata.PackageNotFoundError:
        pytest.skip("hdgcl used from the source tree (PYTHONPATH), not installed")
    assert installed == hdgcl.version()


# (spec, E, F, Np, Np1, Nf) at order 2
SHAPES = [("square:2", 8, 16, 6, 10, 3), ("quad:2", 4, 12, 9, 16, 3),
          ("cube:1", 6, 18, 10, 20, 6), ("hex:1", 1, 6, 27, 64, 9)]


@pytest.mark.parametrize("spec,E,F,Np,Np1,Nf", SHAPES)
def test_scalar_shapes(spec, E, F, Np, Np1, Nf):
    with hdgcl.solve(spec, order=2) as s:
        d = s.mesh.dim
        assert s.sizes == {"Np": Np, "Np1": Np1, "Nf": Nf, "components": 1, "dim": d}
        assert s.u.shape == (E, Np) and s.q.shape == (E, d, Np)
        assert s.ustar.shape == (E, Np1) and s.trace.shape == (F, Nf)
        assert s.u.dtype == np.float64 and s.u.flags.c_contiguous
        assert s.u_mean.shape == (E,)
        assert s.u_at_vertices().shape == (E, s.mesh.cells.shape[1])
        A, b = s.matrix()
        n = s.result["trace_dofs"]
        assert A.shape == (n, n) and b.shape == (n,)
        with pytest.raises(hdgcl.Error, match="has no pressure"):
            s.pressure


def test_elasticity_shapes():
    with hdgcl.solve("square:2", order=1, problem="elasticity") as s:
        assert s.is_vector and s.sizes["components"] == 2
        E, F = 8, 16
        assert s.u.shape == (E, 2, 3) and s.q.shape == (E, 2, 2, 3)
        assert s.ustar.shape == (E, 2, 6) and s.trace.shape == (F, 2, 2)
        assert s.pressure.shape == (E, 3)
        assert s.u_at_vertices().shape == (E, 3, 2) and s.u_mean.shape == (E, 2)
        assert s.ustar_at_vertices().shape == (E, 3, 2)
        A, _ = s.matrix()
        assert A.shape == (s.result["trace_dofs"],) * 2


def test_solution_reproduces_a_linear_u():
    """u = 1 + x + 2y (exact for p >= 1): the values at the vertices and the element
    means from the coefficients in the orthonormal bases."""
    for spec in ("square:2", "quad:2,perturb=0.2"):
        m = hdgcl.Mesh.from_spec(spec)
        with hdgcl.solve(m, order=2, problem="user", f=0, exact="1 + x + 2*y",
                         bc_default="dirichlet") as s:
            assert s.result["errors"]["l2_u"] < 1e-12
            P = m.points[m.cells]
            exact = 1 + P[..., 0] + 2 * P[..., 1]
            np.testing.assert_allclose(s.u_at_vertices(), exact, atol=1e-11)
            np.testing.assert_allclose(s.ustar_at_vertices(), exact, atol=1e-11)
            if m.cell_type == "triangle":  # affine: the mean is the value at the centroid
                c = P.mean(axis=1)
                np.testing.assert_allclose(s.u_mean, 1 + c[:, 0] + 2 * c[:, 1], atol=1e-11)


def test_basis_is_orthonormal():
    """_basis against host/fem/basis.h's definition: the mass matrix on the reference
    element is the identity (Gauss quadrature, collapsed for simplices)."""
    from hdgcl._basis import evaluate
    g, w = np.polynomial.legendre.leggauss(8)
    a, b = np.meshgrid(g, g, indexing="ij")
    wa = np.outer(w, w)
    quad = np.c_[a.ravel(), b.ravel()]
    tri = np.c_[(1 + a.ravel()) * (1 - b.ravel()) / 2 - 1, b.ravel()]  # Duffy
    wt = (wa * (1 - b) / 2).ravel()
    for cell, pts, wts in (("quadrilateral", quad, wa.ravel()), ("triangle", tri, wt)):
        V = evaluate(cell, 4, pts)
        np.testing.assert_allclose(V.T @ (wts[:, None] * V), np.eye(V.shape[1]), atol=1e-12)


def test_option_names_and_values():
    with hdgcl.solve("square:2", order=1, cheb_degree=2, precond="chebyshev",
                     options={"keep-local": True}) as s:
        assert s.result["cheb_degree"] == 2
    with hdgcl.solve(problem="cantilever", order=1, mesh="square:4x1,size=4x1") as s:
        assert s.result["errors"]["tip_deflection"] > 0


@pytest.mark.parametrize("kwargs,error,message", [
    ({"colour": "red"}, hdgcl.Error, "unknown option --colour"),
    ({"order": 99}, hdgcl.Error, "--order 99: out of range"),
    ({"order": "three"}, hdgcl.Error, "--order three: not an integer"),
    ({"precond": "magic"}, hdgcl.Error, "--precond magic: unknown value"),
    ({"problem": "nope"}, hdgcl.Error, "nope"),
    ({"order": [3]}, TypeError, "option order: expected a bool, number or string"),
    ({"tau": -1.0}, hdgcl.Error, "--tau -1.0"),
    ({"problem_file": "/nonexistent/p.json"}, hdgcl.Error, "/nonexistent/p.json"),
    ({"device": "no-such-vendor"}, hdgcl.Error, "no-such-vendor"),
    ({"device": 3}, TypeError, "device: expected a string or hdgcl.Context"),
    ({"mesh": 3}, TypeError, "mesh: expected an hdgcl.Mesh or a spec string"),
    ({"mesh": "/nonexistent.msh"}, hdgcl.Error, "/nonexistent.msh"),
    ({"maxit": 1, "rtol": 1e-14}, hdgcl.Error, "iterations"),
])
def test_solve_errors(kwargs, error, message):
    kwargs.setdefault("mesh", "square:2")
    with pytest.raises(error) as info:
        hdgcl.solve(**kwargs)
    assert message in str(info.value)


def test_context_and_solver_lifecycle():
    ctx = hdgcl.Context("auto", no_cache=False)
    assert ctx.device["fp64"] and not ctx.is_reference
    with pytest.raises(hdgcl.Error, match="unknown option --order"):
        hdgcl.Context(order=3)
    with pytest.raises(ValueError, match="belongs to the context"):
        hdgcl.solve("square:1", device=ctx, no_cache=True)
    s = hdgcl.Solver("square:2", device=ctx, order=1)
    with pytest.raises(ValueError, match="solve"):
        s.u
    with pytest.raises(ValueError, match="solve"):
        s.matrix()
    s.solve()
    a = s.result
    s.solve()  # again: the same numbers
    assert s.result["errors"] == a["errors"]
    s.close()
    s.close()
    with pytest.raises(ValueError, match="closed"):
        s.solve()
    # the C solver keeps pointers to its mesh and context: closing either closes it
    mesh = hdgcl.Mesh.from_spec("square:2")
    s = hdgcl.solve(mesh, device=ctx, order=1)
    mesh.close()
    for use in (lambda: s.solve(), lambda: s.matrix(), lambda: s.pressure):
        with pytest.raises(ValueError, match="already closed"):
            use()
    with pytest.raises(ValueError, match="mesh: already closed"):
        hdgcl.solve(mesh, device=ctx)
    s = hdgcl.solve("square:2", device=ctx, order=1)
    ctx.close()
    with pytest.raises(ValueError, match="already closed"):
        s.write_vtu("never.vtu")
    with pytest.raises(ValueError, match="its context is closed"):
        hdgcl.solve("square:2", device=ctx)
    with hdgcl.solve("square:2", device="ref", order=1) as r:  # the serial reference path
        assert r.context.is_reference
        assert abs(r.result["errors"]["l2_u"] - a["errors"]["l2_u"]) < 1e-10


def test_write_vtu(tmp_path):
    with hdgcl.solve("square:2", order=1) as s:
        s.write_vtu(tmp_path / "u.vtu")
        assert (tmp_path / "u.vtu").read_text().startswith("<?xml")
        with pytest.raises(hdgcl.Error, match="missing-dir"):
            s.write_vtu(tmp_path / "missing-dir" / "u.vtu")


def test_refine_spec():
    assert hdgcl.refine_spec("square:8x4,diag=alt", 2) == "square:16x8,diag=alt"
    assert hdgcl.refine_spec("cube:2,size=2x1x1", 4) == "cube:8,size=2x1x1"
    with pytest.raises(ValueError, match="generated mesh"):
        hdgcl.refine_spec("m.msh", 2)
    with pytest.raises(ValueError, match="levels"):
        hdgcl.convergence("square:2", 0)


def test_plots(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from hdgcl import plot
    with hdgcl.solve("quad:2", order=2) as s:
        ax = plot.solution(s)
        assert len(ax.collections) == 1 and ax.collections[0].get_array().size == 4 * 4
        ax = plot.solution(s, shading="flat", colorbar=False)
        assert ax.collections[0].get_array().size == 2 * 4  # two triangles per quad
        with pytest.raises(ValueError, match="shading"):
            plot.solution(s, shading="smooth")
        ax = plot.solution(s, field="ustar")
        assert "u*" in ax.get_title()
        with pytest.raises(ValueError, match="field"):
            plot.solution(s, field="q")
        with pytest.raises(ValueError, match="needs 'gouraud'"):
            plot.solution(s, field="ustar", shading="flat")
        result = s.result
    with hdgcl.solve("hex:1", order=1) as s3:
        with pytest.raises(ValueError, match="2D mesh"):
            plot.solution(s3)
    with hdgcl.solve("square:2", order=1, problem="elasticity") as e:
        plot.solution(e, component=1)
    study = hdgcl.convergence("square:2", 2, order=1)
    ax = plot.convergence(study)
    assert len(ax.lines) == 3 and "rate" in ax.get_legend().get_texts()[0].get_text()
    ax = plot.stage_times([result, study["runs"][0]], labels=["a", "b"])
    assert len(ax.patches) == 2 * len(result["stages"])
    ax.figure.savefig(tmp_path / "t.png")
    assert (tmp_path / "t.png").stat().st_size > 0
    with pytest.raises(ValueError, match="no results"):
        plot.stage_times([])
    plt.close("all")


def test_option_name_types_and_plot_refusals():
    with pytest.raises(TypeError, match="option names are strings"):
        hdgcl.solve("square:1", options={1: 2})
    from hdgcl import plot
    with pytest.raises(ValueError, match="no runs"):
        plot.convergence([])


def test_library_not_found(tmp_path):
    """HDGCL_LIBRARY naming a missing file is an ImportError saying so, not a crash."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, HDGCL_LIBRARY=str(tmp_path / "libnone.so"))
    run = subprocess.run([sys.executable, "-c", "import hdgcl"], env=env,
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert "ImportError: HDGCL_LIBRARY=" in run.stderr and "no such file" in run.stderr


def test_progress(tmp_path):
    """The progress callback hears of kernel compilation on a cold (hdgcl) cache."""
    lines = []
    ctx = hdgcl.Context(progress=lines.append, cache_dir=tmp_path)
    hdgcl.solve("square:1", device=ctx, order=0).close()
    assert any(line.startswith("compiling kernels for ") for line in lines)
    assert any(line.startswith("CG iteration 1, residual") for line in lines)
    more = []
    hdgcl.solve("square:1", order=0, progress=more.append, cache_dir=tmp_path).close()
    assert more and not any("compiling" in line for line in more)  # warm now
    with pytest.raises(TypeError, match="progress: expected a function"):
        hdgcl.Context(progress=3)
    with pytest.raises(ValueError, match="progress belongs to the context"):
        hdgcl.solve("square:1", device=ctx, progress=print)
    failing = hdgcl.Context(progress=lambda line: 1 / 0, cache_dir=tmp_path / "other")
    hdgcl.solve("square:1", device=failing, order=0).close()  # its exception stays in Python


def test_roofline_of_bench(cli, tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import json
    import subprocess
    import matplotlib.pyplot as plt
    from hdgcl import plot
    path = tmp_path / "b.jsonl"
    subprocess.run([str(cli), "bench", "--quiet", "--meshes", "square:4 quad:3", "--orders", "1",
                    "--warmup", "0", "--repeat", "1", "--min-time", "0.01", "--copy-mib", "8",
                    "--dgemm-batch", "100", "--json", str(path)], check=True)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    measured = sum(1 for b in records for e in b["stages"] + b["kernels"]
                   if e.get("flops") and e.get("bytes") and e.get("gflops"))
    ax = plot.roofline(path)
    ceilings = len({(b["peak"]["copy_gbs"], b["peak"]["dgemm_gflops"]) for b in records})
    assert len(ax.lines) == ceilings + measured and measured > 0
    assert len(ax.get_legend().get_texts()) == 2  # one entry per case
    ax = plot.roofline(records[0])
    assert ax.get_legend() is None
    with pytest.raises(ValueError, match="no bench records"):
        plot.roofline([])
    plt.close("all")
