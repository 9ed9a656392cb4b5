#!/bin/sh
# hdgcl solve under mpirun (docs/mpi.md): 2 and 3 ranks give the serial
# run's errors to 1e-10 relative (JSON; triangles, tetrahedra, and a mixed
# mesh split by work), rank 0 alone prints, with the partition's elements and
# work per rank and its work imbalance; one rank, or a
# child of a process with MPI initialised, stays serial; more ranks than
# elements is a clear error; a failure on one rank ends every rank with that
# rank's message, not a hang.  Usage: cli_mpi.sh MPIRUN PYTHON3
set -u
cli=${HDGCL_CLI:?HDGCL_CLI not set}
mpirun=${1:?usage: cli_mpi.sh MPIRUN PYTHON3}
py=${2:-python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }
# root in containers and CI, more ranks than cores
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

same() { # same RANKS A.json B.json: the error norms to 1e-10 relative; A's per-rank times
  "$py" - "$2" "$3" "$1" <<'PY' || return 1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for k in ("l2_u", "l2_q", "l2_ustar", "linf_u"):
    x, y = a["errors"][k], b["errors"][k]
    assert abs(x - y) <= 1e-10 * abs(y), (k, x, y)
assert a["trace_dofs"] == b["trace_dofs"] and a["elements"] == b["elements"], "counts"
m, ranks = a["mpi"], int(sys.argv[3])
assert m["ranks"] == ranks and len(m["rank_stages"]) == ranks, "mpi ranks"
assert 0 <= m["slowest_rank"] < ranks and m["imbalance"] >= 1 - 1e-12, "mpi slowest, imbalance"
# the partition: every element on one rank, the work imbalance the heaviest over the mean
assert sum(e["elements"] for e in m["rank_stages"]) == a["elements"], "rank elements"
w = [e["work"] for e in m["rank_stages"]]
assert abs(m["work_imbalance"] - max(w) / (sum(w) / ranks)) <= 1e-12, ("work imbalance", m["work_imbalance"], w)
slowest = max(e["total"] for e in m["rank_stages"])
for i, s in enumerate(a["stages"]):  # the summary's stages are the slowest rank's
    assert abs(s["seconds"] - max(e["seconds"][s["name"]] for e in m["rank_stages"])) <= 1e-12, s
PY
}

for mesh in "square:6 2" "cube:2 2" "mixed:4 2"; do
  set -- $mesh
  "$cli" solve --mesh "$1" --order "$2" --rtol 1e-13 --json "$dir/serial.json" --quiet \
    || bad "serial $1"
  for np in 2 3; do
    if "$mpirun" -np $np "$cli" solve --mesh "$1" --order "$2" --rtol 1e-13 \
         --json "$dir/mpi.json" > "$dir/out" 2> "$dir/err" && same $np "$dir/mpi.json" "$dir/serial.json" \
       && [ "$(grep -c "^errors" "$dir/out")" -eq 1 ] && grep -q "distributed: $np MPI ranks" "$dir/out"; then
      ok "$1 p=$2 on $np ranks: the serial errors, printed once"
    else
      bad "$1 p=$2 on $np ranks"; cat "$dir/out" "$dir/err"
    fi
  done
done

# the halo exchange matters: skipping it (hidden HDGCL_MPI_SKIP_HALO) must give a wrong answer
"$cli" solve --mesh square:6 --order 2 --rtol 1e-13 --json "$dir/serial.json" --quiet || bad "serial square:6"
if HDGCL_MPI_SKIP_HALO=1 "$mpirun" -np 2 -x HDGCL_MPI_SKIP_HALO "$cli" solve --mesh square:6 --order 2 \
     --rtol 1e-13 --json "$dir/skip.json" > "$dir/out" 2> "$dir/err" \
   && "$py" - "$dir/skip.json" "$dir/serial.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["errors"]["l2_u"] for p in sys.argv[1:3])
assert abs(a - b) > 0.1 * b, (a, b)
PY
then ok "skipping the halo exchange gives a wrong answer"; else bad "skipping the halo exchange"; cat "$dir/out" "$dir/err"; fi

# hdgcl devices under mpirun: the listing once, then one line per rank
"$mpirun" -np 2 "$cli" devices > "$dir/out" 2> "$dir/err" \
  && [ "$(grep -c '^rank [01] of 2 on .*: [0-9]*:[0-9]*  ' "$dir/out")" -eq 2 ] \
  && [ "$(grep -c '^host: ' "$dir/out")" -eq 1 ] \
  && ok "devices under mpirun: one line per rank" || { bad "devices under mpirun"; cat "$dir/out" "$dir/err"; }

# one rank is the serial solve: no MPI, no "distributed" line, no "mpi" in the JSON
"$mpirun" -np 1 "$cli" solve --mesh square:6 --order 2 --rtol 1e-13 --json "$dir/one.json" \
  > "$dir/out" 2> "$dir/err" && ! grep -q distributed "$dir/out" \
  && "$py" -c "import json,sys; assert 'mpi' not in json.load(open(sys.argv[1]))" "$dir/one.json" \
  && ok "one rank: the serial solve" || { bad "one rank"; cat "$dir/out" "$dir/err"; }
OMPI_COMM_WORLD_SIZE=1 "$cli" solve --mesh square:4 --order 1 > "$dir/out" 2> "$dir/err" \
  && ! grep -q distributed "$dir/out" && ok "inherited OMPI_COMM_WORLD_SIZE=1: serial" \
  || { bad "inherited singleton environment"; cat "$dir/err"; }

# more ranks than elements (square:1 has 2)
"$mpirun" -np 3 "$cli" solve --mesh square:1 --order 1 > "$dir/out" 2> "$dir/err"; rc=$?
if [ $rc -ne 0 ] && grep -q "3 ranks for a mesh of 2 elements: each rank needs at least one element" "$dir/err"
then ok "more ranks than elements"; else bad "more ranks than elements (rc=$rc)"; cat "$dir/err"; fi

# one rank fails (rank 1 asks an order out of range), rank 0 waits in the partition: all end
start=$(date +%s)
timeout 120 "$mpirun" -np 1 "$cli" solve --mesh square:4 --order 1 : -np 1 "$cli" solve \
  --mesh square:4 --order 99 > "$dir/out" 2> "$dir/err"; rc=$?
took=$(( $(date +%s) - start ))
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "error on rank 1 of 2: --order" "$dir/err"
then ok "a failure on rank 1 ends both ranks (${took} s)"; else bad "failure on one rank (rc=$rc)"; cat "$dir/err"; fi

# the overlapped product (HDGCL_MPI_OVERLAP=1) and the plain one (0, the default): the
# JSON says which ran, and both give the same iterations and errors
for ov in 0 1; do
  HDGCL_MPI_OVERLAP=$ov "$mpirun" -np 2 -x HDGCL_MPI_OVERLAP "$cli" solve --mesh square:6 --order 2 \
    --rtol 1e-13 --json "$dir/ov$ov.json" > "$dir/out" 2> "$dir/err" || { bad "overlap=$ov"; cat "$dir/err"; }
done
if "$py" - "$dir/ov0.json" "$dir/ov1.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["mpi"]["halo_overlap"] is False and b["mpi"]["halo_overlap"] is True, "flags"
assert a["mpi"]["halo_hidden_seconds_max"] == 0 and b["mpi"]["halo_hidden_seconds_max"] >= 0, "hidden"
assert a["iterations"] == b["iterations"] and a["errors"] == b["errors"], "results"
PY
then ok "overlapped and plain products: same results, flagged in the JSON"; else bad "overlap JSON"; fi

# what is not distributed yet is refused by name, on every rank
"$mpirun" -np 2 "$cli" solve --mesh square:4 --precond pmg > "$dir/out" 2> "$dir/err"; rc=$?
if [ $rc -ne 0 ] && grep -q "chebyshev or asm only" "$dir/err"
then ok "pmg refused"; else bad "pmg refused (rc=$rc)"; cat "$dir/err"; fi
exit $fail
