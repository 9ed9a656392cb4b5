#!/bin/sh
# Paper 000's benchmark (helmholtz-sin on the unit square, tau = 1): meshes
# 20x20, 40x40, 80x80 and orders 1..9, on one device; one JSON object per line
# (the output of `hdgcl solve --json`, stage times the median of 3 solves after
# one warm-up solve, so kernel compilation and first-launch JIT are excluded).
#
# usage: perf/paper000.sh HDGCL DEVICE OUT.jsonl ["MESHES"] ["ORDERS"] [extra options...]
#   e.g. perf/paper000.sh build/hdgcl pocl perf/results/paper000-pocl.jsonl "20 40" "1 2 3"
set -eu
hdgcl=$1; device=$2; out=$3
meshes=${4:-"20 40 80"}; orders=${5:-"1 2 3 4 5 6 7 8 9"}
shift 3; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
: > "$out.partial"
for n in $meshes; do
  for p in $orders; do
    "$hdgcl" solve --problem helmholtz-sin --mesh "square:$n" --order "$p" --tau 1 \
      --device "$device" --warmup 1 --repeat 3 --json "$tmp/run.json" --quiet "$@"
    python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))))' "$tmp/run.json" >> "$out.partial"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%-10s p=%d  total %8.2f ms  iterations %4d  L2(u) %.3e" % (d["mesh"], d["order"], 1e3*d["total_seconds"], d["iterations"], d["errors"]["l2_u"]))' "$tmp/run.json"
  done
done
mv "$out.partial" "$out"
