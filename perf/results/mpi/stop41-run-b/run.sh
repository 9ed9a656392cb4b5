#!/bin/sh
# stop 41, GPU run B (same machine, right after A): weak scaling at about
# 25 M (2D) and 21 M (3D) trace DOFs per GPU on 1, 2, 4 GPUs (--rtol 1e-8,
# no warm-up: the solve's ms per iteration is the figure), then the serial
# solver before (.devbuild/base = cd33dea) and after krylov_launch's groups
# of 128, on one GPU.
set -u
export XDG_CACHE_HOME=/tmp/hc OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
H=.devbuild/hdgcl W=/tmp/wb
mkdir -p $W/weak $W/serial
weak() { # label mesh order ranks
  timeout 150 mpirun -np $4 $H solve --mesh $2 --order $3 --device nvidia --precond block-jacobi \
    --rtol 1e-8 --maxit 40000 --json $W/weak/$1-np$4.json > $W/weak/$1-np$4.log 2>&1
  echo "weak $1 $2 np$4 rc=$? $(grep -E '^(DOFs|solve|distributed)|iteration ' $W/weak/$1-np$4.log | tr -s ' ' | tr '\n' ' ')"
}
weak 2d square:1180 5 1; weak 2d square:1670 5 2; weak 2d square:2360 5 4
weak 3d cube:56 3 1; weak 3d cube:70 3 2; weak 3d cube:89 3 4
EXTRA=$LD_LIBRARY_PATH
run() { # tag build args...
  tag=$1; b=$2; shift 2
  if [ $b = new ]; then L=$PWD/.devbuild X=$H; else L=$PWD/.devbuild/base X=.devbuild/base/hdgcl; fi
  LD_LIBRARY_PATH=$L:$EXTRA timeout 100 $X solve --device nvidia --warmup 1 --repeat 3 "$@" --json $W/serial/$tag.json > $W/serial/$tag.log 2>&1
  echo "rc=$? $(grep -E '^solve|iteration  |  solve |  total' $W/serial/$tag.log | tr -s ' ' | tr '\n' ' ') [$tag]"
}
for round in 1 2; do
  for b in base new; do
    run sq80p9-bj-$b-$round $b --mesh square:80 --order 9 --rtol 1e-12
    run cube40p3-bj-$b-$round $b --mesh cube:40 --order 3 --rtol 1e-10
    run hex16p3-bj-$b-$round $b --mesh hex:16 --order 3 --rtol 1e-10
    run sq80p9-pmg-$b-$round $b --mesh square:80 --order 9 --precond pmg --rtol 1e-12
    run cd160p3-gmres-$b-$round $b --problem convection-diffusion --mesh square:160 --order 3 --rtol 1e-10
  done
done
tar czf $OUT/mpi_b.tgz -C /tmp wb
