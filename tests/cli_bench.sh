#!/bin/sh
# hdgcl bench from the command line: two orders on one mesh and two meshes at
# one order, as a table and as JSON lines (one per case, with the measured
# ceilings, every stage and every kernel, each SpMV storage checked); bad
# input gives a one-line error, a non-zero exit and no output file.
set -u
cli=${HDGCL_CLI:?HDGCL_CLI not set}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

expect_error() {
  name=$1; pattern=$2; shift 2
  "$cli" "$@" > "$dir/out" 2> "$dir/err"; rc=$?
  lines=$(wc -l < "$dir/err")
  if [ "$rc" -ne 0 ] && [ "$lines" -eq 1 ] && grep -q -- "$pattern" "$dir/err" && [ ! -e "$dir/x.jsonl" ]; then ok "$name"
  else bad "$name (rc=$rc, stderr: $(cat "$dir/err"))"; fi
}

small="--copy-mib 8 --dgemm-batch 50 --min-time 0.01 --warmup 0 --repeat 1"
"$cli" bench --mesh square:3 --orders 1-2 $small --json "$dir/a.jsonl" > "$dir/out" 2>&1 \
  && grep -q "^ceilings  copy .* GB/s" "$dir/out" && grep -q "spmv_bell_tc" "$dir/out" \
  && grep -q "of CLBlast's rate" "$dir/out" && grep -q "^CLBlast tuning: " "$dir/out" \
  && $py - "$dir/a.jsonl" <<'PY' && ok "bench: orders, table and JSON lines" || { bad "bench: orders"; cat "$dir/out"; }
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, len(lines)
for p, line in zip((1, 2), lines):
    d = json.loads(line)
    assert d["kind"] == "bench" and d["run"]["order"] == p and d["run"]["mesh"] == "square:3"
    pk = d["peak"]
    assert pk["copy_gbs"] > 0 and pk["dgemm_gflops"] > 0 and pk["launch_us"] > 0
    assert pk["copy_bytes"] == 8 << 20 and pk["dgemm_shape"] == [64, 64, 64, 50]
    assert pk["clblast_tuning"].startswith(("none (", "XgemmDirect from ")), pk["clblast_tuning"]
    assert d["host"]["cores"] >= 1
    assert [s["name"] for s in d["stages"]] == ["upload", "local", "assemble", "solve", "recover", "download"]
    names = [k["name"] for k in d["kernels"]]
    assert names == ["spmv_bell", "spmv_ell", "spmv_bell_i", "spmv_bell_tc", "spmv_bell_mixed",
                     "spmv_csr", "spmv_bell_sym", "local_stage", "clblast_local_gemms"], names
    local = d["kernels"][7]
    st = [s for s in d["stages"] if s["name"] == "local"][0]
    assert local["flops"] == st["flops"] and local["bytes"] == st["bytes"], (local, st)
    for k in d["kernels"]:
        assert k["seconds"] > 0 and k["gbs"] > 0 and k["frac_bw"] > 0 and k["flops"] > 0
    for k in d["kernels"][:7]:
        assert k["rel_error"] < (1e-5 if k["name"] == "spmv_bell_mixed" else 1e-12), k
PY

"$cli" bench --meshes "square:2 cube:1" --order 1 --precond jacobi $small --json "$dir/b.jsonl" --quiet > "$dir/out" 2>&1 \
  && [ ! -s "$dir/out" ] \
  && $py -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; assert [x['run']['mesh'] for x in r]==['square:2','cube:1'] and all(x['run']['precond']=='jacobi' for x in r)" "$dir/b.jsonl" \
  && ok "bench: meshes, solver options, --quiet" || { bad "bench: meshes"; cat "$dir/out"; }

"$cli" bench --help | grep -q -- "--orders" && ok "bench --help" || bad "bench --help"

expect_error "bad orders" "--orders" bench --orders 5-3 --json "$dir/x.jsonl"
expect_error "orders not a number" "--orders" bench --orders x --json "$dir/x.jsonl"
expect_error "order over 10" "--orders" bench --orders 9-11 --json "$dir/x.jsonl"
expect_error "mesh and meshes" "either --mesh or --meshes" bench --mesh square:2 --meshes "square:2" --json "$dir/x.jsonl"
expect_error "order and orders" "either --order or --orders" bench --order 2 --orders 1 --json "$dir/x.jsonl"
expect_error "reference device" "reference path" bench --device ref --json "$dir/x.jsonl"
expect_error "unknown option" "unknown option --ordr" bench --ordr 3 --json "$dir/x.jsonl"
expect_error "bad min-time" "--min-time" bench --min-time 0 --json "$dir/x.jsonl"
expect_error "bad mesh" "nosuch" bench --mesh nosuch:3 $small --json "$dir/x.jsonl"
expect_error "all Dirichlet" "nothing to benchmark" bench --mesh hex:1 --order 1 $small --json "$dir/x.jsonl"
exit $fail
