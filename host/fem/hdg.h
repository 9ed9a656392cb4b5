/* What the reference path and the device pipeline share: sizes of the
 * discretisation, the boundary-condition map and trace unknown numbering,
 * and the reference-element tables.  The math is docs/formulation.md. */
#ifndef HDGCL_HOST_HDG_H
#define HDGCL_HOST_HDG_H

#include <stdbool.h>
#include <stdint.h>

#include "hdgcl/mesh.h"
#include "cl/fem/problems.h"
#include "fem/quadrature.h"
#include "fem/shape.h"

/* Sizes of the discretisation of order p on one element type. */
typedef struct hdg_sizes {
  hdgcl_element_type type;
  hdgcl_shape shape, face_shape;
  int dim;
  int order;     /* p */
  int np;        /* volume basis functions of degree p */
  int np1;       /* volume basis functions of degree p+1 (postprocessing) */
  int nf;        /* face basis functions of degree p on one face */
  int nfaces;    /* faces per element */
  int norient;   /* orientation codes of a face */
  int nt;        /* trace values per element: nfaces * nf */
  int nslots;    /* face blocks per matrix row: 1 + 2 (nfaces - 1) */
  /* Components of the unknown: 1 for the scalar problems, dim for the vector
   * ones (elasticity, docs/elasticity.md).  The trace system's face blocks
   * hold nfb = ncomp * nf values (component-major: index c * nf + m), an
   * element's trace vector ntb = ncomp * nt (face-major: f * nfb + c * nf + m).
   * The device pipeline is scalar (ncomp = 1: nfb = nf, ntb = nt). */
  int ncomp;
  int nfb;       /* trace values per face: ncomp * nf */
  int ntb;       /* trace values per element: ncomp * nt */
} hdg_sizes;

/* Sizes of a scalar discretisation (ncomp = 1). */
int hdg_sizes_init(hdgcl_element_type type, int order, hdg_sizes *sz);
/* Sets the number of components (1..3) and the block sizes nfb, ntb. */
int hdg_sizes_set_components(hdg_sizes *sz, int ncomp);

/* Boundary condition of each face and numbering of the trace unknowns:
 * interior and Neumann faces carry unknowns (in face order), Dirichlet faces
 * are eliminated (docs/formulation.md section 4). */
enum { FACE_INTERIOR = 0, FACE_DIRICHLET = 1, FACE_NEUMANN = 2, FACE_ROBIN = 3 };
/* FACE_ROBIN (docs/problems.md (P3)): an unknown face with a Neumann face's
 * load and the alpha-weighted face mass matrix added to its diagonal block. */

typedef struct hdg_numbering {
  int32_t num_unknown_faces;
  int8_t *face_bc;        /* [num_faces] FACE_INTERIOR / FACE_DIRICHLET / FACE_NEUMANN / FACE_ROBIN */
  int8_t *face_cond;      /* [num_faces - num_interior_faces] index of the boundary condition
                             whose data the face takes (the user's list; 0 for built-ins) */
  /* [num_faces] the trace components a per-component face fixes (bit c: uhat_c
   * is given data, docs/problems.md (P4)); 0 on every other face.  Such a face
   * is FACE_NEUMANN (an unknown face whose free components are traction rows,
   * (E13)); the fixed components' rows become u_c = P_F g_c and their columns
   * move to the right-hand side after assembly. */
  int8_t *face_fixed;
  int32_t *face_unknown;  /* [num_faces] unknown index, -1 for Dirichlet faces */
  int32_t *unknown_face;  /* [num_unknown_faces] face of each unknown */
  /* Block columns of each unknown row (paper 000 Algorithm 1: the faces of the
   * row face's neighbours): slot 0 the face itself; slots 1..nfaces-1 the other
   * faces of neighbour 0 in local order (lf0+j) mod nfaces, j = 1..nfaces-1;
   * the next nfaces-1 slots the same for neighbour 1.  -1 where the face is
   * Dirichlet or the neighbour does not exist. */
  int32_t *block_cols;    /* [num_unknown_faces][nslots] */
} hdg_numbering;

/* The tag of a face that a partition cut (host/parallel, docs/mpi.md): a
 * boundary face of one rank's part that is interior to the whole mesh.  It
 * is numbered FACE_INTERIOR whatever the problem's conditions (an unknown
 * face with one neighbour and no load), so the part's assembly gives the
 * part's share of that face's rows. */
#define HDG_PARTITION_TAG INT32_MAX

/* Boundary faces whose tag is one of neumann_tags[0..num_neumann-1] are
 * Neumann, all other boundary faces Dirichlet; faces tagged HDG_PARTITION_TAG
 * are FACE_INTERIOR. */
int hdg_numbering_create(const hdgcl_mesh *mesh, const hdg_sizes *sz, const int32_t *neumann_tags,
                         int num_neumann, hdg_numbering *num);
/* The same with each boundary face's condition given: bnd_bc[b] (FACE_*),
 * bnd_cond[b] and bnd_fixed[b] for face num_interior_faces + b (each may be
 * NULL: the tag rule above, 0, 0). */
int hdg_numbering_create_with(const hdgcl_mesh *mesh, const hdg_sizes *sz,
                              const int32_t *neumann_tags, int num_neumann, const int8_t *bnd_bc,
                              const int8_t *bnd_cond, const int8_t *bnd_fixed, hdg_numbering *num);
/* True if trace value m (component m / nf) of face f is fixed by a per-component condition. */
static inline bool hdg_fixed(const hdg_numbering *num, int32_t f, int m, int nf) {
  return (num->face_fixed[f] >> (m / nf)) & 1;
}
void hdg_numbering_destroy(hdg_numbering *num);

/* Reference-element tables, docs/formulation.md section 7.  Matrices are
 * row-major [row][col].  "Degree p" tables use the volume basis of the
 * solution (np functions), "p+1" tables the postprocessing basis (np1); they
 * are evaluated separately because tensor bases are not hierarchical. */
typedef struct hdg_reference {
  hdg_sizes sz;
  /* Affine elements (F13)-(F17). */
  double *dm;       /* [dim][np][np]      Dm_l[i][j] = (phi_i, d_l phi_j)_ref */
  double *dmdmt;    /* [dim*dim][np][np]  Dm_l Dm_m^T, index l*dim+m */
  double *ef;       /* [nfaces][norient][np][nf]  Ef_{f,o} */
  double *pf;       /* [nfaces][np][np]   Pf_f */
  double *dmef;     /* [dim][nfaces][norient][np][nf]  Dm_l Ef_{f,o} */
  double *efef;     /* [nfaces*norient][nfaces*norient][nf][nf]  Ef_{f,o}^T Ef_{g,o'}, (F15)'s
                       face-face products (index (f norient + o) nfaces norient + g norient + o') */
  double *kpost;    /* [dim*dim][np1][np1]  (d_l phi+_i, d_m phi+_j)_ref, index l*dim+m */
  double *dpost;    /* [dim][np1][np]       (d_l phi+_i, phi_j)_ref */
  /* Volume quadrature (degree 2p+3: the load, and every element integral on
   * mapped elements) with both bases and their reference gradients. */
  hdgcl_quadrature qload;
  double *phi_load;   /* [nq][np] */
  double *dphi_load;  /* [nq][np][dim] */
  double *phi1_load;  /* [nq][np1] */
  double *dphi1_load; /* [nq][np1][dim] */
  /* Face quadrature (degree 2p+3) in the face's canonical coordinates: the
   * face basis, and the volume basis at the mapped points of every local face
   * and orientation. */
  hdgcl_quadrature qface;
  double *psi_face; /* [nqf][nf] */
  double *phi_face; /* [nfaces][norient][nqf][np] */
  double *face_xi;  /* [nfaces][norient][nqf][dim] element reference points of the face points */
  double *face_tangent; /* [nfaces][2][dim] d xi / d s of the face map (orientation 0) */
  double *face_nref;    /* [nfaces][dim] outward unit normals of the reference element */
  /* Error norms: quadrature of degree 2(p+1)+4 and both bases at its points. */
  hdgcl_quadrature qerr;
  double *phi_err;  /* [nq][np]  degree p */
  double *phi1_err; /* [nq][np1] degree p+1 */
} hdg_reference;

/* extra_degree raises every quadrature's degree (curved geometry: the
 * Jacobian's degree, discretisation_init; 0 for straight-sided meshes). */
int hdg_reference_create(hdgcl_element_type type, int order, int extra_degree, hdg_reference *ref);
void hdg_reference_destroy(hdg_reference *ref);

/* Affine geometry of simplex e: x = x0 + J (xi - xi0), xi0 = reference vertex 0.
 * jac/jinv row-major [dim][dim]; face measures and outward unit normals. */
typedef struct hdg_geometry {
  double x0[3];
  double jac[9], jinv[9];
  double detj;
  double face_measure[6];
  double normal[6][3];
} hdg_geometry;

int hdg_geometry_simplex(const hdgcl_mesh *mesh, int32_t e, hdg_geometry *geo);

/* Vertex shape functions of the element type at reference point xi: n[a] and
 * their reference gradients dn[a][dim] (linear on simplices, bilinear on quads,
 * trilinear on hexes; vertex order of include/hdgcl/mesh.h). */
void hdg_vertex_functions(hdgcl_element_type type, const double *xi, double *n, double *dn);

/* The geometry map of element e at reference point xi: physical point x[3]
 * and Jacobian jac[dim][dim] (row-major, d x_k / d xi_l); returns det(jac). */
double hdg_map(const hdgcl_mesh *mesh, int32_t e, const double *xi, double *x, double *jac);

/* inv = jac^-1 for a dim x dim matrix of determinant det. */
void hdg_invert(int dim, const double *jac, double det, double *inv);

/* The normal spanned by a face's tangents: in 2D t0 turned clockwise
 * (t0_y, -t0_x, 0), in 3D t0 x t1; not normalised, orientation as given. */
void hdg_normal_from_tangents(int dim, const double t[2][3], double *n);

/* At the element reference point X on local face f of element e: the
 * physical point x[3] and the outward normal scaled by the surface Jacobian,
 * nds[3] = n dS/ds relative to the face's reference measure ds (so that
 * integral_F g dS = sum_q w_q g(x_q) |nds_q|).  Returns |nds|. */
double hdg_face_normal(const hdgcl_mesh *mesh, int32_t e, int f, const double *X, double *x,
                       double *nds);

#endif
