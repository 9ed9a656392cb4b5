#!/bin/bash
# Stop 26, run 1: local_element variants on PoCL (16 cores), square:80 p = 9, then bench p = 4-9.
mkdir -p $OUT/r
export XDG_CACHE_HOME=/tmp/xc-run1
B=build-gpu
lscpu > $OUT/r/lscpu.txt 2>&1
clinfo -l > $OUT/r/clinfo.txt 2>&1
# compile every variant once (warm the cache)
for v in base new z4 zrow; do
  HDGCL_KERNEL_DIR=$B/var/$v HDGCL_LOCAL_ELEMENT=on $B/hdgcl solve --device pocl --mesh square:80 --order 9 --maxit 3 > /dev/null 2>&1
done
for rep in 1 2 3 4 5; do
  for v in base new z4 zrow; do
    t=$(HDGCL_KERNEL_DIR=$B/var/$v HDGCL_LOCAL_ELEMENT=on HDGCL_PROFILE=1 $B/hdgcl solve --device pocl --mesh square:80 --order 9 --maxit 3 2>&1 | awk '/^  local_element /{print $4}')
    echo "$v $rep $t" | tee -a $OUT/r/variants-p9.txt
  done
done
# errors of the full solve with the new kernels
HDGCL_KERNEL_DIR=$B/var/new $B/hdgcl solve --device pocl --mesh square:80 --order 9 > $OUT/r/solve-new-p9.txt 2>&1
HDGCL_KERNEL_DIR=$B/var/base $B/hdgcl solve --device pocl --mesh square:80 --order 9 > $OUT/r/solve-base-p9.txt 2>&1
(cd $B && export HDGCL_DEVICE=pocl && ./tests/test_local_element > $OUT/r/test_local_element.txt 2>&1; echo "rc $?" >> $OUT/r/test_local_element.txt
 ./tests/test_local_invert > $OUT/r/test_local_invert.txt 2>&1; echo "rc $?" >> $OUT/r/test_local_invert.txt)
