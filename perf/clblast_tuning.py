#!/usr/bin/env python3
"""Turns CLBlast tuner results (clblast_xgemm_direct_*.json) into one line of
hdgcl's tuned-parameter database (perf/clblast/*.txt, format in
docs/clblast-tuning.md).

usage: python3 perf/clblast_tuning.py [--tuner "COMMAND LINE"] [--name] JSON...

Prints the database file to stdout: comment lines (device, platform, tuner,
sizes, the chosen configuration's times) and one line
  XgemmDirect 64 WGD=.. MDIMCD=.. NDIMCD=.. MDIMAD=.. NDIMBD=.. KWID=.. VWMD=.. VWND=.. PADA=.. PADB=..
With --name, prints only the file name the database expects for the device
(its name with every character outside [A-Za-z0-9._-] turned into '_', + .txt).

Several sizes (JSON files with different m, n, k): the chosen configuration is
the one measured at every size with the least sum over sizes of time/best time
at that size (the tuner's first, exhaustive phase measures the same grid at
every size, so such a configuration always exists).  Ties go to the first in
sorted order: the output is deterministic.  Exits 1 with a one-line message on
unusable input.
"""
import argparse
import json
import re
import sys

# JSON kernel_family prefix -> (database family, parameters in CLBlast's order).
FAMILIES = {
    "xgemm_direct": ("XgemmDirect",
                     ["WGD", "MDIMCD", "NDIMCD", "MDIMAD", "NDIMBD", "KWID", "VWMD", "VWND",
                      "PADA", "PADB"]),
}


def file_name(device):
    return re.sub(r"[^A-Za-z0-9._-]", "_", device) + ".txt"


def fail(msg):
    print("clblast_tuning.py: " + msg, file=sys.stderr)
    sys.exit(1)


def load(path):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: cannot read tuner JSON (%s)" % (path, e))
    for key in ("kernel_family", "precision", "device", "arg_m", "arg_n", "arg_k", "results"):
        if key not in d:
            fail("%s: no '%s' (not a CLBlast tuner result)" % (path, key))
    prefix = re.sub(r"_[0-9]+$", "", d["kernel_family"])
    if prefix not in FAMILIES:
        fail("%s: kernel family %s is not one hdgcl applies (known: %s)"
             % (path, d["kernel_family"], ", ".join(FAMILIES)))
    if str(d["precision"]) != "64":
        fail("%s: precision %s, hdgcl needs 64 (run the tuner with -precision 64)"
             % (path, d["precision"]))
    if not d["results"]:
        fail("%s: no successful configuration" % path)
    return d, prefix


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tuner", default="", help="the tuner command line, for the header")
    ap.add_argument("--name", action="store_true", help="print only the database file name")
    ap.add_argument("json", nargs="+")
    args = ap.parse_args()
    runs = [load(p) for p in args.json]
    devices = sorted({d["device"] for d, _ in runs})
    prefixes = sorted({p for _, p in runs})
    if len(devices) != 1:
        fail("results of several devices: %s" % "; ".join(devices))
    if len(prefixes) != 1:
        fail("results of several kernel families: %s" % ", ".join(prefixes))
    device = devices[0]
    if args.name:
        print(file_name(device))
        return
    family, names = FAMILIES[prefixes[0]]
    # times[size][config] = least time (ms) of that configuration at that size.
    times = {}
    for d, _ in runs:
        size = (int(d["arg_m"]), int(d["arg_n"]), int(d["arg_k"]))
        for r in d["results"]:
            p = r["parameters"]
            missing = [n for n in names if n not in p]
            if missing:
                fail("a result without parameter(s) %s" % ", ".join(missing))
            config = tuple(int(p[n]) for n in names)
            t = float(r["time"])
            per = times.setdefault(size, {})
            per[config] = min(t, per.get(config, t))
    sizes = sorted(times)
    common = sorted(set.intersection(*(set(times[s]) for s in sizes)))
    if not common:
        fail("no configuration was measured at every size %s" % sizes)
    best = {s: min(times[s].values()) for s in sizes}
    score = lambda c: sum(times[s][c] / best[s] for s in sizes)
    chosen = min(common, key=score)  # min keeps the first of equal scores
    platform = runs[0][0].get("platform_version", "?")
    print("# device: %s; platform: %s" % (device, platform))
    if args.tuner:
        print("# tuner: %s" % args.tuner)
    print("# chosen over %d configurations measured at every size; time (ms) / best at that size:"
          % len(common))
    for s in sizes:
        print("#   m=%d n=%d k=%d: %.3f / %.3f" % (s + (times[s][chosen], best[s])))
    print("%s 64 %s" % (family, " ".join("%s=%d" % nv for nv in zip(names, chosen))))


if __name__ == "__main__":
    main()
