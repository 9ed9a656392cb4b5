#!/bin/sh
# issue 31 probe: cuSPARSE timing fix and pmg profile (stop 39)
set -u
mkdir -p $OUT/r; REAL=$OUT; OUT=$OUT/r
B=.devbuild
export XDG_CACHE_HOME=/tmp/hc
H=$B/hdgcl
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
python3 -c "import cupy; print(cupy.__version__)" >> $OUT/gpu.txt 2>&1
$H solve --mesh square:160 --order 7 --device nvidia --quiet --export-matrix /tmp/tri160p7 --json $OUT/compare-tri160p7-hdgcl.json > $OUT/export.log 2>&1
python3 perf/cupy_compare.py /tmp/tri160p7 --gemm 36,25,36,51200 --gemm 25,25,36,51200 --json $OUT/compare-tri160p7.json > $OUT/cupy160.log 2>&1
rm -f /tmp/tri160p7*
: skip bench
$H solve --mesh square:80 --order 9 --device nvidia --quiet --export-matrix /tmp/tri80p9 --json $OUT/compare-tri80p9-hdgcl.json >> $OUT/export.log 2>&1
python3 perf/cupy_compare.py /tmp/tri80p9 --gemm 55,31,55,12800 --gemm 31,31,55,12800 --json $OUT/compare-tri80p9.json > $OUT/cupy80.log 2>&1
rm -f /tmp/tri80p9*
for pc in block-jacobi pmg chebyshev; do
  $H solve --mesh square:80 --order 9 --device nvidia --precond $pc --rtol 1e-12 --warmup 1 --repeat 3 --profile --json $OUT/sq80p9-$pc.json > $OUT/sq80p9-$pc.log 2>&1
done
$H solve --mesh square:80 --order 9 --device nvidia --precond pmg --rtol 1e-12 --pmg-smooth 2 --json $OUT/sq80p9-pmg-s2.json > $OUT/sq80p9-pmg-s2.log 2>&1
cd $REAL && tar czf probe.tgz r && rm -rf r
