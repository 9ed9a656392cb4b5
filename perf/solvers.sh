#!/bin/sh
# Krylov solvers and preconditioners (issue 6): iterations to a relative
# residual of 1e-10 and time to solution for helmholtz-sin (or $PROBLEM) on square:N meshes
# and orders p, for each solver x preconditioner; one JSON object per line
# (`hdgcl solve --json`, one warm-up solve then one timed solve, so kernel
# compilation and first-launch JIT are excluded).  A run that fails (no
# convergence within --maxit, out of device memory, RUN_TIMEOUT) is recorded as
# {"problem":..., "mesh":..., "order":..., "solver":..., "precond":..., "error": "..."}.
#
# usage: perf/solvers.sh HDGCL DEVICE OUT.jsonl ["MESHES"] ["ORDERS"] ["SOLVERS"] ["PRECONDS"]
#   e.g. perf/solvers.sh build/hdgcl nvidia $OUT/solvers-nvidia.jsonl "20 40 80 160 320" "1 3 5 7 9"
# Resumable: lines go straight to OUT.jsonl, and a case already there (same
# problem, mesh, order, solver, preconditioner) is skipped.  Environment:
#   PROBLEM      problem (default helmholtz-sin)
#   MAXIT        --maxit (default 20000)
#   RUN_TIMEOUT  seconds one run may take (default: no limit)
#   DEADLINE     epoch seconds after which no new run starts
#   WARMUP       untimed solves before the timed one (default 1; 0 only where the
#                kernel caches are already warm from runs of the same p)
# Tabulate with: python3 perf/solvers_table.py OUT.jsonl
set -u
hdgcl=$1; device=$2; out=$3
meshes=${4:-"20 40 80 160 320"}; orders=${5:-"1 2 3 4 5 6 7 8 9"}
solvers=${6:-"cg gmres"}; preconds=${7:-"jacobi block-jacobi chebyshev asm pmg"}
problem=${PROBLEM:-helmholtz-sin}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
touch "$out"
for n in $meshes; do
  for p in $orders; do
    for solver in $solvers; do
      for pc in $preconds; do
        if [ -n "${DEADLINE:-}" ] && [ "$(date +%s)" -ge "$DEADLINE" ]; then
          echo "solvers.sh: deadline reached before square:$n p=$p $solver $pc" >&2; exit 0
        fi
        python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l)
    if (d.get("problem"),d["mesh"],d["order"],d["solver"],d["precond"])==(sys.argv[2],sys.argv[3],int(sys.argv[4]),sys.argv[5],sys.argv[6]): sys.exit(0)
sys.exit(1)' "$out" "$problem" "square:$n" "$p" "$solver" "$pc" && continue
        if ${RUN_TIMEOUT:+timeout $RUN_TIMEOUT} "$hdgcl" solve --problem "$problem" --mesh "square:$n" --order "$p" --device "$device" \
             --solver "$solver" --precond "$pc" --rtol 1e-10 --maxit "${MAXIT:-20000}" --warmup "${WARMUP:-1}" --repeat 1 \
             --json "$tmp/run.json" --quiet 2> "$tmp/err"; then
          python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("residual_history", None); print(json.dumps(d))' "$tmp/run.json" >> "$out"
          python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["stages"][3]["seconds"]; print("%-12s p=%d %-6s %-13s %6d iterations  solve %9.2f ms  setup %8.2f ms  %8.3f ms/iteration" % (d["mesh"], d["order"], d["solver"], d["precond"], d["iterations"], 1e3*s, 1e3*d["precond_seconds"], 1e3*d["seconds_per_iteration"]))' "$tmp/run.json"
        else
          rc=$?
          [ $rc -eq 124 ] && echo "timed out after ${RUN_TIMEOUT:-} s (RUN_TIMEOUT)" >> "$tmp/err"
          python3 -c 'import json,sys; print(json.dumps({"problem": sys.argv[6], "mesh": sys.argv[1], "order": int(sys.argv[2]), "solver": sys.argv[3], "precond": sys.argv[4], "error": open(sys.argv[5]).read().strip()}))' "square:$n" "$p" "$solver" "$pc" "$tmp/err" "$problem" | tee -a "$out"
        fi
      done
    done
  done
done
