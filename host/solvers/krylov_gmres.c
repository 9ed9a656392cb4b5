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
 * The small Hessenberg least-squares problem is solved on the host with
 * Givens rotations: each iteration reads its Hessenberg column (2 (j+1) + 1
 * numbers) back, a host round trip per iteration that GMRES needs anyway to
 * decide convergence and that costs a few microseconds against an SpMV and
 * the orthogonalisation on large systems.  At every restart, and at the end,
 * the true residual b - A x is computed; convergence is ||b - A x|| <= rtol
 * ||b|| (the same criterion as CG), so a converged estimate whose true
 * residual is above the tolerance restarts.
 *
 * Right preconditioning keeps the minimised residual the unpreconditioned one:
 * x = x0 + M^-1 V y.  With a preconditioner that is not a fixed linear
 * operator (precond.h `fixed`) the flexible form stores Z_j = M^-1 v_j and
 * takes x = x0 + Z y (Algorithm 9.6); --flexible forces it. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "solvers/precond.h"

typedef struct krylov_gmres {
  int m;
  bool flexible;
  hdgcl_buffer v, z;      /* basis [m+1][n]; flexible: preconditioned basis [m][n] */
  hdgcl_buffer w, vj, zj; /* new direction, current basis vector, M^-1 v_j */
  hdgcl_buffer r, h1, h2, y;
} krylov_gmres;

uint64_t krylov_gmres_bytes(const linear_system *sys, const solver_settings *set) {
  uint64_t n = (uint64_t)sys->rows * sys->nf, m = (uint64_t)set->restart;
  return 8 * n * (m + 1 + 4) + (set->flexible ? 8 * n * m : 0) +
         8 * 3 * (m + 2);
}

int krylov_gmres_create(krylov *kr) {
  HDGCL_TRY(hdgcl_calloc(1, sizeof *kr->gmres, "GMRES", &kr->gmres));
  krylov_gmres *g = kr->gmres;
  g->m = kr->set.restart;
  g->flexible = kr->set.flexible || !kr->pc->fixed;
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
  return hdgcl_buffer_create(kr->ctx, (m + 1) * 8, "GMRES coefficients", &g->y);
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

int krylov_gmres_run(krylov *kr, precond *pc, const hdgcl_buffer *b,
                     hdgcl_buffer *x, int *iterations, double *residual, bool *converged) {
  krylov_gmres *g = kr->gmres;
  const int m = g->m;
  size_t n = (size_t)kr->n;
  solve_stats *st = &kr->stats;
  double *hess = NULL, *cs = NULL, *sn = NULL, *gv = NULL, *yv = NULL, *col = NULL, *h2 = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m * (m + 1), sizeof(double), "Hessenberg", &hess), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m, sizeof(double), "Givens", &cs), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m, sizeof(double), "Givens", &sn), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m + 1, sizeof(double), "GMRES rhs", &gv), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m + 1, sizeof(double), "GMRES y", &yv), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m + 2, sizeof(double), "GMRES column", &col), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m + 2, sizeof(double), "GMRES column", &h2), done);

  /* x = 0, r = b, v_0 = r / ||r||. */
  double beta;
  HDGCL_TRY_GOTO(status, hdgcl_buffer_fill(kr->ctx, x, 0, n * 8, 0.0), done);
  HDGCL_TRY_GOTO(status, vec_normalize(kr, b, &g->h1, 0, &g->v, 0, &g->vj), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_read(kr->ctx, &g->h1, 0, 8, &beta), done);
  const double bnorm = beta;
  int it = 0;
  double relres = bnorm > 0 ? 1.0 : 0.0;
  *converged = !(bnorm > 0);
  HDGCL_TRY_GOTO(status, krylov_record_residual(kr, relres), done);
  while (!*converged && it < kr->set.maxit) {
    for (int i = 0; i <= m; i++) gv[i] = 0.0;
    gv[0] = beta;
    int k = 0; /* basis vectors of this cycle */
    for (int j = 0; j < m && it < kr->set.maxit; j++) {
      /* z_j = M^-1 v_j, w = A z_j. */
      HDGCL_TRY_GOTO(status, pc->apply(kr, pc, &g->vj, &g->zj), done);
      HDGCL_TRY_GOTO(status, krylov_spmv(kr, &g->zj, &g->w), done);
      if (g->flexible)
        HDGCL_CL_GOTO(status,
                      clEnqueueCopyBuffer(kr->ctx->queue, g->zj.mem, g->z.mem, 0, (size_t)j * n * 8,
                                          n * 8, 0, NULL, NULL),
                      "clEnqueueCopyBuffer", "FGMRES preconditioned basis", done);
      /* CGS2, then v_{j+1} = w / ||w||. */
      HDGCL_TRY_GOTO(status, vec_mdot(kr, &g->v, j + 1, &g->w, &g->h1, false), done);
      HDGCL_TRY_GOTO(status, vec_basis_subtract(kr, &g->v, j + 1, &g->h1, &g->w), done);
      HDGCL_TRY_GOTO(status, vec_mdot(kr, &g->v, j + 1, &g->w, &g->h2, false), done);
      HDGCL_TRY_GOTO(status, vec_basis_subtract(kr, &g->v, j + 1, &g->h2, &g->w), done);
      HDGCL_TRY_GOTO(status,
                     vec_normalize(kr, &g->w, &g->h1, j + 1, &g->v, (int64_t)(j + 1) * kr->n,
                                   &g->vj),
                     done);
      /* The one host wait of the iteration: the Hessenberg column (h2 read
       * without blocking; the blocking read of h1 after it on the in-order
       * queue waits for both). */
      HDGCL_CL_GOTO(status,
                    clEnqueueReadBuffer(kr->ctx->queue, g->h2.mem, CL_FALSE, 0, (size_t)(j + 1) * 8,
                                        h2, 0, NULL, NULL),
                    "clEnqueueReadBuffer", "GMRES second projection", done);
      HDGCL_TRY_GOTO(status, hdgcl_buffer_read(kr->ctx, &g->h1, 0, (size_t)(j + 2) * 8, col), done);
      for (int i = 0; i <= j; i++) col[i] += h2[i];
      double wnorm = col[j + 1];
      /* Previous rotations, then a new one zeroing col[j+1]. */
      for (int i = 0; i < j; i++) {
        double t = cs[i] * col[i] + sn[i] * col[i + 1];
        col[i + 1] = -sn[i] * col[i] + cs[i] * col[i + 1];
        col[i] = t;
      }
      double rr = hypot(col[j], col[j + 1]);
      cs[j] = rr > 0 ? col[j] / rr : 1.0;
      sn[j] = rr > 0 ? col[j + 1] / rr : 0.0;
      col[j] = rr;
      gv[j + 1] = -sn[j] * gv[j];
      gv[j] = cs[j] * gv[j];
      for (int i = 0; i <= j; i++) hess[(size_t)j * (m + 1) + i] = col[i];
      it++;
      k = j + 1;
      double fi, bi, fp, bp;
      iteration_counts(kr, j, &fi, &bi);
      pc->counts(kr, pc, &fp, &bp);
      st->flops += fi + fp;
      st->bytes += bi + bp;
      relres = fabs(gv[j + 1]) / bnorm;
      HDGCL_TRY_GOTO(status, krylov_record_residual(kr, relres), done);
      if (relres <= kr->set.rtol || !(wnorm > 0) || !isfinite(relres)) break;
    }
    /* y = R^-1 g (back substitution), x += M^-1 V y (or Z y). */
    for (int i = k - 1; i >= 0; i--) {
      double t = gv[i];
      for (int l = i + 1; l < k; l++) t -= hess[(size_t)l * (m + 1) + i] * yv[l];
      double d = hess[(size_t)i * (m + 1) + i];
      if (!isfinite(t) || !isfinite(d)) {
        status = hdgcl_error(HDGCL_ERROR_CONVERGENCE, KRYLOV_NOT_FINITE, "GMRES", "NaN", it);
        goto done;
      }
      if (!(d != 0.0)) {
        status = hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                             "GMRES breakdown: singular Hessenberg matrix after %d iterations", it);
        goto done;
      }
      yv[i] = t / d;
    }
    HDGCL_TRY_GOTO(status, hdgcl_buffer_write(kr->ctx, &g->y, 0, (size_t)k * 8, yv), done);
    if (g->flexible) {
      HDGCL_TRY_GOTO(status, vec_basis_combine(kr, &g->z, k, &g->y, true, x), done);
    } else {
      HDGCL_TRY_GOTO(status, vec_basis_combine(kr, &g->v, k, &g->y, false, &g->w), done);
      HDGCL_TRY_GOTO(status, pc->apply(kr, pc, &g->w, &g->zj), done);
      HDGCL_TRY_GOTO(status, vec_axpby(kr, 1.0, &g->zj, 1.0, x), done);
    }
    /* True residual r = b - A x; v_0 = r / ||r|| for the next cycle. */
    HDGCL_TRY_GOTO(status, krylov_spmv(kr, x, &g->r), done);
    HDGCL_TRY_GOTO(status, vec_residual(kr, b, &g->r), done);
    HDGCL_TRY_GOTO(status, vec_normalize(kr, &g->r, &g->h1, 0, &g->v, 0, &g->vj), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_read(kr->ctx, &g->h1, 0, 8, &beta), done);
    relres = beta / bnorm;
    *converged = relres <= kr->set.rtol;
    if (!isfinite(relres)) break;
  }
  *iterations = it;
  *residual = relres;
  status = HDGCL_SUCCESS;
done:
  if (status != HDGCL_SUCCESS) clFinish(kr->ctx->queue); /* no read may still target h2 */
  free(hess);
  free(cs);
  free(sn);
  free(gv);
  free(yv);
  free(col);
  free(h2);
  return status;
}

void krylov_gmres_destroy(krylov *kr) {
  krylov_gmres *g = kr->gmres;
  if (!g) return;
  hdgcl_buffer *bufs[] = {&g->v, &g->z, &g->w, &g->vj, &g->zj, &g->r, &g->h1, &g->h2, &g->y};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) hdgcl_buffer_release(kr->ctx, bufs[i]);
  free(g);
  kr->gmres = NULL;
}
