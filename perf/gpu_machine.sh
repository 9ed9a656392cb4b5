#!/bin/sh
# What we run on the lent GPU machine (NVIDIA H100 + PoCL on 16 cores), from
# the project root, after `. .device/env.sh` (see DEVELOPERS.md), with a build
# carried in $BUILD (default build-gpu).  Logs and JSON lines go to $OUT.
#
#   sh perf/gpu_machine.sh check   # devices + the OpenCL tests on NVIDIA and PoCL
#   sh perf/gpu_machine.sh paper   # paper 000 benchmark on NVIDIA and PoCL
#   sh perf/gpu_machine.sh solvers # issue 6: iterations and time per solver x preconditioner
#                                  # (env MESHES, ORDERS, SOLVERS, PRECONDS, DEVICES narrow it)
set -u
build=${BUILD:-build-gpu}
out=${OUT:-perf/out}
mkdir -p "$out"
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/hdgcl-cache}
case ${1:-check} in
check)
  { clinfo -l; "$build/hdgcl" devices; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; } 2>&1 | tee "$out/devices.txt"
  for dev in nvidia pocl; do
    for t in test_device_kernel test_program_cache test_clblast test_hdg_agreement test_hdg_polynomial test_hdg_convergence test_krylov; do
      [ -x "$build/tests/$t" ] || continue
      start=$(date +%s)
      if HDGCL_DEVICE=$dev "$build/tests/$t" > "$out/tmp.log" 2>&1; then r=PASS; else r=FAIL; fi
      echo "$r $dev $t ($(( $(date +%s) - start )) s)" | tee -a "$out/tests.txt"
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
      "${SOLVERS:-cg gmres}" "${PRECONDS:-jacobi block-jacobi chebyshev asm}" 2>&1 | tee -a "$out/solvers.log"
  done ;;
esac
