/* Reference-element tables of the device pipeline (docs/formulation.md
 * section 7): differentiation, face trace and face mass matrices, the
 * quadratures of the load, boundary data and error norms, and the
 * postprocessing matrices.  Built once per (element type, order). */
#include <stdlib.h>
#include <string.h>

#include "basis.h"
#include "error.h"
#include "face_map.h"
#include "hdg.h"

/* Quadrature degrees (docs/formulation.md section 6). */
#define LOAD_EXTRA_DEGREE 3  /* load and boundary data: 2p + 3 */
#define ERROR_EXTRA_DEGREE 4 /* error norms: 2(p+1) + 4 */

static int alloc_doubles(size_t n, const char *what, double **p) {
  return hdgcl_calloc(n ? n : 1, sizeof(double), what, p);
}

/* out[i][j] = sum_k a[i][k] b[j][k]  (a: n x m, b: n2 x m, out n x n2) */
static void multiply_abt(int n, int n2, int m, const double *a, const double *b, double *out) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n2; j++) {
      double s = 0.0;
      for (int k = 0; k < m; k++) s += a[i * m + k] * b[j * m + k];
      out[i * n2 + j] = s;
    }
}

/* out[i][j] = sum_k a[i][k] b[k][j]  (a: n x m, b: m x n2) */
static void multiply_ab(int n, int n2, int m, const double *a, const double *b, double *out) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n2; j++) {
      double s = 0.0;
      for (int k = 0; k < m; k++) s += a[i * m + k] * b[k * n2 + j];
      out[i * n2 + j] = s;
    }
}

/* Volume tables: Dm_l, Dm_l Dm_m^T, postprocessing matrices. */
static int volume_tables(hdg_reference *ref) {
  const hdg_sizes *sz = &ref->sz;
  int d = sz->dim, np = sz->np, np1 = sz->np1, p = sz->order;
  hdgcl_quadrature q = {0};
  double *val = NULL, *grad = NULL;
  int status;
  /* Degree 2p+2 integrates products of two degree p+1 functions. */
  HDGCL_TRY_GOTO(status, hdgcl_quadrature_create(sz->shape, 2 * p + 2, &q), done);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)q.n * np1, "basis values", &val), done);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)q.n * np1 * d, "basis gradients", &grad), done);
  HDGCL_TRY_GOTO(status, hdgcl_basis_eval(sz->shape, p + 1, q.n, q.points, val, grad), done);
  /* Dm_l[i][j] = sum_q w phi_i d_l phi_j, for i, j < np (degree p basis). */
  for (int l = 0; l < d; l++)
    for (int i = 0; i < np; i++)
      for (int j = 0; j < np; j++) {
        double s = 0.0;
        for (int k = 0; k < q.n; k++)
          s += q.weights[k] * val[(size_t)k * np1 + i] * grad[((size_t)k * np1 + j) * d + l];
        ref->dm[((size_t)l * np + i) * np + j] = s;
      }
  for (int l = 0; l < d; l++)
    for (int m = 0; m < d; m++)
      multiply_abt(np, np, np, ref->dm + (size_t)l * np * np, ref->dm + (size_t)m * np * np,
                   ref->dmdmt + (size_t)(l * d + m) * np * np);
  /* kpost[l][m][i][j] = (d_l phi+_i, d_m phi+_j); dpost[l][i][j] = (d_l phi+_i, phi_j). */
  for (int l = 0; l < d; l++)
    for (int i = 0; i < np1; i++) {
      for (int m = 0; m < d; m++)
        for (int j = 0; j < np1; j++) {
          double s = 0.0;
          for (int k = 0; k < q.n; k++)
            s += q.weights[k] * grad[((size_t)k * np1 + i) * d + l] *
                 grad[((size_t)k * np1 + j) * d + m];
          ref->kpost[((size_t)(l * d + m) * np1 + i) * np1 + j] = s;
        }
      for (int j = 0; j < np; j++) {
        double s = 0.0;
        for (int k = 0; k < q.n; k++)
          s += q.weights[k] * grad[((size_t)k * np1 + i) * d + l] * val[(size_t)k * np1 + j];
        ref->dpost[((size_t)l * np1 + i) * np + j] = s;
      }
    }
done:
  free(val);
  free(grad);
  hdgcl_quadrature_destroy(&q);
  return status;
}

/* Face tables: Ef_{f,o}, Pf_f and Dm_l Ef_{f,o}. */
static int face_tables(hdg_reference *ref) {
  const hdg_sizes *sz = &ref->sz;
  int d = sz->dim, np = sz->np, nf = sz->nf, p = sz->order;
  hdgcl_quadrature q = {0};
  double *psi = NULL, *x = NULL, *phi = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_quadrature_create(sz->face_shape, 2 * p, &q), done);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)q.n * nf, "face basis values", &psi), done);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)q.n * d, "face points", &x), done);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)q.n * np, "trace values", &phi), done);
  HDGCL_TRY_GOTO(status, hdgcl_basis_eval(sz->face_shape, p, q.n, q.points, psi, NULL), done);
  for (int f = 0; f < sz->nfaces; f++)
    for (int o = 0; o < sz->norient; o++) {
      HDGCL_TRY_GOTO(status, hdgcl_face_map_points(sz->type, f, o, q.n, q.points, x), done);
      HDGCL_TRY_GOTO(status, hdgcl_basis_eval(sz->shape, p, q.n, x, phi, NULL), done);
      double *ef = ref->ef + ((size_t)f * sz->norient + o) * np * nf;
      for (int j = 0; j < np; j++)
        for (int m = 0; m < nf; m++) {
          double s = 0.0;
          for (int k = 0; k < q.n; k++)
            s += q.weights[k] * phi[(size_t)k * np + j] * psi[(size_t)k * nf + m];
          ef[j * nf + m] = s;
        }
      if (o == 0) {
        double *pf = ref->pf + (size_t)f * np * np;
        for (int i = 0; i < np; i++)
          for (int j = 0; j < np; j++) {
            double s = 0.0;
            for (int k = 0; k < q.n; k++)
              s += q.weights[k] * phi[(size_t)k * np + i] * phi[(size_t)k * np + j];
            pf[i * np + j] = s;
          }
      }
      for (int l = 0; l < d; l++)
        multiply_ab(np, nf, np, ref->dm + (size_t)l * np * np, ef,
                    ref->dmef + (((size_t)l * sz->nfaces + f) * sz->norient + o) * np * nf);
    }
done:
  free(psi);
  free(x);
  free(phi);
  hdgcl_quadrature_destroy(&q);
  return status;
}

int hdg_reference_create(hdgcl_element_type type, int order, hdg_reference *ref) {
  memset(ref, 0, sizeof *ref);
  int status;
  HDGCL_TRY(hdg_sizes_init(type, order, &ref->sz));
  const hdg_sizes *sz = &ref->sz;
  int d = sz->dim, np = sz->np, np1 = sz->np1, nf = sz->nf;
  size_t nfo = (size_t)sz->nfaces * sz->norient;
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)d * np * np, "Dm", &ref->dm), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)d * d * np * np, "DmDmT", &ref->dmdmt), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles(nfo * np * nf, "Ef", &ref->ef), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)sz->nfaces * np * np, "Pf", &ref->pf), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)d * nfo * np * nf, "DmEf", &ref->dmef), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)d * d * np1 * np1, "Kpost", &ref->kpost), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)d * np1 * np, "Dpost", &ref->dpost), fail);
  HDGCL_TRY_GOTO(status, volume_tables(ref), fail);
  HDGCL_TRY_GOTO(status, face_tables(ref), fail);

  int p = sz->order;
  HDGCL_TRY_GOTO(status, hdgcl_quadrature_create(sz->shape, 2 * p + LOAD_EXTRA_DEGREE, &ref->qload),
                 fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)ref->qload.n * np, "load basis", &ref->phi_load),
                 fail);
  HDGCL_TRY_GOTO(status,
                 hdgcl_basis_eval(sz->shape, p, ref->qload.n, ref->qload.points, ref->phi_load, NULL),
                 fail);
  HDGCL_TRY_GOTO(status,
                 hdgcl_quadrature_create(sz->face_shape, 2 * p + LOAD_EXTRA_DEGREE, &ref->qface),
                 fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)ref->qface.n * nf, "face basis", &ref->psi_face),
                 fail);
  HDGCL_TRY_GOTO(status,
                 hdgcl_basis_eval(sz->face_shape, p, ref->qface.n, ref->qface.points, ref->psi_face,
                                  NULL),
                 fail);
  HDGCL_TRY_GOTO(status,
                 hdgcl_quadrature_create(sz->shape, 2 * (p + 1) + ERROR_EXTRA_DEGREE, &ref->qerr),
                 fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)ref->qerr.n * np1, "error basis", &ref->phi_err),
                 fail);
  HDGCL_TRY_GOTO(status,
                 hdgcl_basis_eval(sz->shape, p + 1, ref->qerr.n, ref->qerr.points, ref->phi_err, NULL),
                 fail);
  return HDGCL_SUCCESS;
fail:
  hdg_reference_destroy(ref);
  return status;
}

void hdg_reference_destroy(hdg_reference *ref) {
  free(ref->dm);
  free(ref->dmdmt);
  free(ref->ef);
  free(ref->pf);
  free(ref->dmef);
  free(ref->kpost);
  free(ref->dpost);
  free(ref->phi_load);
  free(ref->psi_face);
  free(ref->phi_err);
  hdgcl_quadrature_destroy(&ref->qload);
  hdgcl_quadrature_destroy(&ref->qface);
  hdgcl_quadrature_destroy(&ref->qerr);
  memset(ref, 0, sizeof *ref);
}
