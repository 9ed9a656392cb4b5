#!/usr/bin/env python3
"""Lab 2: look at the trace system that `hdgcl solve --export-matrix PREFIX` wrote.

usage: python3 docs/labs/inspect_matrix.py PREFIX

Reads PREFIX.mtx (the assembled trace matrix K, MatrixMarket "coordinate real
general", every entry of every stored face block) and PREFIX.rhs.mtx (the
right-hand side F) with numpy only, and prints what the lab asks about:
size, nonzeros per row (the face-block structure), symmetry, the extreme
eigenvalues and the condition number (dense, so keep the mesh small), and the
residual of a dense direct solve K lambda = F.
"""
import sys

import numpy as np


def read_mtx(path):
    """(dense matrix, number of stored entries) of a MatrixMarket coordinate or array file."""
    with open(path) as f:
        header = f.readline().split()
        if len(header) < 4 or header[0] != "%%MatrixMarket":
            raise ValueError("%s: not a MatrixMarket file" % path)
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        dims = [int(x) for x in line.split()]
        data = np.loadtxt(f, ndmin=2)
    if header[2] == "array":  # column-major values
        return data.reshape(dims[1], dims[0]).T, data.size
    rows, cols = dims[0], dims[1]
    a = np.zeros((rows, cols))
    a[data[:, 0].astype(int) - 1, data[:, 1].astype(int) - 1] = data[:, 2]
    return a, len(data)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    prefix = sys.argv[1]
    try:
        k, stored = read_mtx(prefix + ".mtx")
        f = read_mtx(prefix + ".rhs.mtx")[0][:, 0]
    except (OSError, ValueError) as e:
        print("inspect_matrix.py: %s" % e, file=sys.stderr)
        return 1
    n = k.shape[0]
    per_row = np.count_nonzero(k, axis=1)
    print("size            %d x %d, %d stored entries (%.1f per row), %d nonzero" % (
        n, n, stored, stored / n, np.count_nonzero(k)))
    print("nonzeros a row  min %d, max %d" % (per_row.min(), per_row.max()))
    asym = np.abs(k - k.T).max() / np.abs(k).max()
    print("symmetry        max |K - K^T| / max |K| = %.1e" % asym)
    if asym < 1e-12:
        ev = np.linalg.eigvalsh((k + k.T) / 2)
        print("eigenvalues     min %.4e, max %.4e (%s)" % (
            ev[0], ev[-1], "positive definite" if ev[0] > 0 else "NOT positive definite"))
        print("condition       %.4e" % (ev[-1] / ev[0]))
    else:
        print("condition       %.4e (2-norm, nonsymmetric)" % np.linalg.cond(k))
    x = np.linalg.solve(k, f)
    print("direct solve    |F - K x| / |F| = %.1e, |x|_inf = %.4e" % (
        np.linalg.norm(f - k @ x) / np.linalg.norm(f), np.abs(x).max()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
