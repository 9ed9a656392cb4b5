#!/bin/sh
# Lab 6's checker (docs/labs/lab6_check.py) on the coaxial cable of
# docs/labs/lab6: PASSES with the problem as shipped and its known capacitance
# 2 pi / ln 2; FAILS, with a FAIL line naming the check, with a wrong known
# value (1 % off), with a wrong problem (kappa = 2: twice the capacitance),
# with a charge between the conductors (f = 1: the fluxes no longer balance)
# and with an output the problem file does not have.
# usage: docs_lab6.sh PYTHON3   (HDGCL_CLI: the hdgcl executable)
set -u
. "$(dirname "$0")/cli_common.sh"
py=$1
lab=$src/docs/labs/lab6
exact=9.064720283654388

# check NAME EXPECT PROBLEM [options]: exit 0 and a PASS line, or exit 1 and a
# FAIL line last that contains the text EXPECT names after "fail:"
check() {
  name=$1; want=$2; problem=$3; shift 3
  "$py" "$src/docs/labs/lab6_check.py" --problem-file "$problem" --mesh "$lab/coax-1.msh" \
    --mesh "$lab/coax-2.msh" --mesh "$lab/coax-3.msh" --device ref --hdgcl "$cli" "$@" > "$tmp/$name.out" 2>&1
  rc=$?
  last=$(tail -1 "$tmp/$name.out")
  case $want:$rc in
    pass:0) echo "$last" | grep -q "^PASS: " && ok "$name passes: $last" || bad "$name: no PASS line: $last" ;;
    fail:*:1) echo "$last" | grep "^FAIL: " | grep -q "${want#fail:}" && ok "$name fails: $last" ||
                bad "$name: the FAIL line does not say '${want#fail:}': $last" ;;
    *) bad "$name: exit status $rc, expected $want"; sed 's/^/     /' "$tmp/$name.out" | tail -15 ;;
  esac
}

check shipped pass "$lab/coax.json" --output "flux: inner" --balances "flux: outer" --exact $exact
grep -q "observed order" "$tmp/shipped.out" || bad "shipped: no observed order printed"
check wrong-value "fail:the error against" "$lab/coax.json" --output "flux: inner" --exact 9.155
sed 's/"kappa": 1,/"kappa": 2,/' "$lab/coax.json" > "$tmp/kappa2.json"
cmp -s "$lab/coax.json" "$tmp/kappa2.json" && bad "kappa2: the edit did not apply"
check kappa2 "fail:more than --tol" "$tmp/kappa2.json" --output "flux: inner" --exact $exact
sed 's/"f": 0,/"f": 1,/' "$lab/coax.json" > "$tmp/charged.json"
cmp -s "$lab/coax.json" "$tmp/charged.json" && bad "charged: the edit did not apply"
check charged "fail:balance" "$tmp/charged.json" --output "flux: inner" --balances "flux: outer"
check no-output "fail:has no output" "$lab/coax.json" --output "flux: shield"
[ "$fail" -eq 0 ] && echo "docs_lab6: ok" || { echo "docs_lab6: $fail failure(s)"; exit 1; }
