#!/bin/sh
# Issue 4's 3D benchmark: helmholtz-sin on the unit cube
# (u = sin(2 pi x) sin(2 pi y) sin(2 pi z), Dirichlet, tau = 1), tetrahedral
# (cube:N, 6 tets per cell) or hexahedral (hex:N) meshes, orders 1..5, CG with
# face block-Jacobi to 1e-12; one `hdgcl solve --json` object per line.
# PROBLEM (default helmholtz-sin) and TAU (default 1; empty: the problem's
# default) change the problem, e.g. PROBLEM=elasticity TAU= for paper 004's
# manufactured solution.
#
# For each order the mesh grows until a solve fails (the device memory check
# refuses the trace system up front, or the solve fails), until the next mesh
# is predicted (from the last run's time, scaled by the element count) to take
# longer than STEP_LIMIT seconds, or until DEADLINE (epoch seconds) passes, so
# the script fits in a time-limited session.  Small meshes (<= WARM_N) are
# timed as the median of 3 solves after a warm-up; larger ones as one solve
# after WARMUP_LARGE (default 0) warm-up solves.  Kernels are compiled before
# the timed solve in both cases, but PoCL also compiles each kernel again at
# its first launch, so PoCL runs need WARMUP_LARGE=1.
#
# usage: perf/cube3d.sh HDGCL DEVICE OUT.jsonl cube|hex ["MESHES"] ["ORDERS"]
#   e.g. perf/cube3d.sh build/hdgcl pocl /tmp/tet.jsonl cube "4 8" "1 2"
set -u
hdgcl=$1; device=$2; out=$3; kind=$4
meshes=${5:-"8 16 24 32 48 64"}; orders=${6:-"1 2 3 4 5"}
step_limit=${STEP_LIMIT:-120}; warm_n=${WARM_N:-16}; deadline=${DEADLINE:-0}
warmup_large=${WARMUP_LARGE:-0}
tau=${TAU-1}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
: > "$out.partial"
for p in $orders; do
  last_n=0; last_s=0
  for n in $meshes; do
    now=$(date +%s)
    if [ "$deadline" -gt 0 ] && [ "$now" -ge "$deadline" ]; then
      echo "$kind:$n p=$p skipped: deadline passed"; break
    fi
    if [ "$last_n" -gt 0 ]; then
      # predicted seconds of this run: last run scaled by the element ratio
      predicted=$(python3 -c "import math; print(math.ceil($last_s * ($n / $last_n) ** 3))")
      if [ "$predicted" -gt "$step_limit" ]; then
        echo "$kind:$n p=$p skipped: predicted ${predicted} s > STEP_LIMIT ${step_limit} s"; break
      fi
      if [ "$deadline" -gt 0 ] && [ $((now + predicted)) -gt "$deadline" ]; then
        echo "$kind:$n p=$p skipped: would pass the deadline"; break
      fi
    fi
    if [ "$n" -le "$warm_n" ]; then rep="--warmup 1 --repeat 3"; else rep="--warmup $warmup_large --repeat 1"; fi
    # shellcheck disable=SC2086
    if ! "$hdgcl" solve --problem "${PROBLEM:-helmholtz-sin}" --mesh "$kind:$n" --order "$p" ${tau:+--tau "$tau"} \
         --device "$device" $rep --json "$tmp/run.json" --quiet 2> "$tmp/err"; then
      echo "$kind:$n p=$p failed: $(tail -1 "$tmp/err")"; break
    fi
    python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))))' "$tmp/run.json" >> "$out.partial"
    last_n=$n
    # four solves (warm-up and 3 repeats; an upper bound for the large meshes); kernel
    # compilation (setup_seconds) happens once per order and is then cached, so it is
    # left out of the prediction
    last_s=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(4 * d["total_seconds"])' "$tmp/run.json")
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%-8s p=%d  trace DOFs %10d  total %10.1f ms  iterations %5d  L2(u) %.3e  memory %.0f MiB" % (d["mesh"], d["order"], d["trace_dofs"], 1e3*d["total_seconds"], d["iterations"], d["errors"]["l2_u"], d["memory_high_water_bytes"] / 2**20))' "$tmp/run.json"
  done
done
mv "$out.partial" "$out"
