/* Partition of a mesh by elements (partition.h, docs/mpi.md). */
#include "parallel/partition.h"

#include <metis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "fem/hdg.h" /* HDG_PARTITION_TAG */

int parallel_mpi_error(int rc, const char *call) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "code %d", rc);
  return hdgcl_error(HDGCL_ERROR_INTERNAL, "%s failed: %s", call, text);
}

/* The rank of every element: METIS_PartGraphKway on the dual graph (elements
 * joined by their interior faces), on rank 0 only. */
static int metis_parts(const hdgcl_mesh *mesh, int nparts, int32_t *rank_of) {
  idx_t n = mesh->num_elements;
  if (nparts == 1) {
    memset(rank_of, 0, sizeof(int32_t) * (size_t)n);
    return HDGCL_SUCCESS;
  }
  idx_t *xadj = NULL, *adj = NULL, *where = NULL, *fill = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)n + 1, sizeof *xadj, "dual graph", &xadj), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(2 * (size_t)mesh->num_interior_faces + 1, sizeof *adj,
                                      "dual graph", &adj), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)n, sizeof *where, "partition", &where), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)n + 1, sizeof *fill, "dual graph", &fill), done);
  for (int32_t f = 0; f < mesh->num_interior_faces; f++) {
    xadj[mesh->face_elems[2 * f] + 1]++;
    xadj[mesh->face_elems[2 * f + 1] + 1]++;
  }
  for (idx_t e = 0; e < n; e++) xadj[e + 1] += xadj[e];
  for (int32_t f = 0; f < mesh->num_interior_faces; f++) {
    idx_t a = mesh->face_elems[2 * f], b = mesh->face_elems[2 * f + 1];
    adj[xadj[a] + fill[a]++] = b;
    adj[xadj[b] + fill[b]++] = a;
  }
  idx_t ncon = 1, np = nparts, cut = 0, options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1; /* the same partition on every run */
  int rc = METIS_PartGraphKway(&n, &ncon, xadj, adj, NULL, NULL, NULL, &np, NULL, NULL, options,
                               &cut, where);
  if (rc != METIS_OK) {
    status = hdgcl_error(HDGCL_ERROR_INTERNAL, "METIS_PartGraphKway of %d elements into %d parts "
                         "failed (METIS status %d)", (int)n, nparts, rc);
    goto done;
  }
  for (idx_t e = 0; e < n; e++) rank_of[e] = (int32_t)where[e];
  /* METIS may leave a part empty on a small graph (2 elements into 2 parts):
   * each empty part takes the last element of the largest part. */
  idx_t *count = fill; /* reused: elements per part */
  memset(count, 0, sizeof *count * ((size_t)n + 1));
  for (idx_t e = 0; e < n; e++) count[rank_of[e]]++;
  for (int r = 0; r < nparts; r++) {
    if (count[r]) continue;
    int big = 0;
    for (int k = 1; k < nparts; k++)
      if (count[k] > count[big]) big = k;
    for (idx_t e = n - 1; e >= 0; e--)
      if (rank_of[e] == big) {
        rank_of[e] = r;
        count[big]--;
        count[r]++;
        break;
      }
  }
  status = HDGCL_SUCCESS;
done:
  free(xadj);
  free(adj);
  free(where);
  free(fill);
  return status;
}

typedef struct shared_face {
  int rank;
  int32_t global, local;
} shared_face;

static int by_rank_then_face(const void *a, const void *b) {
  const shared_face *x = a, *y = b;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return (x->global > y->global) - (x->global < y->global);
}

/* The rank's elements as a mesh of their own, and its maps to the whole mesh. */
static int build_part(const hdgcl_mesh *mesh, const int32_t *rank_of, parallel_part *part) {
  int nv = mesh->verts_per_element, nfe = mesh->faces_per_element, nvf = mesh->verts_per_face;
  int dim = mesh->dim;
  int32_t ne = 0, nvert = 0, ntag = 0;
  int32_t *vmap = NULL, *everts = NULL, *etags = NULL, *fverts = NULL, *ftags = NULL;
  double *coords = NULL;
  shared_face *sh = NULL;
  int status;
  for (int32_t e = 0; e < mesh->num_elements; e++) ne += rank_of[e] == part->rank;
  if (ne == 0) /* metis_parts fills every part */
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "the partition of %d elements into %d ranks left "
                       "rank %d without elements", (int)mesh->num_elements, part->size, part->rank);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)ne, sizeof(int32_t), "part elements",
                                      &part->elem_global), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)mesh->num_vertices, sizeof *vmap, "vertex map", &vmap), fail);
  ne = 0;
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    if (rank_of[e] != part->rank) continue;
    part->elem_global[ne++] = e;
    for (int a = 0; a < nv; a++) vmap[mesh->elem_verts[(size_t)e * nv + a]] = 1;
  }
  /* vertices numbered in increasing global order: canonical face orders stay */
  for (int32_t v = 0; v < mesh->num_vertices; v++) vmap[v] = vmap[v] ? nvert++ : -1;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)nvert * dim, sizeof *coords, "part coordinates", &coords), fail);
  for (int32_t v = 0; v < mesh->num_vertices; v++)
    if (vmap[v] >= 0) memcpy(coords + (size_t)vmap[v] * dim, mesh->coords + (size_t)v * dim, sizeof(double) * dim);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)ne * nv, sizeof *everts, "part elements", &everts), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)ne, sizeof *etags, "part element tags", &etags), fail);
  for (int32_t i = 0; i < ne; i++) {
    int32_t e = part->elem_global[i];
    for (int a = 0; a < nv; a++) everts[(size_t)i * nv + a] = vmap[mesh->elem_verts[(size_t)e * nv + a]];
    etags[i] = mesh->elem_tags ? mesh->elem_tags[e] : 0;
  }
  /* tagged faces: the whole mesh's tagged boundary faces and the cut faces */
  size_t maxf = (size_t)ne * nfe;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(maxf * nvf, sizeof *fverts, "part faces", &fverts), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(maxf, sizeof *ftags, "part face tags", &ftags), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(maxf, sizeof *sh, "cut faces", &sh), fail);
  int32_t nshared = 0;
  for (int32_t i = 0; i < ne; i++) {
    int32_t e = part->elem_global[i];
    for (int lf = 0; lf < nfe; lf++) {
      int32_t g = mesh->elem_faces[(size_t)e * nfe + lf];
      int32_t tag = 0;
      if (g >= mesh->num_interior_faces) {
        tag = mesh->face_tags ? mesh->face_tags[g] : 0;
      } else {
        int32_t other = mesh->face_elems[2 * g] == e ? mesh->face_elems[2 * g + 1] : mesh->face_elems[2 * g];
        if (rank_of[other] != part->rank) {
          tag = HDG_PARTITION_TAG;
          sh[nshared++] = (shared_face){rank_of[other], g, -1};
        }
      }
      if (tag <= 0) continue;
      for (int a = 0; a < nvf; a++) fverts[(size_t)ntag * nvf + a] = vmap[mesh->face_verts[(size_t)g * nvf + a]];
      ftags[ntag++] = tag;
    }
  }
  HDGCL_TRY_GOTO(status, hdgcl_mesh_create_from_arrays(mesh->type, nvert, coords, ne, everts, etags,
                                                       ntag, fverts, ftags, &part->mesh), fail);
  hdgcl_mesh *pm = part->mesh;
  for (int32_t i = 0; i < mesh->num_tag_names; i++)
    HDGCL_TRY_GOTO(status, hdgcl_mesh_set_tag_name(pm, mesh->tag_names[i].dim, mesh->tag_names[i].tag,
                                                   mesh->tag_names[i].name), fail);
  /* face map, checked: the same canonical vertices */
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)pm->num_faces, sizeof(int32_t), "face map", &part->face_global), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)pm->num_faces, sizeof(bool), "face owners", &part->face_owned), fail);
  for (int32_t i = 0; i < ne; i++)
    for (int lf = 0; lf < nfe; lf++)
      part->face_global[pm->elem_faces[(size_t)i * nfe + lf]] =
          mesh->elem_faces[(size_t)part->elem_global[i] * nfe + lf];
  for (int32_t f = 0; f < pm->num_faces; f++) {
    int32_t g = part->face_global[f];
    for (int a = 0; a < nvf; a++)
      if (pm->face_verts[(size_t)f * nvf + a] != vmap[mesh->face_verts[(size_t)g * nvf + a]]) {
        status = hdgcl_error(HDGCL_ERROR_INTERNAL, "partition: face %d of rank %d is not face %d of "
                             "the mesh", (int)f, part->rank, (int)g);
        goto fail;
      }
    part->face_owned[f] = true;
    if (g < mesh->num_interior_faces) {
      int r0 = rank_of[mesh->face_elems[2 * g]], r1 = rank_of[mesh->face_elems[2 * g + 1]];
      part->face_owned[f] = (r0 < r1 ? r0 : r1) == part->rank;
    }
  }
  /* cut faces by neighbour rank, then by global face: the same order on both sides */
  for (int32_t v = 0; v < mesh->num_vertices; v++) vmap[v] = -1; /* now: global face -> part face */
  if (mesh->num_faces > mesh->num_vertices) {
    free(vmap);
    vmap = NULL;
    HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)mesh->num_faces, sizeof *vmap, "face map", &vmap), fail);
  }
  for (int32_t f = 0; f < pm->num_faces; f++) vmap[part->face_global[f]] = f;
  for (int32_t k = 0; k < nshared; k++) sh[k].local = vmap[sh[k].global];
  qsort(sh, (size_t)nshared, sizeof *sh, by_rank_then_face);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)nshared + 1, sizeof(int32_t), "cut faces", &part->shared), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)part->size + 1, sizeof(int), "neighbours", &part->neighbour), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)part->size + 1, sizeof(int), "neighbours", &part->offset), fail);
  for (int32_t k = 0; k < nshared; k++) {
    if (k == 0 || sh[k].rank != sh[k - 1].rank) {
      part->neighbour[part->num_neighbours] = sh[k].rank;
      part->offset[part->num_neighbours++] = k;
    }
    part->shared[k] = sh[k].local;
  }
  part->offset[part->num_neighbours] = nshared;
  status = HDGCL_SUCCESS;
  goto done;
fail:
  parallel_part_destroy(part);
done:
  free(vmap);
  free(coords);
  free(everts);
  free(etags);
  free(fverts);
  free(ftags);
  free(sh);
  return status;
}

int parallel_partition(MPI_Comm comm, const hdgcl_mesh *mesh, parallel_part *part) {
  *part = (parallel_part){.comm = comm};
  MPI_TRY(MPI_Comm_rank(comm, &part->rank));
  MPI_TRY(MPI_Comm_size(comm, &part->size));
  part->global_elements = mesh->num_elements;
  part->global_faces = mesh->num_faces;
  if (mesh->geometry_order > 1)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "a distributed solve takes straight-sided meshes only "
                       "(this one has geometry order %d; docs/mpi.md)", mesh->geometry_order);
  if (hdgcl_mesh_is_mixed(mesh)) /* docs/geometry.md, "Mixed meshes" */
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "a distributed solve takes meshes of one element type "
                       "(this one is mixed: %s and %s elements)",
                       hdgcl_element_type_name(mesh->types[0]), hdgcl_element_type_name(mesh->types[1]));
  if (part->size > mesh->num_elements)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%d ranks for a mesh of %d elements: each rank needs "
                       "at least one element (run at most %d ranks or a finer mesh)", part->size,
                       (int)mesh->num_elements, (int)mesh->num_elements);
  int32_t *rank_of;
  HDGCL_TRY(hdgcl_calloc((size_t)mesh->num_elements, sizeof *rank_of, "element ranks", &rank_of));
  int status = HDGCL_SUCCESS;
  if (part->rank == 0) status = metis_parts(mesh, part->size, rank_of);
  /* rank 0's failure ends every rank (the caller aborts), not a hang here:
   * the others wait in the broadcast until MPI_Abort. */
  if (status == HDGCL_SUCCESS) {
    int rc = MPI_Bcast(rank_of, mesh->num_elements, MPI_INT32_T, 0, comm);
    if (rc != MPI_SUCCESS) status = parallel_mpi_error(rc, "MPI_Bcast");
  }
  if (status == HDGCL_SUCCESS) status = build_part(mesh, rank_of, part);
  free(rank_of);
  return status;
}

void parallel_part_destroy(parallel_part *part) {
  hdgcl_mesh_destroy(&part->mesh);
  free(part->elem_global);
  free(part->face_global);
  free(part->face_owned);
  free(part->neighbour);
  free(part->offset);
  free(part->shared);
  MPI_Comm comm = part->comm;
  *part = (parallel_part){.comm = comm};
}
