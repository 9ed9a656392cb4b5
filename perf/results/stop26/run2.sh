#!/bin/bash
# Stop 26, run 2: hdgcl bench on PoCL (16 cores) with the blocked Cholesky (cl/pipeline/cholesky_rows.h).
mkdir -p $OUT/r
B=build-gpu
bench() { # name timeout args...
  local name=$1 t=$2; shift 2
  export XDG_CACHE_HOME=/tmp/xc-$name
  local t0=$(date +%s)
  timeout $t $B/hdgcl bench --device pocl "$@" --json $OUT/r/$name.jsonl > $OUT/r/$name.log 2>&1
  echo "rc $? after $(( $(date +%s) - t0 )) s" >> $OUT/r/$name.log
  tail -n 1 $OUT/r/$name.log
}
bench bench-pocl-tri80p9 170 --mesh square:80 --orders 9
bench bench-pocl-tri80p8 130 --mesh square:80 --orders 8
bench bench-pocl-tri80p47 200 --mesh square:80 --orders 4-7
bench bench-pocl-tet8 80 --mesh cube:8 --orders 1-3
