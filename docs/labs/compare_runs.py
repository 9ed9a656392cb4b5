#!/usr/bin/env python3
"""Lab 2: compare two `hdgcl solve --json` results (e.g. a device and --device ref).

usage: python3 docs/labs/compare_runs.py A.json B.json

Prints each run's device, iterations and errors, the relative difference of
every error norm (the pipeline's agreement: the tests require 1e-10), and the
time of each stage side by side.
"""
import json
import sys


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        runs = [json.load(open(p)) for p in sys.argv[1:]]
    except (OSError, ValueError) as e:
        print("compare_runs.py: %s" % e, file=sys.stderr)
        return 1
    a, b = runs
    for name, r in zip(sys.argv[1:], runs):
        print("%-10s %s (%s), %d iterations" % (name, r["device"]["name"], r["device"]["platform"],
                                                r["iterations"]))
    print("%-10s %14s %14s %10s" % ("error", sys.argv[1], sys.argv[2], "rel. diff"))
    for key in sorted(a["errors"]):
        if key in b["errors"]:
            x, y = a["errors"][key], b["errors"][key]
            print("%-10s %14.8e %14.8e %10.1e" % (key, x, y, abs(x - y) / max(abs(x), abs(y), 1e-300)))
    print("%-10s %14s %14s   [ms]" % ("stage", sys.argv[1], sys.argv[2]))
    sb = {s["name"]: s["seconds"] for s in b["stages"]}
    for s in a["stages"]:
        print("%-10s %14.3f %14.3f" % (s["name"], 1e3 * s["seconds"], 1e3 * sb.get(s["name"], float("nan"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
