#!/bin/sh
# hdgcl solve from the command line: a default run, JSON and VTU output, the
# reference device, a convergence study; and every kind of bad input gives a
# one-line error, a non-zero exit and no output file.
set -u
cli=${HDGCL_CLI:?HDGCL_CLI not set}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }

# expect_error NAME PATTERN ARGS...: exit status 1, one line on stderr matching PATTERN.
expect_error() {
  name=$1; pattern=$2; shift 2
  "$cli" "$@" > "$dir/out" 2> "$dir/err"; rc=$?
  lines=$(wc -l < "$dir/err")
  if [ "$rc" -ne 0 ] && [ "$lines" -eq 1 ] && grep -q -- "$pattern" "$dir/err"; then ok "$name"
  else bad "$name (rc=$rc, stderr: $(cat "$dir/err"))"; fi
}

"$cli" solve --mesh square:4 --order 2 > "$dir/out" 2>&1 && grep -q "L2(u)" "$dir/out" \
  && grep -q "local" "$dir/out" && ok "default solve" || { bad "default solve"; cat "$dir/out"; }

"$cli" solve --mesh square:4 --order 2 --json "$dir/a.json" --vtu "$dir/a.vtu" --quiet \
  && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['order']==2 and d['errors']['l2_u']>0 and len(d['stages'])==6" "$dir/a.json" \
  && grep -q "</VTKFile>" "$dir/a.vtu" && ok "json and vtu" || bad "json and vtu"

"$cli" solve --mesh square:4 --order 2 --solver gmres --precond asm --restart 10 --json "$dir/g.json" --quiet \
  && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['solver']=='gmres' and d['precond']=='asm' and d['restart']==10 and d['iterations']>0 and d['precond_seconds']>=0 and d['seconds_per_iteration']>0" "$dir/g.json" \
  && ok "gmres json" || bad "gmres json"
"$cli" solve --problem convection-diffusion --mesh square:4 --order 2 --json "$dir/c.json" --quiet \
  && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['solver']=='gmres' and d['problem']=='convection-diffusion' and d['local_invert'].startswith('gauss-jordan') and d['errors']['l2_u']<1e-2" "$dir/c.json" \
  && ok "convection-diffusion: GMRES and Gauss-Jordan by default" || bad "convection-diffusion json"

"$cli" solve --mesh square:4 --order 2 --precond chebyshev --cheb-degree 3 > "$dir/out" 2>&1 \
  && grep -q "CG + chebyshev" "$dir/out" && grep -q "Chebyshev 3 steps" "$dir/out" \
  && grep -q "per iteration" "$dir/out" && ok "chebyshev summary" || { bad "chebyshev summary"; cat "$dir/out"; }

# Chebyshev's fused step (chebyshev_bj_step: product, residual, block-Jacobi
# and update in one launch) does the separate launches' arithmetic in the
# same order: the same iterations, residuals and errors to the last bit.
# HDGCL_CHEB_UNFUSED=1 forces the separate launches.
same_as() { # NAME ENV_A ENV_B ARGS...: solve ARGS under each environment setting
  name=$1; first=$2; other=$3; shift 3
  env "$first" "$cli" solve "$@" --quiet --json "$dir/fused.json" \
    && env "$other" "$cli" solve "$@" --quiet --json "$dir/unfused.json" \
    && python3 - "$dir/fused.json" "$dir/unfused.json" <<'PY' && ok "$name" || bad "$name"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for k in ("iterations", "residual", "errors", "residual_history"):
    assert a.get(k) == b.get(k), (k, a.get(k), b.get(k))
assert a["iterations"] > 0 and a["errors"]["l2_u"] > 0 and len(a["residual_history"]) > 1
PY
}
fused=HDGCL_CHEB_UNFUSED=0 unfused=HDGCL_CHEB_UNFUSED=1
same_as "chebyshev fused = unfused" $fused $unfused --mesh square:4 --order 3 --precond chebyshev --rtol 1e-12 --history
same_as "chebyshev fused = unfused, bell" $fused $unfused --mesh quad:3 --order 2 --precond chebyshev --format bell --history
same_as "pmg fused = unfused" $fused $unfused --mesh square:4 --order 3 --precond pmg --rtol 1e-12 --history
same_as "pmg, Chebyshev coarse: fused = unfused, tetrahedra" $fused $unfused --mesh cube:2 --order 2 --precond pmg \
  --pmg-coarse-solve chebyshev --history

"$cli" solve --mesh square:4 --order 2 --precond pmg --json "$dir/pmg.json" > "$dir/out" 2>&1 \
  && grep -q "CG + pmg" "$dir/out" && grep -q "preconditioner setup" "$dir/out" \
  && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['precond']=='pmg' and d['iterations']>0 and d['precond_seconds']>0" "$dir/pmg.json" \
  && ok "pmg summary and json" || { bad "pmg summary and json"; cat "$dir/out"; }
"$cli" solve --problem convection-diffusion --mesh square:4 --order 2 --precond pmg --json "$dir/cpmg.json" > "$dir/out" 2>&1 \
  && grep -q "GMRES(30) + pmg" "$dir/out" \
  && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['precond']=='pmg' and d['solver']=='gmres' and 0<d['iterations']<=20 and d['errors']['l2_u']<1e-2" "$dir/cpmg.json" \
  && ok "pmg on the nonsymmetric convection-diffusion (GMRES)" || { bad "convection-diffusion pmg"; cat "$dir/out"; }
"$cli" solve --device ref --mesh square:2 --order 1 --quiet && ok "reference device" || bad "reference device"

"$cli" solve --mesh square:2 --order 2 --convergence 3 --json "$dir/c.json" > "$dir/out" 2>&1 \
  && grep -q "square:8" "$dir/out" \
  && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['runs'])==3 and len(d['rates'])==2" "$dir/c.json" \
  && ok "convergence study" || { bad "convergence study"; cat "$dir/out"; }

expect_error "unknown problem" "unknown problem" solve --problem nosuch --json "$dir/x.json"
expect_error "unknown option" "unknown option --ordr" solve --ordr 3 --json "$dir/x.json"
expect_error "order out of range" "--order 11" solve --order 11 --json "$dir/x.json"
expect_error "negative order" "--order -1" solve --order -1 --json "$dir/x.json"
expect_error "bad tau" "--tau" solve --tau abc --json "$dir/x.json"
expect_error "zero tau" "--tau" solve --tau 0 --json "$dir/x.json"
expect_error "bad precond" "--precond ilu" solve --precond ilu --json "$dir/x.json"
expect_error "bad solver" "--solver bicg" solve --solver bicg --json "$dir/x.json"
# The device's AMG V-cycle (host/solvers/amg_device.c) against hypre's own
# BoomerAMGSolve on the same hierarchy: round-off apart.  HDGCL_AMG_VERIFY=1
# prints the levels and the difference, and fails the solve above 1e-10.
# Builds without hypre refuse --pmg-coarse-solve amg (checked instead).
if "$cli" solve --mesh square:2 --order 1 --precond pmg --pmg-coarse-solve amg --quiet 2>/dev/null; then
  # HDGCL_AMG_COARSE=8: several levels on these small meshes.
  for args in "--mesh square:8 --order 2" "--mesh cube:2 --order 2" "--mesh hex:2 --order 2" \
      "--problem elasticity --mesh square:4 --order 2" \
      "--problem convection-diffusion --mesh square:6 --order 2" \
      "--mesh quad:6 --order 3 --pmg-coarse 1"; do
    HDGCL_AMG_COARSE=8 HDGCL_AMG_VERIFY=1 "$cli" solve $args --precond pmg --rtol 1e-10 --json "$dir/amg.json" \
      > "$dir/out" 2> "$dir/err" \
      && grep -q "V-cycle against hypre's" "$dir/err" \
      && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert 0<d['iterations']<=30, d['iterations']" "$dir/amg.json" \
      && ok "device AMG = hypre's cycle: $args ($(sed 's/.*: //' "$dir/err"))" \
      || { bad "device AMG: $args"; cat "$dir/err"; }
  done
  HDGCL_AMG_VERIFY=1 "$cli" solve --mesh square:24 --order 1 --precond pmg --quiet 2> "$dir/err" \
    && grep -q "device AMG: [3-9] levels" "$dir/err" && ok "device AMG: several levels on square:24" \
    || { bad "device AMG levels"; cat "$dir/err"; }
  # amg-host keeps hypre's hybrid Gauss-Seidel cycle on the host.
  "$cli" solve --mesh square:8 --order 2 --precond pmg --pmg-coarse-solve amg-host --rtol 1e-10 \
    --json "$dir/amgh.json" --quiet \
    && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert 0<d['iterations']<=20" "$dir/amgh.json" \
    && ok "pmg coarse solve amg-host" || bad "pmg coarse solve amg-host"
else
  expect_error "amg without hypre" "has no hypre" solve --precond pmg --pmg-coarse-solve amg
fi
expect_error "bad pmg-coarse" "--pmg-coarse 2" solve --precond pmg --pmg-coarse 2 --json "$dir/x.json"
expect_error "bad pmg-smooth" "--pmg-smooth 0" solve --precond pmg --pmg-smooth 0 --json "$dir/x.json"
expect_error "bad restart" "--restart 0" solve --solver gmres --restart 0 --json "$dir/x.json"
expect_error "bad chebyshev degree" "--cheb-degree 0" solve --precond chebyshev --cheb-degree 0 --json "$dir/x.json"
expect_error "bad chebyshev inner" "--cheb-inner asm" solve --precond chebyshev --cheb-inner asm --json "$dir/x.json"
expect_error "asm on the reference path" "reference path" solve --device ref --solver gmres --precond asm --json "$dir/x.json"
expect_error "cg on a nonsymmetric problem" "nonsymmetric" solve --problem convection-diffusion --solver cg --json "$dir/x.json"
expect_error "cg + pmg on a nonsymmetric problem" "nonsymmetric: --solver cg" solve --problem convection-diffusion --solver cg --precond pmg --json "$dir/x.json"
expect_error "bad beta" "--beta" solve --problem convection-diffusion --beta 1e9 --json "$dir/x.json"
expect_error "gmres non-convergence" "GMRES did not converge" solve --mesh square:8 --order 3 --solver gmres --maxit 3 --json "$dir/x.json"
# a trace system holding NaN (tau = 1e300 overflows the element matrices): said
# at once, not as "did not converge after 10000 iterations"
for dev in auto ref; do
  expect_error "NaN system, CG, $dev" "CG stopped: the residual is NaN after [01] iterations: the trace system holds NaN or Inf" \
    solve --mesh square:4 --order 2 --tau 1e300 --device $dev --json "$dir/x.json"
  expect_error "NaN system, GMRES, $dev" "GMRES.* stopped: the residual is NaN after [01] iterations" \
    solve --problem convection-diffusion --mesh square:4 --order 2 --tau 1e300 --device $dev --json "$dir/x.json"
done
expect_error "bad mesh spec" "square:0" solve --mesh square:0 --json "$dir/x.json"
expect_error "missing mesh file" "nosuch.msh" solve --mesh "$dir/nosuch.msh" --json "$dir/x.json"
printf '$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n0 0 0 0\n$EndNodes\n$Elements\n0 0 0 0\n$EndElements\n' > "$dir/empty.msh"
expect_error "empty mesh" "" solve --mesh "$dir/empty.msh" --json "$dir/x.json"
expect_error "non-convergence" "did not converge" solve --mesh square:8 --order 3 --maxit 2 --json "$dir/x.json" --vtu "$dir/x.vtu"
expect_error "unknown device" "nosuchvendor" solve --device nosuchvendor --json "$dir/x.json"
expect_error "kappa-jump on odd mesh" "x = 1/2" solve --problem kappa-jump --mesh square:3 --json "$dir/x.json"
expect_error "stray argument" "stray" solve stray
[ ! -e "$dir/x.json" ] && [ ! -e "$dir/x.vtu" ] && [ -z "$(ls "$dir" | grep tmp)" ] \
  && ok "no partial output files" || { bad "partial output files left"; ls "$dir"; }
exit $fail
