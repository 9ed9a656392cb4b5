/* Time stepping (time_stepping.h, docs/time.md). */
#include "drivers/time_stepping.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "drivers/newton.h"
#include "drivers/solver_impl.h"

/* A singly diagonally implicit, stiffly accurate Runge-Kutta scheme: stage
 * i solves for u_i = u^n + dt sum_j a_ij k_j at t^n + c_i dt, and u^{n+1} is
 * the last stage (b = the last row of a).  BDF2 is the entry with no stages:
 * it takes its first step with DIRK(2,2). */
typedef struct time_scheme {
  int order, stages;
  double a[3][3], c[3];
} time_scheme;

const char *const time_scheme_names[] = {"be", "dirk2", "dirk3", "bdf2", NULL};
enum { SCHEME_BE, SCHEME_DIRK2, SCHEME_DIRK3, SCHEME_BDF2 };

/* DIRK(2,2): gamma = 1 - 1/sqrt(2); DIRK(3,3): gamma the root in (1/6, 1/2) of
 * gamma^3 - 3 gamma^2 + 3/2 gamma - 1/6 = 0, tau = (1 + gamma)/2,
 * b1 = -(6 gamma^2 - 16 gamma + 1)/4, b2 = (6 gamma^2 - 20 gamma + 5)/4
 * (R. Alexander, SIAM J. Numer. Anal. 14 (1977), both L-stable). */
#define G2 0.29289321881345247560
#define G3 0.43586652150845899942
#define T3 0.71793326075422949971
#define B31 1.20849664917601007033
#define B32 -0.64436317068446906975
static const time_scheme schemes[] = {
    {1, 1, {{1.0}}, {1.0}},
    {2, 2, {{G2, 0.0}, {1.0 - G2, G2}}, {G2, 1.0}},
    {3, 3, {{G3, 0.0, 0.0}, {T3 - G3, G3, 0.0}, {B31, B32, G3}}, {G3, T3, 1.0}},
    {2, 0, {{0.0}}, {0.0}},
};

int time_scheme_order(int scheme) { return schemes[scheme].order; }

/* One stage: solve (1/(a dt)) u + N(u) = f(t) + s, s = ubar / (a dt) (docs/time.md
 * (T2)), i.e. the reaction c + shift and the element load s, at time t. */
typedef struct stepper {
  hdgcl_solver s;
  size_t n;              /* num_elements * np */
  double *c0;            /* the problem's own reaction per element */
  double seconds[HDGCL_NUM_STAGES];
  int64_t iterations;
  int solves, iterations_max;
  int newton_steps; /* Newton steps summed over the stages (a nonlinear problem) */
  double residual_max;
} stepper;

static int stage_solve(stepper *st, double t, double shift, const double *ubar) {
  hdgcl_solver s = st->s;
  hdg_discretisation *d = &s->disc;
  for (int32_t e = 0; e < d->mesh->num_elements; e++) d->c[e] = st->c0[e] + shift;
  for (size_t i = 0; i < st->n; i++) d->element_load[i] = shift * ubar[i];
  d->params.param = t;
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) s->sol.stage_seconds[i] = 0.0;
  s->sol.history_length = 0; /* each stage's solve has its own history */
  int status;
  if (s->newton) { /* a nonlinear stage: Newton from the previous stage's state (docs/nonlinear.md) */
    status = newton_run(s, true);
    st->newton_steps += s->result.newton_steps;
  } else {
    s->sol.initial_guess = true; /* from the previous stage's trace (T5) */
    if (s->stage_steps) { /* a distributed solve (host/parallel) */
      status = s->stage_steps(s, s->solve_steps_data);
    } else {
      HDGCL_TRY(trace_operator_assemble(&s->op));
      status = trace_operator_solve(&s->op);
    }
  }
  st->iterations += s->sol.iterations;
  if (s->sol.iterations > st->iterations_max) st->iterations_max = s->sol.iterations;
  if (s->sol.residual > st->residual_max) st->residual_max = s->sol.residual;
  st->solves++;
  if (status == HDGCL_SUCCESS && !s->newton) status = trace_operator_recover(&s->op);
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) st->seconds[i] += s->sol.stage_seconds[i];
  if (status != HDGCL_SUCCESS) {
    char why[512];
    snprintf(why, sizeof why, "%s", hdgcl_last_error());
    return hdgcl_error(status, "time %.6g (stage solve %d): %s", t, st->solves, why);
  }
  return HDGCL_SUCCESS;
}

/* The figures of the solves so far into s->sol (iterations summed, the
 * largest residual, stage seconds summed) and the scheme's into s->result. */
static void record_figures(stepper *st, int steps, double dt) {
  hdgcl_solver s = st->s;
  s->sol.iterations = st->iterations > INT32_MAX ? INT32_MAX : (int)st->iterations;
  s->sol.residual = st->residual_max;
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) s->sol.stage_seconds[i] = st->seconds[i];
  s->result.scheme = time_scheme_names[s->scheme];
  s->result.time_steps = steps;
  s->result.time_step = dt;
  s->result.final_time = s->final_time;
  s->result.stage_solves = st->solves;
  s->result.iterations_max = st->iterations_max;
  s->result.newton_steps_all = st->newton_steps;
}

/* After step `step` of `steps`: the user's step callback, with the step's
 * solution and figures visible through the API (hdgcl_solver_set_step_callback). */
static int step_done(stepper *st, int step, int steps, double dt) {
  hdgcl_solver s = st->s;
  if (!s->on_step) return HDGCL_SUCCESS;
  record_figures(st, steps, dt);
  solver_figures_to_result(s);
  s->solved = true;
  int status = s->on_step(s->on_step_data, s, step, dt * step);
  s->solved = false;
  if (status == HDGCL_SUCCESS) return HDGCL_SUCCESS;
  char why[512];
  snprintf(why, sizeof why, "%s", hdgcl_last_error());
  return hdgcl_error(status, "step %d (t = %.6g): the step callback returned %s: %s", step, dt * step,
                     hdgcl_status_name(status), why);
}

/* One step of the Runge-Kutta scheme sc from (t, u) to t + dt; u is updated. */
static int rk_step(stepper *st, const time_scheme *sc, double t, double dt, double *u,
                   double *ubar, double *k[3]) {
  for (int i = 0; i < sc->stages; i++) {
    double aii = sc->a[i][i];
    /* ubar = u^n + dt sum_{j<i} a_ij k_j */
    for (size_t m = 0; m < st->n; m++) {
      double v = u[m];
      for (int j = 0; j < i; j++) v += dt * sc->a[i][j] * k[j][m];
      ubar[m] = v;
    }
    HDGCL_TRY(stage_solve(st, t + sc->c[i] * dt, 1.0 / (aii * dt), ubar));
    /* k_i = (u_i - ubar) / (a_ii dt): the stage's u_t, from u_i itself */
    const double *ui = st->s->sol.u;
    for (size_t m = 0; m < st->n; m++) k[i][m] = (ui[m] - ubar[m]) / (aii * dt);
  }
  memcpy(u, st->s->sol.u, sizeof(double) * st->n); /* stiffly accurate: u^{n+1} = u_s */
  return HDGCL_SUCCESS;
}

int time_stepping_run(hdgcl_solver s) {
  hdg_discretisation *d = &s->disc;
  const time_scheme *sc = &schemes[s->scheme];
  stepper st = {.s = s, .n = (size_t)d->mesh->num_elements * d->ref.sz.np};
  /* N steps of dt = T / N, the first N with dt <= the time step asked */
  double steps_real = ceil(s->final_time / s->time_step * (1.0 - 1e-12));
  if (!(steps_real <= 1e8))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--final-time %g / --time-step %g: %.3g steps, more than 1e8",
                       s->final_time, s->time_step, steps_real);
  int steps = steps_real < 1 ? 1 : (int)steps_real;
  double dt = s->final_time / steps;
  double *u = NULL, *uprev = NULL, *ubar = NULL, *k[3] = {NULL, NULL, NULL};
  int status;
  size_t ne = (size_t)d->mesh->num_elements;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(ne, sizeof(double), "time stepping: c", &st.c0), done);
  memcpy(st.c0, d->c, sizeof(double) * ne);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(st.n, sizeof(double), "time stepping: u", &u), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(st.n, sizeof(double), "time stepping: u previous", &uprev), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(st.n, sizeof(double), "time stepping: stage", &ubar), done);
  for (int i = 0; i < 3; i++)
    HDGCL_TRY_GOTO(status, hdgcl_calloc(st.n, sizeof(double), "time stepping: k", &k[i]), done);
  d->params.param = 0.0;
  HDGCL_TRY_GOTO(status, discretisation_project_exact(d, u), done); /* u^0 */
  if (s->newton) { /* Newton's first state: u^0, q = 0, trace 0 (N8) */
    memcpy(s->sol.u, u, sizeof(double) * st.n);
    memset(s->sol.q, 0, sizeof(double) * st.n * d->ref.sz.dim);
    memset(s->sol.trace, 0, sizeof(double) * d->mesh->num_faces * d->ref.sz.nfb);
  }
  for (int n = 0; n < steps; n++) {
    double t = dt * n;
    if (s->scheme != SCHEME_BDF2 || n == 0) {
      memcpy(uprev, u, sizeof(double) * st.n);
      HDGCL_TRY_GOTO(status, rk_step(&st, sc->stages ? sc : &schemes[SCHEME_DIRK2], t, dt, u, ubar, k),
                     done);
    } else {
      /* BDF2 (T4): (3 u^{n+1} - 4 u^n + u^{n-1}) / (2 dt) + N(u^{n+1}) = f(t^{n+1}),
       * i.e. shift 3 / (2 dt) and ubar = (4 u^n - u^{n-1}) / 3. */
      for (size_t m = 0; m < st.n; m++) ubar[m] = (4.0 * u[m] - uprev[m]) / 3.0;
      HDGCL_TRY_GOTO(status, stage_solve(&st, t + dt, 1.5 / dt, ubar), done);
      memcpy(uprev, u, sizeof(double) * st.n);
      memcpy(u, s->sol.u, sizeof(double) * st.n);
    }
    HDGCL_TRY_GOTO(status, step_done(&st, n + 1, steps, dt), done);
    if (s->ctx->progress)
      hdgcl_progress(s->ctx, "step %d of %d, t = %.6g, %d stage solves, %lld iterations", n + 1,
                     steps, dt * (n + 1), st.solves, (long long)st.iterations);
  }
  status = HDGCL_SUCCESS;
done:
  record_figures(&st, steps, dt); /* of every solve so far, also after a failure */
  if (st.c0) memcpy(d->c, st.c0, sizeof(double) * ne); /* the problem's own again */
  s->sol.initial_guess = false;
  free(st.c0);
  free(u);
  free(uprev);
  free(ubar);
  for (int i = 0; i < 3; i++) free(k[i]);
  return status;
}
