#!/bin/sh
# stop 39: p-multigrid's coarsest Chebyshev solve: separate launches, fused steps, one work-group (H100)
set -u
mkdir -p $OUT/r; REAL=$OUT; OUT=$OUT/r
export XDG_CACHE_HOME=/tmp/hc
H=.devbuild/hdgcl
run() { # tag env args...
  tag=$1; shift; e=$1; shift
  env $e $H solve --device nvidia --warmup 1 --repeat 5 "$@" --json $OUT/$tag.json > $OUT/$tag.log 2>&1
  grep -E "^solve|errors|iteration  |  solve " $OUT/$tag.log | tr -s ' ' | tr '\n' ' '; echo " [$tag]"
}
for round in 1 2; do
 for v in unfused fused onegroup; do
  case $v in unfused) e=HDGCL_CHEB_UNFUSED=1;; fused) e=HDGCL_CHEB_ONE_GROUP=0;; onegroup) e=HDGCL_CHEB_ONE_GROUP=1;; esac
  run sq80p9-pmg-$v-$round $e --mesh square:80 --order 9 --precond pmg --rtol 1e-12
  run sq80p3-pmg-$v-$round $e --mesh square:80 --order 3 --precond pmg --rtol 1e-12
  run cube16p3-pmg-$v-$round $e --mesh cube:16 --order 3 --precond pmg --rtol 1e-8
  run sq160p5-pmg-$v-$round $e --mesh square:160 --order 5 --precond pmg --rtol 1e-12
 done
done
for m in "square:80 9 1e-12" "square:80 3 1e-12" "cube:16 3 1e-8" "square:160 5 1e-12"; do
  set -- $m
  run bj-$1-$2 X=1 --mesh $1 --order $2 --precond block-jacobi --rtol $3
done
HDGCL_PROFILE=1 $H solve --device nvidia --mesh square:80 --order 9 --precond pmg --rtol 1e-12 > $OUT/sq80p9-pmg-profile.log 2>&1
cd $REAL && tar czf onegroup.tgz r && rm -rf r
