"""hdgcl's orthonormal bases (host/fem/basis.h), evaluated with numpy/scipy, to turn the
solution's coefficients into values: the same formulas and ordering as the C header."""
from __future__ import annotations

import numpy as np
from scipy.special import eval_jacobi, eval_legendre

REFERENCE_VERTICES = {
    "triangle": [(-1, -1), (1, -1), (-1, 1)],
    "quadrilateral": [(-1, -1), (1, -1), (1, 1), (-1, 1)],
    "tetrahedron": [(-1, -1, -1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)],
    "hexahedron": [(-1, -1, -1), (1, -1, -1), (1, 1, -1), (-1, 1, -1),
                   (-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)],
}


def _legendre(i: int, x: np.ndarray) -> np.ndarray:
    return np.sqrt(i + 0.5) * eval_legendre(i, x)


def evaluate(cell_type: str, p: int, points: np.ndarray) -> np.ndarray:
    """Values (n_points, N) of the degree-p basis of cell_type at reference points
    (n_points, dim)."""
    x = np.asarray(points, dtype=float)
    cols = []
    if cell_type == "quadrilateral":
        for j in range(p + 1):
            for i in range(p + 1):
                cols.append(_legendre(i, x[:, 0]) * _legendre(j, x[:, 1]))
    elif cell_type == "hexahedron":
        for k in range(p + 1):
            for j in range(p + 1):
                for i in range(p + 1):
                    cols.append(_legendre(i, x[:, 0]) * _legendre(j, x[:, 1])
                                * _legendre(k, x[:, 2]))
    elif cell_type == "triangle":
        s, b = x[:, 0], x[:, 1]
        collapsed = np.isclose(b, 1.0)  # the top vertex: only i = 0 survives
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.where(collapsed, -1.0, 2 * (1 + s) / np.where(collapsed, 1.0, 1 - b) - 1)
        for n in range(p + 1):
            for j in range(n + 1):
                i = n - j
                cols.append(np.sqrt((2 * i + 1) * (i + j + 1) / 2) * eval_legendre(i, a)
                            * ((1 - b) / 2) ** i * eval_jacobi(j, 2 * i + 1, 0, b))
    elif cell_type == "tetrahedron":
        X, Y, Z = x[:, 0], x[:, 1], x[:, 2]
        ya = np.isclose(Y + Z, 0.0)
        zc = np.isclose(Z, 1.0)
        a = np.where(ya, -1.0, -2 * (1 + X) / np.where(ya, 1.0, Y + Z) - 1)
        b = np.where(zc, -1.0, 2 * (1 + Y) / np.where(zc, 1.0, 1 - Z) - 1)
        c = Z
        for n in range(p + 1):
            for k in range(n + 1):
                for j in range(n - k + 1):
                    i = n - j - k
                    scale = np.sqrt((2 * i + 1) * (2 * i + 2 * j + 2)
                                    * (2 * i + 2 * j + 2 * k + 3) / 8)
                    cols.append(scale * eval_legendre(i, a) * ((1 - b) / 2) ** i
                                * eval_jacobi(j, 2 * i + 1, 0, b) * ((1 - c) / 2) ** (i + j)
                                * eval_jacobi(k, 2 * i + 2 * j + 2, 0, c))
    else:
        raise ValueError(f"unknown cell type {cell_type!r}")
    return np.stack(cols, axis=1)


def vertex_values(cell_type: str, p: int) -> np.ndarray:
    """(verts_per_element, N): the basis at the reference element's vertices."""
    return evaluate(cell_type, p, np.array(REFERENCE_VERTICES[cell_type], dtype=float))
