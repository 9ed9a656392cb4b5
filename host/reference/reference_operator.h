/* The serial reference path behind the trace operator's interface. */
#ifndef HDGCL_HOST_REFERENCE_OPERATOR_H
#define HDGCL_HOST_REFERENCE_OPERATOR_H

#include "discretisation/trace_operator.h"
#include "reference/reference.h"

/* The reference path of disc with the Krylov settings set (CG or GMRES with
 * none, jacobi or block-jacobi), writing into sol, wrapped in *op. */
int reference_operator_create(const hdg_discretisation *disc, const solver_settings *set,
                              hdg_solution *sol, trace_operator *op);

#endif
