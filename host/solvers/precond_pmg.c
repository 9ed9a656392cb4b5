/* p-multigrid preconditioner for the trace system (kernels:
 * cl/solvers/precond_pmg.cl; paper 004 section 3.3, Algorithm 2; issue 6).
 *
 * Levels: degrees p > p/2 > ... > pc, pc = `pmg-coarse` (0 or 1).  Level l
 * is the HDG trace system re-discretised at its degree: an operator of the
 * trace operator's making (trace_levels.h; host/pipeline/levels.c builds it
 * on the same mesh, problem and tau) assembled once per setup, with a solve
 * stage of its own; its block-ELL matrix stays on the device.  The trace unknowns of every level
 * are the same faces in the same order, so the transfers are face-wise:
 * restriction keeps the modes of degree <= p_{l+1} of each face and
 * prolongation injects them (binary, R = P^T with the orthonormal
 * hierarchical face basis, cl/solvers/precond_pmg.cl).
 *
 * Smoother on every level but the coarsest: `pmg-smooth` steps of Chebyshev
 * on face block-Jacobi (precond_chebyshev.c, eigenvalue interval estimated
 * per level at setup), the same operator S before and after the correction:
 *   x = S b;  x += P V_{l+1}(R (b - A x));  x += S (b - A x).
 * S is symmetric and the transfers are transposes, so the V-cycle is a fixed
 * symmetric operator: CG and the plain right-preconditioned GMRES apply.  It
 * is positive definite when I - S A is an A-contraction, which the
 * Chebyshev interval (1.1 x the largest Ritz value) is chosen to ensure.
 *
 * Coarsest level: with hypre (HDGCL_WITH_HYPRE) one BoomerAMG V-cycle on the
 * host (matrix downloaded once at setup in CSR; symmetric hybrid
 * Gauss-Seidel relaxation, zero initial guess, so a fixed SPD operator), the
 * only host round trip of an apply.  Without hypre, PMG_COARSE_DEGREE
 * Chebyshev steps on the device: a fixed SPD operator as well, weaker on
 * fine meshes (the smooth error is then only damped, not solved).
 *
 * Nonsymmetric problems (convection-diffusion; docs/solvers.md, p-multigrid,
 * "nonsymmetric problems"): the same cycle, GMRES outside.  The smoother's
 * interval comes from an Arnoldi estimate instead of Lanczos (the Chebyshev
 * unit picks it for a nonsymmetric problem), BoomerAMG is unchanged (its
 * hybrid Gauss-Seidel sweeps are defined for any matrix with a nonzero
 * diagonal; the cycle is a fixed operator, not symmetric), and the device
 * coarse solver is GMRES(PMG_COARSE_RESTART) preconditioned by the level's
 * Chebyshev smoother (pmg-smooth steps, Arnoldi interval) from zero to
 * PMG_COARSE_RTOL or PMG_COARSE_MAXIT iterations: a nonlinear operator, so
 * the preconditioner says it is not fixed and the outer GMRES is the
 * flexible one (krylov_gmres.c chooses it from `fixed`). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fem/basis.h"
#include "core/error.h"
#include "solvers/amg_device.h"
#include "solvers/precond.h"

#ifdef HDGCL_WITH_HYPRE
#include <HYPRE.h>
#include <HYPRE_parcsr_ls.h>
#include <mpi.h>

#include "core/mpi_start.h"
#endif

#define PMG_MAX_LEVELS 8
#define PMG_COARSE_DEGREE 0 /* device coarse solver: Chebyshev degree from its spectrum */
/* Nonsymmetric device coarse solver: GMRES(m) preconditioned by the
 * level's smoother to a relative residual PMG_COARSE_RTOL, at most
 * PMG_COARSE_MAXIT iterations (square:80 p = 1 on PoCL: 0.05 took 55 inner
 * iterations per cycle, 10 outer, 9.1 s; 0.1 48, 11, 7.3 s; 0.2 28, 14,
 * 3.7 s; with block-Jacobi instead of the smoother 117 inner iterations at
 * 0.05 and 23 s). */
#define PMG_COARSE_RESTART 60
#define PMG_COARSE_RTOL 0.1
#define PMG_COARSE_MAXIT 120

typedef struct pmg_level {
  void *level; /* the trace_levels handle: NULL at level 0 (the fine operator) */
  krylov *kr;   /* the level's solve stage */
  precond *smooth;          /* smoother, or the device coarse solver at the coarsest */
  hdgcl_buffer b, x, r, t;  /* b, x below level 0 (level 0 uses apply's r, z) */
  hdgcl_buffer map;         /* fine mode of each mode of the next level */
  cl_kernel restrict_k, prolong_k;
  int order, nf;
} pmg_level;

typedef struct pmg {
  int nlevels;
  pmg_level lv[PMG_MAX_LEVELS];
  trace_levels levels; /* the fine stage's: where the coarser levels come from */
  precond fine_smooth; /* level 0's smoother (levels below use their stage's) */
  bool hypre;          /* the coarsest level is solved by a BoomerAMG hierarchy */
  bool amg_host;       /* ... whose V-cycle hypre runs on the host (else amg_device.h) */
  amg_device *dev;     /* the hierarchy on the device */
  bool coarse_gmres;   /* nonsymmetric without hypre: GMRES on the coarsest level */
  double coarse_flops, coarse_bytes; /* of the last coarse GMRES solve */
  double *hb, *hx;     /* host copies of the coarsest b and x */
  double amg_flops;    /* host flops of one BoomerAMG cycle */
  double coarse_nnz;   /* nonzeros of the coarsest matrix */
#ifdef HDGCL_WITH_HYPRE
  HYPRE_IJMatrix A;
  HYPRE_IJVector bv, xv;
  HYPRE_Solver amg;
  HYPRE_BigInt *idx;
#endif
} pmg;

/* Degrees of the levels: p, p/2, ... down to pc. */
static int level_orders(int p, int pc, int *orders) {
  int n = 0;
  orders[n++] = p;
  while (orders[n - 1] > pc && n < PMG_MAX_LEVELS) {
    int next = orders[n - 1] / 2;
    orders[n++] = next > pc ? next : pc;
  }
  return n;
}

#ifdef HDGCL_WITH_HYPRE
static bool mpi_ours;

static void hypre_at_exit(void) {
  NOT_OUR_LEAKS_BEGIN();
  HYPRE_Finalize();
  int done = 0;
  MPI_Finalized(&done);
  if (mpi_ours && !done) MPI_Finalize();
  NOT_OUR_LEAKS_END();
}

/* MPI (if nobody has) and hypre, once per process; finalised at exit. */
static int hypre_init_once(void) {
  static int ready = 0;
  if (ready) return HDGCL_SUCCESS;
  int flag = 0;
  MPI_Initialized(&flag);
  if (!flag) {
    int rc = mpi_start(NULL, NULL);
    if (rc != MPI_SUCCESS)
      return hdgcl_error(HDGCL_ERROR_INTERNAL, "p-multigrid: MPI_Init failed (needed by hypre)");
    mpi_ours = true;
  }
  NOT_OUR_LEAKS_BEGIN();
  int rc = HYPRE_Init();
  NOT_OUR_LEAKS_END();
  if (rc != 0) return hdgcl_error(HDGCL_ERROR_INTERNAL, "p-multigrid: HYPRE_Init failed");
  atexit(hypre_at_exit);
  ready = 1;
  return HDGCL_SUCCESS;
}

static void hypre_release(pmg *g) {
  if (g->amg) HYPRE_BoomerAMGDestroy(g->amg);
  if (g->A) HYPRE_IJMatrixDestroy(g->A);
  if (g->bv) HYPRE_IJVectorDestroy(g->bv);
  if (g->xv) HYPRE_IJVectorDestroy(g->xv);
  free(g->idx);
  g->amg = NULL, g->A = NULL, g->bv = NULL, g->xv = NULL, g->idx = NULL;
}

#define HYPRE_TRY(call)                                                                          \
  do {                                                                                           \
    if ((call) != 0) {                                                                           \
      HYPRE_ClearAllErrors();                                                                    \
      return hdgcl_error(HDGCL_ERROR_INTERNAL, "p-multigrid: hypre call %s failed", #call);     \
    }                                                                                            \
  } while (0)

static int amg_apply(pmg *g, pmg_level *c, const hdgcl_buffer *b, hdgcl_buffer *x);
static int amg_verify(pmg *g, pmg_level *c);

/* The coarsest matrix to the host (block-ELL -> CSR rows, empty slots
 * dropped) and BoomerAMG set up as a one-cycle preconditioner. */
static int amg_setup(pmg *g, pmg_level *c) {
  const linear_system *sys = &c->kr->sys;
  const double *matrix;
  const int32_t *block_cols;
  HDGCL_TRY(g->levels.download(g->levels.owner, c->level, &matrix, &block_cols));
  hypre_release(g);
  /* nf: values per face block (ncomp * Nf for the vector problems) */
  int rows = sys->rows, nf = sys->nf, nsl = sys->nslots;
  HYPRE_BigInt n = (HYPRE_BigInt)rows * nf;
  HYPRE_TRY(HYPRE_IJMatrixCreate(MPI_COMM_SELF, 0, n - 1, 0, n - 1, &g->A));
  HYPRE_TRY(HYPRE_IJMatrixSetObjectType(g->A, HYPRE_PARCSR));
  HYPRE_TRY(HYPRE_IJMatrixInitialize(g->A));
  HYPRE_BigInt *cols;
  double *vals;
  HDGCL_TRY(hdgcl_calloc((size_t)nsl * nf, sizeof *cols, "AMG row columns", &cols));
  int status = hdgcl_calloc((size_t)nsl * nf, sizeof *vals, "AMG row values", &vals);
  if (status != HDGCL_SUCCESS) free(cols);
  HDGCL_TRY(status);
  g->coarse_nnz = 0;
  for (int u = 0; u < rows && status == HDGCL_SUCCESS; u++)
    for (int m = 0; m < nf && status == HDGCL_SUCCESS; m++) {
      HYPRE_Int ncols = 0;
      HYPRE_BigInt row = (HYPRE_BigInt)u * nf + m;
      for (int sl = 0; sl < nsl; sl++) {
        int32_t v = block_cols[(size_t)u * nsl + sl];
        if (v < 0) continue;
        for (int k = 0; k < nf; k++) {
          cols[ncols] = (HYPRE_BigInt)v * nf + k;
          vals[ncols++] = matrix[(((size_t)u * nsl + sl) * nf + m) * nf + k];
        }
      }
      g->coarse_nnz += ncols;
      /* AddTo: a column block in two slots (never in a conforming mesh) sums. */
      if (HYPRE_IJMatrixAddToValues(g->A, 1, &ncols, &row, cols, vals) != 0) {
        HYPRE_ClearAllErrors();
        status = hdgcl_error(HDGCL_ERROR_INTERNAL, "p-multigrid: hypre matrix row %lld rejected",
                             (long long)row);
      }
    }
  free(cols);
  free(vals);
  HDGCL_TRY(status);
  HYPRE_TRY(HYPRE_IJMatrixAssemble(g->A));
  HDGCL_TRY(hdgcl_calloc((size_t)n, sizeof *g->idx, "AMG indices", &g->idx));
  for (HYPRE_BigInt i = 0; i < n; i++) g->idx[i] = i;
  HYPRE_IJVector *vecs[2] = {&g->bv, &g->xv};
  for (int i = 0; i < 2; i++) {
    HYPRE_TRY(HYPRE_IJVectorCreate(MPI_COMM_SELF, 0, n - 1, vecs[i]));
    HYPRE_TRY(HYPRE_IJVectorSetObjectType(*vecs[i], HYPRE_PARCSR));
    HYPRE_TRY(HYPRE_IJVectorInitialize(*vecs[i]));
    HYPRE_TRY(HYPRE_IJVectorAssemble(*vecs[i]));
  }
  HYPRE_ParCSRMatrix pa;
  HYPRE_ParVector pb, px;
  HYPRE_TRY(HYPRE_IJMatrixGetObject(g->A, (void **)&pa));
  HYPRE_TRY(HYPRE_IJVectorGetObject(g->bv, (void **)&pb));
  HYPRE_TRY(HYPRE_IJVectorGetObject(g->xv, (void **)&px));
  HYPRE_TRY(HYPRE_BoomerAMGCreate(&g->amg));
  HYPRE_BoomerAMGSetPrintLevel(g->amg, 0);
  HYPRE_BoomerAMGSetMaxIter(g->amg, 1); /* one V-cycle: a fixed operator */
  HYPRE_BoomerAMGSetTol(g->amg, 0.0);
  HYPRE_BoomerAMGSetRelaxType(g->amg, 6); /* hybrid symmetric Gauss-Seidel: the cycle stays SPD */
  HYPRE_BoomerAMGSetNumSweeps(g->amg, 1);
  /* Face modes as the functions of a system (unknown-based AMG): mode m of
   * every face is function m, interleaved as the rows u nf + m; for the
   * vector problems each (component, mode) pair of the face block
   * c Nf + m is one function (docs/elasticity.md section 12 measures this
   * against the ncomp components as the functions). */
  if (nf > 1) HYPRE_BoomerAMGSetNumFunctions(g->amg, nf);
  HYPRE_BoomerAMGSetStrongThreshold(g->amg, sys->dim == 3 ? 0.5 : 0.25);
  if (!g->amg_host) HDGCL_TRY(amg_device_configure(g->amg)); /* l1-Jacobi: amg_device.h */
  HYPRE_TRY(HYPRE_BoomerAMGSetup(g->amg, pa, pb, px));
  if (!g->amg_host) {
    amg_device_destroy(c->kr, g->dev);
    g->dev = NULL;
    HDGCL_TRY(amg_device_create(c->kr, g->amg, &g->dev));
    if (getenv("HDGCL_AMG_VERIFY")) HDGCL_TRY(amg_verify(g, c));
  }
  /* One V-cycle: a symmetric sweep (2 products with the level's matrix)
   * before and after, a residual and the transfers; the hierarchy's
   * nonzeros are about twice the fine ones for HMIS coarsening (operator
   * complexity), so about 10 x 2 nnz flops in all. */
  g->amg_flops = 10.0 * 2.0 * g->coarse_nnz;
  return HDGCL_SUCCESS;
}

static int amg_apply(pmg *g, pmg_level *c, const hdgcl_buffer *b, hdgcl_buffer *x) {
  size_t n = (size_t)c->kr->n;
  HDGCL_TRY(hdgcl_buffer_read(c->kr->ctx, b, 0, n * 8, g->hb));
  for (size_t i = 0; i < n; i++) g->hx[i] = 0.0;
  HYPRE_TRY(HYPRE_IJVectorSetValues(g->bv, (HYPRE_Int)n, g->idx, g->hb));
  HYPRE_TRY(HYPRE_IJVectorSetValues(g->xv, (HYPRE_Int)n, g->idx, g->hx));
  HYPRE_ParCSRMatrix pa;
  HYPRE_ParVector pb, px;
  HYPRE_TRY(HYPRE_IJMatrixGetObject(g->A, (void **)&pa));
  HYPRE_TRY(HYPRE_IJVectorGetObject(g->bv, (void **)&pb));
  HYPRE_TRY(HYPRE_IJVectorGetObject(g->xv, (void **)&px));
  HYPRE_BoomerAMGSolve(g->amg, pa, pb, px); /* tol 0: "not converged" is expected */
  HYPRE_ClearAllErrors();
  HYPRE_TRY(HYPRE_IJVectorGetValues(g->xv, (HYPRE_Int)n, g->idx, g->hx));
  return hdgcl_buffer_write(c->kr->ctx, x, 0, n * 8, g->hx);
}

/* HDGCL_AMG_VERIFY: the device's V-cycle against hypre's BoomerAMGSolve on
 * the same setup, for a fixed pseudo-random b; they differ by round-off
 * only (amg_device.h), so more than 1e-10 relative (max norm) is an error.
 * Prints the levels and the difference to stderr (tests/cli_solve.sh). */
static int amg_verify(pmg *g, pmg_level *c) {
  size_t n = (size_t)c->kr->n;
  hdgcl_context ctx = c->kr->ctx;
  double *b, *xd;
  hdgcl_buffer bb = {0}, xb = {0};
  HDGCL_TRY(hdgcl_calloc(n + 1, sizeof *b, "AMG check", &b));
  int status = hdgcl_calloc(n + 1, sizeof *xd, "AMG check", &xd);
  krylov_pseudo_random(b, n);
  if (status == HDGCL_SUCCESS) status = hdgcl_buffer_create(ctx, (n + 1) * 8, "AMG check b", &bb);
  if (status == HDGCL_SUCCESS) status = hdgcl_buffer_create(ctx, (n + 1) * 8, "AMG check x", &xb);
  if (status == HDGCL_SUCCESS) status = hdgcl_buffer_write(ctx, &bb, 0, n * 8, b);
  if (status == HDGCL_SUCCESS) status = amg_device_apply(c->kr, g->dev, &bb, &xb);
  if (status == HDGCL_SUCCESS) status = hdgcl_buffer_read(ctx, &xb, 0, n * 8, xd);
  if (status == HDGCL_SUCCESS) status = amg_apply(g, c, &bb, &xb); /* hypre: into g->hx */
  if (status == HDGCL_SUCCESS) {
    double diff = 0, size = 0;
    for (size_t i = 0; i < n; i++) {
      double d = xd[i] - g->hx[i];
      if (fabs(d) > diff || d != d) diff = d != d ? INFINITY : fabs(d);
      if (fabs(g->hx[i]) > size) size = fabs(g->hx[i]);
    }
    int levels, coarsest;
    amg_device_shape(g->dev, &levels, &coarsest);
    double rel = size > 0 ? diff / size : diff;
    char shape[512];
    amg_device_describe(g->dev, shape, sizeof shape);
    fprintf(stderr,
            "device AMG: %d levels, coarsest %d unknowns (rows/nonzeros above: %s); V-cycle "
            "against hypre's: %.3e\n",
            levels, coarsest, shape, rel);
    if (!(rel <= 1e-10))
      status = hdgcl_error(HDGCL_ERROR_INTERNAL,
                           "device AMG: its V-cycle differs from hypre's by %.3e (relative)", rel);
  }
  hdgcl_buffer_release(ctx, &bb);
  hdgcl_buffer_release(ctx, &xb);
  free(b);
  free(xd);
  return status;
}
#endif

static int setup(krylov *kr, precond *pc) {
  pmg *g = pc->data;
  const trace_levels *tl = &g->levels;
  pmg_level *last = &g->lv[g->nlevels - 1];
  for (int l = 1; l < g->nlevels; l++) {
    pmg_level *lv = &g->lv[l];
    HDGCL_TRY(tl->assemble(tl->owner, lv->level));
    lv->kr->stats = (solve_stats){0}; /* the level's work of this setup only */
  }
  for (int l = 0; l < g->nlevels; l++) {
    pmg_level *lv = &g->lv[l];
    if (lv->smooth) HDGCL_TRY(lv->smooth->setup(lv->kr, lv->smooth));
  }
#ifdef HDGCL_WITH_HYPRE
  if (g->hypre) HDGCL_TRY(amg_setup(g, last));
#endif
  (void)last;
  /* The levels' assembly and smoother setups are work of this setup. */
  for (int l = 1; l < g->nlevels; l++) {
    tl->add_work(tl->owner, g->lv[l].level, &kr->stats.flops, &kr->stats.bytes);
    kr->stats.flops += g->lv[l].kr->stats.flops;
    kr->stats.bytes += g->lv[l].kr->stats.bytes;
  }
  return HDGCL_SUCCESS;
}

static int transfer(pmg_level *f, pmg_level *c, cl_kernel k, const hdgcl_buffer *from,
                    hdgcl_buffer *to) {
  cl_int ncoarse = c->kr->n;
  hdgcl_arg a[] = {HDGCL_ARG(ncoarse), HDGCL_ARG(c->nf), HDGCL_ARG(f->nf),
                   HDGCL_ARG(f->map.mem), HDGCL_ARG(from->mem), HDGCL_ARG(to->mem)};
  return krylov_launch(f->kr, k, 6, a, (size_t)ncoarse, 0);
}

/* Nonsymmetric device coarse solver: x = GMRES(b) from zero (see the top);
 * not converging to PMG_COARSE_RTOL within the limit is no error. */
static int coarse_gmres(pmg *g, pmg_level *c, const hdgcl_buffer *b, hdgcl_buffer *x) {
  solve_stats *st = &c->kr->stats;
  double f0 = st->flops, b0 = st->bytes, residual;
  int iterations;
  bool converged;
  HDGCL_TRY(krylov_gmres_run(c->kr, c->kr->pc, b, x, &iterations, &residual, &converged));
  g->coarse_flops = st->flops - f0;
  g->coarse_bytes = st->bytes - b0;
  return HDGCL_SUCCESS;
}

/* x = V_l b (x overwritten). */
static int vcycle(pmg *g, int l, const hdgcl_buffer *b, hdgcl_buffer *x) {
  pmg_level *lv = &g->lv[l];
  if (l == g->nlevels - 1) {
#ifdef HDGCL_WITH_HYPRE
    if (g->dev) return amg_device_apply(lv->kr, g->dev, b, x);
    if (g->hypre) return amg_apply(g, lv, b, x);
#endif
    if (g->coarse_gmres) return coarse_gmres(g, lv, b, x);
    return lv->smooth->apply(lv->kr, lv->smooth, b, x);
  }
  pmg_level *c = &g->lv[l + 1];
  krylov *kr = lv->kr;
  HDGCL_TRY(lv->smooth->apply(kr, lv->smooth, b, x)); /* x = S b */
  HDGCL_TRY(krylov_spmv(kr, x, &lv->r));
  HDGCL_TRY(vec_residual(kr, b, &lv->r)); /* r = b - A x */
  HDGCL_TRY(transfer(lv, c, lv->restrict_k, &lv->r, &c->b));
  HDGCL_TRY(vcycle(g, l + 1, &c->b, &c->x));
  HDGCL_TRY(transfer(lv, c, lv->prolong_k, &c->x, x)); /* x += P x_c */
  HDGCL_TRY(krylov_spmv(kr, x, &lv->r));
  HDGCL_TRY(vec_residual(kr, b, &lv->r));
  HDGCL_TRY(lv->smooth->apply(kr, lv->smooth, &lv->r, &lv->t));
  return vec_axpby(kr, 1.0, &lv->t, 1.0, x); /* x += S r */
}

static int apply(krylov *kr, precond *pc, const hdgcl_buffer *r, hdgcl_buffer *z) {
  (void)kr;
  return vcycle(pc->data, 0, r, z);
}

static void counts(const krylov *kr, const precond *pc, double *flops, double *bytes) {
  const pmg *g = pc->data;
  double f = 0, b = 0;
  for (int l = 0; l < g->nlevels; l++) {
    const pmg_level *lv = &g->lv[l];
    double n = lv->kr->n, fs, bs, fa, ba;
    if (l == g->nlevels - 1) {
      if (g->dev) {
#ifdef HDGCL_WITH_HYPRE
        amg_device_counts(g->dev, &fs, &bs);
#endif
        f += fs, b += bs;
      } else if (g->hypre) { /* host work; the device side is the two copies */
        f += g->amg_flops;
        b += 16 * n;
      } else if (g->coarse_gmres) { /* counted by the last solve's GMRES */
        f += g->coarse_flops;
        b += g->coarse_bytes;
      } else {
        lv->smooth->counts(lv->kr, lv->smooth, &fs, &bs);
        f += fs, b += bs;
      }
      break;
    }
    double nc = g->lv[l + 1].kr->n;
    lv->smooth->counts(lv->kr, lv->smooth, &fs, &bs);
    krylov_spmv_counts(lv->kr, &fa, &ba);
    /* two smoothings, two products and residuals (n, 24 n), the update
     * (2 n, 24 n), restriction (0, 20 nc) and prolongation (nc, 28 nc). */
    f += 2 * fs + 2 * (fa + n) + 2 * n + nc;
    b += 2 * bs + 2 * (ba + 24 * n) + 24 * n + 48 * nc;
  }
  (void)kr;
  *flops = f;
  *bytes = b;
}

static void destroy(krylov *kr, precond *pc) {
  pmg *g = pc->data;
  if (!g) return;
#ifdef HDGCL_WITH_HYPRE
  hypre_release(g);
  amg_device_destroy(kr, g->dev); /* one context for every level */
#endif
  free(g->hb);
  free(g->hx);
  for (int l = 0; l < g->nlevels; l++) {
    pmg_level *lv = &g->lv[l];
    if (lv->restrict_k) clReleaseKernel(lv->restrict_k);
    if (lv->prolong_k) clReleaseKernel(lv->prolong_k);
    hdgcl_buffer *bufs[] = {&lv->b, &lv->x, &lv->r, &lv->t, &lv->map};
    for (int i = 0; i < 5; i++) hdgcl_buffer_release(kr->ctx, bufs[i]);
    if (lv->level) g->levels.destroy(g->levels.owner, lv->level);
  }
  precond_destroy(kr, &g->fine_smooth);
  free(g);
  pc->data = NULL;
}

int precond_pmg_mode_map(hdgcl_shape shape, int pf, int pc, int32_t *map, int nfc) {
  /* The k-th fine face function of degree <= pc is coarse function k:
   * segments and triangles order their functions by degree (a prefix);
   * quadrilaterals index i + (p+1) j, whose entries with i, j <= pc come in
   * the coarse order i + (pc+1) j.  tests/test_pmg.c checks the functions. */
  int nff = hdgcl_basis_size(shape, pf), k = 0;
  for (int i = 0; i < nff; i++)
    if (hdgcl_basis_degree(shape, pf, i) <= pc) {
      if (k == nfc) break;
      map[k++] = i;
    }
  if (k != nfc || nfc != hdgcl_basis_size(shape, pc))
    return hdgcl_error(HDGCL_ERROR_INTERNAL,
                       "p-multigrid: %d face modes of degree <= %d in the degree-%d basis, %d expected",
                       k, pc, pf, nfc);
  return HDGCL_SUCCESS;
}

int precond_pmg_block_map(hdgcl_shape shape, int pf, int pc, int ncomp, int32_t *map) {
  /* Face blocks are component-major (c Nf + m, host/fem/hdg.h): coarse mode k of
   * component c is fine mode map[k] of component c. */
  int nfc = hdgcl_basis_size(shape, pc), nff = hdgcl_basis_size(shape, pf);
  HDGCL_TRY(precond_pmg_mode_map(shape, pf, pc, map, nfc));
  for (int c = ncomp - 1; c >= 0; c--)
    for (int k = 0; k < nfc; k++) map[c * nfc + k] = c * nff + map[k];
  return HDGCL_SUCCESS;
}

/* The map of precond_pmg_block_map on the device (nfc: coarse block size). */
static int mode_map(hdgcl_shape shape, int pf, int pc, int ncomp, int nfc, hdgcl_context ctx,
                    hdgcl_buffer *buf) {
  int32_t *map;
  HDGCL_TRY(hdgcl_calloc((size_t)nfc, sizeof *map, "p-multigrid mode map", &map));
  int status = precond_pmg_block_map(shape, pf, pc, ncomp, map);
  if (status == HDGCL_SUCCESS)
    status = hdgcl_buffer_create(ctx, (size_t)nfc * 4, "p-multigrid mode map", buf);
  if (status == HDGCL_SUCCESS) status = hdgcl_buffer_write(ctx, buf, 0, (size_t)nfc * 4, map);
  free(map);
  return status;
}

uint64_t precond_pmg_bytes(const linear_system *sys, const solver_settings *set) {
  /* Level 0: its Chebyshev smoother (block-Jacobi inverses and 3 vectors)
   * and r, t.  The coarser levels are separate solve stages with their own
   * memory accounting. */
  uint64_t n = (uint64_t)sys->rows * sys->nf;
  uint64_t bytes = n * sys->nf * 8 + 5 * n * 8;
  if (set->nonsymmetric) {
    bytes += 13 * n * 8; /* the smoother's Arnoldi basis */
#ifndef HDGCL_WITH_HYPRE
    if (!set->flexible) bytes += (uint64_t)set->restart * n * 8; /* FGMRES's Z (krylov_gmres.c) */
#endif
  }
  return bytes;
}

int precond_pmg_create(krylov *kr, precond *pc) {
  bool nonsym = kr->set.nonsymmetric;
  *pc = (precond){.name = "pmg", .setup = setup, .apply = apply, .counts = counts,
                  .destroy = destroy, .fixed = true, .symmetric = !nonsym};
  pmg *g;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *g, "p-multigrid preconditioner", &g));
  pc->data = g;
  g->levels = kr->levels;
#ifdef HDGCL_WITH_HYPRE
  g->hypre = kr->set.pmg_coarse_amg;
  g->amg_host = kr->set.pmg_amg_host;
  if (g->hypre) HDGCL_TRY(hypre_init_once());
#endif
  g->coarse_gmres = nonsym && !g->hypre;
  pc->fixed = !g->coarse_gmres; /* an inner GMRES is not a linear operator: FGMRES outside */
  int orders[PMG_MAX_LEVELS];
  int nlevels = level_orders(kr->sys.order, kr->set.pmg_coarse, orders);
  if ((nlevels > 1 || g->hypre) && !g->levels.owner)
    return hdgcl_error(HDGCL_ERROR_INTERNAL,
                       "p-multigrid: no coarser levels of the trace operator");
  g->nlevels = nlevels;
  /* The transfers take their sizes as arguments: one program (the fine stage's
   * options) serves every pair of levels. */
  cl_program program = NULL;
  if (g->nlevels > 1)
    HDGCL_TRY(krylov_program(kr, "solvers/precond_pmg.cl", KRYLOV_HELPERS_ONLY, &program));
  for (int l = 0; l < g->nlevels; l++) {
    pmg_level *lv = &g->lv[l];
    bool coarsest = l == g->nlevels - 1;
    lv->order = orders[l];
    int degree = coarsest && !g->coarse_gmres ? PMG_COARSE_DEGREE : kr->set.pmg_smooth;
    if (l == 0) {
      lv->kr = kr;
      if (coarsest && g->coarse_gmres)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "--precond pmg on nonsymmetric --problem %s needs order > --pmg-coarse "
                           "(%d) without hypre",
                           kr->sys.problem, kr->set.pmg_coarse);
      if (!(coarsest && g->hypre)) {
        HDGCL_TRY(precond_chebyshev_create_degree(kr, degree, PRECOND_BLOCK_JACOBI,
                                                  &g->fine_smooth));
        lv->smooth = &g->fine_smooth;
      }
    } else {
      int kind = coarsest && g->hypre ? PRECOND_NONE : PRECOND_CHEBYSHEV;
      int restart = coarsest && g->coarse_gmres ? PMG_COARSE_RESTART : 0;
      HDGCL_TRY(g->levels.create(g->levels.owner, orders[l], kind, degree, restart, &lv->level,
                                 &lv->kr));
      if (kind != PRECOND_NONE) lv->smooth = lv->kr->pc; /* set up with the level */
      if (restart) {
        lv->kr->set.rtol = PMG_COARSE_RTOL;
        lv->kr->set.maxit = PMG_COARSE_MAXIT;
      }
    }
    lv->nf = lv->kr->sys.nf; /* the transfers' block: ncomp * Nf */
    size_t vb = (size_t)(lv->kr->n ? lv->kr->n : 1) * 8;
    if (l > 0) {
      HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb, "p-multigrid b", &lv->b));
      HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb, "p-multigrid x", &lv->x));
    }
    if (!coarsest) {
      HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb, "p-multigrid residual", &lv->r));
      HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb, "p-multigrid correction", &lv->t));
      HDGCL_TRY(hdgcl_kernel_create(program, "pmg_restrict", &lv->restrict_k));
      HDGCL_TRY(hdgcl_kernel_create(program, "pmg_prolong_add", &lv->prolong_k));
    }
  }
  for (int l = 0; l + 1 < g->nlevels; l++)
    HDGCL_TRY(mode_map(kr->sys.face_shape, g->lv[l].order, g->lv[l + 1].order, kr->sys.ncomp,
                       g->lv[l + 1].nf, kr->ctx, &g->lv[l].map));
  if (g->hypre) {
    size_t n = (size_t)g->lv[g->nlevels - 1].kr->n + 1;
    HDGCL_TRY(hdgcl_calloc(n, sizeof(double), "p-multigrid coarse b", &g->hb));
    HDGCL_TRY(hdgcl_calloc(n, sizeof(double), "p-multigrid coarse x", &g->hx));
  }
  return HDGCL_SUCCESS;
}
