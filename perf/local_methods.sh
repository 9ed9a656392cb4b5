#!/bin/sh
# The local stage's methods, each forced in turn, against the timed trials'
# pick (the architecture issue: keep only the methods that win somewhere).
# For each case (problem, mesh, order p):
#   tuned         HDGCL_LOCAL_INVERT/SCHUR/ELEMENT=tuned on an empty cache
#                 directory, so that every trial runs (its candidates' trial
#                 times, from --verbose, go into the line's "trials");
#   cached        the same again on the records the trial stored (the pick's
#                 run-to-run noise: compare it with "tuned");
#   invert:X      HDGCL_LOCAL_INVERT=X for every method and work-group size or
#                 grid the trial can pick (those it printed too), K's method
#                 from the trial's record, HDGCL_LOCAL_ELEMENT=off;
#   schur:X       HDGCL_LOCAL_SCHUR=X (local-schur, gemm), Z's method
#                 from the record, HDGCL_LOCAL_ELEMENT=off;
#   element:X     HDGCL_LOCAL_ELEMENT=X (off, on:1, on:16 and each
#                 local_element_tiled shape G:E), the split methods from the
#                 records where X is off.
# Each run is `hdgcl solve --warmup W --repeat R --json` (the local stage's
# time is the median over the R warm solves) and becomes one JSON line in
# OUT/local_methods-TAG.jsonl with the case, the forced variable and value,
# the local stage's seconds and what the JSON reports of the methods that ran
# (local_invert, _wg, _source, local_schur, local_element_wg, _grid, ...).
# A value the CLI refuses (cholesky for a nonsymmetric or vector problem, a
# one-kernel stage on quadrilaterals, a tile that does not fit, ...) is
# recorded with "status": "skipped" and the CLI's message; other failures as
# "error".  Tabulate with perf/local_methods_table.py.
#
# usage: perf/local_methods.sh [BUILD_DIR] [OUT_DIR]
#   BUILD_DIR  holds hdgcl (default $BUILD, else build)
#   OUT_DIR    default $OUT, else perf/out
# Environment:
#   DEVICE       --device (default: hdgcl's own default, auto / $HDGCL_DEVICE)
#   TAG          output file tag (default: DEVICE, else "default")
#   PRESET       small (default; PoCL on 2 cores, a few minutes) | h100 (meshes
#                where the local stage takes >= 1 ms on the H100)
#   CASES        instead of the preset: case lines "GROUP PROBLEM MESH ORDERS"
#                separated by ';' (ORDERS: "1-4" or "1,3,5")
#   GROUP        only the case lines of these groups (e.g. "tri tet"; the
#                presets use tri quad tet hex cd el)
#   ORDERS       only these orders (e.g. "1 2 3")
#   ONLY         only these runs (e.g. "tuned cached invert schur element")
#   WARMUP, REPEAT   solves per run (default 1 and 3)
#   SOLVE_OPTS   more hdgcl solve options (default "--rtol 1e-4": the local
#                stage does not depend on the Krylov iterations)
#   RUN_TIMEOUT  seconds one run may take (default 600)
#   DEADLINE     epoch seconds after which no new run starts (or DEADLINE_S,
#                seconds from the start)
# Resumable: a run already in the JSONL file (same device tag, problem, mesh,
# p, forced value) is skipped; delete the file to start again.
set -u
build=${1:-${BUILD:-build}}
out=${2:-${OUT:-perf/out}}
hdgcl=$build/hdgcl
[ -x "$hdgcl" ] || { echo "local_methods.sh: no $hdgcl (build first)" >&2; exit 1; }
mkdir -p "$out"
device=${DEVICE:-}
tag=${TAG:-${device:-default}}
jsonl=$out/local_methods-$tag.jsonl
touch "$jsonl"
warmup=${WARMUP:-1}
repeat=${REPEAT:-3}
solve_opts=${SOLVE_OPTS:---rtol 1e-4}
only=${ONLY:-tuned cached invert schur element}
[ -n "${DEADLINE_S:-}" ] && DEADLINE=$(( $(date +%s) + DEADLINE_S ))
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

case ${PRESET:-small} in
small) preset="tri helmholtz-sin square:32 1-3; quad helmholtz-sin quad:16 1-2;
  tet helmholtz-sin cube:4 1-2; hex helmholtz-sin hex:4 1-2;
  cd convection-diffusion square:16 1-2; el elasticity cube:3 1-2" ;;
# On the H100 (perf/results: square:320 p = 1 0.29 ms, p = 3 0.97 ms, p = 5 2.6 ms;
# cube:16 p = 3 0.76 ms, p = 4 2.3 ms; hex:16 p = 1 0.33 ms, p = 2 2.3 ms).
h100) preset="tri helmholtz-sin square:640 1-4; tri helmholtz-sin square:320 5-9;
  quad helmholtz-sin quad:640 1-3; quad helmholtz-sin quad:320 4-8;
  tet helmholtz-sin cube:32 1-3; tet helmholtz-sin cube:16 4-6;
  hex helmholtz-sin hex:32 1; hex helmholtz-sin hex:16 2-4;
  cd convection-diffusion square:320 1-6; el elasticity cube:16 1-4" ;;
*) echo "local_methods.sh: PRESET=${PRESET}: expected small or h100" >&2; exit 1 ;;
esac
cases=${CASES:-$preset}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The JSON side: recording a run, listing the forced values, checking what is done.
cat > "$tmp/lm.py" <<'EOF'
import json, re, sys

def orders(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out

def done(path, key):
    for line in open(path):
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if [d.get(k) for k in ("tag", "problem", "mesh", "order", "forced")] == key:
            return True
    return False

TRIAL = re.compile(r"hdgcl: (local_invert|local_schur|local_element) trial (\S+) on (\d+) elements: "
                   r"([0-9.]+) ms")

def pick_label(d):
    """The methods that ran, as one label: element:on:WG, element:tiled:G:E or
    invert:NAME:WG+schur:NAME."""
    if str(d.get("local_invert", "")).startswith("local-element"):
        wg, g = d.get("local_element_wg", 0), d.get("local_element_grid", 0)
        return "element:tiled:%d:%d" % (g, wg // (g * g)) if g else "element:on:%d" % wg
    return "invert:%s:%s+schur:%s" % (d.get("local_invert"), d.get("local_invert_wg"),
                                      d.get("local_schur"))

def record(argv):
    (path, tag, problem, mesh, order, forced, env, rc, json_path, err_path, commit,
     warmup, repeat) = argv
    line = {"tag": tag, "problem": problem, "mesh": mesh, "order": int(order), "forced": forced,
            "var": forced.split(":")[0], "value": forced.partition(":")[2], "env": env,
            "commit": commit, "warmup": int(warmup), "repeat": int(repeat)}
    err = open(err_path, errors="replace").read()
    if int(rc) == 0:
        d = json.load(open(json_path))
        local = next(s for s in d["stages"] if s["name"] == "local")
        line.update(status="ok", local_seconds=local["seconds"], local_gflops=local["gflops"],
                    device=d["device"]["name"], device_type=d["device"]["type"],
                    element_type=d["element_type"], elements=d["elements"],
                    chunks=d.get("chunks"), total_seconds=d.get("total_seconds"),
                    iterations=d.get("iterations"), pick=pick_label(d))
        for k, v in d.items():
            if k.startswith("local_"):
                line[k] = v
        trials = [{"stage": m.group(1), "candidate": m.group(2), "elements": int(m.group(3)),
                   "ms": float(m.group(4))} for m in TRIAL.finditer(err)]
        if trials:
            line["trials"] = trials
    else:
        msg = " ".join(l.strip() for l in err.splitlines() if l.strip() and not l.startswith("hdgcl: "))
        msg = msg or err.strip()
        refused = re.search(r"HDGCL_LOCAL_(INVERT|SCHUR|ELEMENT)=", msg) is not None
        line.update(status="skipped" if refused else "error", rc=int(rc), reason=msg[-400:])
    with open(path, "a") as f:
        f.write(json.dumps(line) + "\n")
    if line["status"] == "ok":
        print("%-22s %-12s p=%d %-34s local %9.3f ms  %s" % (problem, mesh, int(order), forced,
              1e3 * line["local_seconds"], line["pick"]), flush=True)
    else:
        print("%-22s %-12s p=%d %-34s %s: %s" % (problem, mesh, int(order), forced, line["status"],
              line["reason"][:150]), flush=True)

def invert_values(path, key):
    """Every HDGCL_LOCAL_INVERT value: the methods at their defaults, the
    fixed sizes the trial tries, and whatever else the tuned run's trial timed
    (Gauss-Jordan at 1x, 2x and 4x its default work-group)."""
    vals = ["cholesky", "gauss-jordan"]
    vals += ["gauss-jordan-tiled:%d" % (g * g) for g in (8, 11, 16)]
    vals += ["gauss-jordan-solve:%d" % (g * g) for g in (8, 11, 16)]
    vals += ["cholesky-columns:64", "cholesky-columns:128", "cholesky-solve:1", "cholesky-solve:16"]
    for line in open(path):
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if [d.get(k) for k in ("tag", "problem", "mesh", "order")] != key[:4]:
            continue
        for t in d.get("trials", []):
            if t["stage"] == "local_invert" and t["candidate"] not in vals:
                vals.append(t["candidate"])
    for bare in ("cholesky", "gauss-jordan"):  # at the default size the trial's list has
        if any(v.startswith(bare + ":") for v in vals):
            vals.remove(bare)
    print(" ".join(vals))

if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "orders":
        print(" ".join(map(str, orders(sys.argv[2]))))
    elif cmd == "done":
        a = sys.argv[2:]
        sys.exit(0 if done(a[0], [a[1], a[2], a[3], int(a[4]), a[5]]) else 1)
    elif cmd == "record":
        record(sys.argv[2:])
    elif cmd == "invert-values":
        a = sys.argv[2:]
        invert_values(a[0], [a[1], a[2], a[3], int(a[4])])
EOF

past_deadline() {
  [ -n "${DEADLINE:-}" ] && [ "$(date +%s)" -ge "$DEADLINE" ]
}

# run PROBLEM MESH P FORCED CACHE INVERT SCHUR ELEMENT [--verbose]
run() {
  problem=$1 mesh=$2 p=$3 forced=$4 cache=$5 inv=$6 sch=$7 ele=$8 verbose=${9:-}
  python3 "$tmp/lm.py" done "$jsonl" "$tag" "$problem" "$mesh" "$p" "$forced" && return 0
  if past_deadline; then
    echo "local_methods.sh: deadline reached before $problem $mesh p=$p $forced" >&2
    exit 0
  fi
  rm -f "$tmp/run.json"
  HDGCL_LOCAL_INVERT=$inv HDGCL_LOCAL_SCHUR=$sch HDGCL_LOCAL_ELEMENT=$ele \
    timeout "${RUN_TIMEOUT:-600}" "$hdgcl" solve --problem "$problem" --mesh "$mesh" --order "$p" \
    ${device:+--device "$device"} --cache-dir "$cache" --warmup "$warmup" --repeat "$repeat" \
    $solve_opts --json "$tmp/run.json" --quiet $verbose > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -eq 124 ] && echo "timed out after ${RUN_TIMEOUT:-600} s (RUN_TIMEOUT)" >> "$tmp/err"
  python3 "$tmp/lm.py" record "$jsonl" "$tag" "$problem" "$mesh" "$p" "$forced" \
    "INVERT=$inv SCHUR=$sch ELEMENT=$ele" "$rc" "$tmp/run.json" "$tmp/err" "$commit" "$warmup" "$repeat"
}

wants() { case " $only " in *" $1 "*) return 0 ;; esac; return 1; }

echo "$cases" | tr ';' '\n' | while read -r group problem mesh range; do
  [ -n "$group" ] || continue
  if [ -n "${GROUP:-}" ]; then
    case " $GROUP " in *" $group "*) ;; *) continue ;; esac
  fi
  for p in $(python3 "$tmp/lm.py" orders "$range"); do
    if [ -n "${ORDERS:-}" ]; then
      case " $ORDERS " in *" $p "*) ;; *) continue ;; esac
    fi
    cache=$out/cache-$tag/$(echo "$problem-$mesh-p$p" | tr -c 'A-Za-z0-9.\n-' '_')
    # A fresh cache for the trial: binaries and records from nothing.
    if wants tuned && ! python3 "$tmp/lm.py" done "$jsonl" "$tag" "$problem" "$mesh" "$p" tuned; then
      rm -rf "$cache"
      run "$problem" "$mesh" "$p" tuned "$cache" tuned tuned tuned --verbose
    fi
    wants cached && run "$problem" "$mesh" "$p" cached "$cache" tuned tuned tuned
    if wants invert; then
      for v in $(python3 "$tmp/lm.py" invert-values "$jsonl" "$tag" "$problem" "$mesh" "$p"); do
        run "$problem" "$mesh" "$p" "invert:$v" "$cache" "$v" tuned off
      done
    fi
    if wants schur; then
      for v in local-schur gemm; do
        run "$problem" "$mesh" "$p" "schur:$v" "$cache" tuned "$v" off
      done
    fi
    if wants element; then
      for v in off on:1 on:16 tiled:8:1 tiled:4:4 tiled:8:2 tiled:11:1 tiled:16:1; do
        run "$problem" "$mesh" "$p" "element:$v" "$cache" tuned tuned "$v"
      done
    fi
  done
done
echo "local_methods.sh: $jsonl ($(wc -l < "$jsonl") lines); tabulate with" \
  "python3 perf/local_methods_table.py $jsonl"
