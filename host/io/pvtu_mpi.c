/* A distributed solve as ParaView files (include/hdgcl/mpi.h, docs/mpi.md):
 * each rank writes its elements as STEM_RRRR.vtu, rank 0 the index
 * STEM.pvtu, all or nothing.  Every rank writes under a temporary name
 * (core/temp_file.h); an MPI_Allreduce agrees that all succeeded before any
 * rename, and a second one after the renames, where a rename that failed on
 * one rank makes every rank remove what it renamed.  On a failure every rank
 * returns the message of the lowest failing rank (MPI_Bcast). */
#ifdef HDGCL_WITH_MPI
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/temp_file.h"
#include "hdgcl/mpi.h"
#include "io/vtu.h"
#include "parallel/solver_mpi.h"

/* Collective: success where status is success on every rank, else the lowest
 * failing rank's code and message on every rank. */
static int agree(const parallel_part *part, int status) {
  int failing = status != HDGCL_SUCCESS ? part->rank : part->size;
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &failing, 1, MPI_INT, MPI_MIN, part->comm));
  if (failing == part->size) return HDGCL_SUCCESS;
  char message[1024] = "";
  int code = status;
  if (part->rank == failing) snprintf(message, sizeof message, "%s", hdgcl_last_error());
  MPI_TRY(MPI_Bcast(&code, 1, MPI_INT, failing, part->comm));
  MPI_TRY(MPI_Bcast(message, (int)sizeof message, MPI_CHAR, failing, part->comm));
  return hdgcl_error(code, "%s (failed on rank %d of %d; no rank wrote a file)", message, failing, part->size);
}

/* Written so far without an error (the data out of stdio's buffer). */
static int flushed(hdgcl_temp_file *t) {
  if (t->f && (fflush(t->f) != 0 || ferror(t->f)))
    return hdgcl_error(HDGCL_ERROR_IO, "error writing %s (disk full?)", t->path);
  return HDGCL_SUCCESS;
}

int hdgcl_solver_write_pvtu(hdgcl_solver s, const char *path, int subdivisions) {
  if (!s || !path) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_write_pvtu: NULL argument");
  const parallel_part *part = parallel_solver_part(s);
  if (!part) { /* a serial solver: the index and its one piece */
    if (!vtu_is_pvtu(path))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: a parallel VTK file must be named STEM.pvtu", path);
    return hdgcl_solver_write_vtu(s, path, subdivisions);
  }
  char piece_path[4200];
  const char *source;
  hdgcl_temp_file piece = {0}, index = {0};
  int status = vtu_piece_path(path, part->rank, piece_path, sizeof piece_path, &source);
  if (status == HDGCL_SUCCESS) status = hdgcl_temp_open(&piece, piece_path, "w");
  if (status == HDGCL_SUCCESS) status = vtu_piece_write(s, piece.f, subdivisions, part->elem_global, part->rank);
  if (status == HDGCL_SUCCESS && part->rank == 0) {
    status = hdgcl_temp_open(&index, path, "w");
    if (status == HDGCL_SUCCESS) status = vtu_index_write(s, index.f, path, part->size);
  }
  if (status == HDGCL_SUCCESS) status = flushed(&piece);
  if (status == HDGCL_SUCCESS) status = flushed(&index);
  status = agree(part, status);
  if (status != HDGCL_SUCCESS) {
    hdgcl_temp_discard(&piece);
    hdgcl_temp_discard(&index);
    return status;
  }
  /* every rank's file is complete: rename (hdgcl_temp_commit removes its
   * temporary on failure) */
  bool piece_done = false, index_done = false;
  status = hdgcl_temp_commit(&piece);
  piece_done = status == HDGCL_SUCCESS;
  if (status == HDGCL_SUCCESS && index.f) {
    status = hdgcl_temp_commit(&index);
    index_done = status == HDGCL_SUCCESS;
  }
  hdgcl_temp_discard(&index);
  status = agree(part, status);
  if (status != HDGCL_SUCCESS) {
    if (piece_done) remove(piece_path);
    if (index_done) remove(path);
  }
  return status;
}

#endif
