#!/bin/sh
# perf/report.py on the fixture results of tests/data/perf (invented, round
# numbers on devices named FIXTURE): every section is written, every figure is
# a PNG under 200 KB linked from the markdown, the Targets rows computed from
# the fixtures say what they must, the output is byte-for-byte deterministic,
# and without bench files the roofline section says so (no figure).  Exits 77
# (skipped) only when the Python given has no matplotlib.
#
# usage: tests/perf_report.sh PYTHON3 SOURCE_DIR
set -eu
py=$1; src=$2
"$py" -c 'import matplotlib' 2>/dev/null || { echo "SKIP: $py has no matplotlib"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

run() {  # run RESULTS OUTDIR
  mkdir -p "$2"
  "$py" "$src/perf/report.py" --results "$1" --output "$2/performance.md" || fail "report.py on $1 exited $?"
}

run "$src/tests/data/perf" "$tmp/a"
md=$tmp/a/performance.md
for h in "## Targets" "### Largest problems solved" "## Paper 000 benchmark" "### Stage breakdown against p" \
         "## Cross-vendor" "## Time-accuracy" "## 3D: Helmholtz on the unit cube" \
         "## Side by side with NVIDIA's libraries" "## Rooflines"; do
  grep -q "^$h" "$md" || fail "no section '$h' in the report"
done

# Every figure linked exists, is a PNG, is under 200 KB; and the expected ones are there.
links=$(sed -n 's/^!\[[^]]*\](\([^)]*\))$/\1/p' "$md")
[ -n "$links" ] || fail "no figure linked"
for f in $links; do
  [ -f "$tmp/a/$f" ] || fail "linked figure $f not written"
  [ "$(head -c 4 "$tmp/a/$f" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "$f is not a PNG"
  [ "$(wc -c < "$tmp/a/$f")" -lt 204800 ] || fail "$f is 200 KB or more"
  grep -A 2 -F "($f)" "$md" | grep -q '^\*Figure: .*from `' || fail "$f has no caption naming its results file"
done
for f in stages-40x40 cross-vendor tas-paper000 tas-cube3d; do
  echo "$links" | grep -qx "figures/$f.png" || fail "figure $f not linked"
done
echo "$links" | grep -q '^figures/roofline-fixture-nvidia-h100' || fail "no roofline of the fixture GPU"
[ "$(ls "$tmp/a/figures" | wc -l)" -eq "$(echo "$links" | wc -l)" ] || fail "figures written but not linked"

# Targets computed from the fixtures: 900 of 1000 GB/s (90%) met; 100 us / 50 us = 2.00x met;
# symmetric 100 / 30 = 3.33x met; local 50 GFLOP/s back to back (10 in the solve) under the DGEMMs'
# 100 not met; 0.08 M DOFs not met.
grep -q '^| block-ELL SpMV >= 85% .*| `square:40` p = 2: 90% (spmv_bell, 900 of 1000 GB/s) | \*\*met\*\* |' "$md" \
  || fail "SpMV bandwidth target row"
grep -q '^| block-ELL SpMV >= 1.6x .*| fixture: 2.00x (spmv_bell 50.0 us, cuSPARSE CSR 100.0 us) | \*\*met\*\* |' "$md" \
  || fail "cuSPARSE speedup target row"
grep -q '^| (stretch) .*| fixture: 3.33x (spmv_bell_mixed 30.0 us, .*| \*\*met\*\* |' "$md" || fail "stretch row"
grep -q '^| whole local stage .*local 50 GFLOP/s back to back (10 in the solve.s pass), CLBlast DGEMMs 100 GFLOP/s | \*\*not met\*\* |' "$md" \
  || fail "local stage target row"
grep -q '^| >= 100 M trace DOFs .*0.08 M trace DOFs .*| \*\*not met\*\* (so far) |' "$md" || fail "DOFs target row"
grep -q '^| 2D | PoCL 0.0, 2 Intel cores | `square:40` | 2 | triangle | 80,000 |' "$md" || fail "largest-problem row"
grep -q '^| kernel | spmv_bell | 0.050 | 900 | 90% | 200 | 10% | 1.0e-16 |' "$md" || fail "roofline table row"
grep -q "^| kernel | clblast_local_gemms | 0.010 | 100 | 10% | 100 | 5% |  |$" "$md" || fail "roofline row with a null rel_error"

# Deterministic: a second run gives the same bytes.
run "$src/tests/data/perf" "$tmp/b"
cmp -s "$md" "$tmp/b/performance.md" || fail "markdown differs between two runs"
for f in "$tmp"/a/figures/*.png; do
  cmp -s "$f" "$tmp/b/figures/${f##*/}" || fail "${f##*/} differs between two runs"
done

# Without bench files: the roofline section says so, no roofline figure, targets not measured.
mkdir "$tmp/nobench"
cp "$src"/tests/data/perf/*.json "$src"/tests/data/perf/*.jsonl "$tmp/nobench/"
rm "$tmp"/nobench/bench-*.jsonl
run "$tmp/nobench" "$tmp/c"
grep -q "^No \`bench-\*.jsonl\` in the results yet" "$tmp/c/performance.md" || fail "no-bench roofline text"
ls "$tmp/c/figures" | grep -q roofline && fail "roofline figure without bench files"
grep -q '^| block-ELL SpMV >= 85% .*| not measured yet |' "$tmp/c/performance.md" || fail "no-bench SpMV row"

# A bad line is refused with a message naming the file and line, and exit status 1.
mkdir "$tmp/bad"; echo '{"mesh": ' > "$tmp/bad/paper000-bad.jsonl"
if "$py" "$src/perf/report.py" --results "$tmp/bad" --output "$tmp/bad/p.md" 2> "$tmp/err"; then
  fail "report.py accepted a line that is not JSON"
fi
grep -q 'paper000-bad.jsonl line 1 is not JSON' "$tmp/err" || fail "error does not name the bad line: $(cat "$tmp/err")"
[ ! -e "$tmp/bad/p.md" ] || fail "a report was written from bad input"
echo "perf_report: ok"
