/* Sizes of the HDG discretisation of order p on an element type. */
#include "fem/basis.h"
#include "core/error.h"
#include "fem/face_map.h"
#include "fem/hdg.h"

int hdg_sizes_init(hdgcl_element_type type, int order, hdg_sizes *sz) {
  static const hdgcl_shape shapes[] = {HDGCL_SHAPE_TRIANGLE, HDGCL_SHAPE_QUADRILATERAL,
                                       HDGCL_SHAPE_TETRAHEDRON, HDGCL_SHAPE_HEXAHEDRON};
  static const int faces[] = {3, 4, 4, 6};
  if ((int)type < 0 || (int)type > 3)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "unknown element type %d", (int)type);
  if (order < 0 || order > 20)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "polynomial order %d out of range [0, 20]", order);
  sz->type = type;
  sz->shape = shapes[type];
  sz->face_shape = hdgcl_face_shape(type);
  sz->dim = hdgcl_shape_dim(sz->shape);
  sz->order = order;
  sz->np = hdgcl_basis_size(sz->shape, order);
  sz->np1 = hdgcl_basis_size(sz->shape, order + 1);
  sz->nf = hdgcl_basis_size(sz->face_shape, order);
  sz->nfaces = faces[type];
  sz->norient = hdgcl_face_orientation_count(sz->dim == 2 ? 2 : (type == HDGCL_TETRAHEDRON ? 3 : 4));
  sz->nt = sz->nfaces * sz->nf;
  sz->nslots = 1 + 2 * (sz->nfaces - 1);
  return hdg_sizes_set_components(sz, 1);
}

int hdg_sizes_set_components(hdg_sizes *sz, int ncomp) {
  if (ncomp < 1 || ncomp > 3)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "%d solution components (1..3 supported)", ncomp);
  sz->ncomp = ncomp;
  sz->nfb = ncomp * sz->nf;
  sz->ntb = ncomp * sz->nt;
  return HDGCL_SUCCESS;
}
