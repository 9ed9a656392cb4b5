#!/usr/bin/env python3
"""Tabulates perf/solvers.sh output (JSON lines) as Markdown: for each solver
and preconditioner, iterations (and solve-stage time in ms) per mesh and
order; "-" where the run failed.

usage: python3 perf/solvers_table.py RESULTS.jsonl [...]
"""
import json
import sys


def main(paths):
    runs = []
    for path in paths:
        with open(path) as f:
            runs += [json.loads(line) for line in f if line.strip()]
    meshes = sorted({r["mesh"] for r in runs}, key=lambda m: int(m.split(":")[1].split(",")[0].split("x")[0]))
    orders = sorted({r["order"] for r in runs})
    methods = []
    for r in runs:
        key = (r["solver"], r["precond"])
        if key not in methods:
            methods.append(key)
    device = next((r["device"]["name"] for r in runs if "device" in r), "?")
    print(f"Device: {device}.  Each cell: iterations to ||b - Ax|| <= 1e-10 ||b|| / solve stage ms "
          "(preconditioner setup included).\n")
    for solver, precond in methods:
        print(f"### {solver} + {precond}\n")
        print("| mesh | " + " | ".join(f"p={p}" for p in orders) + " |")
        print("|---|" + "---|" * len(orders))
        for mesh in meshes:
            cells = []
            for p in orders:
                r = next((x for x in runs if x["mesh"] == mesh and x["order"] == p
                          and x["solver"] == solver and x["precond"] == precond), None)
                if r is None or "error" in r:
                    cells.append("-")
                else:
                    cells.append(f'{r["iterations"]} / {1e3 * r["stages"][3]["seconds"]:.1f}')
            print(f"| {mesh} | " + " | ".join(cells) + " |")
        print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
