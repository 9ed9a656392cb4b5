/* The trace operator (docs/architecture.md): the condensed trace system of one
 * discretisation, A uhat = b (F11), and what is built from its solution.  It
 * has two implementations, the device pipeline (host/pipeline/pipeline_operator.c)
 * and the serial reference path (host/reference/reference_operator.c); drivers
 * and tests see only this interface, so a test runs the same steps on both
 * and compares, and Newton's method or time stepping calls them many times.
 *
 * Each operator is created on a discretisation and an hdg_solution made for
 * it (hdg_solution_create), both of which must outlive it; every step writes
 * into that solution (arrays, figures, stage seconds added to).  The steps:
 *   assemble  the local stage and the assembly of A and b at the
 *             discretisation's data (its coefficients, boundary data);
 *   apply     y = A x, host arrays of num_unknown_faces * nfb values, after
 *             assemble;
 *   solve     the Krylov solve of A uhat = b, after assemble: the trace of
 *             every face in sol->trace (boundary data on Dirichlet faces),
 *             iterations, residual and its history;
 *   recover   u, q (H), u*, p, the error norms and u*'s check, after solve;
 *   matrix    sol->matrix and sol->rhs hold A and b, after assemble;
 *   set_trace in place of solve: x, solved elsewhere (the distributed
 *             solve of docs/mpi.md), as the trace of the unknown faces
 *             (NULL: already in the operator's own solution vector);
 *             the device pipeline only.
 * A step out of order is an internal error, not undefined behaviour (checked by
 * trace_operator.c, so the implementations need not). */
#ifndef HDGCL_HOST_TRACE_OPERATOR_H
#define HDGCL_HOST_TRACE_OPERATOR_H

typedef struct trace_operator_ops {
  const char *name; /* "device" or "reference" */
  int (*assemble)(void *impl);
  int (*apply)(void *impl, const double *x, double *y);
  int (*solve)(void *impl);
  int (*recover)(void *impl);
  int (*matrix)(void *impl);
  void (*destroy)(void *impl);
  /* x (num_unknown_faces * nfb values) as the solve's result, or NULL where
   * the implementation has no such step (the reference path). */
  int (*set_trace)(void *impl, const double *x);
} trace_operator_ops;

typedef struct trace_operator {
  const trace_operator_ops *ops; /* NULL: no operator */
  void *impl;
  int done; /* TRACE_ASSEMBLED, TRACE_SOLVED: the steps done since the last assembly */
} trace_operator;

enum { TRACE_ASSEMBLED = 1, TRACE_SOLVED = 2 };

/* The steps (trace_operator.c): each checks the order, then calls the implementation. */
int trace_operator_assemble(trace_operator *op);
int trace_operator_apply(trace_operator *op, const double *x, double *y);
int trace_operator_solve(trace_operator *op);
int trace_operator_recover(trace_operator *op);
int trace_operator_matrix(trace_operator *op);
int trace_operator_set_trace(trace_operator *op, const double *x);
void trace_operator_destroy(trace_operator *op);

#endif
