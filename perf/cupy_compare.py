#!/usr/bin/env python3
"""Times NVIDIA's own libraries on the data hdgcl exports, on the GPU machine.

usage: python3 perf/cupy_compare.py PREFIX [--repeat R] [--inner I] [--gemm M,N,K,BATCH ...]
       [--json OUT]

PREFIX.mtx / PREFIX.rhs.mtx come from `hdgcl solve ... --export-matrix PREFIX`
(MatrixMarket, see host/io/matrix_export.c).  Measured in one run, with CUDA
events, median of R repetitions after a warm-up, each repetition I calls back
to back (the GPU's time, not the host's launch overhead):
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


def median_time(fn, repeat, cp, inner=1):
    """Median over `repeat` event pairs of the time per call, each pair around
    `inner` back-to-back calls.  With inner = 1 the events also time the host's
    launch overhead whenever it exceeds the GPU's work: the GPU idles between
    the start event and the launch.  That is what made the stop-7 figures of
    cuSPARSE too high (issue 31: 168.5 us measured, 128.3 us when 200 products
    run back to back)."""
    fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(repeat):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        for _ in range(inner):
            fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) * 1e-3 / inner)
    return float(np.median(times))


def cusparse_spmv_call(A, x, y, cp):
    """y = A x as one bare cusparseSpMV call on descriptors and a workspace made
    once (CuPy's A @ x makes them on every call): the library's kernel time, not
    Python's.  None where this CuPy lacks the low-level names."""
    try:
        try:
            from cupyx import cusparse as cs  # CuPy >= 10
        except ImportError:
            from cupy import cusparse as cs
        from cupy_backends.cuda.libs import cusparse as lib
        from cupy._core import _dtype
        handle = cp.cuda.device.get_cusparse_handle()
        desc_a = cs.SpMatDescriptor.create(A)
        desc_x = cs.DnVecDescriptor.create(x)
        desc_y = cs.DnVecDescriptor.create(y)
        op = lib.CUSPARSE_OPERATION_NON_TRANSPOSE
        alg = getattr(lib, "CUSPARSE_SPMV_ALG_DEFAULT", getattr(lib, "CUSPARSE_MV_ALG_DEFAULT", 0))
        ctype = _dtype.to_cuda_dtype(A.dtype)
        alpha = np.array(1.0, A.dtype).ctypes
        beta = np.array(0.0, A.dtype).ctypes
        size = lib.spMV_bufferSize(handle, op, alpha.data, desc_a.desc, desc_x.desc, beta.data,
                                   desc_y.desc, ctype, alg)
        work = cp.empty(max(int(size), 1), cp.int8)
    except (ImportError, AttributeError) as err:
        print("cupy_compare.py: no bare cusparseSpMV (%s); timing A @ x only" % err, file=sys.stderr)
        return None
    keep = (desc_a, desc_x, desc_y, alpha, beta, work)

    def call():
        lib.spMV(handle, op, keep[3].data, keep[0].desc, keep[1].desc, keep[4].data, keep[2].desc,
                 ctype, alg, keep[5].data.ptr)
    return call


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("prefix")
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--inner", type=int, default=200, help="calls between two events")
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
    # The library call as a user writes it (CuPy's A @ x: descriptors and a
    # workspace each call), alone between events and back to back, and the
    # bare cusparseSpMV call back to back: the kernel's own time, which the
    # targets compare against.
    single = median_time(lambda: A @ x, args.repeat, cp)
    batched = median_time(lambda: A @ x, max(3, args.repeat // 10), cp, inner=args.inner)
    out.update({"csr_matmul_single_seconds": single, "csr_matmul_batched_seconds": batched})
    t = batched
    bare = cusparse_spmv_call(A, x, y, cp)
    if bare is not None:
        y.fill(0)
        bare()
        out["spmv_bare_check_rel"] = float(np.abs(cp.asnumpy(y) - host).max() /
                                           max(np.abs(host).max(), 1e-300))
        t = median_time(bare, max(3, args.repeat // 10), cp, inner=args.inner)
        out["csr_bare_seconds"] = t
    out["csr_timing"] = "bare cusparseSpMV" if bare is not None else "A @ x back to back"
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
        t = median_time(lambda: cp.matmul(a, b), max(3, args.repeat // 5), cp, inner=10)
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
