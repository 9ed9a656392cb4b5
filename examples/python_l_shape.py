#!/usr/bin/env python3
"""hdgcl from Python: an L-shaped membrane built with numpy, solved, plotted.

    pip install ./python            # once (docs/python.md)
    python3 examples/python_l_shape.py [--out DIR]

Builds the L-shaped domain [0,2]^2 minus [1,2]^2 as numpy arrays of points and triangles,
tags its two re-entrant edges "corner" and the rest "outer", and solves -lap u = 1 with
u = 0 on "outer" and no flux through "corner" (kwargs with the CLI's option names).  Then
prints the result dict's numbers, the flux through "outer" (which balances the source:
the domain's area, 3), looks at the arrays, and writes three plots: the solution, a
convergence study of the built-in Poisson problem, and the stage times.
"""
import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files, no window
import numpy as np

import hdgcl
from hdgcl import plot


def l_shape(n: int) -> hdgcl.Mesh:
    """n x n squares per unit, two triangles each, on [0,2]^2 without [1,2]^2."""
    g = np.linspace(0.0, 2.0, 2 * n + 1)
    X, Y = np.meshgrid(g, g, indexing="ij")
    index = np.arange(X.size).reshape(X.shape)
    tris = []
    for i in range(2 * n):
        for j in range(2 * n):
            if i >= n and j >= n:
                continue  # the missing quadrant
            a, b, c, d = index[i, j], index[i + 1, j], index[i + 1, j + 1], index[i, j + 1]
            tris += [(a, b, c), (a, c, d)]
    cells = np.array(tris)
    used = np.unique(cells)  # points of the missing quadrant belong to no triangle
    renumber = np.full(X.size, -1)
    renumber[used] = np.arange(used.size)
    points = np.c_[X.ravel(), Y.ravel()][used]
    cells = renumber[cells]
    # boundary edges: those of one triangle only
    edges = np.sort(np.concatenate([cells[:, [0, 1]], cells[:, [1, 2]], cells[:, [2, 0]]]), 1)
    unique, count = np.unique(edges, axis=0, return_counts=True)
    boundary = unique[count == 1]
    mid = points[boundary].mean(axis=1)
    corner = ((np.isclose(mid[:, 0], 1.0) & (mid[:, 1] > 1.0))
              | (np.isclose(mid[:, 1], 1.0) & (mid[:, 0] > 1.0)))
    tags = np.where(corner, 2, 1)
    return hdgcl.Mesh.from_arrays(points, cells, "triangle", faces=boundary, face_tags=tags,
                                  tag_names={"outer": (1, 1), "corner": (1, 2)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=".", help="folder for the PNG files")
    parser.add_argument("--n", type=int, default=8, help="squares per unit length")
    args = parser.parse_args()
    out = Path(args.out)

    print("devices:", [d["name"] for d in hdgcl.devices()])
    mesh = l_shape(args.n)
    print(mesh)
    with hdgcl.solve(mesh, order=3, problem="user", f=1,
                     bc="outer: dirichlet: 0; corner: neumann: 0",
                     output="flux: outer") as s:
        r = s.result
        print(f"{r['elements']} elements, {r['trace_dofs']} trace unknowns, "
              f"{r['iterations']} iterations ({r['solver']}, {r['precond']})")
        flux = r["outputs"][0]
        print(f"{flux['label']}: {flux['values']} ({flux['names']}; the source's total is 3)")
        print("u", s.u.shape, "q", s.q.shape, "u*", s.ustar.shape, "trace", s.trace.shape)
        print(f"largest u at a vertex: {s.u_at_vertices().max():.6f}")
        A, b = s.matrix()
        print(f"trace matrix {A.shape[0]} x {A.shape[1]}, {A.nnz} stored entries, "
              f"symmetric: {abs(A - A.T).max() < 1e-12 * abs(A).max()}")
        ax = plot.solution(s)
        ax.figure.savefig(out / "l-shape-u.png", dpi=120)
        result = r

    study = hdgcl.convergence("square:2", 4, order=2, problem="poisson-mixed")
    print("observed rates of u:", [round(rate["u"], 2) for rate in study["rates"]])
    ax = plot.convergence(study)
    ax.figure.savefig(out / "l-shape-convergence.png", dpi=120)
    ax = plot.stage_times([result, study["runs"][-1]], labels=["L-shape", "poisson-mixed"])
    ax.figure.savefig(out / "l-shape-stages.png", dpi=120)
    print("wrote", ", ".join(f"l-shape-{k}.png" for k in ("u", "convergence", "stages")))


if __name__ == "__main__":
    main()
