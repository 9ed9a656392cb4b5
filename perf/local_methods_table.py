#!/usr/bin/env python3
"""Tabulates perf/local_methods.sh output (JSON lines) as Markdown: which
method of the local stage wins where, and by how much.

Per device, three tables, one per variable the script forced:
  Z = S^-1 [W | F]   HDGCL_LOCAL_INVERT (K by the trial's pick, one kernel off)
  K                  HDGCL_LOCAL_SCHUR (Z by the trial's pick, one kernel off)
  one kernel         HDGCL_LOCAL_ELEMENT (off: the split kernels with the trials' picks)
Rows are (problem, element type, p, mesh); a column per method, the local
stage's time in ms (the median of the script's warm solves) of its fastest
work-group size, grid or shape (that variant in brackets where the method has
several); then the trial's pick for that variable, the fastest method, the
margin of the fastest over the second-best method (%) and the case's noise:
the largest relative spread (%) among runs that ran the same kernels (`tuned`,
`cached` and the forced value equal to the trial's pick, or `element:off`
where the split kernels won).  "skip" marks a value the CLI refused (not applicable), "err" a
failed run.

Then a summary per variable: each method, the cases where it is fastest by
more than the noise threshold (--noise, default 5%, or the case's measured
noise where larger), the cases where it is fastest by less (a tie), and the
methods that are never fastest; and within each method, the variants (sizes,
grids, shapes) that are never its fastest.

usage: python3 perf/local_methods_table.py [--noise PCT] [--no-measured-noise] RESULTS.jsonl [...]
"""
import argparse
import json
import statistics
import sys
from collections import OrderedDict, defaultdict

AXES = [("invert", "Z = S^-1 [W | F] (HDGCL_LOCAL_INVERT)"),
        ("schur", "K = K0 - [W | F]^T Z (HDGCL_LOCAL_SCHUR)"),
        ("element", "one kernel for the stage (HDGCL_LOCAL_ELEMENT; off = split kernels, trials' picks)")]
# The methods in the order the code lists them (others follow as found).
ORDER = {"invert": ["cholesky", "gauss-jordan", "gauss-jordan-tiled", "gauss-jordan-solve",
                    "cholesky-columns", "cholesky-solve"],
         "schur": ["local-schur", "gemm", "element"],  # element: removed at stop 36
         "element": ["off", "on", "tiled"]}
TYPES = {"triangle": "tri", "quadrilateral": "quad", "tetrahedron": "tet", "hexahedron": "hex"}


def method_variant(line):
    """(method, variant) of a forced run: for Z the kernel and work-group
    size that ran (the JSON's), for K the kernel, for the one kernel off /
    on:WG / tiled:G:E."""
    var, value = line["var"], line["value"]
    if var == "invert":
        if line.get("status") == "ok":
            return line["local_invert"], "%s:%s" % (line["local_invert"], line["local_invert_wg"])
        return value.split(":")[0], value
    if var == "schur":
        return value, value
    return value.split(":")[0], value


def pick(line, var):
    """The trial's pick for variable var as a run's JSON shows it."""
    if line is None or line.get("status") != "ok":
        return None
    one = str(line.get("local_invert", "")).startswith("local-element")
    if var == "element":
        return line["pick"].split(":", 1)[1] if one else "off"
    if one:
        return None
    if var == "invert":
        return "%s:%s" % (line["local_invert"], line["local_invert_wg"])
    return line["local_schur"]


def fmt_ms(t):
    return "%.3f" % (1e3 * t) if t < 0.1 else "%.1f" % (1e3 * t)


def load(paths):
    lines = []
    for path in paths:
        for text in open(path):
            text = text.strip()
            if text:
                try:
                    lines.append(json.loads(text))
                except ValueError:
                    print("%s: skipped a line that is not JSON" % path, file=sys.stderr)
    # skipped runs name no device: take their tag's
    device_of = {l["tag"]: l["device"] for l in lines if l.get("device")}
    for l in lines:
        l.setdefault("device", device_of.get(l["tag"], l["tag"]))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--noise", type=float, default=5.0,
                    help="margin (%%) below which the fastest method only ties (default 5)")
    ap.add_argument("--no-measured-noise", action="store_true",
                    help="use --noise alone, not the case's measured noise where larger")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    lines = load(args.files)
    devices = list(OrderedDict.fromkeys(l["device"] for l in lines))
    for dev in devices:
        mine = [l for l in lines if l["device"] == dev]
        cases = list(OrderedDict.fromkeys(
            (l["problem"], l.get("element_type") or "", l["order"], l["mesh"]) for l in mine))
        # element types of skipped-only cases: from other lines of the same mesh
        etype = {(l["problem"], l["mesh"]): l["element_type"] for l in mine if l.get("element_type")}
        cases = list(OrderedDict.fromkeys((c[0], etype.get((c[0], c[3]), c[1]), c[2], c[3])
                                          for c in cases))
        order_key = lambda c: (c[0], list(TYPES).index(c[1]) if c[1] in TYPES else 9, c[3], c[2])
        cases.sort(key=order_key)
        by_case = defaultdict(list)
        for l in mine:
            by_case[(l["problem"], etype.get((l["problem"], l["mesh"]), l.get("element_type") or ""),
                     l["order"], l["mesh"])].append(l)

        def run_of(case, forced):
            ok = [l for l in by_case[case] if l["forced"] == forced and l.get("status") == "ok"]
            return ok[0] if ok else None

        # noise: runs of one case that ran the same kernels (tuned, cached,
        # the forced value the trial picked, element:off where the split
        # kernels won) differ by the run-to-run noise alone: its largest spread
        noise = {}
        for c in cases:
            same = defaultdict(list)
            for l in by_case[c]:
                if l.get("status") == "ok":
                    same[l["pick"]].append(l["local_seconds"])
            spreads = [100.0 * (max(ts) - min(ts)) / min(ts) for ts in same.values() if len(ts) > 1]
            noise[c] = max(spreads) if spreads else None

        print("## %s\n" % dev)
        print("Local stage time in ms (median of the warm solves); margin: the fastest method "
              "over the second; noise: the largest spread of the runs that ran the same kernels "
              "(`tuned`, `cached`, the forced value the trial picked).\n")
        summary = {}
        for var, title in AXES:
            # times[case][method] = (seconds, variant); status marks
            times, marks, variants = {}, {}, defaultdict(lambda: defaultdict(list))
            methods = list(ORDER[var])
            for c in cases:
                times[c], marks[c] = {}, {}
                for l in by_case[c]:
                    if l.get("var") != var:
                        continue
                    m, v = method_variant(l)
                    if m not in methods:
                        methods.append(m)
                    if l.get("status") != "ok":
                        marks[c].setdefault(m, "skip" if l.get("status") == "skipped" else "err")
                        continue
                    variants[c][(m, v)].append(l["local_seconds"])
                for (m, v), ts in variants[c].items():
                    t = statistics.median(ts)
                    if m not in times[c] or t < times[c][m][0]:
                        times[c][m] = (t, v)
            used = [m for m in methods if any(m in times[c] or m in marks[c] for c in cases)]
            rows = [c for c in cases if times[c] or marks[c]]
            if not rows:
                continue
            multi = {m for m in used if len({v for c in rows for (mm, v) in variants[c] if mm == m}) > 1}
            print("### %s\n" % title)
            head = ["problem", "type", "p", "mesh"] + used + ["trial's pick", "fastest", "margin %", "noise %"]
            print("| " + " | ".join(head) + " |")
            print("|" + "---|" * len(head))
            wins = defaultdict(lambda: {"win": [], "tie": []})
            vwins = defaultdict(set)
            for c in rows:
                cells = [c[0], TYPES.get(c[1], c[1]), str(c[2]), c[3]]
                for m in used:
                    if m in times[c]:
                        t, v = times[c][m]
                        cells.append(fmt_ms(t) + (" (%s)" % v[len(m) + 1:] if m in multi and v != m else ""))
                    else:
                        cells.append(marks[c].get(m, ""))
                trial = pick(run_of(c, "element:off") if var != "element" else None, var) \
                    or pick(run_of(c, "tuned"), var) or ""
                ranked = sorted((t, m, v) for m, (t, v) in times[c].items())
                fastest = margin = ""
                if ranked:
                    fastest = ranked[0][2]
                    label = "%s %s" % (TYPES.get(c[1], c[1]), "p=%d" % c[2])
                    if c[0] != "helmholtz-sin":
                        label = "%s %s" % (c[0], label)
                    if len(ranked) > 1:
                        mg = 100.0 * (ranked[1][0] - ranked[0][0]) / ranked[0][0]
                        margin = "%.0f" % mg
                        thr = args.noise
                        if not args.no_measured_noise and noise[c] is not None:
                            thr = max(thr, noise[c])
                        wins[ranked[0][1]]["win" if mg > thr else "tie"].append(label)
                    else:
                        wins[ranked[0][1]]["win"].append(label + " (alone)")
                    # the fastest variant within each method with several
                    for m in multi:
                        vs = sorted((statistics.median(ts), v) for (mm, v), ts in variants[c].items() if mm == m)
                        if vs:
                            vwins[m].add(vs[0][1])
                if trial and ranked and trial.split(":")[0] != ranked[0][1] and \
                        not (var == "element" and trial == "off" and ranked[0][1] == "off"):
                    trial += " (not fastest)"
                cells += [trial, fastest, margin, "%.0f" % noise[c] if noise[c] is not None else ""]
                print("| " + " | ".join(cells) + " |")
            print()
            allv = defaultdict(set)
            for c in rows:
                for (m, v) in variants[c]:
                    allv[m].add(v)
            summary[var] = (used, wins, vwins, allv)
        print("### Summary (%s)\n" % dev)
        thr_text = "%.0f%%" % args.noise + ("" if args.no_measured_noise else " or the case's measured noise")
        for var, title in AXES:
            if var not in summary:
                continue
            used, wins, vwins, allv = summary[var]
            print("%s, wins by more than %s:\n" % (title, thr_text))
            never = []
            for m in used:
                w = wins[m]
                if not w["win"] and not w["tie"]:
                    never.append(m)
                    continue
                text = "- `%s`: wins %s" % (m, ", ".join(w["win"]) if w["win"] else "nowhere")
                if w["tie"]:
                    text += "; ties (fastest within the noise) %s" % ", ".join(w["tie"])
                print(text)
            only_ties = [m for m in used if not wins[m]["win"] and wins[m]["tie"]]
            print("- never fastest: %s" % (", ".join("`%s`" % m for m in never) or "none"))
            print("- fastest only within the noise: %s" % (", ".join("`%s`" % m for m in only_ties) or "none"))
            dead = ["`%s`" % v for m in sorted(allv) if len(allv[m]) > 1
                    for v in sorted(allv[m] - vwins[m])]
            print("- variants never the fastest of their method: %s\n" % (", ".join(dead) or "none"))


if __name__ == "__main__":
    main()
