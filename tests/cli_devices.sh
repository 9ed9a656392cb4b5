#!/bin/sh
# hdgcl devices and device selection from the command line: the PoCL device
# and the hwloc host topology are listed (text and JSON); a device spec that
# selects nothing, a bad P:D, or no OpenCL platform at all give one clear
# line on stderr, a non-zero exit and no output file.
set -u
cli=${HDGCL_CLI:?HDGCL_CLI not set}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }
unset HDGCL_DEVICE

# expect_error NAME PATTERN ARGS...: exit status 1, one line on stderr matching PATTERN.
expect_error() {
  name=$1; pattern=$2; shift 2
  "$cli" "$@" > "$dir/out" 2> "$dir/err"; rc=$?
  lines=$(wc -l < "$dir/err")
  if [ "$rc" -eq 1 ] && [ "$lines" -eq 1 ] && grep -q -- "$pattern" "$dir/err"; then ok "$name"
  else bad "$name (rc=$rc, stderr: $(cat "$dir/err"))"; fi
}

# Text listing: the PoCL device with its index, platform, FP64, marked as selected; the host line.
if "$cli" devices > "$dir/out" 2> "$dir/err" \
  && grep -q '^\* [0-9]*:[0-9]*  ' "$dir/out" \
  && grep -q 'platform Portable Computing Language, vendor .*, type CPU' "$dir/out" \
  && grep -q 'OpenCL [0-9.]* PoCL' "$dir/out" \
  && grep -q 'compute units at .* MHz, global memory .* GiB .*FP64 yes' "$dir/out" \
  && grep -q '^host: .*; [1-9][0-9]* package(s), [1-9][0-9]* cores, [1-9][0-9]* PUs, [1-9][0-9]* NUMA node(s); L1d [0-9]* KiB, L2 [0-9]* KiB, L3 [0-9]* KiB; memory [0-9.]* GiB' "$dir/out" \
  && [ ! -s "$dir/err" ]; then ok "devices lists PoCL and the host"
else bad "devices lists PoCL and the host"; cat "$dir/out" "$dir/err"; fi

# --device pocl / cpu / P:D mark that device.
"$cli" devices --device pocl > "$dir/out" 2>&1 && grep -q '^\* ' "$dir/out" && ok "devices --device pocl" \
  || { bad "devices --device pocl"; cat "$dir/out"; }
pd=$(sed -n 's/^\* \([0-9]*:[0-9]*\) .*/\1/p' "$dir/out")
"$cli" devices --device "$pd" > "$dir/out" 2>&1 && grep -q "^\* $pd " "$dir/out" && ok "devices --device $pd" \
  || { bad "devices --device P:D ($pd)"; cat "$dir/out"; }
"$cli" devices --device ref > "$dir/out" 2>&1 && grep -q "selected: ref" "$dir/out" && ! grep -q '^\* ' "$dir/out" \
  && ok "devices --device ref" || { bad "devices --device ref"; cat "$dir/out"; }

# JSON: parsable, one selected PoCL device with FP64, the host topology.
"$cli" devices --json > "$dir/d.json" 2> "$dir/err" && python3 - "$dir/d.json" <<'PY' && ok "devices --json" || { bad "devices --json"; cat "$dir/d.json" "$dir/err"; }
import json, sys
d = json.load(open(sys.argv[1]))
sel = [x for x in d["devices"] if x["selected"]]
assert len(sel) == 1, sel
pocl = [x for x in d["devices"] if "PoCL" in x["version"]]
assert pocl and pocl[0]["fp64"] and pocl[0]["type"] == "cpu", pocl
for x in d["devices"]:
    p, q = x["index"].split(":")
    assert int(p) >= 0 and int(q) >= 0
    assert x["compute_units"] >= 1 and x["global_mem"] > 0 and 0 < x["max_alloc"] <= x["global_mem"]
h = d["host"]
assert h["cpu"] and h["packages"] >= 1 and h["cores"] >= 1 and h["pus"] >= h["cores"] and h["memory"] > 0, h
PY

# HDGCL_DEVICE picks the device when --device is absent.
HDGCL_DEVICE=ref "$cli" devices > "$dir/out" 2>&1 && grep -q "selected: ref" "$dir/out" \
  && ok "devices with HDGCL_DEVICE=ref" || { bad "devices with HDGCL_DEVICE=ref"; cat "$dir/out"; }

# Selection errors: one line, non-zero exit, no output file.
expect_error "solve --device nosuchdevice" "--device nosuchdevice: no OpenCL device matches" \
  solve --device nosuchdevice --mesh square:2 --order 1 --json "$dir/x.json" --vtu "$dir/x.vtu"
expect_error "solve --device 9:9" "no device 9:9" \
  solve --device 9:9 --mesh square:2 --order 1 --json "$dir/x.json" --vtu "$dir/x.vtu"
expect_error "solve --device 1:x" "--device 1:x: expected P:D" \
  solve --device 1:x --mesh square:2 --order 1 --json "$dir/x.json"
expect_error "solve --device 0:" "expected P:D" solve --device 0: --json "$dir/x.json"
if ! grep -q '"type": "gpu"' "$dir/d.json"; then
  expect_error "solve --device gpu (no GPU here)" "no GPU device" solve --device gpu --json "$dir/x.json"
fi
HDGCL_DEVICE=nosuchdevice expect_error "solve with HDGCL_DEVICE=nosuchdevice" "HDGCL_DEVICE nosuchdevice: no OpenCL device matches" \
  solve --mesh square:2 --order 1 --json "$dir/x.json"
expect_error "devices --device nosuchdevice" "nosuchdevice" devices --device nosuchdevice
expect_error "devices --device 9:9" "no device 9:9" devices --device 9:9
expect_error "devices stray option" "unknown option --jsn" devices --jsn

# The CLBlast tuning: named per device; a malformed HDGCL_CLBLAST_TUNING file is one line naming it.
"$cli" devices > "$dir/out" 2>&1 && grep -q "^      CLBlast tuning: \(none (\|XgemmDirect from perf/clblast/\)" "$dir/out" \
  && ok "devices names the CLBlast tuning" || { bad "devices names the CLBlast tuning"; cat "$dir/out"; }
HDGCL_CLBLAST_TUNING=none "$cli" devices > "$dir/out" 2>&1 && grep -q "CLBlast tuning: none (HDGCL_CLBLAST_TUNING=none)" "$dir/out" \
  && ok "devices with HDGCL_CLBLAST_TUNING=none" || { bad "devices with HDGCL_CLBLAST_TUNING=none"; cat "$dir/out"; }
printf 'XgemmDirect 64 WGD=x\n' > "$dir/bad-tuning.txt"
HDGCL_CLBLAST_TUNING="$dir/bad-tuning.txt" expect_error "solve with a malformed tuning file" \
  "bad-tuning.txt:1: XgemmDirect: bad number 'x' for WGD" solve --mesh square:2 --order 1 --json "$dir/x.json"
HDGCL_CLBLAST_TUNING="$dir/missing.txt" expect_error "devices with a missing tuning file" \
  "HDGCL_CLBLAST_TUNING .*missing.txt: cannot open" devices

# No OpenCL platform at all (an empty ICD directory): says what to install; ref still works.
mkdir "$dir/no-icd"
OCL_ICD_VENDORS="$dir/no-icd" expect_error "no OpenCL platform: devices" "install" devices
OCL_ICD_VENDORS="$dir/no-icd" expect_error "no OpenCL platform: solve" "pocl-opencl-icd" \
  solve --mesh square:2 --order 1 --json "$dir/x.json"
OCL_ICD_VENDORS="$dir/no-icd" "$cli" solve --device ref --mesh square:2 --order 1 --quiet \
  && ok "no OpenCL platform: solve --device ref" || bad "no OpenCL platform: solve --device ref"

# A device given explicitly solves.
"$cli" solve --device pocl --mesh square:2 --order 1 > "$dir/out" 2>&1 && grep -q "device .*PoCL\|device .*pthread" "$dir/out" \
  && ok "solve --device pocl" || { bad "solve --device pocl"; cat "$dir/out"; }
"$cli" solve --device "$pd" --mesh square:2 --order 1 --quiet && ok "solve --device $pd" || bad "solve --device P:D"

[ ! -e "$dir/x.json" ] && [ ! -e "$dir/x.vtu" ] && ok "no partial output files" \
  || { bad "partial output files left"; ls "$dir"; }
exit $fail
