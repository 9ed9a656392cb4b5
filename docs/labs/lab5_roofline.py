#!/usr/bin/env python3
"""Lab 5: hdgcl bench on every device, rooflines, and a checker for the answers.

usage: python3 docs/labs/lab5_roofline.py bench [--hdgcl ./build/hdgcl] [--out DIR]
                                                [--mesh square:32] [--orders 4] [-- BENCH OPTIONS]
       python3 docs/labs/lab5_roofline.py table BENCH.jsonl ... [--order P] [--plot PREFIX]
       python3 docs/labs/lab5_roofline.py template BENCH.jsonl [--order P]
       python3 docs/labs/lab5_roofline.py check BENCH.jsonl ANSWERS.txt

bench     runs `hdgcl bench` on every OpenCL device with FP64 that `hdgcl devices --json`
          lists, one DIR/bench-DEVICE.jsonl per device.
table     per device and case: the measured ceilings (copy bandwidth, DGEMM rate, their
          ratio the ridge point) and, for every stage and kernel with flops and bytes,
          the arithmetic intensity I = flops / bytes, the roofline min(DGEMM, I x copy),
          the bound (memory below the ridge, compute above) and the fraction of the
          roofline reached. --plot PREFIX draws PREFIX-DEVICE.png per device with
          perf/report_figures.py (matplotlib; without it the table alone).
template  the questions for one case of a bench file, to fill in: `key = value` lines.
check     recomputes every answer from the bench file: numbers within 2 % (relative),
          bounds exactly; PASS only when all are answered and right (exit 0, else 1).
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RTOL = 0.02
# (quantity, stage or kernel): what the template asks.
QUESTIONS = [("ridge", None)] + [(q, e) for q in ("intensity", "bound", "roofline", "fraction")
                                 for e in ("local", "solve", "spmv_bell_i")]
HINTS = {
    "ridge": "the DGEMM rate over the copy bandwidth, in flop / byte (peak in the bench JSON)",
    "intensity": "flops / bytes of the stage or kernel",
    "bound": "memory if the intensity is below the ridge point, else compute",
    "roofline": "min(DGEMM rate, intensity x copy bandwidth), in GFLOP/s",
    "fraction": "the measured GFLOP/s over the roofline, a number (0.5, not 50 %)",
}


class Fail(Exception):
    pass


def read_cases(path):
    try:
        with open(path) as f:
            cases = [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError) as e:
        raise Fail("%s: %s" % (path, e))
    if not cases or any(c.get("kind") != "bench" for c in cases):
        raise Fail("%s: not the JSON lines of hdgcl bench --json" % path)
    return cases


def case_name(c):
    return "%s p=%d" % (c["run"]["mesh"], c["run"]["order"])


def pick(cases, path, order=None, name=None):
    found = [c for c in cases if (order is None or c["run"]["order"] == order)
             and (name is None or case_name(c) == name)]
    if len(found) != 1:
        raise Fail("%s: %d cases match (the file has: %s): choose one with --order (or `case =`)" % (
            path, len(found), ", ".join(case_name(c) for c in cases)))
    return found[0]


def entries(c):
    """{name: entry} of the stages and kernels with both flops and bytes."""
    return {e["name"]: e for e in c["stages"] + c["kernels"]
            if e.get("flops") and e.get("bytes") and e.get("gflops") is not None}


def answer(c, quantity, name):
    pk = c["peak"]
    ridge = pk["dgemm_gflops"] / pk["copy_gbs"]
    if quantity == "ridge":
        return ridge
    es = entries(c)
    if name not in es:
        raise Fail("%s has no %s with flops and bytes" % (case_name(c), name))
    e = es[name]
    i = e["flops"] / e["bytes"]
    roof = min(pk["dgemm_gflops"], i * pk["copy_gbs"])
    return {"intensity": i, "bound": "memory" if i < ridge else "compute", "roofline": roof,
            "fraction": e["gflops"] / roof}[quantity]


def device_slug(c):
    d = c["run"]["device"]
    slug = re.sub(r"[^a-z0-9]+", "-", d["name"].lower()).strip("-")
    return slug[:48] or "device"


def cmd_bench(args):
    try:
        p = subprocess.run([args.hdgcl, "devices", "--json"], stdout=subprocess.PIPE,
                           universal_newlines=True, check=True)
        devices = json.loads(p.stdout)["devices"]
    except (OSError, subprocess.CalledProcessError, ValueError) as e:
        raise Fail("hdgcl devices --json: %s (--hdgcl names the hdgcl executable)" % e)
    usable = [d for d in devices if d.get("fp64")]
    if not usable:
        raise Fail("no OpenCL device with FP64 (hdgcl devices lists %d device(s))" % len(devices))
    os.makedirs(args.out, exist_ok=True)
    for d in usable:
        slug = re.sub(r"[^a-z0-9]+", "-", d["name"].lower()).strip("-")[:48] or "device"
        out = os.path.join(args.out, "bench-%s.jsonl" % slug)
        cmd = [args.hdgcl, "bench", "--device", d["index"], "--mesh", args.mesh, "--orders", args.orders,
               "--json", out] + args.rest
        print("%s (%s): %s" % (d["name"], d["platform"], " ".join(cmd)), flush=True)
        if subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode != 0:
            raise Fail("hdgcl bench failed on %s %s" % (d["index"], d["name"]))
        print("  wrote %s" % out)


def cmd_table(args):
    for path in args.files:
        cases = read_cases(path)
        if args.order is not None:
            cases = [pick(cases, path, order=args.order)]
        for c in cases:
            pk, run = c["peak"], c["run"]
            ridge = pk["dgemm_gflops"] / pk["copy_gbs"]
            print("%s: %s (%s), %s" % (path, run["device"]["name"], run["device"]["platform"], case_name(c)))
            print("  ceilings: copy %.1f GB/s, DGEMM %.1f GFLOP/s, ridge point %.3f flop/byte" % (
                pk["copy_gbs"], pk["dgemm_gflops"], ridge))
            print("  %-20s %10s %10s %10s %10s %8s %9s" % ("stage / kernel", "time [ms]", "flop/byte",
                                                         "GFLOP/s", "roofline", "bound", "of roof"))
            for name, e in entries(c).items():
                i = e["flops"] / e["bytes"]
                roof = min(pk["dgemm_gflops"], i * pk["copy_gbs"])
                print("  %-20s %10.4f %10.3f %10.2f %10.2f %8s %8.0f%%" % (
                    name, e["seconds"] * 1e3, i, e["gflops"], roof, "memory" if i < ridge else "compute",
                    100 * e["gflops"] / roof))
    if args.plot:
        plot(args)


def plot(args):
    try:
        sys.path.insert(0, os.path.join(REPO, "perf"))
        import report_figures
    except ImportError as e:
        print("no plot: %s (install matplotlib: apt-get install python3-matplotlib)" % e)
        return
    for path in args.files:
        cases = read_cases(path)
        if args.order is not None:
            cases = [pick(cases, path, order=args.order)]
        c0 = cases[0]
        ceilings, points = [], []
        for c in cases:
            pk = c["peak"]
            lab = "copy %.0f GB/s, DGEMM %.0f GFLOP/s" % (pk["copy_gbs"], pk["dgemm_gflops"])
            if lab not in [x[0] for x in ceilings]:
                ceilings.append((lab, pk["copy_gbs"], pk["dgemm_gflops"]))
            stages = {s["name"] for s in c["stages"]}
            for name, e in entries(c).items():
                points.append((name, case_name(c), e["flops"] / e["bytes"], e["gflops"], name in stages))
        out = "%s-%s.png" % (args.plot, device_slug(c0))
        report_figures.roofline(c0["run"]["device"]["name"], ceilings, points, out)
        print("wrote %s" % out)


def cmd_template(args):
    cases = read_cases(args.file)
    c = pick(cases, args.file, order=args.order) if args.order is not None or len(cases) > 1 else cases[0]
    print("# Lab 5 answers for %s: %s on %s" % (os.path.basename(args.file), case_name(c),
                                                 c["run"]["device"]["name"]))
    print("# check: python3 docs/labs/lab5_roofline.py check %s THIS_FILE" % args.file)
    print("case = %s" % case_name(c))
    last = None
    for q, e in QUESTIONS:
        if q != last:
            print("# %s: %s" % (q, HINTS[q]))
            last = q
        print("%s =" % (q if e is None else "%s %s" % (q, e)))


def parse_answers(path):
    ans, case = {}, None
    try:
        lines = open(path).read().split("\n")
    except OSError as e:
        raise Fail("%s: %s" % (path, e))
    for n, line in enumerate(lines, 1):
        line = line.split("#")[0].strip()
        if not line:
            continue
        if "=" not in line:
            raise Fail("%s:%d: not a `key = value` line: %s" % (path, n, line))
        k, v = (x.strip() for x in line.split("=", 1))
        k = " ".join(k.split())
        if k == "case":
            case = v
        else:
            ans[k] = v
    return case, ans


def cmd_check(args):
    cases = read_cases(args.file)
    case, ans = parse_answers(args.answers)
    c = pick(cases, args.file, name=case) if case or len(cases) > 1 else cases[0]
    keys = [q if e is None else "%s %s" % (q, e) for q, e in QUESTIONS]
    problems = ["unknown question %r (the template's are: %s)" % (k, ", ".join(keys))
                for k in ans if k not in keys]
    print("%s, %s on %s" % (args.file, case_name(c), c["run"]["device"]["name"]))
    for (q, e), k in zip(QUESTIONS, keys):
        want = answer(c, q, e)
        got = ans.get(k, "")
        if not got:
            verdict = "not answered"
        elif q == "bound":
            verdict = "ok" if got.lower() == want else "wrong (%s)" % HINTS[q]
        else:
            try:
                x = float(got.rstrip("%")) / (100.0 if got.endswith("%") else 1.0)
                verdict = "ok" if abs(x - want) <= RTOL * abs(want) else "wrong (%s)" % HINTS[q]
            except ValueError:
                verdict = "not a number"
        print("  %-22s %-12s %s" % (k, got, verdict))
        if verdict != "ok":
            problems.append("%s: %s" % (k, verdict))
    if problems:
        print("FAIL: %d of %d answers wrong or missing; first: %s" % (len(problems), len(keys), problems[0]))
        return 1
    print("PASS: all %d answers agree with %s (numbers to %.0f %%)" % (len(keys), args.file, 100 * RTOL))
    return 0


def main():
    ap = argparse.ArgumentParser(description="Lab 5: rooflines of hdgcl bench results (see the top of "
                                 "docs/labs/lab5_roofline.py)")
    sub = ap.add_subparsers(dest="action")
    b = sub.add_parser("bench", help="hdgcl bench on every FP64 device")
    b.add_argument("--hdgcl", default="./build/hdgcl")
    b.add_argument("--out", default="lab5-bench")
    b.add_argument("--mesh", default="square:32")
    b.add_argument("--orders", default="4")
    b.add_argument("rest", nargs="*", help="more hdgcl bench options, after --")
    t = sub.add_parser("table", help="ceilings, intensities, rooflines")
    t.add_argument("files", nargs="+")
    t.add_argument("--order", type=int)
    t.add_argument("--plot", metavar="PREFIX")
    m = sub.add_parser("template", help="the questions for one case")
    m.add_argument("file")
    m.add_argument("--order", type=int)
    c = sub.add_parser("check", help="check the answers")
    c.add_argument("file")
    c.add_argument("answers")
    args = ap.parse_args()
    if not args.action:
        ap.error("an action: bench, table, template or check")
    try:
        return {"bench": cmd_bench, "table": cmd_table, "template": cmd_template,
                "check": cmd_check}[args.action](args) or 0
    except Fail as e:
        print("FAIL: %s" % e)
        return 1


if __name__ == "__main__":
    sys.exit(main())
