"""Plots with matplotlib: the solution on a 2D mesh, convergence, stage times, rooflines.

Each function draws into `ax` (a new figure's axes when None) and returns the axes.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ._solve import Solver


def _axes(ax: Any) -> Any:
    if ax is None:
        import matplotlib.pyplot as plt
        _, ax = plt.subplots()
    return ax


def solution(solver: Solver, ax: Any = None, component: int = 0, shading: str = "gouraud",
             colorbar: bool = True, field: str = "u", **kwargs: Any) -> Any:
    """u (field="u"), the postprocessed u* (field="ustar") or, for elasticity, the von Mises
    stress (field="von_mises") on a 2D mesh with tripcolor:
    each element drawn with its own values at its vertices (shading="gouraud": linear in
    between; "flat": u's element mean).  Quadrilaterals are split into two triangles.
    component: which displacement component for elasticity."""
    mesh = solver.mesh
    if mesh.dim != 2:
        raise ValueError(f"plot.solution: a 2D mesh is needed, this one is {mesh.dim}D")
    if shading not in ("gouraud", "flat"):
        raise ValueError(f"shading {shading!r}: expected 'gouraud' or 'flat'")
    if field not in ("u", "ustar", "von_mises"):
        raise ValueError(f"field {field!r}: expected 'u', 'ustar' or 'von_mises'")
    if field != "u" and shading == "flat":
        raise ValueError(f"shading 'flat' shows u's element means; {field} needs 'gouraud'")
    if field == "von_mises" and not solver.is_vector:
        raise ValueError("field 'von_mises': an elasticity problem is needed")
    ax = _axes(ax)
    pts, cells = mesh.points, mesh.cells
    E, k = cells.shape
    if shading == "flat":
        mean = solver.u_mean
        values = mean[:, component] if mean.ndim == 2 else mean
        tri = cells if k == 3 else np.concatenate([cells[:, [0, 1, 2]], cells[:, [0, 2, 3]]])
        colors = values if k == 3 else np.concatenate([values, values])
        art = ax.tripcolor(pts[:, 0], pts[:, 1], tri, facecolors=colors, **kwargs)
    else:
        if field == "von_mises":
            vv = solver.von_mises_at_vertices()
        else:
            vv = solver.u_at_vertices() if field == "u" else solver.ustar_at_vertices()
            vv = vv[..., component] if vv.ndim == 3 else vv
        # every element its own copy of its vertices: the solution is discontinuous
        xy = pts[cells].reshape(-1, 2)
        local = np.arange(E * k).reshape(E, k)
        tri = local if k == 3 else np.concatenate([local[:, [0, 1, 2]], local[:, [0, 2, 3]]])
        art = ax.tripcolor(xy[:, 0], xy[:, 1], tri, vv.ravel(), shading="gouraud", **kwargs)
    ax.set_aspect("equal")
    name = {"u": "u", "ustar": "u*", "von_mises": "von Mises stress"}[field]
    ax.set_title(f"{solver.result['problem']}: {name}, p = {solver.result['order']}")
    if colorbar:
        ax.figure.colorbar(art, ax=ax)
    return ax


def convergence(study: Mapping[str, Any] | Sequence[Mapping[str, Any]], ax: Any = None,
                errors: Sequence[str] = ("l2_u", "l2_q", "l2_ustar")) -> Any:
    """Errors against h on log-log axes, with the observed rate of the last refinement in
    the legend.  study: hdgcl.convergence()'s dict (or `hdgcl solve --convergence K
    --json` read back), or a list of result dicts."""
    runs = study["runs"] if isinstance(study, Mapping) else list(study)
    if len(runs) < 1:
        raise ValueError("plot.convergence: no runs")
    ax = _axes(ax)
    h = np.array([r["h"] for r in runs])
    for key in errors:
        e = np.array([np.nan if r["errors"].get(key) is None else r["errors"][key]
                      for r in runs])
        label = key
        if len(runs) > 1 and e[-1] > 0 and e[-2] > 0:
            label += f" (rate {np.log(e[-2] / e[-1]) / np.log(h[-2] / h[-1]):.2f})"
        ax.loglog(h, e, "o-", label=label)
    ax.set_xlabel("h")
    ax.set_ylabel("L2 error")
    ax.set_title(f"{runs[0]['problem']}, p = {runs[0]['order']}")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    return ax


def stage_times(results: Mapping[str, Any] | Sequence[Mapping[str, Any]], ax: Any = None,
                labels: Sequence[str] | None = None) -> Any:
    """The stage times of one or several results (bars per stage, one colour per
    result), in milliseconds, as `hdgcl solve` prints them."""
    runs = [results] if isinstance(results, Mapping) else list(results)
    if not runs:
        raise ValueError("plot.stage_times: no results")
    ax = _axes(ax)
    names = [s["name"] for s in runs[0]["stages"]]
    width = 0.8 / len(runs)
    x = np.arange(len(names))
    for i, r in enumerate(runs):
        ms = [s["seconds"] * 1e3 for s in r["stages"]]
        label = labels[i] if labels else f"{r['mesh']} p={r['order']} {r['device']['name']}"
        ax.bar(x + i * width - 0.4 + width / 2, ms, width, label=label)
    ax.set_xticks(x)
    ax.set_xticklabels(names)
    ax.set_ylabel("time (ms)")
    ax.legend(fontsize="small")
    return ax


def _bench_records(bench: Any) -> list[Mapping[str, Any]]:
    """hdgcl bench --json lines: a path to the file, one line's dict, or a list of them."""
    import json
    import os
    if isinstance(bench, (str, os.PathLike)):
        with open(bench, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    if isinstance(bench, Mapping):
        return [bench]
    return list(bench)


def roofline(bench: Any, ax: Any = None) -> Any:
    """The roofline of `hdgcl bench --json FILE` results (the file, one line's dict, or a
    list of them): GFLOP/s against arithmetic intensity (flop/byte) of every stage
    (squares) and kernel (dots) with counted flops and bytes, under the ceiling
    min(DGEMM peak, intensity x copy bandwidth) measured in the same run (one ceiling per
    distinct peak; one colour per case)."""
    records = [b for b in _bench_records(bench) if b.get("kind", "bench") == "bench"]
    if not records:
        raise ValueError("plot.roofline: no bench records")
    ax = _axes(ax)
    points, ceilings = [], []
    for i, b in enumerate(records):
        peak = b["peak"]
        ceiling = (peak["copy_gbs"], peak["dgemm_gflops"])
        if None not in ceiling and ceiling not in ceilings:
            ceilings.append(ceiling)
        run = b["run"]
        case = f"{run['mesh']} p={run['order']}"
        for entries, marker in ((b["stages"], "s"), (b["kernels"], "o")):
            for e in entries:
                if e.get("flops") and e.get("bytes") and e.get("gflops"):
                    points.append((e["name"], i, case, e["flops"] / e["bytes"], e["gflops"],
                                   marker))
    xs = [p[3] for p in points] + [g / bw for bw, g in ceilings]
    if not xs:
        raise ValueError("plot.roofline: no stage or kernel with flops, bytes and a rate")
    lo, hi = min(xs) / 4, max(xs) * 4
    for bw, peak in ceilings:
        ridge = peak / bw
        ax.loglog([lo, ridge, hi], [lo * bw, peak, peak], "-", color="k", lw=1)
        ax.annotate(f"copy {bw:.0f} GB/s, DGEMM {peak:.0f} GFLOP/s", (hi, peak),
                    xytext=(-4, 3), textcoords="offset points", ha="right", fontsize=7)
    seen = set()
    for name, i, case, x, y, marker in points:
        colour = f"C{i % 10}"
        label = case if i not in seen and len(records) > 1 else None
        seen.add(i)
        ax.loglog([x], [y], marker, color=colour, mfc="none" if marker == "s" else colour,
                  label=label)
        ax.annotate(name, (x, y), xytext=(4, -3), textcoords="offset points", fontsize=6,
                    color=colour)
    ax.set_xlim(lo, hi)
    ax.set_xlabel("arithmetic intensity (flop / byte)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(f"{records[0]['run']['device']['name']} (squares: stages; dots: kernels)",
                 fontsize=9)
    if len(records) > 1:
        ax.legend(fontsize="small")
    ax.grid(True, which="major", alpha=0.3)
    return ax
