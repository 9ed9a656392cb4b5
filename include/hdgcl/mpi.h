/* A distributed solve on MPI (docs/mpi.md), where hdgcl was built with
 * -DHDGCL_WITH_MPI=ON (HDGCL_WITH_MPI in hdgclConfig / the pkg-config file).
 *
 *   MPI_Init(&argc, &argv);
 *   hdgcl_mesh *mesh;   hdgcl_mesh_create_from_spec("square:64", &mesh);  // the same on every rank
 *   hdgcl_solver s;     hdgcl_solver_create_mpi(ctx, mesh, opts, MPI_COMM_WORLD, &s);
 *   hdgcl_solver_solve(s);                      // collective
 *   const hdgcl_result *r; hdgcl_solver_result(s, &r);  // global figures on every rank
 *
 * The mesh (the whole mesh, identical on every rank of comm) is partitioned by
 * elements with METIS; the solver holds the rank's part and solves its share
 * of the one global trace system by CG with none, Jacobi or block-Jacobi
 * preconditioning.  Errors, iterations and residuals in the result are those
 * of the global solve; counts (elements, faces, trace DOFs) are global; stage
 * seconds are the slowest rank's.  hdgcl_solver_solution's arrays hold the
 * rank's elements only (in the order of hdgcl_solver_part_elements).  Linear
 * problems (built-in or a user's problem file with its outputs, steady or
 * transient, scalar or elasticity, the cantilever's tip reduced) on
 * straight-sided meshes, mixed ones split by element work, on OpenCL devices
 * only: others are refused naming what is not distributed yet. */
#ifndef HDGCL_MPI_H
#define HDGCL_MPI_H

#include <mpi.h>

#include "hdgcl/solver.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over comm; the mesh need not outlive the solver (the rank's part is copied). */
int hdgcl_solver_create_mpi(hdgcl_context ctx, const hdgcl_mesh *mesh, hdgcl_options opts,
                            MPI_Comm comm, hdgcl_solver *solver);

/* The rank's elements: (*elements)[i] is the whole mesh's number of the
 * solver's element i; NULL, 0 for a solver not made by hdgcl_solver_create_mpi. */
int hdgcl_solver_part_elements(hdgcl_solver s, const int32_t **elements, int32_t *count);

/* The partition: each rank's number of elements and its work, the sum of
 * its elements' work model (the flops of their local stage, by which METIS
 * balances a mixed mesh: docs/mpi.md), [*ranks] each; NULL, NULL, 0 for a
 * solver not made by hdgcl_solver_create_mpi. */
int hdgcl_solver_partition_figures(hdgcl_solver s, const int32_t **elements, const double **work,
                                   int *ranks);

/* Each rank's stage seconds of the last solve: (*seconds)[r * HDGCL_NUM_STAGES + stage]
 * for rank r of *ranks (the result's stages hold the slowest rank's); NULL, 0
 * before a solve or for a solver not made by hdgcl_solver_create_mpi. */
int hdgcl_solver_rank_seconds(hdgcl_solver s, const double **seconds, int *ranks);

/* The exchange figures of the last distributed solve: the slowest rank's
 * seconds in the halo exchange of the cut faces (packing, messages, adding)
 * and in the dot products' read-back and MPI_Allreduce, and the bytes all
 * ranks sent in halo messages; 0 before a solve or for a serial solver. */
int hdgcl_solver_exchange_figures(hdgcl_solver s, double *halo_seconds, double *reduce_seconds,
                                  int64_t *halo_bytes);

/* Whether the last distributed solve's products overlapped the halo exchange
 * with the interior rows (*overlap: 1 with env HDGCL_MPI_OVERLAP=1; off by default)
 * and the slowest rank's exchange seconds hidden so (per product the lesser
 * of the interior rows' device time and the messages' host time, summed);
 * 0, 0 before a solve or for a serial solver. */
int hdgcl_solver_overlap_figures(hdgcl_solver s, int *overlap, double *hidden_seconds);

/* ParaView files of a distributed solve, collective over the solver's
 * communicator: path must be STEM.pvtu; rank r writes its elements as
 * STEM_RRRR.vtu (r in at least four digits, beside the index) with the
 * arrays of hdgcl_solver_write_vtu, the cell data "element" numbering the
 * elements of the whole mesh and "rank" the partition; rank 0 writes the
 * index STEM.pvtu (PUnstructuredGrid, the pieces by relative name).  All or
 * nothing: where any rank fails, no rank leaves a file and every rank returns
 * the error with the failing rank's message.  For a solver not made by
 * hdgcl_solver_create_mpi: STEM.pvtu and one piece STEM_0000.vtu, as
 * hdgcl_solver_write_vtu writes for a .pvtu path. */
int hdgcl_solver_write_pvtu(hdgcl_solver s, const char *path, int subdivisions);

#ifdef __cplusplus
}
#endif

#endif
