/* Newton's method (newton.h, docs/nonlinear.md section 4): the loop over the
 * reference path's linearisation (host/reference/reference_newton.c). */
#include "drivers/newton.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "drivers/solver_impl.h"
#include "reference/reference.h"
#include "pipeline/local_newton.h"
#include "pipeline/pipeline_operator.h"
#include "reference/reference_newton.h"

const char *const newton_forcing_names[] = {"ew", "fixed", NULL};

/* Eisenstat-Walker forcing, choice 2 (N12): eta = gamma (r_k / r_{k-1})^2,
 * safeguarded by gamma eta_{k-1}^2 where that exceeds 0.1, at most ETA_MAX, at
 * least the linear --rtol and what the stopping test needs. */
#define EW_GAMMA 0.9
#define ETA_MAX 0.5

static double forcing(double eta_prev, double r, double r_prev, double floor_rtol, double target) {
  double eta = EW_GAMMA * (r / r_prev) * (r / r_prev);
  double safe = EW_GAMMA * eta_prev * eta_prev;
  if (safe > 0.1) eta = fmax(eta, safe);
  eta = fmin(eta, ETA_MAX);
  eta = fmax(eta, 0.5 * target / r); /* no need to solve below the Newton tolerance */
  return fmax(fmin(eta, ETA_MAX), floor_rtol);
}

/* The linearisation, trace solve and update of one implementation: the
 * device's (local_newton.c) where the solver runs on an OpenCL device, else
 * the reference path's (reference_newton.c and its GMRES).  The initial
 * state and the final errors and u* are the reference path's on the host in
 * both (from the solution's u, q and trace); on a device the state stays
 * there in between (local_newton_download brings it back). */
typedef struct newton_backend {
  hdgcl_solver s;
  reference_newton *rn;
  local_newton *dev; /* NULL: the reference path */
  solver_settings set;
  double *dx; /* the reference path's trace update */
} newton_backend;

static int backend_linearise(newton_backend *b, double *norm) {
  return b->dev ? local_newton_linearise(b->dev, norm) : reference_newton_linearise(b->rn, norm);
}

static int backend_solve(newton_backend *b, double rtol, int *iterations) {
  if (b->dev) return local_newton_solve(b->dev, rtol, iterations);
  const hdg_discretisation *disc = &b->s->disc;
  size_t n = (size_t)disc->num.num_unknown_faces * disc->ref.sz.nfb;
  b->set.rtol = rtol;
  memset(b->dx, 0, sizeof(double) * n);
  double t0 = hdgcl_wtime();
  int status = reference_gmres(disc, &b->set, &b->s->sol, b->dx);
  b->s->sol.stage_seconds[HDGCL_STAGE_SOLVE] += hdgcl_wtime() - t0;
  *iterations = b->s->sol.iterations;
  return status;
}

static int backend_update(newton_backend *b, double alpha, double *norm) {
  return b->dev ? local_newton_update(b->dev, alpha, norm)
                : reference_newton_update(b->rn, b->dx, alpha, norm);
}

static int backend_residual(newton_backend *b, double *norm) {
  return b->dev ? local_newton_residual(b->dev, norm) : reference_newton_residual(b->rn, norm);
}

/* Pseudo-transient continuation (N17): the reaction c0 + 1/dt and the element
 * load u_k / dt at the state u_k, so that the residual of (N2) at u_k is the
 * steady one and a Newton step solves R(u) + (1/dt) M (u - u_k) = 0 for u;
 * dt = 0: no pseudo-time term (the steady problem again). */
static int ptc_shift(newton_backend *b, const double *c0, double dt) {
  hdg_discretisation *disc = &b->s->disc;
  double shift = dt > 0 ? 1.0 / dt : 0.0;
  if (b->dev && shift > 0) HDGCL_TRY(local_newton_download(b->dev)); /* the load needs u_k */
  size_t ne = (size_t)disc->mesh->num_elements, np = (size_t)disc->ref.sz.np;
  for (size_t e = 0; e < ne; e++) disc->c[e] = c0[e] + shift;
  for (size_t i = 0; i < ne * np; i++) disc->element_load[i] = shift * b->s->sol.u[i];
  return b->dev ? local_newton_upload_shift(b->dev) : HDGCL_SUCCESS;
}

int newton_run(hdgcl_solver s, bool from_solution) {
  const hdg_discretisation *disc = &s->disc;
  hdg_solution *sol = &s->sol;
  hdgcl_result *res = &s->result;
  size_t n = (size_t)disc->num.num_unknown_faces * disc->ref.sz.nfb;
  free(s->newton_history);
  free(s->newton_iterations);
  s->newton_history = NULL;
  s->newton_iterations = NULL;
  HDGCL_TRY(hdgcl_calloc((size_t)s->newton_max + 1, sizeof(double), "Newton history", &s->newton_history));
  HDGCL_TRY(hdgcl_calloc((size_t)s->newton_max + 1, sizeof(int), "Newton iterations", &s->newton_iterations));
  res->newton_history = s->newton_history;
  res->newton_iterations = s->newton_iterations;
  res->newton_rtol = s->newton_rtol;
  res->newton_steps = 0;
  res->solver = "gmres";
  res->restart = s->restart;
  res->ptc_steps = 0;
  res->ptc_dt_first = res->ptc_dt_last = NAN;
  newton_backend b = {.s = s, .set = solver_krylov_settings(s)};
  b.set.solver = SOLVER_GMRES; /* the Jacobian is not symmetric (N6) */
  double *c0 = NULL, dt = s->ptc ? s->ptc_dt0 : 0.0; /* the pseudo time step (N18) */
  size_t ne = (size_t)disc->mesh->num_elements;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n + 1, sizeof(double), "Newton update", &b.dx), done);
  if (s->ptc) {
    HDGCL_TRY_GOTO(status, hdgcl_calloc(ne, sizeof(double), "PTC: c", &c0), done);
    memcpy(c0, disc->c, sizeof(double) * ne);
    res->ptc_dt_first = dt;
  }
  HDGCL_TRY_GOTO(status, reference_newton_create(disc, sol, &b.rn), done);
  if (!from_solution && s->newton_start_exact) { /* --newton-start exact: u = P u_exact, q = 0 */
    HDGCL_TRY_GOTO(status, discretisation_project_exact(disc, sol->u), done);
    memset(sol->q, 0, sizeof(double) * ne * disc->ref.sz.np * disc->ref.sz.dim);
    memset(sol->trace, 0, sizeof(double) * disc->mesh->num_faces * disc->ref.sz.nf);
    from_solution = true;
  }
  HDGCL_TRY_GOTO(status, reference_newton_initial_state(b.rn, from_solution), done);
  if (s->dev) HDGCL_TRY_GOTO(status, local_newton_create(s->dev, &b.dev), done);
  sol->initial_guess = false;
  double r, r0, eta = s->rtol;
  if (s->ptc) HDGCL_TRY_GOTO(status, ptc_shift(&b, c0, dt), done);
  HDGCL_TRY_GOTO(status, backend_linearise(&b, &r), done);
  r0 = r;
  s->newton_history[0] = r;
  double target = fmax(s->newton_rtol * r0, NEWTON_ATOL); /* (N10) */
  int total_iterations = 0, k = 0;
  for (;; k++) {
    if (!isfinite(r)) {
      status = hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                           "Newton's method diverged: residual %g after %d steps", r, k);
      goto done;
    }
    if (r <= target) break;
    if (k == s->newton_max) {
      status = hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                           "Newton's method did not converge in %d steps (--newton-max): residual "
                           "%.3e, %.3e of the first (--newton-rtol %g)",
                           k, r, r / r0, s->newton_rtol);
      goto done;
    }
    /* (N6): the trace update by the Krylov method to the forcing term eta. */
    sol->history_length = 0;
    int its = 0;
    HDGCL_TRY_GOTO(status, backend_solve(&b, eta, &its), done);
    s->newton_iterations[k] = its;
    total_iterations += its;
    /* (N11): backtracking on ||R||. */
    double alpha = 1.0, rn_norm = NAN;
    int tries = 0;
    for (; tries <= NEWTON_LS_HALVINGS; tries++, alpha *= 0.5) {
      /* kappa(u) <= 0 at a trial state is an error (docs/nonlinear.md section 5) */
      HDGCL_TRY_GOTO(status, backend_update(&b, alpha, &rn_norm), done);
      if (isfinite(rn_norm) && rn_norm <= (1.0 - NEWTON_LS_DECREASE * alpha) * r) break;
    }
    if (tries > NEWTON_LS_HALVINGS) {
      status = hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                           "Newton's method diverged: the line search found no decrease of the "
                           "residual %.3e at step %d (%d halvings)",
                           r, k + 1, NEWTON_LS_HALVINGS);
      goto done;
    }
    if (dt > 0) { /* (N18): the steady residual at the new state, then SER */
      res->ptc_steps = k + 1;
      res->ptc_dt_last = dt;
      HDGCL_TRY_GOTO(status, ptc_shift(&b, c0, 0.0), done);
      HDGCL_TRY_GOTO(status, backend_residual(&b, &rn_norm), done);
      dt = isfinite(rn_norm) && rn_norm > 0 ? dt * r / rn_norm : dt;
      if (dt >= s->ptc_dt_max) dt = 0.0; /* capped: plain Newton steps from here */
      HDGCL_TRY_GOTO(status, ptc_shift(&b, c0, dt), done);
    }
    if (s->newton_forcing == NEWTON_FORCING_EW) eta = forcing(eta, rn_norm, r, s->rtol, target);
    r = rn_norm;
    s->newton_history[k + 1] = r;
    res->newton_steps = k + 1;
    HDGCL_TRY_GOTO(status, backend_linearise(&b, &r), done);
  }
  res->newton_steps = k;
  if (b.dev) HDGCL_TRY_GOTO(status, local_newton_download(b.dev), done);
  HDGCL_TRY_GOTO(status, reference_newton_recover(b.rn), done);
  sol->iterations = total_iterations;
  sol->residual = r0 > 0 ? r / r0 : 0.0;
  status = HDGCL_SUCCESS;
done:
  if (c0) { /* the problem's own reaction again, no element load */
    memcpy(disc->c, c0, sizeof(double) * ne);
    memset(disc->element_load, 0, sizeof(double) * ne * disc->ref.sz.np);
  }
  free(c0);
  local_newton_destroy(&b.dev);
  reference_newton_destroy(&b.rn);
  free(b.dx);
  return status;
}
