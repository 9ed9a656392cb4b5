/* Reference-element tables (docs/formulation.md section 7): differentiation,
 * face trace and face mass matrices of affine elements, the postprocessing
 * matrices, and the bases at the quadrature points of the load, the faces and
 * the error norms.  Built once per (element type, order). */
#include <stdlib.h>
#include <string.h>

#include "fem/basis.h"
#include "core/error.h"
#include "fem/face_map.h"
#include "fem/hdg.h"

/* Quadrature degrees (docs/formulation.md section 6). */
#define LOAD_EXTRA_DEGREE 3  /* volume and face integrals: 2p + 3 */
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

/* Volume tables from the load quadrature (exact for every product of a
 * degree p+1 gradient and a degree p+1 function on the reference element). */
static int volume_tables(hdg_reference *ref) {
  const hdg_sizes *sz = &ref->sz;
  const hdgcl_quadrature *q = &ref->qload;
  int d = sz->dim, np = sz->np, np1 = sz->np1, p = sz->order;
  HDGCL_TRY(alloc_doubles((size_t)q->n * np, "basis values", &ref->phi_load));
  HDGCL_TRY(alloc_doubles((size_t)q->n * np * d, "basis gradients", &ref->dphi_load));
  HDGCL_TRY(alloc_doubles((size_t)q->n * np1, "basis values", &ref->phi1_load));
  HDGCL_TRY(alloc_doubles((size_t)q->n * np1 * d, "basis gradients", &ref->dphi1_load));
  HDGCL_TRY(hdgcl_basis_eval(sz->shape, p, q->n, q->points, ref->phi_load, ref->dphi_load));
  HDGCL_TRY(hdgcl_basis_eval(sz->shape, p + 1, q->n, q->points, ref->phi1_load, ref->dphi1_load));
  const double *val = ref->phi_load, *grad = ref->dphi_load, *grad1 = ref->dphi1_load;
  /* Dm_l[i][j] = sum_q w phi_i d_l phi_j. */
  for (int l = 0; l < d; l++)
    for (int i = 0; i < np; i++)
      for (int j = 0; j < np; j++) {
        double s = 0.0;
        for (int k = 0; k < q->n; k++)
          s += q->weights[k] * val[(size_t)k * np + i] * grad[((size_t)k * np + j) * d + l];
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
          for (int k = 0; k < q->n; k++)
            s += q->weights[k] * grad1[((size_t)k * np1 + i) * d + l] *
                 grad1[((size_t)k * np1 + j) * d + m];
          ref->kpost[((size_t)(l * d + m) * np1 + i) * np1 + j] = s;
        }
      for (int j = 0; j < np; j++) {
        double s = 0.0;
        for (int k = 0; k < q->n; k++)
          s += q->weights[k] * grad1[((size_t)k * np1 + i) * d + l] * val[(size_t)k * np + j];
        ref->dpost[((size_t)l * np1 + i) * np + j] = s;
      }
    }
  return HDGCL_SUCCESS;
}

/* Face tables: psi and phi at the face points, then Ef_{f,o}, Pf_f, Dm_l Ef_{f,o}. */
static int face_tables(hdg_reference *ref) {
  const hdg_sizes *sz = &ref->sz;
  const hdgcl_quadrature *q = &ref->qface;
  int d = sz->dim, np = sz->np, nf = sz->nf, p = sz->order;
  double *x;
  int status;
  HDGCL_TRY(alloc_doubles((size_t)q->n * nf, "face basis", &ref->psi_face));
  HDGCL_TRY(alloc_doubles((size_t)sz->nfaces * sz->norient * q->n * np, "trace values",
                          &ref->phi_face));
  HDGCL_TRY(alloc_doubles((size_t)sz->nfaces * sz->norient * q->n * d, "face points", &ref->face_xi));
  HDGCL_TRY(alloc_doubles((size_t)sz->nfaces * 2 * d, "face tangents", &ref->face_tangent));
  HDGCL_TRY(alloc_doubles((size_t)sz->nfaces * d, "reference normals", &ref->face_nref));
  HDGCL_TRY_GOTO(status, hdgcl_basis_eval(sz->face_shape, p, q->n, q->points, ref->psi_face, NULL),
                 done);
  for (int f = 0; f < sz->nfaces; f++) {
    /* The face map is affine in the face coordinates: differences give its derivatives. */
    double s[3][2] = {{0, 0}, {1, 0}, {0, 1}}, X[3][3];
    for (int a = 0; a < d; a++)
      HDGCL_TRY_GOTO(status, hdgcl_face_map_points(sz->type, f, 0, 1, s[a], X[a]), done);
    for (int a = 1; a < d; a++)
      for (int l = 0; l < d; l++) ref->face_tangent[((size_t)f * 2 + a - 1) * d + l] = X[a][l] - X[0][l];
    double n[3] = {0, 0, 0};
    hdgcl_reference_face_normal(sz->type, f, n);
    for (int l = 0; l < d; l++) ref->face_nref[(size_t)f * d + l] = n[l];
  }
  for (int f = 0; f < sz->nfaces; f++)
    for (int o = 0; o < sz->norient; o++) {
      double *phi = ref->phi_face + ((size_t)f * sz->norient + o) * q->n * np;
      x = ref->face_xi + ((size_t)f * sz->norient + o) * q->n * d;
      HDGCL_TRY_GOTO(status, hdgcl_face_map_points(sz->type, f, o, q->n, q->points, x), done);
      HDGCL_TRY_GOTO(status, hdgcl_basis_eval(sz->shape, p, q->n, x, phi, NULL), done);
      double *ef = ref->ef + ((size_t)f * sz->norient + o) * np * nf;
      for (int j = 0; j < np; j++)
        for (int m = 0; m < nf; m++) {
          double s = 0.0;
          for (int k = 0; k < q->n; k++)
            s += q->weights[k] * phi[(size_t)k * np + j] * ref->psi_face[(size_t)k * nf + m];
          ef[j * nf + m] = s;
        }
      if (o == 0) {
        double *pf = ref->pf + (size_t)f * np * np;
        for (int i = 0; i < np; i++)
          for (int j = 0; j < np; j++) {
            double s = 0.0;
            for (int k = 0; k < q->n; k++)
              s += q->weights[k] * phi[(size_t)k * np + i] * phi[(size_t)k * np + j];
            pf[i * np + j] = s;
          }
      }
      for (int l = 0; l < d; l++)
        multiply_ab(np, nf, np, ref->dm + (size_t)l * np * np, ef,
                    ref->dmef + (((size_t)l * sz->nfaces + f) * sz->norient + o) * np * nf);
    }
  status = HDGCL_SUCCESS;
done:
  return status;
}

int hdg_reference_create(hdgcl_element_type type, int order, int extra_degree, hdg_reference *ref) {
  memset(ref, 0, sizeof *ref);
  int status;
  HDGCL_TRY(hdg_sizes_init(type, order, &ref->sz));
  const hdg_sizes *sz = &ref->sz;
  int d = sz->dim, np = sz->np, np1 = sz->np1, nf = sz->nf, p = sz->order;
  size_t nfo = (size_t)sz->nfaces * sz->norient;
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)d * np * np, "Dm", &ref->dm), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)d * d * np * np, "DmDmT", &ref->dmdmt), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles(nfo * np * nf, "Ef", &ref->ef), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)sz->nfaces * np * np, "Pf", &ref->pf), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)d * nfo * np * nf, "DmEf", &ref->dmef), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles(nfo * nfo * nf * nf, "EfTEf", &ref->efef), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)d * d * np1 * np1, "Kpost", &ref->kpost), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)d * np1 * np, "Dpost", &ref->dpost), fail);
  HDGCL_TRY_GOTO(status, hdgcl_quadrature_create(sz->shape, 2 * p + LOAD_EXTRA_DEGREE + extra_degree, &ref->qload),
                 fail);
  HDGCL_TRY_GOTO(status,
                 hdgcl_quadrature_create(sz->face_shape, 2 * p + LOAD_EXTRA_DEGREE + extra_degree, &ref->qface),
                 fail);
  HDGCL_TRY_GOTO(status,
                 hdgcl_quadrature_create(sz->shape, 2 * (p + 1) + ERROR_EXTRA_DEGREE + extra_degree, &ref->qerr),
                 fail);
  HDGCL_TRY_GOTO(status, volume_tables(ref), fail);
  HDGCL_TRY_GOTO(status, face_tables(ref), fail);
  /* Ef_a^T Ef_b for every pair of (face, orientation): out[m][n] = sum_j Ef_a[j][m] Ef_b[j][n] */
  for (size_t a = 0; a < nfo; a++)
    for (size_t b = 0; b < nfo; b++)
      for (int m = 0; m < nf; m++)
        for (int n = 0; n < nf; n++) {
          const double *ea = ref->ef + a * np * nf, *eb = ref->ef + b * np * nf;
          double s = 0.0;
          for (int j = 0; j < np; j++) s += ea[j * nf + m] * eb[j * nf + n];
          ref->efef[((a * nfo + b) * nf + m) * nf + n] = s;
        }
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)ref->qerr.n * np, "error basis", &ref->phi_err), fail);
  HDGCL_TRY_GOTO(status, alloc_doubles((size_t)ref->qerr.n * np1, "error basis", &ref->phi1_err),
                 fail);
  HDGCL_TRY_GOTO(status,
                 hdgcl_basis_eval(sz->shape, p, ref->qerr.n, ref->qerr.points, ref->phi_err, NULL),
                 fail);
  HDGCL_TRY_GOTO(status,
                 hdgcl_basis_eval(sz->shape, p + 1, ref->qerr.n, ref->qerr.points, ref->phi1_err, NULL),
                 fail);
  return HDGCL_SUCCESS;
fail:
  hdg_reference_destroy(ref);
  return status;
}

void hdg_reference_destroy(hdg_reference *ref) {
  double *arrays[] = {ref->dm,        ref->dmdmt,     ref->ef,        ref->pf,
                      ref->dmef,      ref->kpost,     ref->dpost,     ref->phi_load,
                      ref->dphi_load, ref->phi1_load, ref->dphi1_load, ref->psi_face,
                      ref->phi_face,  ref->phi_err,   ref->phi1_err,  ref->face_xi,
                      ref->face_tangent, ref->face_nref, ref->efef};
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) free(arrays[i]);
  hdgcl_quadrature_destroy(&ref->qload);
  hdgcl_quadrature_destroy(&ref->qface);
  hdgcl_quadrature_destroy(&ref->qerr);
  memset(ref, 0, sizeof *ref);
}
