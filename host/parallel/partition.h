/* A rank's part of a mesh partitioned by elements (docs/mpi.md): METIS on the
 * element dual graph, the rank's elements as a mesh of their own, the map of
 * its faces to the whole mesh's, and the faces it shares with other ranks. */
#ifndef HDGCL_HOST_PARTITION_H
#define HDGCL_HOST_PARTITION_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "hdgcl/mesh.h"

typedef struct parallel_part {
  MPI_Comm comm;
  int rank, size;
  int32_t global_elements, global_faces;
  /* The rank's elements in the order of the whole mesh, as a mesh: vertices
   * renumbered in the same order (so every face keeps its canonical vertex
   * order and trace basis), boundary faces with the whole mesh's tags, faces
   * cut by the partition tagged HDG_PARTITION_TAG (fem/hdg.h). */
  hdgcl_mesh *mesh;
  int32_t *elem_global; /* [mesh->num_elements] element of the whole mesh */
  int32_t *face_global; /* [mesh->num_faces] face of the whole mesh */
  bool *face_owned;     /* [mesh->num_faces] this rank owns the face: a cut face
                           belongs to the lower of its two ranks */
  /* Cut faces by neighbour rank: neighbour[i]'s faces are
   * shared[offset[i] .. offset[i+1]) (faces of mesh), in the order of their
   * global face number, the same order on both ranks. */
  int num_neighbours;
  int *neighbour, *offset;
  int32_t *shared;
  /* Every rank's number of elements and work (parallel_element_work summed),
   * [size] each, the same on every rank. */
  int32_t *rank_elements;
  double *rank_work;
} parallel_part;

/* The work model of element e of mesh at order p: the flops of its local
 * stage (docs/mpi.md, "Balance by element work"), METIS's vertex weight. */
double parallel_element_work(const hdgcl_mesh *mesh, int32_t e, int p);

/* Partitions mesh (the same on every rank of comm) into one part per rank:
 * rank 0 runs METIS_PartGraphKway, on a mixed mesh with the elements' work
 * at order p as vertex weights, and broadcasts the element ranks. More ranks
 * than elements, a part left empty, or a curved mesh is an error. */
int parallel_partition(MPI_Comm comm, const hdgcl_mesh *mesh, int order, parallel_part *part);
void parallel_part_destroy(parallel_part *part);

/* An MPI call's error as an hdgcl error naming the call. */
int parallel_mpi_error(int rc, const char *call);
#define MPI_TRY(call)                                                                  \
  do {                                                                                 \
    int mpi_rc_ = (call);                                                              \
    if (mpi_rc_ != MPI_SUCCESS) return parallel_mpi_error(mpi_rc_, #call);            \
  } while (0)
#define MPI_TRY_GOTO(status, call, label)                                              \
  do {                                                                                 \
    int mpi_rc_ = (call);                                                              \
    if (mpi_rc_ != MPI_SUCCESS) {                                                      \
      (status) = parallel_mpi_error(mpi_rc_, #call);                                   \
      goto label;                                                                      \
    }                                                                                  \
  } while (0)

#endif
