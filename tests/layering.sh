#!/bin/sh
# The layers of host/ and cl/ (docs/architecture.md): a file may include its
# own folder and the folders below it, never one above; the kernel files a
# host file builds ("pipeline/local.cl") obey the same order.  From the bottom:
#   core  meshgen  fem  problem  discretisation  solvers  pipeline|reference  drivers  parallel  io  cli
# pipeline and reference are two implementations of the trace operator and
# do not include each other.
# tests/layering_known.txt lists the upward includes that remain ("FILE ->
# FOLDER/HEADER"): the check fails on a new one and on a listed one that is
# gone, so the list only shrinks.
# Usage: layering.sh SOURCE_DIR
src=${1:?usage: layering.sh SOURCE_DIR}
known_file=${LAYERING_KNOWN:-$(cd "$(dirname "$0")" && pwd)/layering_known.txt}
cd "$src" || exit 1


rank() {
  case $1 in
    core) echo 0 ;; meshgen) echo 1 ;; fem) echo 2 ;; problem) echo 3 ;; discretisation) echo 4 ;;
    solvers) echo 5 ;; pipeline | reference) echo 6 ;; drivers) echo 7 ;;
    parallel) echo 8 ;; io) echo 9 ;; cli) echo 10 ;;
  esac
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/found"
for f in host/*/*.c host/*/*.h meshgen/*.c meshgen/*.h; do
  from=$(basename "$(dirname "$f")")
  rf=$(rank "$from")
  [ -n "$rf" ] || { echo "FAIL: $f: its folder $from is no layer (add it to tests/layering.sh)"; exit 1; }
  # Included headers, then the kernel files named in strings.
  { sed -n 's/^#include "\(cl\/\)\{0,1\}\([a-z]*\/[A-Za-z0-9_.]*\)".*/\2/p' "$f"
    grep -o '"[a-z]*/[a-z_0-9]*\.\(cl\|h\)"' "$f" | tr -d '"'; } | sort -u |
  while read -r dep; do
    layer=${dep%%/*}
    rd=$(rank "$layer")
    [ -n "$rd" ] || continue
    if [ "$layer" != "$from" ] && [ "$rd" -ge "$rf" ]; then echo "$f -> $dep"; fi
  done >> "$tmp/found"
done
sort -u "$tmp/found" -o "$tmp/found"
grep -v '^#' "$known_file" | sed '/^$/d' | sort -u > "$tmp/known"
fail=0
new=$(comm -23 "$tmp/found" "$tmp/known")
gone=$(comm -13 "$tmp/found" "$tmp/known")
if [ -n "$new" ]; then
  echo "FAIL: includes upward across layers (docs/architecture.md):"; echo "$new"; fail=1
fi
if [ -n "$gone" ]; then
  echo "FAIL: listed in tests/layering_known.txt but gone (delete them there):"; echo "$gone"; fail=1
fi
[ $fail = 0 ] && echo "ok: layers hold ($(wc -l < "$tmp/known") known upward includes left)"

# Canary: the check is live.  A copy whose core includes a driver must fail.
if [ -z "${LAYERING_CANARY:-}" ]; then
  mkdir "$tmp/copy" && cp -r host meshgen "$tmp/copy/"
  echo '#include "drivers/solver_impl.h"' >> "$tmp/copy/host/core/error.c"
  if LAYERING_CANARY=1 LAYERING_KNOWN=$known_file sh "$0" "$tmp/copy" > "$tmp/canary.out" 2>&1; then
    echo "FAIL: canary: core including drivers/solver_impl.h passed"; fail=1
  elif grep -q 'host/core/error.c -> drivers/solver_impl.h' "$tmp/canary.out"; then
    echo "ok: canary: an upward include is reported"
  else
    echo "FAIL: canary: failed without naming the include"; cat "$tmp/canary.out"; fail=1
  fi
fi
exit $fail
