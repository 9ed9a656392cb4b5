#!/bin/sh
# What we run on the lent GPU machine (NVIDIA H100 + PoCL on 16 cores), from
# the project root, after `. .device/env.sh` (see DEVELOPERS.md), with a build
# carried in $BUILD (default build-gpu).  Logs and JSON lines go to $OUT.
#
#   sh perf/gpu_machine.sh check   # devices + the OpenCL tests on NVIDIA and PoCL
#   sh perf/gpu_machine.sh paper   # paper 000 benchmark on NVIDIA and PoCL
#   sh perf/gpu_machine.sh solvers # issue 6: iterations and time per solver x preconditioner
#                                  # (env MESHES, ORDERS, SOLVERS, PRECONDS, DEVICES narrow it)
#   sh perf/gpu_machine.sh cube3d  # issue 4's unit-cube tets/hexes on NVIDIA and PoCL
#                                  # (fits in ~9.5 minutes: each part has a deadline)
#   sh perf/gpu_machine.sh cube3d-large  # its second half: higher orders, larger meshes
#   sh perf/gpu_machine.sh cube3d-rest   # what those two could not finish
#   sh perf/gpu_machine.sh cube3d-last   # and what that one could not
#   sh perf/gpu_machine.sh compare       # cuSPARSE / cuBLAS on hdgcl's exported data
#   sh perf/gpu_machine.sh compare-large # the same on a trace matrix larger than the L2 cache
#   sh perf/gpu_machine.sh bench         # issue 7: hdgcl bench (ceilings, stages, SpMV storages)
#   sh perf/gpu_machine.sh large2d       # issue 7: >= 100 M trace DOFs in 2D on the GPU
#   sh perf/gpu_machine.sh mixed         # Chebyshev with and without --cheb-mixed
#   sh perf/gpu_machine.sh pmg           # issue 6: CG + block-Jacobi / Chebyshev / p-multigrid,
#                                        # square:20..320, p = 1..9 (the GPU build has no hypre:
#                                        # configure it with -DHDGCL_WITH_HYPRE=OFF)
#   sh perf/gpu_machine.sh clblast-tune  # issue 7: CLBlast's XgemmDirect tuner on the GPU ->
#                                        # $OUT/clblast-nvidia.txt (docs/clblast-tuning.md); the
#                                        # tuner is clblast-utils' or $build/clblast_tuner_xgemm_direct
#                                        # (a copy carried with the build: it needs only libOpenCL)
#   sh perf/gpu_machine.sh clblast-gain  # hdgcl bench without and with that tuning
#   sh perf/gpu_machine.sh local-invert  # issue 7: hdgcl bench with the S^-1 kernel of the
#                                        # timed trial, and with Cholesky forced
#   sh perf/gpu_machine.sh postprocess   # u* by packed Cholesky and by the register Gauss-Jordan
#                                        # on each grid (POST_CASES="mesh p p ...;mesh p ..." narrows it,
#                                        # DEVICE=pocl for PoCL)
#   sh perf/gpu_machine.sh convection    # issue 6: convection-diffusion tests on NVIDIA and
#                                        # GMRES x jacobi / block-jacobi / asm solves
#   sh perf/gpu_machine.sh sweep         # issue 6: every preconditioner, square:20..320, p = 1..9, on
#                                        # NVIDIA, with PoCL on 14 cores at the same time (resumable)
#   sh perf/gpu_machine.sh points        # issue 26: a user's coefficients at every quadrature
#                                        # point (coefficients = points) against the centroid's
#                                        # affine path, NVIDIA and PoCL; examples/variable-coefficients.json
#                                        # on NVIDIA against the reference path
#   sh perf/gpu_machine.sh before-after  # issue 27: hdgcl bench of two builds in one run
#                                        # (BEFORE=dir of the old hdgcl, $build the new),
#                                        # square:80 p = 3, 9 and cube:16 p = 3, alternated, warm
#   sh perf/gpu_machine.sh transient     # issue 28: test_time_stepping on NVIDIA, then DIRK(3,3)
#                                        # runs (10 steps) against one backward-Euler step, per device
#   sh perf/gpu_machine.sh elasticity    # issue 5: device tests, paper 004's manufactured solution on
#                                        # tetrahedra: NVIDIA, reference path, PoCL
set -u
build=${BUILD:-build-gpu}
out=${OUT:-perf/out}
mkdir -p "$out"
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/hdgcl-cache}
case ${1:-check} in
check)
  # DEVICES (default "nvidia pocl") and HDGCL_TEST_HEAVY=1 (the hexahedra of
  # p = 5, 6 and other cases too slow for the 2-core CI) may be set.
  { clinfo -l; "$build/hdgcl" devices; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; } 2>&1 | tee "$out/devices.txt"
  for dev in ${DEVICES:-nvidia pocl}; do
    for t in test_device_context test_program_cache test_clblast test_launch_limits test_spmv \
             test_matrix_export test_krylov test_hdg_agreement test_hdg_polynomial \
             "test_hdg_convergence 2d" "test_hdg_convergence 3d" test_elasticity_materials; do
      set -- $t
      [ -x "$build/tests/$1" ] || continue
      start=$(date +%s)
      if HDGCL_DEVICE=$dev HDGCL_TEST_DATA=tests/data "$build/tests/$1" ${2:-} > "$out/tmp.log" 2>&1; then r=PASS; else r=FAIL; fi
      echo "$r $dev $t${HDGCL_TEST_HEAVY:+ (heavy)} ($(( $(date +%s) - start )) s)" | tee -a "$out/tests.txt"
      [ $r = FAIL ] && tail -20 "$out/tmp.log" | tee -a "$out/tests.txt"
    done
  done
  rm -f "$out/tmp.log" ;;
paper)
  for dev in nvidia pocl; do
    sh perf/paper000.sh "$build/hdgcl" "$dev" "$out/paper000-$dev.jsonl" "${MESHES:-20 40 80}" "${ORDERS:-1 2 3 4 5 6 7 8 9}" 2>&1 | tee -a "$out/paper000.log"
  done ;;
solvers)
  for dev in ${DEVICES:-nvidia}; do
    sh perf/solvers.sh "$build/hdgcl" "$dev" "$out/solvers-$dev.jsonl" "${MESHES:-20 40 80 160 320}" "${ORDERS:-1 3 5 7 9}" \
      "${SOLVERS:-cg gmres}" "${PRECONDS:-jacobi block-jacobi chebyshev asm pmg}" 2>&1 | tee -a "$out/solvers.log"
  done ;;
cube3d)
  t0=$(date +%s)
  run3d() { # device kind meshes step_limit deadline_offset
    DEADLINE=$((t0 + $5)) STEP_LIMIT=$4 sh perf/cube3d.sh "$build/hdgcl" "$1" \
      "$out/cube3d-$2-$1.jsonl" "$2" "$3" "${ORDERS:-1 2 3 4 5}" 2>&1 | tee -a "$out/cube3d.log"
  }
  run3d nvidia cube "8 12 16 24 32 40 48 64" 60 170
  run3d nvidia hex "8 12 16 24 32 40 48 64" 60 320
  export WARMUP_LARGE=1 # PoCL compiles each kernel again at its first launch
  run3d pocl cube "8 12 16 24" 40 440
  run3d pocl hex "8 12 16 24" 40 555 ;;
cube3d-large)
  # The second half of issue 4's sweep on NVIDIA (orders and meshes that the
  # first part's deadlines cut off, and the largest meshes that fit).
  t0=$(date +%s)
  run() { # kind order meshes step_limit deadline_offset
    DEADLINE=$((t0 + $5)) STEP_LIMIT=$4 sh perf/cube3d.sh "$build/hdgcl" nvidia \
      "$out/cube3d-$1-nvidia-p$2-large.jsonl" "$1" "$3" "$2" 2>&1 | tee -a "$out/cube3d-large.log"
  }
  run cube 3 "48 56 64" 60 60
  run cube 4 "8 12 16 24 32 40 48 56" 60 130
  run cube 5 "8 12 16 24 32 40 48" 60 220
  run hex 3 "40 48 56 64" 60 280
  run hex 4 "8 12 16 24 32 40 48" 60 360
  run hex 5 "8 12 16 24 32 40" 60 440
  run cube 1 "96 128" 120 510
  run cube 2 "80 96" 90 570 ;;
cube3d-rest)
  # The cases the two parts above could not finish (32-bit limits fixed since).
  t0=$(date +%s)
  run() { # device kind order meshes step_limit deadline_offset
    DEADLINE=$((t0 + $6)) STEP_LIMIT=$5 sh perf/cube3d.sh "$build/hdgcl" "$1" \
      "$out/cube3d-3-$2-$1-p$3.jsonl" "$2" "$4" "$3" 2>&1 | tee -a "$out/cube3d-rest.log"
  }
  run nvidia cube 3 "64" 60 40
  run nvidia cube 5 "40" 60 80
  run nvidia hex 3 "64" 60 120
  run nvidia hex 4 "12 16 24 32 40" 60 230
  export WARMUP_LARGE=1 # PoCL compiles each kernel again at its first launch
  run pocl cube 1 "24" 60 250
  run pocl cube 2 "24" 60 275
  run pocl cube 3 "24" 60 310
  run pocl cube 4 "12 16" 60 360
  run pocl cube 5 "12" 60 390
  run pocl hex 1 "24" 60 410
  run pocl hex 2 "24" 60 440
  run pocl hex 4 "8 12" 60 500
  run pocl hex 5 "8" 60 530
  run pocl hex 3 "24" 60 575 ;;
compare)
  # NVIDIA's libraries on hdgcl's own data (perf/cupy_compare.py): the trace
  # system of paper 000's 80x80 p=9 case and of cube:12 p=3, cuSPARSE CSR SpMV
  # and cuBLAS batched DGEMM at the local stage's shapes (S^-1 [W|F]:
  # NP x (NT+1) x NP, one per element).
  "$build/hdgcl" solve --mesh square:80 --order 9 --device nvidia --quiet --export-matrix /tmp/tri80p9 \
    --json "$out/compare-tri80p9-hdgcl.json"
  python3 perf/cupy_compare.py /tmp/tri80p9 --gemm 55,31,55,12800 --gemm 31,31,55,12800 \
    --json "$out/compare-tri80p9.json"
  "$build/hdgcl" solve --mesh cube:12 --order 3 --device nvidia --quiet --export-matrix /tmp/tet12p3 \
    --json "$out/compare-tet12p3-hdgcl.json"
  python3 perf/cupy_compare.py /tmp/tet12p3 --gemm 20,41,20,10368 --gemm 41,41,20,10368 \
    --json "$out/compare-tet12p3.json"
  rm -f /tmp/tri80p9*.mtx /tmp/tet12p3*.mtx ;;
compare-large)
  # cuSPARSE against hdgcl's storages on a matrix that no L2 cache holds
  # (square:160, p = 7: 614,400 rows, 24 M block entries), measured in one run.
  "$build/hdgcl" solve --mesh square:160 --order 7 --device nvidia --quiet --export-matrix /tmp/tri160p7 \
    --json "$out/compare-tri160p7-hdgcl.json"
  python3 perf/cupy_compare.py /tmp/tri160p7 --gemm 36,25,36,51200 --gemm 25,25,36,51200 \
    --json "$out/compare-tri160p7.json"
  rm -f /tmp/tri160p7*.mtx
  "$build/hdgcl" bench --device nvidia --mesh square:160 --order 7 --json "$out/bench-nvidia-tri160.jsonl" ;;
cube3d-last)
  # What is left after cube3d-rest (one JSON-lines file per device, so few
  # files come back from the machine).
  t0=$(date +%s)
  run() { # device kind order meshes step_limit deadline_offset
    DEADLINE=$((t0 + $6)) STEP_LIMIT=$5 sh perf/cube3d.sh "$build/hdgcl" "$1" "$out/part.jsonl" \
      "$2" "$4" "$3" 2>&1 | tee -a "$out/cube3d-4.log"
    cat "$out/part.jsonl" "$out/part.jsonl.partial" >> "$out/cube3d-4-$1.jsonl" 2>/dev/null
    rm -f "$out/part.jsonl" "$out/part.jsonl.partial"
  }
  run nvidia cube 3 "64" 60 40
  run nvidia hex 3 "64" 60 90
  run nvidia cube 5 "40" 60 140
  run nvidia hex 4 "12 16 24 32 40" 60 250
  export WARMUP_LARGE=1 # PoCL compiles each kernel again at its first launch
  run pocl hex 1 "24" 60 270
  run pocl hex 2 "24" 60 300
  run pocl hex 4 "8 12" 60 400
  run pocl hex 5 "8" 60 460
  run pocl hex 3 "24" 60 560 ;;
bench)
  # hdgcl bench: the device's ceilings, then per case the stages and every
  # SpMV storage, on paper 000's 80x80 mesh (p = 1..9), a 320x320 mesh whose
  # trace matrix is far larger than the GPU's L2 cache, and 3D meshes.
  for dev in ${DEVICES:-nvidia pocl}; do
    b() { "$build/hdgcl" bench --device "$dev" "$@" 2>&1 | tee -a "$out/bench.log"; }
    b --meshes square:80 --orders 1-9 --json "$out/bench-$dev-tri80.jsonl"
    if [ "$dev" = nvidia ]; then
      b --meshes square:320 --orders 1,3,5,7,9 --json "$out/bench-$dev-tri320.jsonl"
      b --meshes cube:16 --orders 1-5 --json "$out/bench-$dev-tet16.jsonl"
      b --meshes cube:16 --orders 6,7 --json "$out/bench-$dev-tet16p67.jsonl"
      b --meshes square:160 --orders 3,4,7,9 --json "$out/bench-$dev-tri160.jsonl"
      b --meshes hex:16 --orders 1-3 --json "$out/bench-$dev-hex16.jsonl"
    else
      b --meshes cube:8 --orders 1-3 --repeat 1 --json "$out/bench-$dev-tet8.jsonl"
    fi
  done ;;
clblast-tune)
  [ -x "$build/clblast_tuner_xgemm_direct" ] && export CLBLAST_TUNER="$(pwd)/$build/clblast_tuner_xgemm_direct"
  pd=$("$build/hdgcl" devices --device nvidia | sed -n 's/^\* \([0-9]*:[0-9]*\) .*/\1/p')
  [ -n "$pd" ] || { echo "no NVIDIA device" >&2; exit 1; }
  # Three shapes in at most 3 x 170 s: within one 10-minute command.
  HDGCL_TUNE_TIMEOUT=${TUNE_TIMEOUT:-170} sh perf/clblast_tune.sh "$pd" "$out/clblast-nvidia.txt" 2>&1 \
    | tee "$out/clblast-tune.log" ;;
clblast-gain)
  # Separate processes: CLBlast keeps overrides per device for the whole process.
  for t in none "$out/clblast-nvidia.txt"; do
    name=$([ "$t" = none ] && echo none || echo tuned)
    for m in "square:80 1-9" "cube:16 1-4"; do
      set -- $m
      HDGCL_CLBLAST_TUNING=$t "$build/hdgcl" bench --device nvidia --meshes "$1" --orders "$2" --verbose \
        --json "$out/clblast-$name-${1%%:*}.jsonl" 2>&1 | tee -a "$out/clblast-gain.log"
    done
  done ;;
large2d)
  # The largest 2D problem of issue 7's target: helmholtz-sin on a 4100 x 4100
  # square (33.6 M triangles), p = 1: 100.8 M trace DOFs on one GPU.
  "$build/hdgcl" solve --device nvidia --mesh square:${N2D:-4100} --order ${P2D:-1} --rtol 1e-10 \
    --maxit 100000 --json "$out/large2d-nvidia.json" 2>&1 | tee "$out/large2d.log" ;;
mixed)
  for m in false true; do
    for c in "320 9" "160 7"; do
      set -- $c
      "$build/hdgcl" solve --device nvidia --mesh square:$1 --order $2 --precond chebyshev --cheb-mixed $m \
        --rtol 1e-10 --warmup 1 --json "$out/mixed-$1-$2-$m.json" --quiet
      python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[1], d["iterations"], "iterations, solve %.1f ms, %.3f ms/iteration, L2(u) %.3e" % (1e3*d["stages"][3]["seconds"], 1e3*d["seconds_per_iteration"], d["errors"]["l2_u"]))' "$out/mixed-$1-$2-$m.json" | tee -a "$out/mixed.log"
    done
  done ;;
local-invert)
  # The trial's choice per case is in the log (--verbose prints every candidate).
  for m in "square:320 1-9 tri320" "cube:16 1-4 tet16" "hex:16 1-3 hex16"; do
    set -- $m
    "$build/hdgcl" bench --device nvidia --meshes "$1" --orders "$2" --verbose \
      --json "$out/bench-invert-$3.jsonl" 2>&1 | tee -a "$out/local-invert.log"
  done
  HDGCL_LOCAL_INVERT=cholesky "$build/hdgcl" bench --device nvidia --meshes square:320 \
    --orders 3,7,9 --json "$out/bench-invert-cholesky-tri320.jsonl" 2>&1 | tee -a "$out/local-invert.log" ;;
postprocess)
  # u* (F12) by each method on the same solve, with the kernel times of
  # --profile: the packed Cholesky (postprocess) and the register Gauss-Jordan
  # (postprocess_tiled) on each grid that fits.  With HDGCL_KERNEL_DIR_OLD set,
  # also the local stage with that copy of cl/ (same binary, same run).
  echo "${POST_CASES:-square:320 1 3 5 7 9;cube:16 1 2 3 4}" | tr ';' '\n' | while read -r mesh orders; do
    for p in $orders; do
      for method in cholesky tiled:8 tiled:11 tiled:16; do
        echo "== $mesh p = $p $method" | tee -a "$out/postprocess.log"
        HDGCL_POSTPROCESS=$method "$build/hdgcl" solve --device "${DEVICE:-nvidia}" --mesh "$mesh" --order "$p" \
          --profile > "$out/tmp.log" 2>&1 || { tail -1 "$out/tmp.log" | tee -a "$out/postprocess.log"; continue; }
        grep -E "^  (postprocess|local_solve_tiled)|^  (local|recover) |u\* by|errors" "$out/tmp.log" | tee -a "$out/postprocess.log"
        if [ -n "${HDGCL_KERNEL_DIR_OLD:-}" ] && [ "$method" = cholesky ]; then
          echo "== $mesh p = $p cholesky, cl/ from $HDGCL_KERNEL_DIR_OLD" | tee -a "$out/postprocess.log"
          HDGCL_KERNEL_DIR=$HDGCL_KERNEL_DIR_OLD HDGCL_POSTPROCESS=$method "$build/hdgcl" solve --device "${DEVICE:-nvidia}" \
            --mesh "$mesh" --order "$p" --profile > "$out/tmp.log" 2>&1
          grep -E "^  (postprocess|local_solve_tiled)|^  (local|recover) |errors" "$out/tmp.log" | tee -a "$out/postprocess.log"
        fi
      done
    done
  done
  rm -f "$out/tmp.log" ;;
convection)
  for t in test_local_invert test_hdg_agreement test_krylov "test_hdg_convergence 2d"; do
    set -- $t
    start=$(date +%s)
    if HDGCL_DEVICE=nvidia "$build/tests/$1" ${2:-} > "$out/tmp.log" 2>&1; then r=PASS; else r=FAIL; fi
    echo "$r nvidia $t ($(( $(date +%s) - start )) s)" | tee -a "$out/tests-convection.txt"
    grep -i "convection\|trial chose\|differs" "$out/tmp.log" >> "$out/tests-convection.txt"
    [ $r = FAIL ] && tail -20 "$out/tmp.log" | tee -a "$out/tests-convection.txt"
  done
  rm -f "$out/tmp.log"
  PROBLEM=convection-diffusion sh perf/solvers.sh "$build/hdgcl" nvidia "$out/solvers-convection-nvidia.jsonl" \
    "${MESHES:-80 160 320}" "${ORDERS:-1 3 5 7}" gmres "jacobi block-jacobi asm" 2>&1 | tee "$out/convection.log" ;;
pmg)
  for dev in ${DEVICES:-nvidia}; do
    sh perf/solvers.sh "$build/hdgcl" "$dev" "$out/solvers-pmg-$dev.jsonl" "${MESHES:-20 40 80 160 320}" \
      "${ORDERS:-1 3 5 7 9}" "${SOLVERS:-cg}" "${PRECONDS:-block-jacobi chebyshev pmg}" 2>&1 | tee -a "$out/pmg.log"
  done ;;
sweep)
  # Issue 6's full results: CG x every preconditioner for helmholtz-sin on
  # square:20..320, p = 1..9, on the H100, and GMRES x none / jacobi / block-jacobi /
  # asm / pmg for convection-diffusion; at the same time PoCL on 14 of the 16 cores
  # (the NVIDIA runs are pinned to the other 2, so neither waits on the other).
  # Resumable across calls: files in perf/results/sweep/ are copied to $OUT
  # first and cases already there are skipped; each part stops starting runs
  # at its deadline (SECONDS_NV, SECONDS_POCL from now).
  t0=$(date +%s)
  cp perf/results/sweep/*.jsonl "$out"/ 2>/dev/null
  all="none jacobi block-jacobi chebyshev asm pmg"
  pin() { cores=$1; shift; if command -v taskset > /dev/null; then taskset -c "$cores" "$@"; else "$@"; fi; }
  (
    export POCL_CPU_MAX_CU_NUM=14 POCL_MAX_PTHREAD_COUNT=14
    DEADLINE=$((t0 + ${SECONDS_POCL:-450})) RUN_TIMEOUT=${POCL_RUN_TIMEOUT:-120} pin 0-13 sh perf/solvers.sh "$build/hdgcl" pocl \
      "$out/solvers-pocl.jsonl" "${POCL_MESHES:-20 40 80 160}" "${POCL_ORDERS:-1 3 5 7 9}" cg "$all" > "$out/sweep-pocl.log" 2>&1
  ) &
  DEADLINE=$((t0 + ${SECONDS_NV:-520})) RUN_TIMEOUT=60 pin 14-15 sh perf/solvers.sh "$build/hdgcl" nvidia \
    "$out/solvers-nvidia.jsonl" "${MESHES:-20 40 80 160 320}" "${ORDERS:-1 2 3 4 5 6 7 8 9}" cg "$all" 2>&1 | tee "$out/sweep-nvidia.log"
  PROBLEM=convection-diffusion MAXIT=${CD_MAXIT:-5000} DEADLINE=$((t0 + ${SECONDS_NV:-520})) RUN_TIMEOUT=60 pin 14-15 \
    sh perf/solvers.sh "$build/hdgcl" nvidia "$out/solvers-convection-nvidia.jsonl" "${MESHES:-20 40 80 160 320}" \
    "${ORDERS:-1 2 3 4 5 6 7 8 9}" gmres "${CD_PRECONDS:-none jacobi block-jacobi asm pmg}" 2>&1 | tee "$out/sweep-convection.log"
  # While PoCL runs: NVIDIA checks of what is newer than the sweep (SWEEP_NV_TESTS;
  # appended to sweep-nvidia.log, so no file more comes back).
  for t in ${SWEEP_NV_TESTS-test_elasticity_materials test_elasticity_device}; do
    [ -x "$build/tests/$t" ] || continue
    start=$(date +%s)
    if HDGCL_DEVICE=nvidia HDGCL_TEST_DATA=tests/data pin 14-15 "$build/tests/$t" > "$out/tmp.log" 2>&1; then r=PASS; else r=FAIL; fi
    { echo "$r nvidia $t ($(( $(date +%s) - start )) s)"; grep -v "^$" "$out/tmp.log" | tail -40; } >> "$out/sweep-nvidia.log"
    rm -f "$out/tmp.log"
  done
  wait ;;
points)
  # Issue 26: the same constant-coefficient problem (examples/helmholtz-sin.json)
  # through the affine kernels (coefficients = centroid) and the per-point ones
  # (points: what a varying kappa, c or beta takes), warm cache, median of 5.
  for dev in nvidia pocl; do
    if [ $dev = nvidia ]; then cases="square:160 7;cube:16 3"; else cases="square:40 5;cube:8 3"; fi
    echo "$cases" | tr ';' '\n' | while read -r mesh p; do
      for where in centroid points; do
        "$build/hdgcl" solve --device $dev --problem-file examples/helmholtz-sin.json --coefficients $where \
          --mesh "$mesh" --order "$p" --warmup 1 --repeat 5 --json "$out/points-$dev-${mesh%%:*}-$where.json" \
          > "$out/points-$dev-${mesh%%:*}-$where.log" 2>&1 || echo "FAIL $dev $mesh $where"
        echo "== $dev $mesh p=$p $where"; grep -E "^errors|^ *(local|assemble|solve|recover) " "$out/points-$dev-${mesh%%:*}-$where.log"
      done
    done
  done > "$out/points.log"
  for dev in nvidia ref; do
    "$build/hdgcl" solve --device $dev --problem-file examples/variable-coefficients.json --mesh square:4 \
      --order 3 --convergence 3 > "$out/variable-$dev.log" 2>&1 || echo "FAIL variable $dev" >> "$out/points.log"
  done ;;
before-after)
  # Both builds warm their caches first; then ROUNDS (default 3) rounds of
  # old, new alternated, so drift of the machine hits both alike.
  old=${BEFORE:?BEFORE=dir of the old build}
  for round in 0 $(seq 1 "${ROUNDS:-3}"); do
    for which in before after; do
      b=$build; [ $which = before ] && b=$old
      [ $round = 0 ] && q="--repeat 1" || q="--repeat 5"
      for c in "square:80 3,9" "cube:16 3"; do
        set -- $c
        LD_LIBRARY_PATH=$PWD/$b:$LD_LIBRARY_PATH "$b/hdgcl" bench --device nvidia --meshes "$1" --orders "$2" $q \
          --min-time 0.05 --json "$out/ba-$which-r$round.jsonl" > "$out/ba-tmp.log" 2>&1 || { cat "$out/ba-tmp.log"; exit 1; }
        [ $round = 0 ] || { echo "== $which round $round $c"; cat "$out/ba-tmp.log"; } >> "$out/before-after.log"
      done
    done
  done
  cat "$out"/ba-*-r[1-9]*.jsonl > "$out/before-after.jsonl"; rm -f "$out"/ba-*.jsonl "$out/ba-tmp.log" ;;
elasticity)
  # Issue 5: the device pipeline's tests on NVIDIA, then paper 004's
  # manufactured solution (problem elasticity, mu = lambda = 1) on cube:N
  # tetrahedra, p = 1..4, on NVIDIA (errors for the Table 1 layout, time per
  # stage), the serial reference path (the speedup) and PoCL on 14 cores beside
  # the NVIDIA runs (pinned to the other 2).  Five files in $OUT.
  t0=$(date +%s)
  pin() { cores=$1; shift; if command -v taskset > /dev/null; then taskset -c "$cores" "$@"; else "$@"; fi; }
  (
    export POCL_CPU_MAX_CU_NUM=14 POCL_MAX_PTHREAD_COUNT=14 WARMUP_LARGE=1
    PROBLEM=elasticity TAU= DEADLINE=$((t0 + ${SECONDS_POCL:-200})) STEP_LIMIT=60 pin 0-13 sh perf/cube3d.sh \
      "$build/hdgcl" pocl "$out/elasticity-tet-pocl.jsonl" cube "${POCL_MESHES:-2 4 8 12}" "${ORDERS:-1 2 3 4}" \
      > "$out/elasticity-pocl.log" 2>&1
  ) &
  { for t in test_elasticity_device test_elasticity_materials; do
      start=$(date +%s)
      if HDGCL_DEVICE=nvidia timeout 150 pin 14-15 "$build/tests/$t" > "$out/tmp.log" 2>&1; then r=PASS; else r=FAIL; fi
      echo "$r nvidia $t ($(( $(date +%s) - start )) s)"; [ $r = FAIL ] && tail -20 "$out/tmp.log"; rm -f "$out/tmp.log"
    done
    PROBLEM=elasticity TAU= DEADLINE=$((t0 + ${SECONDS_NV:-200})) STEP_LIMIT=40 pin 14-15 sh perf/cube3d.sh \
      "$build/hdgcl" nvidia "$out/elasticity-tet-nvidia.jsonl" cube "${MESHES:-2 4 8 16 24}" "${ORDERS:-1 2 3 4}"
    PROBLEM=elasticity TAU= DEADLINE=$((t0 + ${SECONDS_REF:-250})) STEP_LIMIT=20 pin 14-15 sh perf/cube3d.sh \
      "$build/hdgcl" ref "$out/elasticity-tet-ref.jsonl" cube "${REF_MESHES:-2 4 8}" "${ORDERS:-1 2 3 4}"
  } > "$out/elasticity.log" 2>&1
  wait ;;
transient)
  # Issue 28 (docs/time.md): the time-stepping test with NVIDIA as the device,
  # then heat-boundary by DIRK(3,3), 10 steps of 0.01 (30 stage solves), and
  # one backward-Euler step of 0.1 (one solve) on the same mesh: what a stage
  # solve costs inside a time loop against alone.  Warm (--warmup 1).
  start=$(date +%s)
  if HDGCL_DEVICE=nvidia HDGCL_CLI="$(pwd)/$build/hdgcl" HDGCL_TEST_DATA=tests/data \
     "$build/test_time_stepping" > "$out/test_time_stepping-nvidia.log" 2>&1; then r=PASS; else r=FAIL; fi
  echo "$r nvidia test_time_stepping ($(( $(date +%s) - start )) s)" | tee "$out/transient.log"
  for run in "nvidia square:80 5" "nvidia cube:16 3" "pocl square:40 5" "pocl cube:8 3"; do
    set -- $run
    for scheme in "dirk3 0.01" "be 0.1"; do
      set -- $1 $2 $3 $scheme
      "$build/hdgcl" solve --device "$1" --problem heat-boundary --mesh "$2" --order "$3" --scheme "$4" \
        --time-step "$5" --final-time 0.1 --warmup 1 --quiet --json "$out/transient-$1-$(echo $2 | tr : -)-p$3-$4.json" \
        >> "$out/transient.log" 2>&1 || echo "FAIL $run $scheme" >> "$out/transient.log"
    done
  done ;;
esac
