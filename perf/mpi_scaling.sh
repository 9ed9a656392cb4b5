#!/bin/sh
# Strong scaling of the distributed solve (docs/mpi.md, issue 29): the same
# problem on 1, 2, 4, ... ranks (up to MAX_RANKS), one GPU per rank, the JSON
# of every run in OUT, then a table (perf/mpi_scaling_table.py): seconds per
# stage (the slowest rank's), iterations, ms per iteration, speedup and
# parallel efficiency T1 / (R TR) of the solve stage and of the total.
#
# Usage: sh perf/mpi_scaling.sh HDGCL OUT [MAX_RANKS]     (MAX_RANKS default 4)
#
# Environment:
#   MPI_SCALING_CASES  cases separated by ';', each "LABEL MESH ORDER"; default
#                      "2d square:1000 5;3d cube:48 3": helmholtz-sin on
#                      triangles, 18 M trace DOFs (3 M faces of 6 modes),
#                      and on tetrahedra, 13.1 M trace DOFs (1.3 M faces of
#                      10).  Sized from perf/results' single-H100 runs
#                      (square:320 p = 5: 3.4 GB, 1711 iterations to 1e-10;
#                      cube:40 p = 3: 17 GB, 583 iterations, 1.9 s): about
#                      33 GB and 30 GB on one rank, some 5000 and 700
#                      iterations, well under a minute each.  Tiny, for a try
#                      on PoCL:
#                      MPI_SCALING_CASES="2d square:24 3;3d cube:3 2"
#   MPI_SCALING_DEVICE --device of every rank (default nvidia; each rank takes
#                      the GPU of its node-local rank)
#   MPI_SCALING_ARGS   more solve options (default "--precond block-jacobi
#                      --rtol 1e-10 --maxit 20000 --warmup 1": the warm-up
#                      solve compiles the kernels for the parts' sizes)
#   MPI_SCALING_TIMEOUT seconds per run (default 300)
#   MPIRUN             the launcher (default mpirun)
# One rank runs the serial solve (mpirun -np 1 is serial, docs/mpi.md): the
# baseline is the single-GPU solver, with its on-device CG.
set -u
cli=${1:?usage: mpi_scaling.sh HDGCL OUT [MAX_RANKS]}
out=${2:?usage: mpi_scaling.sh HDGCL OUT [MAX_RANKS]}
max=${3:-4}
cases=${MPI_SCALING_CASES:-2d square:1000 5;3d cube:48 3}
device=${MPI_SCALING_DEVICE:-nvidia}
args=${MPI_SCALING_ARGS:---precond block-jacobi --rtol 1e-10 --maxit 20000 --warmup 1}
limit=${MPI_SCALING_TIMEOUT:-300}
mpirun=${MPIRUN:-mpirun}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" || exit 1
# root in containers, more ranks than cores (harmless elsewhere)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

ranks=""
r=1
while [ "$r" -le "$max" ]; do ranks="$ranks $r"; r=$((r * 2)); done
case " $ranks " in *" $max "*) ;; *) ranks="$ranks $max" ;; esac

# which device each rank takes
"$mpirun" -np "$max" "$cli" devices --device "$device" > "$out/devices.txt" 2>&1
grep '^rank ' "$out/devices.txt"

fail=0
IFS=';'
for c in $cases; do
  IFS=' '
  set -- $c
  label=$1 mesh=$2 order=$3
  for r in $ranks; do
    name="$label-np$r"
    echo "== $name: $mesh p=$order on $r rank(s), --device $device $args"
    # shellcheck disable=SC2086
    timeout "$limit" "$mpirun" -np "$r" "$cli" solve --mesh "$mesh" --order "$order" \
      --device "$device" $args --json "$out/$name.json" > "$out/$name.log" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "   failed (rc $rc; 124: over ${limit} s): $out/$name.log"; tail -3 "$out/$name.log"
      rm -f "$out/$name.json"; fail=1
    else
      grep -E '^(solve|errors|distributed) ' "$out/$name.log" | sed 's/^/   /'
    fi
  done
  IFS=';'
done
IFS=' '
/usr/bin/python3 "$here/mpi_scaling_table.py" "$out" | tee "$out/summary.md"
exit $fail
