/* Element geometry on the device (host twin: host/fem/hdg_geometry.c).
 * Needs DIM, NVERT, NFACES and ELEMENT_TYPE (0 triangle, 1 quadrilateral,
 * 2 tetrahedron, 3 hexahedron; include/hdgcl/mesh.h); prepended after
 * common.h.
 *
 * element_map() is the point-wise map of every element type (linear on
 * simplices, bilinear/trilinear on quads/hexes); element_geometry() is the
 * constant geometry of affine simplices used by the affine pipeline. */
#ifndef HDGCL_CL_GEOMETRY_H
#define HDGCL_CL_GEOMETRY_H

#define AFFINE (ELEMENT_TYPE == 0 || ELEMENT_TYPE == 2)
#ifndef MAPPED
#define MAPPED (!AFFINE)
#endif

/* Vertex shape functions n[a] and reference gradients dn[a][DIM] at xi. */
void vertex_functions(const double *xi, double *n, double *dn) {
#if AFFINE
  /* Reference vertex 0 at (-1,...), vertex a at -1 + 2 e_{a-1}. */
  n[0] = 1.0;
  for (int k = 0; k < DIM; k++) {
    n[0] -= 0.5 * (xi[k] + 1.0);
    dn[k] = -0.5;
  }
  for (int a = 1; a <= DIM; a++) {
    n[a] = 0.5 * (xi[a - 1] + 1.0);
    for (int k = 0; k < DIM; k++) dn[a * DIM + k] = k == a - 1 ? 0.5 : 0.0;
  }
#else
  /* Signs of the coordinates at the vertices (Gmsh order). */
  const double sx[4] = {-1.0, 1.0, 1.0, -1.0}, sy[4] = {-1.0, -1.0, 1.0, 1.0};
  for (int a = 0; a < NVERT; a++) {
    double s[3] = {sx[a % 4], sy[a % 4], a < 4 ? -1.0 : 1.0}, f[3];
    for (int k = 0; k < DIM; k++) f[k] = 0.5 * (1.0 + s[k] * xi[k]);
    n[a] = 1.0;
    for (int k = 0; k < DIM; k++) n[a] *= f[k];
    for (int k = 0; k < DIM; k++) {
      double g = 0.5 * s[k];
      for (int l = 0; l < DIM; l++)
        if (l != k) g *= f[l];
      dn[a * DIM + k] = g;
    }
  }
#endif
}

#if defined(GEO_ORDER) && GEO_ORDER > 1
/* Curved elements (host twin: meshgen/curved.c): the Lagrange map of order
 * GEO_ORDER through NGEO nodes per element, coords[e][NGEO][DIM] (the host
 * uploads the geometry nodes in place of the vertex coordinates; elem_verts
 * is not read).  geo_index: each node's lattice index in Gmsh's order;
 * quads/hexes: tensor Lagrange on -1 + 2 j / k; simplices: prod_m
 * l_{a_m}(lambda_m), l_n(s) = prod_{j<n} (k s - j) / (j + 1), lambda_0 = 1 -
 * sum lambda_m, lambda_m = (xi_{m-1} + 1) / 2. */
__constant int geo_index[NGEO * DIM] = {GEO_INDEX};

/* l_n(s) (simplices) or the 1D Lagrange polynomial j of the equispaced points
 * (quads, hexes), and its derivative. */
void geometry_factor(int j, double s, double *value, double *slope) {
  double v = 1.0, d = 0.0;
#if AFFINE
  for (int i = 0; i < j; i++) {
    double f = (GEO_ORDER * s - i) / (i + 1);
    d = d * f + v * GEO_ORDER / (i + 1);
    v *= f;
  }
#else
  const double tj = -1.0 + 2.0 * j / GEO_ORDER;
  for (int i = 0; i <= GEO_ORDER; i++) {
    if (i == j) continue;
    double ti = -1.0 + 2.0 * i / GEO_ORDER, f = (s - ti) / (tj - ti);
    d = d * f + v / (tj - ti);
    v *= f;
  }
#endif
  *value = v;
  *slope = d;
}

double element_map(long e, __global const double *coords, __global const int *elem_verts,
                   const double *xi, double *x, double *jac) {
  for (int k = 0; k < 3; k++) x[k] = 0.0;
  for (int k = 0; k < DIM * DIM; k++) jac[k] = 0.0;
  for (int a = 0; a < NGEO; a++) {
    double v[4], s[4], n, dn[DIM];
#if AFFINE
    double lam0 = 1.0;
    int a0 = GEO_ORDER;
    for (int m = 1; m <= DIM; m++) {
      double lam = 0.5 * (xi[m - 1] + 1.0);
      lam0 -= lam;
      a0 -= geo_index[a * DIM + m - 1];
      geometry_factor(geo_index[a * DIM + m - 1], lam, &v[m], &s[m]);
    }
    geometry_factor(a0, lam0, &v[0], &s[0]);
    n = v[0];
    for (int m = 1; m <= DIM; m++) n *= v[m];
    for (int l = 0; l < DIM; l++) {
      double rest0 = 1.0, rest1 = 1.0;
      for (int m = 0; m <= DIM; m++) {
        if (m != 0) rest0 *= v[m];
        if (m != l + 1) rest1 *= v[m];
      }
      dn[l] = -0.5 * s[0] * rest0 + 0.5 * s[l + 1] * rest1;
    }
#else
    for (int l = 0; l < DIM; l++) geometry_factor(geo_index[a * DIM + l], xi[l], &v[l], &s[l]);
    n = 1.0;
    for (int l = 0; l < DIM; l++) n *= v[l];
    for (int l = 0; l < DIM; l++) {
      double g = s[l];
      for (int m = 0; m < DIM; m++)
        if (m != l) g *= v[m];
      dn[l] = g;
    }
#endif
    for (int k = 0; k < DIM; k++) {
      const double xa = coords[(e * NGEO + a) * DIM + k];
      x[k] += n * xa;
      for (int l = 0; l < DIM; l++) jac[k * DIM + l] += xa * dn[l];
    }
  }
#else
/* Physical point x[3] and Jacobian jac[DIM][DIM] (d x_k / d xi_l) of element
 * e at reference point xi; returns det(jac). */
double element_map(long e, __global const double *coords, __global const int *elem_verts,
                   const double *xi, double *x, double *jac) {
  double n[NVERT], dn[NVERT * DIM];
  vertex_functions(xi, n, dn);
  for (int k = 0; k < 3; k++) x[k] = 0.0;
  for (int k = 0; k < DIM * DIM; k++) jac[k] = 0.0;
  for (int a = 0; a < NVERT; a++) {
    const long v = elem_verts[e * ELEM_NVERT + a];
    for (int k = 0; k < DIM; k++) {
      const double xa = coords[v * DIM + k];
      x[k] += n[a] * xa;
      for (int l = 0; l < DIM; l++) jac[k * DIM + l] += xa * dn[a * DIM + l];
    }
  }
#endif /* GEO_ORDER */
#if DIM == 2
  return jac[0] * jac[3] - jac[1] * jac[2];
#else
  return jac[0] * (jac[4] * jac[8] - jac[5] * jac[7]) - jac[1] * (jac[3] * jac[8] - jac[5] * jac[6]) +
         jac[2] * (jac[3] * jac[7] - jac[4] * jac[6]);
#endif
}

/* adj = det(jac) jac^-1 (the adjugate: no division). */
void adjugate(const double *J, double *adj) {
#if DIM == 2
  adj[0] = J[3];
  adj[1] = -J[1];
  adj[2] = -J[2];
  adj[3] = J[0];
#else
  adj[0] = J[4] * J[8] - J[5] * J[7];
  adj[1] = J[2] * J[7] - J[1] * J[8];
  adj[2] = J[1] * J[5] - J[2] * J[4];
  adj[3] = J[5] * J[6] - J[3] * J[8];
  adj[4] = J[0] * J[8] - J[2] * J[6];
  adj[5] = J[2] * J[3] - J[0] * J[5];
  adj[6] = J[3] * J[7] - J[4] * J[6];
  adj[7] = J[1] * J[6] - J[0] * J[7];
  adj[8] = J[0] * J[4] - J[1] * J[3];
#endif
}

/* At the element reference point X of local face f: the physical point x[3]
 * and the outward normal scaled by the surface Jacobian, nds[3] (so that
 * integral_F g dS = sum_q w_q g |nds|); returns |nds|.  tangent[2][DIM]: the
 * face map's derivatives, nref[DIM]: the reference outward normal. */
double face_normal(long e, __global const double *coords, __global const int *elem_verts,
                   const double *X, __global const double *tangent, __global const double *nref,
                   double *x, double *nds) {
  double jac[DIM * DIM], adj[DIM * DIM], t[2][3];
  element_map(e, coords, elem_verts, X, x, jac);
  for (int a = 0; a < DIM - 1; a++)
    for (int k = 0; k < DIM; k++) {
      t[a][k] = 0.0;
      for (int l = 0; l < DIM; l++) t[a][k] += jac[k * DIM + l] * tangent[a * DIM + l];
    }
#if DIM == 2
  nds[0] = t[0][1];
  nds[1] = -t[0][0];
  nds[2] = 0.0;
#else
  nds[0] = t[0][1] * t[1][2] - t[0][2] * t[1][1];
  nds[1] = t[0][2] * t[1][0] - t[0][0] * t[1][2];
  nds[2] = t[0][0] * t[1][1] - t[0][1] * t[1][0];
#endif
  /* Outward: along cof(J) n_ref = adj(J)^T n_ref (det J > 0). */
  adjugate(jac, adj);
  double dot = 0.0, len = 0.0;
  for (int k = 0; k < DIM; k++) {
    double c = 0.0;
    for (int l = 0; l < DIM; l++) c += adj[l * DIM + k] * nref[l];
    dot += nds[k] * c;
    len += nds[k] * nds[k];
  }
  if (dot < 0.0)
    for (int k = 0; k < 3; k++) nds[k] = -nds[k];
  return sqrt(len);
}

#if AFFINE
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

/* Constant geometry of the affine simplex e. */
void element_geometry(long e, __global const double *coords, __global const int *elem_verts,
                      geometry *g) {
  double x[NVERT][3];
  for (int a = 0; a < NVERT; a++) {
    int v = elem_verts[e * ELEM_NVERT + a];
    for (int k = 0; k < DIM; k++) x[a][k] = coords[(long)v * DIM + k];
    for (int k = DIM; k < 3; k++) x[a][k] = 0.0;
  }
  /* Column a-1 of J is (x_a - x_0)/2: reference vertex a is -1 + 2 e_{a-1}. */
  for (int k = 0; k < 3; k++) g->x0[k] = x[0][k];
  for (int k = 0; k < DIM; k++)
    for (int a = 1; a <= DIM; a++) g->jac[k * DIM + (a - 1)] = 0.5 * (x[a][k] - x[0][k]);
  double adj[DIM * DIM];
  adjugate(g->jac, adj);
#if DIM == 2
  g->detj = g->jac[0] * g->jac[3] - g->jac[1] * g->jac[2];
#else
  const double *J = g->jac;
  g->detj = J[0] * adj[0] + J[1] * adj[3] + J[2] * adj[6];
#endif
  /* One division per element and one per face: a double division costs tens
   * of instructions on GPUs, and every work-item of an element's team calls
   * this (host/fem/hdg_geometry.c divides each entry: equal to round-off). */
  const double rdet = 1.0 / g->detj;
  for (int k = 0; k < DIM * DIM; k++) g->jinv[k] = adj[k] * rdet;
  for (int f = 0; f < NFACES; f++) {
#if DIM == 2
    /* Outward normal: the counter-clockwise edge turned clockwise. */
    double dx = x[face_vertex[f][1]][0] - x[face_vertex[f][0]][0];
    double dy = x[face_vertex[f][1]][1] - x[face_vertex[f][0]][1];
    double len = sqrt(dx * dx + dy * dy), rlen = 1.0 / len;
    g->face_measure[f] = len;
    g->normal[f][0] = dy * rlen;
    g->normal[f][1] = -dx * rlen;
#else
    double a[3], b[3], n[3];
    for (int k = 0; k < 3; k++) {
      a[k] = x[face_vertex[f][1]][k] - x[face_vertex[f][0]][k];
      b[k] = x[face_vertex[f][2]][k] - x[face_vertex[f][0]][k];
    }
    n[0] = a[1] * b[2] - a[2] * b[1];
    n[1] = a[2] * b[0] - a[0] * b[2];
    n[2] = a[0] * b[1] - a[1] * b[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), rlen = 1.0 / len;
    g->face_measure[f] = 0.5 * len;
    for (int k = 0; k < 3; k++) g->normal[f][k] = n[k] * rlen;
#endif
  }
}

/* The metric G = J^-1 J^-T of the affine simplex (row-major DIM x DIM). */
void element_metric(const geometry *g, double *G) {
  for (int l = 0; l < DIM; l++)
    for (int m = 0; m < DIM; m++) {
      double s = 0.0;
      for (int k = 0; k < DIM; k++) s += g->jinv[l * DIM + k] * g->jinv[m * DIM + k];
      G[l * DIM + m] = s;
    }
}

/* Physical point of the reference point xi. */
void element_point(const geometry *g, const double *xi, double *x) {
  for (int k = 0; k < 3; k++) x[k] = g->x0[k];
  for (int k = 0; k < DIM; k++)
    for (int l = 0; l < DIM; l++) x[k] += g->jac[k * DIM + l] * (xi[l] + 1.0);
}
#endif /* AFFINE */

#endif
