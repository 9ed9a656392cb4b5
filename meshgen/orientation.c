/* Element orientation: an element given with its vertices in mirrored order
 * (clockwise triangle, tetrahedron with negative volume, quad/hex whose
 * Jacobian is negative at every corner) is the same point set as a
 * positively oriented element with reordered vertices; fix it.  Elements
 * with a zero or sign-changing Jacobian are degenerate and refused. */
#include "core/error.h"
#include "mesh_internal.h"

void hdgcl_mesh_element_mirror(hdgcl_mesh *mesh, int32_t e) {
  int32_t *v = mesh->elem_verts + (int64_t)e * mesh->verts_per_element;
  int32_t t;
  switch (hdgcl_mesh_element_type(mesh, e)) {
  case HDGCL_TRIANGLE:
  case HDGCL_TETRAHEDRON: /* swap v1 and v2: reflects the reference element */
    t = v[1], v[1] = v[2], v[2] = t;
    break;
  case HDGCL_QUADRILATERAL: /* (v0,v1,v2,v3) -> (v0,v3,v2,v1): run the other way round */
    t = v[1], v[1] = v[3], v[3] = t;
    break;
  case HDGCL_HEXAHEDRON: /* swap the bottom and top faces: reflects zeta */
    for (int i = 0; i < 4; i++) t = v[i], v[i] = v[i + 4], v[i + 4] = t;
    break;
  }
}

int hdgcl_mesh_orient_elements(hdgcl_mesh *mesh, int32_t *bad) {
  *bad = -1;
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    hdgcl_element_state state = hdgcl_mesh_element_state(mesh, e);
    if (state == HDGCL_ELEMENT_INVERTED) {
      hdgcl_mesh_element_mirror(mesh, e);
      state = hdgcl_mesh_element_state(mesh, e);
    }
    if (state != HDGCL_ELEMENT_VALID) {
      *bad = e;
      return hdgcl_error(
          HDGCL_ERROR_MESH, "%s %d is degenerate (zero or sign-changing Jacobian, measure %g)",
          hdgcl_element_type_name(hdgcl_mesh_element_type(mesh, e)), (int)e, hdgcl_mesh_element_measure(mesh, e));
    }
  }
  return HDGCL_SUCCESS;
}
