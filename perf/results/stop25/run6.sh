set -u
mkdir -p $OUT/r
b=build-gpu/hdgcl
export XDG_CACHE_HOME=/tmp/cache-run6
timeout 200 $b bench --device nvidia --mesh square:80 --orders 1-9 --json $OUT/r/bench-nvidia-tri80.jsonl > $OUT/r/bench-nvidia-tri80.log 2>&1; echo "tri80 rc $?"
timeout 120 $b bench --device nvidia --mesh square:160 --orders 3,4 --json $OUT/r/bench-nvidia-tri160p34.jsonl > $OUT/r/bench-nvidia-tri160p34.log 2>&1; echo "tri160 rc $?"
timeout 150 $b bench --device nvidia --mesh square:320 --orders 1,3,5 --json $OUT/r/bench-nvidia-tri320p135.jsonl > $OUT/r/bench-nvidia-tri320p135.log 2>&1; echo "tri320 rc $?"
python3 - <<'PY'
import json,glob,os
for f in sorted(glob.glob(os.environ['OUT']+'/r/*.jsonl')):
  for l in open(f):
    r=json.loads(l); run=r['run']
    k={x['name']:x for x in r['kernels']}
    st={x['name']:x for x in r['stages']}
    if 'local_stage' in k:
      print(run['mesh'], run['order'], run['local_invert'], run.get('local_invert_wg'), 'pass %.1f us'%(1e6*st['local']['seconds']), 'b2b %.1f us'%(1e6*k['local_stage']['seconds']), '%.0f%%'%(100*k['local_stage']['gflops']/k['clblast_local_gemms']['gflops']))
PY
for t in test_local_element test_hdg_agreement; do
( cd build-gpu && HDGCL_DEVICE=nvidia timeout 200 ./tests/$t > $OUT/r/$t-nvidia.txt 2>&1; echo "rc $?" >> $OUT/r/$t-nvidia.txt )
tail -2 $OUT/r/$t-nvidia.txt
done
