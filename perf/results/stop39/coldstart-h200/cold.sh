#!/bin/sh
# stop 39: cold and warm start on the H100, the build before (3f8b03a) and after, alternated
set -u
mkdir -p $OUT/r; REAL=$OUT; OUT=$OUT/r
export CUDA_CACHE_DISABLE=1 HDGCL_DEVICE=nvidia
for round in 1 2; do
  LD_LIBRARY_PATH=$PWD/.devbuild/before:$LD_LIBRARY_PATH HDGCL=.devbuild/before/hdgcl VERBOSE=0 CASES="default cube4_p2 square40_p5" timeout 120 sh perf/cold_start.sh $OUT/before-$round 1 > $OUT/before-$round.log 2>&1
  HDGCL=.devbuild/hdgcl CASES="default cube4_p2 square40_p5" timeout 120 sh perf/cold_start.sh $OUT/after-$round 1 > $OUT/after-$round.log 2>&1
done
cat $OUT/*/summary.txt
cd $REAL && tar czf cold.tgz r && rm -rf r
