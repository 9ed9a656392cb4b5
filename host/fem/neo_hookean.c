/* The compressible Neo-Hookean law (neo_hookean.h, docs/nonlinear.md (N19)-(N20)). */
#include "fem/neo_hookean.h"

#include <math.h>

/* F^-1 of the d x d matrix f (row-major) with determinant det. */
static void inverse(int d, const double *f, double det, double *fi) {
  if (d == 2) {
    fi[0] = f[3] / det;
    fi[1] = -f[1] / det;
    fi[2] = -f[2] / det;
    fi[3] = f[0] / det;
    return;
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) { /* fi_ij = cofactor_ji / det */
      int j1 = (j + 1) % 3, j2 = (j + 2) % 3, i1 = (i + 1) % 3, i2 = (i + 2) % 3;
      fi[i * 3 + j] = (f[j1 * 3 + i1] * f[j2 * 3 + i2] - f[j1 * 3 + i2] * f[j2 * 3 + i1]) / det;
    }
}

int neo_hookean_stress(int d, double mu, double lambda, const double *h, double *p, double *a,
                       double *jdet) {
  double f[9], fi[9];
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++) f[i * d + j] = (i == j ? 1.0 : 0.0) + h[i * d + j];
  double det = d == 2 ? f[0] * f[3] - f[1] * f[2]
                      : f[0] * (f[4] * f[8] - f[5] * f[7]) - f[1] * (f[3] * f[8] - f[5] * f[6]) +
                            f[2] * (f[3] * f[7] - f[4] * f[6]);
  *jdet = det;
  if (!(det > 0) || !isfinite(det)) return -1;
  inverse(d, f, det, fi);
  /* (N19) P = mu (F - F^-T) + lambda J (J - 1) F^-T, (F^-T)_ij = fi_ji */
  double s = lambda * det * (det - 1.0);
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++) p[i * d + j] = mu * f[i * d + j] + (s - mu) * fi[j * d + i];
  if (!a) return 0;
  /* (N20) dP_ij/dF_kl = mu d_ik d_jl + (mu - s) fi_jk fi_li + lambda (2J - 1) J fi_ji fi_lk,
   * from d(F^-T)_ij / dF_kl = -fi_jk fi_li and dJ / dF_kl = J fi_lk */
  double t = lambda * (2.0 * det - 1.0) * det;
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++)
      for (int k = 0; k < d; k++)
        for (int l = 0; l < d; l++)
          a[((i * d + j) * d + k) * d + l] = (i == k && j == l ? mu : 0.0) +
                                             (mu - s) * fi[j * d + k] * fi[l * d + i] +
                                             t * fi[j * d + i] * fi[l * d + k];
  return 0;
}
