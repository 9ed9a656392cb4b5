#!/bin/bash
# Stop 26, run 3: cube:8 p = 1-3 on PoCL (16 cores), the blocked Cholesky.
mkdir -p $OUT/r
export XDG_CACHE_HOME=/tmp/xc-tet8b
t0=$(date +%s)
timeout 320 build-gpu/hdgcl bench --device pocl --mesh cube:8 --orders 1-3 --json $OUT/r/bench-pocl-tet8.jsonl > $OUT/r/bench-pocl-tet8.log 2>&1
echo "rc $? after $(( $(date +%s) - t0 )) s" >> $OUT/r/bench-pocl-tet8.log
tail -n 3 $OUT/r/bench-pocl-tet8.log
