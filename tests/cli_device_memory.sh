#!/bin/sh
# --max-device-memory (docs/reliability.md): under a cap the local stage runs
# in more batches and gives the same answer, the device high water stays
# under the cap; a cap too small for the trace system stops before the solve
# with a one-line error that says what is needed and what is allowed, and
# leaves no output file; a malformed size is refused.
. "$(dirname "$0")/cli_common.sh"

# high water in KiB and batches of a run's summary
hw_kib() { sed -n 's/^memory *device high water \([0-9.]*\) MiB.*/\1/p' "$1" | awk '{ printf "%d", $1 * 1024 }'; }
batches() { sed -n 's/^memory .*(\([0-9]*\) batches).*/\1/p' "$1"; }

n=0
for case in "--mesh square:32 --order 4" "--mesh quad:16 --order 3" "--mesh cube:4 --order 2" \
            "--mesh hex:4 --order 2" "--mesh square:16 --order 2 --problem elasticity" \
            "--mesh square:16 --order 3 --problem convection-diffusion"; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$cli" solve $case > "$dir/free$n" 2>&1 || { bad "$case: the solve without a cap failed"; continue; }
  free=$(hw_kib "$dir/free$n")
  capped=""
  for percent in 50 65 80; do # the smallest cap that runs
    cap=$((free * percent / 100))
    # shellcheck disable=SC2086
    if "$cli" solve $case --max-device-memory "${cap}K" > "$dir/cap$n" 2>&1; then capped=$cap; break; fi
  done
  if [ -z "$capped" ]; then bad "$case: no cap of 50..80% of the free run's $free KiB ran"; cat "$dir/cap$n"; continue; fi
  a=$(grep '^errors' "$dir/free$n") b=$(grep '^errors' "$dir/cap$n")
  [ -n "$a" ] && [ "$a" = "$b" ] && ok "$case: the same errors under ${capped}K" \
    || bad "$case: errors differ under ${capped}K: '$a' / '$b'"
  [ "$(batches "$dir/cap$n")" -gt "$(batches "$dir/free$n")" ] \
    && ok "$case: $(batches "$dir/cap$n") batches instead of $(batches "$dir/free$n")" \
    || bad "$case: batches $(batches "$dir/cap$n") under the cap, $(batches "$dir/free$n") without"
  [ "$(hw_kib "$dir/cap$n")" -le "$capped" ] && ok "$case: high water $(hw_kib "$dir/cap$n") KiB <= ${capped} KiB" \
    || bad "$case: high water $(hw_kib "$dir/cap$n") KiB over the cap ${capped} KiB"
done

# p-multigrid: the coarser levels are sized when they are made, after the
# finest took its batches (docs/reliability.md): under a tight cap a level
# stops with one line naming the cap, exit 1, no output file.
if "$cli" solve --mesh square:16 --order 3 --precond pmg --max-device-memory 4M --json "$dir/pmg.json" \
     > "$dir/pmg.out" 2> "$dir/pmg.err"; then
  ok "pmg under 4M ran (all levels fit)"
else
  grep -q "^hdgcl solve: error: .*--max-device-memory" "$dir/pmg.err" && [ "$(wc -l < "$dir/pmg.err")" = 1 ] \
    && [ ! -e "$dir/pmg.json" ] && ok "pmg under 4M: $(cat "$dir/pmg.err")" \
    || { bad "pmg under 4M: message or output"; cat "$dir/pmg.err"; }
fi

# Too small: stops before solving, names the need and the cap, no output file.
if "$cli" solve --mesh square:32 --order 4 --max-device-memory 1M --json "$dir/o.json" \
     --vtu "$dir/o.vtu" > "$dir/small.out" 2> "$dir/small.err"; then
  bad "a 1M cap: the solve ran"
else
  grep -q "^hdgcl solve: error: the trace system needs [0-9.]* MiB .*more than .* of --max-device-memory" \
    "$dir/small.err" && [ "$(wc -l < "$dir/small.err")" = 1 ] && ok "a 1M cap: $(cat "$dir/small.err")" \
    || { bad "a 1M cap: message"; cat "$dir/small.err"; }
  [ ! -e "$dir/o.json" ] && [ ! -e "$dir/o.vtu" ] && [ -z "$(ls "$dir" | grep tmp)" ] \
    && ok "a 1M cap: no output file" || bad "a 1M cap: output files left: $(ls "$dir")"
fi

for size in abc 0 -5M 12Q 1e30G ""; do
  if "$cli" solve --mesh square:2 --order 1 --max-device-memory "$size" > "$dir/bad.out" 2> "$dir/bad.err"; then
    bad "--max-device-memory '$size' accepted"
  elif grep -q "max-device-memory" "$dir/bad.err" && [ "$(wc -l < "$dir/bad.err")" = 1 ]; then
    ok "--max-device-memory '$size': $(cat "$dir/bad.err")"
  else
    bad "--max-device-memory '$size': message"; cat "$dir/bad.err"
  fi
done
exit $fail
