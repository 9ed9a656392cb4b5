/* A smooth distortion of a mesh: every vertex moves by
 *   x_k += A * L_k * s_k * prod_j sin(pi t_j),   t = (x - lo) / L  in [0,1]^dim,
 * over the mesh's bounding box (lo, L), with signs s = (+1, -1, +1).  The map
 * is smooth and fixes the box's boundary, so refining a mesh and distorting
 * it gives a sequence of non-affine elements that stays asymptotically
 * parallelogram (unlike independent random perturbations at each level). */
#include <math.h>

#include "core/error.h"
#include "hdgcl/mesh.h"
#include "mesh_internal.h"

int hdgcl_mesh_distort(hdgcl_mesh *mesh, double amplitude) {
  if (!mesh) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_distort: mesh is NULL");
  if (!(amplitude >= 0 && amplitude <= 0.2))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "distortion amplitude %g out of range (need 0 <= amplitude <= 0.2)", amplitude);
  if (amplitude == 0 || mesh->num_vertices == 0) return HDGCL_SUCCESS;
  if (mesh->geometry_order > 1) /* the vertices would leave their geometry nodes */
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_distort: the mesh is curved (geometry order %d); "
                       "only straight-sided meshes are moved", mesh->geometry_order);
  const double pi = 3.14159265358979323846;
  int d = mesh->dim;
  double lo[3], hi[3];
  for (int k = 0; k < d; k++) lo[k] = hi[k] = mesh->coords[k];
  for (int32_t v = 0; v < mesh->num_vertices; v++)
    for (int k = 0; k < d; k++) {
      double x = mesh->coords[(size_t)v * d + k];
      if (x < lo[k]) lo[k] = x;
      if (x > hi[k]) hi[k] = x;
    }
  static const double sign[3] = {1.0, -1.0, 1.0};
  for (int32_t v = 0; v < mesh->num_vertices; v++) {
    double *x = mesh->coords + (size_t)v * d, bump = 1.0;
    for (int k = 0; k < d; k++) {
      double t = (x[k] - lo[k]) / (hi[k] - lo[k]);
      bump *= (t <= 0.0 || t >= 1.0) ? 0.0 : sin(pi * t);
    }
    for (int k = 0; k < d; k++) x[k] += amplitude * (hi[k] - lo[k]) * sign[k] * bump;
  }
  for (int32_t e = 0; e < mesh->num_elements; e++)
    /* the validity test of hdgcl_mesh_validate: a Jacobian zero up to
     * rounding (a corner folded flat) is a fold too */
    if (hdgcl_mesh_element_state(mesh, e) != HDGCL_ELEMENT_VALID)
      return hdgcl_error(HDGCL_ERROR_MESH, "distortion %g folds element %d; use a smaller amplitude",
                         amplitude, (int)e);
  return HDGCL_SUCCESS;
}
