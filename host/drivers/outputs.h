/* What the outputs of a user's problem share (host/drivers/outputs.c, host/drivers/output_reaction.c):
 * the solution and the stress at a point of an element. */
#ifndef HDGCL_HOST_OUTPUTS_H
#define HDGCL_HOST_OUTPUTS_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/solver_impl.h"
#include "problem/user_problem.h"

/* u (val[c]) and its flux q, or H for elasticity (flux[c * dim + k]), at reference
 * point X of element e; phi: room for the np basis values. */
int output_evaluate(hdgcl_solver s, int32_t e, const double *X, double *phi, double *val,
                    double *flux);

/* The stress sigma = mu (H + H^T) + lambda tr(H) I of element e (docs/elasticity.md (E12)). */
void output_stress(hdgcl_solver s, int32_t e, const double *h, double *sig);

/* True if tag is one of ids[0..n-1]. */
bool output_has_tag(const int32_t *ids, int n, int32_t tag);

/* The reaction force on the output's tagged faces (docs/problems.md (P5)). */
int output_reaction(hdgcl_solver s, hdg_user_output *o, double *phi);

#endif
