/* The distributed solver's part, for the layers above (io/pvtu_mpi.c). */
#ifndef HDGCL_HOST_SOLVER_MPI_H
#define HDGCL_HOST_SOLVER_MPI_H

#include "hdgcl/solver.h"
#include "parallel/partition.h"

/* The part (its communicator, rank, elements) of a solver made by
 * hdgcl_solver_create_mpi; NULL for any other solver. */
const parallel_part *parallel_solver_part(hdgcl_solver s);

#endif
