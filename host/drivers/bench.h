/* Measurements of hdgcl bench (host/drivers/bench.c + cl/core/bench.cl): the device's own
 * ceilings (copy bandwidth, batched DGEMM rate, kernel-launch overhead) and
 * the kernels of a solved problem (the trace operator in every storage, the
 * local stage's batched GEMMs), each timed in the same run. */
#ifndef HDGCL_HOST_BENCH_H
#define HDGCL_HOST_BENCH_H

#include <stdint.h>

#include "core/context.h"
#include "hdgcl/solver.h"

typedef struct bench_peaks {
  double copy_gbs;        /* bytes read + written per second by bench_copy, / 1e9 */
  uint64_t copy_bytes;    /* size of each of its two buffers */
  double dgemm_gflops;    /* CLBlast DgemmStridedBatched at dgemm_shape */
  int dgemm_shape[4];     /* m, n, k, batch */
  double launch_us;       /* per launch of an empty kernel, launched back to back */
} bench_peaks;

/* One timed kernel (or group of kernels). */
typedef struct bench_kernel {
  char name[48];
  double seconds;   /* best time of one application */
  double flops, bytes;
  double rel_error; /* max |y - y_ref| / max |y_ref| against the host product (-1: not checked) */
} bench_kernel;

/* Each measurement repeats its operation for at least min_seconds per trial
 * and keeps the best of 3 trials.  copy_bytes: size of each copy buffer (0:
 * 256 MiB, less on small devices); dgemm_batch: batch of the 64^3 GEMM (0:
 * 20000 on GPUs, 2000 elsewhere, less on small devices). */
int bench_measure_peaks(hdgcl_context ctx, double min_seconds, uint64_t copy_bytes,
                        int dgemm_batch, bench_peaks *pk);

/* The solved problem's trace matrix applied in every storage of spmv.h,
 * each checked against the host product (an error if a double-precision
 * storage is off by more than 1e-12 relative, or the mixed one by 1e-5).
 * out holds SPMV_STORAGES entries. */
int bench_spmv_storages(hdgcl_solver s, double min_seconds, bench_kernel *out);

/* CLBlast DgemmStridedBatched at the local stage's two shapes (Z = S^-1
 * [W|F]: Np x (Nt+1) x Np; K -= [W|F]^T Z: (Nt+1) x (Nt+1) x Np), batch =
 * the stage's chunk (at most 20000), as one kernel entry. */
int bench_local_gemm(hdgcl_solver s, double min_seconds, bench_kernel *out);

/* The solved problem's whole local stage timed as the GEMMs are: repeated
 * back to back, best of 3 (its flops and bytes: one pass's). */
int bench_local_stage(hdgcl_solver s, double min_seconds, bench_kernel *out);

#endif
