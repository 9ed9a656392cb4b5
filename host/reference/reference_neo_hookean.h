/* Reference path, HDG for compressible Neo-Hookean hyperelasticity
 * (docs/nonlinear.md section 11): the element residual (N22) of the
 * displacement-gradient mixed form (unknowns H = grad u, u and the trace
 * uhat, the layout of linear elasticity, docs/elasticity.md section 4) with
 * the first Piola stress P(I + H) of fem/neo_hookean.h in place of the linear
 * stress, and its exact Jacobian (N23). */
#ifndef HDGCL_HOST_REFERENCE_NEO_HOOKEAN_H
#define HDGCL_HOST_REFERENCE_NEO_HOOKEAN_H

#include "discretisation/discretisation.h"

/* The number of unknowns of one element of disc (a vector problem, ncomp =
 * dim): d d N_p (H) + d N_p (u) + d N_t (the trace of its faces). */
int reference_neo_hookean_size(const hdg_discretisation *disc);

/* Element e's residual at the state x = [H [d][d][N_p] (H_cj = d_j u_c), u
 * [d][N_p], uhat [face][d][N_f]] into r (same layout: the H rows, the u
 * rows, then the element's part of the trace equations (E4),
 * <hhat, m>_dK), without the load -(f, w)_K; on the faces f with bit f of
 * traction set (traction faces) the trace rows take the physical flux
 * (N26), without the load <t, m>_F; with jac (n x n, row-major,
 * n = reference_neo_hookean_size) also dr/dx.  mu, lambda: the element's
 * Lame parameters; tau the discretisation's.  J = det(I + H_h) <= 0 at a
 * quadrature point is an HDGCL_ERROR_ARGUMENT naming the element. */
int reference_neo_hookean_element(const hdg_discretisation *disc, int32_t e, double mu,
                                  double lambda, unsigned traction, const double *x, double *r,
                                  double *jac);

/* *jmin = the least J = det(I + H_h) over the points where element e's
 * residual evaluates the stress (the load points and every face's points) at
 * the state x (layout as above; -HUGE_VAL where not finite): the line
 * search's test for a trial state (docs/nonlinear.md section 11). */
int reference_neo_hookean_min_j(const hdg_discretisation *disc, int32_t e, const double *x,
                                double *jmin);

#endif
