/* The serial reference path (--device ref) step by step: boundary data,
 * local stage and element-by-element assembly, CG or GMRES, recovery, all in
 * plain C on the host.  It is the oracle the device pipeline is tested
 * against, and the second implementation of the trace operator
 * (reference_operator.c). */
#include "reference/reference.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "solvers/krylov.h"
#include "solvers/spmv.h"

int reference_path_create(const hdg_discretisation *disc, const solver_settings *set,
                          hdg_solution *sol, reference_path **out) {
  *out = NULL;
  const hdgcl_mesh *mesh = disc->mesh;
  size_t nf = (size_t)disc->ref.sz.nfb; /* values per face: ncomp * nf */
  size_t nbnd = (size_t)(mesh->num_faces - mesh->num_interior_faces);
  size_t n = (size_t)disc->num.num_unknown_faces * nf;
  reference_path *rp;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *rp, "reference path", &rp));
  *rp = (reference_path){.disc = disc, .set = *set, .sol = sol};
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(nbnd * nf + 1, sizeof(double), "boundary data", &rp->bvals),
                 fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n + 1, sizeof(double), "trace solution", &rp->x), fail);
  *out = rp;
  return HDGCL_SUCCESS;
fail:
  reference_path_destroy(&rp);
  return status;
}

void reference_path_destroy(reference_path **rp) {
  if (!*rp) return;
  free((*rp)->bvals);
  free((*rp)->x);
  free(*rp);
  *rp = NULL;
}

int reference_path_assemble(reference_path *rp) {
  double t0 = hdgcl_wtime();
  HDGCL_TRY(reference_boundary_data(rp->disc, rp->bvals));
  HDGCL_TRY(reference_assemble(rp->disc, rp->sol, rp->bvals));
  rp->sol->stage_seconds[HDGCL_STAGE_ASSEMBLE] += hdgcl_wtime() - t0; /* local stage and scatter */
  return HDGCL_SUCCESS;
}

int reference_path_apply(reference_path *rp, const double *x, double *y) {
  const hdg_sizes *sz = &rp->disc->ref.sz;
  spmv_host(rp->disc->num.num_unknown_faces, sz->nslots, sz->nfb, rp->sol->matrix,
            rp->disc->num.block_cols, x, y);
  return HDGCL_SUCCESS;
}

/* The solve from the initial guess in sol->trace (docs/time.md (T5)): A d =
 * b - A x0 to the tolerance that means rtol relative to ||b||, x = x0 + d. */
static int solve_from_guess(reference_path *rp) {
  const hdg_discretisation *disc = rp->disc;
  hdg_solution *sol = rp->sol;
  size_t n = (size_t)disc->num.num_unknown_faces * disc->ref.sz.nfb;
  double *x0 = NULL, *b = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "initial guess", &x0), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "right-hand side", &b), done);
  initial_guess_gather(disc, sol, x0);
  memcpy(b, sol->rhs, sizeof(double) * n);
  HDGCL_TRY_GOTO(status, reference_path_apply(rp, x0, rp->x), done);
  solver_settings set = rp->set;
  double scale = initial_guess_residual(n, b, rp->x, sol->rhs, rp->set.rtol, &set.rtol);
  if (scale == 0.0) { /* x0 solves it (or b = 0) */
    memcpy(rp->x, x0, sizeof(double) * n);
    sol->iterations = 0;
    sol->residual = 0.0;
    sol->history_length = 0;
    status = hdg_solution_record_residual(sol, 0.0);
  } else {
    status = set.solver == SOLVER_GMRES ? reference_gmres(disc, &set, sol, rp->x)
                                        : reference_cg(disc, &set, sol, rp->x);
    for (size_t i = 0; i < n; i++) rp->x[i] += x0[i];
    initial_guess_finish(sol, 0, scale);
  }
  memcpy(sol->rhs, b, sizeof(double) * n);
done:
  free(x0);
  free(b);
  return status;
}

int reference_path_solve(reference_path *rp) {
  const hdg_discretisation *disc = rp->disc;
  const hdgcl_mesh *mesh = disc->mesh;
  hdg_solution *sol = rp->sol;
  int nf = disc->ref.sz.nfb;
  double t0 = hdgcl_wtime();
  size_t n = (size_t)disc->num.num_unknown_faces * nf;
  memset(rp->x, 0, sizeof(double) * n);
  if (sol->initial_guess && n > 0) HDGCL_TRY(solve_from_guess(rp));
  else
    HDGCL_TRY(rp->set.solver == SOLVER_GMRES ? reference_gmres(disc, &rp->set, sol, rp->x)
                                             : reference_cg(disc, &rp->set, sol, rp->x));
  /* The trace of every face: solved unknowns, projected Dirichlet data (also
   * on the fixed components of per-component faces, docs/problems.md (P4):
   * their decoupled rows uhat = P_F g are solved to rtol only). */
  for (int32_t f = 0; f < mesh->num_faces; f++) {
    int32_t u = disc->num.face_unknown[f];
    const double *src = u >= 0 ? rp->x + (size_t)u * nf
                               : rp->bvals + (size_t)(f - mesh->num_interior_faces) * nf;
    memcpy(sol->trace + (size_t)f * nf, src, sizeof(double) * nf);
    for (int m = 0; m < nf && disc->num.face_fixed[f]; m++)
      if (hdg_fixed(&disc->num, f, m, disc->ref.sz.nf))
        sol->trace[(size_t)f * nf + m] = rp->bvals[(size_t)(f - mesh->num_interior_faces) * nf + m];
  }
  sol->stage_seconds[HDGCL_STAGE_SOLVE] += hdgcl_wtime() - t0;
  return HDGCL_SUCCESS;
}

int reference_path_recover(reference_path *rp) {
  double t0 = hdgcl_wtime();
  HDGCL_TRY(reference_recover(rp->disc, rp->sol));
  rp->sol->stage_seconds[HDGCL_STAGE_RECOVER] += hdgcl_wtime() - t0;
  return HDGCL_SUCCESS;
}

int reference_solve(const hdg_discretisation *disc, const solver_settings *set, hdg_solution *sol) {
  reference_path *rp;
  HDGCL_TRY(reference_path_create(disc, set, sol, &rp));
  int status = reference_path_assemble(rp);
  if (status == HDGCL_SUCCESS) status = reference_path_solve(rp);
  if (status == HDGCL_SUCCESS) status = reference_path_recover(rp);
  reference_path_destroy(&rp);
  return status;
}
