/* A trace solve from an initial guess (discretisation.h): both operators
 * solve A d = b - A x0 for the correction d, to the tolerance that makes
 * ||b - A (x0 + d)|| <= rtol ||b||, and report residuals relative to ||b||. */
#include <math.h>
#include <string.h>

#include "discretisation/discretisation.h"

void initial_guess_gather(const hdg_discretisation *d, const hdg_solution *sol, double *x0) {
  size_t nfb = (size_t)d->ref.sz.nfb;
  for (int32_t f = 0; f < d->mesh->num_faces; f++) {
    int32_t u = d->num.face_unknown[f];
    if (u >= 0) memcpy(x0 + (size_t)u * nfb, sol->trace + (size_t)f * nfb, sizeof(double) * nfb);
  }
}

double initial_guess_residual(size_t n, const double *b, const double *ax0, double *r,
                              double rtol, double *rtol_r) {
  double bb = 0.0, rr = 0.0;
  for (size_t i = 0; i < n; i++) {
    r[i] = b[i] - ax0[i];
    bb += b[i] * b[i];
    rr += r[i] * r[i];
  }
  double scale = bb > 0 ? sqrt(rr / bb) : 0.0;
  /* (T5) ||r_k|| <= rtol' ||r0|| with rtol' = rtol ||b|| / ||r0|| */
  *rtol_r = scale > 0 ? rtol / scale : rtol;
  return scale;
}

void initial_guess_finish(hdg_solution *sol, int history_start, double scale) {
  sol->residual *= scale;
  for (int i = history_start; i < sol->history_length; i++) sol->history[i] *= scale;
}
