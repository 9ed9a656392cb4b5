/* MPI_Init that keeps the process's own handlers of SIGINT, SIGTERM and
 * SIGHUP (the hdgcl tool's remove unfinished output files, host/cli/main.c).
 * On the GPU machine (Open MPI 4.1.6, a singleton started by hypre's MPI)
 * a solve stopped by SIGTERM in its first seconds left a partial JSON file
 * behind and printed nothing, as if its handler had been replaced; restoring
 * the handlers after MPI_Init keeps that promise whatever the MPI library
 * installs.  Include after <mpi.h>. */
#ifndef HDGCL_HOST_MPI_START_H
#define HDGCL_HOST_MPI_START_H

#include <signal.h>

#include "core/not_our_leaks.h"

static inline int mpi_start(int *argc, char ***argv) {
  static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction saved[3];
  for (int i = 0; i < 3; i++) sigaction(sigs[i], NULL, &saved[i]);
  NOT_OUR_LEAKS_BEGIN(); /* Open MPI's own allocations */
  int rc = MPI_Init(argc, argv);
  NOT_OUR_LEAKS_END();
  for (int i = 0; i < 3; i++) sigaction(sigs[i], &saved[i], NULL);
  return rc;
}

#endif
