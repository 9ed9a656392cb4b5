/* Reference path, viscous Burgers (docs/nonlinear.md section 9): the
 * convective part of the HDG residual, F(u) = u^2/2 (1, 1 [, 1]) with the
 * numerical flux F(lambda).n + tau_c(lambda) (u - lambda), tau_c = |F'(lambda).n|
 * (N15; paper 001 section 2.1, (5d), with S = tau + tau_c), and its exact
 * derivatives (N16).  The viscous part and the constant
 * stabilisation tau are nonlinear diffusion's with kappa = nu (N2)-(N3). */
#ifndef HDGCL_HOST_REFERENCE_BURGERS_H
#define HDGCL_HOST_REFERENCE_BURGERS_H

#include "discretisation/discretisation.h"

/* The derivatives (N16) of the convective terms, row-major; every block is
 * overwritten. */
typedef struct burgers_jacobian {
  double *uu; /* [np][np]  d R_u / d u */
  double *ul; /* [np][nt]  d R_u / d lambda */
  double *tu; /* [nt][np]  d R_T^e / d u */
  double *tl; /* [nt][nt]  d R_T^e / d lambda */
} burgers_jacobian;

/* Adds the convective terms (N15) of element e at its state (u: np
 * coefficients, lam: the nt trace values of its faces) to ru (the u rows of
 * R_L, np) and rt (R_T^e, nt); with jb, writes their derivatives (N16). */
int reference_burgers_terms(const hdg_discretisation *disc, int32_t e, const double *u,
                            const double *lam, double *ru, double *rt, burgers_jacobian *jb);

#endif
