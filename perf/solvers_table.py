#!/usr/bin/env python3
"""Tabulates perf/solvers.sh output (JSON lines) as Markdown: one table of
iterations and one of solve-stage time (ms, preconditioner setup included),
rows = solver + preconditioner, columns = mesh and order; "-" where the run
failed (no convergence within --maxit, out of memory).

usage: python3 perf/solvers_table.py RESULTS.jsonl [...]
"""
import json
import sys


def cells(runs, methods, columns, value):
    lines = ["| method | " + " | ".join(f"{m.split(':')[1]} p={p}" for m, p in columns) + " |",
             "|---|" + "---|" * len(columns)]
    for solver, precond in methods:
        row = []
        for mesh, p in columns:
            r = next((x for x in runs if x["mesh"] == mesh and x["order"] == p
                      and x["solver"] == solver and x["precond"] == precond), None)
            row.append("-" if r is None or "error" in r else value(r))
        lines.append(f"| {solver} + {precond} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(paths):
    runs = []
    for path in paths:
        with open(path) as f:
            runs += [json.loads(line) for line in f if line.strip()]
    size = lambda m: int(m.split(":")[1].split(",")[0].split("x")[0])
    meshes = sorted({r["mesh"] for r in runs}, key=size)
    orders = sorted({r["order"] for r in runs})
    columns = [(m, p) for m in meshes for p in orders]
    methods = []
    for r in runs:
        if (r["solver"], r["precond"]) not in methods:
            methods.append((r["solver"], r["precond"]))
    device = next((r["device"]["name"] for r in runs if "device" in r), "?")
    print(f"Device: {device}. Iterations to ||b - Ax|| <= 1e-10 ||b||:\n")
    print(cells(runs, methods, columns, lambda r: str(r["iterations"])))
    print("\nSolve stage, ms (preconditioner setup included):\n")
    print(cells(runs, methods, columns, lambda r: f'{1e3 * r["stages"][3]["seconds"]:.1f}'))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
