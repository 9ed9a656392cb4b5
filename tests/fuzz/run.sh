#!/bin/sh
# Runs every libFuzzer harness of tests/fuzz (README.md there): first over
# its corpus (tests/fuzz/corpus/NAME: the seeds and every input that once
# crashed, so each fixed crash is checked again), then fuzzing for SECONDS
# (-max_total_time, one worker, the harness's dictionary).  New inputs go to
# a temporary folder, never into the repository; a crashing input is kept
# as BUILD_DIR/fuzz-artifacts/NAME-crash-<sha1>.  Fails if any harness
# crashes (a sanitizer report, a leak, an abort, a timeout of 10 s on one
# input, or more than 2 GiB of memory).
# Usage: run.sh BUILD_DIR SECONDS [NAME...]   (BUILD_DIR configured with
#   CC=clang cmake -DHDGCL_FUZZ=ON; cmake --build BUILD_DIR --target hdgcl_fuzz)
set -u
build=${1:?usage: run.sh BUILD_DIR SECONDS [NAME...]}
seconds=${2:?usage: run.sh BUILD_DIR SECONDS [NAME...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
names=${*:-gmsh spec options problem_file expr blas_tuning}
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=""
for name in $names; do
  bin="$build/tests/fuzz/fuzz_$name"
  corpus="$here/corpus/$name"
  if [ ! -x "$bin" ]; then
    echo "run.sh: $bin missing (build the hdgcl_fuzz target)" >&2
    failed="$failed $name"
    continue
  fi
  common="-timeout=10 -rss_limit_mb=2048 -artifact_prefix=$artifacts/$name- -print_final_stats=1"
  [ -f "$here/$name.dict" ] && common="$common -dict=$here/$name.dict"
  start=$(date +%s)
  # 1. every file of the corpus once (-runs=0 after loading it)
  if ! "$bin" $common -runs=0 "$corpus" > "$tmp/$name.corpus.log" 2>&1; then
    echo "run.sh: fuzz_$name: an input of $corpus fails:" >&2
    tail -n 40 "$tmp/$name.corpus.log" >&2
    failed="$failed $name"
    continue
  fi
  # 2. fuzzing: new inputs into $tmp/new-$name, the corpus read-only
  mkdir -p "$tmp/new-$name"
  if ! "$bin" $common -max_total_time="$seconds" "$tmp/new-$name" "$corpus" > "$tmp/$name.log" 2>&1; then
    echo "run.sh: fuzz_$name crashed; the input is in $artifacts:" >&2
    tail -n 60 "$tmp/$name.log" >&2
    failed="$failed $name"
    continue
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$name.log")
  last=$(grep -E '^#[0-9]+' "$tmp/$name.log" | tail -n 1 | sed 's/^#[0-9]* *[A-Z]* *//')
  echo "fuzz_$name: corpus $(ls "$corpus" | wc -l) files ok; ${runs:-?} runs in $(( $(date +%s) - start )) s; $last"
done
if [ -n "$failed" ]; then
  echo "run.sh: FAILED:$failed" >&2
  exit 1
fi
echo "run.sh: all harnesses passed"
