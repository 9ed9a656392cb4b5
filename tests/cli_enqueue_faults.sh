#!/bin/sh
# An OpenCL call failing mid-solve (docs/reliability.md): with the test hook
# HDGCL_TEST_FAIL_ENQUEUE=N the Nth enqueue of the context (kernel launch,
# read, write, copy) fails with CL_OUT_OF_RESOURCES.  For N from 1 up to past
# the last enqueue of a solve, every run must end with exit 1, one line naming
# the call and the error, and no output file; under AddressSanitizer (the CI's
# second pass) a leak on any of those paths fails the run too.
. "$(dirname "$0")/cli_common.sh"

for case in "--mesh square:4 --order 2" "--mesh quad:3 --order 2 --precond pmg" \
            "--mesh cube:2 --order 1 --problem elasticity" \
            "--mesh square:4 --order 2 --problem convection-diffusion --solver gmres"; do
  runs=0 failed=0 n=1
  while :; do
    rm -f "$dir"/o.*
    # shellcheck disable=SC2086
    HDGCL_TEST_FAIL_ENQUEUE=$n "$cli" solve $case --json "$dir/o.json" --vtu "$dir/o.vtu" \
      > "$dir/out" 2> "$dir/err"
    code=$?
    runs=$((runs + 1))
    if [ $code = 0 ]; then break; fi # past the last enqueue
    failed=$((failed + 1))
    if [ $code != 1 ] || [ "$(wc -l < "$dir/err")" != 1 ] ||
       ! grep -q "^hdgcl solve: error: clEnqueue[A-Za-z]*\(([A-Za-z_0-9 :]*)\)\{0,1\} failed: CL_OUT_OF_RESOURCES (injected by HDGCL_TEST_FAIL_ENQUEUE=$n)$" "$dir/err"; then
      bad "$case, enqueue $n fails: exit $code, stderr:"; head -c 3000 "$dir/err"; break
    fi
    if [ -n "$(ls "$dir" | grep '^o\.')" ]; then bad "$case, enqueue $n fails: files left: $(ls "$dir")"; break; fi
    # 1, 2, 3, 4, 6, 8, 11, 16, ...: every stage's first calls, then sparser
    n=$((n < 4 ? n + 1 : n * 3 / 2))
  done
  [ $code = 0 ] && ok "$case: $failed failing enqueues (1 .. $((n * 2 / 3))) each stopped cleanly; enqueue $n is past the end"
done
exit $fail
