#!/bin/sh
# SIGINT and SIGTERM during a long solve (docs/reliability.md): hdgcl stops
# within a second, removes the temporaries of its output files (the JSON is
# open from the start: PATH.tmp.PID), says why on stderr and exits with
# 128 + the signal's number; no output file is left.
. "$(dirname "$0")/cli_common.sh"

# A solve that takes many seconds on the reference path, with every output.
interrupt() { # SIGNAL EXPECTED_CODE
  out="$dir/$1"
  mkdir "$out"
  "$cli" solve --mesh square:96 --order 6 --device ref --json "$out/o.json" --vtu "$out/o.vtu" \
    --export-matrix "$out/m" > "$out/stdout" 2> "$out/stderr" &
  pid=$!
  waited=0 # until the JSON's temporary exists (the solve has begun), 60 s at most
  while [ -z "$(ls "$out" | grep 'o.json.tmp')" ] && [ $waited -lt 600 ] && kill -0 $pid 2>/dev/null; do
    sleep 0.1
    waited=$((waited + 1))
  done
  sleep 1
  if ! kill -0 $pid 2>/dev/null; then bad "$1: the solve ended before the signal"; return; fi
  start=$(date +%s.%N)
  kill -s "$1" $pid
  wait $pid
  code=$?
  end=$(date +%s.%N)
  took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  [ "$code" = "$2" ] && ok "$1: exit code $code" || bad "$1: exit code $code, expected $2"
  awk -v t="$took" 'BEGIN { exit !(t < 1.0) }' && ok "$1: stopped in $took s" \
    || bad "$1: took $took s to stop"
  grep -q "^hdgcl: .*(SIG$1): stopped, unfinished output files removed$" "$out/stderr" \
    && ok "$1: message" || { bad "$1: message"; cat "$out/stderr"; }
  left=$(ls "$out" | grep -v '^stdout$\|^stderr$')
  [ -z "$left" ] && ok "$1: no file left" || bad "$1: files left: $left"
}
interrupt INT 130
interrupt TERM 143
exit $fail
