#!/bin/sh
# Cold and warm start of hdgcl solve on the default device (docs/tuning.md, "Start-up").
#
#   perf/cold_start.sh OUTDIR [REPEATS]
#
# For each case below, REPEATS times (default 3): a cold run (XDG_CACHE_HOME a new empty
# directory, so both hdgcl's kernel cache and the driver's own, e.g. PoCL's kcache, start
# empty), then a warm run on the cache that run left. Each run records the seconds from the
# start to its first result (the summary's "errors" line on stdout) and to the process's
# exit (where hdgcl writes the kernel binaries to the cache). OUTDIR gets results.csv (every
# run), summary.txt (best of REPEATS per case and kind) and the --verbose log of each run.
# HDGCL=path/to/hdgcl picks another build (default build/hdgcl); HDGCL_DEVICE picks the device;
# CASES="default cube4_p2" runs only those cases; VERBOSE=0 leaves out --verbose (builds
# before stop 39 do not have it).
set -eu
out=${1:?usage: perf/cold_start.sh OUTDIR [REPEATS]}
repeats=${2:-3}
hdgcl=${HDGCL:-build/hdgcl}
mkdir -p "$out"
[ -x "$hdgcl" ] || { echo "cold_start.sh: no executable $hdgcl (set HDGCL)" >&2; exit 1; }

python3 - "$hdgcl" "$out" "$repeats" <<'EOF'
import os, shutil, subprocess, sys, tempfile, time

hdgcl, out, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
cases = [
    ("default", []),
    ("square40_p5", ["--mesh", "square:40", "--order", "5"]),
    ("cube4_p2", ["--mesh", "cube:4", "--order", "2"]),
]
if os.environ.get("CASES"):
    cases = [c for c in cases if c[0] in os.environ["CASES"].split()]

def run(args, cache, log):
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    t0 = time.monotonic()
    first = None
    with open(log, "w") as err:
        verbose = [] if os.environ.get("VERBOSE") == "0" else ["--verbose"]
        p = subprocess.Popen([hdgcl, "solve"] + verbose + args, stdout=subprocess.PIPE,
                             stderr=err, env=env, text=True)
        text = []
        for line in p.stdout:
            text.append(line)
            if first is None and line.startswith("errors"):
                first = time.monotonic() - t0
        rc = p.wait()
    total = time.monotonic() - t0
    with open(log, "a") as f:
        f.write("".join(text))
    if rc != 0:
        sys.exit("cold_start.sh: %s solve %s failed (exit %d), see %s" % (hdgcl, " ".join(args), rc, log))
    return first if first is not None else total, total

rows = []
for name, args in cases:
    for r in range(repeats):
        cache = tempfile.mkdtemp(prefix="hdgcl-cold-")
        try:
            for kind in ("cold", "warm"):
                log = os.path.join(out, "%s_%s_%d.log" % (name, kind, r))
                first, total = run(args, cache, log)
                rows.append((name, kind, r, first, total))
                print("%-12s %-4s run %d: first result %7.2f s, exit %7.2f s" % (name, kind, r, first, total), flush=True)
        finally:
            shutil.rmtree(cache, ignore_errors=True)

with open(os.path.join(out, "results.csv"), "w") as f:
    f.write("case,kind,run,first_result_s,exit_s\n")
    for row in rows:
        f.write("%s,%s,%d,%.3f,%.3f\n" % row)
device = subprocess.run([hdgcl, "devices"], capture_output=True, text=True).stdout
with open(os.path.join(out, "summary.txt"), "w") as f:
    f.write("hdgcl %s, best of %d\n%s\n" % (hdgcl, repeats, device))
    f.write("%-12s %-5s %16s %10s   command\n" % ("case", "kind", "first result [s]", "exit [s]"))
    for name, args in cases:
        for kind in ("cold", "warm"):
            sel = [row for row in rows if row[0] == name and row[1] == kind]
            f.write("%-12s %-5s %16.2f %10.2f   hdgcl solve %s\n" % (name, kind, min(s[3] for s in sel),
                                                                  min(s[4] for s in sel), " ".join(args)))
print(open(os.path.join(out, "summary.txt")).read())
EOF
