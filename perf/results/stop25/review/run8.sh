set -u
mkdir -p $OUT/r
b=build-gpu/hdgcl
export XDG_CACHE_HOME=/tmp/cache-run8
timeout 120 $b bench --device nvidia --mesh square:80 --orders 3 --json $OUT/r/bench-nvidia-tri80p3.jsonl > $OUT/r/bench-nvidia-tri80p3.log 2>&1; echo "tri80 rc $?"
grep -h "local stage at" $OUT/r/*.log
for t in test_local_element test_hdg_agreement; do
( cd build-gpu && HDGCL_DEVICE=nvidia timeout 200 ./tests/$t > $OUT/r/$t-nvidia.txt 2>&1; echo "rc $?" >> $OUT/r/$t-nvidia.txt )
echo "$t: $(tail -1 $OUT/r/$t-nvidia.txt)"
done
