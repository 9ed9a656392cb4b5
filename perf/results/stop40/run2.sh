#!/bin/sh
# stop 40, H100 run 2: device tests (GMRES against the host-Givens data,
# Burgers), the device AMG launch fix on 3D, and paper 001's Burgers grid.
set -u
mkdir -p $OUT/r; REAL=$OUT; OUT=$OUT/r
export XDG_CACHE_HOME=/tmp/hc OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export LD_LIBRARY_PATH=$PWD/.devbuild:$LD_LIBRARY_PATH:$PWD/.devbuild/lib
H=.devbuild/hdgcl
export HDGCL_DEVICE=nvidia HDGCL_TEST_DATA=$PWD/tests/data HDGCL_CLI=$PWD/$H
for t in test_gmres_device test_burgers; do
  timeout 100 .devbuild/tests/$t > $OUT/$t.log 2>&1
  echo "$t rc=$? $(tail -1 $OUT/$t.log)"
done
unset HDGCL_DEVICE
run() { tag=$1; shift
  timeout 100 $H solve --device nvidia --warmup 1 --repeat 5 "$@" --json $OUT/$tag.json > $OUT/$tag.log 2>&1
  echo "rc=$? $(grep -E '^solve|iteration  |  solve |    setup ' $OUT/$tag.log | tr -s ' ' | tr '\n' ' ') [$tag]"
}
for c in amg chebyshev; do
  run cube16p3-pmg-$c --mesh cube:16 --order 3 --precond pmg --rtol 1e-8 --pmg-coarse-solve $c
  run sq80p9-pmg-$c --mesh square:80 --order 9 --precond pmg --rtol 1e-12 --pmg-coarse-solve $c
done
HDGCL_AMG_VERIFY=1 $H solve --device nvidia --mesh cube:16 --order 3 --precond pmg --rtol 1e-8 --quiet 2>&1 | grep AMG
HDGCL=$H OUT=$OUT/burgers BUDGET=200 RUN_TIMEOUT=60 sh perf/paper001_burgers.sh nvidia > $OUT/burgers.log 2>&1
cat $OUT/burgers/table.md 2>/dev/null | head -40
cd $REAL && tar czf run2.tgz r && rm -rf r
