#!/bin/sh
# Several hdgcl processes sharing one kernel cache directory
# (docs/reliability.md): started together on an empty cache, on a warm one,
# and on one whose binaries were all cut short with a crashed writer's
# temporary lying beside them.  Every process must succeed with the same
# answer; no process may use a half-written binary (an unusable entry is
# rebuilt, never loaded); no temporary is left behind.
. "$(dirname "$0")/cli_common.sh"
procs=4
cache="$dir/cache"

round() { # NAME: $procs solves at once, all with the same cache
  i=0 pids=""
  while [ $i -lt $procs ]; do
    "$cli" solve --mesh square:4 --order 2 --cache-dir "$cache" --verbose > "$dir/$1.$i.out" 2> "$dir/$1.$i.err" &
    pids="$pids $!"
    i=$((i + 1))
  done
  failed=0
  for pid in $pids; do
    wait "$pid" || failed=$((failed + 1))
  done
  [ $failed = 0 ] && ok "$1: $procs processes at once all succeeded" \
    || { bad "$1: $failed of $procs processes failed"; cat "$dir/$1".*.err | grep -v 'cache\|built' | head -20; }
  grep -h '^errors' "$dir/$1".*.out | sort -u > "$dir/$1.errors"
  [ "$(wc -l < "$dir/$1.errors")" = 1 ] && ok "$1: the same errors: $(cat "$dir/$1.errors")" \
    || { bad "$1: the errors differ"; cat "$dir/$1.errors"; }
  left=$(ls "$cache" | grep 'tmp' | grep -v '\.tmp\.99999$') # 99999: the planted ones
  [ -z "$left" ] && ok "$1: no temporary left in the cache" || bad "$1: temporaries left: $left"
}
count() { cat "$dir/$1".*.err | grep -c "$2" || true; }

round cold
echo "   cold: $(count cold 'cache miss') misses, $(count cold 'cache hit') hits over $procs processes"
[ -n "$(ls "$cache" | grep '\.bin$')" ] && ok "cold: binaries cached: $(ls "$cache" | grep -c '\.bin$')" \
  || bad "cold: nothing cached"
round warm
[ "$(count warm 'cache miss')" = 0 ] && [ "$(count warm 'unusable')" = 0 ] \
  && ok "warm: every program from the cache ($(count warm 'cache hit') hits)" \
  || bad "warm: $(count warm 'cache miss') misses, $(count warm unusable) unusable"

# Each binary cut to half its length (a writer that died mid-file would leave
# this if binaries were written in place), and a crashed writer's temporary.
for f in "$cache"/*.bin; do
  size=$(wc -c < "$f")
  head -c $((size / 2)) "$f" > "$f.cut" && mv "$f.cut" "$f"
  cp "$f" "$f.tmp.99999"
done
round cut
rejected=$(count cut 'unusable')
[ "$rejected" -ge "$(ls "$cache" | grep -c '\.bin$')" ] \
  && ok "cut: each process rejected the cut binaries ($rejected rejections) and rebuilt them" \
  || bad "cut: only $rejected rejections"
rm -f "$cache"/*.tmp.99999
round after
[ "$(count after 'cache miss')" = 0 ] && [ "$(count after 'unusable')" = 0 ] \
  && ok "after: the rebuilt binaries serve every process" || bad "after: misses or unusable entries"
exit $fail
