/* The trace solve stage on the device (solve.c) and what its parts share: the
 * trace operator (SpMV: spmv.c + cl/solvers/spmv.cl), fused vector kernels and device
 * reductions (vectors.c + cl/solvers/vectors.cl), the Krylov methods (krylov_cg.c +
 * cl/solvers/krylov_cg.cl, krylov_gmres.c + cl/solvers/krylov_gmres.cl) and the
 * preconditioners behind one interface (precond.h, precond_<name>.c + cl/precond_<name>.cl).  Every
 * kernel of the stage lives in one program built by solve.c. */
#ifndef HDGCL_HOST_KRYLOV_H
#define HDGCL_HOST_KRYLOV_H

#include <stdbool.h>
#include <stdint.h>

#include "core/context.h"
#include "solvers/linear_system.h"
#include "solvers/solve_stats.h"
#include "solvers/solver_settings.h"
#include "solvers/trace_levels.h"

typedef struct precond precond; /* precond.h */

#define DOT_GROUPS 256 /* most work-groups of a dot product's first pass */
#define MDOT_MAX 64    /* most vectors in one multi-dot: GMRES restart <= MDOT_MAX - 2 */
#define CG_COEFFS 256 /* CG alpha/beta pairs kept for the Lanczos eigenvalue estimate (256:
                          the p-multigrid coarse level needs that many on 320x320 meshes) */

/* The message of a Krylov method (device or reference path) stopped by a residual that is not a
 * number (METHOD, "NaN" or "Inf", iterations): the trace system holds NaN
 * or Inf, which no number of iterations mends. */
#define KRYLOV_NOT_FINITE                                                                        \
  "%s stopped: the residual is %s after %d iterations: the trace system holds NaN or Inf (an " \
  "absurd --tau or coefficient, or a degenerate element)"

/* Fused BLAS-1 kernels and reductions (vectors.c + cl/solvers/vectors.cl). */
typedef struct vector_kernels {
  cl_kernel dot, dot2, mdot, mdot_reduce, norm_reduce, scale_inv, axpby, residual,
      basis_subtract, basis_combine;
  hdgcl_buffer partial; /* DOT_GROUPS * MDOT_MAX first-pass sums */
  size_t wg;            /* work-group size of the reductions (DOT_WG) */
  cl_int groups;        /* work-groups of a first pass: min(DOT_GROUPS, ceil(n / wg)) */
} vector_kernels;

/* The solve stage. */
struct krylov {
  /* Set by the caller before krylov_create. */
  hdgcl_context ctx;
  linear_system sys;
  solver_settings set;
  trace_levels levels;      /* p-multigrid's coarser operators */
  residual_history history; /* where krylov_solve records the residuals */
  /* Filled by krylov_solve (the preconditioners' setups add to its counters). */
  solve_stats stats;
  /* The stage's own. */
  cl_program program; /* vectors, the SpMV of its storage, CG (krylov_create) */
  char options[1536]; /* -D options of its programs (krylov_program) */
  cl_kernel spmv;
  vector_kernels vec;
  cl_int rows, n; /* unknown faces, unknowns */
  hdgcl_buffer x; /* the solution */
  precond *pc;
  struct krylov_cg *cg;
  struct krylov_gmres *gmres;
  double setup_seconds;
};

/* Program, kernels and buffers of the stage, for kr->set.solver and kr->set.precond. */
int krylov_create(krylov *kr);
/* Starts the builds of the programs krylov_create will ask for (the stage's, the
 * preconditioner's, GMRES's) in host threads (hdgcl_program_prefetch); needs ctx, sys
 * and set only, and leaves nothing to destroy. */
int krylov_prefetch(krylov *kr);
/* The program of one more kernel file of the stage (a preconditioner's, GMRES's), built
 * on first use: common.h, trace_matrix.h, vectors.cl and `file` with kr->options and
 * `extra`.  Cached by source and options (host/core/program.c), so solvers with the
 * same sizes share it; it belongs to the context. */
int krylov_program(const krylov *kr, const char *file, const char *extra, cl_program *program);
/* The extra options of a program that uses vectors.cl's helper functions, not its kernels. */
#define KRYLOV_HELPERS_ONLY "-DVECTORS_NO_BASIS -DVECTORS_BASIS_ONLY"
/* Solves the assembled system into kr->x; fills kr->stats (also when it
 * fails) and records the residuals. */
int krylov_solve(krylov *kr);
void krylov_destroy(krylov *kr);
/* Device bytes of the stage's buffers (vectors, preconditioner, Krylov basis). */
uint64_t krylov_bytes(const linear_system *sys, const solver_settings *set);
/* Passes a relative residual to kr->history. */
int krylov_record_residual(krylov *kr, double relres);

/* Enqueues a 1D kernel (local may be 0: hdgcl_kernel_launch_items's rule). */
int krylov_launch(const krylov *kr, cl_kernel k, int nargs, const hdgcl_arg *args, size_t global,
                  size_t local);
/* y = A x with the assembled trace matrix (enqueued). */
int krylov_spmv(krylov *kr, const hdgcl_buffer *x, hdgcl_buffer *y);
/* Flops and bytes of one SpMV. */
void krylov_spmv_counts(const krylov *kr, double *flops, double *bytes);

/* v[0..n-1] = a fixed pseudo-random sequence in [-0.5, 0.5) (xorshift, one
 * seed: the same numbers every run; vectors.c), on the host. */
void krylov_pseudo_random(double *v, size_t n);
/* Vector kernels (vectors.c); all enqueued, no host synchronisation. */
int vectors_create(krylov *kr);
/* The basis kernels (multi-dot, norm, basis updates) and, in *program if not NULL, their
 * program (which also holds GMRES's kernels). */
int vectors_basis_create(krylov *kr, cl_program *program);
void vectors_destroy(krylov *kr);
/* vec.partial <- first pass of a.b (dot) or of a.b, a.c (dot2). */
int vec_dot(krylov *kr, const hdgcl_buffer *a, const hdgcl_buffer *b);
int vec_dot2(krylov *kr, const hdgcl_buffer *a, const hdgcl_buffer *b, const hdgcl_buffer *c);
/* h[off + j] (+)= V_j . w for j < k, V = k vectors of length n at stride n in v. */
int vec_mdot(krylov *kr, const hdgcl_buffer *v, int k, const hdgcl_buffer *w, hdgcl_buffer *h,
             bool accumulate);
/* h[index] = ||w||, then y[y_offset + i] = v[i] = w[i] / ||w|| (0 if ||w|| = 0);
 * y_offset in doubles. */
int vec_normalize(krylov *kr, const hdgcl_buffer *w, hdgcl_buffer *h, int index, hdgcl_buffer *y,
                  int64_t y_offset, hdgcl_buffer *v);
/* y = a x + b y. */
int vec_axpby(krylov *kr, double a, const hdgcl_buffer *x, double b, hdgcl_buffer *y);
/* ax <- b - ax. */
int vec_residual(krylov *kr, const hdgcl_buffer *b, hdgcl_buffer *ax);
/* w -= sum_{j<k} V_j h[j]. */
int vec_basis_subtract(krylov *kr, const hdgcl_buffer *v, int k, const hdgcl_buffer *h,
                       hdgcl_buffer *w);
/* out (+)= sum_{j<k} V_j y[j]. */
int vec_basis_combine(krylov *kr, const hdgcl_buffer *v, int k, const hdgcl_buffer *y,
                      bool accumulate, hdgcl_buffer *out);

/* Preconditioned CG (krylov_cg.c): the device keeps every scalar; the host
 * reads the small scalar block once per batch of iterations. */
typedef struct cg_outcome {
  int iterations;
  double residual;  /* ||r|| / ||b|| (0 when b = 0) */
  bool converged;
  double alpha[CG_COEFFS], beta[CG_COEFFS]; /* the first CG coefficients (Lanczos) */
} cg_outcome;

int krylov_cg_create(krylov *kr);
/* Solves A x = b with preconditioner pc from x = 0 to ||r|| <= rtol ||b|| or
 * maxit iterations; record: pass the residuals to kr->history. */
int krylov_cg_run(krylov *kr, precond *pc, const hdgcl_buffer *b, hdgcl_buffer *x, int maxit,
                  double rtol, bool record, cg_outcome *out);
/* Flops and bytes of one iteration without the preconditioner. */
void krylov_cg_counts(const krylov *kr, double *flops, double *bytes);
void krylov_cg_destroy(krylov *kr);

/* Restarted right-preconditioned (F)GMRES(m) (krylov_gmres.c), to
 * kr->set.rtol or kr->set.maxit iterations: the Givens rotations and the stop
 * flag on the device, the host reading a small scalar block once per batch
 * of iterations and at each restart. */
int krylov_gmres_create(krylov *kr);
int krylov_gmres_run(krylov *kr, precond *pc, const hdgcl_buffer *b, hdgcl_buffer *x,
                     int *iterations, double *residual, bool *converged);
void krylov_gmres_destroy(krylov *kr);
/* Device bytes of the GMRES workspace. */
uint64_t krylov_gmres_bytes(const linear_system *sys, const solver_settings *set);

#endif
