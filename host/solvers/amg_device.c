/* A BoomerAMG hierarchy run on the device (amg_device.h; kernels:
 * cl/solvers/amg_device.cl).
 *
 * hypre (a maintained library, docs/solvers.md "Why BoomerAMG") does what is
 * not hdgcl's business: the coarsening (HMIS), the interpolation (extended+i,
 * at most 4 entries a row) and the Galerkin products A_{l+1} = P^T A_l P.
 * This unit reads the levels it built (hypre's internal ParAMG data; serial,
 * so each ParCSR matrix is its diagonal block), uploads A_l, P_l, R_l = P_l^T
 * and the l1 row norms in CSR, inverts the coarsest matrix on the host, and
 * runs the V-cycle of cl/solvers/amg_device.cl: four launches a level and one
 * at the coarsest, none of which waits for the host.
 *
 * The relaxation is hypre's l1-Jacobi (relax type 18; Baker, Falgout,
 * Kolev, Yang, SIAM J. Sci. Comput. 33 (2011) 2864): x += w D1^-1 (b - A x),
 * D1 = diag(sum_j |a_ij|), convergent for any SPD A without a tuned weight,
 * and a Jacobi method, so it parallelises as an SpMV does (hypre's default
 * hybrid Gauss-Seidel is sequential within a process).  With R = P^T and the
 * same sweep before and after, the cycle is a fixed symmetric operator (CG
 * may use it).  hypre's BoomerAMGSolve on the same setup computes the same
 * cycle: precond_pmg.c compares them (HDGCL_AMG_VERIFY=1). */
#ifdef HDGCL_WITH_HYPRE
#include <stdio.h>
#include <stdlib.h>

/* _hypre_utilities.h calls ffs, which <strings.h> declares only beyond strict
 * POSIX.1-2008 (the project's _POSIX_C_SOURCE). */
int ffs(int i);

#include <HYPRE.h>
#include <HYPRE_parcsr_ls.h>
#include <_hypre_parcsr_ls.h>

#include "core/dense.h"
#include "core/error.h"
#include "solvers/amg_device.h"

/* Most unknowns of the coarsest level, whose inverse the device applies as a
 * dense matrix (8 n^2 bytes: 2 MB at 512). */
#define AMG_DEVICE_COARSE_MAX 512

typedef struct csr {
  int n, nnz;
  hdgcl_buffer i, j, x;
} csr;

typedef struct amg_level {
  int n;
  csr a, p, r;         /* A_l; P_l and R_l = P_l^T to and from level l + 1 */
  hdgcl_buffer l1;     /* l1 row norms of A_l */
  double w;            /* relaxation weight */
  hdgcl_buffer b, x, t, res; /* b, x below level 0; t, res at every level but the last */
} amg_level;

struct amg_device {
  int nlevels, nc;
  amg_level *lv;
  hdgcl_buffer inv; /* the coarsest matrix's inverse, dense row-major */
  cl_kernel relax0_residual, spmv, prolong, relax, dense;
};

int amg_device_configure(void *boomeramg) {
  HYPRE_Solver amg = boomeramg;
  /* HDGCL_AMG_COARSE=N (2..AMG_DEVICE_COARSE_MAX / 2): coarsen to at most N
   * unknowns instead, so small test meshes get several levels
   * (tests/oclgrind_kernels.sh). */
  int coarse = AMG_DEVICE_COARSE_MAX / 2;
  const char *env = getenv("HDGCL_AMG_COARSE");
  if (env) {
    char *end;
    long v = strtol(env, &end, 10);
    if (*end || end == env || v < 2 || v > AMG_DEVICE_COARSE_MAX / 2)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "HDGCL_AMG_COARSE=%s: not an integer in 2..%d", env,
                         AMG_DEVICE_COARSE_MAX / 2);
    coarse = (int)v;
  }
  if (HYPRE_BoomerAMGSetRelaxType(amg, 18) || HYPRE_BoomerAMGSetRelaxOrder(amg, 0) ||
      HYPRE_BoomerAMGSetCycleRelaxType(amg, 9, 3) || HYPRE_BoomerAMGSetMaxCoarseSize(amg, coarse) ||
      HYPRE_BoomerAMGSetNumSweeps(amg, 1)) {
    HYPRE_ClearAllErrors();
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "device AMG: a BoomerAMG setting was refused");
  }
  return HDGCL_SUCCESS;
}

/* Uploads an n-row CSR matrix (hypre's arrays; int32 on the device). */
static int csr_upload(hdgcl_context ctx, int n, const HYPRE_Int *ia, const HYPRE_Int *ja,
                      const double *xa, const char *name, csr *m) {
  int nnz = ia[n];
  m->n = n, m->nnz = nnz;
  int32_t *rows, *cols;
  HDGCL_TRY(hdgcl_calloc((size_t)n + 1, sizeof *rows, name, &rows));
  int status = hdgcl_calloc((size_t)(nnz ? nnz : 1), sizeof *cols, name, &cols);
  if (status != HDGCL_SUCCESS) {
    free(rows);
    return status;
  }
  for (int i = 0; i <= n; i++) rows[i] = (int32_t)ia[i];
  for (int k = 0; k < nnz; k++) cols[k] = (int32_t)ja[k];
  size_t nb = (size_t)(nnz ? nnz : 1);
  if (status == HDGCL_SUCCESS) status = hdgcl_buffer_create(ctx, ((size_t)n + 1) * 4, name, &m->i);
  if (status == HDGCL_SUCCESS) status = hdgcl_buffer_create(ctx, nb * 4, name, &m->j);
  if (status == HDGCL_SUCCESS) status = hdgcl_buffer_create(ctx, nb * 8, name, &m->x);
  if (status == HDGCL_SUCCESS)
    status = hdgcl_buffer_write(ctx, &m->i, 0, ((size_t)n + 1) * 4, rows);
  if (status == HDGCL_SUCCESS && nnz) status = hdgcl_buffer_write(ctx, &m->j, 0, nb * 4, cols);
  if (status == HDGCL_SUCCESS && nnz) status = hdgcl_buffer_write(ctx, &m->x, 0, nb * 8, xa);
  free(rows);
  free(cols);
  return status;
}

static void csr_release(hdgcl_context ctx, csr *m) {
  hdgcl_buffer_release(ctx, &m->i);
  hdgcl_buffer_release(ctx, &m->j);
  hdgcl_buffer_release(ctx, &m->x);
}

/* R = P^T of the nf x nc CSR matrix P, uploaded. */
static int transpose_upload(hdgcl_context ctx, int nf, int nc, const HYPRE_Int *pi,
                            const HYPRE_Int *pj, const double *px, csr *r) {
  int nnz = pi[nf];
  HYPRE_Int *ri, *rj, *next;
  double *rx;
  HDGCL_TRY(hdgcl_calloc((size_t)nc + 1, sizeof *ri, "AMG restriction", &ri));
  int status = hdgcl_calloc((size_t)nc + 1, sizeof *next, "AMG restriction", &next);
  rj = NULL, rx = NULL;
  if (status == HDGCL_SUCCESS)
    status = hdgcl_calloc((size_t)(nnz ? nnz : 1), sizeof *rj, "AMG restriction", &rj);
  if (status == HDGCL_SUCCESS)
    status = hdgcl_calloc((size_t)(nnz ? nnz : 1), sizeof *rx, "AMG restriction", &rx);
  if (status == HDGCL_SUCCESS) {
    for (int k = 0; k < nnz; k++) ri[pj[k] + 1]++;
    for (int c = 0; c < nc; c++) ri[c + 1] += ri[c];
    for (int c = 0; c < nc; c++) next[c] = ri[c];
    for (int f = 0; f < nf; f++) /* rows of R in increasing fine index */
      for (int k = pi[f]; k < pi[f + 1]; k++) {
        HYPRE_Int at = next[pj[k]]++;
        rj[at] = f;
        rx[at] = px[k];
      }
    status = csr_upload(ctx, nc, ri, rj, rx, "AMG restriction", r);
  }
  free(ri);
  free(next);
  free(rj);
  free(rx);
  return status;
}

/* The coarsest matrix's inverse to the device (LU with partial pivoting). */
static int coarse_inverse(hdgcl_context ctx, const hypre_CSRMatrix *a, hdgcl_buffer *inv) {
  int n = hypre_CSRMatrixNumRows(a);
  const HYPRE_Int *ia = hypre_CSRMatrixI(a), *ja = hypre_CSRMatrixJ(a);
  const double *xa = hypre_CSRMatrixData(a);
  double *m, *e;
  int *piv;
  size_t nn = (size_t)n * n;
  HDGCL_TRY(hdgcl_calloc(nn, sizeof *m, "AMG coarsest matrix", &m));
  int status = hdgcl_calloc(nn, sizeof *e, "AMG coarsest inverse", &e);
  piv = NULL;
  if (status == HDGCL_SUCCESS)
    status = hdgcl_calloc((size_t)n, sizeof *piv, "AMG coarsest pivots", &piv);
  if (status == HDGCL_SUCCESS) {
    for (int i = 0; i < n; i++)
      for (int k = ia[i]; k < ia[i + 1]; k++) m[(size_t)i * n + ja[k]] += xa[k];
    int bad = dense_lu(n, m, piv);
    if (bad)
      status = hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                           "device AMG: the coarsest matrix (%d unknowns) is singular at column %d",
                           n, bad - 1);
  }
  if (status == HDGCL_SUCCESS) {
    for (int i = 0; i < n; i++) e[(size_t)i * n + i] = 1.0;
    dense_lu_solve(n, m, piv, n, e); /* e = A^-1, row-major */
    status = hdgcl_buffer_create(ctx, nn * 8, "AMG coarsest inverse", inv);
  }
  if (status == HDGCL_SUCCESS) status = hdgcl_buffer_write(ctx, inv, 0, nn * 8, e);
  free(m);
  free(e);
  free(piv);
  return status;
}

int amg_device_create(krylov *kr, void *boomeramg, amg_device **out) {
  hypre_ParAMGData *d = (hypre_ParAMGData *)boomeramg;
  int nlevels = hypre_ParAMGDataNumLevels(d);
  hypre_ParCSRMatrix **A = hypre_ParAMGDataAArray(d);
  hypre_ParCSRMatrix **P = hypre_ParAMGDataPArray(d);
  hypre_Vector **l1 = hypre_ParAMGDataL1Norms(d);
  HYPRE_Real *w = hypre_ParAMGDataRelaxWeight(d);
  if (nlevels < 1 || !A || (nlevels > 1 && (!P || !l1)))
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "device AMG: BoomerAMG has no hierarchy to read");
  int nc = (int)hypre_CSRMatrixNumRows(hypre_ParCSRMatrixDiag(A[nlevels - 1]));
  if (nc > AMG_DEVICE_COARSE_MAX)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "device AMG: BoomerAMG stopped coarsening at %d unknowns (%d levels), more "
                       "than the %d the device's dense coarsest solve takes; use "
                       "--pmg-coarse-solve amg-host",
                       nc, nlevels, AMG_DEVICE_COARSE_MAX);
  amg_device *a;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *a, "device AMG", &a));
  *out = a;
  HDGCL_TRY(hdgcl_calloc((size_t)nlevels, sizeof *a->lv, "device AMG levels", &a->lv));
  a->nlevels = nlevels;
  a->nc = nc;
  hdgcl_context ctx = kr->ctx;
  for (int l = 0; l < nlevels; l++) {
    amg_level *lv = &a->lv[l];
    hypre_CSRMatrix *ad = hypre_ParCSRMatrixDiag(A[l]);
    hypre_CSRMatrix *ao = hypre_ParCSRMatrixOffd(A[l]);
    lv->n = (int)hypre_CSRMatrixNumRows(ad);
    if (ao && hypre_CSRMatrixNumNonzeros(ao) > 0)
      return hdgcl_error(HDGCL_ERROR_INTERNAL, "device AMG: level %d is not serial", l);
    size_t vb = (size_t)(lv->n ? lv->n : 1) * 8;
    if (l > 0) {
      HDGCL_TRY(hdgcl_buffer_create(ctx, vb, "AMG b", &lv->b));
      HDGCL_TRY(hdgcl_buffer_create(ctx, vb, "AMG x", &lv->x));
    }
    if (l == nlevels - 1) {
      HDGCL_TRY(coarse_inverse(ctx, ad, &a->inv));
      break;
    }
    HDGCL_TRY(csr_upload(ctx, lv->n, hypre_CSRMatrixI(ad), hypre_CSRMatrixJ(ad),
                         hypre_CSRMatrixData(ad), "AMG level matrix", &lv->a));
    hypre_CSRMatrix *pd = hypre_ParCSRMatrixDiag(P[l]);
    int ncoarse = (int)hypre_CSRMatrixNumCols(pd);
    HDGCL_TRY(csr_upload(ctx, lv->n, hypre_CSRMatrixI(pd), hypre_CSRMatrixJ(pd),
                         hypre_CSRMatrixData(pd), "AMG interpolation", &lv->p));
    HDGCL_TRY(transpose_upload(ctx, lv->n, ncoarse, hypre_CSRMatrixI(pd), hypre_CSRMatrixJ(pd),
                               hypre_CSRMatrixData(pd), &lv->r));
    if (!l1[l] || hypre_VectorSize(l1[l]) < lv->n)
      return hdgcl_error(HDGCL_ERROR_INTERNAL, "device AMG: level %d has no l1 norms", l);
    const double *norms = hypre_VectorData(l1[l]);
    for (int i = 0; i < lv->n; i++)
      if (!(norms[i] > 0.0))
        return hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                           "device AMG: row %d of level %d has l1 norm %g (an empty or NaN row)",
                           i, l, norms[i]);
    HDGCL_TRY(hdgcl_buffer_create(ctx, vb, "AMG l1 norms", &lv->l1));
    HDGCL_TRY(hdgcl_buffer_write(ctx, &lv->l1, 0, (size_t)lv->n * 8, norms));
    lv->w = w ? w[l] : 1.0;
    HDGCL_TRY(hdgcl_buffer_create(ctx, vb, "AMG correction", &lv->t));
    HDGCL_TRY(hdgcl_buffer_create(ctx, vb, "AMG residual", &lv->res));
  }
  cl_program program;
  HDGCL_TRY(krylov_program(kr, "solvers/amg_device.cl", KRYLOV_HELPERS_ONLY, &program));
  HDGCL_TRY(hdgcl_kernel_create(program, "amg_relax0_residual", &a->relax0_residual));
  HDGCL_TRY(hdgcl_kernel_create(program, "amg_spmv", &a->spmv));
  HDGCL_TRY(hdgcl_kernel_create(program, "amg_prolong", &a->prolong));
  HDGCL_TRY(hdgcl_kernel_create(program, "amg_relax", &a->relax));
  return hdgcl_kernel_create(program, "amg_dense", &a->dense);
}

/* One work-item per row in groups of AMG_WG, the rows rounded up (the
 * kernels skip the rest): the levels' row counts have arbitrary factors, and
 * left to choose, NVIDIA's runtime takes a group size that divides the count,
 * as small as 1 (cube:16 p = 3 on the H100: 3.7 ms a p-multigrid cycle against
 * 1.7 with the Chebyshev coarse solve, stop 40). */
#define AMG_WG 64
static int launch(krylov *kr, cl_kernel k, int nargs, const hdgcl_arg *args, int n) {
  size_t wg = kr->ctx->info.max_work_group < AMG_WG ? kr->ctx->info.max_work_group : AMG_WG;
  size_t global = ((size_t)(n > 0 ? n : 1) + wg - 1) / wg * wg;
  return krylov_launch(kr, k, nargs, args, global, wg);
}

/* x_l = V_l b_l (the cycle of cl/solvers/amg_device.cl). */
static int cycle(krylov *kr, amg_device *a, int l, const hdgcl_buffer *b, hdgcl_buffer *x) {
  amg_level *lv = &a->lv[l];
  cl_int n = lv->n;
  if (l == a->nlevels - 1) {
    hdgcl_arg g[] = {HDGCL_ARG(n), HDGCL_ARG(a->inv.mem), HDGCL_ARG(b->mem), HDGCL_ARG(x->mem)};
    return launch(kr, a->dense, 4, g, n);
  }
  amg_level *c = &a->lv[l + 1];
  cl_int nc = c->n;
  hdgcl_arg r0[] = {HDGCL_ARG(n),       HDGCL_ARG(lv->a.i.mem), HDGCL_ARG(lv->a.j.mem),
                    HDGCL_ARG(lv->a.x.mem), HDGCL_ARG(lv->l1.mem), HDGCL_ARG(lv->w),
                    HDGCL_ARG(b->mem),   HDGCL_ARG(x->mem),      HDGCL_ARG(lv->res.mem)};
  HDGCL_TRY(launch(kr, a->relax0_residual, 9, r0, n));
  hdgcl_arg rs[] = {HDGCL_ARG(nc),         HDGCL_ARG(lv->r.i.mem),  HDGCL_ARG(lv->r.j.mem),
                    HDGCL_ARG(lv->r.x.mem), HDGCL_ARG(lv->res.mem), HDGCL_ARG(c->b.mem)};
  HDGCL_TRY(launch(kr, a->spmv, 6, rs, nc));
  HDGCL_TRY(cycle(kr, a, l + 1, &c->b, &c->x));
  hdgcl_arg pr[] = {HDGCL_ARG(n),          HDGCL_ARG(lv->p.i.mem), HDGCL_ARG(lv->p.j.mem),
                    HDGCL_ARG(lv->p.x.mem), HDGCL_ARG(c->x.mem),    HDGCL_ARG(x->mem),
                    HDGCL_ARG(lv->t.mem)};
  HDGCL_TRY(launch(kr, a->prolong, 7, pr, n));
  hdgcl_arg rx[] = {HDGCL_ARG(n),       HDGCL_ARG(lv->a.i.mem), HDGCL_ARG(lv->a.j.mem),
                    HDGCL_ARG(lv->a.x.mem), HDGCL_ARG(lv->l1.mem), HDGCL_ARG(lv->w),
                    HDGCL_ARG(b->mem),   HDGCL_ARG(lv->t.mem),   HDGCL_ARG(x->mem)};
  return launch(kr, a->relax, 9, rx, n);
}

int amg_device_apply(krylov *kr, amg_device *a, const hdgcl_buffer *b, hdgcl_buffer *x) {
  return cycle(kr, a, 0, b, x);
}

void amg_device_counts(const amg_device *a, double *flops, double *bytes) {
  double f = 0, by = 0;
  for (int l = 0; l + 1 < a->nlevels; l++) {
    const amg_level *lv = &a->lv[l];
    double n = lv->n, na = lv->a.nnz, np = lv->p.nnz;
    /* two passes over A (12 bytes an entry, 3 and 2 flops), R and P once. */
    f += 5 * na + 4 * np + 6 * n;
    by += 24 * na + 24 * np + 4 * 4 * n + 8 * 9 * n;
  }
  double nc = a->nc;
  f += 2 * nc * nc;
  by += 8 * nc * nc + 16 * nc;
  *flops = f;
  *bytes = by;
}

void amg_device_shape(const amg_device *a, int *levels, int *coarsest) {
  *levels = a->nlevels;
  *coarsest = a->nc;
}

void amg_device_describe(const amg_device *a, char *out, size_t size) {
  size_t len = 0;
  out[0] = 0;
  for (int l = 0; l + 1 < a->nlevels && len < size; l++)
    len += (size_t)snprintf(out + len, size - len, "%s%d/%d", l ? " " : "", a->lv[l].n,
                            a->lv[l].a.nnz);
}

void amg_device_destroy(krylov *kr, amg_device *a) {
  if (!a) return;
  if (a->lv)
    for (int l = 0; l < a->nlevels; l++) {
      amg_level *lv = &a->lv[l];
      csr_release(kr->ctx, &lv->a);
      csr_release(kr->ctx, &lv->p);
      csr_release(kr->ctx, &lv->r);
      hdgcl_buffer *bufs[] = {&lv->l1, &lv->b, &lv->x, &lv->t, &lv->res};
      for (int i = 0; i < 5; i++) hdgcl_buffer_release(kr->ctx, bufs[i]);
    }
  hdgcl_buffer_release(kr->ctx, &a->inv);
  cl_kernel ks[] = {a->relax0_residual, a->spmv, a->prolong, a->relax, a->dense};
  for (int i = 0; i < 5; i++)
    if (ks[i]) clReleaseKernel(ks[i]);
  free(a->lv);
  free(a);
}
#else
typedef int amg_device_needs_hypre; /* an empty unit in builds without hypre */
#endif
