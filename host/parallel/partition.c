/* Partition of a mesh by elements (partition.h, docs/mpi.md). */
#include "parallel/partition.h"

#include <math.h>
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

/* The work model of element e at order p (docs/mpi.md, "Balance by element
 * work"): the flops of its local stage, which dominates what an element
 * costs: with n = (dim + 1) Np local unknowns (u and q) and m = faces x Nf
 * trace unknowns of its faces, the factorisation of the n x n local matrix
 * (2/3 n^3), its solves for the m trace columns (2 n^2 m) and the condensed
 * m x m matrix (2 n m^2).  On a mesh of one type every element weighs the
 * same; a quadrilateral weighs 2.4 (p = 1) to 4.0 (p = 4) triangles. */
double parallel_element_work(const hdgcl_mesh *mesh, int32_t e, int p) {
  hdgcl_element_type t = hdgcl_mesh_element_type(mesh, e);
  double a = p + 1, b = p + 2, c = p + 3;
  double np = t == HDGCL_TRIANGLE        ? a * b / 2
              : t == HDGCL_QUADRILATERAL ? a * a
              : t == HDGCL_TETRAHEDRON   ? a * b * c / 6
                                         : a * a * a;
  double nf = mesh->dim == 2 ? a : t == HDGCL_TETRAHEDRON ? a * b / 2 : a * a;
  double n = (mesh->dim + 1) * np, m = hdgcl_mesh_element_faces(mesh, e) * nf;
  return 2.0 / 3.0 * n * n * n + 2 * n * n * m + 2 * n * m * m;
}

/* METIS's vertex weights: the work model scaled to integers (the lightest
 * element 100, so ratios keep two digits; smaller where the sum would pass
 * METIS's 32-bit range); NULL (unit weights, METIS's default) on a mesh of
 * one type or where HDGCL_MPI_UNWEIGHTED=1 (hidden, for tests: the split by
 * count). */
static int metis_weights(const hdgcl_mesh *mesh, int p, idx_t **vwgt) {
  *vwgt = NULL;
  const char *env = getenv("HDGCL_MPI_UNWEIGHTED");
  if (env && env[0] && strcmp(env, "0") && strcmp(env, "1"))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "HDGCL_MPI_UNWEIGHTED=%s: expected 0 or 1", env);
  if (!hdgcl_mesh_is_mixed(mesh) || (env && !strcmp(env, "1"))) return HDGCL_SUCCESS;
  double lo = INFINITY, sum = 0.0;
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    double w = parallel_element_work(mesh, e, p);
    lo = fmin(lo, w);
    sum += w;
  }
  double scale = fmin(100.0 / lo, 1e9 / sum); /* the sum below 2^30 */
  HDGCL_TRY(hdgcl_calloc((size_t)mesh->num_elements, sizeof **vwgt, "element weights", vwgt));
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    double w = round(parallel_element_work(mesh, e, p) * scale);
    (*vwgt)[e] = w < 1 ? 1 : (idx_t)w;
  }
  return HDGCL_SUCCESS;
}

/* The rank of every element: METIS_PartGraphKway on the dual graph (elements
 * joined by their interior faces), weighted by element work, on rank 0 only. */
static int metis_parts(const hdgcl_mesh *mesh, int p, int nparts, int32_t *rank_of) {
  idx_t n = mesh->num_elements;
  if (nparts == 1) {
    memset(rank_of, 0, sizeof(int32_t) * (size_t)n);
    return HDGCL_SUCCESS;
  }
  idx_t *xadj = NULL, *adj = NULL, *where = NULL, *fill = NULL, *vwgt = NULL;
  int status;
  HDGCL_TRY_GOTO(status, metis_weights(mesh, p, &vwgt), done);
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
  int rc = METIS_PartGraphKway(&n, &ncon, xadj, adj, vwgt, NULL, NULL, &np, NULL, NULL, options,
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
  free(vwgt);
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

/* The rank's elements as a mesh of their own, and its maps to the whole mesh.
 * A mixed mesh's part keeps the types it has (its elements stay sorted by
 * type, being in the whole mesh's order), its rows as wide as its widest. */
static int build_part(const hdgcl_mesh *mesh, const int32_t *rank_of, parallel_part *part) {
  int nv = mesh->verts_per_element, nfe = mesh->faces_per_element, nvf = mesh->verts_per_face;
  int dim = mesh->dim;
  int32_t ne = 0, nvert = 0, ntag = 0;
  int32_t *vmap = NULL, *everts = NULL, *etags = NULL, *fverts = NULL, *ftags = NULL;
  double *coords = NULL;
  shared_face *sh = NULL;
  int status;
  /* the part's element types and their counts */
  int ntypes = 0, pnv = 0;
  hdgcl_element_type types[4];
  int32_t counts[4] = {0, 0, 0, 0};
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    if (rank_of[e] != part->rank) continue;
    hdgcl_element_type t = hdgcl_mesh_element_type(mesh, e);
    if (ntypes == 0 || types[ntypes - 1] != t) {
      if (ntypes == 4)
        return hdgcl_error(HDGCL_ERROR_INTERNAL, "partition: a mesh of more than 4 element types");
      types[ntypes++] = t;
    }
    counts[ntypes - 1]++;
    ne++;
    if (hdgcl_mesh_element_verts(mesh, e) > pnv) pnv = hdgcl_mesh_element_verts(mesh, e);
  }
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
    for (int a = 0; a < hdgcl_mesh_element_verts(mesh, e); a++) vmap[mesh->elem_verts[(size_t)e * nv + a]] = 1;
  }
  /* vertices numbered in increasing global order: canonical face orders stay */
  for (int32_t v = 0; v < mesh->num_vertices; v++) vmap[v] = vmap[v] ? nvert++ : -1;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)nvert * dim, sizeof *coords, "part coordinates", &coords), fail);
  for (int32_t v = 0; v < mesh->num_vertices; v++)
    if (vmap[v] >= 0) memcpy(coords + (size_t)vmap[v] * dim, mesh->coords + (size_t)v * dim, sizeof(double) * dim);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)ne * pnv, sizeof *everts, "part elements", &everts), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)ne, sizeof *etags, "part element tags", &etags), fail);
  for (int32_t i = 0; i < ne; i++) {
    int32_t e = part->elem_global[i];
    int own = hdgcl_mesh_element_verts(mesh, e);
    for (int a = 0; a < pnv; a++)
      everts[(size_t)i * pnv + a] = a < own ? vmap[mesh->elem_verts[(size_t)e * nv + a]] : -1;
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
    for (int lf = 0; lf < hdgcl_mesh_element_faces(mesh, e); lf++) {
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
  HDGCL_TRY_GOTO(status, hdgcl_mesh_create_from_arrays_mixed(ntypes, types, counts, nvert, coords,
                                                             everts, etags, ntag, fverts, ftags,
                                                             &part->mesh), fail);
  hdgcl_mesh *pm = part->mesh;
  for (int32_t i = 0; i < mesh->num_tag_names; i++)
    HDGCL_TRY_GOTO(status, hdgcl_mesh_set_tag_name(pm, mesh->tag_names[i].dim, mesh->tag_names[i].tag,
                                                   mesh->tag_names[i].name), fail);
  /* face map, checked: the same canonical vertices */
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)pm->num_faces, sizeof(int32_t), "face map", &part->face_global), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)pm->num_faces, sizeof(bool), "face owners", &part->face_owned), fail);
  for (int32_t i = 0; i < ne; i++)
    for (int lf = 0; lf < hdgcl_mesh_element_faces(pm, i); lf++)
      part->face_global[pm->elem_faces[(size_t)i * pm->faces_per_element + lf]] =
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

/* Each rank's elements and work (the model above), on every rank. */
static int rank_figures(const hdgcl_mesh *mesh, int p, const int32_t *rank_of, parallel_part *part) {
  HDGCL_TRY(hdgcl_calloc((size_t)part->size, sizeof *part->rank_elements, "rank elements",
                         &part->rank_elements));
  HDGCL_TRY(hdgcl_calloc((size_t)part->size, sizeof *part->rank_work, "rank work", &part->rank_work));
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    part->rank_elements[rank_of[e]]++;
    part->rank_work[rank_of[e]] += parallel_element_work(mesh, e, p);
  }
  return HDGCL_SUCCESS;
}

int parallel_partition(MPI_Comm comm, const hdgcl_mesh *mesh, int order, parallel_part *part) {
  *part = (parallel_part){.comm = comm};
  MPI_TRY(MPI_Comm_rank(comm, &part->rank));
  MPI_TRY(MPI_Comm_size(comm, &part->size));
  part->global_elements = mesh->num_elements;
  part->global_faces = mesh->num_faces;
  if (mesh->geometry_order > 1)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "a distributed solve takes straight-sided meshes only "
                       "(this one has geometry order %d; docs/mpi.md)", mesh->geometry_order);
  if (part->size > mesh->num_elements)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%d ranks for a mesh of %d elements: each rank needs "
                       "at least one element (run at most %d ranks or a finer mesh)", part->size,
                       (int)mesh->num_elements, (int)mesh->num_elements);
  int32_t *rank_of;
  HDGCL_TRY(hdgcl_calloc((size_t)mesh->num_elements, sizeof *rank_of, "element ranks", &rank_of));
  int status = HDGCL_SUCCESS;
  if (part->rank == 0) status = metis_parts(mesh, order, part->size, rank_of);
  /* rank 0's failure ends every rank (the caller aborts), not a hang here:
   * the others wait in the broadcast until MPI_Abort. */
  if (status == HDGCL_SUCCESS) {
    int rc = MPI_Bcast(rank_of, mesh->num_elements, MPI_INT32_T, 0, comm);
    if (rc != MPI_SUCCESS) status = parallel_mpi_error(rc, "MPI_Bcast");
  }
  if (status == HDGCL_SUCCESS) status = build_part(mesh, rank_of, part);
  if (status == HDGCL_SUCCESS) status = rank_figures(mesh, order, rank_of, part);
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
  free(part->rank_elements);
  free(part->rank_work);
  MPI_Comm comm = part->comm;
  *part = (parallel_part){.comm = comm};
}
