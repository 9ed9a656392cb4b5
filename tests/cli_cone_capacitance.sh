#!/bin/sh
# examples/cone-in-box.json (paper 001's box minus a cone as a capacitor:
# u = 1 on the cone, 0 on the box) converges under p-refinement: on the
# committed 4764-tet mesh C = flux: cone rises with p (4.1120, 4.1263,
# 4.1356 at p = 1..3 on PoCL), each step smaller than the one before, toward
# about 4.19 (a finer mesh's values, docs/problems.md), and the fluxes through
# the cone and the box balance (f = 0, the HDG flux is conservative).
# About a minute on 2 cores: labelled slow.
set -u
. "$(dirname "$0")/cli_common.sh"
c=""
for p in 1 2 3; do
  "$cli" solve --problem-file "$src/examples/cone-in-box.json" --mesh "$src/examples/cone-in-box.msh" \
    --order $p > "$tmp/p$p.txt" 2>&1 || bad "p = $p: $(tail -1 "$tmp/p$p.txt")"
  cone=$(field "$tmp/p$p.txt" 'flux: cone' flux)
  box=$(field "$tmp/p$p.txt" 'flux: box' flux)
  echo "p = $p: C = flux: cone = $cone, flux: box = $box"
  [ -n "$cone" ] && [ -n "$box" ] || { bad "p = $p: no fluxes"; continue; }
  awk -v a="$cone" -v b="$box" 'BEGIN { d = a + b; if (d < 0) d = -d; exit !(d <= 1e-6 * a) }' ||
    bad "p = $p: flux: cone $cone does not balance flux: box $box"
  awk -v a="$cone" 'BEGIN { exit !(a > 4.0 && a < 4.3) }' || bad "p = $p: C = $cone, outside (4.0, 4.3)"
  c="$c $cone"
done
set -- $c
if [ $# -eq 3 ]; then
  awk -v c1="$1" -v c2="$2" -v c3="$3" 'BEGIN { exit !(c2 > c1 && c3 > c2 && c3 - c2 < c2 - c1) }' ||
    bad "C does not converge monotonically under p-refinement: $1, $2, $3"
fi
[ "$fail" -eq 0 ] && echo "cli_cone_capacitance: ok" || { echo "cli_cone_capacitance: $fail failure(s)"; exit 1; }
