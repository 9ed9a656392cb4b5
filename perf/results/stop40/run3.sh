#!/bin/sh
# stop 40, H100 run 3: why the first device-AMG solve of square:80 p = 9 on a
# cold kernel cache ran past its time limit (runs 1 and 2).
set -u
mkdir -p $OUT/r; REAL=$OUT; OUT=$OUT/r
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export LD_LIBRARY_PATH=$PWD/.devbuild:$LD_LIBRARY_PATH:$PWD/.devbuild/lib
H=.devbuild/hdgcl
for i in 1 2; do
  rm -rf /tmp/hc3; export XDG_CACHE_HOME=/tmp/hc3
  start=$(date +%s)
  HDGCL_AMG_VERIFY=1 timeout 150 $H solve --device nvidia --mesh square:80 --order 9 --precond pmg --rtol 1e-12 --verbose --history --maxit 200 > $OUT/cold-$i.log 2>&1
  echo "cold $i rc=$? $(( $(date +%s) - start )) s: $(grep -E 'AMG|^solve' $OUT/cold-$i.log | tr '\n' ' ')"
  start=$(date +%s)
  timeout 100 $H solve --device nvidia --mesh square:80 --order 9 --precond pmg --rtol 1e-12 --warmup 1 --repeat 5 --maxit 200 > $OUT/warm-$i.log 2>&1
  echo "warm $i rc=$? $(( $(date +%s) - start )) s: $(grep -E '^solve|iteration  ' $OUT/warm-$i.log | tr -s ' ' | tr '\n' ' ')"
done
cd $REAL && tar czf run3.tgz r && rm -rf r
