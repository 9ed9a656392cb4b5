/* Points of an element's face, given in the face's canonical reference
 * coordinates (see include/hdgcl/mesh.h: the face reference shape is attached
 * to the canonical vertex order C, and the element sees the face through
 * orientation code o with L[j] = C[P_o[j]]), mapped to the element's
 * reference coordinates:
 *   X(s) = sum_j beta_{P_o[j]}(s) * Xref(local vertex j of face f)
 * where beta_k are the vertex (barycentric, or bilinear for quads) functions
 * of the face reference shape. */
#ifndef HDGCL_HOST_FACE_MAP_H
#define HDGCL_HOST_FACE_MAP_H

#include "hdgcl/mesh.h"
#include "fem/shape.h"

/* Reference shape of the faces of an element type (segment, triangle or quad);
 * for an invalid type a value whose hdgcl_shape_dim() is 0. */
hdgcl_shape hdgcl_face_shape(hdgcl_element_type type);

/* Maps npts face points s[npts][dim-1] to element reference points X[npts][dim]. */
int hdgcl_face_map_points(hdgcl_element_type type, int face, int orient, int npts, const double *s,
                          double *X);

/* Outward unit normal of local face `face` on the reference element (n[dim]);
 * n is left untouched for an invalid type or face. */
void hdgcl_reference_face_normal(hdgcl_element_type type, int face, double *n);

#endif
