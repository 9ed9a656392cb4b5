/* The host copies of a solution (hdg_solution) and u*'s consistency check,
 * shared by the reference path and the device pipeline. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "discretisation/discretisation.h"

int hdg_solution_create(const hdg_discretisation *d, hdg_solution *sol) {
  const hdgcl_mesh *mesh = d->mesh;
  const hdg_sizes *sz = &d->ref.sz;
  size_t nc = (size_t)sz->ncomp;
  size_t ne = (size_t)mesh->num_elements, rows = (size_t)d->num.num_unknown_faces;
  /* Face blocks of nfb = ncomp * nf values; u, q (H), u* per component. */
  HDGCL_TRY(hdgcl_calloc(rows * sz->nslots * sz->nfb * sz->nfb, sizeof(double), "trace matrix",
                         &sol->matrix));
  HDGCL_TRY(hdgcl_calloc(rows * sz->nfb, sizeof(double), "right-hand side", &sol->rhs));
  HDGCL_TRY(hdgcl_calloc((size_t)mesh->num_faces * sz->nfb, sizeof(double), "trace", &sol->trace));
  HDGCL_TRY(hdgcl_calloc(ne * nc * sz->np, sizeof(double), "u", &sol->u));
  HDGCL_TRY(hdgcl_calloc(ne * nc * sz->dim * sz->np, sizeof(double), "q", &sol->q));
  HDGCL_TRY(hdgcl_calloc(ne * nc * sz->np1, sizeof(double), "u*", &sol->ustar));
  if (d->problem->vector) HDGCL_TRY(hdgcl_calloc(ne * sz->np, sizeof(double), "p", &sol->p));
  return HDGCL_SUCCESS;
}

int hdg_solution_pin(hdg_solution *sol, hdgcl_context ctx, const hdg_discretisation *d) {
  if (sol->pinned_ctx) return HDGCL_SUCCESS;
  const hdg_sizes *sz = &d->ref.sz;
  size_t nc = (size_t)sz->ncomp, ne = (size_t)d->mesh->num_elements;
  double **arrays[4] = {&sol->u, &sol->q, &sol->ustar, &sol->p};
  const size_t counts[4] = {ne * nc * sz->np, ne * nc * sz->dim * sz->np, ne * nc * sz->np1,
                            ne * sz->np};
  const char *names[4] = {"u (pinned host memory)", "q (pinned host memory)",
                          "u* (pinned host memory)", "p (pinned host memory)"};
  hdgcl_pinned p[4] = {{0}};
  for (int i = 0; i < 4; i++) {
    if (!*arrays[i] || counts[i] == 0) continue;
    int status = hdgcl_pinned_create(ctx, counts[i] * sizeof(double), names[i], &p[i]);
    if (status != HDGCL_SUCCESS) {
      for (int k = 0; k < i; k++) hdgcl_pinned_release(ctx, &p[k]);
      return status;
    }
  }
  for (int i = 0; i < 4; i++)
    if (p[i].ptr) {
      free(*arrays[i]);
      *arrays[i] = p[i].ptr;
      sol->pinned[i] = p[i];
    }
  sol->pinned_ctx = ctx;
  return HDGCL_SUCCESS;
}

void hdg_solution_destroy(hdg_solution *sol) {
  free(sol->matrix);
  free(sol->rhs);
  free(sol->trace);
  double **arrays[4] = {&sol->u, &sol->q, &sol->ustar, &sol->p};
  for (int i = 0; i < 4; i++) {
    if (sol->pinned[i].ptr)
      hdgcl_pinned_release(sol->pinned_ctx, &sol->pinned[i]);
    else
      free(*arrays[i]);
  }
  free(sol->history);
  *sol = (hdg_solution){0};
}

int hdg_solution_record_residual(hdg_solution *sol, double relres) {
  if (sol->history_length == sol->history_capacity) {
    int cap = sol->history_capacity ? 2 * sol->history_capacity : 256;
    double *grown = realloc(sol->history, sizeof(double) * cap);
    if (!grown) return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory for the residual history");
    sol->history = grown;
    sol->history_capacity = cap;
  }
  sol->history[sol->history_length++] = relres;
  if (sol->on_residual) sol->on_residual(sol->on_residual_owner, sol->history_length - 1, relres);
  return HDGCL_SUCCESS;
}

void ustar_check_element(ustar_check *c, int32_t e, int ncomp, const double *sums) {
  const double area = sums[2 * ncomp];
  for (int i = 0; i < ncomp; i++) {
    double dm = fabs(sums[i]) / area, um = sqrt(fabs(sums[ncomp + i]) / area);
    if (!(dm <= c->dmean)) { /* NaN counts as the worst */
      c->dmean = dm;
      c->dmean_elem = e;
    }
    if (um > c->umean) c->umean = um;
  }
  if (!(sums[2 * ncomp + 1] <= c->rmax)) {
    c->rmax = sums[2 * ncomp + 1];
    c->rmax_elem = e;
  }
  if (sums[2 * ncomp + 2] > c->rscale) c->rscale = sums[2 * ncomp + 2];
}

int ustar_check_finish(const ustar_check *c, bool reference, double *result) {
  const double tiny = 1e-300;
  double mean = c->dmean / (c->umean + tiny), res = c->rmax / (c->rscale + tiny);
  double check = mean > res || isnan(mean) ? mean : res;
  *result = check;
  if (check <= USTAR_CHECK_TOL) return HDGCL_SUCCESS;
  return hdgcl_error(reference ? HDGCL_ERROR_INTERNAL : HDGCL_ERROR_OPENCL,
                     "recover: u* failed its consistency check on element %d "
                     "(|mean u* - mean u| = %.1e relative, residual of (F12) %.1e relative; "
                     "tolerance %.0e): %s",
                     (int)(mean > res || isnan(mean) ? c->dmean_elem : c->rmax_elem), mean, res,
                     USTAR_CHECK_TOL,
                     reference
                         ? "the reference path computed a wrong postprocessing (a bug)"
                         : "the OpenCL implementation computed a wrong postprocessing; rerun "
                           "with --device ref or another device");
}
