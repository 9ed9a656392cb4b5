"""Meshes from specs, Gmsh files, numpy arrays and meshio, and every refusal."""
from __future__ import annotations

import numpy as np
import pytest

import hdgcl


def test_from_spec_arrays():
    m = hdgcl.Mesh.from_spec("square:2x3,split=x:0.5")
    assert (m.cell_type, m.dim, m.num_elements) == ("triangle", 2, 12)
    assert m.points.shape == (12, 2) and m.points.dtype == np.float64
    assert m.cells.shape == (12, 3) and m.cells.dtype == np.int32
    assert m.faces.shape == (m.num_faces, 2) and m.face_tags.shape == (m.num_faces,)
    assert sorted(set(m.cell_tags)) == [1, 2]
    assert m.tag_names == {"left": (1, 1), "right": (1, 2), "bottom": (1, 3), "top": (1, 4)}
    # interior faces first, untagged; every boundary face tagged 1..4
    ft = m.face_tags
    assert (ft[:m.num_interior_faces] == 0).all()
    assert set(ft[m.num_interior_faces:]) == {1, 2, 3, 4}
    h = hdgcl.Mesh.from_spec("hex:2")
    assert (h.cell_type, h.cells.shape, h.faces.shape) == ("hexahedron", (8, 8), (36, 4))


def rebuild(m: hdgcl.Mesh) -> hdgcl.Mesh:
    b = slice(m.num_interior_faces, None)
    return hdgcl.Mesh.from_arrays(m.points, m.cells, m.cell_type, m.cell_tags,
                                  m.faces[b], m.face_tags[b], m.tag_names)


@pytest.mark.parametrize("spec", ["square:3", "quad:2", "cube:1", "hex:1x1x2"])
def test_from_arrays_same_mesh(spec):
    m = hdgcl.Mesh.from_spec(spec)
    r = rebuild(m)
    for attr in ("points", "cells", "cell_tags", "faces", "face_tags"):
        np.testing.assert_array_equal(getattr(r, attr), getattr(m, attr))
    assert r.tag_names == m.tag_names and r.source == "arrays"


def test_from_arrays_solves_like_spec():
    """poisson-mixed has Neumann sides (tags 2, 4): the tags must come through."""
    m = hdgcl.Mesh.from_spec("square:3")
    with hdgcl.solve(m, order=2, problem="poisson-mixed") as a, \
            hdgcl.solve(rebuild(m), order=2, problem="poisson-mixed") as b:
        assert a.result["errors"] == b.result["errors"]
        np.testing.assert_array_equal(a.u, b.u)


def test_from_arrays_guesses_type_and_takes_lists():
    m = hdgcl.Mesh.from_arrays([[0, 0], [1, 0], [1, 1], [0, 1]], [[0, 1, 2, 3]])
    assert m.cell_type == "quadrilateral"
    t = hdgcl.Mesh.from_arrays(np.array([[0, 0, 5.0], [1, 0, 5], [0, 1, 5]]),
                               np.array([[0, 2, 1]], dtype=np.int64))  # flat 3D points, clockwise
    assert t.cell_type == "triangle" and t.points.shape == (3, 2)
    assert set(t.cells[0]) == {0, 1, 2}


SQ = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
TRI = np.array([[0, 1, 2], [0, 2, 3]], dtype=np.int32)


@pytest.mark.parametrize("kwargs,error,message", [
    ({"points": SQ[:, 0]}, ValueError, "points: expected 2 dimensions"),
    ({"points": np.zeros((4, 4))}, ValueError, "points: expected shape (n, 2) or (n, 3)"),
    ({"points": SQ.astype(complex)}, TypeError, "points: expected real numbers"),
    ({"points": [["a", "b"]] * 4}, TypeError, "points: expected real numbers"),
    ({"cells": TRI.astype(float)}, TypeError, "cells: expected integers"),
    ({"cells": TRI[:, :2]}, ValueError, "cells: 2 vertices per cell"),
    ({"cells": [[0, 1, 2], [0, 2]]}, ValueError, "cells: not an array"),
    ({"cells": TRI + 2**40}, ValueError, "cells: values out of the 32-bit range"),
    ({"cell_type": "prism"}, ValueError, "cell_type 'prism'"),
    ({"cell_type": "quadrilateral"}, ValueError, "a quadrilateral has 4 vertices"),
    ({"cell_tags": [1]}, ValueError, "cell_tags: expected shape (2,)"),
    ({"faces": [[0, 1]]}, ValueError, "faces and face_tags go together"),
    ({"faces": [[0, 1, 2]], "face_tags": [1]}, ValueError, "faces: expected shape (n, 2)"),
    ({"faces": [[0, 1]], "face_tags": [1, 2]}, ValueError, "face_tags: expected shape (1,)"),
    ({"points": np.c_[SQ, [0, 0, 1, 0]]}, ValueError, "must lie in a plane z = constant"),
    # refused by the C library: hdgcl.Error with hdgcl_last_error()'s message
    ({"cells": TRI + 1}, hdgcl.Error, "mesh from arrays: cell 1 has vertex 4, out of range 0..3"),
    ({"cells": TRI[:1]}, hdgcl.Error, "point 3 is a vertex of no cell"),
    ({"points": SQ * [1, 0]}, hdgcl.Error, "cell 0 (triangle) is degenerate"),
    ({"points": np.where(SQ == 1, np.nan, SQ)}, hdgcl.Error, "has coordinate nan"),
    ({"cell_tags": [0, -1]}, hdgcl.Error, "cell 1 has tag -1"),
    ({"faces": [[1, 3]], "face_tags": [1]}, hdgcl.Error, "is not a face of any cell"),
    ({"faces": [[0, 1]], "face_tags": [0]}, hdgcl.Error, "tagged face 0 has tag 0"),
    ({"tag_names": {"1": (1, 1)}}, hdgcl.Error, "a decimal number"),
])
def test_from_arrays_refusals(kwargs, error, message):
    args = {"points": SQ, "cells": TRI}
    args.update(kwargs)
    with pytest.raises(error) as info:
        hdgcl.Mesh.from_arrays(**args)
    assert message in str(info.value)
    if error is hdgcl.Error:
        assert info.value.status.startswith("HDGCL_ERROR_")


def test_gmsh_round_trip(tmp_path):
    m = hdgcl.Mesh.from_spec("quad:2x3,split=y:0.5")
    for kwargs in ({"version": 41}, {"version": 22}, {"binary": True}):
        path = tmp_path / "m.msh"
        m.write_gmsh(path, **kwargs)
        r = hdgcl.Mesh.read_gmsh(path)
        np.testing.assert_array_equal(r.cells, m.cells)
        np.testing.assert_array_equal(r.face_tags, m.face_tags)
        assert r.tag_names == m.tag_names and r.source == str(path)


def test_file_and_spec_errors(tmp_path):
    with pytest.raises(hdgcl.Error, match="nothere.msh") as info:
        hdgcl.Mesh.read_gmsh(tmp_path / "nothere.msh")
    assert info.value.status == "HDGCL_ERROR_IO"
    bad = tmp_path / "bad.msh"
    bad.write_text("$MeshFormat\n9.9 0 8\n$EndMeshFormat\n")
    with pytest.raises(hdgcl.Error, match="bad.msh"):
        hdgcl.Mesh.read_gmsh(bad)
    with pytest.raises(hdgcl.Error, match="triangle"):
        hdgcl.Mesh.from_spec("triangle:4")
    with pytest.raises(TypeError, match="mesh spec"):
        hdgcl.Mesh.from_spec(4)
    with pytest.raises(ValueError, match="NUL"):
        hdgcl.Mesh.from_spec("square:4\0")
    with pytest.raises(hdgcl.Error, match="no-such-dir"):
        hdgcl.Mesh.from_spec("square:2").write_gmsh(tmp_path / "no-such-dir" / "m.msh")


def test_closed_mesh():
    m = hdgcl.Mesh.from_spec("square:1")
    m.close()
    m.close()
    with pytest.raises(ValueError, match="closed"):
        m.points
    assert "closed" in repr(m)


# --- meshio (optional) ---

def test_meshio_gmsh_file_like_hdgcl(tmp_path, examples):
    pytest.importorskip("meshio")
    path = examples / "capacitor.msh"
    a, b = hdgcl.Mesh.read_gmsh(path), hdgcl.Mesh.from_meshio(path)
    assert b.cell_type == a.cell_type and b.num_elements == a.num_elements
    np.testing.assert_array_equal(np.sort(b.cell_tags), np.sort(a.cell_tags))
    np.testing.assert_array_equal(np.sort(b.face_tags), np.sort(a.face_tags))
    assert b.tag_names == a.tag_names


def test_meshio_vtu_and_mesh_object(tmp_path):
    """A format hdgcl does not read (VTU), with region tags as cell data."""
    meshio = pytest.importorskip("meshio")
    m = hdgcl.Mesh.from_spec("cube:2,split=z:0.5")
    extra = np.vstack([m.points, [[9.0, 9.0, 9.0]]])  # an unused point is dropped
    mm = meshio.Mesh(extra, [("tetra", m.cells)], cell_data={"cell_tags": [m.cell_tags]})
    path = tmp_path / "m.vtu"
    mm.write(path)
    for source in (path, mm):
        r = hdgcl.Mesh.from_meshio(source)
        np.testing.assert_array_equal(r.cells, m.cells)
        np.testing.assert_array_equal(r.cell_tags, m.cell_tags)
        np.testing.assert_allclose(r.points, m.points)
    with hdgcl.solve(hdgcl.Mesh.from_meshio(path), order=1) as s:
        assert s.result["mesh"] == str(path) and s.result["elements"] == m.num_elements


def test_meshio_refusals(tmp_path):
    meshio = pytest.importorskip("meshio")
    with pytest.raises(FileNotFoundError, match="nothere.vtu"):
        hdgcl.Mesh.from_meshio(tmp_path / "nothere.vtu")
    lines = meshio.Mesh(SQ, [("line", np.array([[0, 1], [1, 2]]))])
    with pytest.raises(ValueError, match=r"no triangle, quad, tetra or hexahedron cells"):
        hdgcl.Mesh.from_meshio(lines)
    mixed = meshio.Mesh(SQ, [("triangle", TRI[:1]), ("quad", np.array([[0, 1, 2, 3]]))])
    with pytest.raises(ValueError, match="mixed cell types"):
        hdgcl.Mesh.from_meshio(mixed)


def test_from_arrays_dimension_refusals():
    with pytest.raises(ValueError, match="tetrahedron meshes need 3D points"):
        hdgcl.Mesh.from_arrays(SQ, [[0, 1, 2, 3]], "tetrahedron")
    with pytest.raises(ValueError, match=r"5 vertices per cell with 2D points \(give cell_type\)"):
        hdgcl.Mesh.from_arrays(SQ, [[0, 1, 2, 3, 0]])
    with pytest.raises(TypeError, match="cells: expected integers"):
        hdgcl.Mesh.from_arrays(SQ, TRI.astype(bool))


def test_from_meshio_without_meshio(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "meshio", None)  # import meshio raises ImportError
    with pytest.raises(ImportError, match="needs meshio"):
        hdgcl.Mesh.from_meshio("m.vtu")
