"""The "Targets" section of docs/performance.md: issue 7's performance targets,
each with the measured figure and met / not met / not measured yet, computed
from the results files only (nothing measured is written here by hand).

Sources: bench-*.jsonl (`hdgcl bench`: SpMV kernels and local-stage DGEMMs with
the copy bandwidth and DGEMM peak measured in the same run), compare-*.json
(perf/cupy_compare.py: cuSPARSE CSR SpMV and cuBLAS batched DGEMM on hdgcl's
exported systems, with hdgcl's own solve of the same case in compare-*-hdgcl.json)
and every `hdgcl solve --json` line (largest problems).
"""

SPMV_FRACTION = 0.85      # block-ELL SpMV, fraction of measured copy bandwidth (H100)
SPMV_OVER_CUSPARSE = 1.6  # block-ELL SpMV time, cuSPARSE CSR over ours, same matrix
STRETCH_OVER_CUSPARSE = 2.5  # same, with symmetric storage or mixed precision
TRACE_DOFS_2D = 100e6     # trace DOFs of one 2D solve on one H100
TWO_D = ("triangle", "quadrilateral")


def is_h100(run):
    return "H100" in run["device"]["name"]


def case_label(run):
    return "`%s` p = %d" % (run["mesh"], run["order"])


def is_bell(name):
    """Block-ELL SpMV in double precision and full storage (the main target)."""
    return name.startswith("spmv_bell") and "sym" not in name and "mixed" not in name


def is_bell_stretch(name):
    return name.startswith("spmv_bell") and ("sym" in name or "mixed" in name)


def frac_bw(entry, peak):
    f = entry.get("frac_bw")
    return f if f is not None else entry["gbs"] / peak["copy_gbs"]


def measured(entry, *keys):
    """Whether the entry has a positive number for each key (`hdgcl bench` writes null
    for a rate it could not measure)."""
    return all(isinstance(entry.get(k), (int, float)) and entry[k] > 0 for k in keys)


def is_gemm(name):
    """CLBlast at the local stage's GEMM shapes (`clblast_local_gemms`, or one per shape)."""
    return "gemm" in name


def status(results):
    """results: list of booleans, one per measured case."""
    if not results:
        return "not measured yet"
    if all(results):
        return "**met**"
    if not any(results):
        return "**not met**"
    return "partly met (%d of %d cases)" % (sum(results), len(results))


def matching_bench(bench, lib, ours):
    """The H100 bench case on the matrix of one compare case (same mesh and
    order as hdgcl's solve beside it, else the same number of rows)."""
    for b in bench:
        r = b["run"]
        if not is_h100(r):
            continue
        if ours and (r["mesh"], r["order"]) == (ours["mesh"], ours["order"]):
            return b
        if not ours and r["trace_dofs"] == lib["rows"]:
            return b
    return None


def spmv_fraction_row(bench, compare):
    """Judged on the cases whose SpMV moves at least half of the copy
    benchmark's buffer (which is sized well past any cache): smaller matrices
    sit in the L2 cache (above 100%) or are launch-bound, and are summarised."""
    cases, ok, small = [], [], []
    for b in bench:
        if not is_h100(b["run"]):
            continue
        ks = [k for k in b["kernels"] if is_bell(k["name"]) and measured(k, "gbs")]
        if not ks:
            continue
        best = max(ks, key=lambda k: frac_bw(k, b["peak"]))
        f = frac_bw(best, b["peak"])
        if best.get("bytes") and best["bytes"] < b["peak"]["copy_bytes"] / 2:
            small.append(f)
            continue
        cases.append("%s: %.0f%% (%s, %.0f of %.0f GB/s)" % (
            case_label(b["run"]), 100 * f, best["name"], best["gbs"], b["peak"]["copy_gbs"]))
        ok.append(f >= SPMV_FRACTION)
    if small:
        cases.append("(%d smaller cases, in cache or launch-bound: %.0f-%.0f%%)" % (
            len(small), 100 * min(small), 100 * max(small)))
    if not cases:
        ctx = ["%s: %.0f%% for a whole CG iteration (SpMV, preconditioner, vectors), not the SpMV alone"
               % (key, 100 * ours_solve_gbs(ours) / lib["copy_gbs"]) for key, lib, ours in compare if ours]
        cases = ["no H100 bench-*.jsonl yet"] + ctx
    return ("block-ELL SpMV >= %.0f%% of measured copy bandwidth on the H100" % (100 * SPMV_FRACTION),
            "; ".join(cases), status(ok), "bench-*.jsonl" if ok else "bench-*.jsonl, compare-*-hdgcl.json")


def ours_solve_gbs(ours):
    return next(s for s in ours["stages"] if s["name"] == "solve")["gbs"]


def spmv_speedup_row(bench, compare, select, threshold, title):
    cases, ok = [], []
    for key, lib, ours in compare:
        b = matching_bench(bench, lib, ours)
        ks = [k for k in b["kernels"] if select(k["name"]) and measured(k, "seconds")] if b else []
        if not ks:
            continue
        best = min(ks, key=lambda k: k["seconds"])
        s = lib["csr_spmv_seconds"] / best["seconds"]
        cases.append("%s: %.2fx (%s %.1f us, cuSPARSE CSR %.1f us)" % (
            key, s, best["name"], 1e6 * best["seconds"], 1e6 * lib["csr_spmv_seconds"]))
        ok.append(s >= threshold)
    if not cases:
        cases = ["no H100 bench case on a compare-*.json matrix yet"]
        cases += ["%s: cuSPARSE CSR %.0f GB/s (%.0f%% of copy), %.1f us" % (
            key, lib["csr_spmv_gbs"], 100 * lib["csr_fraction_of_copy"], 1e6 * lib["csr_spmv_seconds"])
            for key, lib, _ in compare]
    return (title, "; ".join(cases), status(ok), "bench-*.jsonl, compare-*.json")


def latest_per_case(bench):
    """The newest record (file_time, see report.py) of each (device, mesh, order),
    in the order of bench, and how many older records of those cases were left out."""
    best = {}
    for i, b in enumerate(bench):
        key = (b["run"]["device"]["name"], b["run"]["mesh"], b["run"]["order"])
        if key not in best or b.get("file_time", 0) >= best[key][1].get("file_time", 0):
            best[key] = (i, b)
    kept = sorted(best.values(), key=lambda ib: ib[0])
    return [b for _, b in kept], len(bench) - len(kept)


def local_dgemm_row(bench, compare):
    """Judged on the newest record of each case: a case measured again after a
    change counts once, with its latest figure."""
    cases, ok = [], []
    bench, older = latest_per_case(bench)
    for b in bench:
        gemms = [k for k in b["kernels"] if is_gemm(k["name"]) and measured(k, "seconds", "flops")]
        local = [s for s in b["stages"] if s["name"] == "local" and measured(s, "gflops")]
        if not gemms or not local:
            continue
        # The rate CLBlast reaches on all of the local stage's GEMM shapes together
        # (the local stage's flops are its GEMMs' plus the Cholesky factorisations').
        rate = sum(k["flops"] for k in gemms) / sum(k["seconds"] for k in gemms) / 1e9
        # The stage timed as the GEMMs are, back to back (hdgcl bench's local_stage,
        # since stop 21), else the solve's one pass (older records).
        again = [k for k in b["kernels"] if k["name"] == "local_stage" and measured(k, "gflops")]
        if again:
            cases.append("%s, %s: local %.0f GFLOP/s back to back (%.0f in the solve's pass), "
                         "CLBlast DGEMMs %.0f GFLOP/s" % (
                             b["run"]["device"]["name"], case_label(b["run"]), again[0]["gflops"],
                             local[0]["gflops"], rate))
        else:
            cases.append("%s, %s: local %.0f GFLOP/s (the solve's pass), CLBlast DGEMMs %.0f GFLOP/s" % (
                b["run"]["device"]["name"], case_label(b["run"]), local[0]["gflops"], rate))
        ok.append((again[0] if again else local[0])["gflops"] >= rate)
    if cases and older:
        cases.append("(the newest record of each case; %d older records of the same cases not counted)" % older)
    if not cases:
        cases = ["no bench-*.jsonl with CLBlast at the local stage's GEMM shapes yet"]
        for key, lib, ours in compare:
            if ours:
                lo = next(s for s in ours["stages"] if s["name"] == "local")
                cases.append("%s: local stage %.0f GFLOP/s vs cuBLAS (not CLBlast) batched DGEMM %s GFLOP/s" % (
                    key, lo["gflops"], " / ".join("%.0f" % g["gflops"] for g in lib["gemm"])))
    return ("whole local stage at or above the rate of CLBlast batched DGEMM at the same sizes",
            "; ".join(cases), status(ok), "bench-*.jsonl" if ok else "bench-*.jsonl, compare-*.json")


def largest(solves, dims, h100_only):
    rs = [(k, r) for k, r in solves if r.get("element_type") in dims and (is_h100(r) or not h100_only)]
    return max(rs, key=lambda kr: (kr[1]["trace_dofs"], -kr[1]["total_seconds"]), default=None)


def dofs_row(solves):
    big = largest(solves, TWO_D, True)
    if not big:
        return (">= 100 M trace DOFs in 2D on one H100", "no 2D H100 run", "not measured yet", "-")
    k, r = big
    met = r["trace_dofs"] >= TRACE_DOFS_2D
    return (">= %.0f M trace DOFs in 2D on one H100" % (TRACE_DOFS_2D / 1e6),
            "largest 2D solve so far: %.2f M trace DOFs (%s, %.2f s)" % (
                r["trace_dofs"] / 1e6, case_label(r), r["total_seconds"]),
            "**met**" if met else "**not met** (so far)", "%s.jsonl" % k)


def targets_section(solves, bench, compare, device_short, results, out):
    """solves: [(file key, solve object)]; bench: bench lines; compare: [(key,
    cuSPARSE/cuBLAS object, hdgcl's solve or None)]."""
    out.append("## Targets\n")
    out.append("Issue 7's targets, each computed by `perf/report.py` from the results files named in "
               "the last column (under `%s`).  SpMV speedups compare times per product "
               "on the same matrix (hdgcl's export of the same case); `not measured yet` means "
               "no results file has the measurement.\n" % results)
    out.append("| target | measured | status | from |")
    out.append("|---|---|---|---|")
    rows = [spmv_fraction_row(bench, compare),
            spmv_speedup_row(bench, compare, is_bell, SPMV_OVER_CUSPARSE,
                             "block-ELL SpMV >= %.1fx cuSPARSE CSR SpMV on the same matrix (H100)"
                             % SPMV_OVER_CUSPARSE),
            spmv_speedup_row(bench, compare, is_bell_stretch, STRETCH_OVER_CUSPARSE,
                             "(stretch) >= %.1fx cuSPARSE with symmetric storage or mixed precision"
                             % STRETCH_OVER_CUSPARSE),
            local_dgemm_row(bench, compare),
            dofs_row(solves)]
    for row in rows:
        out.append("| %s | %s | %s | %s |" % row)
    out.append("")
    out.append("### Largest problems solved\n")
    out.append("Per device and dimension, the solve with the most trace DOFs in any results file "
               "(total time end to end; memory is the device high-water mark of hdgcl's buffers).\n")
    out.append("| dimension | device | mesh | p | element | trace DOFs | iterations | total (s) | "
               "memory (GiB) | file |")
    out.append("|---|---|---|---:|---|---:|---:|---:|---:|---|")
    devices = []
    for _, r in solves:
        if device_short(r) not in devices:
            devices.append(device_short(r))
    for dim, types in (("2D", TWO_D), ("3D", ("tetrahedron", "hexahedron"))):
        for d in devices:
            big = largest([(k, r) for k, r in solves if device_short(r) == d], types, False)
            if not big:
                continue
            k, r = big
            mem = r.get("memory_high_water_bytes")
            out.append("| %s | %s | `%s` | %d | %s | %s | %d | %.3f | %s | `%s.jsonl` |" % (
                dim, d, r["mesh"], r["order"], r["element_type"], "{:,}".format(r["trace_dofs"]),
                r["iterations"], r["total_seconds"], "%.2f" % (mem / 2**30) if mem is not None else "-", k))
    out.append("")
