#!/bin/sh
# hdgcl solve --vtu STEM.pvtu under mpirun (docs/mpi.md): 2 and 3 ranks write
# the index and one piece STEM_RRRR.vtu per rank whose arrays are the serial
# .vtu's (plus the cell field "rank"), whose elements together are the whole
# mesh's, and whose points and u, u*, q equal the serial file's element by
# element (1e-10 relative); a serial solve with a .pvtu name writes one piece;
# a transient --vtu-every series writes a .pvtu per output step.
# All or nothing: a failure on one rank (before or after the renames) or on
# all leaves no file and ends every rank with the failing rank's one-line
# message.  Usage: cli_mpi_vtu.sh MPIRUN PYTHON3
set -u
cli=${HDGCL_CLI:?HDGCL_CLI not set}
mpirun=${1:?usage: cli_mpi_vtu.sh MPIRUN PYTHON3}
py=${2:-python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

pieces_match() { # pieces_match SERIAL.vtu OUT.pvtu RANKS: the check described above
  "$py" - "$@" <<'PY' || return 1
import os, sys, xml.etree.ElementTree as ET
serial, pvtu, ranks = sys.argv[1], sys.argv[2], int(sys.argv[3])

def grid(path):
    piece = ET.parse(path).getroot().find("UnstructuredGrid/Piece")
    def arrays(section):
        return {a.get("Name"): a for a in piece.find(section).findall("DataArray")}
    def values(a):
        n = int(a.get("NumberOfComponents", "1"))
        v = [float(x) for x in a.text.split()]
        return [v[i:i + n] for i in range(0, len(v), n)]
    g = {"npts": int(piece.get("NumberOfPoints")), "ncells": int(piece.get("NumberOfCells"))}
    g["points"] = values(piece.find("Points/DataArray"))
    g["pdecl"] = [(a.get("Name"), a.get("type"), a.get("NumberOfComponents", "1"))
                  for a in piece.find("PointData").findall("DataArray")]
    g["cdecl"] = [(a.get("Name"), a.get("type"), a.get("NumberOfComponents", "1"))
                  for a in piece.find("CellData").findall("DataArray")]
    g["point"] = {k: values(a) for k, a in arrays("PointData").items()}
    g["cell"] = {k: [int(x[0]) for x in values(a)] for k, a in arrays("CellData").items()}
    assert len(g["points"]) == g["npts"] and len(g["cell"]["element"]) == g["ncells"], path
    return g

s = grid(serial)
index = ET.parse(pvtu).getroot()
assert index.get("type") == "PUnstructuredGrid", index.get("type")
p = index.find("PUnstructuredGrid")
decl = lambda sec: [(a.get("Name"), a.get("type"), a.get("NumberOfComponents", "1"))
                    for a in p.find(sec).findall("PDataArray")]
assert decl("PPointData") == s["pdecl"], (decl("PPointData"), s["pdecl"])
assert decl("PCellData") == s["cdecl"] + [("rank", "Int32", "1")], decl("PCellData")
stem = os.path.basename(pvtu)[:-5]
sources = [q.get("Source") for q in p.findall("Piece")]
assert sources == ["%s_%04d.vtu" % (stem, r) for r in range(ranks)], sources
# nothing else beside them: no temporaries left
d = os.path.dirname(pvtu)
assert sorted(os.listdir(d)) == sorted(sources + [os.path.basename(pvtu)]), os.listdir(d)

elements = max(s["cell"]["element"]) + 1
cells_per = s["ncells"] // elements
pts_per = s["npts"] // elements
scale = {k: max(abs(x) for v in vals for x in v) for k, vals in s["point"].items()}
seen, cells, worst = [], 0, 0.0
for r, src in enumerate(sources):
    g = grid(os.path.join(d, src))
    assert g["pdecl"] == s["pdecl"] and g["cdecl"] == s["cdecl"] + [("rank", "Int32", "1")], src
    assert set(g["cell"]["rank"]) == {r}, (src, set(g["cell"]["rank"]))
    cells += g["ncells"]
    for i in range(g["ncells"] // cells_per):
        e = g["cell"]["element"][i * cells_per]
        assert g["cell"]["element"][i * cells_per:(i + 1) * cells_per] == [e] * cells_per, src
        seen.append(e)
        for k in range(pts_per):
            a, b = g["points"][i * pts_per + k], s["points"][e * pts_per + k]
            assert max(abs(x - y) for x, y in zip(a, b)) <= 1e-14, (src, e, a, b)
            for name, vals in s["point"].items():
                x, y = g["point"][name][i * pts_per + k], vals[e * pts_per + k]
                err = max(abs(u - v) for u, v in zip(x, y)) / scale[name]
                worst = max(worst, err)
                assert err <= 1e-10, (src, name, e, x, y)
assert cells == s["ncells"], (cells, s["ncells"])
assert sorted(seen) == list(range(elements)), "elements of the pieces"
print("  %d pieces, %d cells, %d elements; largest difference %.2e of max|field|" % (ranks, cells, elements, worst))
PY
}

for mesh in "square:6 2" "cube:2 2"; do
  set -- $mesh
  "$cli" solve --mesh "$1" --order "$2" --rtol 1e-13 --vtu "$dir/serial.vtu" --quiet || bad "serial $1"
  mkdir "$dir/one"
  "$cli" solve --mesh "$1" --order "$2" --rtol 1e-13 --vtu "$dir/one/out.pvtu" --quiet \
    && pieces_match "$dir/serial.vtu" "$dir/one/out.pvtu" 1 && ok "$1 p=$2 serial as .pvtu: one piece" \
    || bad "$1 p=$2 serial as .pvtu"
  rm -rf "$dir/one"
  for np in 2 3; do
    mkdir "$dir/np$np"
    if "$mpirun" -np $np "$cli" solve --mesh "$1" --order "$2" --rtol 1e-13 --vtu "$dir/np$np/out.pvtu" \
         --quiet > "$dir/out" 2> "$dir/err" && pieces_match "$dir/serial.vtu" "$dir/np$np/out.pvtu" $np; then
      ok "$1 p=$2 on $np ranks: $np pieces, the serial u, u*, q"
    else
      bad "$1 p=$2 on $np ranks"; cat "$dir/out" "$dir/err"
    fi
    rm -rf "$dir/np$np"
  done
done

# a transient series (--vtu-every): each output step a .pvtu with one piece per
# rank, equal to the serial series' .vtu of that step; rank 0's .pvd lists them
heat="--problem heat-boundary --scheme bdf2 --time-step 0.05 --final-time 0.15 --mesh square:4 --order 2 --rtol 1e-13 --quiet"
mkdir "$dir/ser" "$dir/ts"
"$cli" solve $heat --vtu "$dir/ser/s.vtu" --vtu-every 2 || bad "serial series"
for np in 2 3; do
  rm -rf "$dir/ts"/* "$dir/step3"; mkdir "$dir/step3"
  if "$mpirun" -np $np "$cli" solve $heat --vtu "$dir/ts/out.pvtu" --vtu-every 2 > "$dir/out" 2> "$dir/err" \
     && "$py" - "$dir/ser/s.pvd" "$dir/ts/out.pvd" <<'PY' \
     && cp "$dir/ts"/out-000003* "$dir/step3/" && pieces_match "$dir/ser/s-000003.vtu" "$dir/step3/out-000003.pvtu" $np
import sys, xml.etree.ElementTree as ET
sets = [[(d.get("timestep"), d.get("file")) for d in ET.parse(f).getroot().iter("DataSet")] for f in sys.argv[1:]]
assert [t for t, _ in sets[0]] == [t for t, _ in sets[1]], sets
assert [f for _, f in sets[1]] == ["out-000002.pvtu", "out-000003.pvtu"], sets[1]
PY
  then ok "--vtu-every on $np ranks: a .pvtu per output step, the serial series' fields"
  else bad "--vtu-every on $np ranks"; ls "$dir/ts"; cat "$dir/out" "$dir/err"; fi
done
rm -rf "$dir/ser" "$dir/ts" "$dir/step3"

# one_error ERR TEXT: every rank's hdgcl line is the same one-line message, naming TEXT
one_error() {
  n=$(grep -c "^hdgcl solve: error on rank" "$1")
  [ "$n" -ge 1 ] && [ "$(grep "^hdgcl solve: error on rank" "$1" | grep -c "$2")" -eq "$n" ] \
    && [ "$(grep "^hdgcl solve: error on rank" "$1" | sed 's/^hdgcl solve: error on rank [0-9]* of [0-9]*: //' \
            | sort -u | wc -l)" -eq 1 ]
}
# no_files DIR [KEEP]: DIR holds nothing but KEEP
no_files() { [ "$(ls -A "$1")" = "${2:-}" ]; }

# all ranks fail to open: a directory that does not exist
mkdir "$dir/f"
"$mpirun" -np 2 "$cli" solve --mesh square:6 --order 2 --vtu "$dir/f/missing/out.pvtu" --quiet \
  > "$dir/out" 2> "$dir/err"; rc=$?
if [ $rc -ne 0 ] && one_error "$dir/err" "cannot write $dir/f/missing/out_0000.vtu (failed on rank 0 of 2" \
   && no_files "$dir/f"; then ok "unwritable directory: an error, no file"
else bad "unwritable directory (rc=$rc)"; cat "$dir/err"; fi

# one rank fails after every piece is complete: its rename onto a directory;
# the ranks that renamed must remove their files again
for np in 2 3; do
  last=$(printf 'out_%04d.vtu' $((np - 1)))
  rm -rf "$dir/f" && mkdir -p "$dir/f/$last"
  "$mpirun" -np $np "$cli" solve --mesh square:6 --order 2 --vtu "$dir/f/out.pvtu" --quiet \
    > "$dir/out" 2> "$dir/err"; rc=$?
  if [ $rc -ne 0 ] && one_error "$dir/err" "cannot rename .* to $dir/f/$last (failed on rank $((np - 1)) of $np" \
     && no_files "$dir/f" "$last"; then ok "a rename failing on rank $((np - 1)) of $np: no file on any rank"
  else bad "a rename failing on rank $((np - 1)) of $np (rc=$rc)"; ls -A "$dir/f"; cat "$dir/err"; fi
done

# one rank fails while writing (a file size limit on rank 1, SIGXFSZ ignored:
# its writes fail with EFBIG): rank 0 must remove its temporaries
rm -rf "$dir/f" && mkdir "$dir/f"
"$mpirun" -np 2 --mca btl self,tcp sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then trap "" XFSZ; ulimit -f 20; fi
  exec "$0" "$@"' "$cli" solve --mesh square:6 --order 2 --vtu "$dir/f/out.pvtu" --quiet \
  > "$dir/out" 2> "$dir/err"; rc=$?
if [ $rc -ne 0 ] && one_error "$dir/err" "error writing $dir/f/out_0001.vtu .*(failed on rank 1 of 2" \
   && no_files "$dir/f"; then ok "a write failing on rank 1: no file on any rank"
else bad "a write failing on rank 1 (rc=$rc)"; ls -A "$dir/f"; cat "$dir/err"; fi

# a .vtu name under mpirun is refused by name
"$mpirun" -np 2 "$cli" solve --mesh square:6 --order 2 --vtu "$dir/out.vtu" --quiet > "$dir/out" 2> "$dir/err"
[ $? -ne 0 ] && one_error "$dir/err" "name it STEM.pvtu" && ok "--vtu out.vtu under mpirun refused" \
  || { bad "--vtu out.vtu under mpirun"; cat "$dir/err"; }
exit $fail
