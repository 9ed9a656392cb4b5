#!/bin/sh
# u*'s consistency check (docs/reliability.md; host/pipeline/recover.c ustar_check_*):
# ustar_check is in the JSON of the device and the reference paths, at
# round-off; and with the test hook HDGCL_TEST_CORRUPT_USTAR=E (one element's
# u* corrupted in the device buffer before the check) the solve fails with
# the check's one-line message, exit status non-zero, and writes neither its
# JSON nor its VTU file.  Triangles (tiled u*), quadrilaterals (mapped:
# the mean check alone), tetrahedra with the Cholesky u*, elasticity.
# Usage: ustar_check.sh HDGCL
set -u
cli=$1
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }
check_of() { sed -n 's/.*"ustar_check": *\([-+0-9.eE]*\).*/\1/p' "$1"; }

for dev in default ref; do
  devopt=""; [ "$dev" = ref ] && devopt="--device ref"
  # shellcheck disable=SC2086
  if "$cli" solve --mesh square:2 --order 3 $devopt --quiet --json "$dir/ok.json" 2> "$dir/ok.err"; then
    c=$(check_of "$dir/ok.json")
    if [ -n "$c" ] && awk -v c="$c" 'BEGIN { exit !(c < 1e-12) }'; then ok "$dev: ustar_check $c in the JSON"
    else bad "$dev: ustar_check '$c' missing or not at round-off"; fi
  else bad "$dev: the solve failed"; cat "$dir/ok.err"; fi
done

corrupt() {
  name=$1 elem=$2; shift 2
  rm -f "$dir/c.json" "$dir/c.vtu"
  HDGCL_TEST_CORRUPT_USTAR=$elem "$cli" solve "$@" --quiet --json "$dir/c.json" --vtu "$dir/c.vtu" \
    > "$dir/c.out" 2> "$dir/c.err"
  rc=$?
  if [ "$rc" -eq 0 ]; then bad "$name: a corrupted u* passed"; return; fi
  if ! grep -q "recover: u\* failed its consistency check on element $elem (" "$dir/c.err"; then
    bad "$name: exit $rc without the check's message"; cat "$dir/c.err"; return
  fi
  if [ "$(grep -c . "$dir/c.err")" -ne 1 ]; then bad "$name: more than one line on stderr"; cat "$dir/c.err"; return; fi
  if [ -e "$dir/c.json" ] || [ -e "$dir/c.vtu" ]; then bad "$name: output written"; return; fi
  ok "$name: refused (exit $rc): $(cat "$dir/c.err")"
}
corrupt "triangles p=3 tiled" 5 --mesh square:2 --order 3
corrupt "quadrilaterals p=2 mapped" 0 --mesh quad:2 --order 2
HDGCL_POSTPROCESS=cholesky corrupt "tetrahedra p=2 cholesky" 4 --mesh cube:1 --order 2
corrupt "elasticity triangles p=2" 3 --problem elasticity --mesh square:2 --order 2
# Corrupted on the first computation only: the recomputation (by the packed
# Cholesky kernel where the tiled one ran) passes, the solve succeeds with the
# right L2(u*) (to 1e-10 relative of an untouched run) and says so.
l2s() { sed -n 's/.*"l2_ustar": *\([-+0-9.eE]*\).*/\1/p' "$1"; }
"$cli" solve --mesh square:2 --order 3 --quiet --json "$dir/ok.json" 2> /dev/null
HDGCL_TEST_CORRUPT_USTAR_ONCE=5 "$cli" solve --mesh square:2 --order 3 --quiet --json "$dir/once.json" \
  2> "$dir/once.err"
if [ $? -eq 0 ] && grep -q '"ustar_retries": 1' "$dir/once.json" &&
   awk -v a="$(l2s "$dir/once.json")" -v b="$(l2s "$dir/ok.json")" \
     'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-10 * b) }'; then
  ok "a u* wrong once is recomputed (ustar_retries 1, L2(u*) $(l2s "$dir/once.json"))"
else bad "a u* wrong once was not recomputed right"; cat "$dir/once.err"; fi
# A hook that names no element is an argument error.
HDGCL_TEST_CORRUPT_USTAR=100000 "$cli" solve --mesh square:1 --order 1 --quiet 2> "$dir/h.err" \
  && bad "an element past the mesh accepted" || ok "an element past the mesh refused: $(cat "$dir/h.err")"
exit $fail
