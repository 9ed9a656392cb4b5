/* The compressible Neo-Hookean law of paper 001 (section 5.4, (30)),
 * docs/nonlinear.md section 11: with F = I + H (H = grad u the displacement
 * gradient), J = det F and the right Cauchy-Green tensor C = F^T F,
 *   W(F) = mu/2 (tr C - d) - mu ln J + lambda/2 (J - 1)^2,
 * its first Piola-Kirchhoff stress P = dW/dF (N19) and the exact consistent
 * tangent A = dP/dF (N20).  In 2D the same formulas on 2 x 2 matrices are
 * plane strain (F_33 = 1). */
#ifndef HDGCL_HOST_NEO_HOOKEAN_H
#define HDGCL_HOST_NEO_HOOKEAN_H

/* At the displacement gradient h [d][d] (row-major, h[i d + j] = d_j u_i;
 * d = 2 or 3): P [d][d] and, unless NULL, A [d][d][d][d] with
 * A[((i d + j) d + k) d + l] = dP_ij / dF_kl; *jdet = det F.  Returns 0, or
 * -1 where J <= 0 (or not finite): then P and A are not written. */
int neo_hookean_stress(int d, double mu, double lambda, const double *h, double *p, double *a,
                       double *jdet);

#endif
