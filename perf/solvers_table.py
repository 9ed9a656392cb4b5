#!/usr/bin/env python3
"""Tabulates perf/solvers.sh output (JSON lines) as Markdown.

Default layout (--layout wide): one table of iterations and one of solve-stage
time (ms, preconditioner setup included), rows = solver + preconditioner,
columns = mesh and order.  --layout per-method: for each solver +
preconditioner one table, rows = meshes, columns = orders, cells
"iterations / ms"; then the fastest method per case and pmg's speedup over
block-Jacobi where both ran.  "-" where the run failed (no convergence within
--maxit, out of memory, time limit) and blank where it was not run.

usage: python3 perf/solvers_table.py [--layout wide|per-method] RESULTS.jsonl [...]
"""
import json
import sys


def solve_ms(r):
    return 1e3 * r["stages"][3]["seconds"]


def find(runs, mesh, p, method):
    return next((x for x in runs if x["mesh"] == mesh and x["order"] == p
                 and (x["solver"], x["precond"]) == method), None)


def cells(runs, methods, columns, value):
    lines = ["| method | " + " | ".join(f"{m.split(':')[1]} p={p}" for m, p in columns) + " |",
             "|---|" + "---|" * len(columns)]
    for method in methods:
        row = []
        for mesh, p in columns:
            r = find(runs, mesh, p, method)
            row.append("-" if r is None or "error" in r else value(r))
        lines.append(f"| {method[0]} + {method[1]} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def grid(meshes, orders, cell):
    lines = ["| mesh | " + " | ".join(f"p={p}" for p in orders) + " |",
             "|---|" + "---|" * len(orders)]
    for m in meshes:
        lines.append(f"| {m.split(':')[1]} | " + " | ".join(cell(m, p) for p in orders) + " |")
    return "\n".join(lines)


def per_method(runs, methods, meshes, orders):
    out = []
    for method in methods:
        def cell(m, p, method=method):
            r = find(runs, m, p, method)
            if r is None:
                return ""
            return "-" if "error" in r else f'{r["iterations"]} / {solve_ms(r):.1f}'
        out.append(f"**{method[0]} + {method[1]}** (iterations / solve ms):\n")
        out.append(grid(meshes, orders, cell) + "\n")

    def fastest(m, p):
        ok = [(solve_ms(r), r["precond"]) for r in runs
              if r["mesh"] == m and r["order"] == p and "error" not in r]
        return min(ok)[1] if ok else ""
    out.append("Fastest to solution:\n")
    out.append(grid(meshes, orders, fastest) + "\n")
    pmg = [x for x in methods if x[1] == "pmg"]
    bj = [x for x in methods if x[1] == "block-jacobi" and pmg and x[0] == pmg[0][0]]
    if pmg and bj:
        def speedup(m, p):
            a, b = find(runs, m, p, pmg[0]), find(runs, m, p, bj[0])
            if a is None or b is None or "error" in a or "error" in b:
                return ""
            return f"{solve_ms(b) / solve_ms(a):.2f}"
        out.append(f"Time to solution, {bj[0][0]} + block-jacobi / {pmg[0][0]} + pmg (> 1: pmg faster):\n")
        out.append(grid(meshes, orders, speedup) + "\n")
    return "\n".join(out)


def main(args):
    layout = "wide"
    if args and args[0] == "--layout":
        if len(args) < 2 or args[1] not in ("wide", "per-method"):
            sys.exit("solvers_table.py: --layout must be wide or per-method")
        layout, args = args[1], args[2:]
    if not args:
        sys.exit(__doc__)
    runs = []
    for path in args:
        with open(path) as f:
            runs += [json.loads(line) for line in f if line.strip()]
    size = lambda m: int(m.split(":")[1].split(",")[0].split("x")[0])
    meshes = sorted({r["mesh"] for r in runs}, key=size)
    orders = sorted({r["order"] for r in runs})
    methods = []
    for r in runs:
        if (r["solver"], r["precond"]) not in methods:
            methods.append((r["solver"], r["precond"]))
    device = next((r["device"]["name"] for r in runs if "device" in r), "?")
    problem = next((r["problem"] for r in runs if "problem" in r), "helmholtz-sin")
    print(f"Device: {device}, problem {problem}. Iterations to ||b - Ax|| <= 1e-10 ||b||:\n")
    if layout == "per-method":
        print(per_method(runs, methods, meshes, orders))
        return
    columns = [(m, p) for m in meshes for p in orders]
    print(cells(runs, methods, columns, lambda r: str(r["iterations"])))
    print("\nSolve stage, ms (preconditioner setup included):\n")
    print(cells(runs, methods, columns, lambda r: f'{solve_ms(r):.1f}'))


if __name__ == "__main__":
    main(sys.argv[1:])
