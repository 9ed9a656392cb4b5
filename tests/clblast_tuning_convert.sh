#!/bin/sh
# perf/clblast_tuning.py on hand-written tuner JSON fixtures
# (tests/data/clblast/fixture_*.json, device "FIXTURE device (not real)"):
# one size gives its fastest configuration; two sizes give the configuration
# measured at both with the least sum of time/best (not the fastest at either
# size); --name gives the database file name; the output is a file hdgcl
# accepts (hdgcl devices names it as the tuning); unusable input exits 1 with
# one line on stderr; perf/clblast_tune.sh drives a stand-in tuner end to end.
#
# usage: tests/clblast_tuning_convert.sh PYTHON3 SOURCE_DIR   (HDGCL_CLI set)
set -u
py=$1; src=$2
cli=${HDGCL_CLI:?HDGCL_CLI not set}
conv="$src/perf/clblast_tuning.py"; data="$src/tests/data/clblast"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }

"$py" "$conv" --tuner "fixture tuner" "$data/fixture_xgemm_direct_2_64.json" > "$tmp/one.txt" 2> "$tmp/err"
[ "$(tail -n 1 "$tmp/one.txt")" = "XgemmDirect 64 WGD=64 MDIMCD=32 NDIMCD=16 MDIMAD=32 NDIMBD=16 KWID=8 VWMD=2 VWND=4 PADA=1 PADB=0" ] \
  && grep -q '^# device: FIXTURE device (not real); platform: FIXTURE platform$' "$tmp/one.txt" \
  && grep -q '^# tuner: fixture tuner$' "$tmp/one.txt" && [ ! -s "$tmp/err" ] \
  && ok "one size: the fastest configuration" || { bad "one size"; cat "$tmp/one.txt" "$tmp/err"; }

"$py" "$conv" "$data/fixture_xgemm_direct_2_64.json" "$data/fixture_xgemm_direct_2_40.json" > "$tmp/two.txt" 2> "$tmp/err"
[ "$(tail -n 1 "$tmp/two.txt")" = "XgemmDirect 64 WGD=16 MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=8 KWID=2 VWMD=1 VWND=2 PADA=1 PADB=1" ] \
  && grep -q '^# chosen over 3 configurations measured at every size' "$tmp/two.txt" \
  && grep -q '^#   m=40 n=40 k=40: 0.500 / 0.400$' "$tmp/two.txt" \
  && grep -q '^#   m=64 n=64 k=64: 1.100 / 0.900$' "$tmp/two.txt" \
  && ok "two sizes: least sum of time/best over configurations at both" || { bad "two sizes"; cat "$tmp/two.txt" "$tmp/err"; }

[ "$("$py" "$conv" --name "$data/fixture_xgemm_direct_2_40.json")" = "FIXTURE_device__not_real_.txt" ] \
  && ok "--name" || bad "--name"

# hdgcl reads what the converter writes.
HDGCL_CLBLAST_TUNING="$tmp/two.txt" "$cli" devices > "$tmp/dev" 2>&1 \
  && grep -q "CLBlast tuning: XgemmDirect from $tmp/two.txt (HDGCL_CLBLAST_TUNING)" "$tmp/dev" \
  && ok "hdgcl devices accepts the converter's output" || { bad "hdgcl devices on the output"; cat "$tmp/dev"; }

# expect_error NAME PATTERN JSON...: exit 1, one line on stderr matching PATTERN.
expect_error() {
  name=$1; pattern=$2; shift 2
  "$py" "$conv" "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?
  if [ "$rc" -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q -- "$pattern" "$tmp/err"; then ok "$name"
  else bad "$name (rc=$rc, stderr: $(cat "$tmp/err"))"; fi
}
sed 's/"precision": "64"/"precision": "32"/' "$data/fixture_xgemm_direct_2_64.json" > "$tmp/p32.json"
expect_error "single precision refused" "precision 32, hdgcl needs 64" "$tmp/p32.json"
sed 's/"kernel_family": "xgemm_direct_2"/"kernel_family": "xaxpy_1"/' "$data/fixture_xgemm_direct_2_64.json" > "$tmp/fam.json"
expect_error "other kernel family refused" "kernel family xaxpy_1 is not one hdgcl applies" "$tmp/fam.json"
sed 's/"FIXTURE device (not real)"/"another device"/' "$data/fixture_xgemm_direct_2_40.json" > "$tmp/dev.json"
expect_error "two devices refused" "results of several devices" "$data/fixture_xgemm_direct_2_64.json" "$tmp/dev.json"
echo '{"results": []}' > "$tmp/junk.json"
expect_error "not a tuner result" "no 'kernel_family'" "$tmp/junk.json"
expect_error "missing file" "cannot read tuner JSON" "$tmp/nonexistent.json"
# perf/clblast_tune.sh with a stand-in tuner that writes the fixtures: shapes
# passed through, the converter's choice written and the database name printed;
# a tuner that writes nothing fails the script with a message.
cat > "$tmp/fake_tuner" <<FAKE
#!/bin/sh
while [ \$# -gt 0 ]; do [ "\$1" = -m ] && m=\$2; shift; done
cp "$data/fixture_xgemm_direct_2_\$m.json" "clblast_xgemm_direct_2_\$m.json"
FAKE
chmod +x "$tmp/fake_tuner"
CLBLAST_TUNER="$tmp/fake_tuner" HDGCL_TUNE_SIZES="64 40x40x40" sh "$src/perf/clblast_tune.sh" 0:0 "$tmp/tuned.txt" > "$tmp/log" 2>&1 \
  && [ "$(tail -n 1 "$tmp/tuned.txt")" = "$(tail -n 1 "$tmp/two.txt")" ] \
  && grep -q "perf/clblast/FIXTURE_device__not_real_.txt" "$tmp/log" \
  && ok "clblast_tune.sh with a stand-in tuner" || { bad "clblast_tune.sh with a stand-in tuner"; cat "$tmp/log"; }
printf '#!/bin/sh\nexit 8\n' > "$tmp/silent_tuner"; chmod +x "$tmp/silent_tuner"
CLBLAST_TUNER="$tmp/silent_tuner" HDGCL_TUNE_SIZES=64 sh "$src/perf/clblast_tune.sh" 0:0 "$tmp/none.txt" > "$tmp/log" 2>&1
rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/none.txt" ] && grep -q "no tuner result at size 64 (the tuner exited 8" "$tmp/log" \
  && ok "clblast_tune.sh fails when the tuner writes nothing" || { bad "clblast_tune.sh, silent tuner (rc=$rc)"; cat "$tmp/log"; }
exit $fail
