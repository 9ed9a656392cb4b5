/* Affine geometry of a simplex: Jacobian of the map from the reference
 * element, its inverse and determinant, face measures and outward normals. */
#include <math.h>

#include "error.h"
#include "hdg.h"

static double det3(const double *a) {
  return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
         a[2] * (a[3] * a[7] - a[4] * a[6]);
}

int hdg_geometry_simplex(const hdgcl_mesh *mesh, int32_t e, hdg_geometry *geo) {
  int d = mesh->dim, nv = mesh->verts_per_element;
  if (mesh->type != HDGCL_TRIANGLE && mesh->type != HDGCL_TETRAHEDRON)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "affine geometry asked for a non-simplex element");
  const int32_t *v = mesh->elem_verts + (size_t)e * nv;
  double x[4][3] = {{0}};
  for (int a = 0; a < nv; a++)
    for (int k = 0; k < d; k++) x[a][k] = mesh->coords[(size_t)v[a] * d + k];
  /* Reference vertex a (a >= 1) is -1 + 2 e_{a-1}: column a-1 of J is (x_a - x_0)/2. */
  for (int k = 0; k < d; k++) {
    geo->x0[k] = x[0][k];
    for (int a = 1; a <= d; a++) geo->jac[k * d + (a - 1)] = 0.5 * (x[a][k] - x[0][k]);
  }
  if (d == 2) {
    const double *J = geo->jac;
    geo->detj = J[0] * J[3] - J[1] * J[2];
    geo->jinv[0] = J[3] / geo->detj;
    geo->jinv[1] = -J[1] / geo->detj;
    geo->jinv[2] = -J[2] / geo->detj;
    geo->jinv[3] = J[0] / geo->detj;
  } else {
    const double *J = geo->jac;
    geo->detj = det3(J);
    double *I = geo->jinv;
    I[0] = (J[4] * J[8] - J[5] * J[7]) / geo->detj;
    I[1] = (J[2] * J[7] - J[1] * J[8]) / geo->detj;
    I[2] = (J[1] * J[5] - J[2] * J[4]) / geo->detj;
    I[3] = (J[5] * J[6] - J[3] * J[8]) / geo->detj;
    I[4] = (J[0] * J[8] - J[2] * J[6]) / geo->detj;
    I[5] = (J[2] * J[3] - J[0] * J[5]) / geo->detj;
    I[6] = (J[3] * J[7] - J[4] * J[6]) / geo->detj;
    I[7] = (J[1] * J[6] - J[0] * J[7]) / geo->detj;
    I[8] = (J[0] * J[4] - J[1] * J[3]) / geo->detj;
  }
  if (!(geo->detj > 0))
    return hdgcl_error(HDGCL_ERROR_MESH, "element %d has non-positive Jacobian %g", (int)e,
                       geo->detj);
  for (int f = 0; f < mesh->faces_per_element; f++) {
    const int8_t *fv = hdgcl_element_face_vertices(mesh->type, f);
    if (d == 2) {
      /* Faces run counter-clockwise: the outward normal is the edge turned clockwise. */
      double dx = x[fv[1]][0] - x[fv[0]][0], dy = x[fv[1]][1] - x[fv[0]][1];
      double len = sqrt(dx * dx + dy * dy);
      geo->face_measure[f] = len;
      geo->normal[f][0] = dy / len;
      geo->normal[f][1] = -dx / len;
      geo->normal[f][2] = 0.0;
    } else {
      /* Local face lists are ordered so that (v1-v0) x (v2-v0) points outward. */
      double a[3], b[3], n[3];
      for (int k = 0; k < 3; k++) {
        a[k] = x[fv[1]][k] - x[fv[0]][k];
        b[k] = x[fv[2]][k] - x[fv[0]][k];
      }
      n[0] = a[1] * b[2] - a[2] * b[1];
      n[1] = a[2] * b[0] - a[0] * b[2];
      n[2] = a[0] * b[1] - a[1] * b[0];
      double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      geo->face_measure[f] = 0.5 * len;
      for (int k = 0; k < 3; k++) geo->normal[f][k] = n[k] / len;
    }
  }
  return HDGCL_SUCCESS;
}
