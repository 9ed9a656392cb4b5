/* The trace operator's steps (trace_operator.h): the order they must come in,
 * checked here once for both implementations. */
#include "discretisation/trace_operator.h"

#include "core/error.h"

static int require(const trace_operator *op, int done, const char *step, const char *before) {
  if (!op->ops) return hdgcl_error(HDGCL_ERROR_INTERNAL, "trace operator: %s without an operator", step);
  if ((op->done & done) != done)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "%s trace operator: %s before %s", op->ops->name, step,
                       before);
  return HDGCL_SUCCESS;
}

int trace_operator_assemble(trace_operator *op) {
  HDGCL_TRY(require(op, 0, "assemble", ""));
  op->done = 0;
  HDGCL_TRY(op->ops->assemble(op->impl));
  op->done = TRACE_ASSEMBLED;
  return HDGCL_SUCCESS;
}

int trace_operator_apply(trace_operator *op, const double *x, double *y) {
  HDGCL_TRY(require(op, TRACE_ASSEMBLED, "apply", "the assembly"));
  return op->ops->apply(op->impl, x, y);
}

int trace_operator_solve(trace_operator *op) {
  HDGCL_TRY(require(op, TRACE_ASSEMBLED, "the solve", "the assembly"));
  op->done &= ~TRACE_SOLVED;
  HDGCL_TRY(op->ops->solve(op->impl));
  op->done |= TRACE_SOLVED;
  return HDGCL_SUCCESS;
}

int trace_operator_recover(trace_operator *op) {
  HDGCL_TRY(require(op, TRACE_ASSEMBLED | TRACE_SOLVED, "the recovery", "the solve"));
  return op->ops->recover(op->impl);
}

int trace_operator_matrix(trace_operator *op) {
  HDGCL_TRY(require(op, TRACE_ASSEMBLED, "the matrix", "the assembly"));
  return op->ops->matrix(op->impl);
}

int trace_operator_set_trace(trace_operator *op, const double *x) {
  HDGCL_TRY(require(op, TRACE_ASSEMBLED, "set_trace", "the assembly"));
  if (!op->ops->set_trace)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "the %s trace operator cannot take a trace solved "
                       "elsewhere (a distributed solve needs an OpenCL device)", op->ops->name);
  op->done &= ~TRACE_SOLVED;
  HDGCL_TRY(op->ops->set_trace(op->impl, x));
  op->done |= TRACE_SOLVED;
  return HDGCL_SUCCESS;
}

void trace_operator_destroy(trace_operator *op) {
  if (op->ops) op->ops->destroy(op->impl);
  *op = (trace_operator){0};
}
