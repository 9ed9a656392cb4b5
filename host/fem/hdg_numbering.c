/* Boundary-condition map and trace unknown numbering (paper 000 Algorithm 1:
 * the faces were sorted and reduced by key when the mesh topology was built;
 * here a scan numbers the faces that carry unknowns, and each unknown row gets
 * the block columns of its neighbours' faces). */
#include <stdlib.h>

#include "core/error.h"
#include "fem/hdg.h"

static bool is_neumann(int32_t tag, const int32_t *tags, int n) {
  for (int i = 0; i < n; i++)
    if (tags[i] == tag) return true;
  return false;
}

int hdg_numbering_create(const hdgcl_mesh *mesh, const hdg_sizes *sz, const int32_t *neumann_tags,
                         int num_neumann, hdg_numbering *num) {
  return hdg_numbering_create_with(mesh, sz, neumann_tags, num_neumann, NULL, NULL, NULL, num);
}

int hdg_numbering_create_with(const hdgcl_mesh *mesh, const hdg_sizes *sz,
                              const int32_t *neumann_tags, int num_neumann, const int8_t *bnd_bc,
                              const int8_t *bnd_cond, const int8_t *bnd_fixed, hdg_numbering *num) {
  *num = (hdg_numbering){0};
  int status;
  int32_t nfc = mesh->num_faces, nbnd = mesh->num_faces - mesh->num_interior_faces;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(nfc, sizeof *num->face_bc, "face_bc", &num->face_bc), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)nbnd + 1, 1, "face_cond", &num->face_cond), fail);
  for (int32_t b = 0; bnd_cond && b < nbnd; b++) num->face_cond[b] = bnd_cond[b];
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)nfc + 1, 1, "face_fixed", &num->face_fixed), fail);
  for (int32_t b = 0; bnd_fixed && b < nbnd; b++) {
    if (bnd_fixed[b] && (!bnd_bc || bnd_bc[b] != FACE_NEUMANN)) {
      status = hdgcl_error(HDGCL_ERROR_INTERNAL,
                           "boundary face %d: fixed components on a face that is not FACE_NEUMANN",
                           (int)b);
      goto fail;
    }
    num->face_fixed[mesh->num_interior_faces + b] = bnd_fixed[b];
  }
  HDGCL_TRY_GOTO(status,
                 hdgcl_calloc(nfc, sizeof *num->face_unknown, "face_unknown", &num->face_unknown),
                 fail);
  int32_t count = 0;
  for (int32_t f = 0; f < nfc; f++) {
    if (f < mesh->num_interior_faces || mesh->face_tags[f] == HDG_PARTITION_TAG)
      num->face_bc[f] = FACE_INTERIOR;
    else if (bnd_bc)
      num->face_bc[f] = bnd_bc[f - mesh->num_interior_faces];
    else
      num->face_bc[f] = is_neumann(mesh->face_tags[f], neumann_tags, num_neumann) ? FACE_NEUMANN
                                                                                   : FACE_DIRICHLET;
    num->face_unknown[f] = num->face_bc[f] == FACE_DIRICHLET ? -1 : count++;
  }
  num->num_unknown_faces = count;
  HDGCL_TRY_GOTO(status,
                 hdgcl_calloc(count, sizeof *num->unknown_face, "unknown_face", &num->unknown_face),
                 fail);
  HDGCL_TRY_GOTO(status,
                 hdgcl_calloc((size_t)count * sz->nslots, sizeof *num->block_cols, "block_cols",
                              &num->block_cols),
                 fail);
  int nfe = mesh->faces_per_element;
  for (int32_t f = 0; f < nfc; f++) {
    int32_t u = num->face_unknown[f];
    if (u < 0) continue;
    num->unknown_face[u] = f;
    int32_t *cols = num->block_cols + (size_t)u * sz->nslots;
    for (int s = 0; s < sz->nslots; s++) cols[s] = -1;
    cols[0] = u;
    for (int side = 0; side < 2; side++) {
      int32_t e = mesh->face_elems[2 * f + side];
      if (e < 0) continue;
      int lf = mesh->face_local[2 * f + side];
      /* A mixed mesh: the element's own faces ne in the slots of the widest
       * type's nfe (a triangle beside a quadrilateral leaves its last slot -1). */
      int ne = hdgcl_mesh_element_faces(mesh, e);
      for (int j = 1; j < ne; j++) {
        int32_t g = mesh->elem_faces[(size_t)e * nfe + (lf + j) % ne];
        cols[1 + side * (nfe - 1) + (j - 1)] = num->face_unknown[g];
      }
    }
  }
  return HDGCL_SUCCESS;
fail:
  hdg_numbering_destroy(num);
  return status;
}

void hdg_numbering_destroy(hdg_numbering *num) {
  free(num->face_bc);
  free(num->face_cond);
  free(num->face_fixed);
  free(num->face_unknown);
  free(num->unknown_face);
  free(num->block_cols);
  *num = (hdg_numbering){0};
}
