# What the CLI test scripts share (sourced: . "$(dirname "$0")/cli_common.sh"):
# the hdgcl executable ($HDGCL_CLI), the source tree, a temporary folder
# removed at exit ($dir, also $tmp), and
#   ok NAME / bad NAME          report a check (bad counts a failure in $fail);
#   field FILE 'label' NAME     the value NAME of hdgcl's "output    label:" line;
#   close A B TOL               true if |A - B| <= TOL.
cli=${HDGCL_CLI:?HDGCL_CLI not set}
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
tmp=$dir
trap 'rm -rf "$dir"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$*"; }
bad() { printf 'FAIL %s\n' "$*"; fail=$((fail + 1)); }
field() {
  grep "^output    $2:" "$1" | sed -n "s/.* $3 = \([^,]*\).*/\1/p" | head -1
}
close() {
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}
