#!/bin/sh
# Every kernel of cl/ (and CLBlast's GEMM) under the oclgrind simulator with
# its checkers on: data races (--data-races), uninitialised values
# (--uninitialized), OpenCL API misuse (--check-api), and out-of-bounds
# accesses (always on).  Any diagnostic fails the test, as does a kernel of
# cl/ that no case launched.  A canary first checks that the checkers report
# a deliberately broken kernel.
#
# Usage: oclgrind_kernels.sh OCLGRIND CLI TEST_DEVICE_CONTEXT TEST_CLBLAST CL_DIR TEST_SPMV [MPIRUN]
# With MPIRUN (an MPI build), two distributed solves run under
# `MPIRUN -np 2 oclgrind ...` (each rank its own simulator: the kernels of
# cl/parallel/, docs/mpi.md); without it those kernels are left out of the
# coverage check.
#
# oclgrind is an ICD interposer: under it the only platform is "Oclgrind"
# (--device oclgrind).  Further flags:
#   --build-options -cl-opt-disable  --uninitialized aborts on the LLVM
#       'freeze' instruction that optimised code contains (oclgrind 21.10);
#   --max-wgsize 64  the CG reductions launch DOT_GROUPS groups of the largest
#       work-group size: 64 keeps the simulation short (the local and
#       recovery kernels need 64);
#   --inst-counts  names every kernel launched (stdout), for the coverage check
#       (its counter corrupts oclgrind's heap on the elasticity cases from
#       p = 2 on, with the kernels clean without it: keep those at p = 1);
#   --rtol 0.9 --maxit 2 on all but one case: one CG iteration plus one
#       converged (no-op) iteration launches every solver kernel.
# Diagnostics go to stderr, not to --log: oclgrind reopens, and so empties,
# the log file at each clCreateContext.  Cases run two at a time, each on one
# oclgrind thread (OCLGRIND_NUM_THREADS=1): with a worker thread per core the
# --inst-counts counters corrupt oclgrind's heap now and then (glibc's
# "malloc assertion failure in sysmalloc"; the tri-p1-user-robin case alone
# aborted in 3 runs of 8, at commit 9ef6084 too, and in none of 8 on one thread).
set -u
oclgrind=$1 cli=$2 test_context=$3 test_clblast=$4 cl_dir=$5 test_spmv=$6 mpirun=${7:-}
examples=$(cd "$(dirname "$0")/../examples" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }

# run NAME COMMAND...: under oclgrind with all checks; leaves NAME.{rc,out,err,time}.
# oclgrind's --inst-counts counter corrupts its own heap now and then (above:
# glibc aborts, exit 134, with "double free or corruption", "corrupted size"
# or "malloc(): ..." on stderr and no oclgrind diagnostic; stop 42's CI:
# hex-p1-neumann, 1 run in 2 locally, clean in 3 of 3 without the counter and
# under valgrind on the reference path).  Such a run, and only such a run, is
# repeated, twice at most; the retries are counted in NAME.retries.
run() {
  name=$1; shift
  start=$(date +%s)
  tries=0
  while :; do
    OCLGRIND_NUM_THREADS=1 "$oclgrind" --data-races --uninitialized --check-api --build-options -cl-opt-disable \
      --max-wgsize 64 --inst-counts "$@" > "$dir/$name.out" 2> "$dir/$name.err"
    rc=$?
    [ "$rc" -eq 134 ] && [ "$tries" -lt 2 ] && grep -qE 'double free or corruption|corrupted size|malloc\(\)|malloc assertion' "$dir/$name.err" \
      && ! grep -qE '^(Invalid|Uninitiali[sz]ed|Read-write|Write-write|Data race|OCLGRIND|Oclgrind)' "$dir/$name.err" || break
    tries=$((tries + 1))
  done
  echo "$rc" > "$dir/$name.rc"
  echo "$tries" > "$dir/$name.retries"
  echo $(( $(date +%s) - start )) > "$dir/$name.time"
}

solve() { name=$1; shift; run "$name" "$cli" solve --device oclgrind --no-cache --quiet "$@"; }
quick="--rtol 0.9 --maxit 2"

# The device list under the interposer.
run devices "$cli" devices
if [ "$(cat "$dir/devices.rc")" -eq 0 ] && grep -q '^\* 0:0  Oclgrind' "$dir/devices.out" \
   && grep -q 'platform Oclgrind' "$dir/devices.out" && grep -q 'FP64 yes' "$dir/devices.out" \
   && [ "$(grep -c '^[ *] [0-9]*:[0-9]*  ' "$dir/devices.out")" -eq 1 ]; then ok "hdgcl devices shows only Oclgrind"
else bad "hdgcl devices under oclgrind"; cat "$dir/devices.out" "$dir/devices.err"; fi

# Canary: the checkers are live.  A copy of cl/ with selftest.cl broken (no
# barrier in the work-group sum: a data race; no bounds check in axpy: writes
# past the end) must be reported.
mkdir "$dir/cl-broken"
cp -r "$cl_dir"/* "$dir/cl-broken/"
sed -i -e '/if (lid < s) buf\[lid\] += buf\[lid + s\];/{n;d}' -e 's/if (i < n) y\[i\]/y[i]/' \
  "$dir/cl-broken/core/selftest.cl"
if cmp -s "$cl_dir/core/selftest.cl" "$dir/cl-broken/core/selftest.cl"; then bad "canary: could not break selftest.cl"
else
  export HDGCL_KERNEL_DIR="$dir/cl-broken"
  run canary "$test_context" oclgrind
  unset HDGCL_KERNEL_DIR
  grep -q 'data race' "$dir/canary.err" && grep -q 'Invalid write' "$dir/canary.err" \
    && ok "canary: a race and an out-of-bounds write are reported" \
    || { bad "canary: broken kernels not reported"; head -c 2000 "$dir/canary.err"; }
  rm "$dir/canary.rc"
fi

# Two lanes of cases (cl/ kernels by case: see the coverage check below).
# The local stage's S^-1 method is fixed per lane (HDGCL_LOCAL_INVERT: each
# method checked), but for the first case, whose timed trial (asked for: the
# mesh is below the trial's size) runs them all.
(
  # Triangles p = 1, block-ELL, block-Jacobi, CG to convergence.
  export HDGCL_LOCAL_INVERT=tuned
  solve tri-p1-bell-blockjacobi --mesh square:2 --order 1 --format bell --precond block-jacobi
  export HDGCL_LOCAL_INVERT=cholesky
  # u* by the packed Cholesky (postprocess) here, in local and global memory;
  # every other affine case takes postprocess_tiled.
  HDGCL_POSTPROCESS=cholesky solve tri-p2-belli-jacobi --mesh square:2 --order 2 --format bell-i --precond jacobi $quick
  solve quad-p1-mapped --mesh quad:2 --order 1 $quick
  # Curved elements (GEO_ORDER > 1: element_map of the geometry nodes in
  # mapped_build, assembly's face_normal, recovery and errors): quadrangles 9
  # and, through the mapped path on simplices, triangles 10.
  solve quad9-p1-curved --mesh annulus-quad:1,order=2 --order 1 $quick
  solve tri10-p1-curved --problem poisson-mixed --mesh annulus:1,order=3 --order 1 $quick
  # Element batches (host/pipeline/batches.c): the straight triangles of a
  # boundary-curved annulus on the affine path, the curved ones mapped, in
  # chunks of 5 across both batches' ranges.
  solve tri6-p1-batches --mesh annulus:2,order=2,curve=boundary --order 1 --chunk 5 $quick
  # A mixed mesh (docs/geometry.md, "Mixed meshes"): its triangles on the
  # affine path with the quadrilaterals' row widths, the quadrilaterals
  # mapped, in chunks of 3 (the 4 triangles in two).
  solve mixed-p1-types --mesh mixed:2 --order 1 --chunk 3 $quick
  # ... its triangles mapped too (a user's coefficients at every point:
  # mapped_recover_q's rows of ROW_NP) with the additive Schwarz patches of 3
  # and 4 faces, and a time step's element load on both types.
  solve mixed-p1-user-points-asm --problem user --kappa "1 + x*x" --exact "x*y+1" \
    --bc "left: dirichlet; right, bottom, top: neumann" --mesh mixed:2 --order 1 --precond asm --chunk 3 $quick
  solve mixed-p1-heat --problem heat --scheme be --time-step 1 --mesh mixed:2 --order 1 $quick
  # (Elasticity on mixed:2, p = 1: clean under all checkers without --inst-counts,
  # whose counter corrupted oclgrind's heap in 2 of 3 runs with it: not listed.)
  # The batched products by cl/core/batched_gemm.cl (tiles of 8 x 8 across the
  # matrices' edges, slices of 3 across k's): Z and K in chunks of 3, then
  # the mapped stage's five (Phi shared: stride 0).
  export HDGCL_BATCHED_GEMM=tiled:8x8:2x2:3
  HDGCL_LOCAL_SCHUR=gemm solve tri-p2-batched-gemm-chunks --mesh square:2 --order 2 --chunk 3 $quick
  HDGCL_LOCAL_SCHUR=gemm solve quad-p2-batched-gemm --mesh quad:2,distort=0.1 --order 2 $quick
  unset HDGCL_BATCHED_GEMM
  HDGCL_POSTPROCESS=cholesky solve tet-p1-scratch-global --mesh cube:1 --order 1 --scratch global $quick
  # GMRES(2) with restarts and additive Schwarz (krylov_gmres.c + krylov_gmres.cl, precond_asm.c).
  solve tri-p1-gmres-asm --mesh square:2 --order 1 --solver gmres --precond asm --restart 2 --rtol 1e-3 --maxit 20
  # p-multigrid V-cycle, levels 2 > 1 > 0 (precond_pmg.c): transfers, smoothers, coarsest solve.
  # With hypre, MPI_Init's hwloc probes OpenCL devices with vendor queries that
  # oclgrind's API checker reports (CL_INVALID_VALUE): its OpenCL backend off.
  export HWLOC_COMPONENTS=-opencl
  # HDGCL_AMG_COARSE=4: the device's BoomerAMG cycle (amg_device.cl) gets several levels
  # on this small mesh (builds without hypre: the Chebyshev coarse solve, and the
  # coverage check below leaves amg_* out).
  HDGCL_AMG_COARSE=4 solve tri-p2-cg-pmg --mesh square:2 --order 2 --precond pmg $quick
  unset HWLOC_COMPONENTS HDGCL_LOCAL_INVERT
  # The device's coarsest solve: Chebyshev steps, one launch each (chebyshev_bj_step).
  solve tri-p2-cg-pmg-chebyshev-coarse --mesh square:2 --order 2 --precond pmg --pmg-coarse-solve chebyshev $quick
  # A user's tensor kappa (-DKAPPA_TENSOR: element_factors' tensor factors, q = K q1, u* from
  # K^-1 q, the errors' K grad u), with Neumann and Robin faces; then the whole local stage
  # one element per work-item with the packed-Cholesky u*, and tetrahedra (3 x 3 K).
  # (Dirichlet on left and bottom: --inst-counts corrupts oclgrind's heap, as above.)
  kt="[[2, 0.5], [0.5, 1]]"
  solve tri-p1-user-tensor --problem user --kappa "$kt" --exact "x*y+1" --f -1 --format bell \
    --bc "left: dirichlet; right, bottom: neumann; top: robin: 2, 2*(x*y+1) + x" --mesh square:2 --order 1 $quick
  HDGCL_LOCAL_ELEMENT=on:4 HDGCL_POSTPROCESS=cholesky solve tri-p1-user-tensor-element --problem user \
    --kappa "$kt" --exact "x*y+1" --f -1 --bc-default dirichlet --mesh square:2 --order 1 $quick
  solve tet-p1-user-tensor --problem user --kappa "[[2, 0.5, 0.2], [0.5, 1, 0.1], [0.2, 0.1, 1]]" \
    --exact "x*y+z" --f -1 --bc-default dirichlet --mesh cube:1 --order 1 $quick
  run selftest "$test_context" oclgrind
  # Every SpMV storage (cl/solvers/spmv.cl) and hdgcl bench's ceilings (cl/core/bench.cl).
  HDGCL_DEVICE=oclgrind run spmv "$test_spmv" small
) &
(
  export HDGCL_LOCAL_INVERT=gauss-jordan
  solve tri-p2-ell-jacobi --mesh square:2 --order 2 --format ell --precond jacobi $quick
  # Z by the tiled Gauss-Jordan solve of [S | W F] (local_solve_tiled), chunk
  # by chunk; K0 by local_k0 before CLBlast's GEMM (local_schur_k0 elsewhere).
  export HDGCL_LOCAL_INVERT=gauss-jordan-solve:64
  HDGCL_LOCAL_SCHUR=gemm solve tri-p1-ell-blockjacobi-chunks --mesh square:2 --order 1 --format ell --precond block-jacobi --chunk 3 $quick
  # Z one column per work-item (local_solve_columns), chunk by chunk.
  HDGCL_LOCAL_INVERT=cholesky-columns:64 solve tet-p1-columns-chunks --mesh cube:1 --order 1 --chunk 4 $quick
  # Z one element per work-item (local_cholesky_solve in work-groups of 4, one
  # work-item idle: the CPU form), K by local_k0 and the GEMM, chunks of 3.
  HDGCL_LOCAL_INVERT=cholesky-solve:4 HDGCL_LOCAL_SCHUR=gemm solve tri-p2-cpu-forms-chunks --mesh square:2 --order 2 --chunk 3 $quick
  # The whole stage one element per work-item (local_element) in work-groups
  # of 4 (one work-item idle), chunks of 3, with Neumann faces.
  HDGCL_LOCAL_ELEMENT=on:4 solve tri-p2-local-element-chunks --problem poisson-mixed --mesh square:2 --order 2 --chunk 3 $quick
  # p = 1: S of 3 rows, odd (cl/pipeline/cholesky_rows.h: one narrow panel, a row solved alone).
  HDGCL_LOCAL_ELEMENT=on:4 solve tri-p1-local-element --mesh square:2 --order 1 $quick
  HDGCL_LOCAL_ELEMENT=on:4 solve tri-p1-local-element-heat --problem heat --scheme be --time-step 1 --mesh square:2 --order 1 $quick
  # The whole stage one element per 4 x 4 work-items (local_element_tiled),
  # four elements per group, chunks of 3 (a missing element in each group).
  HDGCL_LOCAL_ELEMENT=tiled:4:4 solve tri-p2-local-element-tiled-chunks --problem poisson-mixed --mesh square:2 --order 2 --chunk 3 $quick
  export HDGCL_LOCAL_INVERT=gauss-jordan
  # p = 3: local_build_s's work-group capped at the device's 64, and u* by
  # postprocess_tiled over several register tiles (15 x 16 on an 8 x 8 grid).
  solve tri-p3-tiles --mesh square:2 --order 3 $quick
  solve tri-p1-neumann --problem poisson-mixed --mesh square:2 --order 1 $quick
  # local_build's W through its local tile (HDGCL_LOCAL_BUILD_TILE; by default
  # from tetrahedra p = 6 on), several elements per group, then nonsymmetric.
  HDGCL_LOCAL_BUILD_TILE=on solve tet-p1 --mesh cube:1 --order 1 $quick
  solve hex-p1-neumann --problem poisson-mixed --mesh hex:1 --order 1 $quick
  solve tri-p1-cg-chebyshev-mixed --mesh square:2 --order 1 --precond chebyshev --cheb-mixed true --rtol 0.9 --maxit 20
  # Convection (NONSYMMETRIC local kernels: Gauss-Jordan, [W_t | F]), GMRES;
  # affine in local memory, mapped with the global scratch and M factored
  # (mapped_factor, q from Ls; quad-p1-mapped inverts M / kappa, the default).
  HDGCL_LOCAL_BUILD_TILE=on solve tri-p1-convection --problem convection-diffusion --mesh square:2 --order 1 --rtol 0.5 --maxit 20
  # Nonsymmetric pmg: the smoothers' Arnoldi interval estimate, GMRES outside
  # (hwloc's OpenCL component, loaded by MPI for BoomerAMG, off as above).
  HWLOC_COMPONENTS=-opencl solve tri-p2-gmres-pmg-convection --problem convection-diffusion --mesh square:2 --order 2 --precond pmg --rtol 0.5 --maxit 20
  # GMRES(12) on convection-diffusion, 30 iterations: the third cycle stops inside a batch
  # of 8 iterations enqueued without a read (the Givens step of gmres_norm_givens frozen,
  # gmres_solve_y's zeros; batches of 8 as on GPUs, CPU devices read every iteration;
  # in this lane: S^-1 by gauss-jordan, the only one for a nonsymmetric problem).
  HDGCL_GMRES_CHECK=8 solve tri-p2-gmres-convection --problem convection-diffusion --mesh square:2 --order 2 --solver gmres --precond jacobi --restart 12 --rtol 1e-8
  unset HDGCL_GMRES_CHECK
  HDGCL_MAPPED_INVERSE=off solve quad-p1-convection-global --problem convection-diffusion --mesh quad:2 --order 1 --scratch global --precond asm --rtol 0.5 --maxit 20
  # Elasticity (elasticity_build, elasticity_recover, elasticity_errors; Z^-1 by
  # Gauss-Jordan): traction data (NONSYMMETRIC, GMRES) on triangles, and
  # tetrahedra with the global scratch (NCOMP right-hand sides in postprocess);
  # quadrilaterals with traction data (mapped_elasticity_pre/_post/_h).
  solve tri-p1-elasticity-traction --problem elasticity-linear --mesh square:1 --order 1 --rtol 0.5 --maxit 5
  HDGCL_POSTPROCESS=cholesky solve tet-p1-elasticity-global --problem elasticity --mesh cube:1 --order 1 --scratch global $quick
  solve quad-p1-elasticity-traction --problem elasticity-mixed --mesh quad:2 --order 1 --rtol 0.5 --maxit 5
  # Lame parameters per element: the terms of (E17) in both builds.
  # ... with S^-1 by the tiled Gauss-Jordan (local_invert_tiled: Z is 9 x 9, 2 x 2 tiles).
  export HDGCL_LOCAL_INVERT=gauss-jordan-tiled:64
  solve tri-p1-bimaterial --problem elasticity-bimaterial --mesh square:2 --order 1 --rtol 0.5 --maxit 5
  export HDGCL_LOCAL_INVERT=gauss-jordan
  solve quad-p1-bimaterial --problem elasticity-bimaterial --mesh quad:2 --order 1 --rtol 0.5 --maxit 5
  # A user's own problem (PROBLEM_USER: the emitted user_* functions, a Robin
  # face's block in add_neumann, each boundary face's condition index in
  # boundary_data), scalar with row-major blocks, and elasticity.
  # (With left and bottom Dirichlet instead, --inst-counts corrupts oclgrind's
  # heap as on the elasticity cases above; all checkers without it: clean.)
  solve tri-p1-user-robin --problem user --exact "x*y+1" --c 0 --format bell \
    --bc "left: dirichlet; right, bottom: neumann; top: robin: 2, 2*(x*y+1) + x" --mesh square:2 --order 1 $quick
  solve tri-p1-user-elasticity --problem user --pde elasticity --exact "0.01*x, 0.02*y" \
    --bc "left: displacement; right, bottom, top: traction" --mesh square:1 --order 1 --rtol 0.5 --maxit 5
  # Coefficients at every quadrature point (POINT_COEFFICIENTS: mapped_build,
  # mapped_postprocess and errors on triangles, user_coefficients; GMRES).
  solve tri-p1-user-points --problem user --kappa "1 + x*x" --c "x" --beta "-y, x" --exact "x*y+1" \
    --bc "left: dirichlet; right, bottom, top: neumann" --mesh square:2 --order 1 --rtol 0.5 --maxit 20
  # Per-component faces (docs/problems.md (P4)): the fixed rows and columns in
  # add_neumann (interleaved and row-major blocks) and fix_solution.
  solve tri-p1-user-roller --problem user --pde elasticity --exact "0.01*x, -0.003*y" \
    --bc "left: roller; bottom: uy = 0, tx = 0; right, top: traction" --mesh square:1 --order 1 --rtol 0.5 --maxit 5
  solve tri-p1-user-roller-bell --problem user --pde elasticity --exact "0.01*x, -0.003*y" --format bell \
    --bc "left: roller; bottom: uy = 0, tx = 0; right, top: traction" --mesh square:1 --order 1 --rtol 0.5 --maxit 5
  # A tensor kappa on quadrilaterals: mapped_kappa_mix after X = M^-1 Y (inverse) and after
  # X = L^-1 Y (factored, then R again in mapped_recover_q); mapped_postprocess's K^-1 q.
  solve quad-p1-user-tensor --problem user --kappa "[[2, 0.5], [0.5, 1]]" --exact "x*y+1" --f -1 \
    --bc-default dirichlet --mesh quad:2 --order 1 $quick
  HDGCL_MAPPED_INVERSE=off solve quad-p1-user-tensor-factored --problem user --kappa "[[2, 0.5], [0.5, 1]]" \
    --exact "x*y+1" --f -1 --bc-default dirichlet --mesh quad:2 --order 1 $quick
  # A transient problem (docs/time.md): the element load (-DELEMENT_LOAD) in
  # local_build, mapped_build and local_element_tiled; BDF2's first step is
  # DIRK(2,2), so three stage solves in two steps.
  heat="--problem heat-boundary --scheme bdf2 --time-step 0.5 --final-time 1"
  solve tri-p1-heat $heat --mesh square:2 --order 1 $quick
  solve quad-p1-heat $heat --mesh quad:2 --order 1 $quick
  HDGCL_LOCAL_ELEMENT=tiled:4:4 solve tri-p1-heat-element-tiled $heat --mesh square:2 --order 1 $quick
  # Newton's method (docs/nonlinear.md): newton_element with and without the
  # Jacobian and newton_update (cl/pipeline/local_newton.cl), GMRES on the
  # condensed Newton system, triangles and tetrahedra (quadrilaterals and hexahedra below).
  # The one-work-item kernel by name: oclgrind is a GPU, whose default is the
  # work-group kernel (the group cases below).
  export HDGCL_NEWTON_KERNEL=item
  solve tri-p1-newton --problem nonlinear-diffusion --mesh square:1 --order 1 --newton-rtol 1e-3
  solve tet-p1-newton --problem nonlinear-diffusion --mesh cube:1 --order 1 --newton-rtol 1e-2 --newton-max 4
  # Viscous Burgers (docs/nonlinear.md section 9): newton_element's convective terms.
  solve tri-p1-burgers --problem burgers --mesh square:1 --order 1 --newton-rtol 1e-3
  # and a time step's stage (the element load, -DELEMENT_LOAD).
  solve tri-p1-burgers-transient --problem burgers-transient --scheme be --time-step 0.5 \
    --final-time 0.5 --mesh square:1 --order 1 --newton-rtol 1e-3
  # Newton on bilinear quadrilaterals and trilinear hexahedra (-DMAPPED=1:
  # element_map's Jacobian at every point), and paper 001's Burgers problem
  # (F(u) = (u^2/2, u), its outflow side a Neumann face: (N25)).
  solve quad-p1-newton --problem nonlinear-diffusion --mesh quad:2,distort=0.1 --order 1 --newton-rtol 1e-3
  solve hex-p1-newton --problem nonlinear-diffusion --mesh hex:1 --order 1 --newton-rtol 1e-2 --newton-max 4
  solve quad-p1-burgers-paper001 --problem burgers-paper001 --mesh quad:2 --order 1 --newton-rtol 1e-3
  # The same in work-groups (cl/pipeline/local_newton_group.cl; groups of 8: its
  # barriers, local memory and the pivoting's row swap), 2D mapped and 3D.
  HDGCL_NEWTON_KERNEL=group:8 solve quad-p1-burgers-paper001-group --problem burgers-paper001 \
    --mesh quad:2 --order 1 --newton-rtol 1e-3
  HDGCL_NEWTON_KERNEL=group:8 solve hex-p1-newton-group --problem nonlinear-diffusion --mesh hex:1 \
    --order 1 --newton-rtol 1e-2 --newton-max 4
  # A user's kappa(u) (user_kappa_u, emitted with its symbolic derivative;
  # kappa(u_exact) in the exact flux of the example's Neumann side).
  solve tri-p1-newton-user --problem-file "$examples/nonlinear-diffusion.json" --mesh square:1 \
    --order 1 --newton-rtol 1e-3
  run clblast "$test_clblast" oclgrind
) &
wait

# The distributed solve's kernels (cl/parallel/krylov_mpi.cl) on 2 ranks, one
# oclgrind each: CG + block-Jacobi, GMRES + Jacobi on a nonsymmetric problem, and
# CG + ASM (mpi_asm_setup); the first two with the overlapped product
# (HDGCL_MPI_OVERLAP=1: mpi_spmv_rows), the third with the plain one (the default).
mpisolve() {
  name=$1 overlap=$2; shift 2
  start=$(date +%s)
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
    "$mpirun" -np 2 env OCLGRIND_NUM_THREADS=1 HDGCL_MPI_OVERLAP=$overlap "$oclgrind" --data-races --uninitialized --check-api \
    --build-options -cl-opt-disable --max-wgsize 64 --inst-counts \
    "$cli" solve --device oclgrind --no-cache --quiet "$@" > "$dir/$name.out" 2> "$dir/$name.err"
  echo $? > "$dir/$name.rc"
  echo $(( $(date +%s) - start )) > "$dir/$name.time"
}
if [ -n "$mpirun" ]; then
  mpisolve mpi2-tri-p1-cg-blockjacobi 1 --mesh square:2 --order 1 --precond block-jacobi $quick
  mpisolve mpi2-tri-p1-gmres-jacobi 1 --problem convection-diffusion --mesh square:2 --order 1 \
    --solver gmres --precond jacobi $quick
  mpisolve mpi2-tri-p1-cg-asm 0 --mesh square:2 --order 1 --precond asm $quick
fi

for f in "$dir"/*.rc; do
  name=$(basename "$f" .rc)
  [ "$name" = devices ] && continue
  rc=$(cat "$f")
  # A clean run writes nothing to stderr (hdgcl --quiet, tests that pass): any
  # oclgrind diagnostic (data race, invalid read/write, uninitialised value,
  # API error, fatal error) lands there and fails the case.
  retries=$(cat "$dir/$name.retries" 2>/dev/null || echo 0)
  again=""
  [ "$retries" -gt 0 ] && again=", after $retries retr$([ "$retries" -eq 1 ] && echo y || echo ies) of oclgrind's heap abort"
  if [ "$rc" -eq 0 ] && [ ! -s "$dir/$name.err" ]; then
    ok "$name ($(cat "$dir/$name.time") s$again)"
  else
    bad "$name (exit $rc, $(cat "$dir/$name.time") s)"
    grep -E '^[A-Z]' "$dir/$name.err" | sort | uniq -c | sort -rn | head -20
    head -c 4000 "$dir/$name.err"
    grep -v '^ \|^$\|Instructions executed' "$dir/$name.out" | head -20
  fi
done

# Coverage: every __kernel of cl/ ran at least once, and CLBlast's GEMM ran.
cat "$dir"/*.out | sed -n "s/^Instructions executed for kernel '\(.*\)':.*/\1/p" | sort -u > "$dir/launched"
missing=""
# Kernels are "__kernel void NAME(" lines, "void NAME(" after a line
# "__kernel __attribute__((...))", or instances of a kernel-defining
# macro, "MACRO(name, type)" (cl/solvers/spmv.cl's SPMV_BELL_INTERLEAVED).
kernels=$( { sed -n -e 's/^__kernel void \([A-Za-z_0-9]*\).*/\1/p' \
  -e 's/^[A-Z][A-Z_]*(\([a-z][a-z_0-9]*\), [a-z]*)$/\1/p' "$cl_dir"/*/*.cl
  grep -h -A1 '^__kernel __attribute__' "$cl_dir"/*/*.cl | sed -n 's/^void \([A-Za-z_0-9]*\)(.*/\1/p'; } | sort -u)
if ! "$cli" solve --mesh square:1 --order 1 --precond pmg --pmg-coarse-solve amg --quiet 2>/dev/null; then
  kernels=$(echo "$kernels" | grep -v '^amg_') # no hypre: no device AMG
fi
[ -n "$mpirun" ] || kernels=$(echo "$kernels" | grep -v '^mpi_') # no MPI build
for k in $kernels; do
  grep -qx "$k" "$dir/launched" || missing="$missing $k"
done
[ -z "$missing" ] && ok "every kernel of cl/ launched ($(echo $kernels | wc -w) kernels)" \
  || bad "kernels never launched:$missing"
grep -q '^Xgemm' "$dir/launched" && ok "CLBlast GEMM launched ($(grep '^Xgemm' "$dir/launched" | tr '\n' ' '))" \
  || bad "no CLBlast GEMM kernel launched"
exit $fail
