#!/bin/sh
# hdgcl solve --json as a reader sees it (written with cJSON,
# host/cli/report_json.c): it parses with Python's json module, has the
# documented keys in order with their types, a value that is not a number
# (the errors of a problem without an exact solution) is null, and the
# doubles read back exactly: the convergence rates hdgcl computed from its
# in-memory errors and h are recomputed from the file's and must agree to
# the last bit.
# Usage: cli_json.sh PYTHON3 (HDGCL_CLI: the hdgcl executable)
set -u
py=${1:-python3}
. "$(dirname "$0")/cli_common.sh"

# A convergence study on the reference path: {"runs": [...], "rates": [...]}.
if "$cli" solve --device ref --mesh square:2 --order 2 --convergence 3 --json "$dir/c.json" \
     > "$dir/out" 2>&1; then
  "$py" - "$dir/c.json" <<'PY' && ok "convergence JSON: keys, types, exact numbers" || bad "convergence JSON"
import json, math, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["runs", "rates"], list(d)
keys = ["hdgcl_version", "problem", "mesh", "element_type", "order", "tau", "device", "elements",
        "faces", "trace_unknown_faces", "element_dofs", "trace_dofs", "h", "solver", "precond",
        "format", "iterations", "rtol", "residual", "residual_history", "errors", "stages",
        "repeat", "total_seconds", "setup_seconds", "precond_seconds", "seconds_per_iteration",
        "memory_high_water_bytes", "chunk_elements", "chunks"]
for run in d["runs"]:
    assert list(run) == keys, list(run)  # the reference path: no local_* nor postprocess
    assert isinstance(run["order"], int) and isinstance(run["h"], float)
    assert isinstance(run["elements"], int) and isinstance(run["memory_high_water_bytes"], int)
    assert list(run["device"]) == ["name", "platform", "vendor", "driver", "type", "compute_units"]
    assert list(run["errors"]) == ["l2_u", "l2_q", "l2_ustar", "linf_u", "norm_u", "norm_q",
                                   "ustar_check", "ustar_retries"]
    assert all(isinstance(v, float) for k, v in run["errors"].items() if k.startswith("l2_"))
    assert isinstance(run["errors"]["ustar_retries"], int)
    assert len(run["residual_history"]) == run["iterations"] + 1
    assert [s["name"] for s in run["stages"]] == ["upload", "local", "assemble", "solve", "recover", "download"]
    assert all(list(s) == ["name", "seconds", "flops", "bytes", "gflops", "gbs"] for s in run["stages"])
assert [list(r) for r in d["rates"]] == [["u", "q", "ustar"]] * 2
# hdgcl's rate: log(e_{k-1} / e_k) / log(h_{k-1} / h_k) of its doubles.
sensitive = 0
for k in (1, 2):
    p, r = d["runs"][k - 1], d["runs"][k]
    lh = math.log(p["h"] / r["h"])
    for key, name in (("u", "l2_u"), ("q", "l2_q"), ("ustar", "l2_ustar")):
        a, b = p["errors"][name], r["errors"][name]
        rate = math.log(a / b) / lh
        assert rate == d["rates"][k - 1][key], (k, key, repr(rate), repr(d["rates"][k - 1][key]))
        # The check sees one bit: an error off by one unit in the last place changes a rate.
        for x, y in ((math.nextafter(a, 0), b), (a, math.nextafter(b, 0)),
                     (math.nextafter(a, 1), b), (a, math.nextafter(b, 1))):
            sensitive += math.log(x / y) / lh != rate
assert sensitive > 0, "no rate depends on the last bit of the errors"
PY
else
  bad "convergence study"; cat "$dir/out"
fi

# A problem without an exact solution: its errors are NaN, written as null.
if "$cli" solve --device ref --mesh square:2 --order 1 --problem user --f 1 \
     --bc-default "dirichlet: 0" --output "integral: u" --json "$dir/u.json" --quiet > "$dir/out" 2>&1; then
  grep -q '"l2_u": null,' "$dir/u.json" && "$py" - "$dir/u.json" <<'PY' && ok "NaN errors as null" || { bad "NaN errors as null"; cat "$dir/u.json"; }
import json, sys
d = json.load(open(sys.argv[1]))
e = d["errors"]
assert all(e[k] is None for k in ("l2_u", "l2_q", "l2_ustar", "linf_u", "norm_u", "norm_q")), e
assert isinstance(e["ustar_check"], (int, float))
assert d["outputs"][0]["label"] == "integral: u" and isinstance(d["outputs"][0]["values"][0], float)
PY
else
  bad "user problem"; cat "$dir/out"
fi

# The device path (the local_* keys), and the layout: two-space indents,
# "key": value, one key per line, no tab.
if "$cli" solve --mesh square:2 --order 2 --json "$dir/d.json" --quiet > "$dir/out" 2>&1; then
  grep -q '^  "order": 2,$' "$dir/d.json" && grep -q '^    "type": "' "$dir/d.json" \
    && ! grep -q "$(printf '\t')" "$dir/d.json" && "$py" - "$dir/d.json" <<'PY' \
    && ok "device JSON and its layout" || { bad "device JSON"; cat "$dir/d.json"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d)[:4] == ["hdgcl_version", "problem", "mesh", "element_type"]
for k in ("local_invert", "local_schur", "local_gemm_z", "postprocess", "postprocess_wg"):
    assert k in d, k
assert d["errors"]["l2_u"] > 0 and d["device"]["type"] in ("gpu", "cpu", "other")
# the high water by buffer name: largest first, summing to the high water, the
# trace matrix and the local stage's K among them
m = d["memory_buffers"]
assert all(list(b) == ["name", "bytes"] and b["bytes"] > 0 for b in m), m
assert [b["bytes"] for b in m] == sorted((b["bytes"] for b in m), reverse=True), m
assert sum(b["bytes"] for b in m) == d["memory_high_water_bytes"], (m, d["memory_high_water_bytes"])
names = [b["name"] for b in m]
assert "trace matrix" in names and "local K" in names, names
PY
else
  bad "device solve"; cat "$dir/out"
fi
[ "$fail" -eq 0 ]
