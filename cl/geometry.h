/* Affine simplex geometry on the device (host twin: host/hdg_geometry.c).
 * Needs DIM, NVERT and NFACES defined; prepended after common.h. */
#ifndef HDGCL_CL_GEOMETRY_H
#define HDGCL_CL_GEOMETRY_H

typedef struct geometry {
  double x0[3];
  double jac[DIM * DIM];  /* row-major: x = x0 + J (xi - xi0) */
  double jinv[DIM * DIM];
  double detj;
  double face_measure[NFACES];
  double normal[NFACES][DIM];
} geometry;

#if DIM == 2
/* Local faces of the triangle, counter-clockwise (include/hdgcl/mesh.h). */
__constant int face_vertex[NFACES][2] = {{0, 1}, {1, 2}, {2, 0}};
#define FACE_REF_MEASURE 2.0 /* the segment [-1,1] */
#else
/* Local faces of the tetrahedron, (v1-v0)x(v2-v0) outward. */
__constant int face_vertex[NFACES][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
#define FACE_REF_MEASURE 2.0 /* the reference triangle */
#endif

/* Geometry of element e from its vertex coordinates. */
inline void element_geometry(long e, __global const double *coords,
                             __global const int *elem_verts, geometry *g) {
  double x[NVERT][3];
  for (int a = 0; a < NVERT; a++) {
    int v = elem_verts[e * NVERT + a];
    for (int k = 0; k < DIM; k++) x[a][k] = coords[(long)v * DIM + k];
    for (int k = DIM; k < 3; k++) x[a][k] = 0.0;
  }
  /* Column a-1 of J is (x_a - x_0)/2: reference vertex a is -1 + 2 e_{a-1}. */
  for (int k = 0; k < 3; k++) g->x0[k] = x[0][k];
  for (int k = 0; k < DIM; k++)
    for (int a = 1; a <= DIM; a++) g->jac[k * DIM + (a - 1)] = 0.5 * (x[a][k] - x[0][k]);
#if DIM == 2
  double d = g->jac[0] * g->jac[3] - g->jac[1] * g->jac[2];
  g->detj = d;
  g->jinv[0] = g->jac[3] / d;
  g->jinv[1] = -g->jac[1] / d;
  g->jinv[2] = -g->jac[2] / d;
  g->jinv[3] = g->jac[0] / d;
  for (int f = 0; f < NFACES; f++) {
    /* Outward normal: the counter-clockwise edge turned clockwise. */
    double dx = x[face_vertex[f][1]][0] - x[face_vertex[f][0]][0];
    double dy = x[face_vertex[f][1]][1] - x[face_vertex[f][0]][1];
    double len = sqrt(dx * dx + dy * dy);
    g->face_measure[f] = len;
    g->normal[f][0] = dy / len;
    g->normal[f][1] = -dx / len;
  }
#else
  const double *J = g->jac;
  double d = J[0] * (J[4] * J[8] - J[5] * J[7]) - J[1] * (J[3] * J[8] - J[5] * J[6]) +
             J[2] * (J[3] * J[7] - J[4] * J[6]);
  g->detj = d;
  g->jinv[0] = (J[4] * J[8] - J[5] * J[7]) / d;
  g->jinv[1] = (J[2] * J[7] - J[1] * J[8]) / d;
  g->jinv[2] = (J[1] * J[5] - J[2] * J[4]) / d;
  g->jinv[3] = (J[5] * J[6] - J[3] * J[8]) / d;
  g->jinv[4] = (J[0] * J[8] - J[2] * J[6]) / d;
  g->jinv[5] = (J[2] * J[3] - J[0] * J[5]) / d;
  g->jinv[6] = (J[3] * J[7] - J[4] * J[6]) / d;
  g->jinv[7] = (J[1] * J[6] - J[0] * J[7]) / d;
  g->jinv[8] = (J[0] * J[4] - J[1] * J[3]) / d;
  for (int f = 0; f < NFACES; f++) {
    double a[3], b[3], n[3];
    for (int k = 0; k < 3; k++) {
      a[k] = x[face_vertex[f][1]][k] - x[face_vertex[f][0]][k];
      b[k] = x[face_vertex[f][2]][k] - x[face_vertex[f][0]][k];
    }
    n[0] = a[1] * b[2] - a[2] * b[1];
    n[1] = a[2] * b[0] - a[0] * b[2];
    n[2] = a[0] * b[1] - a[1] * b[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    g->face_measure[f] = 0.5 * len;
    for (int k = 0; k < 3; k++) g->normal[f][k] = n[k] / len;
  }
#endif
}

/* Physical point of the reference point xi. */
inline void element_point(const geometry *g, const double *xi, double *x) {
  for (int k = 0; k < 3; k++) x[k] = g->x0[k];
  for (int k = 0; k < DIM; k++)
    for (int l = 0; l < DIM; l++) x[k] += g->jac[k * DIM + l] * (xi[l] + 1.0);
}

#endif
