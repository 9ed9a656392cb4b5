#!/bin/sh
# Issue 32: u* silently wrong on PoCL 5.0 in some runs with empty kernel
# caches.  Runs each of the two cases that failed there N times, each run with
# fresh hdgcl and PoCL kernel caches (XDG_CACHE_HOME, POCL_CACHE_DIR: every
# kernel compiled afresh), and compares L2(u*) with the reference path
# (--device ref, computed once per case).  One summary line per case:
#   case  runs  wrong (|L2(u*) - ref| > RTOL norm_u: the error relative to
#   the solution's size, as L2(u*) itself is round-off-sized at p = 5)
#   failed (non-zero exit)
#   check (runs the u* consistency check refused)  worst |L2(u*) - ref| / norm_u
#   worst ustar_check of the runs that passed, and retried (runs whose u* the
#   check refused once and the recomputation got right: ustar_retries 1)
# and, per wrong or failed run, its output.  Exit status 1 when a run printed
# a wrong u* as if it were right (wrong and exit 0): the check missed it.
#
# usage: perf/pocl_ustar_repeat.sh [HDGCL] [N] [DEVICE]
#   HDGCL   the hdgcl binary (default build/hdgcl)
#   N       runs per case (default 50)
#   DEVICE  --device spec (default pocl; "default": no --device, hdgcl's default)
# RTOL (default 1e-10) is the relative tolerance on L2(u*); CASES overrides
# the cases, ";"-separated hdgcl solve arguments.
set -u
hdgcl=${1:-build/hdgcl}; n=${2:-50}; device=${3:-pocl}
rtol=${RTOL:-1e-10}
devopt="--device $device"; [ "$device" = default ] && devopt=""
cases=${CASES:-"--problem poisson-mixed --mesh square:8 --order 5;--mesh cube:3 --order 3"}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -x "$hdgcl" ] || { echo "pocl_ustar_repeat: $hdgcl is not executable" >&2; exit 2; }
# l2_ustar FILE and ustar_check FILE: the fields of hdgcl solve --json.
field() { sed -n "s/.*\"$1\": *\([-+0-9.eE]*\).*/\1/p" "$2" | head -1; }
echo "$(date -u +%FT%TZ) $($hdgcl --version 2>/dev/null | head -1), device $device, $n runs per case"
"$hdgcl" devices 2>/dev/null | grep '^\*' | head -1
missed=0
echo "$cases" | tr ';' '\n' | while IFS= read -r args; do
  [ -n "$args" ] || continue
  # shellcheck disable=SC2086
  if ! "$hdgcl" solve $args --device ref --quiet --json "$tmp/ref.json" > "$tmp/ref.out" 2>&1; then
    echo "case [$args]: the reference run failed"; cat "$tmp/ref.out"; continue
  fi
  ref=$(field l2_ustar "$tmp/ref.json"); norm=$(field norm_u "$tmp/ref.json")
  wrong=0 failed=0 fired=0 retried=0 worst=0 worstcheck=0 i=0
  while [ "$i" -lt "$n" ]; do
    i=$((i + 1))
    xdg=$(mktemp -d "$tmp/xdg.XXXXXX"); pc=$(mktemp -d "$tmp/pocl.XXXXXX")
    rm -f "$tmp/run.json"
    # shellcheck disable=SC2086
    XDG_CACHE_HOME=$xdg POCL_CACHE_DIR=$pc "$hdgcl" solve $args $devopt --quiet \
      --json "$tmp/run.json" > "$tmp/run.out" 2>&1
    rc=$?
    rm -rf "$xdg" "$pc"
    if [ "$rc" -ne 0 ]; then
      failed=$((failed + 1))
      if grep -q 'consistency check' "$tmp/run.out"; then fired=$((fired + 1)); fi
      [ -e "$tmp/run.json" ] && echo "  run $i: exit $rc but $tmp/run.json was written (partial output)"
      echo "  run $i: exit $rc: $(head -c 400 "$tmp/run.out")"
      continue
    fi
    got=$(field l2_ustar "$tmp/run.json"); chk=$(field ustar_check "$tmp/run.json")
    if [ "$(field ustar_retries "$tmp/run.json")" = 1 ]; then
      retried=$((retried + 1))
      echo "  run $i: u* refused once by the check, recomputed right (ustar_retries 1)"
    fi
    verdict=$(awk -v g="$got" -v r="$ref" -v nu="$norm" -v t="$rtol" -v w="$worst" -v c="$chk" -v wc="$worstcheck" 'BEGIN {
      d = g - r; if (d < 0) d = -d; rel = d / (nu > 0 ? nu : 1);
      if (c == "") c = 0;
      printf "%s %.3e %.3e\n", (rel > t ? "wrong" : "ok"), (rel > w ? rel : w), (c + 0 > wc + 0 ? c : wc) }')
    set -- $verdict
    worst=$2 worstcheck=$3
    if [ "$1" = wrong ]; then
      wrong=$((wrong + 1))
      echo "  run $i: L2(u*) $got, reference $ref: WRONG and not refused (ustar_check $chk)"
    fi
  done
  echo "case [$args]: runs $n wrong $wrong failed $failed check-fired $fired" \
       "worst-rel-ustar-err $worst worst-ustar_check-passed $worstcheck (reference L2(u*) $ref)" \
       "retried $retried"
  [ "$wrong" -eq 0 ] || echo missed >> "$tmp/missed"
done
[ -e "$tmp/missed" ] && exit 1
exit 0
