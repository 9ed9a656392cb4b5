#!/bin/sh
# Lab 5's answer checker (docs/labs/lab5_roofline.py check) on the worked
# example (docs/labs/lab5: the H100's bench case square:80 p = 4 and its
# answers): PASSES with the right answers, FAILS, naming the answer, with a
# number 5 % off, a flipped bound, a missing answer, an unknown question, and
# the H100's answers checked against the 16-core PoCL case; the table and the
# template cover every question; the roofline PNG is written when the Python
# has matplotlib (else the table says why there is no plot).
# usage: docs_lab5.sh PYTHON3
set -u
. "$(dirname "$0")/cli_common.sh"
py=$1
lab=$src/docs/labs/lab5
h100=$lab/bench-h100-square80-p4.jsonl
pocl=$lab/bench-pocl-xeon16-square80-p4.jsonl
tool=$src/docs/labs/lab5_roofline.py

# check NAME BENCH ANSWERS EXPECT: EXPECT is pass, or fail:TEXT (in the FAIL line)
check() {
  "$py" "$tool" check "$2" "$3" > "$tmp/$1.out" 2>&1
  rc=$?
  last=$(tail -1 "$tmp/$1.out")
  case $4:$rc in
    pass:0) echo "$last" | grep -q "^PASS: " && ok "$1 passes: $last" || bad "$1: no PASS line: $last" ;;
    fail:*:1) echo "$last" | grep "^FAIL: " | grep -qF "${4#fail:}" && ok "$1 fails: $last" ||
                bad "$1: the FAIL line does not say '${4#fail:}': $last" ;;
    *) bad "$1: exit status $rc, expected $4"; sed 's/^/     /' "$tmp/$1.out" | tail -15 ;;
  esac
}
edit() {  # edit NAME SED: the worked answers with one change, which must apply
  sed "$2" "$lab/answers-h100.txt" > "$tmp/$1.txt"
  cmp -s "$lab/answers-h100.txt" "$tmp/$1.txt" && bad "$1: the edit did not apply"
}

check right "$h100" "$lab/answers-h100.txt" pass
edit off5 's/^intensity solve = 0.182 /intensity solve = 0.191 /'
check off5 "$h100" "$tmp/off5.txt" "fail:intensity solve: wrong"
edit flipped 's/^bound solve = memory/bound solve = compute/'
check flipped "$h100" "$tmp/flipped.txt" "fail:bound solve: wrong"
edit missing '/^fraction local/d'
check missing "$h100" "$tmp/missing.txt" "fail:fraction local: not answered"
edit unknown 's/^ridge = /ridge point = /'
check unknown "$h100" "$tmp/unknown.txt" "fail:unknown question 'ridge point'"
check other-device "$pocl" "$lab/answers-h100.txt" "fail:ridge: wrong"

"$py" "$tool" template "$pocl" > "$tmp/template.txt" || bad "template exited $?"
n=$(grep -c " =$" "$tmp/template.txt")
[ "$n" -eq 13 ] && ok "template: 13 questions" || bad "template: $n questions, not 13"
check template "$pocl" "$tmp/template.txt" "fail:13 of 13 answers wrong or missing"
"$py" "$tool" table "$h100" "$pocl" --plot "$tmp/roof" > "$tmp/table.out" 2>&1 || bad "table exited $?"
[ "$(grep -c "ridge point" "$tmp/table.out")" -eq 2 ] || bad "table: not one ceiling line per file"
grep -q "^  spmv_bell_i .* memory " "$tmp/table.out" || bad "table: spmv_bell_i is not memory-bound"
if "$py" -c 'import matplotlib' 2>/dev/null; then
  for f in "$tmp"/roof-nvidia-h100-80gb-hbm3.png "$tmp"/roof-cpu-skylake-avx512-intel-r-xeon-r-processor.png; do
    [ "$(head -c 4 "$f" 2>/dev/null | od -An -c | tr -d ' ')" = "211PNG" ] && ok "plot $(basename "$f")" ||
      bad "plot: $f is not a PNG"
  done
else
  grep -q "^no plot: " "$tmp/table.out" && ok "no matplotlib: the table says so" || bad "table: no plot and no reason"
fi
[ "$fail" -eq 0 ] && echo "docs_lab5: ok" || { echo "docs_lab5: $fail failure(s)"; exit 1; }
