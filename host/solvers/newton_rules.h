/* The stopping and line-search rules that both Newton loops share: the
 * driver's (host/drivers/newton.c: the scalar problems, on the reference
 * path and on devices) and the Neo-Hookean one
 * (host/reference/reference_neo_hookean_solve.c); docs/nonlinear.md
 * (N10)-(N11). */
#ifndef HDGCL_HOST_NEWTON_RULES_H
#define HDGCL_HOST_NEWTON_RULES_H

/* The absolute floor of the stopping test (N10): ||R|| <= max(newton_rtol ||R_0||,
 * NEWTON_ATOL). */
#define NEWTON_ATOL 1e-13

/* Line search (N11): halvings of the step before it gives up, and the
 * sufficient decrease ||R(x + a dx)|| <= (1 - NEWTON_LS_DECREASE a) ||R(x)||. */
#define NEWTON_LS_HALVINGS 12
#define NEWTON_LS_DECREASE 1e-4

#endif
