/* Reference path, trace solve: preconditioned conjugate gradients on the
 * block-ELL trace matrix, serial, with no preconditioner, point-Jacobi or
 * face block-Jacobi. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "error.h"
#include "reference.h"

static void matvec(hdgcl_solver s, const double *x, double *y) {
  int nf = s->ref.sz.nf, nslots = s->ref.sz.nslots;
  int32_t rows = s->num.num_unknown_faces;
  for (int32_t r = 0; r < rows; r++)
    for (int m = 0; m < nf; m++) {
      double sum = 0.0;
      for (int sl = 0; sl < nslots; sl++) {
        int32_t col = s->num.block_cols[(size_t)r * nslots + sl];
        if (col < 0) continue;
        const double *blk = s->matrix + ((size_t)r * nslots + sl) * nf * nf + m * nf;
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

/* Preconditioner data: inverse diagonal (Jacobi) or Cholesky factors of the
 * diagonal face blocks (block-Jacobi). */
static int precond_setup(hdgcl_solver s, double *pc) {
  int nf = s->ref.sz.nf, nslots = s->ref.sz.nslots;
  if (s->precond == PRECOND_NONE) return HDGCL_SUCCESS;
  for (int32_t r = 0; r < s->num.num_unknown_faces; r++) {
    const double *blk = s->matrix + (size_t)r * nslots * nf * nf; /* slot 0: diagonal block */
    if (s->precond == PRECOND_JACOBI) {
      for (int m = 0; m < nf; m++) {
        if (!(blk[m * nf + m] > 0))
          return hdgcl_error(HDGCL_ERROR_INTERNAL, "trace matrix diagonal %g <= 0 at face row %d",
                             blk[m * nf + m], (int)r);
        pc[(size_t)r * nf + m] = 1.0 / blk[m * nf + m];
      }
    } else {
      double *l = pc + (size_t)r * nf * nf;
      memcpy(l, blk, sizeof(double) * nf * nf);
      if (dense_cholesky(nf, l))
        return hdgcl_error(HDGCL_ERROR_INTERNAL, "diagonal block of face row %d not positive definite",
                           (int)r);
    }
  }
  return HDGCL_SUCCESS;
}

static void precond_apply(hdgcl_solver s, const double *pc, const double *r, double *z) {
  int nf = s->ref.sz.nf;
  size_t n = (size_t)s->num.num_unknown_faces * nf;
  if (s->precond == PRECOND_NONE) {
    memcpy(z, r, sizeof(double) * n);
    return;
  }
  if (s->precond == PRECOND_JACOBI) {
    for (size_t i = 0; i < n; i++) z[i] = pc[i] * r[i];
    return;
  }
  memcpy(z, r, sizeof(double) * n);
  for (int32_t b = 0; b < s->num.num_unknown_faces; b++)
    dense_cholesky_solve(nf, pc + (size_t)b * nf * nf, 1, z + (size_t)b * nf);
}

int reference_cg(hdgcl_solver s, double *x) {
  int nf = s->ref.sz.nf;
  size_t n = (size_t)s->num.num_unknown_faces * nf;
  size_t npc = s->precond != PRECOND_BLOCK_JACOBI ? n + 1 : (size_t)s->num.num_unknown_faces * nf * nf;
  double *r = NULL, *z = NULL, *p = NULL, *ap = NULL, *pc = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "CG vectors", &r), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "CG vectors", &z), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "CG vectors", &p), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "CG vectors", &ap), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(npc, sizeof(double), "preconditioner", &pc), done);
  HDGCL_TRY_GOTO(status, precond_setup(s, pc), done);
  /* x0 = 0, r0 = b. */
  memset(x, 0, sizeof(double) * n);
  memcpy(r, s->rhs, sizeof(double) * n);
  double rr0 = dot(n, r, r), rr = rr0;
  s->result.history_length = 0;
  HDGCL_TRY_GOTO(status, solver_record_residual(s, 1.0), done);
  int it = 0;
  if (rr0 > 0) {
    precond_apply(s, pc, r, z);
    memcpy(p, z, sizeof(double) * n);
    double rz = dot(n, r, z);
    while (sqrt(rr / rr0) > s->rtol && it < s->maxit) {
      matvec(s, p, ap);
      double alpha = rz / dot(n, p, ap);
      for (size_t i = 0; i < n; i++) {
        x[i] += alpha * p[i];
        r[i] -= alpha * ap[i];
      }
      precond_apply(s, pc, r, z);
      double rz_new = dot(n, r, z);
      rr = dot(n, r, r);
      double beta = rz_new / rz;
      rz = rz_new;
      for (size_t i = 0; i < n; i++) p[i] = z[i] + beta * p[i];
      it++;
      HDGCL_TRY_GOTO(status, solver_record_residual(s, sqrt(rr / rr0)), done);
    }
  }
  s->result.iterations = it;
  s->result.residual = rr0 > 0 ? sqrt(rr / rr0) : 0.0;
  if (!(s->result.residual <= s->rtol)) {
    status = hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                         "CG did not converge: relative residual %.3e after %d iterations "
                         "(--rtol %g, --maxit %d)",
                         s->result.residual, it, s->rtol, s->maxit);
    goto done;
  }
  status = HDGCL_SUCCESS;
done:
  free(r);
  free(z);
  free(p);
  free(ap);
  free(pc);
  return status;
}
