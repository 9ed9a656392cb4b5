#!/usr/bin/env python3
"""Turns the benchmark JSON lines under perf/results/ into docs/performance.md.

usage: python3 perf/report.py [--results perf/results] [--output docs/performance.md]
                              [--figures DIR (default: figures/ beside the output)]

Each line of paper000-*.jsonl, cube3d-*.jsonl, solvers-*.jsonl is one
`hdgcl solve --json` object (see perf/paper000.sh); each line of bench-*.jsonl
one `hdgcl bench` case; compare-*.json come from perf/cupy_compare.py;
elasticity/elasticity-tet-*.jsonl are issue 5's paper 004 runs.  The
tables follow paper 000 (../shared/papers/000_*): Table 1 (errors), Table 2
(total time) and Tables 4-6 (time per stage), with the paper's own numbers
(NVIDIA Tesla M2090) beside ours.  Figures (perf/report_figures.py, PNG under
the figures directory): stage breakdown, cross-vendor times, time-accuracy and
rooflines; the Targets section comes from perf/report_targets.py.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_targets  # noqa: E402

# Paper 000, Table 2: total GPU time (ms) per order, meshes 20x20, 40x40, 80x80.
PAPER_TOTAL = {
    20: [117, 170, 264, 383, 526, 769, 1136, 1613, 2214],
    40: [231, 323, 480, 853, 1387, 2295, 3550, 5393, 7489],
    80: [559, 858, 1508, 2777, 4894, 8165, 12879, 20072, 28481],
}
# Paper 000, Tables 4-6: local matrix generation, global assembly, global
# solve, local solve (ms) per order.
PAPER_STAGES = {
    20: [(7, 18, 75, 2), (9, 51, 106, 2), (11, 47, 113, 2), (14, 56, 161, 2), (21, 42, 162, 2),
         (40, 95, 215, 2), (60, 113, 203, 2), (107, 121, 253, 2), (155, 132, 246, 3)],
    40: [(11, 29, 124, 3), (14, 47, 128, 3), (19, 61, 133, 4), (28, 59, 191, 4), (55, 57, 195, 5),
         (94, 192, 257, 6), (140, 139, 266, 7), (249, 92, 346, 7), (422, 137, 361, 8)],
    80: [(18, 53, 210, 6), (32, 88, 213, 7), (44, 135, 239, 8), (82, 159, 303, 9),
         (194, 146, 355, 10), (347, 236, 469, 10), (537, 291, 551, 12), (868, 322, 722, 13),
         (1413, 405, 769, 17)],
}
# Paper 000, Table 1: L2 and Linf errors of u on the 40x40 mesh, p = 1..9.
PAPER_ERRORS = [(3.95318e-03, 1.59334e-02), (8.04917e-05, 4.95546e-04), (1.3446e-06, 1.10739e-05),
                (1.88309e-08, 1.93802e-07), (1.07007e-09, 5.71909e-09), (4.63559e-09, 1.40495e-08),
                (5.77189e-09, 2.46212e-08), (1.44714e-08, 5.19398e-08), (2.92382e-08, 1.17087e-07)]

STAGES = ["upload", "local", "assemble", "solve", "recover", "download"]


def load(results):
    """{file name without .jsonl: [solve objects]} of every results file but bench-*."""
    runs = {}
    for name in sorted(os.listdir(results)):
        if not name.endswith(".jsonl") or name.startswith("bench-"):
            continue
        for run in read_lines(os.path.join(results, name)):
            runs.setdefault(name[:-len(".jsonl")], []).append(run)
    return runs


def read_lines(path):
    """The JSON objects of a .jsonl file, one a line; a bad line names its file and line."""
    objs = []
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if line.strip():
                try:
                    objs.append(json.loads(line))
                except ValueError as e:
                    raise ValueError("%s line %d is not JSON (%s)" % (path, i, e)) from None
    return objs


def file_time(path):
    """When a results file was last measured: the time of the last commit that
    changed it, now for a file with uncommitted changes, else its mtime
    (outside a git checkout).  Ranks the records of one case from several files."""
    try:
        d, f = os.path.split(os.path.abspath(path))
        dirty = subprocess.run(["git", "status", "--porcelain", "--", f], cwd=d,
                               capture_output=True, text=True, check=True).stdout.strip()
        if dirty:
            return time.time()
        t = subprocess.run(["git", "log", "-1", "--format=%ct", "--", f], cwd=d,
                           capture_output=True, text=True, check=True).stdout.strip()
        if t:
            return float(t)
    except (OSError, subprocess.CalledProcessError):
        pass
    return os.path.getmtime(path)


def load_bench(results):
    """{file name without .jsonl: [bench cases]} of bench-*.jsonl (`hdgcl bench`);
    each case gets "file_time" (file_time of its file)."""
    bench = {}
    for name in sorted(os.listdir(results)):
        if name.startswith("bench-") and name.endswith(".jsonl"):
            t = file_time(os.path.join(results, name))
            for b in read_lines(os.path.join(results, name)):
                b["file_time"] = t
                bench.setdefault(name[:-len(".jsonl")], []).append(b)
    return bench


def load_compare(results):
    """[(case, cuSPARSE/cuBLAS object, hdgcl's solve of the same case or None)]."""
    cases = []
    for name in sorted(os.listdir(results)):
        if name.startswith("compare-") and name.endswith(".json") and not name.endswith("-hdgcl.json"):
            lib = read_json(os.path.join(results, name))
            ours_path = os.path.join(results, name[:-len(".json")] + "-hdgcl.json")
            ours = read_json(ours_path) if os.path.exists(ours_path) else None
            cases.append((name[len("compare-"):-len(".json")], lib, ours))
    return cases


def read_json(path):
    with open(path) as f:
        try:
            return json.load(f)
        except ValueError as e:
            raise ValueError("%s is not JSON (%s)" % (path, e)) from None


def device_short(run):
    """A short device name for legends: the GPU's name, or PoCL with its version and cores."""
    d = run["device"]
    if d["type"] == "gpu":
        return d["name"]
    if "Portable Computing Language" in d["platform"]:
        cpu = {"GenuineIntel": "Intel", "AuthenticAMD": "AMD"}.get(d["vendor"], d["vendor"])
        return "PoCL %s, %d %s cores" % (d["driver"].split("+")[0], d["compute_units"], cpu)
    return "%s, %d units" % (d["name"], d["compute_units"])


def device_rank(run):
    """GPUs first, then by compute units, largest first."""
    d = run["device"]
    return (d["type"] != "gpu", -d["compute_units"], d["name"])


class Figures:
    """Writes figures under `directory` and links them from the markdown at `output`."""

    def __init__(self, directory, output):
        self.directory = directory
        self.base = os.path.dirname(os.path.abspath(output))
        self.plots = None
        self.written = []

    def add(self, out, name, caption, draw, *args, **kwargs):
        if self.plots is None:
            import report_figures  # matplotlib is needed only from here on
            self.plots = report_figures
            os.makedirs(self.directory, exist_ok=True)
        path = os.path.join(self.directory, name + ".png")
        getattr(self.plots, draw)(*args, path=path, **kwargs)
        self.written.append(path)
        link = os.path.relpath(os.path.abspath(path), self.base).replace(os.sep, "/")
        out.append("![%s](%s)\n" % (caption.split(";")[0], link))
        out.append("*Figure: %s*\n" % caption)


def device_label(run):
    d = run["device"]
    return "%s (%s)" % (d["name"], d["platform"])


def mesh_n(run):
    return int(run["mesh"].split(":")[1].split(",")[0].split("x")[0])


def stage(run, name):
    return next(s for s in run["stages"] if s["name"] == name)


def ms(x):
    return "%.2f" % (1e3 * x) if x < 10 else "%.0f" % (1e3 * x)


def paper000_section(runs, out, figs):
    sets = {k: v for k, v in runs.items() if k.startswith("paper000-")}
    if not sets:
        return
    out.append("## Paper 000 benchmark: Helmholtz on the unit square\n")
    out.append("`lap u - u = f`, u = sin(2 pi x) sin(2 pi y), Dirichlet, tau = 1, meshes of n x n "
               "squares split into 2 triangles, orders 1..9; CG with face block-Jacobi to a relative "
               "residual of 1e-12 (block-ELL storage).  Our times are the median of 3 solves after "
               "one warm-up solve, excluding kernel compilation; they include the upload of the mesh "
               "and the download of the solution.  Command: `sh perf/paper000.sh HDGCL DEVICE OUT.jsonl` "
               "(on the GPU machine through `sh perf/gpu_machine.sh paper`).  Devices:\n")
    for key, rs in sorted(sets.items()):
        out.append("- `%s`: %s, driver %s, %s compute units" % (
            key, device_label(rs[0]), rs[0]["device"]["driver"], rs[0]["device"]["compute_units"]))
    out.append("- paper: NVIDIA Tesla M2090, CUDA 4.2 (its Tables 2, 4-6)\n")

    index = {(k, mesh_n(r), r["order"]): r for k, rs in sets.items() for r in rs}
    keys = sorted(sets)
    out.append("### Total time (ms), paper 000 Table 2 layout\n")
    head = "| p |"
    rule = "|---|"
    for n in (20, 40, 80):
        for k in keys:
            head += " %dx%d %s |" % (n, n, k.replace("paper000-", ""))
            rule += "---:|"
        head += " %dx%d paper |" % (n, n)
        rule += "---:|"
    out.append(head)
    out.append(rule)
    for p in range(1, 10):
        row = "| %d |" % p
        for n in (20, 40, 80):
            for k in keys:
                r = index.get((k, n, p))
                row += " %s |" % (ms(r["total_seconds"]) if r else "-")
            row += " %s |" % "{:,}".format(PAPER_TOTAL[n][p - 1])
        out.append(row)
    out.append("")
    for k in keys:
        r = index.get((k, 80, 9))
        if r:
            x = PAPER_TOTAL[80][8] / (1e3 * r["total_seconds"])
            out.append("80x80, p = 9 on %s: **%s ms** end to end (paper: 28,481 ms, %s faster)." % (
                k.replace("paper000-", ""), ms(r["total_seconds"]), "%.0fx" % x if x >= 10 else "%.1fx" % x))
    out.append("")

    for n in (20, 40, 80):
        out.append("### Time per stage on the %dx%d mesh (ms), paper 000 Tables 4-6 layout\n" % (n, n))
        out.append("Paper columns: local matrix generation / global assembly / global solve / local "
                   "solve.  Ours: local = element matrices and Schur complements; assemble = boundary "
                   "data and face-parallel assembly; solve = preconditioner setup and CG; recover = "
                   "u, q, u* and error norms.  GFLOP/s and GB/s are counted from the algorithm.\n")
        for k in keys:
            out.append("**%s**\n" % device_label(sets[k][0]))
            out.append("| p | trace DOFs | iterations | local | GFLOP/s | assemble | GB/s | solve | "
                       "GB/s | recover | upload + download | total | paper: local / assembly / "
                       "solve / local solve |")
            out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
            for p in range(1, 10):
                r = index.get((k, n, p))
                if not r:
                    continue
                lo, asm, so, re = (stage(r, s) for s in ("local", "assemble", "solve", "recover"))
                io = stage(r, "upload")["seconds"] + stage(r, "download")["seconds"]
                pl = PAPER_STAGES[n][p - 1]
                out.append("| %d | %d | %d | %s | %.0f | %s | %.0f | %s | %.0f | %s | %s | %s | %s |" % (
                    p, r["trace_dofs"], r["iterations"], ms(lo["seconds"]), lo["gflops"],
                    ms(asm["seconds"]), asm["gbs"], ms(so["seconds"]), so["gbs"], ms(re["seconds"]),
                    ms(io), ms(r["total_seconds"]), " / ".join(str(x) for x in pl)))
            out.append("")

    n = max(n for _, n, _ in index)
    out.append("### Stage breakdown against p on the %dx%d mesh (paper 000 Fig. 5)\n" % (n, n))
    panels = []
    for k in sorted(keys, key=lambda k: device_rank(sets[k][0])):
        data = {}
        for p in range(1, 10):
            r = index.get((k, n, p))
            if r:
                data[p] = {s: 1e3 * stage(r, s)["seconds"] for s in ("local", "assemble", "solve", "recover")}
                data[p]["transfers"] = 1e3 * (stage(r, "upload")["seconds"] + stage(r, "download")["seconds"])
        panels.append((device_short(sets[k][0]), data))
    paper = n in PAPER_STAGES
    if paper:
        # Paper columns: local matrix generation, global assembly, global solve, local solve.
        panels.append(("paper 000, Tesla M2090", {
            p: dict(zip(("local", "assemble", "solve", "recover"), PAPER_STAGES[n][p - 1])) for p in range(1, 10)}))
    figs.add(out, "stages-%dx%d" % (n, n),
             "time per stage (ms, stacked: local, assemble, solve, recover, upload + download) against the "
             "order p on the %dx%d mesh, one panel per device; from %s%s" % (
                 n, n, ", ".join("`%s.jsonl`" % k for k in keys),
                 "; last panel: paper 000's Tables 4-6 (local matrix generation, global assembly, "
                 "global solve, local solve; no transfers)" if paper else ""),
             "stage_breakdown", panels)
    out.append("")

    out.append("### Errors on the 40x40 mesh, paper 000 Table 1 layout\n")
    out.append("| p | L2(u) | Linf(u) | L2(u*) | paper L2(u) | paper Linf(u) |")
    out.append("|---|---:|---:|---:|---:|---:|")
    k = keys[0]
    for p in range(1, 10):
        r = index.get((k, 40, p))
        if not r:
            continue
        e = r["errors"]
        out.append("| %d | %.3e | %.3e | %.3e | %.3e | %.3e |" % (
            p, e["l2_u"], e["linf_u"], e["l2_ustar"], PAPER_ERRORS[p - 1][0], PAPER_ERRORS[p - 1][1]))
    out.append("")
    out.append("Our errors fall with p until the round-off floor of the trace system (a few 1e-11 "
               "here, set by eps times the condition number of K and independent of the CG "
               "tolerance) and stay there; the paper's grow from p = 6 (to 1.2e-7 at p = 9).  "
               "Every device gives the same errors to the digits shown (the tests require 1e-10 "
               "agreement with the serial reference path).\n")


def cube3d_section(runs, out):
    """Issue 4: unit-cube tetrahedra and hexahedra, p = 1..5 (perf/cube3d.sh)."""
    # Later runs (cube3d-2-*, cube3d-3-*) replace earlier ones of the same case.
    cases = {}
    for key in sorted(k for k in runs if k.startswith("cube3d-")):
        for r in runs[key]:
            dev = "nvidia" if "NVIDIA" in r["device"]["platform"] else "pocl"
            cases[(r["element_type"], dev, r["order"], r["elements"])] = r
    if not cases:
        return
    out.append("## 3D: Helmholtz on the unit cube, tetrahedra and hexahedra\n")
    out.append("`lap u - u = f`, u = sin(2 pi x) sin(2 pi y) sin(2 pi z), Dirichlet, tau = 1; meshes "
               "`cube:N` (N^3 cells, 6 tetrahedra each) and `hex:N` (N^3 hexahedra), orders 1..5; CG "
               "with face block-Jacobi to a relative residual of 1e-12, block-ELL storage (7 face "
               "blocks per row for tets, 11 for hexes).  Hexahedra go through the general (trilinear) "
               "path: per-element quadrature on the device, although these meshes happen to be "
               "affine.  Times in ms; meshes up to N = 16 are the median of 3 solves after a warm-up, "
               "larger ones a single solve (kernel compilation excluded in both).  Memory is the "
               "device high-water mark of hdgcl's buffers.  Commands: `sh perf/gpu_machine.sh "
               "cube3d`, `cube3d-large` and `cube3d-rest` (each runs `perf/cube3d.sh`, which grows "
               "the mesh until it no longer fits in memory or in a time limit).\n")
    labels = {"nvidia": "NVIDIA H100 (OpenCL)", "pocl": "PoCL, 16 Xeon cores of the GPU machine"}
    for et in ("tetrahedron", "hexahedron"):
        for dev in ("nvidia", "pocl"):
            rows = sorted((k, r) for k, r in cases.items() if k[0] == et and k[1] == dev)
            if not rows:
                continue
            out.append("### %s, %s\n" % ({"tetrahedron": "Tetrahedra", "hexahedron": "Hexahedra"}[et],
                                         labels[dev]))
            out.append("| mesh | p | elements | trace DOFs | iterations | local | assemble | solve | "
                       "recover | total | memory (GiB) | L2(u) | L2(q) | L2(u*) |")
            out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for _, r in rows:
                e = r["errors"]
                out.append("| %s | %d | %d | %d | %d | %s | %s | %s | %s | %s | %.1f | %.2e | %.2e | %.2e |" % (
                    r["mesh"], r["order"], r["elements"], r["trace_dofs"], r["iterations"],
                    ms(stage(r, "local")["seconds"]), ms(stage(r, "assemble")["seconds"]),
                    ms(stage(r, "solve")["seconds"]), ms(stage(r, "recover")["seconds"]),
                    ms(r["total_seconds"]), r["memory_high_water_bytes"] / 2**30, e["l2_u"], e["l2_q"],
                    e["l2_ustar"]))
            out.append("")
    big = max((r for k, r in cases.items() if k[1] == "nvidia"), key=lambda r: r["trace_dofs"], default=None)
    if big:
        out.append("Largest 3D problem solved on the H100: `%s`, p = %d (%s), **%s trace DOFs** "
                   "(%s element DOFs), %d CG iterations, **%.1f s** end to end (%.1f GiB of device "
                   "memory), L2(u) = %.2e.\n" % (
                       big["mesh"], big["order"], big["element_type"], "{:,}".format(big["trace_dofs"]),
                       "{:,}".format(big["element_dofs"]), big["iterations"], big["total_seconds"],
                       big["memory_high_water_bytes"] / 2**30, big["errors"]["l2_u"]))
    out.append("Notes on these results:\n")
    out.append("- Iterations: on tetrahedra block-Jacobi CG needs 140-1431 iterations, growing like "
               "h^-1 as expected; on hexahedra only 3-21.  That is this test case, not the "
               "preconditioner: on a uniform hexahedral mesh the separable solution "
               "sin(2 pi x) sin(2 pi y) sin(2 pi z) makes a right-hand side with components on very few "
               "eigenvectors of the (translation-invariant) preconditioned operator, so CG finishes "
               "in a few steps; the 6-tetrahedra split breaks that symmetry.  The solver issue (6) "
               "measures iterations on problems without this structure.")
    out.append("- Hexahedra go through the mapped path (section 7b of docs/formulation.md): element "
               "matrices by quadrature per element, in straightforward kernels (one work-group per "
               "element, no tensor-product sum factorisation yet).  That local stage dominates on "
               "PoCL (hex:24, p = 3: 40 s) and at p = 5 on the H100; sum factorisation is the next "
               "optimisation for it.")
    out.append("- Limits found on the way, all on the H100: a CLBlast batched GEMM over more than "
               "2^31 doubles (CLBlast's kernels index in 32-bit int) silently gave a wrong answer "
               "(hex:48, p = 3, first run); launches of 2^31 work-items or more overflow NVIDIA's "
               "get_global_id; and NVIDIA's clEnqueueFillBuffer failed (CL_INVALID_COMMAND_QUEUE "
               "at the next clFinish) on the trace matrices of 2^31 or more entries (cube:64 p = 3, "
               "cube:40 p = 5, hex:64 p = 3 in the sweeps).  Now: chunks and grid-stride loops keep "
               "below the first two and refuse them with an error if they ever recur "
               "(test_launch_limits), and fills go through hdgcl's own 64-bit kernel "
               "(cl/core/buffer.cl); cube:64 p = 3 (30.9 M trace DOFs, 2.17e9 matrix entries) then ran "
               "(last tetrahedra row of p = 3).  cube:40 p = 5 and hex:64 p = 3 were not rerun.\n")
    pairs = [(r, cases.get((k[0], "pocl", k[2], k[3]))) for k, r in cases.items() if k[1] == "nvidia"]
    pairs = [(a, b) for a, b in pairs if b]
    if pairs:
        a, b = max(pairs, key=lambda ab: ab[1]["elements"] * ab[1]["order"])
        out.append("H100 over PoCL (16 cores), same cases: %.0fx to %.0fx end to end (median %.0fx); "
                   "e.g. `%s` p = %d: %s ms vs %s ms.\n" % (
                       min(y["total_seconds"] / x["total_seconds"] for x, y in pairs),
                       max(y["total_seconds"] / x["total_seconds"] for x, y in pairs),
                       sorted(y["total_seconds"] / x["total_seconds"] for x, y in pairs)[len(pairs) // 2],
                       a["mesh"], a["order"], ms(a["total_seconds"]), ms(b["total_seconds"])))


def load_elasticity(results):
    """{device key: [solves]} of elasticity/elasticity-tet-DEVICE.jsonl (perf/cube3d.sh with
    PROBLEM=elasticity TAU=); DEVICE is nvidia, pocl (GPU machine), ref (one core of the GPU
    machine), pocl-2core or ref-2core (the 2-core build machine)."""
    folder = os.path.join(results, "elasticity")
    sets = {}
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            if name.startswith("elasticity-tet-") and name.endswith(".jsonl"):
                sets[name[len("elasticity-tet-"):-len(".jsonl")]] = read_lines(os.path.join(folder, name))
    return sets


# Paper 004 (../shared/papers/004_*), section 4: speedups of its GPU code over a
# serial CPU, local solves and global solve.
PAPER004_SPEEDUP = {"local": "4-73x", "global": "4-14x"}
ELASTICITY_LABELS = {"nvidia": "NVIDIA H100 (OpenCL)", "pocl": "PoCL, 14 Xeon cores of the GPU machine",
                     "pocl-2core": "PoCL, the 2-core build machine",
                     "ref": "reference path (serial C), GPU machine",
                     "ref-2core": "reference path (serial C), 2-core build machine"}
# The reference path each device's speedup is measured against: the same machine's.
ELASTICITY_REF = {"nvidia": "ref", "pocl": "ref", "pocl-2core": "ref-2core"}


def rate(e0, e1, n0, n1):
    """Convergence rate between two meshes cube:n0 and cube:n1 (h ~ 1/n)."""
    return math.log(e0 / e1) / math.log(n1 / n0) if e0 > 0 and e1 > 0 else float("nan")


def speedup(x):
    return "%.1fx" % x if x < 10 else "%.0fx" % x


def elasticity_section(sets, out):
    """Issue 5: paper 004's manufactured solution on tetrahedra; Table 1 layout and time per stage
    with the speedup over the serial reference path on the same host."""
    if not sets:
        return
    out.append("## 3D linear elasticity: paper 004's manufactured solution on tetrahedra\n")
    out.append("Problem `elasticity` (paper 004 section 4.1: mu = lambda = 1, Dirichlet data on the "
               "unit cube), `cube:N` = 6 N^3 tetrahedra, CG with face block-Jacobi to 1e-12; one "
               "`hdgcl solve --json` per case from `PROBLEM=elasticity TAU= sh perf/cube3d.sh HDGCL "
               "DEVICE OUT cube MESHES ORDERS` (results in `perf/results/elasticity/elasticity-tet-*.jsonl`; "
               "H100 and GPU-machine PoCL by `sh perf/gpu_machine.sh elasticity`).  Details of the method: "
               "docs/elasticity.md.\n")
    for dev in [d for d in ("nvidia", "pocl-2core", "pocl") if d in sets]:
        runs = sorted(sets[dev], key=lambda r: (r["order"], r["elements"]))
        out.append("### Paper 004 Table 1 layout, %s\n" % ELASTICITY_LABELS.get(dev, dev))
        out.append("| p | mesh | trace DOFs | L2(H) | rate | L2(u) | rate | L2(p) | rate | L2(u*) | rate | CG its |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        prev = None
        for r in runs:
            e = r["errors"]
            cells = []
            for key in ("l2_q", "l2_u", "l2_p", "l2_ustar"):
                rt = ""
                if prev and prev["order"] == r["order"]:
                    rt = "%.2f" % rate(prev["errors"][key], e[key], mesh_n(prev), mesh_n(r))
                cells += ["%.3e" % e[key], rt]
            out.append("| %d | %s | %d | %s | %d |" % (r["order"], r["mesh"], r["trace_dofs"], " | ".join(cells),
                                                      r["iterations"]))
            prev = r
        out.append("")
    refs = {k: {(r["order"], r["mesh"]): r for r in sets.get(k, [])} for k in ("ref", "ref-2core")}
    out.append("### Time per stage and speedup over the reference path\n")
    out.append("Times in ms (median of 3 solves after a warm-up up to cube:16; kernel compilation "
               "excluded).  The reference path does its local solves inside \"assemble\", so the "
               "speedups compare local + assemble, solve and total.  Paper 004 reports %s for its "
               "local solves and %s for its global solve over a serial CPU.  Each device is "
               "compared with the reference path on one core of its own machine: the GPU machine's "
               "Xeon for the H100 and its PoCL, the build machine's CPU for its 2-core PoCL.\n"
               % (PAPER004_SPEEDUP["local"], PAPER004_SPEEDUP["global"]))
    out.append("| p | mesh | device | local | assemble | solve | recover | total | speedup local+assemble / solve / total |")
    out.append("|---|---|---|---:|---:|---:|---:|---:|---|")
    def row(r, label, b):
        """One table row; b: the reference run it is compared with (None: no speedup column)."""
        st = {n: stage(r, n)["seconds"] for n in ("local", "assemble", "solve", "recover")}
        sp = ""
        if b:
            bs = {n: stage(b, n)["seconds"] for n in ("local", "assemble", "solve")}
            sp = " / ".join(speedup(x) for x in ((bs["local"] + bs["assemble"]) / (st["local"] + st["assemble"]),
                                                  bs["solve"] / st["solve"], b["total_seconds"] / r["total_seconds"]))
        out.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["order"], r["mesh"], label, ms(st["local"]), ms(st["assemble"]), ms(st["solve"]),
            ms(st["recover"]), ms(r["total_seconds"]), sp))

    def by_case(rs):
        return sorted(rs, key=lambda r: (r["order"], r["elements"]))

    for dev in [d for d in ("nvidia", "pocl", "pocl-2core") if d in sets]:
        for r in by_case(sets[dev]):
            row(r, ELASTICITY_LABELS.get(dev, dev), refs[ELASTICITY_REF[dev]].get((r["order"], r["mesh"])))
    for key in sorted(refs):
        for r in by_case(refs[key].values()):
            row(r, ELASTICITY_LABELS[key], None)
    out.append("")


def paper000_by_device(runs):
    """[(device label, file key, {(n, p): solve})] of paper000-*.jsonl, GPUs first."""
    sets = sorted(((k, rs) for k, rs in runs.items() if k.startswith("paper000-") and rs),
                  key=lambda krs: device_rank(krs[1][0]))
    return [(device_short(rs[0]), k, {(mesh_n(r), r["order"]): r for r in rs}) for k, rs in sets]


def cross_vendor_section(runs, out, figs):
    """The paper 000 cases on every device: total time against p and the GPU's speedup."""
    devs = paper000_by_device(runs)
    if len(devs) < 2:
        return
    out.append("## Cross-vendor: the same cases on every device\n")
    out.append("Paper 000's cases (above) on each device, same code and same options; the devices "
               "come from the files' device records: %s.\n" % "; ".join(
                   "`%s.jsonl`: %s" % (k, device_label(next(iter(idx.values())))) for _, k, idx in devs))
    meshes = sorted({n for _, _, idx in devs for n, _ in idx})
    ref = devs[0][0]
    figs.add(out, "cross-vendor",
             "total time end to end (ms, log scale) against p per mesh and device (top) and the "
             "speedup of %s over each other device (bottom); from %s" % (
                 ref, ", ".join("`%s.jsonl`" % k for _, k, _ in devs)),
             "cross_vendor", [("%dx%d" % (n, n), {d: {p: r["total_seconds"] for (m, p), r in idx.items() if m == n}
                                                  for d, _, idx in devs}) for n in meshes], ref)
    others = [(d, idx) for d, _, idx in devs[1:]]
    out.append("Speedup of %s (time on the other device / time on it):\n" % ref)
    out.append("| p | " + " | ".join("%dx%d over %s" % (n, n, d) for n in meshes for d, _ in others) + " |")
    out.append("|---|" + "---:|" * (len(meshes) * len(others)))
    refidx = devs[0][2]
    for p in sorted({p for _, _, idx in devs for _, p in idx}):
        row = []
        for n in meshes:
            for _, idx in others:
                a, b = refidx.get((n, p)), idx.get((n, p))
                row.append("%.1fx" % (b["total_seconds"] / a["total_seconds"]) if a and b else "-")
        out.append("| %d | %s |" % (p, " | ".join(row)))
    out.append("")


def cube3d_cases(runs):
    """{(element type, device label, order, elements): solve} of cube3d-*.jsonl;
    later files (cube3d-2-*, cube3d-3-*) replace earlier runs of the same case."""
    cases = {}
    for key in sorted(k for k in runs if k.startswith("cube3d-")):
        for r in runs[key]:
            cases[(r["element_type"], device_short(r), r["order"], r["elements"])] = r
    return cases


def tas_section(runs, out, figs):
    """Time-accuracy (paper 004's TAS): error against time, by order and mesh."""
    devs = paper000_by_device(runs)
    cases = cube3d_cases(runs)
    if not devs and not cases:
        return
    out.append("## Time-accuracy: error against time by p and mesh\n")
    out.append("Paper 004's time-accuracy view: each point one solve (L2 error of u against total time "
               "end to end), one colour and marker per order p, a line joining the meshes of one p from "
               "coarse to fine.  The cheapest way to a given error is the lowest point left of it; the "
               "flat tails at high p are the round-off floor of the trace system.\n")
    if devs:
        panels = []
        for d, _, idx in devs:
            data = {}
            for (n, p), r in sorted(idx.items()):
                data.setdefault(p, []).append((r["total_seconds"], r["errors"]["l2_u"]))
            panels.append(("2D triangles, " + d, data))
        figs.add(out, "tas-paper000",
                 "L2 error of u against total time (s), log-log, paper 000's meshes, one panel per "
                 "device; from %s" % ", ".join("`%s.jsonl`" % k for _, k, _ in devs),
                 "time_accuracy", panels, ncols=len(panels))
    if cases:
        panels = []
        devices = sorted({k[1] for k in cases},
                         key=lambda d: device_rank(next(r for k, r in cases.items() if k[1] == d)))
        for et in ("tetrahedron", "hexahedron"):
            for d in devices:
                data = {}
                for k in sorted(k for k in cases if k[0] == et and k[1] == d):
                    r = cases[k]
                    data.setdefault(k[2], []).append((r["total_seconds"], r["errors"]["l2_u"]))
                if data:
                    panels.append(("%s, %s" % ({"tetrahedron": "tetrahedra", "hexahedron": "hexahedra"}[et], d),
                                   data))
        figs.add(out, "tas-cube3d",
                 "L2 error of u against total time (s), log-log, unit-cube meshes (`cube:N`, `hex:N`), "
                 "one panel per element type and device; from `cube3d-*.jsonl`",
                 "time_accuracy", panels, ncols=max(1, len(devices)))
    out.append("")


def bench_device(b):
    d = b["run"]["device"]
    return "%s, driver %s" % (device_short(b["run"]), d["driver"])


def roofline_section(bench, out, figs):
    """Per device: ceilings from the peaks measured in the same `hdgcl bench` run,
    every stage and kernel placed on them, and the table of their rates."""
    out.append("## Rooflines: kernels and stages against measured peaks\n")
    out.append("`hdgcl bench --json bench-NAME.jsonl` measures the device's ceilings (`peak`: copy "
               "bandwidth of a stream kernel, CLBlast batched DGEMM at `dgemm_shape`, kernel-launch "
               "overhead), then per mesh and order solves the problem (`stages`: median stage times "
               "over the repeats) and times the trace operator in every storage and CLBlast at the "
               "local stage's GEMM shapes (`kernels`; each SpMV checked against a host product, "
               "`rel_error`).  One JSON object per line and case: `{\"kind\": \"bench\", \"run\": "
               "<the object of hdgcl solve --json>, \"host\": {cpu_model, packages, cores, pus, "
               "numa_nodes}, \"peak\": {copy_gbs, copy_bytes, dgemm_gflops, dgemm_shape: [m, n, k, "
               "batch], launch_us}, \"stages\": [{name, seconds, flops, bytes, gflops, gbs, frac_bw, "
               "frac_flops}], \"kernels\": [the same and rel_error]}`, null where a value could not "
               "be measured.  hdgcl writes these lines, like all its JSON, with cJSON (the "
               "well-kept Debian library that also reads problem files), so escaping and layout are "
               "done once; each number is the shortest text that reads back as the same double.  "
               "Ceiling: min(peak FP64, intensity x copy bandwidth), from the peaks of "
               "the same run.  Flops and bytes are counted from the algorithm (minimum traffic), so a "
               "point's height is its useful rate.\n")
    if not bench:
        out.append("No `bench-*.jsonl` in the results yet, so no roofline: the figure and the table "
                   "per device appear here once a bench run is added.\n")
        return
    groups = {}
    for key in sorted(bench):
        for b in bench[key]:
            groups.setdefault(bench_device(b), []).append((key, b))
    order = sorted(groups, key=lambda g: device_rank(groups[g][0][1]["run"]))
    for g in order:
        cases = groups[g]
        run = cases[0][1]["run"]
        h = cases[0][1].get("host", {})
        out.append("### %s\n" % device_label(run))
        out.append("Host: %s, %s package(s), %s cores, %s PUs, %s NUMA node(s).  Files: %s.\n" % (
            h.get("cpu_model", "?"), h.get("packages", "?"), h.get("cores", "?"), h.get("pus", "?"),
            h.get("numa_nodes", "?"), ", ".join(sorted({"`%s.jsonl`" % k for k, _ in cases}))))
        ceilings, points, cases_of_ceiling = [], [], []
        # The figure shows the largest case of each file (all cases are in the
        # tables below): small cases are launch-bound and would only crowd it.
        largest = {}
        for key, b in cases:
            if key not in largest or b["run"]["trace_dofs"] > largest[key]["run"]["trace_dofs"]:
                largest[key] = b
        plotted = [(key, largest[key]) for key in sorted(largest)]
        many = len(plotted) > 1
        for key, b in plotted:
            pk = b["peak"]
            c = ("copy %.0f GB/s, DGEMM %.0f GFLOP/s" % (pk["copy_gbs"], pk["dgemm_gflops"]),
                 pk["copy_gbs"], pk["dgemm_gflops"])
            if c[1:] not in [x[1:] for x in ceilings]:
                ceilings.append(c)
                cases_of_ceiling.append(case_plain(b["run"]))
            for e, is_stage in [(s, True) for s in b["stages"]] + [(k, False) for k in b["kernels"]]:
                if report_targets.measured(e, "flops", "bytes", "gflops"):
                    points.append((e["name"], case_plain(b["run"]), e["flops"] / e["bytes"], e["gflops"],
                                   is_stage))
        if len(ceilings) > 1:  # one ceiling per run: draw the median run's, state the spread
            mid = sorted(ceilings, key=lambda c: c[1])[len(ceilings) // 2]
            ceilings = [("copy %.0f GB/s, DGEMM %.0f GFLOP/s (median of %d runs: copy %.0f-%.0f GB/s, "
                         "DGEMM %.0f-%.0f GFLOP/s)" % (mid[1], mid[2], len(ceilings),
                                                       min(c[1] for c in ceilings), max(c[1] for c in ceilings),
                                                       min(c[2] for c in ceilings), max(c[2] for c in ceilings)),
                         mid[1], mid[2])]
        if points:
            slug = "".join(ch if ch.isalnum() else "-" for ch in g.lower()).strip("-")
            while "--" in slug:
                slug = slug.replace("--", "-")
            figs.add(out, "roofline-" + slug,
                     "roofline of %s: GFLOP/s against flop/byte for every stage (squares) and kernel "
                     "(dots) of the largest case of each file%s, under the ceiling of the peaks "
                     "measured in the same runs; from %s" % (
                         g, ", coloured by case" if many else "",
                         ", ".join(sorted({"`%s.jsonl`" % k for k, _ in cases}))),
                     "roofline", device_short(run), ceilings, points)
        else:
            out.append("(No stage or kernel with both flops and bytes: nothing to place on a roofline.)\n")
        for key, b in cases:
            pk = b["peak"]
            out.append("**%s** (%s): copy %.0f GB/s (%s bytes), DGEMM %.0f GFLOP/s at %s, launch %.1f us\n" % (
                case_plain(b["run"]), key, pk["copy_gbs"], "{:,}".format(pk["copy_bytes"]), pk["dgemm_gflops"],
                "%dx%dx%d batch %d" % tuple(pk["dgemm_shape"]), pk["launch_us"]))
            out.append("| | name | time (ms) | GB/s | of copy | GFLOP/s | of DGEMM peak | rel. error |")
            out.append("|---|---|---:|---:|---:|---:|---:|---:|")
            for kind, es in (("stage", b["stages"]), ("kernel", b["kernels"])):
                for e in es:
                    out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                        kind, e["name"], num(e.get("seconds"), "%.3f", 1e3), num(e.get("gbs"), "%.0f"),
                        num(e.get("frac_bw"), "%.0f%%", 100), num(e.get("gflops"), "%.0f"),
                        num(e.get("frac_flops"), "%.0f%%", 100), num(e.get("rel_error"), "%.1e")))
            out.append("")


def num(x, fmt, scale=1):
    """A number of a bench line, or blank where `hdgcl bench` wrote null (not measured)."""
    return fmt % (scale * x) if isinstance(x, (int, float)) else ""


def case_plain(run):
    return "%s p=%d" % (run["mesh"], run["order"])


def compare_section(cases, out):
    """cuSPARSE / cuBLAS on hdgcl's exported systems (perf/cupy_compare.py)."""
    if not cases:
        return
    out.append("## Side by side with NVIDIA's libraries (H100)\n")
    out.append("`sh perf/gpu_machine.sh compare`: hdgcl solves and exports its trace system "
               "(`--export-matrix`), then `perf/cupy_compare.py` times cuSPARSE CSR SpMV and cuBLAS "
               "batched DGEMM (through CuPy) on the same data, in the same session, with the copy "
               "bandwidth measured alongside.  hdgcl's figure is its whole CG iteration (SpMV, "
               "block-Jacobi, dot products, updates: bytes counted from the algorithm), not its "
               "SpMV alone: the SpMV of each storage on the same matrices is timed by `hdgcl bench` (Targets "
               "above, rooflines below).  `compare-large` runs the same on `square:160` p = 7, whose "
               "matrix no L2 cache holds.  Library times are per call with calls back to back "
               "between two CUDA events (cuSPARSE: the bare cusparseSpMV call on descriptors made "
               "once), so the host's launch overhead is not counted; files before stop 39 timed "
               "one CuPy call per event pair, which overstated cuSPARSE's time (issue 31).\n")
    out.append("| case | rows | nnz | copy GB/s | cuSPARSE CSR SpMV GB/s (of copy) | hdgcl CG iteration GB/s (of copy), us/iteration | cuBLAS batched DGEMM GFLOP/s (shape) | hdgcl local stage GFLOP/s |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for key, lib, ours in cases:
        gemm = "; ".join("%.0f (%dx%dx%d, batch %d)" % (g["gflops"], g["m"], g["n"], g["k"], g["batch"])
                         for g in lib["gemm"])
        if ours:
            so = stage(ours, "solve")
            it = "%.0f (%.0f%%), %.0f" % (so["gbs"], 100 * so["gbs"] / lib["copy_gbs"],
                                          1e6 * ours["seconds_per_iteration"])
            lo = "%.0f" % stage(ours, "local")["gflops"]
        else:
            it = lo = "-"
        out.append("| %s | %d | %d | %.0f | %.0f (%.0f%%) | %s | %s | %s |" % (
            key, lib["rows"], lib["nnz"], lib["copy_gbs"], lib["csr_spmv_gbs"],
            100 * lib["csr_fraction_of_copy"], it, gemm, lo))
    out.append("")


def local_stage_section(results, bench, out):
    """The local stage on the H100 through its methods of Z = S^-1 [W | F]: the
    local-memory kernels (stop 12), the tiled Gauss-Jordan + GEMM (stop 13),
    and now (bench-nvidia-*.jsonl: whatever the trial picks, with K0's face
    products from the EfTEf table)."""
    inv = os.path.join(results, "local-invert")
    if not os.path.isdir(inv):
        return
    def by_case(lines):
        """The records by (mesh, order), the newest (file_time) where several."""
        r = {}
        for b in lines:
            if b.get("kind") == "bench":
                run = b["run"]
                key = (run["mesh"], run["order"])
                if key not in r or b.get("file_time", 0) >= r[key].get("file_time", 0):
                    r[key] = b
        return r
    rows = []
    for shape in ("tri320", "tet16", "hex16"):
        f12 = os.path.join(inv, "bench-invert-%s-stop12.jsonl" % shape)
        f13 = os.path.join(inv, "bench-invert-%s.jsonl" % shape)
        if not (os.path.exists(f12) and os.path.exists(f13)) or "bench-nvidia-" + shape not in bench:
            continue
        # "now": every file of the shape (bench-nvidia-tri320, -tri320p135, ...)
        files = [f for f in bench if f == "bench-nvidia-" + shape or
                 (f.startswith("bench-nvidia-" + shape + "p"))]
        old, tiled = by_case(read_lines(f12)), by_case(read_lines(f13))
        now = by_case([b for f in sorted(files) for b in bench[f]])
        for key in sorted(now, key=lambda k: k[1]):
            if key not in old or key not in tiled:
                continue
            b = now[key]
            gemm = [k for k in b.get("kernels", []) if k["name"] == "clblast_local_gemms"]
            loc = stage(b, "local")
            rows.append("| `%s` p = %d | %.2f (%s) | %.2f (%s) | %.2f (%s:%d) | %.1fx | %.0f%% |" % (
                key[0], key[1], 1e3 * stage(old[key], "local")["seconds"], old[key]["run"]["local_invert"],
                1e3 * stage(tiled[key], "local")["seconds"], tiled[key]["run"]["local_invert"],
                1e3 * loc["seconds"], b["run"]["local_invert"], b["run"]["local_invert_wg"],
                stage(old[key], "local")["seconds"] / loc["seconds"],
                100.0 * loc["gflops"] / gemm[0]["gflops"] if gemm and gemm[0]["gflops"] > 0 else float("nan")))
    if not rows:
        return
    out.append("## Local stage: the methods of Z = S^-1 [W | F] (H100)\n")
    out.append("The local stage's time (ms) on the H100 with the method the timed trial picked at each "
               "step (`local_invert` in the JSON): the Cholesky or Gauss-Jordan kernels with S in local "
               "memory (stop 12, `perf/results/local-invert/bench-invert-*-stop12.jsonl`), Gauss-Jordan "
               "with S in registers on a G x G grid of work-items, `cl/pipeline/local_invert_tiled.cl`, then "
               "CLBlast's batched GEMM for Z (stop 13, `bench-invert-*.jsonl` there), and now "
               "(`bench-nvidia-*.jsonl`): K0's face products Ef^T Ef from a reference table, S built "
               "by `local_build_s` (a combination of reference tables with per-element weights, 16 "
               "elements per work-group, so each table entry is read once per 16 elements) and "
               "`gauss-jordan-solve`, `cl/pipeline/local_solve_tiled.cl`, which reduces [S | W F] in registers "
               "and writes Z, no S^-1 and no GEMM for it (the trial's candidates one by one: "
               "`perf/results/local-invert/trials-stop16.txt`; kernel times of `square:320` p = 9: "
               "`profile-stop16.txt` there).  The last column is the whole stage's "
               "rate against CLBlast's batched DGEMMs at the stage's own GEMM shapes in the same run "
               "(issue 7's target: 100%).\n")
    out.append("| case | local memory | tiled Gauss-Jordan + GEMM | now | speedup | of CLBlast rate |")
    out.append("|---|---:|---:|---:|---:|---:|")
    out.extend(rows)
    out.append("")
    out.append("The 2D cases gain most: the fused solve skips finished column tiles, so each "
               "elimination step touches only the columns still to be reduced, and Z leaves the "
               "registers once; S from the tables read once per 16 elements halved the build "
               "(`square:320` p = 9: `local_build` 12.9 ms for S, [W | F] and K0 before, `profile-stop15.txt`, now "
               "`local_build_s` 2.2 ms + `local_build` 4.6 ms).  Since stop 18 K = K0 - [W | F]^T Z "
               "is `local_schur` (one work-item per entry of K, `cl/pipeline/local.cl`) or CLBlast, whichever "
               "a timed trial prefers (`local_schur` in the JSON; on the H100 the kernel: 0.048 "
               "against 0.075 ms on 16384 elements of `square:320` p = 3), and `local_build` takes "
               "several elements per work-group where K0 has at most 1024 entries (`square:320` p = 1 "
               "1.20 ms at stop 16, 1.07 ms with `local_schur`, 0.69 ms with both; p = 3 2.01, 1.91, "
               "1.61 ms; `bench-gpu-machine-stop18.log`).  Since stop 19 (stop 18's binary rerun in "
               "`perf/results/stop19/compare-old-8ff7890.jsonl`, this one in `bench-nvidia-*.jsonl`): K0 is never stored on affine elements "
               "(`local_schur_k0` evaluates it from per-element factors as it stores K, one "
               "work-item per row of K; `local_k0` writes it before CLBlast's GEMM), `local_build_s` "
               "writes each element's factors so that `local_build` computes no geometry, one "
               "division per element in the geometry, and Z by `cholesky-columns` (one work-item "
               "per column, Cholesky in registers) where S has at most 11 rows: local stage "
               "cube:16 p = 1-4 0.208, 0.597, 1.775, 4.384 ms at stop 18 -> 0.097, 0.348, 0.899, "
               "2.920 ms; square:80 p = 1-4 0.075, 0.092, 0.143, 0.208 -> 0.060, 0.068, 0.104, "
               "0.155 ms (at these sizes launches dominate and two runs differ by up to 40%: "
               "0.043, 0.058, 0.101, 0.154 ms in `bench-gpu-machine-stop19.log`); square:320 p = 1, "
               "3 0.678, 1.542 -> 0.302, 1.057 ms.  The flops of K0 "
               "are now counted as done (its factors, then one product per entry), fewer than the "
               "former per-entry formula: the rates above are lower for the same time than stop "
               "18's count would give.  "
               "Hexahedra gain from the mapped path (`local_mapped.cl`, docs/formulation.md section "
               "7b) done by batched GEMMs: B_k = -T Phi^T from the per-point gradients, "
               "mapped_factor's Cholesky and L^-1 in local memory, X = Ls Y by GEMMs, where it "
               "was a quadrature loop per entry and triangular solves in global memory (`hex:16` "
               "p = 3 local stage 76.7 ms at stop 17, now the time above).  "
               "Since stop 20 `local_schur` copies its work-group's Z to local memory first on "
               "GPUs, and since stop 21 its work-groups are whole elements (m (NTB+1) rows, the "
               "largest m within 128 work-items and 40 KiB), so the larger elements are staged "
               "too: `local_schur_k0` on `cube:16` p = 3, 4, 5 493, 1735, 6971 us unstaged -> 344, "
               "1130, 3012 us; `square:320` p = 7, 8, 9 3123, 7871, 8070 -> 1972, 2779, 4206 us "
               "(`perf/results/stop21/profile-schur-layouts.txt`); and `local_build` reads W's tables "
               "through a local tile where the element's slices outgrow the cache, tetrahedra from "
               "p = 6: `local_build` on `cube:16` p = 6, 7 5.2-5.7, 13.2 ms -> 2.86, 4.81 ms, local "
               "stage p = 7 78.1 -> 69.7 ms (`profile-build-tile.txt` there); on mapped elements "
               "G = X^T X is three GEMMs adding its blocks into S, W and K0 in place (no G, no "
               "`mapped_combine`): `hex:16` p = 2, 3 3.23, 19.22 -> 2.83, 17.13 ms.  Since stop 22 "
               "the scalar problems on mapped elements invert A = M / kappa by "
               "`local_invert_tiled` in place of `mapped_factor` (X = A^-1 Y, G = Y^T X, q = "
               "-X [u; lambda]): `hex:16` p = 2, 3 2.83, 17.13 -> 2.63, 15.42 ms, 99% and 109% of "
               "CLBlast's rate (`HDGCL_MAPPED_INVERSE=off` in the same run: 93%, 100%; "
               "`perf/results/stop22/`).  On CPU devices the trials also time two forms with one "
               "element per work-item and no barriers: `cholesky-solve` "
               "(`cl/pipeline/local_cholesky_solve.cl`: Cholesky in place, then both solves on all columns "
               "of [W | F] at once, transposed in private memory), counted at its own NZ^3/3 + "
               "2 NZ^2 (NT+1) flops, fewer than the Cholesky route's count the other SPD methods "
               "get, and `element` for K (`cl/pipeline/local_schur_element.cl`, after `local_k0`).  PoCL "
               "picked `cholesky-solve` for `square:80` p = 4-7 and `cube:8` p = 2, 3, and "
               "`element` for `square:80` p = 6; on 2 cores (PoCL 3.1) `square:40` p = 9 Z takes "
               "58 ms against 339 + 83 ms for `local_invert` and CLBlast's GEMM, and on the GPU "
               "machine's 16 cores (PoCL 5.0) the local stage of `square:80` p = 4, 5, 6, 7 went "
               "from 92, 70, 52, 49% of CLBlast's rate (stop 20, one pass) to 116, 95, 81, 79% "
               "back to back (`profile-pocl-tri80-p*.txt` there: `local_build` and "
               "`local_build_s`, GPU-shaped kernels, are now 33-39% of it).  Since stop 23 a third "
               "trial on CPU devices times the whole stage as one kernel, `local_element` "
               "(`cl/pipeline/local_element.cl`, one element per work-item: S, [W | F], the Cholesky "
               "factor, K = K0 - Y^T Y with Y = L^-1 [W | F], and Z = L^-T Y, only Z and K "
               "written), which PoCL picked for every `square:80` and `cube:8` case: on the 16 "
               "cores `square:80` p = 4-9 17.4, 31.0, 51.9, 76.2, 110.9, 175.6 ms -> 7.3, 11.4, "
               "15.8, 30.2, 43.2, 64.7 ms in the solve's pass and `cube:8` p = 2, 3 6.16, 21.7 -> "
               "3.10, 7.31 ms (`perf/results/stop23/`; on the H100 it is 2-6x slower than the "
               "split kernels, `bench-nvidia-tri80-element-*.log` there).  Since stop 25 the same "
               "trial on GPUs times `local_element_tiled` (`cl/pipeline/local_element_tiled.cl`): per "
               "element the augmented matrix [S, W F; (W F)^T, K0] built in local memory, then "
               "Gauss-Jordan in registers over S's columns only, which leaves Z above and the "
               "Schur complement K = K0 - [W | F]^T Z below, one element per G x G work-items "
               "and E per group (shapes 8:1, 4:4, 8:2, 11:1, 16:1), its flops counted as the "
               "split kernels' with `gauss-jordan-solve`.  On the H100 it won on triangles "
               "p = 1-5 and 7 (`local_invert` `local-element-tiled` above): `square:80` p = 3 "
               "77.4 -> 65.4 us back to back (98 -> 114% of CLBlast's rate), p = 1 260 -> 402%, "
               "`square:320` p = 3 132 -> 156%; on tetrahedra the split kernels kept winning "
               "(`perf/results/stop25/`).  Since stop 26 the CPU forms' Cholesky "
               "(`cl/pipeline/cholesky_rows.h`) factors S in panels of four columns (one rank-4 pass over "
               "the trailing matrix per panel) and solves left-looking, two rows at a time in "
               "registers: on the 16 cores `square:80` p = 7, 8, 9 30.2, 43.2, 64.7 -> 24.9, "
               "25.7, 46.7 ms in the solve's pass, p = 9 100 -> 188% of CLBlast's rate back to "
               "back (`perf/results/stop26/`).\n")


def report(args, figdir, runs, bench, compare, elasticity):
    """The markdown lines of docs/performance.md; writes the figures on the way."""
    solves = [(k, r) for k, rs in sorted(runs.items()) for r in rs]
    solves += [(k, b["run"]) for k, bs in sorted(bench.items()) for b in bs]
    benches = [b for _, bs in sorted(bench.items()) for b in bs]
    devices = []
    for _, r in solves:
        if device_label(r) not in devices:
            devices.append(device_label(r))
    out = ["# Performance\n",
           "Generated by `python3 perf/report.py` from the results in `%s` (do not edit by hand; "
           "figures in `%s/` beside this file).  Devices in these files: %s.  The NVIDIA GPU and the 16-core PoCL "
           "runs come from the GPU machine; files named `*2core*` from PoCL on a 2-core build "
           "machine (its CPU is in the device name), which other work shares, so their times are "
           "upper bounds.\n" % (
               args.results, os.path.relpath(figdir, os.path.dirname(args.output) or ".").replace(os.sep, "/"),
                           "; ".join(devices))]
    figs = Figures(figdir, args.output)
    report_targets.targets_section(solves, benches, compare, device_short, args.results, out)
    paper000_section(runs, out, figs)
    cross_vendor_section(runs, out, figs)
    tas_section(runs, out, figs)
    cube3d_section(runs, out)
    elasticity_section(elasticity, out)
    compare_section(compare, out)
    local_stage_section(args.results, bench, out)
    roofline_section(bench, out, figs)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default="perf/results")
    ap.add_argument("--output", default="docs/performance.md")
    ap.add_argument("--figures", help="directory of the PNG figures (default: figures/ beside the output)")
    args = ap.parse_args()
    figdir = args.figures or os.path.join(os.path.dirname(args.output) or ".", "figures")
    try:
        runs = load(args.results)
        bench = load_bench(args.results)
        compare = load_compare(args.results)
        elasticity = load_elasticity(args.results)
    except (OSError, ValueError) as e:
        print("report.py: cannot read the results in %s: %s" % (args.results, e), file=sys.stderr)
        return 1
    try:
        out = report(args, figdir, runs, bench, compare, elasticity)
    except ImportError as e:
        print("report.py: %s: the figures need matplotlib (the README's setup installs "
              "python3-matplotlib)" % e, file=sys.stderr)
        return 2
    except (KeyError, TypeError, IndexError, ValueError, ZeroDivisionError) as e:
        print("report.py: a results file in %s lacks a field or has a bad value (%s: %s)" % (
            args.results, type(e).__name__, e), file=sys.stderr)
        return 1
    tmp = args.output + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write("\n".join(out) + "\n")
        os.replace(tmp, args.output)
    except OSError as e:
        print("report.py: cannot write %s: %s" % (args.output, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
