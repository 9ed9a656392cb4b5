#!/bin/sh
# The progress line (docs/reliability.md): on a terminal, long steps show one
# status line rewritten in place ("compiling kernels for DEVICE (N so far,
# cached for next time)", the trials, the Krylov iterations), cleared before
# the summary; none on a non-terminal, none with --quiet, none for a run that
# ends within HDGCL_PROGRESS_AFTER seconds (default 2).  `script` (util-linux)
# gives the run a terminal.
. "$(dirname "$0")/cli_common.sh"
command -v script > /dev/null || { echo "SKIP: no script(1)"; exit 0; }
esc=$(printf '\033')
cr=$(printf '\r')

tty_run() { # FILE CMD...: CMD on a pseudo-terminal, its output (both streams) in FILE
  out=$1
  shift
  script -qec "$*" /dev/null > "$out" 2>&1 < /dev/null
}

# A cold cache on a terminal, progress at once: the compile line, then cleared.
HDGCL_PROGRESS_AFTER=0 tty_run "$dir/tty" "$cli" solve --mesh square:4 --order 2 --cache-dir "$dir/c1"
grep -q "compiling kernels for .* so far, cached for next time)" "$dir/tty" \
  && ok "terminal: the compile line" || { bad "terminal: no compile line"; cat -v "$dir/tty" | head; }
grep -q "${cr}${esc}\[K${cr}\{0,1\}problem" "$dir/tty" && ok "terminal: the line is cleared before the summary" \
  || { bad "terminal: not cleared before the summary"; cat -v "$dir/tty" | head -3; }

# The Krylov iterations (the reference path's CG here): iteration, residual, time left.
HDGCL_PROGRESS_AFTER=0 tty_run "$dir/cg" "$cli" solve --mesh square:16 --order 3 --device ref
grep -q "CG iteration [0-9]*, residual [0-9.e+-]* (rtol 1e-12)" "$dir/cg" \
  && ok "terminal: the Krylov line" || { bad "terminal: no Krylov line"; cat -v "$dir/cg" | head -5; }

# The same to a file: no progress at all.
HDGCL_PROGRESS_AFTER=0 "$cli" solve --mesh square:4 --order 2 --cache-dir "$dir/c2" > "$dir/file.out" 2> "$dir/file.err"
if grep -q "compiling" "$dir/file.err" || grep -q "$cr" "$dir/file.err"; then bad "file: progress written"
else ok "file: no progress"; fi

# --quiet on a terminal: nothing but errors.
HDGCL_PROGRESS_AFTER=0 tty_run "$dir/quiet" "$cli" solve --mesh square:4 --order 2 --cache-dir "$dir/c3" --quiet
[ ! -s "$dir/quiet" ] && ok "--quiet: nothing printed" || { bad "--quiet printed"; cat -v "$dir/quiet" | head -3; }

# The default threshold: a warm run ends well within 2 s and shows no line.
tty_run "$dir/warm" "$cli" solve --mesh square:4 --order 2 --cache-dir "$dir/c1"
grep -q "compiling\|timing" "$dir/warm" && bad "warm: a progress line in a short run" || ok "warm: no progress line"
exit $fail
