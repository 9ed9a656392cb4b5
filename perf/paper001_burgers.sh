#!/bin/sh
# Paper 001's viscous Burgers case (001_4519ef7210e3df62.txt section 5.1,
# Table 1; issue 28): problem burgers-paper001 on quad:N, 1/h = N = 16, 32,
# 64, 128, k = 1..4, Newton (tolerance 1e-8) with GMRES (restart 50, linear
# tolerance 1e-6 fixed at every Newton step, at most 1000 iterations), as the
# paper's section 5 states, for each of hdgcl's preconditioners that match the
# paper's:
#   block-jacobi                  BJ
#   chebyshev, degree 10, inner
#   block-jacobi                  BJ-PP(10) (a degree-10 polynomial in the
#                                 BJ-preconditioned operator)
#   asm                           ASM (one-element-overlap patches)
#   pmg                           hdgcl's p-multigrid (no column in the paper;
#                                 hdgcl has no ASM-PP(10): Chebyshev's inner
#                                 preconditioner is Jacobi or block-Jacobi only)
# One warm-up solve, then one timed solve per run (`--warmup 1`, so kernel
# compilation is excluded, like the paper's GPU timings); `--json` per run.
#
# usage: HDGCL=build/hdgcl OUT=dir perf/paper001_burgers.sh [DEVICE]
#   DEVICE       --device (default nvidia; pocl here)
# Environment:
#   MESHES       1/h values (default "16 32 64 128")
#   ORDERS       k values (default "1 2 3 4")
#   PRECONDS     (default "block-jacobi chebyshev asm pmg")
#   BUDGET       seconds for the whole grid (default 480): runs go from the
#                smallest mesh up, and once BUDGET has passed the rest are
#                skipped and listed in OUT/skipped.txt
#   RUN_TIMEOUT  seconds one run may take (default 90)
# Each run writes OUT/burgers-n<N>-k<K>-<precond>.json (or .err where it
# failed); at the end the table is written by perf/paper001_burgers_table.py
# to OUT/table.md and OUT/summary.json.
set -u
: "${HDGCL:?set HDGCL to the hdgcl binary}"
: "${OUT:?set OUT to a directory for the results}"
device=${1:-nvidia}
meshes=${MESHES:-"16 32 64 128"}
orders=${ORDERS:-"1 2 3 4"}
preconds=${PRECONDS:-"block-jacobi chebyshev asm pmg"}
budget=${BUDGET:-480}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
: > "$OUT/skipped.txt"
start=$(date +%s)
"$HDGCL" devices > "$OUT/devices.txt" 2>&1 || true
for n in $meshes; do
  for k in $orders; do
    for pc in $preconds; do
      name="burgers-n$n-k$k-$pc"
      if [ $(( $(date +%s) - start )) -ge "$budget" ]; then
        echo "$name: BUDGET $budget s spent" >> "$OUT/skipped.txt"
        continue
      fi
      extra=""
      [ "$pc" = chebyshev ] && extra="--cheb-degree 10 --cheb-inner block-jacobi"
      rm -f "$OUT/$name.json" "$OUT/$name.err"
      # shellcheck disable=SC2086
      if timeout "${RUN_TIMEOUT:-90}" "$HDGCL" solve --problem burgers-paper001 --mesh "quad:$n" --order "$k" \
           --device "$device" --solver gmres --precond "$pc" $extra --restart 50 --maxit 1000 \
           --rtol 1e-6 --newton-forcing fixed --newton-rtol 1e-8 --warmup 1 --repeat 1 \
           --json "$OUT/$name.json" --quiet 2> "$OUT/$name.err"; then
        rm -f "$OUT/$name.err"
        /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=d["newton"]
print("%-34s %2d Newton steps %6d GMRES iterations %9.3f s" % (sys.argv[2], n["steps"], sum(n["iterations"]), d["total_seconds"]))' \
          "$OUT/$name.json" "$name"
      else
        rc=$?
        [ $rc -eq 124 ] && echo "timed out after ${RUN_TIMEOUT:-90} s (RUN_TIMEOUT)" >> "$OUT/$name.err"
        rm -f "$OUT/$name.json"
        echo "$name: failed (exit $rc): $(tail -n 1 "$OUT/$name.err")"
      fi
    done
  done
done
echo "grid done in $(( $(date +%s) - start )) s; skipped: $(wc -l < "$OUT/skipped.txt")"
/usr/bin/python3 "$here/paper001_burgers_table.py" "$OUT"
