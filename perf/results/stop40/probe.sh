#!/bin/sh
# stop 40 probe: what the GPU machine has for MPI/hypre, and where a pmg cycle's time goes
set -u
mkdir -p $OUT/r; REAL=$OUT; OUT=$OUT/r
export XDG_CACHE_HOME=/tmp/hc
H=.devbuild/base/hdgcl
export LD_LIBRARY_PATH=$PWD/.devbuild/base:$LD_LIBRARY_PATH
{ ls /usr/lib/x86_64-linux-gnu | grep -i -E "mpi|hypre|metis|scotch"; which mpirun mpiexec; nproc; cat /etc/os-release | head -2; nvidia-smi -L; } > $OUT/env.txt 2>&1
$H solve --mesh square:80 --order 9 --device nvidia --precond pmg --rtol 1e-12 --warmup 1 --repeat 3 --profile --json $OUT/sq80p9-pmg.json > $OUT/sq80p9-pmg.log 2>&1
$H solve --mesh square:80 --order 9 --device nvidia --precond block-jacobi --rtol 1e-12 --warmup 1 --repeat 3 --json $OUT/sq80p9-bj.json > $OUT/sq80p9-bj.log 2>&1
$H solve --problem nonlinear-diffusion --mesh square:80 --order 3 --device nvidia --warmup 1 --json $OUT/nl80p3.json > $OUT/nl80p3.log 2>&1
cd $REAL && tar czf probe.tgz r && rm -rf r
