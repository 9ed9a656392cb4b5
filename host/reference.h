/* Reference path stages (reference_*.c), driven by reference.c. */
#ifndef HDGCL_HOST_REFERENCE_H
#define HDGCL_HOST_REFERENCE_H

#include "reference_local.h"
#include "solver_impl.h"

/* Fills s->matrix and s->rhs (F11) from the condensed elements. */
int reference_assemble(hdgcl_solver s, const double *bvals);

/* Preconditioned CG on s->matrix; x has rows*nf values (output). */
int reference_cg(hdgcl_solver s, double *x);
int reference_gmres(hdgcl_solver s, double *x);

/* u, q (F8)-(F9), u* (F12) and the error norms into s->result. */
int reference_recover(hdgcl_solver s);

#endif
