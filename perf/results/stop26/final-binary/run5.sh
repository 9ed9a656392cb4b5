#!/bin/bash
# Stop 26, run 5: the final binary on PoCL (16 cores): the CPU forms' tests and square:80 p = 9.
mkdir -p $OUT/r
export XDG_CACHE_HOME=/tmp/xc-run5 HDGCL_DEVICE=pocl
git_rev=$(cat build-gpu/REV 2>/dev/null)
t0=$(date +%s)
timeout 60 build-gpu/hdgcl solve --device pocl --mesh square:80 --order 9 > $OUT/r/solve-pocl-p9.txt 2>&1
echo "rc $? after $(( $(date +%s) - t0 )) s" >> $OUT/r/solve-pocl-p9.txt
cd build-gpu
for t in test_local_element:200 test_local_invert:150; do
  n=${t%%:*}; l=${t#*:}; t0=$(date +%s)
  timeout $l ./tests/$n > $OUT/r/$n-pocl.txt 2>&1
  echo "rc $? after $(( $(date +%s) - t0 )) s" | tee -a $OUT/r/$n-pocl.txt
done
