/* Restarted right-preconditioned GMRES(m), and its flexible variant FGMRES(m)
 * (Saad, Iterative Methods, 2nd ed., Algorithms 6.9, 9.5 and 9.6; paper 001
 * sections 3.1 and 4.4), on the device with the vector kernels of
 * cl/solvers/vectors.cl.
 *
 * Orthogonalisation: classical Gram-Schmidt applied twice (CGS2): h1 = V^T w,
 * w -= V h1, h2 = V^T w, w -= V h2, h = h1 + h2.  Each pass is one multi-dot
 * (one reduction for all j+1 basis vectors) and one fused update, instead of
 * the j+1 dependent reductions of modified Gram-Schmidt, and twice is enough
 * for orthogonality to working precision (Giraud, Langou, Rozloznik, Comput.
 * Math. Appl. 50 (2005) "twice is enough").
 *
 * The small Hessenberg least-squares problem stays on the device
 * (cl/solvers/krylov_gmres.cl): after each orthogonalisation the one-group
 * kernel that finishes ||w|| also (work-item 0) adds the two projections
 * into the Hessenberg column, applies the previous Givens rotations and a
 * new one, rotates g, and writes the residual estimate |g_{j+1}| / ||b||
 * to the residual history and the stop flag (estimate at the tolerance,
 * exact breakdown, or not a number); the normalisation of v_{j+1} reads
 * ||w|| from device memory.  The host enqueues iterations in batches of
 * CHECK_EVERY on GPUs (one on CPU devices: check_every) without waiting and
 * reads the small scalar block between two batches (none after the cycle's
 * last); iterations
 * enqueued past the stop write only basis vectors beyond the ones the restart
 * combines, so they change neither the iterate nor the count.  At the restart
 * one more kernel solves R y = g, the update x += M^-1 V y and the true
 * residual are enqueued, and one read returns ||b - A x|| with the solve's
 * status.  The residual history is read once at the end.  A solve thus
 * synchronises about m / CHECK_EVERY + 1 times per cycle of m iterations,
 * where the version that rotated on the host (until commit fc51c8a) read the
 * column back every iteration: 180 us per GMRES(30) + block-Jacobi iteration
 * on the H100 at square:80 p = 3, far more than one SpMV.
 * Convergence is ||b - A x|| <= rtol ||b|| at every restart and at the end
 * (the same criterion as CG), so a converged estimate whose true residual is
 * above the tolerance restarts.
 *
 * Right preconditioning keeps the minimised residual the unpreconditioned one:
 * x = x0 + M^-1 V y.  With a preconditioner that is not a fixed linear
 * operator (precond.h `fixed`) the flexible form stores Z_j = M^-1 v_j and
 * takes x = x0 + Z y (Algorithm 9.6); --flexible forces it. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "solvers/precond.h"

#define GMRES_SCALARS 8 /* size of the scalar block (GS_* in cl/solvers/krylov_gmres.cl) */
#define GS_BETA 0
#define GS_STOP 1
#define GS_K 2
#define GS_ITER 3
#define GS_STATUS 4
#define GS_RELRES 5
#define CHECK_EVERY 8 /* most iterations between two reads of the scalars (GPUs) */

/* The most iterations between two reads: CHECK_EVERY on GPUs, 1 on CPU
 * devices, or $HDGCL_GMRES_CHECK (1 to MDOT_MAX) for timing runs.  On a CPU
 * device the read is a memcpy, and a host thread enqueueing ahead competes
 * with the runtime's threads for the cores: PoCL on 2 cores took 2.42, 2.32,
 * 2.69 ms per iteration with batches of 8 against 1.48, 2.17, 2.03 ms with a
 * read after every iteration (square:20 p = 3, GMRES(30) + block-Jacobi,
 * pairs run alternately).  1 keeps the rotations on the device and reads
 * when the host-Givens version did. */
static int check_every(const krylov *kr) {
  const char *env = getenv("HDGCL_GMRES_CHECK");
  int dflt = kr->ctx->info.is_gpu ? CHECK_EVERY : 1;
  int k = env && env[0] ? atoi(env) : dflt;
  return k >= 1 && k <= MDOT_MAX ? k : dflt;
}

typedef struct krylov_gmres {
  int m;
  bool flexible;
  cl_kernel givens, solve_y; /* gmres_norm_givens, gmres_solve_y */
  hdgcl_buffer v, z;      /* basis [m+1][n]; flexible: preconditioned basis [m][n] */
  hdgcl_buffer w, vj, zj; /* new direction, current basis vector, M^-1 v_j */
  hdgcl_buffer r, h1, h2, y;
  hdgcl_buffer rmat, cs_sn, g; /* rotated Hessenberg R [m][m+1], rotations [m][2], rhs [m+1] */
  hdgcl_buffer scalars, history;
} krylov_gmres;

/* Doubles of the small dense workspace: R, rotations, g, y, h1, h2, scalars. */
static uint64_t dense_doubles(uint64_t m) {
  return m * (m + 1) + 2 * m + (m + 1) + (m + 1) + 2 * (m + 2) + GMRES_SCALARS;
}

uint64_t krylov_gmres_bytes(const linear_system *sys, const solver_settings *set) {
  uint64_t n = (uint64_t)sys->rows * sys->nf, m = (uint64_t)set->restart;
  return 8 * n * (m + 1 + 4) + (set->flexible ? 8 * n * m : 0) + 8 * dense_doubles(m) +
         8 * ((uint64_t)set->maxit + 1);
}

int krylov_gmres_create(krylov *kr) {
  HDGCL_TRY(hdgcl_calloc(1, sizeof *kr->gmres, "GMRES", &kr->gmres));
  krylov_gmres *g = kr->gmres;
  g->m = kr->set.restart;
  g->flexible = kr->set.flexible || !kr->pc->fixed;
  cl_program program;
  HDGCL_TRY(vectors_basis_create(kr, &program));
  HDGCL_TRY(hdgcl_kernel_create(program, "gmres_norm_givens", &g->givens));
  HDGCL_TRY(hdgcl_kernel_create(program, "gmres_solve_y", &g->solve_y));
  size_t n = (size_t)(kr->n ? kr->n : 1), m = (size_t)g->m;
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, (m + 1) * n * 8, "GMRES basis", &g->v));
  if (g->flexible)
    HDGCL_TRY(hdgcl_buffer_create(kr->ctx, m * n * 8, "FGMRES preconditioned basis", &g->z));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, n * 8, "GMRES w", &g->w));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, n * 8, "GMRES v_j", &g->vj));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, n * 8, "GMRES z_j", &g->zj));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, n * 8, "GMRES residual", &g->r));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, (m + 2) * 8, "GMRES Hessenberg column", &g->h1));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, (m + 2) * 8, "GMRES second projection", &g->h2));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, (m + 1) * 8, "GMRES coefficients", &g->y));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, m * (m + 1) * 8, "GMRES triangular factor", &g->rmat));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, 2 * m * 8, "GMRES Givens rotations", &g->cs_sn));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, (m + 1) * 8, "GMRES rotated rhs", &g->g));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, GMRES_SCALARS * 8, "GMRES scalars", &g->scalars));
  return hdgcl_buffer_create(kr->ctx, ((size_t)kr->set.maxit + 1) * 8, "GMRES history",
                             &g->history);
}

/* Flops and bytes of iteration j (j+1 basis vectors), preconditioner excluded. */
static void iteration_counts(const krylov *kr, int j, double *flops, double *bytes) {
  double n = (double)kr->sys.rows * kr->sys.nf, k = j + 1;
  double fa, ba;
  krylov_spmv_counts(kr, &fa, &ba);
  /* Two passes of multi-dot (2 k n; reads k n + n) and subtract (2 k n;
   * reads k n + n, writes n), the norm (2 n; n) and the scaling (n; 3 n). */
  *flops = fa + 2 * (4 * k * n) + 2 * n + n;
  *bytes = ba + 8 * (2 * ((k * n + n) + (k * n + 2 * n)) + n + 3 * n);
}

/* Iteration j of the cycle, entirely enqueued: z_j = M^-1 v_j, w = A z_j,
 * CGS2, ||w|| with the Givens step, v_{j+1} = w / ||w|| (||w|| read on the
 * device): the launches of the host-Givens version, none more. */
static int iteration(krylov *kr, precond *pc, int j, double bnorm) {
  krylov_gmres *g = kr->gmres;
  size_t n = (size_t)kr->n;
  HDGCL_TRY(pc->apply(kr, pc, &g->vj, &g->zj));
  HDGCL_TRY(krylov_spmv(kr, &g->zj, &g->w));
  if (g->flexible)
    HDGCL_CL(clEnqueueCopyBuffer(kr->ctx->queue, g->zj.mem, g->z.mem, 0, (size_t)j * n * 8,
                                 n * 8, 0, NULL, NULL),
             "clEnqueueCopyBuffer", "FGMRES preconditioned basis");
  HDGCL_TRY(vec_mdot(kr, &g->v, j + 1, &g->w, &g->h1, false));
  HDGCL_TRY(vec_basis_subtract(kr, &g->v, j + 1, &g->h1, &g->w));
  HDGCL_TRY(vec_mdot(kr, &g->v, j + 1, &g->w, &g->h2, false));
  HDGCL_TRY(vec_basis_subtract(kr, &g->v, j + 1, &g->h2, &g->w));
  /* ||w|| and the Givens step in one single-group launch, then v_{j+1}. */
  HDGCL_TRY(vec_dot(kr, &g->w, &g->w));
  cl_int cj = j, cm = g->m, cj1 = j + 1;
  cl_long off = (cl_long)(j + 1) * kr->n;
  double rtol = kr->set.rtol;
  hdgcl_arg a[] = {HDGCL_ARG(kr->vec.partial.mem), HDGCL_ARG(kr->vec.groups),
                   HDGCL_ARG(cj),                  HDGCL_ARG(cm),
                   HDGCL_ARG(g->h1.mem),           HDGCL_ARG(g->h2.mem),
                   HDGCL_ARG(g->rmat.mem),         HDGCL_ARG(g->cs_sn.mem),
                   HDGCL_ARG(g->g.mem),            HDGCL_ARG(g->scalars.mem),
                   HDGCL_ARG(g->history.mem),      HDGCL_ARG(bnorm),
                   HDGCL_ARG(rtol)};
  HDGCL_TRY(krylov_launch(kr, g->givens, 13, a, kr->vec.wg, kr->vec.wg));
  hdgcl_arg b[] = {HDGCL_ARG(kr->n),     HDGCL_ARG(g->h1.mem), HDGCL_ARG(cj1), HDGCL_ARG(g->w.mem),
                   HDGCL_ARG(g->v.mem),  HDGCL_ARG(off),       HDGCL_ARG(g->vj.mem)};
  return krylov_launch(kr, kr->vec.scale_inv, 7, b, (size_t)kr->n, 0);
}

/* The end of a cycle of `enqueued` iterations (the device knows how many of
 * them count): y = R^-1 g (zero past the cycle's k), x += M^-1 V y (or Z y),
 * r = b - A x, v_0 = r / ||r|| with ||r|| into the scalars. */
static int restart(krylov *kr, precond *pc, const hdgcl_buffer *b, hdgcl_buffer *x,
                   int enqueued) {
  krylov_gmres *g = kr->gmres;
  cl_int cm = g->m, ck = enqueued;
  hdgcl_arg a[] = {HDGCL_ARG(cm), HDGCL_ARG(ck), HDGCL_ARG(g->rmat.mem), HDGCL_ARG(g->g.mem),
                   HDGCL_ARG(g->scalars.mem), HDGCL_ARG(g->y.mem)};
  HDGCL_TRY(krylov_launch(kr, g->solve_y, 6, a, 1, 1));
  if (g->flexible) {
    HDGCL_TRY(vec_basis_combine(kr, &g->z, enqueued, &g->y, true, x));
  } else {
    HDGCL_TRY(vec_basis_combine(kr, &g->v, enqueued, &g->y, false, &g->w));
    HDGCL_TRY(pc->apply(kr, pc, &g->w, &g->zj));
    HDGCL_TRY(vec_axpby(kr, 1.0, &g->zj, 1.0, x));
  }
  HDGCL_TRY(krylov_spmv(kr, x, &g->r));
  HDGCL_TRY(vec_residual(kr, b, &g->r));
  return vec_normalize(kr, &g->r, &g->scalars, GS_BETA, &g->v, 0, &g->vj);
}

/* The one kind of host synchronisation of the solve (--profile counts them). */
static int read_scalars(krylov *kr, double *sc) {
  return hdgcl_buffer_read_named(kr->ctx, &kr->gmres->scalars, 0, GMRES_SCALARS * 8, sc,
                                 "host read: GMRES scalars");
}

/* Iterations to enqueue before the next read: CHECK_EVERY, fewer where the
 * estimate's rate over the last `done` iterations (from prev to now) says the
 * tolerance is nearer, so few iterations run past the stop. */
static int next_batch(double prev, double now, int done, double rtol, int most) {
  if (!(done > 0 && now > rtol && prev > 0 && now < prev)) return most;
  double rate = log(now / prev) / done; /* < 0 */
  double need = ceil(log(rtol / now) / rate);
  return need >= most ? most : need < 1 ? 1 : (int)need;
}

int krylov_gmres_run(krylov *kr, precond *pc, const hdgcl_buffer *b,
                     hdgcl_buffer *x, int *iterations, double *residual, bool *converged) {
  krylov_gmres *g = kr->gmres;
  const int m = g->m, maxit = kr->set.maxit, most = check_every(kr);
  size_t n = (size_t)kr->n;
  solve_stats *st = &kr->stats;
  double sc[GMRES_SCALARS], *hist = NULL;
  int status = HDGCL_SUCCESS;

  /* x = 0, r = b, v_0 = r / ||r||. */
  HDGCL_TRY(hdgcl_buffer_fill(kr->ctx, x, 0, n * 8, 0.0));
  HDGCL_TRY(hdgcl_buffer_fill(kr->ctx, &g->scalars, 0, GMRES_SCALARS * 8, 0.0));
  HDGCL_TRY(hdgcl_buffer_fill(kr->ctx, &g->history, 0, 8, 1.0));
  HDGCL_TRY(vec_normalize(kr, b, &g->scalars, GS_BETA, &g->v, 0, &g->vj));
  HDGCL_TRY(read_scalars(kr, sc));
  const double bnorm = sc[GS_BETA];
  int it = 0;
  double relres = bnorm > 0 ? 1.0 : 0.0;
  *converged = !(bnorm > 0);
  while (!*converged && it < maxit && status == HDGCL_SUCCESS) {
    /* Batches of iterations; a read between two, none after the cycle's
     * last (the restart's read tells how it ended). */
    int j = 0, batch = most;
    double prev = relres;
    bool stop = false;
    while (!stop && j < m && it + j < maxit) {
      if (batch > m - j) batch = m - j;
      if (batch > maxit - it - j) batch = maxit - it - j;
      for (int i = 0; i < batch; i++) HDGCL_TRY(iteration(kr, pc, j + i, bnorm));
      j += batch;
      if (j < m && it + j < maxit) {
        HDGCL_TRY(read_scalars(kr, sc));
        stop = sc[GS_STOP] != 0.0;
        batch = next_batch(prev, sc[GS_RELRES], batch, kr->set.rtol, most);
        prev = sc[GS_RELRES];
      }
    }
    HDGCL_TRY(restart(kr, pc, b, x, j));
    HDGCL_TRY(read_scalars(kr, sc));
    int k = (int)sc[GS_K];
    it = (int)sc[GS_ITER];
    for (int i = 0; i < k; i++) {
      double fi, bi, fp, bp;
      iteration_counts(kr, i, &fi, &bi);
      pc->counts(kr, pc, &fp, &bp);
      st->flops += fi + fp;
      st->bytes += bi + bp;
    }
    if (sc[GS_STATUS] == 1.0)
      status = hdgcl_error(HDGCL_ERROR_CONVERGENCE, KRYLOV_NOT_FINITE, "GMRES", "NaN", it);
    else if (sc[GS_STATUS] != 0.0)
      status = hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                           "GMRES breakdown: singular Hessenberg matrix after %d iterations", it);
    relres = sc[GS_BETA] / bnorm;
    *converged = relres <= kr->set.rtol;
    if (!isfinite(relres)) break;
  }
  /* The estimates, recorded on the device (history[0] = 1), to the caller. */
  int hstatus = hdgcl_calloc((size_t)it + 1, sizeof(double), "residual history", &hist);
  if (hstatus == HDGCL_SUCCESS && bnorm > 0)
    hstatus = hdgcl_buffer_read_named(kr->ctx, &g->history, 0, ((size_t)it + 1) * 8, hist,
                                      "host read: GMRES history");
  for (int i = 0; i <= it && hstatus == HDGCL_SUCCESS; i++)
    hstatus = krylov_record_residual(kr, bnorm > 0 ? hist[i] : 0.0);
  free(hist);
  HDGCL_TRY(status);
  HDGCL_TRY(hstatus);
  *iterations = it;
  *residual = relres;
  return HDGCL_SUCCESS;
}

void krylov_gmres_destroy(krylov *kr) {
  krylov_gmres *g = kr->gmres;
  if (!g) return;
  cl_kernel k[] = {g->givens, g->solve_y};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (k[i]) clReleaseKernel(k[i]);
  hdgcl_buffer *bufs[] = {&g->v,    &g->z,     &g->w, &g->vj,      &g->zj,     &g->r,
                          &g->h1,   &g->h2,    &g->y, &g->rmat,    &g->cs_sn,  &g->g,
                          &g->scalars, &g->history};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) hdgcl_buffer_release(kr->ctx, bufs[i]);
  free(g);
  kr->gmres = NULL;
}
