#!/bin/sh
# Element batches (docs/geometry.md, "Element batches"): the local stage and
# recovery of a mesh curved only at its boundary, batched (straight elements
# on the affine path, curved ones mapped) against all-mapped (HDGCL_BATCHES=off),
# the fully curved mesh and the straight-sided one.  A benchmark, not a test.
#
# Usage: perf/batches.sh [HDGCL] [DEVICE] [N] [P]   (defaults build/hdgcl pocl 16 3)
# Prints, per case, hdgcl bench's stage medians (local, recover) and its
# back-to-back local_stage timing.
set -eu
cli=${1:-build/hdgcl} device=${2:-pocl} n=${3:-16} p=${4:-3}
bench() { # LABEL MESH BATCHES (on | off)
  label=$1 mesh=$2
  HDGCL_BATCHES=$3 "$cli" bench --mesh "$mesh" --device "$device" --problem-file examples/annulus-log.json --order "$p" --repeat 5 \
    --copy-mib 16 --dgemm-batch 200 --min-time 0.5 2>&1 |
    awk -v label="$label" '/^user on/ { sub(/^user on /, ""); head = $0 }
      /^  (local|recover) +[0-9]/ { t[$1] = $2 } /^  local_stage / { ls = $2 }
      END { printf "%-50s local %9s ms  recover %9s ms  local_stage %9s ms   (%s)\n", label, t["local"], t["recover"], ls, head }'
}
for kind in annulus annulus-quad; do
  bench "$kind:$n,order=1 (straight)" "$kind:$n,order=1" on
  bench "$kind:$n,order=2,curve=boundary batched" "$kind:$n,order=2,curve=boundary" on
  bench "$kind:$n,order=2,curve=boundary all-mapped" "$kind:$n,order=2,curve=boundary" off
  bench "$kind:$n,order=2 (curved everywhere)" "$kind:$n,order=2" on
done
