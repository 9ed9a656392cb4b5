#!/bin/sh
# Lab 4's checker (docs/labs/lab4_kernel.py) cannot pass vacuously: for the
# kernel KERNEL (spmv or block-jacobi) it FAILS, with a FAIL line saying why,
# on the untouched template and on a deliberately wrong kernel (an off-by-one
# in the block loop), and PASSES on the shipped kernels copied in as the
# student's answer (with the bandwidth report) and on a correct kernel that
# sums in another order.
# usage: docs_lab4.sh PYTHON3 KERNEL   (HDGCL_CLI: the hdgcl executable)
set -u
. "$(dirname "$0")/cli_common.sh"
py=$1; kernel=$2
checker=$src/docs/labs/lab4_kernel.py
case $kernel in
  spmv)
    file=solvers/spmv.cl
    # off by one: the last block of each face row is left out
    wrong='s/for (int slot = 0; slot < NSLOTS; slot++) {   /for (int slot = 0; slot < NSLOTS - 1; slot++) {/'
    # correct, summed backwards over n
    other='s/for (int n = 0; n < NF; n++) s += (double)a\[(long)n \* nrows\] \* xc\[n\];/for (int n = NF - 1; n >= 0; n--) s += (double)a[(long)n * nrows] * xc[n];/' ;;
  block-jacobi)
    file=solvers/precond_block_jacobi.cl
    # off by one: the last column of each inverse block is left out
    wrong='/^double block_jacobi_row(/,/^}/s/for (int n = 0; n < NF; n++) s += b\[n\] \* ru\[n\];/for (int n = 0; n < NF - 1; n++) s += b[n] * ru[n];/'
    other='/^double block_jacobi_row(/,/^}/s/for (int n = 0; n < NF; n++) s += b\[n\] \* ru\[n\];/for (int n = NF - 1; n >= 0; n--) s += b[n] * ru[n];/' ;;
  *) echo "usage: docs_lab4.sh PYTHON3 spmv|block-jacobi"; exit 2 ;;
esac
cd "$tmp" || exit 1

# check DIR EXPECT [options]: runs the checker, wants exit 0 and a PASS line
# (EXPECT pass) or exit 1 and a FAIL line as the last line (EXPECT fail).
check() {
  d=$1; want=$2; shift 2
  "$py" "$checker" check "$d" --kernel "$kernel" --hdgcl "$cli" "$@" > "$d.out" 2>&1
  rc=$?
  last=$(tail -1 "$d.out")
  case $want:$rc in
    pass:0) echo "$last" | grep -q "^PASS: " && ok "$d passes: $last" || bad "$d: exit 0 but no PASS line: $last" ;;
    fail:1) echo "$last" | grep -q "^FAIL: ." && ok "$d fails: $last" || bad "$d: exit 1 but no FAIL line: $last" ;;
    *) bad "$d: exit status $rc, expected $want"; sed 's/^/     /' "$d.out" | tail -15 ;;
  esac
}

# variant NAME SED: a copy of the shipped kernels with one edit, which must apply
variant() {
  cp -R "$src/cl" "$1"
  sed "$2" "$src/cl/$file" > "$1/$file"
  if cmp -s "$src/cl/$file" "$1/$file"; then bad "$1: the edit did not apply to $file"; return 1; fi
}

"$py" "$checker" setup template --kernel "$kernel" > setup.out 2>&1 || bad "setup: $(tail -1 setup.out)"
grep -q "YOUR CODE HERE" "template/$file" || bad "setup did not put the template into template/$file"
"$py" "$checker" setup template --kernel "$kernel" > again.out 2>&1 && bad "setup overwrote template/"
check template fail --no-bench
variant wrong "$wrong" && check wrong fail --no-bench
tail -1 wrong.out | grep -q "iterations" || bad "wrong: the FAIL line does not say what went wrong with CG"
cp -R "$src/cl" shipped
check shipped pass
grep -q "% of copy" shipped.out || bad "shipped: no bandwidth against copy reported"
grep -q "^  shipped " shipped.out || bad "shipped: the shipped kernel's bandwidth is not reported"
variant reordered "$other" && check reordered pass --no-bench
[ "$fail" -eq 0 ] && echo "docs_lab4 $kernel: ok" || { echo "docs_lab4 $kernel: $fail failure(s)"; exit 1; }
