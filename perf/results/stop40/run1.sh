#!/bin/sh
# stop 40, H100 run 1: the device AMG coarse solve of p-multigrid (issue 31
# goal 2), GMRES without a host read per iteration and the pinned download
# (goal 3) against the build before (.devbuild/base = fc51c8a), and the new
# tests (Burgers, element batches, device GMRES) on the NVIDIA platform.
set -u
mkdir -p $OUT/r; REAL=$OUT; OUT=$OUT/r
export XDG_CACHE_HOME=/tmp/hc
NEW=.devbuild/hdgcl BASE=.devbuild/base/hdgcl
LIBNEW=$PWD/.devbuild LIBBASE=$PWD/.devbuild/base
# hypre, METIS and their dependencies are not installed there: carried, last in the path.
EXTRA=$PWD/.devbuild/lib
run() { # tag build args...
  tag=$1; b=$2; shift 2
  if [ $b = new ]; then H=$NEW L=$LIBNEW; else H=$BASE L=$LIBBASE; fi
  LD_LIBRARY_PATH=$L:$LD_LIBRARY_PATH:$EXTRA timeout 120 $H solve --device nvidia --warmup 1 --repeat 5 "$@" --json $OUT/$tag.json > $OUT/$tag.log 2>&1
  echo "rc=$? $(grep -E '^solve|iteration  |  solve |  download|newton ' $OUT/$tag.log | tr -s ' ' | tr '\n' ' ') [$tag]"
}
T=.devbuild/tests
export HDGCL_DEVICE=nvidia HDGCL_TEST_DATA=$PWD/tests/data
export HDGCL_CLI=$PWD/.devbuild/hdgcl OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for t in test_gmres_device; do
  [ -x $T/$t ] || continue
  LD_LIBRARY_PATH=$LIBNEW:$LD_LIBRARY_PATH:$EXTRA timeout 150 $T/$t > $OUT/$t.log 2>&1
  echo "$t rc=$? $(tail -1 $OUT/$t.log)"
done
unset HDGCL_DEVICE
for round in 1 2; do
  for c in amg amg-host chebyshev; do
    run sq80p9-pmg-$c-$round new --mesh square:80 --order 9 --precond pmg --rtol 1e-12 --pmg-coarse-solve $c
  done
  run sq80p9-pmg-base-$round base --mesh square:80 --order 9 --precond pmg --rtol 1e-12
  run sq80p9-bj-new-$round new --mesh square:80 --order 9 --rtol 1e-12
  run sq80p9-bj-base-$round base --mesh square:80 --order 9 --rtol 1e-12
done
HDGCL_PROFILE=1 LD_LIBRARY_PATH=$LIBNEW:$LD_LIBRARY_PATH:$EXTRA timeout 60 $NEW solve --device nvidia --mesh square:80 --order 9 --precond pmg --rtol 1e-12 --profile > $OUT/sq80p9-pmg-amg-profile.log 2>&1
for c in amg chebyshev; do
  run sq160p5-pmg-$c new --mesh square:160 --order 5 --precond pmg --rtol 1e-12 --pmg-coarse-solve $c
  run sq80p3-pmg-$c new --mesh square:80 --order 3 --precond pmg --rtol 1e-12 --pmg-coarse-solve $c
  run cube16p3-pmg-$c new --mesh cube:16 --order 3 --precond pmg --rtol 1e-8 --pmg-coarse-solve $c
done
run sq160p5-bj new --mesh square:160 --order 5 --rtol 1e-12
run cube16p3-bj new --mesh cube:16 --order 3 --rtol 1e-8
for b in base new; do
  run cd160p3-gmres-$b $b --problem convection-diffusion --mesh square:160 --order 3 --solver gmres --rtol 1e-10
  [ $b = new ] && HDGCL_GMRES_CHECK=1 run cd160p3-gmres-new-k1 new --problem convection-diffusion --mesh square:160 --order 3 --solver gmres --rtol 1e-10
  LD_LIBRARY_PATH=$([ $b = new ] && echo $LIBNEW || echo $LIBBASE):$LD_LIBRARY_PATH:$EXTRA timeout 120 \
    $([ $b = new ] && echo $NEW || echo $BASE) solve --device nvidia --problem nonlinear-diffusion --mesh square:80 --order 3 --warmup 1 --json $OUT/nl80p3-$b.json > $OUT/nl80p3-$b.log 2>&1
  echo "rc=$? $(grep -E '^solve|iteration  |  solve |newton ' $OUT/nl80p3-$b.log | tr -s ' ' | tr '\n' ' ') [nl80p3-$b]"
done
cd $REAL && tar czf run1.tgz r && rm -rf r
