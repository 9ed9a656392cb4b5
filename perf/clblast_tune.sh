#!/bin/sh
# Tunes CLBlast's direct GEMM kernels (XgemmDirect, the kernels behind
# hdgcl's DgemmStridedBatched) in double precision for one device and writes
# the result in hdgcl's database format (docs/clblast-tuning.md).
#
# usage: perf/clblast_tune.sh P:D OUT.txt
#   P:D       the device, as `hdgcl devices` numbers it (OpenCL platform and
#             device index; a single number D means platform 0)
#   OUT.txt   the database file to write; to ship it, copy it to
#             perf/clblast/<the name the script prints>.txt and rebuild
# Environment (defaults in brackets):
#   HDGCL_TUNE_SIZES    GEMM shapes to tune at, blank-separated, each MxNxK or
#                       S (= SxSxS) [64 30x13x30 80x41x80]: the 64^3 of
#                       `hdgcl bench`, and the local stage's first GEMM
#                       (np x nt+1 x np) at order 3 in 2D (triangles) and 3D
#                       (tetrahedra), host/pipeline/local.c
#   HDGCL_TUNE_FRACTION the tuner's -fraction: it tries 1/FRACTION of the
#                       configurations (>= 1; 32: 1 of the 46 of the first phase,
#                       263 of the 8420 of the second) [32]
#   HDGCL_TUNE_RUNS     timed runs per configuration [2]
#   HDGCL_TUNE_TIMEOUT  seconds allowed for each size [600]
#   CLBLAST_TUNER       the tuner executable [clblast_tuner_xgemm_direct]
# Needs clblast-utils (Debian/Ubuntu: apt-get install clblast-utils).
# Exits non-zero, with a message, when a size gives no result.
set -u
usage() { echo "usage: $0 P:D OUT.txt" >&2; exit 2; }
[ $# -eq 2 ] || usage
case $1 in
  *:*) platform=${1%%:*}; device=${1#*:} ;;
  *) platform=0; device=$1 ;;
esac
case "$platform$device" in ''|*[!0-9]*) echo "$0: device '$1' is not P:D (e.g. 0:0)" >&2; exit 2 ;; esac
out=$2
sizes=${HDGCL_TUNE_SIZES:-64 30x13x30 80x41x80}
fraction=${HDGCL_TUNE_FRACTION:-32}
runs=${HDGCL_TUNE_RUNS:-2}
limit=${HDGCL_TUNE_TIMEOUT:-600}
tuner=${CLBLAST_TUNER:-clblast_tuner_xgemm_direct}
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3; [ -x "$py" ] || py=python3
command -v "$tuner" > /dev/null || { echo "$0: $tuner not found (install clblast-utils)" >&2; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; trap 'exit 1' INT TERM HUP

# The tuner draws its random subset with a fixed seed, so every size measures
# the same configurations and clblast_tuning.py can weigh them across sizes.
jsons=""
for s in $sizes; do
  case $s in
    *x*x*) m=${s%%x*}; rest=${s#*x}; n=${rest%%x*}; k=${rest#*x} ;;
    *) m=$s; n=$s; k=$s ;;
  esac
  case "$m$n$k" in ''|*[!0-9]*) echo "$0: size '$s' is not MxNxK or S" >&2; exit 2 ;; esac
  mkdir "$work/$s"
  echo "== tuning XgemmDirect, double, m=$m n=$n k=$k on $platform:$device (fraction $fraction, at most ${limit}s)"
  start=$(date +%s)
  (cd "$work/$s" && timeout "$limit" "$tuner" -platform "$platform" -device "$device" -precision 64 \
     -m "$m" -n "$n" -k "$k" -fraction "$fraction" -runs "$runs" > tuner.log 2>&1)
  rc=$?
  found=$(ls "$work/$s"/clblast_xgemm_direct_*.json 2> /dev/null)
  echo "   $(($(date +%s) - start)) s, exit status $rc, $(echo "$found" | grep -c json) result file(s)"
  if [ $rc -ne 0 ]; then
    echo "$0: warning: the tuner at size $s exited $rc$( [ $rc -eq 124 ] && echo " (timed out)"); last lines:" >&2
    tail -n 3 "$work/$s/tuner.log" >&2
  fi
  [ -n "$found" ] || { echo "$0: no tuner result at size $s (the tuner exited $rc; it prints no reason when P:D names no device: see hdgcl devices)" >&2; exit 1; }
  jsons="$jsons $found"
done

# shellcheck disable=SC2086  # the JSON paths are mktemp names without blanks
"$py" "$here/clblast_tuning.py" --tuner "$tuner -platform $platform -device $device -precision 64 -m/-n/-k in {$sizes} -fraction $fraction -runs $runs" $jsons > "$work/out.txt" \
  || { echo "$0: conversion failed" >&2; exit 1; }
cp "$work/out.txt" "$out" || exit 1
name=$("$py" "$here/clblast_tuning.py" --name $jsons) || exit 1
cat "$out"
echo "== wrote $out; to ship it for this device: cp $out perf/clblast/$name (then rebuild)"
