#!/bin/sh
# Issue 31 goal 4 on the GPU machine (NVIDIA OpenCL): cold and warm start of the build before
# the split programs and build threads (cd33dea) and after (with and without the threads),
# alternated, ROUNDS (default 3) rounds of one
# run each (perf/cold_start.sh; docs/tuning.md, "Start-up").  CUDA_CACHE_DISABLE=1 so that
# NVIDIA's own compute cache does not make a cold run warm (it also makes every warm run
# translate the cached PTX again); then one round with the compute cache on but empty (a
# user's real first run).  About 25 s a case and variant per round: ROUNDS=2 CASES="default
# cube4_p2" fits one 10-minute call.
#
#   BEFORE=.devbuild/before AFTER=.devbuild OUT=dir sh perf/results/coldstart-split/cold_nvidia.sh
#
# BEFORE and AFTER are build directories (with hdgcl and libhdgcl.so) of the two commits, e.g.
#   git archive cd33dea | tar -x -C /tmp/before && cmake -S /tmp/before -B .devbuild/before \
#     -DCMAKE_BUILD_TYPE=Release && cmake --build .devbuild/before -j16 --target hdgcl_cli
#   cmake -S . -B .devbuild -DCMAKE_BUILD_TYPE=Release && cmake --build .devbuild -j16 --target hdgcl_cli
set -u
: "${BEFORE:?build directory of cd33dea}" "${AFTER:?build directory of this branch}" "${OUT:?output dir}"
rounds=${ROUNDS:-3}
cases=${CASES:-default cube4_p2 square40_p5}
mkdir -p "$OUT"
export HDGCL_DEVICE=${HDGCL_DEVICE:-nvidia}
# after-serial: the split programs without the build threads (HDGCL_BUILD_THREADS=off).
for round in $(seq 1 "$rounds"); do
  for b in before after after-serial; do
    [ $b = before ] && d=$BEFORE || d=$AFTER
    [ $b = after-serial ] && threads=off || threads=
    HDGCL_BUILD_THREADS=$threads CUDA_CACHE_DISABLE=1 LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}" \
      HDGCL="$d/hdgcl" CASES="$cases" \
      timeout 300 sh perf/cold_start.sh "$OUT/$b-$round" 1 > "$OUT/$b-$round.log" 2>&1
  done
done
for b in before after; do # the compute cache on, empty at first
  [ $b = before ] && d=$BEFORE || d=$AFTER
  cuda=$(mktemp -d)
  CUDA_CACHE_PATH="$cuda" LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}" HDGCL="$d/hdgcl" CASES="$cases" \
    timeout 300 sh perf/cold_start.sh "$OUT/$b-cudacache" 1 > "$OUT/$b-cudacache.log" 2>&1
  rm -rf "$cuda"
done
# The programs each build compiles, and clBuildProgram's seconds (the after build: "in a thread").
grep -h "^hdgcl: built" "$OUT"/before-1/default_cold_0.log "$OUT"/after-1/default_cold_0.log \
  | sed 's/; options.*//' > "$OUT/builds.txt"
for f in "$OUT"/*/summary.txt; do echo "== $f"; cat "$f"; done
