"""Meshes: generated from a spec, read from Gmsh, built from numpy arrays or meshio."""
from __future__ import annotations

import os
import weakref
from ctypes import POINTER, byref, c_double, c_int32
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from ._lib import Error, MeshStruct, check, encode, lib, text

ELEMENT_TYPES = {"triangle": 0, "quadrilateral": 1, "tetrahedron": 2, "hexahedron": 3}
_LAYOUT = {  # dim, vertices per element, vertices per face
    "triangle": (2, 3, 2), "quadrilateral": (2, 4, 2),
    "tetrahedron": (3, 4, 3), "hexahedron": (3, 8, 4)}
# meshio's cell type names of each element type and of its faces
_MESHIO_CELLS = {"triangle": "triangle", "quad": "quadrilateral",
                 "tetra": "tetrahedron", "hexahedron": "hexahedron"}
_MESHIO_FACES = {"triangle": "line", "quadrilateral": "line",
                 "tetrahedron": "triangle", "hexahedron": "quad"}
_INT32_MAX = 2**31 - 1


def _as_array(a: Any, dtype: type, ndim: int, name: str, width: int | None = None) -> np.ndarray:
    """a as a C-contiguous array of dtype with ndim dimensions (and `width` columns),
    refusing what would lose information (floats as indices, complex as reals)."""
    try:
        arr = np.asarray(a)
    except Exception as exc:  # ragged lists and the like
        raise ValueError(f"{name}: not an array ({exc})") from None
    if arr.ndim != ndim:
        raise ValueError(f"{name}: expected {ndim} dimensions, got shape {arr.shape}")
    if width is not None and arr.shape[1] != width:
        raise ValueError(f"{name}: expected shape (n, {width}), got {arr.shape}")
    if dtype is np.int32:
        if arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(np.int32)
        if arr.dtype.kind not in "iu":
            raise TypeError(f"{name}: expected integers, got dtype {arr.dtype}")
        if arr.size and (arr.min() < -_INT32_MAX or arr.max() > _INT32_MAX):
            raise ValueError(f"{name}: values out of the 32-bit range")
    elif arr.dtype.kind not in "iuf":
        raise TypeError(f"{name}: expected real numbers, got dtype {arr.dtype}")
    return np.ascontiguousarray(arr, dtype=dtype)


class Mesh:
    """A mesh of triangles, quadrilaterals, tetrahedra or hexahedra with its face topology.

    Create one with Mesh.from_spec("square:8"), Mesh.read_gmsh("m.msh"),
    Mesh.from_arrays(points, cells, ...) or Mesh.from_meshio(m_or_path).
    """

    def __init__(self, handle: "POINTER[MeshStruct]", source: str):
        self._handle = handle
        self._solvers: weakref.WeakSet = weakref.WeakSet()  # solvers pointing to it
        self.source = source  # the spec, file or "arrays": the "mesh" of the results

    # --- constructors ---
    @classmethod
    def from_spec(cls, spec: str) -> "Mesh":
        """A generated mesh ("square:8", "cube:4,perturb=0.1", "hex:2x2x4", ...) or a .msh
        path, exactly as `hdgcl solve --mesh SPEC`."""
        handle = POINTER(MeshStruct)()
        check(lib.hdgcl_mesh_create_from_spec(encode(spec, "mesh spec"), byref(handle)))
        return cls(handle, os.fspath(spec))

    @classmethod
    def read_gmsh(cls, path: str | os.PathLike) -> "Mesh":
        """A Gmsh .msh file: ASCII 2.2 or 4.1, or binary 4.1."""
        handle = POINTER(MeshStruct)()
        check(lib.hdgcl_mesh_read_gmsh(encode(path, "Gmsh file"), byref(handle)))
        return cls(handle, os.fspath(path))

    @classmethod
    def from_arrays(cls, points: Any, cells: Any, cell_type: str | None = None,
                    cell_tags: Any = None, faces: Any = None, face_tags: Any = None,
                    tag_names: Mapping[str, tuple[int, int]] | None = None) -> "Mesh":
        """A mesh from numpy arrays (hdgcl_mesh_create_from_arrays).

        points     (n_points, dim) float, dim 2 or 3 (3D points of a 2D mesh need z = const;
                   z is dropped)
        cells      (n_cells, k) integer point indices (0-based), in Gmsh's vertex order
        cell_type  "triangle" | "quadrilateral" | "tetrahedron" | "hexahedron"; default:
                   from dim and k (3 -> triangle, 4 -> quadrilateral in 2D, tetrahedron in 3D,
                   8 -> hexahedron)
        cell_tags  (n_cells,) region tags >= 0 (0: none), default all 0
        faces      (n_faces, kf) boundary faces with face_tags (n_faces,) tags >= 1
        tag_names  {name: (dim, tag)} names usable in problem files ("left": (1, 1))
        Every point must be a vertex of some cell.
        """
        cells_arr = _as_array(cells, np.int32, 2, "cells")
        pts = _as_array(points, np.float64, 2, "points")
        if pts.shape[1] not in (2, 3):
            raise ValueError(f"points: expected shape (n, 2) or (n, 3), got {pts.shape}")
        k = cells_arr.shape[1]
        if cell_type is None:
            guess = {(2, 3): "triangle", (2, 4): "quadrilateral", (3, 4): "tetrahedron",
                     (3, 8): "hexahedron", (3, 3): "triangle"}
            cell_type = guess.get((pts.shape[1], k))
            if cell_type is None:
                raise ValueError(f"cells: {k} vertices per cell with {pts.shape[1]}D points "
                                 "(give cell_type)")
        if cell_type not in _LAYOUT:
            raise ValueError(f"cell_type {cell_type!r}: expected one of {sorted(_LAYOUT)}")
        dim, vpe, vpf = _LAYOUT[cell_type]
        if k != vpe:
            raise ValueError(f"cells: a {cell_type} has {vpe} vertices, got shape "
                             f"{cells_arr.shape}")
        if pts.shape[1] < dim:
            raise ValueError(f"points: {cell_type} meshes need {dim}D points, got shape "
                             f"{pts.shape}")
        if pts.shape[1] > dim:  # a 2D mesh in 3D space: flat, z dropped
            z = pts[:, 2]
            if z.size and np.ptp(z) > 1e-10 * max(np.abs(pts).max(), 1.0):
                raise ValueError(f"points: a {cell_type} mesh must lie in a plane z = constant "
                                 f"(z from {z.min():g} to {z.max():g})")
            pts = np.ascontiguousarray(pts[:, :dim])
        n_cells = cells_arr.shape[0]
        if n_cells > _INT32_MAX or pts.shape[0] > _INT32_MAX:
            raise ValueError("points/cells: too many for 32-bit indices")
        tags = None
        if cell_tags is not None:
            tags = _as_array(cell_tags, np.int32, 1, "cell_tags")
            if tags.shape[0] != n_cells:
                raise ValueError(f"cell_tags: expected shape ({n_cells},), got {tags.shape}")
        if (faces is None) != (face_tags is None):
            raise ValueError("faces and face_tags go together (give both or neither)")
        fv = ft = None
        n_faces = 0
        if faces is not None:
            fv = _as_array(faces, np.int32, 2, "faces", vpf)
            ft = _as_array(face_tags, np.int32, 1, "face_tags")
            if ft.shape[0] != fv.shape[0]:
                raise ValueError(f"face_tags: expected shape ({fv.shape[0]},), got {ft.shape}")
            n_faces = fv.shape[0]

        def ptr(a: np.ndarray | None, ctype: type) -> Any:
            return None if a is None else a.ctypes.data_as(POINTER(ctype))

        handle = POINTER(MeshStruct)()
        check(lib.hdgcl_mesh_create_from_arrays(
            ELEMENT_TYPES[cell_type], pts.shape[0], ptr(pts, c_double), n_cells,
            ptr(cells_arr, c_int32), ptr(tags, c_int32), n_faces, ptr(fv, c_int32),
            ptr(ft, c_int32), byref(handle)))
        mesh = cls(handle, "arrays")
        for name, (tdim, tag) in (tag_names or {}).items():
            mesh.set_tag_name(tdim, tag, name)
        return mesh

    @classmethod
    def from_meshio(cls, mesh_or_path: Any, file_format: str | None = None) -> "Mesh":
        """A mesh from meshio (https://github.com/nschloe/meshio): a meshio.Mesh or any file
        meshio reads (VTK/VTU, XDMF, Abaqus, Exodus, MED, Gmsh, ...).

        The cells of the highest dimension form the mesh (one element type); their
        "gmsh:physical" or "cell_tags" data gives region tags, and cells of one dimension
        less with such data tag boundary faces; field_data {name: [tag, dim]} names tags.
        Points used by no cell are dropped.
        """
        try:
            import meshio
        except ImportError:
            raise ImportError("Mesh.from_meshio needs meshio (pip install meshio, or Debian's "
                              "python3-meshio)") from None
        if isinstance(mesh_or_path, (str, os.PathLike)):
            if not Path(mesh_or_path).is_file():
                raise FileNotFoundError(f"{os.fspath(mesh_or_path)}: no such file")
            m = meshio.read(mesh_or_path, file_format=file_format)
            source = os.fspath(mesh_or_path)
        else:
            m = mesh_or_path
            source = "meshio"
        blocks: dict[str, list[tuple[np.ndarray, np.ndarray | None]]] = {}
        tag_keys = ("gmsh:physical", "cell_tags", "medit:ref")
        for i, block in enumerate(m.cells):
            tags = None
            for key in tag_keys:
                if key in m.cell_data:
                    tags = np.asarray(m.cell_data[key][i]).astype(np.int64)
                    break
            blocks.setdefault(block.type, []).append((np.asarray(block.data), tags))
        volume = [t for t in ("tetra", "hexahedron") if t in blocks] or \
                 [t for t in ("triangle", "quad") if t in blocks]
        if not volume:
            raise ValueError(f"{source}: no triangle, quad, tetra or hexahedron cells (found "
                             f"{sorted(blocks) or 'none'})")
        if len(volume) > 1:
            raise ValueError(f"{source}: mixed cell types {volume}; a mesh has one element type")
        cell_type = _MESHIO_CELLS[volume[0]]
        dim = _LAYOUT[cell_type][0]
        cells = np.concatenate([c for c, _ in blocks[volume[0]]])
        cell_tags = None
        if any(t is not None for _, t in blocks[volume[0]]):
            cell_tags = np.concatenate([t if t is not None else np.zeros(len(c), np.int64)
                                        for c, t in blocks[volume[0]]])
        face_type = _MESHIO_FACES[cell_type]
        face_blocks = [(c, t) for c, t in blocks.get(face_type, []) if t is not None]
        faces = face_tags = None
        if face_blocks:
            faces = np.concatenate([c for c, _ in face_blocks])
            face_tags = np.concatenate([t for _, t in face_blocks])
            keep = face_tags > 0
            faces, face_tags = faces[keep], face_tags[keep]
        # drop points no cell uses, renumbering cells and faces
        points = np.asarray(m.points)
        used = np.zeros(len(points), dtype=bool)
        used[cells.ravel()] = True
        new = np.full(len(points), -1, dtype=np.int64)
        new[used] = np.arange(int(used.sum()))
        cells = new[cells]
        if faces is not None:
            faces_new = new[faces]
            on_mesh = (faces_new >= 0).all(axis=1)
            faces, face_tags = faces_new[on_mesh], face_tags[on_mesh]
        names = {}
        for name, value in (m.field_data or {}).items():
            value = np.asarray(value).ravel()
            if value.size >= 2 and int(value[1]) in (dim, dim - 1):
                names[name] = (int(value[1]), int(value[0]))
        mesh = cls.from_arrays(points[used], cells, cell_type, cell_tags, faces, face_tags)
        for name, (tdim, tag) in names.items():
            try:
                mesh.set_tag_name(tdim, tag, name)
            except Error:
                pass  # a name hdgcl refuses (e.g. a number) stays a plain tag
        mesh.source = source
        return mesh

    # --- properties (copies of the C arrays) ---
    @property
    def _m(self) -> MeshStruct:
        if not self._handle:
            raise ValueError("mesh: already closed")
        return self._handle.contents

    @property
    def cell_type(self) -> str:
        return text(lib.hdgcl_element_type_name(self._m.type))

    @property
    def dim(self) -> int:
        return self._m.dim

    @property
    def num_elements(self) -> int:
        return self._m.num_elements

    @property
    def num_faces(self) -> int:
        return self._m.num_faces

    @property
    def num_interior_faces(self) -> int:
        return self._m.num_interior_faces

    def _copy(self, pointer: Any, *shape: int) -> np.ndarray:
        if 0 in shape:
            return np.zeros(shape)
        return np.ctypeslib.as_array(pointer, shape=shape).copy()

    @property
    def points(self) -> np.ndarray:
        """(num_vertices, dim) float64."""
        m = self._m
        return self._copy(m.coords, m.num_vertices, m.dim)

    @property
    def cells(self) -> np.ndarray:
        """(num_elements, verts_per_element) int32, positively oriented.

        A mixed mesh (triangles, then quadrilaterals) has rows of the widest
        type, -1 past a triangle's three vertices."""
        m = self._m
        return self._copy(m.elem_verts, m.num_elements, m.verts_per_element)

    @property
    def cell_tags(self) -> np.ndarray:
        """(num_elements,) int32 region tags (0: none)."""
        m = self._m
        return self._copy(m.elem_tags, m.num_elements)

    @property
    def faces(self) -> np.ndarray:
        """(num_faces, verts_per_face) int32; interior faces first."""
        m = self._m
        return self._copy(m.face_verts, m.num_faces, m.verts_per_face)

    @property
    def face_tags(self) -> np.ndarray:
        """(num_faces,) int32 boundary tags (0: interior or untagged)."""
        m = self._m
        return self._copy(m.face_tags, m.num_faces)

    @property
    def tag_names(self) -> dict[str, tuple[int, int]]:
        """{name: (dim, tag)} for the named tags."""
        m = self._m
        return {text(m.tag_names[i].name): (m.tag_names[i].dim, m.tag_names[i].tag)
                for i in range(m.num_tag_names)}

    def set_tag_name(self, dim: int, tag: int, name: str) -> None:
        check(lib.hdgcl_mesh_set_tag_name(self._handle, int(dim), int(tag),
                                          encode(name, "tag name")))

    def write_gmsh(self, path: str | os.PathLike, version: int = 41,
                   binary: bool = False) -> None:
        """Writes Gmsh 4.1 (version=41) or 2.2 (version=22) ASCII, or binary 4.1."""
        if binary:
            check(lib.hdgcl_mesh_write_gmsh_binary(self._handle, encode(path, "Gmsh file")))
        else:
            check(lib.hdgcl_mesh_write_gmsh(self._handle, encode(path, "Gmsh file"),
                                            int(version)))

    def close(self) -> None:
        """Frees the mesh; the solvers using it are closed first."""
        for solver in list(getattr(self, "_solvers", ())):
            solver.close()
        if getattr(self, "_handle", None):
            lib.hdgcl_mesh_destroy(byref(self._handle))
            self._handle = POINTER(MeshStruct)()

    def __del__(self) -> None:
        self.close()

    def __repr__(self) -> str:
        if not self._handle:
            return "<hdgcl.Mesh (closed)>"
        return (f"<hdgcl.Mesh {self.source}: {self.num_elements} {self.cell_type}s, "
                f"{self._m.num_vertices} vertices, {self.num_faces} faces>")
