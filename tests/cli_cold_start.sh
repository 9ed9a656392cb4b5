#!/bin/sh
# A first solve on an empty kernel cache (docs/tuning.md, "Start-up"):
# the cold and the warm run of the default solve give the same JSON apart
# from times; the cold run compiles no GEMM it does not run (on CPU devices
# no CLBlast: the small mesh takes the tiled GEMM, and K's is not built) and
# writes the binaries when it ends; the warm run compiles
# nothing; a kernel file that does not compile fails the solve with the
# program's name and the OpenCL error's, without a hang or a crash (also
# where that program was built in a host thread, HDGCL_BUILD_THREADS=on); a CG solve with block
# Jacobi compiles no GMRES, Krylov basis, ASM or other SpMV storage kernel.
# Usage: cli_cold_start.sh PYTHON3 (HDGCL_CLI: the hdgcl executable)
set -u
py=${1:-python3}
. "$(dirname "$0")/cli_common.sh"
cache="$dir/cache"
mkdir -p "$cache"

run() { # KIND [options...]: solve on $cache, JSON in $dir/KIND.json, stderr in $dir/KIND.err
  kind=$1; shift
  # The stage programs build in host threads (by default on GPUs only).
  HDGCL_BUILD_THREADS=on XDG_CACHE_HOME="$cache" timeout 900 "$cli" solve --verbose --json "$dir/$kind.json" "$@" \
    > "$dir/$kind.out" 2> "$dir/$kind.err"
}

if run cold && run warm; then
  "$py" - "$dir/cold.json" "$dir/warm.json" <<'PY' && ok "cold and warm JSON equal apart from times" || bad "cold and warm JSON differ"
import json, sys
timing = ("seconds", "gflops", "gbs")
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if not any(t in k for t in timing)}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
assert a == b, [k for k in a if a[k] != b.get(k)]
assert a["residual_history"] and a["errors"]["l2_u"] > 0
PY
  grep -q "^hdgcl: built " "$dir/cold.err" && ok "cold run: builds listed by --verbose" || bad "cold run built nothing"
  grep -q "^hdgcl: built .*solvers/krylov_cg.cl (in a thread)" "$dir/cold.err" &&
    ok "the solve program built in a host thread" || bad "no solve program built in a thread"
  if grep -q "^device .*Portable Computing Language\|^device .*CPU" "$dir/cold.out"; then
    grep -q "CLBlast's batched GEMM ready" "$dir/cold.err" && bad "CLBlast compiled on a small mesh" || ok "no CLBlast compile"
    # Z's GEMM runs (tiled), K's does not (local_schur makes K): only Z's program is built.
    grep -q "^hdgcl: built core/batched_gemm.cl.*-DTRANS_A=0" "$dir/cold.err" &&
      ! grep -q "^hdgcl: built core/batched_gemm.cl.*-DTRANS_A=1" "$dir/cold.err" &&
      ok "only the GEMM that runs is built" || bad "GEMM programs built: $(grep -c 'built core/batched_gemm' "$dir/cold.err")"
  fi
  grep -q "program binaries written to the cache" "$dir/cold.err" && ok "binaries written at the end" || bad "no binaries written"
  grep -q "^hdgcl: built \|binaries written" "$dir/warm.err" && bad "warm run compiled" || ok "warm run: every program from the cache"
else
  bad "default solve failed: $(tail -3 "$dir/cold.err" "$dir/warm.err")"
fi

# A kernel file that does not compile: an error naming program and CL error.
cp -r "$src/cl" "$dir/cl"
printf '\n__kernel void broken(void) { this does not compile; }\n' >> "$dir/cl/pipeline/assemble.cl"
for threads in on off; do
HDGCL_BUILD_THREADS=$threads XDG_CACHE_HOME="$cache" HDGCL_KERNEL_DIR="$dir/cl" timeout 900 "$cli" solve > "$dir/broken.out" 2> "$dir/broken.err"
rc=$?
if [ $rc -ne 0 ] && [ $rc -lt 124 ] && grep -q "clBuildProgram(.*pipeline/assemble.cl) failed: CL_BUILD_PROGRAM_FAILURE" "$dir/broken.err"; then
  ok "compile error reported with the program and CL_BUILD_PROGRAM_FAILURE (threads $threads)"
else
  bad "compile error (threads $threads): exit $rc, $(tail -2 "$dir/broken.err")"
fi
done
# Only what runs is compiled: kernel files that fail wherever a CG solve with
# block Jacobi would compile GMRES's or ASM's kernels, the Krylov basis
# kernels or an SpMV storage other than bell-i.
cp -r "$src/cl" "$dir/cl_used"
printf '\n#error GMRES compiled in a CG solve\n' >> "$dir/cl_used/solvers/krylov_gmres.cl"
printf '\n#error ASM compiled in a block-Jacobi solve\n' >> "$dir/cl_used/solvers/precond_asm.cl"
printf '\n#ifndef VECTORS_NO_BASIS\n#error basis kernels compiled in a CG solve\n#endif\n' >> "$dir/cl_used/solvers/vectors.cl"
printf '\n#if SPMV_HAS(5)\n#error CSR compiled in a bell-i solve\n#endif\n' >> "$dir/cl_used/solvers/spmv.cl"
if XDG_CACHE_HOME="$cache" HDGCL_KERNEL_DIR="$dir/cl_used" timeout 900 "$cli" solve > "$dir/used.out" 2> "$dir/used.err"; then
  ok "a CG solve compiles no GMRES, basis, ASM or CSR kernel"
else
  bad "unused kernels compiled: $(grep -m1 'error' "$dir/used.err")"
fi
exit $fail
