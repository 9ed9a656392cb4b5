/* The distributed steady linear solve (include/hdgcl/mpi.h, docs/mpi.md).
 *
 * Each rank holds its part of the mesh (partition.c) and a solver on it:
 * discretisation and device pipeline exactly as a serial solve's, the cut
 * faces numbered as interior unknown faces with one neighbour.  The part's
 * assembly gives every row of its own interior faces and, on a cut face,
 * the part's share of the row (its element's contribution); the global
 * matrix is the sum of the parts' matrices (a subassembled operator).  So:
 *   y = A x: each rank's device SpMV on its part, then the shares of the
 *     cut faces' rows summed with the neighbour (halo_sum: MPI point to
 *     point, each cut face shared by exactly two ranks);
 *   b and the diagonal blocks: summed the same way, once;
 *   vectors are consistent (a cut face's values equal on both ranks), so
 *     dot products sum over the faces a rank owns, then MPI_Allreduce.
 * CG runs on the host over these; the trace goes back to the pipeline
 * (trace_operator_set_trace) for the recovery of u, q, u*, and the error
 * norms are summed over the ranks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/dense.h"
#include "core/error.h"
#include "drivers/solver_impl.h"
#include "hdgcl/mpi.h"
#include "parallel/partition.h"

typedef struct parallel_solve {
  parallel_part part;
  double *send, *recv; /* halo buffers: every cut face's block */
  MPI_Request *requests;
  double *rank_seconds; /* [size][HDGCL_NUM_STAGES] each rank's stage seconds of the last solve */
  bool timed;           /* rank_seconds holds a solve's */
} parallel_solve;

/* y (unknown blocks of `per_face` values) += the neighbours' shares on the cut faces. */
static int halo_sum(parallel_solve *ps, const hdg_numbering *num, int per_face, double *y) {
  parallel_part *p = &ps->part;
  int nr = 0;
  for (int i = 0; i < p->num_neighbours; i++) {
    int k0 = p->offset[i], cnt = (p->offset[i + 1] - k0) * per_face;
    for (int k = k0; k < p->offset[i + 1]; k++)
      memcpy(ps->send + (size_t)k * per_face,
             y + (size_t)num->face_unknown[p->shared[k]] * per_face, sizeof(double) * per_face);
    MPI_TRY(MPI_Irecv(ps->recv + (size_t)k0 * per_face, cnt, MPI_DOUBLE, p->neighbour[i], 29,
                      p->comm, &ps->requests[nr++]));
    MPI_TRY(MPI_Isend(ps->send + (size_t)k0 * per_face, cnt, MPI_DOUBLE, p->neighbour[i], 29,
                      p->comm, &ps->requests[nr++]));
  }
  MPI_TRY(MPI_Waitall(nr, ps->requests, MPI_STATUSES_IGNORE));
  int32_t nshared = p->offset[p->num_neighbours];
  for (int32_t k = 0; k < nshared; k++) {
    double *dst = y + (size_t)num->face_unknown[p->shared[k]] * per_face;
    const double *src = ps->recv + (size_t)k * per_face;
    for (int j = 0; j < per_face; j++) dst[j] += src[j];
  }
  return HDGCL_SUCCESS;
}

/* The global dot product of two consistent vectors: the owned faces' sum, reduced. */
static int dot(const parallel_solve *ps, const bool *owned, size_t rows, int nfb, const double *a,
               const double *b, double *out) {
  double s = 0.0;
  for (size_t u = 0; u < rows; u++) {
    if (!owned[u]) continue;
    for (int j = 0; j < nfb; j++) s += a[u * nfb + j] * b[u * nfb + j];
  }
  MPI_TRY(MPI_Allreduce(&s, out, 1, MPI_DOUBLE, MPI_SUM, ps->part.comm));
  return HDGCL_SUCCESS;
}

/* y = A x, the global product on this rank's unknowns. */
static int apply(hdgcl_solver s, parallel_solve *ps, const double *x, double *y) {
  HDGCL_TRY(trace_operator_apply(&s->op, x, y));
  return halo_sum(ps, &s->disc.num, s->disc.ref.sz.nfb, y);
}

/* z = M^-1 r: block-Jacobi (LU factors of the summed diagonal blocks),
 * Jacobi (their diagonals) or none. */
static void precondition(int kind, size_t rows, int nfb, const double *lu, const int *piv,
                         const double *r, double *z) {
  memcpy(z, r, sizeof(double) * rows * nfb);
  size_t bb = (size_t)nfb * nfb;
  for (size_t u = 0; u < rows; u++) {
    if (kind == PRECOND_BLOCK_JACOBI)
      dense_lu_solve(nfb, lu + u * bb, piv + u * nfb, 1, z + u * nfb);
    else if (kind == PRECOND_JACOBI)
      for (int j = 0; j < nfb; j++) z[u * nfb + j] /= lu[u * bb + (size_t)j * nfb + j];
  }
}

/* Preconditioned CG on the global system; x = the rank's unknowns' trace. */
static int solve_cg(hdgcl_solver s, parallel_solve *ps, const bool *owned, double *x) {
  const hdg_sizes *sz = &s->disc.ref.sz;
  int nfb = sz->nfb;
  size_t rows = (size_t)s->disc.num.num_unknown_faces, n = rows * nfb, bb = (size_t)nfb * nfb;
  hdg_solution *sol = &s->sol;
  double *b = sol->rhs, *r = NULL, *z = NULL, *p = NULL, *q = NULL, *lu = NULL;
  int *piv = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n + 1, sizeof *r, "CG vectors", &r), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n + 1, sizeof *z, "CG vectors", &z), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n + 1, sizeof *p, "CG vectors", &p), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n + 1, sizeof *q, "CG vectors", &q), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(rows * bb + 1, sizeof *lu, "diagonal blocks", &lu), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n + 1, sizeof *piv, "pivots", &piv), done);
  /* b and the diagonal blocks (slot 0 of each row), summed over the cut faces */
  HDGCL_TRY_GOTO(status, halo_sum(ps, &s->disc.num, nfb, b), done);
  for (size_t u = 0; u < rows; u++)
    memcpy(lu + u * bb, sol->matrix + u * sz->nslots * bb, sizeof(double) * bb);
  HDGCL_TRY_GOTO(status, halo_sum(ps, &s->disc.num, (int)bb, lu), done);
  for (size_t u = 0; u < rows && s->precond == PRECOND_BLOCK_JACOBI; u++)
    if (dense_lu(nfb, lu + u * bb, piv + u * nfb) != HDGCL_SUCCESS) {
      status = hdgcl_error(HDGCL_ERROR_INTERNAL, "block-Jacobi: the diagonal block of face %d of "
                           "rank %d is singular", (int)s->disc.num.unknown_face[u], ps->part.rank);
      goto done;
    }
  double bnorm2, rz, pq, rr;
  HDGCL_TRY_GOTO(status, dot(ps, owned, rows, nfb, b, b, &bnorm2), done);
  double bnorm = sqrt(bnorm2);
  memset(x, 0, sizeof(double) * n);
  memcpy(r, b, sizeof(double) * n);
  sol->iterations = 0;
  sol->residual = bnorm > 0 ? 1.0 : 0.0;
  HDGCL_TRY_GOTO(status, hdg_solution_record_residual(sol, sol->residual), done);
  if (bnorm == 0.0) goto done;
  precondition(s->precond, rows, nfb, lu, piv, r, z);
  memcpy(p, z, sizeof(double) * n);
  HDGCL_TRY_GOTO(status, dot(ps, owned, rows, nfb, r, z, &rz), done);
  while (sol->residual > s->rtol) {
    if (sol->iterations >= s->maxit) {
      status = hdgcl_error(HDGCL_ERROR_CONVERGENCE, "distributed CG: no convergence in %d "
                           "iterations (relative residual %.3e, rtol %.1e)", s->maxit,
                           sol->residual, s->rtol);
      goto done;
    }
    HDGCL_TRY_GOTO(status, apply(s, ps, p, q), done);
    HDGCL_TRY_GOTO(status, dot(ps, owned, rows, nfb, p, q, &pq), done);
    double alpha = rz / pq;
    for (size_t i = 0; i < n; i++) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    HDGCL_TRY_GOTO(status, dot(ps, owned, rows, nfb, r, r, &rr), done);
    sol->iterations++;
    sol->residual = sqrt(rr) / bnorm;
    HDGCL_TRY_GOTO(status, hdg_solution_record_residual(sol, sol->residual), done);
    precondition(s->precond, rows, nfb, lu, piv, r, z);
    double rz_new;
    HDGCL_TRY_GOTO(status, dot(ps, owned, rows, nfb, r, z, &rz_new), done);
    double beta = rz_new / rz;
    rz = rz_new;
    for (size_t i = 0; i < n; i++) p[i] = z[i] + beta * p[i];
  }
  status = HDGCL_SUCCESS;
done:
  free(r);
  free(z);
  free(p);
  free(q);
  free(lu);
  free(piv);
  return status;
}

/* The global figures: error norms summed as squares (their maximum for the
 * max norm and u*'s check), counts summed over owned faces, the slowest
 * rank's stage seconds. */
static int reduce_figures(hdgcl_solver s, parallel_solve *ps) {
  hdg_solution *sol = &s->sol;
  MPI_Comm comm = ps->part.comm;
  double sq[5] = {sol->l2_u, sol->l2_q, sol->l2_ustar, sol->norm_u, sol->norm_q};
  for (int i = 0; i < 5; i++) sq[i] *= sq[i];
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, sq, 5, MPI_DOUBLE, MPI_SUM, comm));
  sol->l2_u = sqrt(sq[0]);
  sol->l2_q = sqrt(sq[1]);
  sol->l2_ustar = sqrt(sq[2]);
  sol->norm_u = sqrt(sq[3]);
  sol->norm_q = sqrt(sq[4]);
  double mx[2] = {sol->linf_u, sol->ustar_check};
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, mx, 2, MPI_DOUBLE, MPI_MAX, comm));
  sol->linf_u = mx[0];
  sol->ustar_check = mx[1];
  MPI_TRY(MPI_Allgather(sol->stage_seconds, HDGCL_NUM_STAGES, MPI_DOUBLE, ps->rank_seconds,
                        HDGCL_NUM_STAGES, MPI_DOUBLE, comm));
  ps->timed = true;
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, sol->stage_seconds, HDGCL_NUM_STAGES, MPI_DOUBLE, MPI_MAX, comm));
  return HDGCL_SUCCESS;
}

static int solve_steps(hdgcl_solver s, void *data) {
  parallel_solve *ps = data;
  hdg_solution *sol = &s->sol;
  size_t rows = (size_t)s->disc.num.num_unknown_faces, nfb = (size_t)s->disc.ref.sz.nfb;
  bool *owned = NULL;
  double *x = NULL;
  solver_figures_to_solution(s);
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(rows + 1, sizeof *owned, "owned rows", &owned), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(rows * nfb + 1, sizeof *x, "trace", &x), done);
  for (size_t u = 0; u < rows; u++) owned[u] = ps->part.face_owned[s->disc.num.unknown_face[u]];
  HDGCL_TRY_GOTO(status, trace_operator_assemble(&s->op), done);
  HDGCL_TRY_GOTO(status, trace_operator_matrix(&s->op), done);
  double t = hdgcl_wtime();
  HDGCL_TRY_GOTO(status, solve_cg(s, ps, owned, x), done);
  sol->stage_seconds[HDGCL_STAGE_SOLVE] += hdgcl_wtime() - t;
  HDGCL_TRY_GOTO(status, trace_operator_set_trace(&s->op, x), done);
  HDGCL_TRY_GOTO(status, trace_operator_recover(&s->op), done);
  HDGCL_TRY_GOTO(status, reduce_figures(s, ps), done);
done:
  solver_figures_to_result(s);
  free(owned);
  free(x);
  return status;
}

static void free_steps(void *data) {
  parallel_solve *ps = data;
  if (!ps) return;
  parallel_part_destroy(&ps->part);
  free(ps->send);
  free(ps->recv);
  free(ps->requests);
  free(ps->rank_seconds);
  free(ps);
}

/* The result's counts of the whole problem (the solver's are its part's). */
static int global_counts(hdgcl_solver s, parallel_solve *ps) {
  hdgcl_result *r = &s->result;
  int64_t owned_rows = 0;
  for (int32_t u = 0; u < s->disc.num.num_unknown_faces; u++)
    owned_rows += ps->part.face_owned[s->disc.num.unknown_face[u]];
  int64_t c[2] = {owned_rows, r->element_dofs};
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, c, 2, MPI_INT64_T, MPI_SUM, ps->part.comm));
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &r->h, 1, MPI_DOUBLE, MPI_MAX, ps->part.comm));
  r->num_elements = ps->part.global_elements;
  r->num_faces = ps->part.global_faces;
  r->num_unknown_faces = (int32_t)c[0];
  r->trace_dofs = c[0] * s->disc.ref.sz.nfb;
  r->element_dofs = c[1];
  return HDGCL_SUCCESS;
}

/* What the distributed solve does not do yet (docs/mpi.md), refused by name. */
static int check_supported(hdgcl_solver s) {
  if (hdgcl_context_is_reference(s->ctx))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "a distributed solve runs on OpenCL devices, not on "
                       "the reference path (--device ref)");
  const char *what = s->disc.problem->transient ? "a transient problem"
                     : s->newton                 ? "a nonlinear problem (Newton's method)"
                     : s->disc.problem->vector   ? "a vector problem (elasticity)"
                     : s->disc.problem->nonsymmetric ? "a nonsymmetric problem (GMRES)"
                     : s->disc.user                  ? "a user's problem file"
                                                     : NULL;
  if (what)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "a distributed solve of %s is not done yet "
                       "(docs/mpi.md): steady linear built-in scalar problems only", what);
  if (s->solver != SOLVER_CG ||
      (s->precond != PRECOND_NONE && s->precond != PRECOND_JACOBI && s->precond != PRECOND_BLOCK_JACOBI))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "a distributed solve has --solver cg with --precond "
                       "none, jacobi or block-jacobi only (docs/mpi.md)");
  return HDGCL_SUCCESS;
}

int hdgcl_solver_create_mpi(hdgcl_context ctx, const hdgcl_mesh *mesh, hdgcl_options opts,
                            MPI_Comm comm, hdgcl_solver *solver) {
  if (!ctx || !mesh || !solver)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_create_mpi: NULL argument");
  *solver = NULL;
  parallel_solve *ps;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *ps, "distributed solve", &ps));
  hdgcl_solver s = NULL;
  int status;
  HDGCL_TRY_GOTO(status, parallel_partition(comm, mesh, &ps->part), fail);
  int32_t nshared = ps->part.offset[ps->part.num_neighbours];
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)ps->part.size * HDGCL_NUM_STAGES,
                                      sizeof *ps->rank_seconds, "stage seconds", &ps->rank_seconds), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)2 * ps->part.num_neighbours + 1,
                                      sizeof *ps->requests, "halo requests", &ps->requests), fail);
  HDGCL_TRY_GOTO(status, hdgcl_solver_create(ctx, ps->part.mesh, opts, &s), fail);
  s->solve_steps = solve_steps;
  s->solve_steps_data = ps;
  s->solve_steps_free = free_steps;
  ps = NULL; /* the solver's now */
  parallel_solve *own = s->solve_steps_data;
  size_t bb = (size_t)s->disc.ref.sz.nfb * s->disc.ref.sz.nfb; /* the largest halo block */
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)nshared * bb + 1, sizeof(double), "halo", &own->send), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)nshared * bb + 1, sizeof(double), "halo", &own->recv), fail);
  HDGCL_TRY_GOTO(status, check_supported(s), fail);
  HDGCL_TRY_GOTO(status, global_counts(s, own), fail);
  *solver = s;
  return HDGCL_SUCCESS;
fail:
  free_steps(ps);
  hdgcl_solver_destroy(&s);
  return status;
}

int hdgcl_solver_part_elements(hdgcl_solver s, const int32_t **elements, int32_t *count) {
  if (!s || !elements || !count)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_part_elements: NULL argument");
  *elements = NULL;
  *count = 0;
  if (s->solve_steps != solve_steps) return HDGCL_SUCCESS;
  const parallel_solve *ps = s->solve_steps_data;
  *elements = ps->part.elem_global;
  *count = ps->part.mesh->num_elements;
  return HDGCL_SUCCESS;
}

int hdgcl_solver_rank_seconds(hdgcl_solver s, const double **seconds, int *ranks) {
  if (!s || !seconds || !ranks)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_rank_seconds: NULL argument");
  *seconds = NULL;
  *ranks = 0;
  if (s->solve_steps != solve_steps) return HDGCL_SUCCESS;
  const parallel_solve *ps = s->solve_steps_data;
  if (!ps->timed) return HDGCL_SUCCESS;
  *seconds = ps->rank_seconds;
  *ranks = ps->part.size;
  return HDGCL_SUCCESS;
}
