#!/usr/bin/env python3
"""Lab 4: write a kernel of the trace solve and check it against the shipped one.

usage: python3 docs/labs/lab4_kernel.py setup DIR --kernel spmv|block-jacobi
       python3 docs/labs/lab4_kernel.py check DIR --kernel spmv|block-jacobi
               [--hdgcl ./build/hdgcl] [--device SPEC] [--mesh square:16] [--order 3]
               [--bench-mesh square:32] [--no-bench]

setup copies the kernel sources (cl/ of this repository) to DIR and puts the lab's
template (docs/labs/lab4/*.cl: the signature and the data layout, no body) in place
of the shipped code of the chosen kernel:
  spmv          spmv_bell_i in DIR/solvers/spmv.cl, the block-ELL product y = K x
  block-jacobi  block_jacobi_row in DIR/solvers/precond_block_jacobi.cl, one row of
                the face block-Jacobi preconditioner z = blockdiag(A_uu^-1) r
check solves the same problem (CG, block-Jacobi, --format bell-i) twice, with the
shipped kernels (those built into hdgcl) and with HDGCL_KERNEL_DIR=DIR, and passes
when the chosen kernel ran, the iteration counts are equal and every error norm agrees
to 1e-10 (relative); for spmv it also requires hdgcl bench's check of spmv_bell_i
against a product on the host (1e-12) on a larger mesh. (CG's iterates do not change
when the preconditioner is scaled by a constant, so a block-Jacobi row off by a constant
factor would pass; any other mistake changes the iterations.) Then it reports the kernel's
bandwidth against the device's copy bandwidth and the shipped kernel's (hdgcl bench
for spmv, the --profile times of a solve on the larger mesh for block-jacobi).
Exit status: 0 PASS, 1 FAIL (the reason on the last line), 2 usage errors.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

KERNELS = {
    # file in the kernel directory, what the template replaces, template, kernel CG launches
    "spmv": {
        "file": "solvers/spmv.cl",
        "template": "spmv_bell_i.cl",
        "shipped": "line",
        "line": "SPMV_BELL_INTERLEAVED(spmv_bell_i, double)",
        "profiled": "spmv_bell_i",
    },
    "block-jacobi": {
        "file": "solvers/precond_block_jacobi.cl",
        "template": "block_jacobi_row.cl",
        "shipped": "function",
        "line": "double block_jacobi_row(",
        "profiled": "block_jacobi_apply_dot2",
    },
}
ERROR_RTOL = 1e-10
SPMV_RTOL = 1e-12


class Fail(Exception):
    pass


def splice(text, k):
    """The kernel file's text with the shipped code of kernel k replaced by its template."""
    spec = KERNELS[k]
    with open(os.path.join(HERE, "lab4", spec["template"])) as f:
        template = f.read()
    lines = text.split("\n")
    if spec["shipped"] == "line":
        hits = [i for i, l in enumerate(lines) if l.strip() == spec["line"]]
        end = hits[0] + 1 if len(hits) == 1 else None
    else:
        hits = [i for i, l in enumerate(lines) if l.startswith(spec["line"])]
        end = None
        if len(hits) == 1:
            end = next((j + 1 for j in range(hits[0], len(lines)) if lines[j] == "}"), None)
    if len(hits) != 1 or end is None:
        raise Fail("%s: cannot find the shipped %s (%r) to replace: has cl/ changed? Update "
                   "docs/labs/lab4_kernel.py" % (spec["file"], k, spec["line"]))
    return "\n".join(lines[:hits[0]] + template.rstrip("\n").split("\n") + lines[end:]), hits[0] + 1


def setup(args):
    if os.path.exists(args.dir):
        raise Fail("%s exists: choose a new directory (setup never overwrites your work)" % args.dir)
    src = os.path.join(REPO, "cl")
    spec = KERNELS[args.kernel]
    with open(os.path.join(src, spec["file"])) as f:
        text, line = splice(f.read(), args.kernel)
    shutil.copytree(src, args.dir, ignore=shutil.ignore_patterns("CMakeLists.txt"))
    with open(os.path.join(args.dir, spec["file"]), "w") as f:
        f.write(text)
    print("wrote %s: a copy of the kernel sources %s, with the template of %s at %s line %d" % (
        args.dir, src, args.kernel, os.path.join(args.dir, spec["file"]), line))
    print("next: write the body there, then: python3 docs/labs/lab4_kernel.py check %s --kernel %s" % (
        args.dir, args.kernel))


def run(cmd, kernel_dir, what):
    """Runs hdgcl with the shipped kernels (kernel_dir None) or those of kernel_dir."""
    env = dict(os.environ)
    env.pop("HDGCL_KERNEL_DIR", None)
    if kernel_dir:
        env["HDGCL_KERNEL_DIR"] = os.path.abspath(kernel_dir)
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=600)
    except OSError as e:
        raise Fail("cannot run %s: %s (--hdgcl names the hdgcl executable)" % (cmd[0], e))
    except subprocess.TimeoutExpired:
        raise Fail("%s: no result within 600 s" % what)
    if p.returncode != 0:
        # Its output without the profile table (the compiler's log, if any, stays).
        lines = [l for l in p.stdout.rstrip().split("\n")
                 if not PROFILE_ROW.match(l) and not l.startswith("profile (device time")
                 and not l.startswith("  kernel  ")]
        print("%s: %s" % (what, " ".join(cmd)))
        print("\n".join("    " + l for l in lines[-25:]))
        errors = [l for l in lines if "error" in l.lower()]
        raise Fail("%s failed (exit status %d): %s" % (what, p.returncode,
                                                       (errors or lines or ["no output"])[-1].strip()))
    return p.stdout


PROFILE_ROW = re.compile(r"^\s+(\S.*?)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)%\s*$")


def profile(out):
    """{kernel: (launches, total seconds)} from the --profile table."""
    rows, on = {}, False
    for line in out.split("\n"):
        if line.startswith("profile (device time per kernel"):
            on = True
        elif on:
            m = PROFILE_ROW.match(line)
            if m:
                rows[m.group(1)] = (int(m.group(2)), float(m.group(3)) * 1e-3)
    return rows


def solve(args, kernel_dir, mesh, json_path, maxit=None):
    cmd = [args.hdgcl, "solve", "--mesh", mesh, "--order", str(args.order), "--solver", "cg",
           "--precond", "block-jacobi", "--format", "bell-i", "--json", json_path, "--profile"]
    if args.device:
        cmd += ["--device", args.device]
    if maxit:
        cmd += ["--maxit", str(maxit)]
    what = "the solve with %s kernels" % ("your" if kernel_dir else "the shipped")
    out = run(cmd, kernel_dir, what)
    with open(json_path) as f:
        return json.load(f), profile(out)


def bench(args, kernel_dir, json_path):
    cmd = [args.hdgcl, "bench", "--mesh", args.bench_mesh, "--orders", str(args.order), "--warmup", "0",
           "--repeat", "1", "--min-time", "0.05", "--copy-mib", "64", "--json", json_path, "--quiet"]
    if args.device:
        cmd += ["--device", args.device]
    run(cmd, kernel_dir, "hdgcl bench with %s kernels" % ("your" if kernel_dir else "the shipped"))
    with open(json_path) as f:
        return json.loads(f.readline())


def rel(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def check(args):
    spec = KERNELS[args.kernel]
    path = os.path.join(args.dir, spec["file"])
    if not os.path.isfile(path):
        raise Fail("%s: no such file: DIR must be the kernel directory that `setup` wrote" % path)
    tmp = tempfile.mkdtemp(prefix="lab4-")
    try:
        ship, ship_prof = solve(args, None, args.mesh, os.path.join(tmp, "shipped.json"))
        its = ship["iterations"]
        # A wrong kernel may never converge: stop it well after the shipped count.
        mine, mine_prof = solve(args, args.dir, args.mesh, os.path.join(tmp, "yours.json"), 2 * its + 20)
        name = spec["profiled"]
        if mine_prof.get(name, (0, 0))[0] < 1:
            raise Fail("your solve never launched %s, the kernel under test (profile: %s)" % (
                name, ", ".join(sorted(mine_prof)) or "empty: --device ref runs no kernels, choose an "
                "OpenCL device"))
        print("problem   %s on %s, p = %d, CG + block-jacobi (bell-i), %d trace DOFs" % (
            ship["problem"], ship["mesh"], ship["order"], ship["trace_dofs"]))
        print("device    %s (%s)" % (ship["device"]["name"], ship["device"]["platform"]))
        print("%-10s %14s %14s %10s" % ("", "shipped", "yours", "rel. diff"))
        print("%-10s %14d %14d" % ("iterations", its, mine["iterations"]))
        worst = 0.0
        # The error norms; ustar_check / ustar_retries are u*'s consistency check (round-off
        # sized residuals, docs/reliability.md), not errors of the solution.
        for key in sorted(k for k in ship["errors"] if not k.startswith("ustar_")):
            a, b = ship["errors"][key], mine["errors"].get(key)
            if b is None:
                raise Fail("your run has no error %s" % key)
            worst = max(worst, rel(a, b))
            print("%-10s %14.8e %14.8e %10.1e" % (key, a, b, rel(a, b)))
        if mine["iterations"] != its:
            raise Fail("%d CG iterations with your kernel, %d with the shipped one: your %s computes "
                       "something else (a wrong or missing term changes the operator%s)" % (
                           mine["iterations"], its, name,
                           " or the preconditioner" if args.kernel == "block-jacobi" else ""))
        if worst > ERROR_RTOL:
            raise Fail("the errors differ from the shipped kernel's by %.1e (relative), more than %.0e"
                       % (worst, ERROR_RTOL))
        if not args.no_bench:
            report(args, tmp, ship, name)
        print("PASS: %s: the same %d iterations, errors equal to %.1e (relative)%s" % (
            name, its, worst, "" if args.no_bench else ", product checked by hdgcl bench"
            if args.kernel == "spmv" else ""))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def report(args, tmp, ship, name):
    """Bandwidth of the kernel under test, yours and the shipped, against copy."""
    mine_b = bench(args, args.dir, os.path.join(tmp, "bench-yours.jsonl"))
    copy = mine_b["peak"]["copy_gbs"]
    if args.kernel == "spmv":
        ship_b = bench(args, None, os.path.join(tmp, "bench-shipped.jsonl"))
        k_mine = next(k for k in mine_b["kernels"] if k["name"] == name)
        k_ship = next(k for k in ship_b["kernels"] if k["name"] == name)
        if k_mine["rel_error"] is None or not k_mine["rel_error"] <= SPMV_RTOL:
            raise Fail("hdgcl bench: your %s differs from the product on the host by %s (relative; "
                       "at most %.0e) on %s" % (name, k_mine["rel_error"], SPMV_RTOL, args.bench_mesh))
        rows = [("yours", k_mine["seconds"], k_mine["bytes"]), ("shipped", k_ship["seconds"], k_ship["bytes"])]
        how = "hdgcl bench: one product, repeated for 0.05 s"
    else:
        rows = []
        for who, kdir in (("yours", args.dir), ("shipped", None)):
            r, prof = solve(args, kdir, args.bench_mesh, os.path.join(tmp, "p-%s.json" % who))
            launches, seconds = prof[name]
            n = r["trace_dofs"]
            nf = n // r["trace_unknown_faces"]
            # host/solvers/precond_block_jacobi.c counts(): the inverses, r read and z written once
            rows.append((who, seconds / launches, 8.0 * n * nf + 16.0 * n))
        how = "--profile of a solve: mean of %d launches" % launches
    print("bandwidth of %s on %s, p = %d (%s); copy: %.1f GB/s (hdgcl bench's stream kernel)" % (
        name, args.bench_mesh, args.order, how, copy))
    for who, seconds, nbytes in rows:
        gbs = nbytes / seconds * 1e-9
        print("  %-8s %10.1f us  %12.0f bytes  %7.1f GB/s  %5.0f%% of copy" % (
            who, seconds * 1e6, nbytes, gbs, 100 * gbs / copy))


def main():
    ap = argparse.ArgumentParser(description="Lab 4: your kernel against the shipped one (see the "
                                 "top of docs/labs/lab4_kernel.py)")
    ap.add_argument("action", choices=["setup", "check"])
    ap.add_argument("dir", help="your kernel directory (a copy of cl/)")
    ap.add_argument("--kernel", required=True, choices=sorted(KERNELS))
    ap.add_argument("--hdgcl", default="./build/hdgcl")
    ap.add_argument("--device", help="as hdgcl's --device (default: $HDGCL_DEVICE or auto)")
    ap.add_argument("--mesh", default="square:16", help="the mesh of the correctness check")
    ap.add_argument("--order", type=int, default=3)
    ap.add_argument("--bench-mesh", default="square:32", help="the mesh the bandwidth is measured on")
    ap.add_argument("--no-bench", action="store_true", help="correctness only")
    args = ap.parse_args()
    try:
        setup(args) if args.action == "setup" else check(args)
    except Fail as e:
        print("FAIL: %s" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
