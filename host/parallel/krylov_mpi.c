/* The distributed preconditioned CG and GMRES on the device (krylov_mpi.h; kernels:
 * cl/parallel/krylov_mpi.cl, with group_partials2 of cl/solvers/vectors.cl and
 * trace_block_entry, posdef_invert_in_place of cl/solvers/trace_matrix.h).
 *
 * Every rank holds its part's assembled matrix A_r on its device (the rows of
 * its cut faces hold its share only, docs/mpi.md) and the vectors x, r, z, p,
 * q = A p (GMRES: its basis) of its unknowns, consistent (equal on both
 * ranks of a cut face):
 *   q = A p: the serial SpMV kernel on A_r (krylov_spmv), then the halo: a
 *     kernel packs the cut faces' blocks of q into a small buffer, the host
 *     reads it, sends it to each neighbour and receives theirs (MPI_Isend /
 *     MPI_Irecv; the receives are posted while the enqueued product runs,
 *     before the gather), writes what came and a kernel adds it;
 *   dot products: a kernel's per-group partial sums over the rows the rank
 *     owns, read back, summed on the host in a fixed order, MPI_Allreduce;
 *   b and the diagonal blocks are summed across the cut the same way, once.
 * Overlap (HDGCL_MPI_OVERLAP=1; off by default: on 4 H200s it made the
 * product slower, docs/mpi.md "Scaling"):
 * with a subassembled operator the values to send are the product's own cut
 * rows, so the product is split: the cut faces' rows first (mpi_spmv_rows),
 * their packing and a non-blocking read, then the interior rows, which the
 * device runs while the host exchanges the messages (spmv_overlapped).
 *
 * HDGCL_MPI_SKIP_HALO=1 (hidden, for tests) skips every halo sum: the answer
 * must then be wrong, which tests/cli_mpi.sh checks. */
#include "parallel/krylov_mpi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/error.h"
#include "core/profile.h"
#include "solvers/precond.h"
#include "solvers/spmv.h"
#include "solvers/solver_settings.h"

static const char *const files[] = {"core/common.h", "solvers/trace_matrix.h", "solvers/vectors.cl",
                                    "solvers/precond_chebyshev.cl", "solvers/precond_asm.cl",
                                    "parallel/krylov_mpi.cl"};

#define CHEB_LANCZOS_STEPS 10 /* the serial estimate's (solvers/precond_chebyshev.c) */

typedef struct mpi_cg {
  krylov *kr;
  hdgcl_context ctx;
  const parallel_part *part;
  cl_program program;
  cl_kernel gather, scatter, dot2, xr, up, diag, invert, bapply, japply;
  cl_kernel mdot, scale_inv, subtract, combine, axpby, residual; /* GMRES */
  cl_kernel rows_k;         /* mpi_spmv_rows: the overlapped product */
  hdgcl_buffer cut, inner;  /* face rows of the cut faces, and the others */
  int ncut, ninner;
  bool overlap;             /* HDGCL_MPI_OVERLAP (default 0) */
  /* Chebyshev: inner kind, degree, interval; w = M^-1 res, d, res */
  int cheb_inner, cheb_degree;
  double lmin, lmax;
  cl_kernel cfirst, cstep;
  hdgcl_buffer cw, cd, cres;
  /* --cheb-mixed: the serial spmv_bell_mixed on a float copy of A_r (kr's program) */
  cl_kernel to_float, spmv_mixed;
  hdgcl_buffer fvalues;
  const hdg_numbering *num;
  /* ASM: element patches' inverses (solvers/precond_asm.cl's apply) */
  cl_kernel asm_setup, asm_apply;
  hdgcl_buffer ainv;
  hdgcl_buffer b, r, z, p, q, idx, send, recv, owned, blocks, dinv, partial;
  hdgcl_buffer v, h, y; /* GMRES: basis [m+1][n], Hessenberg column, coefficients */
  double *hsend, *hrecv, *hpartial;
  int m; /* GMRES restart (0: CG) */
  MPI_Request *req;
  int nshared, n, rows, nf;
  size_t wg;
  int groups;
  bool skip_halo;
  mpi_krylov_stats *stats;
  /* From an initial guess (docs/time.md (T5)): x0, and ||b - A x0|| / ||b|| */
  bool guess;
  hdgcl_buffer g;
  double scale;
} mpi_cg;

static int launch(mpi_cg *c, cl_kernel k, int nargs, const hdgcl_arg *args, size_t global,
                  size_t local) {
  if (!global) return HDGCL_SUCCESS;
  return krylov_launch(c->kr, k, nargs, args, global, local);
}

/* The exchange's four steps, shared by halo_sum and spmv_overlapped: one
 * receive (and one send) per neighbour of its slice of the cut faces'
 * blocks (pf values each), and the packing and adding kernels. */
static int post_receives(mpi_cg *c, int pf, int *nr) {
  const parallel_part *p = c->part;
  for (int i = 0; i < p->num_neighbours; i++) {
    int k0 = p->offset[i], cnt = (p->offset[i + 1] - k0) * pf;
    MPI_TRY(MPI_Irecv(c->hrecv + (size_t)k0 * pf, cnt, MPI_DOUBLE, p->neighbour[i], 29, p->comm,
                      &c->req[(*nr)++]));
  }
  return HDGCL_SUCCESS;
}

static int post_sends(mpi_cg *c, int pf, int *nr) {
  const parallel_part *p = c->part;
  for (int i = 0; i < p->num_neighbours; i++) {
    int k0 = p->offset[i], cnt = (p->offset[i + 1] - k0) * pf;
    MPI_TRY(MPI_Isend(c->hsend + (size_t)k0 * pf, cnt, MPI_DOUBLE, p->neighbour[i], 29, p->comm,
                      &c->req[(*nr)++]));
  }
  return HDGCL_SUCCESS;
}

/* send = the cut faces' blocks of y (mpi_halo_gather), or y += recv (mpi_halo_scatter_add). */
static int halo_kernel(mpi_cg *c, cl_kernel k, const hdgcl_buffer *from, const hdgcl_buffer *to,
                       int pf) {
  cl_int count = c->nshared, cpf = pf;
  hdgcl_arg a[] = {HDGCL_ARG(count), HDGCL_ARG(cpf), HDGCL_ARG(c->idx.mem), HDGCL_ARG(from->mem),
                   HDGCL_ARG(to->mem)};
  return launch(c, k, 5, a, (size_t)c->nshared * pf, 0);
}

/* y += the neighbours' shares of the cut faces' blocks (pf values each). */
static int halo_sum(mpi_cg *c, hdgcl_buffer *y, int pf) {
  const parallel_part *p = c->part;
  if (c->skip_halo || p->num_neighbours == 0) return HDGCL_SUCCESS;
  double t = hdgcl_wtime();
  int nr = 0;
  HDGCL_TRY(post_receives(c, pf, &nr));
  size_t bytes = (size_t)c->nshared * pf * 8;
  HDGCL_TRY(halo_kernel(c, c->gather, y, &c->send, pf));
  HDGCL_TRY(hdgcl_buffer_read(c->ctx, &c->send, 0, bytes, c->hsend));
  HDGCL_TRY(post_sends(c, pf, &nr));
  MPI_TRY(MPI_Waitall(nr, c->req, MPI_STATUSES_IGNORE));
  HDGCL_TRY(hdgcl_buffer_write(c->ctx, &c->recv, 0, bytes, c->hrecv));
  HDGCL_TRY(halo_kernel(c, c->scatter, &c->recv, y, pf));
  c->stats->halo_seconds += hdgcl_wtime() - t;
  c->stats->halo_bytes += (int64_t)bytes;
  return HDGCL_SUCCESS;
}

/* out[0] = (a, b), out[1] = (a, cc), global (owned rows, summed over ranks). */
static int dot2(mpi_cg *c, const hdgcl_buffer *a, const hdgcl_buffer *b, const hdgcl_buffer *cc,
                double out[2]) {
  cl_int n = c->n;
  hdgcl_arg args[] = {HDGCL_ARG(n),      HDGCL_ARG(c->owned.mem), HDGCL_ARG(a->mem),
                      HDGCL_ARG(b->mem), HDGCL_ARG(cc->mem),      HDGCL_ARG(c->partial.mem)};
  HDGCL_TRY(launch(c, c->dot2, 6, args, c->wg * c->groups, c->wg));
  double t = hdgcl_wtime();
  HDGCL_TRY(hdgcl_buffer_read(c->ctx, &c->partial, 0, (size_t)c->groups * 16, c->hpartial));
  double s[2] = {0.0, 0.0};
  for (int g = 0; g < c->groups; g++) {
    s[0] += c->hpartial[2 * g];
    s[1] += c->hpartial[2 * g + 1];
  }
  MPI_TRY(MPI_Allreduce(s, out, 2, MPI_DOUBLE, MPI_SUM, c->part->comm));
  c->stats->reduce_seconds += hdgcl_wtime() - t;
  return HDGCL_SUCCESS;
}

/* y = A x on the face rows of `list` (count of them), mpi_spmv_rows. */
static int rows_product(mpi_cg *c, const hdgcl_buffer *list, int count, const hdgcl_buffer *x,
                        hdgcl_buffer *y, cl_event *event) {
  if (!count) return HDGCL_SUCCESS;
  const linear_system *sys = &c->kr->sys;
  const hdgcl_buffer *cols = sys->format == FORMAT_ELL ? sys->cols : sys->block_cols;
  cl_int cnt = count, nu = c->rows;
  hdgcl_arg a[] = {HDGCL_ARG(cnt),       HDGCL_ARG(list->mem),        HDGCL_ARG(nu),
                   HDGCL_ARG(cols->mem), HDGCL_ARG(sys->values->mem), HDGCL_ARG(x->mem),
                   HDGCL_ARG(y->mem)};
  size_t global = (size_t)count * c->nf;
  HDGCL_TRY(hdgcl_kernel_set_args(c->rows_k, 7, a));
  return hdgcl_kernel_launch(c->ctx, c->rows_k, 1, &global, NULL, event);
}

/* y = A x with the halo sum overlapped (docs/mpi.md): the cut faces' rows,
 * their packing and a non-blocking read of the pack are enqueued, then the
 * other rows; the host waits for the read only (the in-order queue runs the
 * interior rows next), sends and receives while they run, then writes what
 * came and adds it.  Every row is the serial kernel's sum, so y equals
 * krylov_spmv + halo_sum bit for bit.  Hidden time: the interior rows' device
 * time, up to the exchange's host time (both start when the read is done). */
static int spmv_overlapped(mpi_cg *c, const hdgcl_buffer *x, hdgcl_buffer *y) {
  const int pf = c->nf;
  double t = hdgcl_wtime();
  int nr = 0;
  HDGCL_TRY(post_receives(c, pf, &nr));
  HDGCL_TRY(rows_product(c, &c->cut, c->ncut, x, y, NULL));
  size_t bytes = (size_t)c->nshared * pf * 8;
  HDGCL_TRY(halo_kernel(c, c->gather, y, &c->send, pf));
  cl_event read = NULL, inner = NULL;
  HDGCL_CL(clEnqueueReadBuffer(c->ctx->queue, c->send.mem, CL_FALSE, 0, bytes, c->hsend, 0, NULL,
                               &read), "clEnqueueReadBuffer", "halo send (overlapped product)");
  int status = rows_product(c, &c->inner, c->ninner, x, y, &inner);
  if (status == HDGCL_SUCCESS)
    HDGCL_CL_GOTO(status, clFlush(c->ctx->queue), "clFlush", "overlapped product", out);
  if (status == HDGCL_SUCCESS)
    HDGCL_CL_GOTO(status, clWaitForEvents(1, &read), "clWaitForEvents", "halo send", out);
  if (status != HDGCL_SUCCESS) goto out;
  double tx = hdgcl_wtime();
  HDGCL_TRY_GOTO(status, post_sends(c, pf, &nr), out);
  MPI_TRY_GOTO(status, MPI_Waitall(nr, c->req, MPI_STATUSES_IGNORE), out);
  double exchange = hdgcl_wtime() - tx;
  HDGCL_TRY_GOTO(status, hdgcl_buffer_write(c->ctx, &c->recv, 0, bytes, c->hrecv), out);
  HDGCL_TRY_GOTO(status, halo_kernel(c, c->scatter, &c->recv, y, pf), out);
  /* the blocking write ran after the interior rows (in-order queue) */
  double interior = inner ? hdgcl_event_seconds(inner) : 0.0;
  c->stats->hidden_seconds += interior < exchange ? interior : exchange;
  c->stats->halo_seconds += hdgcl_wtime() - t;
  c->stats->halo_bytes += (int64_t)bytes;
out:
  if (read) clReleaseEvent(read);
  if (inner && c->ctx->profile) /* --profile: the launch's time in the kernel table too */
    profile_record(c->ctx, "mpi_spmv_rows", inner);
  else if (inner)
    clReleaseEvent(inner);
  return status;
}

static int spmv(mpi_cg *c, const hdgcl_buffer *x, hdgcl_buffer *y) {
  if (c->overlap && !c->skip_halo && c->part->num_neighbours > 0)
    return spmv_overlapped(c, x, y);
  if (c->n) HDGCL_TRY(krylov_spmv(c->kr, x, y));
  return halo_sum(c, y, c->nf);
}

static int chebyshev_apply(mpi_cg *c, const hdgcl_buffer *r, hdgcl_buffer *z);

static int precondition(mpi_cg *c, int kind, const hdgcl_buffer *r, hdgcl_buffer *z) {
  cl_int n = c->n;
  if (kind == PRECOND_CHEBYSHEV) return chebyshev_apply(c, r, z);
  if (kind == PRECOND_ASM) { /* each rank its elements' patches; the cut rows' shares summed */
    const element_patches *d = &c->kr->sys.patches;
    hdgcl_arg a[] = {HDGCL_ARG(c->rows),             HDGCL_ARG(d->unknown_face->mem),
                     HDGCL_ARG(d->elem_faces->mem), HDGCL_ARG(d->face_elems->mem),
                     HDGCL_ARG(d->face_local->mem), HDGCL_ARG(d->face_unknown->mem),
                     HDGCL_ARG(c->ainv.mem),        HDGCL_ARG(r->mem),
                     HDGCL_ARG(z->mem)};
    HDGCL_TRY(launch(c, c->asm_apply, 9, a, (size_t)n, 0));
    return halo_sum(c, z, c->nf);
  }
  if (kind == PRECOND_BLOCK_JACOBI) {
    hdgcl_arg a[] = {HDGCL_ARG(n), HDGCL_ARG(c->blocks.mem), HDGCL_ARG(r->mem), HDGCL_ARG(z->mem)};
    return launch(c, c->bapply, 4, a, (size_t)n, 0);
  }
  if (kind == PRECOND_JACOBI) {
    hdgcl_arg a[] = {HDGCL_ARG(n), HDGCL_ARG(c->dinv.mem), HDGCL_ARG(r->mem), HDGCL_ARG(z->mem)};
    return launch(c, c->japply, 4, a, (size_t)n, 0);
  }
  return n ? hdgcl_buffer_copy(c->ctx, r, z, (size_t)n * 8) : HDGCL_SUCCESS;
}

/* z = p(M^-1 A) M^-1 r: the serial Chebyshev preconditioner's recurrence
 * (solvers/precond_chebyshev.c, apply; Saad Algorithm 12.1) with the
 * distributed product and the inner (block-)Jacobi on the summed blocks:
 * cheb_degree inner applications, cheb_degree - 1 products. */
static int chebyshev_apply(mpi_cg *c, const hdgcl_buffer *r, hdgcl_buffer *z) {
  cl_int n = c->n;
  double theta = 0.5 * (c->lmax + c->lmin), delta = 0.5 * (c->lmax - c->lmin);
  double sigma = theta / delta, rho_prev = 1.0 / sigma, first = 1.0 / theta;
  HDGCL_TRY(precondition(c, c->cheb_inner, r, &c->cw));
  hdgcl_arg a[] = {HDGCL_ARG(n), HDGCL_ARG(first), HDGCL_ARG(c->cw.mem), HDGCL_ARG(c->cd.mem),
                   HDGCL_ARG(z->mem)};
  HDGCL_TRY(launch(c, c->cfirst, 5, a, (size_t)n, 0));
  for (int i = 1; i < c->cheb_degree; i++) {
    /* res = r - A z, w = M^-1 res, d = rho rho_prev d + 2 rho / delta w, z += d */
    if (c->spmv_mixed) { /* single-precision values, the plain product and its halo sum */
      cl_int rows = c->rows;
      hdgcl_arg m[] = {HDGCL_ARG(rows), HDGCL_ARG(c->kr->sys.block_cols->mem),
                       HDGCL_ARG(c->fvalues.mem), HDGCL_ARG(z->mem), HDGCL_ARG(c->cres.mem)};
      HDGCL_TRY(launch(c, c->spmv_mixed, 5, m, (size_t)n, 0));
      HDGCL_TRY(halo_sum(c, &c->cres, c->nf));
    } else {
      HDGCL_TRY(spmv(c, z, &c->cres));
    }
    hdgcl_arg rs[] = {HDGCL_ARG(n), HDGCL_ARG(r->mem), HDGCL_ARG(c->cres.mem)};
    HDGCL_TRY(launch(c, c->residual, 3, rs, (size_t)n, 0));
    HDGCL_TRY(precondition(c, c->cheb_inner, &c->cres, &c->cw));
    double rho = 1.0 / (2.0 * sigma - rho_prev);
    double c1 = rho * rho_prev, c2 = 2.0 * rho / delta;
    hdgcl_arg b[] = {HDGCL_ARG(n), HDGCL_ARG(c1), HDGCL_ARG(c2), HDGCL_ARG(c->cw.mem),
                     HDGCL_ARG(c->cd.mem), HDGCL_ARG(z->mem)};
    HDGCL_TRY(launch(c, c->cstep, 6, b, (size_t)n, 0));
    rho_prev = rho;
  }
  return HDGCL_SUCCESS;
}

/* A pseudo-random value in [-0.5, 0.5) of a trace unknown, from its global
 * face and mode (splitmix64), so both ranks of a cut face make the same. */
static double start_value(int64_t global_face, int m, int nf) {
  uint64_t z = (uint64_t)(global_face * nf + m) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (double)(z >> 11) / 9007199254740992.0 - 0.5;
}

/* The Chebyshev interval, estimated globally as the serial setup does
 * (precond_chebyshev.c, estimate_bounds): CHEB_LANCZOS_STEPS steps of CG
 * preconditioned by the inner (block-)Jacobi, stopping at 1e-10, from a
 * pseudo-random vector (here one keyed on the global face, consistent
 * across the cut, so not the serial one: the bounds agree to the estimate's
 * accuracy, not bit for bit), with distributed products and reduced dot
 * products; its coefficients give the interval by the serial rule
 * (precond_chebyshev_interval).  Every rank computes the same scalars;
 * rank 0's bounds are broadcast so that all use identical ones.  Uses r, z,
 * p, q and cd (as x) before the solve initialises them. */
static int chebyshev_setup(mpi_cg *c) {
  cl_int n = c->n;
  size_t bytes = (size_t)n * 8;
  double *v;
  HDGCL_TRY(hdgcl_calloc((size_t)n + 1, sizeof *v, "Lanczos start vector", &v));
  for (int u = 0; u < c->rows; u++)
    for (int m = 0; m < c->nf; m++)
      v[(size_t)u * c->nf + m] =
          start_value(c->part->face_global[c->num->unknown_face[u]], m, c->nf);
  int status = n ? hdgcl_buffer_write(c->ctx, &c->r, 0, bytes, v) : HDGCL_SUCCESS;
  free(v);
  HDGCL_TRY(status);
  if (n) HDGCL_TRY(hdgcl_buffer_fill(c->ctx, &c->cd, 0, bytes, 0.0));
  double d[2], alpha[CG_COEFFS], beta[CG_COEFFS];
  HDGCL_TRY(precondition(c, c->cheb_inner, &c->r, &c->z));
  if (n) HDGCL_TRY(hdgcl_buffer_copy(c->ctx, &c->z, &c->p, bytes));
  HDGCL_TRY(dot2(c, &c->r, &c->z, &c->r, d));
  double rz = d[0], r0 = sqrt(d[1]);
  int k = 0;
  for (int j = 0; j < CHEB_LANCZOS_STEPS && j < CG_COEFFS; j++) {
    HDGCL_TRY(spmv(c, &c->p, &c->q));
    HDGCL_TRY(dot2(c, &c->p, &c->q, &c->q, d));
    alpha[j] = rz / d[0];
    hdgcl_arg xr[] = {HDGCL_ARG(n), HDGCL_ARG(alpha[j]), HDGCL_ARG(c->p.mem), HDGCL_ARG(c->q.mem),
                      HDGCL_ARG(c->cd.mem), HDGCL_ARG(c->r.mem)};
    HDGCL_TRY(launch(c, c->xr, 6, xr, (size_t)n, 0));
    HDGCL_TRY(precondition(c, c->cheb_inner, &c->r, &c->z));
    HDGCL_TRY(dot2(c, &c->r, &c->z, &c->r, d));
    beta[j] = d[0] / rz;
    rz = d[0];
    k = j + 1;
    if (!(sqrt(d[1]) > 1e-10 * r0)) break;
    hdgcl_arg up[] = {HDGCL_ARG(n), HDGCL_ARG(beta[j]), HDGCL_ARG(c->z.mem), HDGCL_ARG(c->p.mem)};
    HDGCL_TRY(launch(c, c->up, 4, up, (size_t)n, 0));
  }
  double bounds[2] = {0.0, 0.0};
  int ok = precond_chebyshev_interval(k, alpha, beta, &bounds[0], &bounds[1]);
  HDGCL_TRY(ok);
  MPI_TRY(MPI_Bcast(bounds, 2, MPI_DOUBLE, 0, c->part->comm));
  c->lmin = bounds[0];
  c->lmax = bounds[1];
  c->stats->eig_min = c->lmin;
  c->stats->eig_max = c->lmax;
  return HDGCL_SUCCESS;
}

/* The summed diagonal blocks, inverted (block-Jacobi) or their diagonals'
 * inverses (Jacobi), on the device; Chebyshev: its inner one's, then the
 * global eigenvalue estimate. */
static int precond_setup(mpi_cg *c, int kind) {
  if (kind == PRECOND_CHEBYSHEV) {
    if (c->to_float) { /* as the serial setup: the float copy of this solve's matrix */
      cl_long entries = (cl_long)c->n * c->kr->sys.nslots * c->nf;
      hdgcl_arg a[] = {HDGCL_ARG(entries), HDGCL_ARG(c->kr->sys.values->mem),
                       HDGCL_ARG(c->fvalues.mem)};
      size_t global = entries < (1 << 20) ? (size_t)entries : (size_t)1 << 20;
      HDGCL_TRY(launch(c, c->to_float, 3, a, global, 0));
    }
    HDGCL_TRY(precond_setup(c, c->cheb_inner));
    return chebyshev_setup(c);
  }
  if (kind != PRECOND_BLOCK_JACOBI && kind != PRECOND_JACOBI && kind != PRECOND_ASM)
    return HDGCL_SUCCESS;
  cl_int rows = c->rows, block = kind == PRECOND_BLOCK_JACOBI;
  hdgcl_arg d[] = {HDGCL_ARG(rows), HDGCL_ARG(c->kr->sys.values->mem), HDGCL_ARG(c->blocks.mem)};
  HDGCL_TRY(launch(c, c->diag, 3, d, (size_t)rows * c->nf * c->nf, 0));
  HDGCL_TRY(halo_sum(c, &c->blocks, c->nf * c->nf));
  if (kind == PRECOND_ASM) {
    const element_patches *p = &c->kr->sys.patches;
    cl_int ne = p->num_elements;
    hdgcl_arg a[] = {HDGCL_ARG(ne),
                     HDGCL_ARG(rows),
                     HDGCL_ARG(p->elem_faces->mem),
                     HDGCL_ARG(p->face_elems->mem),
                     HDGCL_ARG(p->face_unknown->mem),
                     HDGCL_ARG(c->kr->sys.values->mem),
                     HDGCL_ARG(c->blocks.mem),
                     HDGCL_ARG(c->ainv.mem)};
    return launch(c, c->asm_setup, 8, a, (size_t)ne, 0);
  }
  hdgcl_arg v[] = {HDGCL_ARG(rows), HDGCL_ARG(block), HDGCL_ARG(c->blocks.mem),
                   HDGCL_ARG(c->dinv.mem)};
  return launch(c, c->invert, 4, v, (size_t)rows, 0);
}

static int create(mpi_cg *c, krylov *kr, const parallel_part *part, const hdg_numbering *num,
                  int pc_kind) {
  c->kr = kr;
  c->ctx = kr->ctx;
  c->num = num;
  c->cheb_inner = kr->set.cheb_inner;
  c->cheb_degree = kr->set.cheb_degree > 0 ? kr->set.cheb_degree : 1;
  c->part = part;
  c->n = kr->n;
  c->rows = kr->rows;
  c->nf = kr->sys.nf;
  c->nshared = part->offset[part->num_neighbours];
  c->wg = kr->vec.wg;
  size_t need = ((size_t)c->n + c->wg - 1) / c->wg;
  c->groups = (int)(need < 1 ? 1 : need > DOT_GROUPS ? DOT_GROUPS : need);
  const char *e = getenv("HDGCL_MPI_SKIP_HALO");
  c->skip_halo = e && *e && strcmp(e, "0") != 0;
  e = getenv("HDGCL_MPI_OVERLAP");
  c->overlap = e && *e && strcmp(e, "0") != 0;
  c->stats->overlap = c->overlap && !c->skip_halo && part->size > 1;
  char options[1536];
  snprintf(options, sizeof options, "%s -DDOT_WG=%zu -DDOT_GROUPS=%d -DMDOT_MAX=%d%s%s",
           kr->sys.options, c->wg, DOT_GROUPS, MDOT_MAX,
           FORMAT_INTERLEAVED(kr->sys.format) ? " -DINTERLEAVED" : "",
           kr->sys.format == FORMAT_ELL ? " -DMPI_ELL" : "");
  HDGCL_TRY(hdgcl_program_get(c->ctx, files, (int)(sizeof files / sizeof *files), options,
                              &c->program));
  struct { cl_kernel *k; const char *name; } ks[] = {
      {&c->gather, "mpi_halo_gather"}, {&c->scatter, "mpi_halo_scatter_add"},
      {&c->dot2, "mpi_owned_dot2"},    {&c->xr, "mpi_cg_update_xr"},
      {&c->up, "mpi_cg_update_p"},     {&c->diag, "mpi_diag_blocks"},
      {&c->invert, "mpi_diag_invert"}, {&c->bapply, "mpi_block_apply"},
      {&c->japply, "mpi_jacobi_apply"}, {&c->rows_k, "mpi_spmv_rows"},
      {&c->cfirst, "chebyshev_first"}, {&c->cstep, "chebyshev_step"},
      {&c->residual, "vec_residual"}, {&c->axpby, "vec_axpby"}};
  for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
    HDGCL_TRY(hdgcl_kernel_create(c->program, ks[i].name, ks[i].k));
  if (kr->set.solver == SOLVER_GMRES) { /* the serial GMRES's vector kernels (vectors.cl) */
    c->m = kr->set.restart;
    if (c->m < 1 || c->m > MDOT_MAX - 2)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "distributed GMRES: --restart %d outside 1..%d",
                         c->m, MDOT_MAX - 2);
    struct { cl_kernel *k; const char *name; } gk[] = {
        {&c->mdot, "mpi_owned_mdot"},      {&c->scale_inv, "scale_inv"},
        {&c->subtract, "basis_subtract"},  {&c->combine, "basis_combine"}};
    for (size_t i = 0; i < sizeof gk / sizeof *gk; i++)
      HDGCL_TRY(hdgcl_kernel_create(c->program, gk[i].name, gk[i].k));
    HDGCL_TRY(hdgcl_buffer_create(c->ctx, ((size_t)c->m + 1) * ((size_t)c->n + 1) * 8,
                                  "distributed GMRES basis", &c->v));
    HDGCL_TRY(hdgcl_buffer_create(c->ctx, ((size_t)c->m + 2) * 8, "GMRES column", &c->h));
    HDGCL_TRY(hdgcl_buffer_create(c->ctx, ((size_t)c->m + 2) * 8, "GMRES coefficients", &c->y));
  }
  size_t vb = ((size_t)c->n + 1) * 8, bb = (size_t)c->nf * c->nf;
  size_t hb = ((size_t)c->nshared * bb + 1) * 8;
  hdgcl_buffer *vecs[] = {&c->b, &c->r, &c->z, &c->p, &c->q, &c->dinv, &c->cw, &c->cd, &c->cres};
  size_t nvecs = sizeof vecs / sizeof *vecs - (pc_kind == PRECOND_CHEBYSHEV ? 0 : 3);
  if (pc_kind == PRECOND_CHEBYSHEV && kr->set.cheb_mixed) { /* kernels of cl/solvers/spmv.cl */
    char only[64]; /* its own small program, as the serial Chebyshev's (precond_chebyshev.c) */
    snprintf(only, sizeof only, KRYLOV_HELPERS_ONLY " -DSPMV_ONLY=%d", (int)SPMV_BELL_MIXED);
    cl_program mixed;
    HDGCL_TRY(krylov_program(kr, "solvers/spmv.cl", only, &mixed));
    HDGCL_TRY(hdgcl_kernel_create(mixed, "values_to_float", &c->to_float));
    HDGCL_TRY(hdgcl_kernel_create(mixed, spmv_kernel_name(SPMV_BELL_MIXED), &c->spmv_mixed));
    size_t entries = (size_t)(c->n ? c->n : 1) * kr->sys.nslots * c->nf;
    HDGCL_TRY(hdgcl_buffer_create(c->ctx, entries * 4, "Chebyshev single-precision matrix",
                                  &c->fvalues));
  }
  if (pc_kind == PRECOND_ASM) {
    size_t nt = (size_t)kr->sys.patches.nt;
    HDGCL_TRY(hdgcl_kernel_create(c->program, "mpi_asm_setup", &c->asm_setup));
    HDGCL_TRY(hdgcl_kernel_create(c->program, "asm_apply", &c->asm_apply));
    HDGCL_TRY(hdgcl_buffer_create(c->ctx, ((size_t)kr->sys.patches.num_elements * nt * nt + 1) * 8,
                                  "additive Schwarz patch inverses", &c->ainv));
  }
  for (size_t i = 0; i < nvecs; i++)
    HDGCL_TRY(hdgcl_buffer_create(c->ctx, vb, "distributed CG vector", vecs[i]));
  HDGCL_TRY(hdgcl_buffer_create(c->ctx, ((size_t)c->rows * bb + 1) * 8, "diagonal blocks",
                                &c->blocks));
  HDGCL_TRY(hdgcl_buffer_create(c->ctx, hb, "halo send", &c->send));
  HDGCL_TRY(hdgcl_buffer_create(c->ctx, hb, "halo receive", &c->recv));
  HDGCL_TRY(hdgcl_buffer_create(c->ctx, (size_t)DOT_GROUPS * MDOT_MAX * 8, "owned partial sums",
                                &c->partial));
  HDGCL_TRY(hdgcl_calloc((size_t)c->nshared * bb + 1, sizeof(double), "halo", &c->hsend));
  HDGCL_TRY(hdgcl_calloc((size_t)c->nshared * bb + 1, sizeof(double), "halo", &c->hrecv));
  HDGCL_TRY(hdgcl_calloc((size_t)DOT_GROUPS * MDOT_MAX, sizeof(double), "partial sums",
                         &c->hpartial));
  HDGCL_TRY(hdgcl_calloc((size_t)2 * part->num_neighbours + 1, sizeof *c->req, "halo requests",
                         &c->req));
  /* the cut faces' unknown rows, in message order; the owned rows; the
   * overlapped product's two row lists (cut faces' rows, the others) */
  int *idx = NULL, *cut = NULL, *inner = NULL;
  char *owned = NULL, *is_cut = NULL;
  int status = HDGCL_SUCCESS;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)c->nshared + 1, sizeof *idx, "halo rows", &idx), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)c->rows + 1, 1, "owned rows", &owned), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)c->rows + 1, 1, "cut rows", &is_cut), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)c->rows + 1, sizeof *cut, "cut rows", &cut), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)c->rows + 1, sizeof *inner, "interior rows", &inner),
                 done);
  for (int k = 0; k < c->nshared; k++) idx[k] = num->face_unknown[part->shared[k]];
  for (int u = 0; u < c->rows; u++) owned[u] = part->face_owned[num->unknown_face[u]] ? 1 : 0;
  for (int k = 0; k < c->nshared; k++) is_cut[idx[k]] = 1;
  for (int u = 0; u < c->rows; u++) {
    if (is_cut[u]) cut[c->ncut++] = u;
    else inner[c->ninner++] = u;
  }
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(c->ctx, ((size_t)c->ncut + 1) * sizeof *cut,
                                             "cut rows", &c->cut), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(c->ctx, ((size_t)c->ninner + 1) * sizeof *inner,
                                             "interior rows", &c->inner), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_write(c->ctx, &c->cut, 0, ((size_t)c->ncut + 1) * sizeof *cut,
                                            cut), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_write(c->ctx, &c->inner, 0,
                                            ((size_t)c->ninner + 1) * sizeof *inner, inner), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(c->ctx, ((size_t)c->nshared + 1) * sizeof *idx,
                                             "halo rows", &c->idx), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(c->ctx, (size_t)c->rows + 1, "owned rows", &c->owned),
                 done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_write(c->ctx, &c->idx, 0, ((size_t)c->nshared + 1) * sizeof *idx,
                                            idx), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_write(c->ctx, &c->owned, 0, (size_t)c->rows + 1, owned), done);
done:
  free(idx);
  free(owned);
  free(is_cut);
  free(cut);
  free(inner);
  return status;
}

static void destroy(mpi_cg *c) {
  cl_kernel k[] = {c->gather, c->scatter, c->dot2,      c->xr,       c->up,
                   c->diag,   c->invert,  c->bapply,    c->japply,   c->mdot,
                   c->scale_inv, c->subtract, c->combine, c->axpby, c->residual, c->rows_k,
                   c->cfirst, c->cstep, c->asm_setup, c->asm_apply, c->to_float,
                   c->spmv_mixed};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (k[i]) clReleaseKernel(k[i]);
  hdgcl_buffer *b[] = {&c->b,   &c->r,     &c->z,    &c->p,      &c->q,      &c->idx,
                       &c->send, &c->recv, &c->owned, &c->blocks, &c->dinv, &c->partial,
                       &c->v,    &c->h,    &c->y,      &c->cut,    &c->inner,
                       &c->cw,   &c->cd,   &c->cres,   &c->ainv,   &c->fvalues, &c->g};
  for (size_t i = 0; i < sizeof b / sizeof *b; i++) hdgcl_buffer_release(c->ctx, b[i]);
  free(c->hsend);
  free(c->hrecv);
  free(c->hpartial);
  free(c->req);
}

/* From the initial guess x0 in kr->x (the previous stage's trace, the same on
 * both ranks of a cut face), as the serial solve from a guess (docs/time.md
 * (T5)): b (summed) becomes r0 = b - A x0 and rtol the tolerance relative to
 * ||r0|| that means rtol relative to ||b||; mpi_krylov_solve adds x0 to the
 * correction and scales the residuals back. */
static int guess_residual(mpi_cg *c, double *rtol) {
  size_t bytes = (size_t)c->n * 8;
  cl_int n = c->n;
  HDGCL_TRY(hdgcl_buffer_create(c->ctx, bytes + 8, "initial guess", &c->g));
  if (n) HDGCL_TRY(hdgcl_buffer_copy(c->ctx, &c->kr->x, &c->g, bytes));
  HDGCL_TRY(spmv(c, &c->g, &c->r));
  hdgcl_arg rs[] = {HDGCL_ARG(n), HDGCL_ARG(c->b.mem), HDGCL_ARG(c->r.mem)};
  HDGCL_TRY(launch(c, c->residual, 3, rs, (size_t)n, 0));
  double bb[2], rr[2];
  HDGCL_TRY(dot2(c, &c->b, &c->b, &c->b, bb));
  HDGCL_TRY(dot2(c, &c->r, &c->r, &c->r, rr));
  c->scale = bb[0] > 0 ? sqrt(rr[0] / bb[0]) : 0.0;
  if (n) HDGCL_TRY(hdgcl_buffer_copy(c->ctx, &c->r, &c->b, bytes));
  if (c->scale > 0) *rtol /= c->scale;
  return HDGCL_SUCCESS;
}

static int run(mpi_cg *c, int pc_kind, int maxit, double rtol, hdg_solution *sol) {
  krylov *kr = c->kr;
  size_t bytes = (size_t)c->n * 8;
  cl_int n = c->n;
  if (n) HDGCL_TRY(hdgcl_buffer_copy(c->ctx, kr->sys.rhs, &c->b, bytes));
  HDGCL_TRY(halo_sum(c, &c->b, c->nf));
  if (c->guess) HDGCL_TRY(guess_residual(c, &rtol));
  HDGCL_TRY(precond_setup(c, pc_kind));
  double d[2];
  HDGCL_TRY(dot2(c, &c->b, &c->b, &c->b, d));
  double bnorm = sqrt(d[0]);
  if (n) {
    HDGCL_TRY(hdgcl_buffer_fill(c->ctx, &kr->x, 0, bytes, 0.0));
    HDGCL_TRY(hdgcl_buffer_copy(c->ctx, &c->b, &c->r, bytes));
  }
  sol->iterations = 0;
  sol->residual = bnorm > 0 ? 1.0 : 0.0;
  HDGCL_TRY(hdg_solution_record_residual(sol, sol->residual));
  if (bnorm == 0.0) return HDGCL_SUCCESS;
  HDGCL_TRY(precondition(c, pc_kind, &c->r, &c->z));
  if (n) HDGCL_TRY(hdgcl_buffer_copy(c->ctx, &c->z, &c->p, bytes));
  HDGCL_TRY(dot2(c, &c->r, &c->z, &c->r, d));
  double rz = d[0];
  while (sol->residual > rtol) {
    if (sol->iterations >= maxit)
      return hdgcl_error(HDGCL_ERROR_CONVERGENCE, "distributed CG: no convergence in %d "
                         "iterations (relative residual %.3e, rtol %.1e)", maxit, sol->residual, rtol);
    HDGCL_TRY(spmv(c, &c->p, &c->q));
    HDGCL_TRY(dot2(c, &c->p, &c->q, &c->q, d));
    double alpha = rz / d[0];
    hdgcl_arg xr[] = {HDGCL_ARG(n), HDGCL_ARG(alpha), HDGCL_ARG(c->p.mem), HDGCL_ARG(c->q.mem),
                      HDGCL_ARG(kr->x.mem), HDGCL_ARG(c->r.mem)};
    HDGCL_TRY(launch(c, c->xr, 6, xr, (size_t)n, 0));
    HDGCL_TRY(precondition(c, pc_kind, &c->r, &c->z));
    HDGCL_TRY(dot2(c, &c->r, &c->z, &c->r, d));
    sol->iterations++;
    sol->residual = sqrt(d[1]) / bnorm;
    HDGCL_TRY(hdg_solution_record_residual(sol, sol->residual));
    if (!isfinite(sol->residual))
      return hdgcl_error(HDGCL_ERROR_CONVERGENCE, KRYLOV_NOT_FINITE, "distributed CG",
                         isnan(sol->residual) ? "NaN" : "Inf", sol->iterations);
    double beta = d[0] / rz;
    rz = d[0];
    hdgcl_arg up[] = {HDGCL_ARG(n), HDGCL_ARG(beta), HDGCL_ARG(c->z.mem), HDGCL_ARG(c->p.mem)};
    HDGCL_TRY(launch(c, c->up, 4, up, (size_t)n, 0));
  }
  return HDGCL_SUCCESS;
}

/* out[j] = (V_j, w) for j < k, global (owned rows, summed over ranks). */
static int mdot(mpi_cg *c, int k, const hdgcl_buffer *w, double *out) {
  cl_int n = c->n, ck = k;
  hdgcl_arg args[] = {HDGCL_ARG(n),        HDGCL_ARG(ck),    HDGCL_ARG(c->owned.mem),
                      HDGCL_ARG(c->v.mem), HDGCL_ARG(w->mem), HDGCL_ARG(c->partial.mem)};
  HDGCL_TRY(launch(c, c->mdot, 6, args, c->wg * c->groups, c->wg));
  double t = hdgcl_wtime();
  HDGCL_TRY(hdgcl_buffer_read(c->ctx, &c->partial, 0, (size_t)c->groups * MDOT_MAX * 8,
                              c->hpartial));
  double s[MDOT_MAX] = {0};
  for (int g = 0; g < c->groups; g++)
    for (int j = 0; j < k; j++) s[j] += c->hpartial[(size_t)g * MDOT_MAX + j];
  MPI_TRY(MPI_Allreduce(s, out, k, MPI_DOUBLE, MPI_SUM, c->part->comm));
  c->stats->reduce_seconds += hdgcl_wtime() - t;
  return HDGCL_SUCCESS;
}

/* w -= V h (k basis vectors), h from the host. */
static int subtract(mpi_cg *c, int k, const double *h, hdgcl_buffer *w) {
  cl_int n = c->n, ck = k;
  HDGCL_TRY(hdgcl_buffer_write(c->ctx, &c->h, 0, (size_t)k * 8, h));
  hdgcl_arg a[] = {HDGCL_ARG(n), HDGCL_ARG(ck), HDGCL_ARG(c->v.mem), HDGCL_ARG(c->h.mem),
                   HDGCL_ARG(w->mem)};
  return launch(c, c->subtract, 5, a, (size_t)n, 0);
}

/* V_j = vj = w / norm (0 where norm is 0). */
static int normalize(mpi_cg *c, const hdgcl_buffer *w, double norm, int j, hdgcl_buffer *vj) {
  cl_int n = c->n, zero = 0;
  cl_long off = (cl_long)j * c->n;
  HDGCL_TRY(hdgcl_buffer_write(c->ctx, &c->h, 0, 8, &norm));
  hdgcl_arg a[] = {HDGCL_ARG(n),      HDGCL_ARG(c->h.mem), HDGCL_ARG(zero), HDGCL_ARG(w->mem),
                   HDGCL_ARG(c->v.mem), HDGCL_ARG(off),    HDGCL_ARG(vj->mem)};
  return launch(c, c->scale_inv, 7, a, (size_t)n, 0);
}

static int norm2(mpi_cg *c, const hdgcl_buffer *w, double *norm) {
  double d[2];
  HDGCL_TRY(dot2(c, w, w, w, d));
  *norm = sqrt(d[0]);
  return HDGCL_SUCCESS;
}

/* Restarted right-preconditioned GMRES(m) with CGS2, as the serial one
 * (host/solvers/krylov_gmres.c): the Hessenberg least squares on the host,
 * the true residual at each restart; every inner product over owned rows and
 * reduced over the ranks.  Vectors: vj = p, zj = z, w = q, residual = r. */
static int run_gmres(mpi_cg *c, int pc_kind, int maxit, double rtol, hdg_solution *sol) {
  krylov *kr = c->kr;
  const int m = c->m;
  cl_int n = c->n;
  size_t bytes = (size_t)n * 8;
  double *hess = NULL, *cs = NULL, *sn = NULL, *gv = NULL, *yv = NULL, *col = NULL, *h2 = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m * (m + 1), sizeof(double), "Hessenberg", &hess), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m, sizeof(double), "Givens", &cs), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m, sizeof(double), "Givens", &sn), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m + 1, sizeof(double), "GMRES rhs", &gv), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m + 1, sizeof(double), "GMRES y", &yv), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m + 2, sizeof(double), "GMRES column", &col), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)m + 2, sizeof(double), "GMRES column", &h2), done);
  if (n) HDGCL_TRY_GOTO(status, hdgcl_buffer_copy(c->ctx, kr->sys.rhs, &c->b, bytes), done);
  HDGCL_TRY_GOTO(status, halo_sum(c, &c->b, c->nf), done);
  if (c->guess) HDGCL_TRY_GOTO(status, guess_residual(c, &rtol), done);
  HDGCL_TRY_GOTO(status, precond_setup(c, pc_kind), done);
  if (n) HDGCL_TRY_GOTO(status, hdgcl_buffer_fill(c->ctx, &kr->x, 0, bytes, 0.0), done);
  double beta;
  HDGCL_TRY_GOTO(status, norm2(c, &c->b, &beta), done);
  HDGCL_TRY_GOTO(status, normalize(c, &c->b, beta, 0, &c->p), done);
  const double bnorm = beta;
  int it = 0;
  double relres = bnorm > 0 ? 1.0 : 0.0;
  bool converged = !(bnorm > 0);
  sol->iterations = 0;
  HDGCL_TRY_GOTO(status, hdg_solution_record_residual(sol, relres), done);
  while (!converged && it < maxit) {
    for (int i = 0; i <= m; i++) gv[i] = 0.0;
    gv[0] = beta;
    int k = 0;
    for (int j = 0; j < m && it < maxit; j++) {
      HDGCL_TRY_GOTO(status, precondition(c, pc_kind, &c->p, &c->z), done);
      HDGCL_TRY_GOTO(status, spmv(c, &c->z, &c->q), done);
      HDGCL_TRY_GOTO(status, mdot(c, j + 1, &c->q, col), done);
      HDGCL_TRY_GOTO(status, subtract(c, j + 1, col, &c->q), done);
      HDGCL_TRY_GOTO(status, mdot(c, j + 1, &c->q, h2), done);
      HDGCL_TRY_GOTO(status, subtract(c, j + 1, h2, &c->q), done);
      for (int i = 0; i <= j; i++) col[i] += h2[i];
      double wnorm;
      HDGCL_TRY_GOTO(status, norm2(c, &c->q, &wnorm), done);
      HDGCL_TRY_GOTO(status, normalize(c, &c->q, wnorm, j + 1, &c->p), done);
      col[j + 1] = wnorm;
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
      relres = fabs(gv[j + 1]) / bnorm;
      HDGCL_TRY_GOTO(status, hdg_solution_record_residual(sol, relres), done);
      if (relres <= rtol || !(wnorm > 0) || !isfinite(relres)) break;
    }
    for (int i = k - 1; i >= 0; i--) {
      double t = gv[i];
      for (int l = i + 1; l < k; l++) t -= hess[(size_t)l * (m + 1) + i] * yv[l];
      double d = hess[(size_t)i * (m + 1) + i];
      if (!isfinite(t) || !isfinite(d)) {
        status = hdgcl_error(HDGCL_ERROR_CONVERGENCE, KRYLOV_NOT_FINITE, "distributed GMRES",
                             "NaN", it);
        goto done;
      }
      if (!(d != 0.0)) {
        status = hdgcl_error(HDGCL_ERROR_CONVERGENCE, "distributed GMRES breakdown: singular "
                             "Hessenberg matrix after %d iterations", it);
        goto done;
      }
      yv[i] = t / d;
    }
    /* x += M^-1 V y; then the true residual r = b - A x and v_0 = r / ||r|| */
    cl_int ck = k, acc = 0;
    double one = 1.0;
    HDGCL_TRY_GOTO(status, hdgcl_buffer_write(c->ctx, &c->y, 0, (size_t)k * 8, yv), done);
    hdgcl_arg cb[] = {HDGCL_ARG(n),        HDGCL_ARG(ck),  HDGCL_ARG(c->v.mem),
                      HDGCL_ARG(c->y.mem), HDGCL_ARG(acc), HDGCL_ARG(c->q.mem)};
    HDGCL_TRY_GOTO(status, launch(c, c->combine, 6, cb, (size_t)n, 0), done);
    HDGCL_TRY_GOTO(status, precondition(c, pc_kind, &c->q, &c->z), done);
    hdgcl_arg ax[] = {HDGCL_ARG(n), HDGCL_ARG(one), HDGCL_ARG(c->z.mem), HDGCL_ARG(one),
                      HDGCL_ARG(kr->x.mem)};
    HDGCL_TRY_GOTO(status, launch(c, c->axpby, 5, ax, (size_t)n, 0), done);
    HDGCL_TRY_GOTO(status, spmv(c, &kr->x, &c->r), done);
    hdgcl_arg rs[] = {HDGCL_ARG(n), HDGCL_ARG(c->b.mem), HDGCL_ARG(c->r.mem)};
    HDGCL_TRY_GOTO(status, launch(c, c->residual, 3, rs, (size_t)n, 0), done);
    HDGCL_TRY_GOTO(status, norm2(c, &c->r, &beta), done);
    HDGCL_TRY_GOTO(status, normalize(c, &c->r, beta, 0, &c->p), done);
    relres = beta / bnorm;
    converged = relres <= rtol;
    if (!isfinite(relres)) break;
  }
  sol->iterations = it;
  sol->residual = relres;
  if (!isfinite(relres))
    status = hdgcl_error(HDGCL_ERROR_CONVERGENCE, KRYLOV_NOT_FINITE, "distributed GMRES",
                         isnan(relres) ? "NaN" : "Inf", it);
  else if (!converged)
    status = hdgcl_error(HDGCL_ERROR_CONVERGENCE, "distributed GMRES did not converge: relative "
                         "residual %.3e after %d iterations (--rtol %g, --maxit %d)", relres, it,
                         rtol, maxit);
  else
    status = HDGCL_SUCCESS;
done:
  free(hess);
  free(cs);
  free(sn);
  free(gv);
  free(yv);
  free(col);
  free(h2);
  return status;
}

int mpi_krylov_solve(krylov *kr, const parallel_part *part, const hdg_numbering *num, int pc_kind,
                  int maxit, double rtol, bool guess, hdg_solution *sol, mpi_krylov_stats *stats) {
  *stats = (mpi_krylov_stats){0};
  mpi_cg c = {.stats = stats, .guess = guess};
  int hstart = sol->history_length;
  int status = create(&c, kr, part, num, pc_kind);
  if (status == HDGCL_SUCCESS)
    status = c.m ? run_gmres(&c, pc_kind, maxit, rtol, sol) : run(&c, pc_kind, maxit, rtol, sol);
  if (guess && c.g.mem) { /* x = x0 + d; residuals relative to ||b|| (T5) */
    if (status == HDGCL_SUCCESS) {
      cl_int n = c.n;
      double one = 1.0;
      hdgcl_arg ax[] = {HDGCL_ARG(n), HDGCL_ARG(one), HDGCL_ARG(c.g.mem), HDGCL_ARG(one),
                        HDGCL_ARG(kr->x.mem)};
      status = launch(&c, c.axpby, 5, ax, (size_t)n, 0);
    }
    initial_guess_finish(sol, hstart, c.scale);
  }
  if (status == HDGCL_SUCCESS) status = hdgcl_context_finish(c.ctx);
  destroy(&c);
  return status;
}
