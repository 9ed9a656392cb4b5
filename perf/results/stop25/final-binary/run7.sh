set -u
mkdir -p $OUT/r
b=build-gpu/hdgcl
export XDG_CACHE_HOME=/tmp/cache-run7
timeout 150 $b bench --device nvidia --mesh square:80 --orders 3,6 --verbose --json $OUT/r/bench-nvidia-tri80p36.jsonl > $OUT/r/bench-nvidia-tri80p36.log 2>&1; echo "tri80 rc $?"
timeout 120 $b bench --device nvidia --mesh cube:16 --orders 2 --json $OUT/r/bench-nvidia-tet16p2.jsonl > $OUT/r/bench-nvidia-tet16p2.log 2>&1; echo "tet16 rc $?"
grep -h "local_element trial" $OUT/r/*.log
python3 - <<'PY'
import json,glob,os
for f in sorted(glob.glob(os.environ['OUT']+'/r/*.jsonl')):
  for l in open(f):
    r=json.loads(l); run=r['run']
    k={x['name']:x for x in r['kernels']}
    st={x['name']:x for x in r['stages']}
    if 'local_stage' in k:
      print(run['mesh'], run['order'], run['local_invert'], run.get('local_invert_wg'), run.get('local_element_grid'), 'pass %.1f us'%(1e6*st['local']['seconds']), 'b2b %.1f us'%(1e6*k['local_stage']['seconds']), '%.0f%%'%(100*k['local_stage']['gflops']/k['clblast_local_gemms']['gflops']))
PY
for t in test_local_element test_hdg_agreement test_local_invert test_batched_gemm; do
( cd build-gpu && HDGCL_DEVICE=nvidia timeout 200 ./tests/$t > $OUT/r/$t-nvidia.txt 2>&1; echo "rc $?" >> $OUT/r/$t-nvidia.txt )
echo "$t: $(tail -1 $OUT/r/$t-nvidia.txt)"
done
