/* Reference path, trace solve: preconditioned conjugate gradients (SPD
 * systems) or restarted right-preconditioned GMRES(m) (any system) on the
 * block-ELL trace matrix, serial, with no preconditioner, point-Jacobi or
 * face block-Jacobi.  Face blocks hold nfb = ncomp * nf values (hdg_sizes):
 * nf below is that block size. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dense.h"
#include "core/error.h"
#include "reference/reference.h"
#include "solvers/krylov.h" /* KRYLOV_NOT_FINITE */

static void matvec(const hdg_discretisation *disc, hdg_solution *sol, const double *x, double *y) {
  int nf = disc->ref.sz.nfb, nslots = disc->ref.sz.nslots;
  int32_t rows = disc->num.num_unknown_faces;
  for (int32_t r = 0; r < rows; r++)
    for (int m = 0; m < nf; m++) {
      double sum = 0.0;
      for (int sl = 0; sl < nslots; sl++) {
        int32_t col = disc->num.block_cols[(size_t)r * nslots + sl];
        if (col < 0) continue;
        const double *blk = sol->matrix + ((size_t)r * nslots + sl) * nf * nf + m * nf;
        for (int n = 0; n < nf; n++) sum += blk[n] * x[(size_t)col * nf + n];
      }
      y[(size_t)r * nf + m] = sum;
    }
}

static double dot(size_t n, const double *a, const double *b) {
  double s = 0.0;
  for (size_t i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* Preconditioner data: inverse diagonal (Jacobi) or inverses of the diagonal
 * face blocks (block-Jacobi; by LU with partial pivoting, so nonsymmetric
 * blocks too). */
static int precond_setup(const hdg_discretisation *disc, const solver_settings *set,
                         hdg_solution *sol, double *pc) {
  int nf = disc->ref.sz.nfb, nslots = disc->ref.sz.nslots;
  if (set->precond == PRECOND_NONE) return HDGCL_SUCCESS;
  double *lu = NULL;
  int *piv = NULL;
  if (set->precond == PRECOND_BLOCK_JACOBI) {
    HDGCL_TRY(hdgcl_calloc((size_t)nf * nf, sizeof(double), "block factors", &lu));
    int status = hdgcl_calloc((size_t)nf, sizeof(int), "block pivots", &piv);
    if (status) {
      free(lu);
      return status;
    }
  }
  int status = HDGCL_SUCCESS;
  for (int32_t r = 0; r < disc->num.num_unknown_faces; r++) {
    const double *blk = sol->matrix + (size_t)r * nslots * nf * nf; /* slot 0: diagonal block */
    if (set->precond == PRECOND_JACOBI) {
      for (int m = 0; m < nf && !status; m++) {
        if (!(blk[m * nf + m] > 0))
          status = hdgcl_error(HDGCL_ERROR_INTERNAL, "trace matrix diagonal %g <= 0 at face row %d",
                               blk[m * nf + m], (int)r);
        else
          pc[(size_t)r * nf + m] = 1.0 / blk[m * nf + m];
      }
    } else {
      double *inv = pc + (size_t)r * nf * nf;
      memcpy(lu, blk, sizeof(double) * nf * nf);
      if (dense_lu(nf, lu, piv)) {
        status = hdgcl_error(HDGCL_ERROR_INTERNAL, "diagonal block of face row %d is singular", (int)r);
      } else {
        for (int m = 0; m < nf * nf; m++) inv[m] = (m / nf == m % nf) ? 1.0 : 0.0;
        dense_lu_solve(nf, lu, piv, nf, inv);
      }
    }
    if (status) break;
  }
  free(lu);
  free(piv);
  return status;
}

static void precond_apply(const hdg_discretisation *disc, const solver_settings *set,
                          const double *pc, const double *r, double *z) {
  int nf = disc->ref.sz.nfb;
  size_t n = (size_t)disc->num.num_unknown_faces * nf;
  if (set->precond == PRECOND_NONE) {
    memcpy(z, r, sizeof(double) * n);
    return;
  }
  if (set->precond == PRECOND_JACOBI) {
    for (size_t i = 0; i < n; i++) z[i] = pc[i] * r[i];
    return;
  }
  for (int32_t b = 0; b < disc->num.num_unknown_faces; b++) {
    const double *inv = pc + (size_t)b * nf * nf, *rb = r + (size_t)b * nf;
    for (int m = 0; m < nf; m++) {
      double sum = 0.0;
      for (int k = 0; k < nf; k++) sum += inv[m * nf + k] * rb[k];
      z[(size_t)b * nf + m] = sum;
    }
  }
}

/* Records the iterations and final relative residual; not reaching --rtol is
 * HDGCL_ERROR_CONVERGENCE naming the method. */
static int finish(const hdg_discretisation *disc, const solver_settings *set, hdg_solution *sol,
                  const char *method, int it, double rel) {
  sol->iterations = it;
  sol->residual = rel;
  if (!isfinite(rel))
    return hdgcl_error(HDGCL_ERROR_CONVERGENCE, KRYLOV_NOT_FINITE, method,
                       isnan(rel) ? "NaN" : "Inf", it);
  if (!(rel <= set->rtol))
    return hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                       "%s did not converge: relative residual %.3e after %d iterations "
                       "(--rtol %g, --maxit %d)",
                       method, rel, it, set->rtol, set->maxit);
  return HDGCL_SUCCESS;
}

static size_t precond_size(const hdg_discretisation *disc, const solver_settings *set) {
  size_t n = (size_t)disc->num.num_unknown_faces * disc->ref.sz.nfb;
  return set->precond != PRECOND_BLOCK_JACOBI ? n + 1 : n * disc->ref.sz.nfb;
}

int reference_cg(const hdg_discretisation *disc, const solver_settings *set, hdg_solution *sol,
                 double *x) {
  int nf = disc->ref.sz.nfb;
  size_t n = (size_t)disc->num.num_unknown_faces * nf;
  size_t npc = precond_size(disc, set);
  double *r = NULL, *z = NULL, *p = NULL, *ap = NULL, *pc = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "CG vectors", &r), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "CG vectors", &z), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "CG vectors", &p), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "CG vectors", &ap), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(npc, sizeof(double), "preconditioner", &pc), done);
  HDGCL_TRY_GOTO(status, precond_setup(disc, set, sol, pc), done);
  /* x0 = 0, r0 = b. */
  memset(x, 0, sizeof(double) * n);
  memcpy(r, sol->rhs, sizeof(double) * n);
  double rr0 = dot(n, r, r), rr = rr0;
  sol->history_length = 0;
  HDGCL_TRY_GOTO(status, hdg_solution_record_residual(sol, 1.0), done);
  int it = 0;
  if (rr0 > 0) {
    precond_apply(disc, set, pc, r, z);
    memcpy(p, z, sizeof(double) * n);
    double rz = dot(n, r, z);
    while (sqrt(rr / rr0) > set->rtol && it < set->maxit) {
      matvec(disc, sol, p, ap);
      double alpha = rz / dot(n, p, ap);
      for (size_t i = 0; i < n; i++) {
        x[i] += alpha * p[i];
        r[i] -= alpha * ap[i];
      }
      precond_apply(disc, set, pc, r, z);
      double rz_new = dot(n, r, z);
      rr = dot(n, r, r);
      double beta = rz_new / rz;
      rz = rz_new;
      for (size_t i = 0; i < n; i++) p[i] = z[i] + beta * p[i];
      it++;
      HDGCL_TRY_GOTO(status, hdg_solution_record_residual(sol, sqrt(rr / rr0)), done);
    }
  }
  status = finish(disc, set, sol, "CG", it, rr0 > 0 ? sqrt(rr / rr0) : 0.0);
done:
  free(r);
  free(z);
  free(p);
  free(ap);
  free(pc);
  return status;
}

/* GMRES(m), right-preconditioned (x = M^-1 y), modified Gram-Schmidt with
 * one reorthogonalisation pass, Givens rotations; the residual it reports is
 * the true ||b - A x|| / ||b||, recomputed at each restart. */
int reference_gmres(const hdg_discretisation *disc, const solver_settings *set, hdg_solution *sol,
                    double *x) {
  int nf = disc->ref.sz.nfb, m = set->restart;
  size_t n = (size_t)disc->num.num_unknown_faces * nf;
  double *v = NULL, *w = NULL, *z = NULL, *pc = NULL, *h = NULL, *g = NULL, *cs = NULL, *sn = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)(m + 1) * n, sizeof(double), "GMRES basis", &v), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "GMRES vectors", &w), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "GMRES vectors", &z), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(precond_size(disc, set), sizeof(double), "preconditioner", &pc), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)(m + 1) * m, sizeof(double), "Hessenberg", &h), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)(m + 1) * 3, sizeof(double), "Givens", &g), done);
  cs = g + m + 1;
  sn = cs + m + 1;
  HDGCL_TRY_GOTO(status, precond_setup(disc, set, sol, pc), done);
  memset(x, 0, sizeof(double) * n);
  double bnorm = sqrt(dot(n, sol->rhs, sol->rhs)), rel = 0.0;
  sol->history_length = 0;
  HDGCL_TRY_GOTO(status, hdg_solution_record_residual(sol, 1.0), done);
  int it = 0;
  while (bnorm > 0) {
    matvec(disc, sol, x, w); /* r = b - A x */
    for (size_t i = 0; i < n; i++) v[i] = sol->rhs[i] - w[i];
    double beta = sqrt(dot(n, v, v));
    rel = beta / bnorm;
    if (rel <= set->rtol || it >= set->maxit || !isfinite(rel)) break;
    for (size_t i = 0; i < n; i++) v[i] /= beta;
    memset(g, 0, sizeof(double) * (m + 1));
    g[0] = beta;
    int j = 0;
    for (; j < m && it < set->maxit; j++, it++) {
      precond_apply(disc, set, pc, v + (size_t)j * n, z);
      matvec(disc, sol, z, w);
      for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i <= j; i++) {
          double hij = dot(n, w, v + (size_t)i * n);
          h[i * m + j] += hij;
          for (size_t k = 0; k < n; k++) w[k] -= hij * v[(size_t)i * n + k];
        }
      double hn = sqrt(dot(n, w, w));
      h[(j + 1) * m + j] = hn;
      for (size_t k = 0; k < n; k++) v[(size_t)(j + 1) * n + k] = hn > 0 ? w[k] / hn : 0.0;
      for (int i = 0; i < j; i++) { /* previous rotations on column j */
        double a = h[i * m + j], b = h[(i + 1) * m + j];
        h[i * m + j] = cs[i] * a + sn[i] * b;
        h[(i + 1) * m + j] = -sn[i] * a + cs[i] * b;
      }
      double a = h[j * m + j], b = h[(j + 1) * m + j], r = hypot(a, b);
      cs[j] = r > 0 ? a / r : 1.0;
      sn[j] = r > 0 ? b / r : 0.0;
      h[j * m + j] = r;
      h[(j + 1) * m + j] = 0.0;
      g[j + 1] = -sn[j] * g[j];
      g[j] *= cs[j];
      HDGCL_TRY_GOTO(status, hdg_solution_record_residual(sol, fabs(g[j + 1]) / bnorm), done);
      if (fabs(g[j + 1]) / bnorm <= set->rtol || hn == 0 || !isfinite(g[j + 1])) {
        j++, it++;
        break;
      }
    }
    /* y = R^-1 g; x += M^-1 V y */
    for (int i = j - 1; i >= 0; i--) {
      double sum = g[i];
      for (int k = i + 1; k < j; k++) sum -= h[i * m + k] * g[k];
      g[i] = sum / h[i * m + i];
    }
    memset(w, 0, sizeof(double) * n);
    for (int i = 0; i < j; i++)
      for (size_t k = 0; k < n; k++) w[k] += g[i] * v[(size_t)i * n + k];
    precond_apply(disc, set, pc, w, z);
    for (size_t k = 0; k < n; k++) x[k] += z[k];
    memset(h, 0, sizeof(double) * (size_t)(m + 1) * m);
  }
  char method[32];
  snprintf(method, sizeof method, "GMRES(%d)", m);
  status = finish(disc, set, sol, method, it, rel);
done:
  free(v);
  free(w);
  free(z);
  free(pc);
  free(h);
  free(g);
  return status;
}
