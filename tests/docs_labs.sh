#!/bin/sh
# Runs every command of the labs (docs/labs/lab*.md): each line of their ```sh
# blocks, in order, in a scratch directory, with ./build/hdgcl replaced by the
# hdgcl under test and docs/labs/ by the source tree's.  A line that exits
# non-zero (a failing command, or a `| grep` that finds nothing, in any
# iteration of a loop: each line runs under sh -e) fails the test.
# usage: docs_labs.sh SOURCE_DIR PYTHON3 [LAB.md ...]   (HDGCL_CLI: the hdgcl
# executable; the labs are names under docs/labs/, default all lab*.md)
set -u
src=$1; py=$2; shift 2
: "${HDGCL_CLI:?HDGCL_CLI must name the hdgcl executable}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
status=0
labs=""
for name in "$@"; do
  [ -f "$src/docs/labs/$name" ] || { echo "FAIL: no lab docs/labs/$name"; exit 1; }
  labs="$labs $src/docs/labs/$name"
done
[ -n "$labs" ] || labs=$(ls "$src"/docs/labs/lab*.md)
for lab in $labs; do
  # the lines inside ```sh ... ``` fences
  awk '/^```sh$/ {on = 1; next} /^```$/ {on = 0} on && NF && !/^#/' "$lab" > commands
  [ -s commands ] || { echo "FAIL $lab: no commands"; status=1; continue; }
  while IFS= read -r line; do
    cmd=$(printf '%s\n' "$line" | sed -e "s#\./build/hdgcl#\"$HDGCL_CLI\"#g" \
          -e "s#docs/labs/#$src/docs/labs/#g" -e "s#^python3 #$py #")
    if sh -e -c "$cmd" > out 2>&1 < /dev/null; then
      echo "ok   $(basename "$lab"): $line"
    else
      echo "FAIL $(basename "$lab"): $line"; sed 's/^/     /' out | tail -20; status=1
    fi
  done < commands
done
exit $status
