"""The stress and von Mises stress of an elasticity solution at the vertices, against the
exact uniform stress of elasticity-linear (u = A x), the materials per element, and the
von Mises plot."""
from __future__ import annotations

import numpy as np
import pytest

import hdgcl

# cl/fem/problems.h, PROBLEM_ELASTICITY_LINEAR: A (row-major 3 x 3; 2D takes its corner)
A = np.array([[0.01, 0.02, 0.005], [0.015, -0.006, 0.003], [0.004, 0.006, 0.002]])


def exact_von_mises(d, mu, lam):
    h = A[:d, :d]
    sigma = np.zeros((3, 3))
    sigma[:d, :d] = mu * (h + h.T) + lam * np.trace(h) * np.eye(d)
    if d == 2:
        sigma[2, 2] = lam * np.trace(h)  # plane strain: eps_zz = 0
    dev = sigma - np.trace(sigma) / 3 * np.eye(3)
    return sigma, np.sqrt(1.5 * np.sum(dev * dev))


@pytest.mark.parametrize("mesh,d", [("square:2", 2), ("quad:2,perturb=0.1", 2), ("cube:1", 3)])
def test_uniform_stress_reproduced(mesh, d):
    with hdgcl.solve(mesh, device="ref", problem="elasticity-linear", order=1, mu=2.0,
                     **{"lambda": 3.0}) as s:
        mu, lam = s.materials
        assert mu.shape == (s.mesh.num_elements,) and np.all(mu == 2.0) and np.all(lam == 3.0)
        sigma, vm = exact_von_mises(d, 2.0, 3.0)
        got = s.stress_at_vertices()
        assert got.shape == (s.mesh.num_elements, s.mesh.cells.shape[1], 3, 3)
        assert np.allclose(got, sigma, rtol=0, atol=1e-9 * np.abs(sigma).max())
        assert np.allclose(s.von_mises_at_vertices(), vm, rtol=1e-8, atol=0)


def test_materials_per_element_and_refusals():
    with hdgcl.solve("square:4", device="ref", problem="elasticity-bimaterial", order=1) as s:
        mu, lam = s.materials
        assert sorted(set(mu.round(12))) == [1.0, 10.0]  # contrast 10 on x > 1/2
    with hdgcl.solve("square:2", device="ref", order=1) as s:
        with pytest.raises(hdgcl.Error, match="scalar"):
            s.materials
        with pytest.raises(hdgcl.Error, match="scalar"):
            s.von_mises_at_vertices()


def test_von_mises_plot():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from hdgcl import plot
    with hdgcl.solve("square:2", device="ref", problem="elasticity", order=2) as s:
        ax = plot.solution(s, field="von_mises")
        assert "von Mises" in ax.get_title()
    with hdgcl.solve("square:2", device="ref", order=1) as s:
        with pytest.raises(ValueError, match="elasticity problem is needed"):
            plot.solution(s, field="von_mises")
