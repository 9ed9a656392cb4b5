/* The serial reference path as a trace operator (discretisation/trace_operator.h). */
#include "reference/reference_operator.h"

#include "core/error.h"

static int op_assemble(void *impl) { return reference_path_assemble(impl); }
static int op_apply(void *impl, const double *x, double *y) {
  return reference_path_apply(impl, x, y);
}
static int op_solve(void *impl) { return reference_path_solve(impl); }
static int op_recover(void *impl) { return reference_path_recover(impl); }
/* The assembly already wrote A and b into the solution's host arrays. */
static int op_matrix(void *impl) {
  (void)impl;
  return HDGCL_SUCCESS;
}
static void op_destroy(void *impl) {
  reference_path *rp = impl;
  reference_path_destroy(&rp);
}

static const trace_operator_ops reference_ops = {"reference", op_assemble, op_apply, op_solve,
                                                 op_recover,  op_matrix,   op_destroy,
                                                 NULL};

int reference_operator_create(const hdg_discretisation *disc, const solver_settings *set,
                              hdg_solution *sol, trace_operator *op) {
  *op = (trace_operator){0};
  reference_path *rp;
  HDGCL_TRY(reference_path_create(disc, set, sol, &rp));
  *op = (trace_operator){.ops = &reference_ops, .impl = rp};
  return HDGCL_SUCCESS;
}
