#!/usr/bin/env python3
"""Times NVIDIA's own libraries on the data hdgcl exports, on the GPU machine.

usage: python3 perf/cupy_compare.py PREFIX [--repeat R] [--gemm M,N,K,BATCH ...] [--json OUT]

PREFIX.mtx / PREFIX.rhs.mtx come from `hdgcl solve ... --export-matrix PREFIX`
(MatrixMarket, see host/io/matrix_export.c).  Measured in one run, with CUDA
events, median of R repetitions after a warm-up:
  - copy bandwidth: a 1 GiB device-to-device copy (bytes read + written);
  - cuSPARSE CSR SpMV (CuPy's csr_matrix @ x) on the exported matrix, with the
    bytes counted as a CSR SpMV must move them: values (8 B) and column indices
    (4 B) per nonzero, row pointers, x once and y once;
  - cuBLAS batched DGEMM (cupy.matmul on (BATCH, M, K) x (BATCH, K, N) arrays,
    i.e. cublasDgemmStridedBatched) for each --gemm shape, e.g. the local
    stage's S^-1 [W|F] product 'NP,NT+1,NP,ELEMENTS'.
Also checks the SpMV against a host (NumPy) product.  Prints one JSON object.
"""
import argparse
import json
import sys
import time

import numpy as np


def read_matrix_market(path):
    """(n_rows, n_cols, rows, cols, values) of a coordinate file, or the
    column of an array file (rows, cols None), 0-based."""
    with open(path) as f:
        header = f.readline()
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        sizes = [int(v) for v in line.split()]
        body = np.array(f.read().split(), dtype=np.float64)
    if "coordinate" in header:
        n, m, nnz = sizes
        t = body.reshape(nnz, 3)
        return n, m, t[:, 0].astype(np.int64) - 1, t[:, 1].astype(np.int64) - 1, t[:, 2]
    n, m = sizes
    return n, m, None, None, body


def median_time(fn, repeat, cp):
    fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(repeat):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) * 1e-3)
    return float(np.median(times))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("prefix")
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--gemm", action="append", default=[], help="M,N,K,BATCH")
    ap.add_argument("--json")
    args = ap.parse_args()
    try:
        import cupy as cp
        import cupyx.scipy.sparse as cps
    except ImportError:
        print("cupy_compare.py: CuPy is not installed (it is on the GPU machine)", file=sys.stderr)
        return 2

    t0 = time.time()
    n, m, rows, cols, vals = read_matrix_market(args.prefix + ".mtx")
    _, _, _, _, rhs = read_matrix_market(args.prefix + ".rhs.mtx")
    if n != m or rhs.size != n:
        print("cupy_compare.py: %s: not a square system with its right-hand side" % args.prefix,
              file=sys.stderr)
        return 1
    read_seconds = time.time() - t0
    out = {"matrix": args.prefix, "rows": n, "nnz": int(vals.size),
           "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
           "cupy": cp.__version__, "read_seconds": read_seconds}

    # Copy bandwidth: 1 GiB each way.
    a = cp.ones(1 << 27, dtype=cp.float64)
    b = cp.empty_like(a)
    t = median_time(lambda: cp.copyto(b, a), args.repeat, cp)
    out["copy_gbs"] = 2 * a.nbytes / t / 1e9
    del a, b

    # cuSPARSE CSR SpMV.
    A = cps.coo_matrix((cp.asarray(vals), (cp.asarray(rows), cp.asarray(cols))), shape=(n, n)).tocsr()
    A.sum_duplicates()
    x = cp.asarray(rhs)
    y = A @ x
    host = np.zeros(n)
    np.add.at(host, rows, vals * rhs[cols])
    out["spmv_check_rel"] = float(np.abs(cp.asnumpy(y) - host).max() / max(np.abs(host).max(), 1e-300))
    t = median_time(lambda: A @ x, args.repeat, cp)
    nnz = int(A.nnz)
    csr_bytes = nnz * (8 + 4) + (n + 1) * 4 + 2 * n * 8
    out.update({"csr_spmv_seconds": t, "csr_bytes": csr_bytes, "csr_spmv_gbs": csr_bytes / t / 1e9,
                "csr_fraction_of_copy": csr_bytes / t / 1e9 / out["copy_gbs"],
                "csr_gflops": 2 * nnz / t / 1e9})
    del A, x, y

    # cuBLAS batched DGEMM.
    out["gemm"] = []
    for spec in args.gemm:
        M, N, K, batch = (int(v) for v in spec.split(","))
        a = cp.random.rand(batch, M, K)
        b = cp.random.rand(batch, K, N)
        t = median_time(lambda: cp.matmul(a, b), max(3, args.repeat // 5), cp)
        out["gemm"].append({"m": M, "n": N, "k": K, "batch": batch, "seconds": t,
                            "gflops": 2.0 * M * N * K * batch / t / 1e9})
        del a, b
    text = json.dumps(out)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
