#!/bin/sh
# stop 39: Chebyshev fused step before/after on the H100 (HDGCL_CHEB_UNFUSED=1 = before)
set -u
mkdir -p $OUT/r; REAL=$OUT; OUT=$OUT/r
export XDG_CACHE_HOME=/tmp/hc
H=.devbuild/hdgcl
run() { # tag env args...
  tag=$1; shift; e=$1; shift
  env $e $H solve --device nvidia --warmup 1 --repeat 5 "$@" --json $OUT/$tag.json > $OUT/$tag.log 2>&1
  grep -E "^solve|iteration  |  solve " $OUT/$tag.log | tr -s ' ' | tr '\n' ' '; echo " [$tag]"
}
for round in 1 2; do
 for v in unfused fused; do
  e=X=1; [ $v = unfused ] && e=HDGCL_CHEB_UNFUSED=1
  run sq80p9-pmg-$v-$round $e --mesh square:80 --order 9 --precond pmg --rtol 1e-12
  run sq80p9-cheb-$v-$round $e --mesh square:80 --order 9 --precond chebyshev --rtol 1e-12
  run sq80p3-pmg-$v-$round $e --mesh square:80 --order 3 --precond pmg --rtol 1e-12
  run cube16p3-pmg-$v-$round $e --mesh cube:16 --order 3 --precond pmg --rtol 1e-8
 done
done
run sq80p9-bj X=1 --mesh square:80 --order 9 --precond block-jacobi --rtol 1e-12
run cube16p3-bj X=1 --mesh cube:16 --order 3 --precond block-jacobi --rtol 1e-8
HDGCL_PROFILE=1 $H solve --device nvidia --mesh square:80 --order 9 --precond pmg --rtol 1e-12 > $OUT/sq80p9-pmg-profile.log 2>&1
cd $REAL && tar czf fused.tgz r && rm -rf r
