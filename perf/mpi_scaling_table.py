#!/usr/bin/python3
"""Table of a strong-scaling run of perf/mpi_scaling.sh: reads OUT/LABEL-npR.json.

Per case and rank count: trace DOFs, iterations, the stages' seconds (the
slowest rank's under MPI), ms per iteration, the solve's share of the halo
exchange and reductions where the JSON has them, speedup and parallel
efficiency E = T1 / (R TR) of the solve stage and of the total (T1: the
one-rank run, which is the serial solver).  Usage: mpi_scaling_table.py OUT
"""
import glob
import json
import os
import re
import sys

STAGES = ("local", "assemble", "solve", "recover")


def load(out):
    runs = {}
    for path in glob.glob(os.path.join(out, "*-np*.json")):
        m = re.match(r"(.*)-np(\d+)\.json$", os.path.basename(path))
        if not m:
            continue
        with open(path) as f:
            d = json.load(f)
        runs.setdefault(m.group(1), {})[int(m.group(2))] = d
    return runs


def row(d, ranks):
    st = {s["name"]: s["seconds"] for s in d["stages"]}
    total = sum(st.values())
    mpi = d.get("mpi", {})
    return {
        "ranks": ranks,
        "dofs": d["trace_dofs"],
        "iters": d["iterations"],
        "stages": [st.get(s, 0.0) for s in STAGES],
        "total": total,
        "solve": st.get("solve", 0.0),
        "ms_it": 1e3 * st.get("solve", 0.0) / max(d["iterations"], 1),
        "imbalance": mpi.get("imbalance", 1.0),
        "halo": mpi.get("halo_seconds_max"),
        "reduce": mpi.get("reduce_seconds_max"),
        "l2": d["errors"]["l2_u"],
    }


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    runs = load(out)
    if not runs:
        print("no LABEL-npR.json in %s" % out)
        return 1
    for label in sorted(runs):
        rows = [row(runs[label][r], r) for r in sorted(runs[label])]
        base = rows[0]
        d0 = runs[label][base["ranks"]]
        print("\n### %s: %s p = %s, %s trace DOFs, %s + %s\n" % (
            label, d0.get("mesh"), d0.get("order"), format(base["dofs"], ","), d0.get("solver"),
            d0.get("precond")))
        print("| ranks | iterations | " + " | ".join("%s s" % s for s in STAGES) +
              " | total s | ms/iteration | halo s | reduce s | imbalance | speedup solve | E solve"
              " | speedup total | E total | L2(u) |")
        print("|" + "---|" * (12 + len(STAGES)))
        for r in rows:
            sp_s = base["solve"] / r["solve"] if r["solve"] > 0 else float("nan")
            sp_t = base["total"] / r["total"] if r["total"] > 0 else float("nan")
            k = r["ranks"] / base["ranks"]
            fmt = lambda v: "-" if v is None else "%.3f" % v
            print("| %d | %d | %s | %.3f | %.3f | %s | %s | %.2f | %.2f | %.0f%% | %.2f | %.0f%% | %.4e |" % (
                r["ranks"], r["iters"], " | ".join("%.3f" % s for s in r["stages"]), r["total"],
                r["ms_it"], fmt(r["halo"]), fmt(r["reduce"]), r["imbalance"], sp_s,
                100 * sp_s / k, sp_t, 100 * sp_t / k, r["l2"]))
    print("\nStages: the slowest rank's seconds (an MPI_MAX per stage); total: their sum "
          "(kernel compilation excluded).  E = T1 / (R TR).  halo, reduce: the slowest rank's "
          "seconds in the cut faces' exchange and in the dot products' read-back + "
          "MPI_Allreduce (distributed runs only).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
