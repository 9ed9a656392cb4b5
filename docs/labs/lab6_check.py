#!/usr/bin/env python3
"""Lab 6: does your problem's functional converge under p- and h-refinement?

usage: python3 docs/labs/lab6_check.py --problem-file F.json --mesh M1.msh [--mesh M2.msh ...]
           --output LABEL [--exact VALUE] [--balances LABEL] [--orders 1-4] [--tol 1e-3]
           [--device SPEC] [--hdgcl ./build/hdgcl]

Solves the problem file on each mesh (coarse to fine, as given) at each order and reads
the output LABEL (one of the problem file's "outputs", e.g. "flux: inner"; its first
value) from `hdgcl solve --json`. Prints the table of values (and errors against
--exact), then checks:
  p   on every mesh, the change from the second-highest to the highest order is
      smaller than from the first order to the second (the values settle as p rises);
  h   at the highest order, with --exact: the error falls with every refinement (the
      observed order is printed) and is within --tol (relative) on the finest mesh;
      without --exact (three meshes or more): the change between meshes falls;
  balance  with --balances LABEL2: LABEL + LABEL2 = 0 to 1e-8 (relative) in every
      run (a conservation law: e.g. the fluxes through the two plates of a capacitor).
Exit status: 0 PASS, 1 FAIL (the reasons, one per line, then a last FAIL line), 2 usage.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile


class Fail(Exception):
    pass


def orders(text):
    try:
        if "-" in text:
            a, b = (int(x) for x in text.split("-"))
            return list(range(a, b + 1))
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("orders: 'A-B' or 'A,B,C', not %r" % text)


def solve(args, mesh, p, tmp):
    path = os.path.join(tmp, "run.json")
    cmd = [args.hdgcl, "solve", "--problem-file", args.problem_file, "--mesh", mesh, "--order", str(p),
           "--json", path, "--quiet"]
    if args.device:
        cmd += ["--device", args.device]
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                           timeout=600)
    except OSError as e:
        raise Fail("cannot run %s: %s (--hdgcl names the hdgcl executable)" % (args.hdgcl, e))
    except subprocess.TimeoutExpired:
        raise Fail("%s: no result within 600 s" % " ".join(cmd))
    if r.returncode != 0:
        raise Fail("%s failed: %s" % (" ".join(cmd), (r.stdout.strip().split("\n") or ["?"])[-1]))
    with open(path) as f:
        run = json.load(f)
    outs = {o["label"]: o["values"][0] for o in run.get("outputs", [])}
    for label in [args.output] + ([args.balances] if args.balances else []):
        if label not in outs:
            raise Fail("the problem file has no output %r (it has: %s)" % (
                label, ", ".join(sorted(outs)) or "none; add \"outputs\""))
    return run, outs


def main():
    ap = argparse.ArgumentParser(description="Lab 6: convergence of a functional under p- and h-refinement "
                                 "(see the top of docs/labs/lab6_check.py)")
    ap.add_argument("--problem-file", required=True)
    ap.add_argument("--mesh", action="append", required=True, help="a mesh, coarse to fine (repeat)")
    ap.add_argument("--output", required=True, help="the output label, e.g. 'flux: inner'")
    ap.add_argument("--exact", type=float, help="the functional's known value")
    ap.add_argument("--balances", help="an output whose value must be -(the output's)")
    ap.add_argument("--orders", type=orders, default=orders("1-4"))
    ap.add_argument("--tol", type=float, default=1e-3, help="relative error allowed on the finest mesh")
    ap.add_argument("--device")
    ap.add_argument("--hdgcl", default="./build/hdgcl")
    args = ap.parse_args()
    ps = args.orders
    if len(ps) < 3:
        ap.error("--orders: at least three orders (the p check compares two changes)")
    problems = []
    tmp = tempfile.mkdtemp(prefix="lab6-")
    try:
        table = []  # (mesh, elements, h, {p: value})
        for mesh in args.mesh:
            vals, run = {}, None
            for p in ps:
                run, outs = solve(args, mesh, p, tmp)
                vals[p] = outs[args.output]
                if args.balances:
                    b = outs[args.balances]
                    if abs(vals[p] + b) > 1e-8 * max(abs(vals[p]), abs(b), 1e-300):
                        problems.append("balance: %s on %s, p = %d: %s = %.10g but %s = %.10g" % (
                            args.output, mesh, p, args.output, vals[p], args.balances, b))
            table.append((mesh, run["elements"], run["h"], vals))
    except Fail as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        for name in os.listdir(tmp):
            os.remove(os.path.join(tmp, name))
        os.rmdir(tmp)

    print("%s of %s%s" % (args.output, args.problem_file,
                          "; known value %.10g" % args.exact if args.exact is not None else ""))
    head = "%-28s %6s %8s" % ("mesh", "elems", "h") + "".join("%16s" % ("p = %d" % p) for p in ps)
    print(head)
    for mesh, ne, h, vals in table:
        print("%-28s %6d %8.4f" % (os.path.basename(mesh), ne, h) + "".join("%16.10f" % vals[p] for p in ps))
        if args.exact is not None:
            print("%-28s %6s %8s" % ("  error", "", "") + "".join("%16.3e" % (vals[p] - args.exact) for p in ps))

    # p: the values settle as p rises, on every mesh
    for mesh, _, _, v in table:
        first, last = abs(v[ps[1]] - v[ps[0]]), abs(v[ps[-1]] - v[ps[-2]])
        ok = last < first
        print("p   %-28s change p = %d -> %d: %.2e, p = %d -> %d: %.2e  %s" % (
            os.path.basename(mesh), ps[0], ps[1], first, ps[-2], ps[-1], last, "ok" if ok else "FAIL"))
        if not ok:
            problems.append("p: on %s the value changes more from p = %d to %d (%.2e) than from %d to %d "
                            "(%.2e): it does not settle" % (mesh, ps[-2], ps[-1], last, ps[0], ps[1], first))
    # h: at the highest order, towards the known value (or settling)
    top = ps[-1]
    if args.exact is not None:
        errs = [abs(v[top] - args.exact) for _, _, _, v in table]
        for i in range(1, len(table)):
            h0, h1 = table[i - 1][2], table[i][2]
            rate = math.log(errs[i - 1] / errs[i]) / math.log(h0 / h1) if errs[i] > 0 and h0 != h1 else float("nan")
            ok = errs[i] < errs[i - 1]
            print("h   p = %d: error %.3e -> %.3e, observed order %.2f  %s" % (
                top, errs[i - 1], errs[i], rate, "ok" if ok else "FAIL"))
            if not ok:
                problems.append("h: at p = %d the error against %.10g grows from %s to %s (%.3e -> %.3e)" % (
                    top, args.exact, table[i - 1][0], table[i][0], errs[i - 1], errs[i]))
        relerr = errs[-1] / max(abs(args.exact), 1e-300)
        ok = relerr <= args.tol
        print("h   finest mesh, p = %d: relative error %.2e (--tol %.0e)  %s" % (top, relerr, args.tol,
                                                                             "ok" if ok else "FAIL"))
        if not ok:
            problems.append("h: on the finest mesh at p = %d the value %.10g is %.2e (relative) from %.10g, "
                            "more than --tol %.0e" % (top, table[-1][3][top], relerr, args.exact, args.tol))
    elif len(table) >= 3:
        d = [abs(table[i][3][top] - table[i - 1][3][top]) for i in range(1, len(table))]
        for i in range(1, len(d)):
            ok = d[i] < d[i - 1]
            print("h   p = %d: change between meshes %.3e -> %.3e  %s" % (top, d[i - 1], d[i], "ok" if ok else "FAIL"))
            if not ok:
                problems.append("h: at p = %d the change between meshes grows (%.3e -> %.3e)" % (top, d[i - 1], d[i]))
    else:
        print("h   (no check: give --exact, or three meshes or more)")
    if args.balances:
        print("balance %s + %s = 0 in all %d runs: %s" % (args.output, args.balances, len(ps) * len(table),
                                                         "FAIL" if any(s.startswith("balance") for s in problems)
                                                         else "ok"))
    for s in problems:
        print("  " + s)
    if problems:
        print("FAIL: %d check(s) failed: %s" % (len(problems), problems[0]))
        return 1
    print("PASS: %s converges under p- and h-refinement%s" % (
        args.output, " to %.10g" % args.exact if args.exact is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
