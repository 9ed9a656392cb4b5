#!/bin/bash
# Stop 26, run 4: CLBlast's XgemmDirect tuner on the H100 (64^3 and 36x25x36, fraction 48),
# then hdgcl bench without and with its result (square:80 p = 7, 9).
mkdir -p $OUT/r
B=build-gpu
export CLBLAST_TUNER=$(pwd)/$B/clblast_tuner_xgemm_direct
pd=$($B/hdgcl devices --device nvidia | sed -n 's/^\* \([0-9]*:[0-9]*\) .*/\1/p')
echo "device $pd"
t0=$(date +%s)
HDGCL_TUNE_SIZES="64 36x25x36" HDGCL_TUNE_FRACTION=48 HDGCL_TUNE_TIMEOUT=240 \
  sh perf/clblast_tune.sh "$pd" $OUT/r/clblast-nvidia.txt > $OUT/r/clblast-tune.log 2>&1
echo "tune rc $? after $(( $(date +%s) - t0 )) s" | tee -a $OUT/r/clblast-tune.log
[ -f $OUT/r/clblast-nvidia.txt ] || exit 1
for t in none $OUT/r/clblast-nvidia.txt; do
  name=$([ "$t" = none ] && echo none || echo tuned)
  export XDG_CACHE_HOME=/tmp/xc-gain-$name
  t0=$(date +%s)
  HDGCL_CLBLAST_TUNING=$t timeout 110 $B/hdgcl bench --device nvidia --mesh square:80 --orders 7,9 \
    --json $OUT/r/clblast-$name-square.jsonl > $OUT/r/clblast-gain-$name.log 2>&1
  echo "$name rc $? after $(( $(date +%s) - t0 )) s" | tee -a $OUT/r/clblast-gain-$name.log
done
