#!/bin/bash
# Issue 32, the cause: is PoCL 5.0's compilation of postprocess_tiled
# nondeterministic on a cold kernel cache?  For the GPU machine's PoCL 5.0
# (docs/reliability.md, "Silent wrong u* on PoCL 5.0").
#
# usage: perf/pocl5_cause.sh HDGCL OUTDIR PHASE...
#   HDGCL   the hdgcl binary (its libhdgcl.so found through LD_LIBRARY_PATH)
#   OUTDIR  small results (summaries, tables, the bad and a good binary of
#           postprocess_tiled, diffs); tar it into $OUT yourself
#   PHASE   one of
#     info            PoCL, LLVM and clang versions (clinfo, dpkg, POCL_DEBUG)
#     cold:LABEL      RUNS cold runs, PAR at a time, each in WORK/LABEL/run-NNN
#                     with its own, kept, POCL_CACHE_DIR (pocl/) and
#                     XDG_CACHE_HOME (xdg/, hdgcl's program cache); ENV
#                     (e.g. "POCL_MAX_PTHREAD_COUNT=1") is added to the
#                     environment of each run.  Writes OUTDIR/LABEL-runs.txt
#                     (one line per run: rc, seconds, L2(u*), ustar_retries,
#                     ustar_check, verdict) and OUTDIR/LABEL-md5.txt (per file
#                     of the caches, normalised path: distinct md5s over the
#                     runs, how many runs and bad runs had each).  With BASE
#                     (a run directory of an earlier phase) each run starts
#                     from a copy of BASE's PoCL cache less the directories
#                     of postprocess_tiled (hdgcl's cache empty): only that
#                     kernel's work-group functions are compiled afresh.
#                     PREFIX (e.g. "setarch -R": no address-space
#                     randomisation) is put before the command.
#     warm:LABEL      with LABEL's first bad run B and first good run G: WARM
#                     (default 2) runs each on copies of their caches (both
#                     caches; PoCL's only, hdgcl's empty), and the swaps: G's
#                     caches with B's postprocess_tiled kernel directories,
#                     B's with G's.  Copies B's and G's postprocess_tiled
#                     directories into OUTDIR/LABEL-bad, OUTDIR/LABEL-good,
#                     and, where llvm-dis / objdump exist, their diffs.
# Environment: WORK (default /tmp/pocl5), RUNS (48), PAR (8), ENV (""),
# SKIP_MD5 (non-empty: cold phases make no md5 table), GOOD_PBC (6: good runs
# whose parallel.bc the warm phase copies, besides every bad run's),
# STOP_AT (epoch seconds after which no further run starts; default none),
# CASE (default "--mesh cube:3 --order 3"), RTOL (1e-10: wrong when
# |L2(u*) - ref| > RTOL norm_u, the reference from --device ref).
# A run is bad when it exits non-zero, has ustar_retries 1 or a wrong L2(u*).
set -u
hdgcl=$(readlink -f "$1"); outdir=$2; shift 2
mkdir -p "$outdir"; outdir=$(readlink -f "$outdir")
work=${WORK:-/tmp/pocl5}; runs=${RUNS:-48}; par=${PAR:-8}; extra_env=${ENV:-}
stop_at=${STOP_AT:-0}; case_args=${CASE:-"--mesh cube:3 --order 3"}; rtol=${RTOL:-1e-10}
warm_n=${WARM:-2}; prefix=${PREFIX:-}; base=${BASE:-}
mkdir -p "$work"
field() { sed -n "s/.*\"$1\": *\([-+0-9.eE]*\).*/\1/p" "$2" | head -1; }
now() { date +%s; }

reference() {
  [ -s "$work/ref.json" ] && return 0
  # shellcheck disable=SC2086
  "$hdgcl" solve $case_args --device ref --quiet --json "$work/ref.json" > "$work/ref.out" 2>&1 ||
    { echo "reference run failed"; cat "$work/ref.out"; exit 2; }
  echo "reference: L2(u*) $(field l2_ustar "$work/ref.json") norm_u $(field norm_u "$work/ref.json")" |
    tee "$outdir/reference.txt"
}

# run_one DIR [ENV...]: one run of the case with DIR's caches (as they are).
run_one() {
  local d=$1; shift
  rm -f "$d/run.json"
  local t0; t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  $prefix env "$@" XDG_CACHE_HOME="$d/xdg" POCL_CACHE_DIR="$d/pocl" \
    "$hdgcl" solve $case_args --device pocl --quiet --json "$d/run.json" > "$d/run.out" 2>&1
  echo $? > "$d/rc"
  awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }' > "$d/seconds"
}

# verdict DIR: "rc seconds l2_ustar retries ustar_check ok|BAD"
verdict() {
  local d=$1 rc got ret chk
  rc=$(cat "$d/rc" 2>/dev/null || echo none)
  got=$(field l2_ustar "$d/run.json" 2>/dev/null); ret=$(field ustar_retries "$d/run.json" 2>/dev/null)
  chk=$(field ustar_check "$d/run.json" 2>/dev/null)
  awk -v rc="$rc" -v s="$(cat "$d/seconds" 2>/dev/null)" -v g="${got:-nan}" -v ret="${ret:--}" \
      -v c="${chk:--}" -v r="$(field l2_ustar "$work/ref.json")" -v nu="$(field norm_u "$work/ref.json")" \
      -v t="$rtol" 'BEGIN {
    d = g - r; if (d < 0) d = -d; rel = d / (nu > 0 ? nu : 1);
    bad = (rc != "0" || ret == "1" || g == "nan" || rel > t);
    printf "rc %s s %s l2_ustar %s rel_err %.2e ustar_retries %s ustar_check %s %s\n",
           rc, s, g, rel, ret, c, bad ? "BAD" : "ok" }'
}

# Every file of a run's caches: "normalised-path md5 [code-md5]".  A program
# directory (one holding program.bc) is named by its kernel subdirectories;
# ELF files get a second md5 over their .text/.rodata sections, bitcode one
# over llvm-dis's text less the ModuleID / source_filename lines.
cache_md5s() {
  [ -s "$work/md5s.py" ] || cat > "$work/md5s.py" <<'EOF'
import hashlib, os, struct, subprocess, sys, shutil
root = sys.argv[1]
llvm_dis = shutil.which("llvm-dis") or next((p for p in sorted(
    __import__("glob").glob("/usr/lib/llvm-*/bin/llvm-dis"), reverse=True)), None)
def elf_code(path):
    b = open(path, "rb").read()
    if b[:4] != b"\x7fELF" or b[4] != 2: return None
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize) for i in range(shnum)]
    stro = secs[shstrndx][4]
    h = hashlib.md5()
    for s in secs:
        name = b[stro + s[0]: b.index(b"\0", stro + s[0])].decode()
        if name in (".text", ".rodata") or name.startswith(".rodata."):
            h.update(name.encode()); h.update(b[s[4]: s[4] + s[5]])
    return h.hexdigest()
def bc_code(path):
    t = bc_text(path)
    if t is None: return "no-disassembler"
    lines = [l for l in t.split(b"\n") if not l.startswith(b"; ModuleID") and not l.startswith(b"source_filename")]
    return hashlib.md5(b"\n".join(lines)).hexdigest()
def bc_text(path):
    if llvm_dis:
        r = subprocess.run([llvm_dis, "-o", "-", path], capture_output=True)
        if r.returncode == 0: return r.stdout
    try:
        import llvmlite.binding as llvm
        return str(llvm.parse_bitcode(open(path, "rb").read())).encode()
    except Exception:
        return None
def label(dirpath):
    # the program directory above dirpath, named by its kernels
    d = dirpath
    while d.startswith(root) and d != root:
        if os.path.exists(os.path.join(d, "program.bc")):
            ks = sorted(x for x in os.listdir(d) if os.path.isdir(os.path.join(d, x)))
            return d, "P[" + ",".join(ks)[:80] + "]"
        d = os.path.dirname(d)
    return None, None
for dp, dns, fns in os.walk(root):
    for f in fns:
        p = os.path.join(dp, f)
        if os.path.islink(p): continue
        pd, lab = label(dp)
        rel = lab + "/" + os.path.relpath(p, pd) if pd else os.path.relpath(p, root)
        if f.startswith("tempfile_"): rel = os.path.join(os.path.dirname(rel), "tempfile_*")
        md5 = hashlib.md5(open(p, "rb").read()).hexdigest()
        # bitcode disassembled only where postprocess_tiled is (time)
        code = elf_code(p) if not f.endswith(".bc") else bc_code(p) if "postprocess_tiled" in rel else None
        print(rel, md5, code or "-")
EOF
  python3 "$work/md5s.py" "$1"
}

# bc_dis FILE: LLVM bitcode as text (llvm-dis, else llvmlite), on stdout.
bc_dis() {
  local dis; dis=$(command -v llvm-dis || ls /usr/lib/llvm-*/bin/llvm-dis 2>/dev/null | sort | tail -1)
  if [ -n "$dis" ] && "$dis" -o - "$1" 2>/dev/null; then return 0; fi
  python3 -c 'import sys, llvmlite.binding as l; print(l.parse_bitcode(open(sys.argv[1], "rb").read()))' "$1"
}

phase_info() {
  {
    echo "== uname"; uname -a; echo "== os"; grep PRETTY /etc/os-release
    echo "== nproc $(nproc)"
    echo "== dpkg (pocl, llvm, clang)"
    dpkg -l 2>/dev/null | awk '/^ii/ && ($2 ~ /pocl|llvm|clang/) { print $2, $3 }'
    echo "== llvm-dis: $(command -v llvm-dis || ls /usr/lib/llvm-*/bin/llvm-dis 2>/dev/null | tr '\n' ' ')"
    echo "== objdump: $(command -v objdump)"
    echo "== llvmlite: $(python3 -c 'import llvmlite, llvmlite.binding as l; print(llvmlite.__version__, "LLVM", l.llvm_version_info)' 2>&1 | tail -1)"
    echo "== clinfo (PoCL)"
    clinfo 2>/dev/null | grep -i -E "platform (name|version)|device (name|version)|driver version|compiler|max compute units" | sort -u
    echo "== hdgcl devices"; "$hdgcl" devices 2>&1 | head -5
    echo "== POCL_DEBUG=all (lines naming LLVM / version / kernel compile), one cold run"
    local d=$work/info; rm -rf "$d"; mkdir -p "$d/pocl" "$d/xdg"
    POCL_DEBUG=all XDG_CACHE_HOME="$d/xdg" POCL_CACHE_DIR="$d/pocl" \
      "$hdgcl" solve --mesh cube:1 --order 1 --device pocl --quiet 2>&1 |
      grep -i -E "llvm|version|cpu|vectoriz|method|postprocess_tiled" | sort | uniq -c | sort -rn | head -40
    echo "== cache layout (one cold cube:1 run)"
    (cd "$d/pocl" && find . -type f | head -30)
  } > "$outdir/info.txt" 2>&1
  cat "$outdir/info.txt"
}

phase_cold() {
  local label=$1 i
  reference
  mkdir -p "$work/$label"
  export -f run_one; export hdgcl case_args prefix
  for i in $(seq -w 1 "$runs"); do echo "$work/$label/run-$i"; done |
    xargs -P "$par" -I@RUN@ bash -c '
      d=@RUN@; [ '"$stop_at"' -gt 0 ] && [ $(date +%s) -ge '"$stop_at"' ] && exit 0
      if [ -n "'"$base"'" ]; then   # recompile: the base caches less postprocess_tiled
        mkdir -p "$d/xdg"; cp -a "'"$base"'/pocl" "$d/pocl"
        find "$d/pocl" -type d -name postprocess_tiled -prune -exec rm -rf {} +
      fi
      mkdir -p "$d/pocl" "$d/xdg"; run_one "$d" '"$extra_env"' HDGCL_DUMMY=1'
  local bad=0 n=0 d v
  : > "$outdir/$label-runs.txt"; rm -f "$work/$label/bad" "$work/$label/good"
  echo "# $label: case [$case_args], PAR $par, ENV [$extra_env], PREFIX [$prefix], BASE [$base], $(date -u +%FT%TZ)" >> "$outdir/$label-runs.txt"
  for d in "$work/$label"/run-*; do
    [ -e "$d/rc" ] || continue
    n=$((n + 1)); v=$(verdict "$d")
    case $v in *BAD) bad=$((bad + 1)); echo "$d" >> "$work/$label/bad";; *) echo "$d" >> "$work/$label/good";; esac
    echo "$(basename "$d") $v" >> "$outdir/$label-runs.txt"
  done
  echo "# $label: $n runs, $bad bad" >> "$outdir/$label-runs.txt"
  grep -v '^run-.* ok$' "$outdir/$label-runs.txt"
  [ -n "${SKIP_MD5:-}" ] && return 0
  # per-run md5s, then the table
  cache_md5s /nonexistent > /dev/null 2>&1  # writes md5s.py
  for d in "$work/$label"/run-*; do [ -e "$d/rc" ] && echo "$d"; done |
    xargs -P 16 -I{} bash -c '{ python3 '"$work"'/md5s.py {}/pocl | sed "s|^|pocl/|";
                                python3 '"$work"'/md5s.py {}/xdg | sed "s|^|xdg/|"; } > {}/md5s'
  python3 - "$work/$label" > "$outdir/$label-md5.txt" <<'EOF'
import collections, glob, os, sys
base = sys.argv[1]
bad = set(open(os.path.join(base, "bad")).read().split()) if os.path.exists(os.path.join(base, "bad")) else set()
runs = sorted(d for d in glob.glob(os.path.join(base, "run-*")) if os.path.exists(os.path.join(d, "md5s")))
tab = collections.defaultdict(lambda: collections.defaultdict(list))   # path -> md5 -> runs
code = collections.defaultdict(lambda: collections.defaultdict(list))
for d in runs:
    for line in open(os.path.join(d, "md5s")):
        p, m, c = line.split()
        tab[p][m].append(d); code[p][c].append(d)
print(f"# {len(runs)} runs, {len(bad)} bad: {' '.join(os.path.basename(b) for b in sorted(bad))}")
print("# path | runs with it | distinct md5 (bad runs among each) | distinct code md5 (.text/.rodata of ELF, llvm-dis less ModuleID of .bc)")
same = 0
for p in sorted(tab):
    n = sum(len(v) for v in tab[p].values())
    if len(tab[p]) == 1 and n == len(runs) and len(code[p]) == 1 and "postprocess_tiled" not in p:
        same += 1; continue
    def desc(t):
        return "; ".join(f"{m[:8]}:{len(v)}(bad {sum(x in bad for x in v)})" for m, v in sorted(t.items(), key=lambda kv: -len(kv[1])))
    print(f"{p} | {n} | {len(tab[p])}: {desc(tab[p])} | {len(code[p])}: {desc(code[p])}")
print(f"# {same} further paths: present in every run with one md5")
EOF
  cat "$outdir/$label-md5.txt" | head -60
}

# copy_caches SRC DST [pocl-only]
copy_caches() {
  rm -rf "$2"; mkdir -p "$2/xdg"; cp -a "$1/pocl" "$2/pocl"
  [ "${3:-}" = pocl-only ] || { rm -rf "$2/xdg"; cp -a "$1/xdg" "$2/xdg"; }
}
# swap_tiled DIR FROM: DIR's postprocess_tiled kernel directories replaced by FROM's
swap_tiled() {
  local k rel
  for k in $(cd "$2/pocl" && find . -type d -name postprocess_tiled); do
    rel=${k#./}; rm -rf "$1/pocl/$rel"; mkdir -p "$(dirname "$1/pocl/$rel")"; cp -a "$2/pocl/$rel" "$1/pocl/$rel"
  done
}

phase_warm() {
  local label=$1 B G w i
  B=$(head -1 "$work/$label/bad" 2>/dev/null); G=$(head -1 "$work/$label/good" 2>/dev/null)
  if [ -z "$B" ] || [ -z "$G" ]; then echo "warm:$label: needs a bad and a good run (bad '$B', good '$G')" | tee "$outdir/$label-warm.txt"; return; fi
  w=$work/$label-warm; mkdir -p "$w"
  {
    echo "# warm reruns: bad run $(basename "$B") ($(verdict "$B")), good run $(basename "$G") ($(verdict "$G"))"
    for i in $(seq 1 "$warm_n"); do
      for src in B G; do
        eval "s=\$$src"
        copy_caches "$s" "$w/$src-both-$i"; run_one "$w/$src-both-$i"
        echo "$src caches (PoCL and hdgcl), rerun $i: $(verdict "$w/$src-both-$i")"
        copy_caches "$s" "$w/$src-pocl-$i" pocl-only; run_one "$w/$src-pocl-$i"
        echo "$src PoCL cache only (hdgcl's empty), rerun $i: $(verdict "$w/$src-pocl-$i")"
      done
      copy_caches "$G" "$w/G+Btiled-$i"; swap_tiled "$w/G+Btiled-$i" "$B"; run_one "$w/G+Btiled-$i"
      echo "G's caches with B's postprocess_tiled dirs, rerun $i: $(verdict "$w/G+Btiled-$i")"
      copy_caches "$B" "$w/B+Gtiled-$i"; swap_tiled "$w/B+Gtiled-$i" "$G"; run_one "$w/B+Gtiled-$i"
      echo "B's caches with G's postprocess_tiled dirs, rerun $i: $(verdict "$w/B+Gtiled-$i")"
    done
    echo "# files a warm rerun added to the copied PoCL cache (B-both-1):"
    diff <(cd "$B/pocl" && find . -type f | sort) <(cd "$w/B-both-1/pocl" && find . -type f | sort) | head -20
  } > "$outdir/$label-warm.txt" 2>&1
  cat "$outdir/$label-warm.txt"
  # the binaries themselves
  local k rel
  for src in bad good; do
    [ $src = bad ] && s=$B || s=$G
    for k in $(cd "$s/pocl" && find . -type d -name postprocess_tiled); do
      rel=${k#./}; mkdir -p "$outdir/$label-$src/$(dirname "$rel")"; cp -a "$s/pocl/$rel" "$outdir/$label-$src/$rel"
      cp "$s/pocl/$(dirname "$rel")/program.bc" "$outdir/$label-$src/$(dirname "$rel")/" 2>/dev/null
    done
  done
  # every bad run's and the first good runs' work-group function (parallel.bc, where
  # POCL_LEAVE_KERNEL_COMPILER_TEMP_FILES=1 kept it) of the launched local size
  mkdir -p "$outdir/$label-pbc"
  for s in $(cat "$work/$label/bad") $(head -"${GOOD_PBC:-6}" "$work/$label/good"); do
    for k in $(cd "$s/pocl" && find . -path '*postprocess_tiled/64-1-1*' -name parallel.bc); do
      grep -qx "$s" "$work/$label/bad" && v=bad || v=good
      cp "$s/pocl/$k" "$outdir/$label-pbc/$(basename "$s")-$v.bc"
    done
  done
  for f in $(cd "$outdir/$label-bad" && find . -type f); do
    g="$outdir/$label-good/$f"; [ -e "$g" ] || { echo "only in bad: $f"; continue; }
    if cmp -s "$outdir/$label-bad/$f" "$g"; then echo "identical: $f"; continue; fi
    echo "differ: $f"
    case $f in
      *.bc) diff -u <(bc_dis "$g") <(bc_dis "$outdir/$label-bad/$f") |
              head -c 400000 > "$outdir/$label-diff-$(echo "$f" | tr '/' '_').txt" ;;
      *.so) command -v objdump > /dev/null &&
              diff -u <(objdump -d --no-show-raw-insn "$g" | sed 1,2d) \
                      <(objdump -d --no-show-raw-insn "$outdir/$label-bad/$f" | sed 1,2d) |
              head -c 400000 > "$outdir/$label-diff-$(echo "$f" | tr '/' '_').txt" ;;
    esac
  done 2>&1 | tee "$outdir/$label-binaries.txt"
}

for ph in "$@"; do
  echo "=== phase $ph ($(date -u +%T))"
  case $ph in
    info) phase_info ;;
    cold:*) phase_cold "${ph#cold:}" ;;
    warm:*) phase_warm "${ph#warm:}" ;;
    *) echo "unknown phase $ph"; exit 2 ;;
  esac
done
