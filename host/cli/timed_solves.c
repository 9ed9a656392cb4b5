/* Repeated solves with median stage times (hdgcl solve and hdgcl bench). */
#include <stdlib.h>

#include "cli/cli.h"
#include "core/error.h"

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Solves warmup + repeat times; the result's stage times become the medians
 * over the repeats (everything else is the same in every repeat). */
int cli_timed_solves(hdgcl_solver solver, int warmup, int repeat, hdgcl_result *out) {
  double *times;
  HDGCL_TRY(hdgcl_calloc((size_t)repeat * HDGCL_NUM_STAGES, sizeof(double), "timings", &times));
  int status = HDGCL_SUCCESS;
  const hdgcl_result *r = NULL;
  for (int i = 0; i < warmup + repeat && status == HDGCL_SUCCESS; i++) {
    status = hdgcl_solver_solve(solver);
    if (status == HDGCL_SUCCESS) status = hdgcl_solver_result(solver, &r);
    if (status == HDGCL_SUCCESS && i >= warmup)
      for (int st = 0; st < HDGCL_NUM_STAGES; st++)
        times[st * repeat + (i - warmup)] = r->stages[st].seconds;
  }
  if (status == HDGCL_SUCCESS) {
    *out = *r;
    out->total_seconds = 0.0;
    for (int st = 0; st < HDGCL_NUM_STAGES; st++) {
      double *t = times + st * repeat;
      qsort(t, repeat, sizeof *t, compare_doubles);
      out->stages[st].seconds = repeat % 2 ? t[repeat / 2] : 0.5 * (t[repeat / 2 - 1] + t[repeat / 2]);
      out->total_seconds += out->stages[st].seconds;
    }
  }
  free(times);
  return status;
}
