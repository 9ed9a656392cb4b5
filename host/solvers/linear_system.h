/* What the solvers see of the assembled trace system: its sizes, storage
 * format and device buffers, which the trace operator (host/pipeline) fills,
 * and the element patches of the additive Schwarz preconditioner. */
#ifndef HDGCL_HOST_LINEAR_SYSTEM_H
#define HDGCL_HOST_LINEAR_SYSTEM_H

#include "core/context.h"
#include "fem/shape.h"

/* Storage of the assembled matrix (--format; in the order of the names in
 * host/drivers/solver.c). */
enum { FORMAT_BELL = 0, FORMAT_ELL = 1, FORMAT_BELL_I = 2 };
/* True if the format stores its values interleaved (cl/solvers/trace_matrix.h). */
#define FORMAT_INTERLEAVED(f) ((f) == FORMAT_ELL || (f) == FORMAT_BELL_I)

/* The mesh topology on the device that gives each element its faces' trace
 * unknowns (host/solvers/precond_asm.c). */
typedef struct element_patches {
  int num_elements;
  int nt; /* unknowns of a patch: faces per element x block size */
  const hdgcl_buffer *elem_faces, *face_elems, *face_local, *face_unknown, *unknown_face;
} element_patches;

/* The buffers are the owner's: they stay valid while it lives, and it may
 * fill them anew (even re-create them) between solves. */
typedef struct linear_system {
  int rows;   /* block rows: the unknown faces */
  int nf;     /* block size: ncomp x face modes */
  int nslots; /* blocks per row */
  int format; /* FORMAT_* */
  /* The discretisation, for p-multigrid (degree transfers, BoomerAMG). */
  int dim, order, ncomp;
  hdgcl_shape face_shape;
  const char *problem; /* its name, for messages */
  const char *options; /* -D sizes of the solve stage's kernels (NF, NT, NSLOTS, ...) */
  /* values: [rows][nslots][nf][nf] in the storage `format`; cols: ELL's
   * scalar columns (FORMAT_ELL only); block_cols: [rows][nslots], -1 empty;
   * rhs: [rows nf]. */
  const hdgcl_buffer *values, *cols, *block_cols, *rhs;
  element_patches patches;
} linear_system;

#endif
