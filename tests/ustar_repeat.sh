#!/bin/sh
# Issue 32: the two solves whose u* PoCL 5.0 got wrong in 1 of 6 runs with
# empty kernel caches, N times each on the default device with fresh hdgcl and
# PoCL caches (every kernel compiled afresh), L2(u*) against --device ref to
# 1e-10 relative to norm_u (perf/pocl_ustar_repeat.sh).  Fails on any wrong,
# failed or refused run.
# Usage: ustar_repeat.sh HDGCL SOURCE_DIR [N]
set -u
cli=$1 src=$2 n=${3:-4}
out=$(sh "$src/perf/pocl_ustar_repeat.sh" "$cli" "$n" default)
rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || exit 1
[ "$(printf '%s\n' "$out" | grep -c "^case .*: runs $n wrong 0 failed 0 check-fired 0 ")" -eq 2 ] || exit 1
exit 0
