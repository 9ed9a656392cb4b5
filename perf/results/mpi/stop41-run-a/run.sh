#!/bin/sh
# stop 41, GPU run A (nvidia-h100-x4, or the H200 machine lent for it):
# strong scaling 1/2/4 GPUs with the overlapped product (the default) and,
# on 2 and 4 ranks, with HDGCL_MPI_OVERLAP=0; the build with krylov_launch's
# work-groups of 128 (ca5bfd2) and the merged MPI work (c620a6d).
set -u
export XDG_CACHE_HOME=/tmp/hc OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
H=.devbuild/hdgcl W=/tmp/w
mkdir -p $W/strong $W/nooverlap
nvidia-smi --query-gpu=name,memory.total --format=csv > $W/gpus.txt
MPI_SCALING_CASES="2d square:1000 5;3d cube:56 3" MPI_SCALING_TIMEOUT=150 sh perf/mpi_scaling.sh $H $W/strong 4
cp $W/strong/*-np1.json $W/nooverlap/
for c in "2d square:1000 5" "3d cube:56 3"; do
  set -- $c
  for r in 2 4; do
    HDGCL_MPI_OVERLAP=0 timeout 150 mpirun -x HDGCL_MPI_OVERLAP -np $r $H solve --mesh $2 --order $3 --device nvidia \
      --precond block-jacobi --rtol 1e-10 --maxit 20000 --warmup 1 --json $W/nooverlap/$1-np$r.json > $W/nooverlap/$1-np$r.log 2>&1
    echo "overlap off $1 np$r rc=$? $(grep -E '^(solve|distributed)' $W/nooverlap/$1-np$r.log | tr '\n' ' ')"
  done
done
/usr/bin/python3 perf/mpi_scaling_table.py $W/nooverlap > $W/nooverlap/summary.md
cat $W/nooverlap/summary.md
tar czf $OUT/mpi_a.tgz -C /tmp w
