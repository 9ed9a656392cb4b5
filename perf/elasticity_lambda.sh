#!/bin/sh
# Issue 5: CG iterations of the elasticity trace system against lambda, mesh
# and p (paper 004 Figs. 9-10 style), for elasticity-incompressible (paper 004
# section 4.2; mu = 1), rtol 1e-10; one JSON object per line
# (`hdgcl solve --json`), or {"mesh", "order", "lambda", "error"} for a run
# that fails.  Resumable: cases already in OUT are skipped.
#
# usage: perf/elasticity_lambda.sh HDGCL DEVICE OUT.jsonl "MESHES" "ORDERS" ["LAMBDAS"] ["PRECONDS"]
#   e.g. perf/elasticity_lambda.sh build/hdgcl ref perf/results/elasticity/lambda-ref.jsonl \
#          "square:8 square:16 square:32" "1 2 3"
set -u
hdgcl=$1; device=$2; out=$3; meshes=$4; orders=$5
lambdas=${6:-"1 1e2 1e4 1e6"}; preconds=${7:-"block-jacobi"}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
touch "$out"
for m in $meshes; do
  for p in $orders; do
    for l in $lambdas; do
      for pc in $preconds; do
        python3 -c 'import json,sys
for line in open(sys.argv[1]):
    d=json.loads(line)
    if (d["mesh"],d["order"],float(d["lambda"]),d["precond"])==(sys.argv[2],int(sys.argv[3]),float(sys.argv[4]),sys.argv[5]): sys.exit(0)
sys.exit(1)' "$out" "$m" "$p" "$l" "$pc" && continue
        if "$hdgcl" solve --problem elasticity-incompressible --lambda "$l" --mesh "$m" --order "$p" \
             --device "$device" --solver cg --precond "$pc" --rtol 1e-10 --maxit 1000000 --json "$tmp/run.json" \
             --quiet 2> "$tmp/err"; then
          python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("residual_history", None); d["lambda"]=float(sys.argv[2]); print(json.dumps(d))' "$tmp/run.json" "$l" >> "$out"
          python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%-10s p=%d lambda=%-6s %-12s %7d iterations  L2(u) %.3e  L2(H) %.3e" % (d["mesh"], d["order"], sys.argv[2], d["precond"], d["iterations"], d["errors"]["l2_u"], d["errors"]["l2_q"]))' "$tmp/run.json" "$l"
        else
          python3 -c 'import json,sys; print(json.dumps({"mesh": sys.argv[1], "order": int(sys.argv[2]), "lambda": float(sys.argv[3]), "precond": sys.argv[4], "error": open(sys.argv[5]).read().strip()}))' "$m" "$p" "$l" "$pc" "$tmp/err" | tee -a "$out"
        fi
      done
    done
  done
done
