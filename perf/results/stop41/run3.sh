#!/bin/sh
# stop 41, GPU run 3 (one GPU): the cold start of the default solve before
# (.devbuild/base = cd33dea) and after the split programs and build threads
# (coldstart branch), NVIDIA's compute cache off; then the device Newton's
# element kernel, one work-item (item) against one work-group (group) per
# element, on paper 001's Burgers case (quad:16, k = 1..4).
set -u
W=/tmp/r3; mkdir -p $W
EXTRA=$LD_LIBRARY_PATH
cold() { # tag lib cli
  d=$(mktemp -d)
  t0=$(date +%s.%N)
  LD_LIBRARY_PATH=$2:$EXTRA CUDA_CACHE_DISABLE=1 XDG_CACHE_HOME=$d timeout 100 $3 solve --device nvidia > $W/cold-$1.log 2>&1
  rc=$?
  t1=$(date +%s.%N)
  echo "cold $1 rc=$rc process $(awk "BEGIN{print $t1 - $t0}") s; $(grep -E 'total|errors' $W/cold-$1.log | tr -s ' ' | tr '\n' ' ')"
  rm -rf $d
}
for r in 1 2; do
  cold before-$r $PWD/.devbuild/base .devbuild/base/hdgcl
  cold after-$r $PWD/.devbuild .devbuild/hdgcl
done
export XDG_CACHE_HOME=/tmp/hc
for k in 4 3 2 1; do
  for K in group item; do
    HDGCL_NEWTON_KERNEL=$K timeout 60 .devbuild/hdgcl solve --device nvidia --problem burgers-paper001 --mesh quad:16 --order $k \
      --solver gmres --precond block-jacobi --restart 50 --maxit 1000 --rtol 1e-6 --newton-forcing fixed --newton-rtol 1e-8 \
      --warmup 1 --profile --json $W/newton-$K-k$k.json > $W/newton-$K-k$k.log 2>&1
    echo "newton $K k=$k rc=$? $(grep -E '^newton |^  (local|assemble|solve|recover|total) |newton_element|newton_norm' $W/newton-$K-k$k.log | tr -s ' ' | tr '\n' ' ')"
  done
done
tar czf $OUT/run3.tgz -C /tmp r3
