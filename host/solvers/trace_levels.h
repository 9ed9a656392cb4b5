/* The coarser trace operators p-multigrid asks for (precond_pmg.c): the same
 * system re-discretised at a lower degree on the same faces, each with its
 * own solve stage.  The trace operator implements it (host/pipeline/levels.c);
 * `level` is its opaque handle of one level. */
#ifndef HDGCL_HOST_TRACE_LEVELS_H
#define HDGCL_HOST_TRACE_LEVELS_H

#include <stdint.h>

typedef struct krylov krylov; /* krylov.h */

typedef struct trace_levels {
  void *owner; /* the fine operator; NULL: no levels */
  /* The operator at degree `order` and its solve stage *kr (its unknowns
   * numbered as the fine one's), with preconditioner `precond_kind` (PRECOND_*;
   * Chebyshev of cheb_degree steps) and CG, or GMRES(gmres_restart) where
   * gmres_restart > 0.  *kr's settings may be changed before it solves. */
  int (*create)(void *owner, int order, int precond_kind, int cheb_degree, int gmres_restart,
                void **level, krylov **kr);
  /* Builds the level's system into the buffers its stage's system names. */
  int (*assemble)(void *owner, void *level);
  /* Adds the flops and bytes of the level's last assemble to *flops, *bytes. */
  void (*add_work)(void *owner, void *level, double *flops, double *bytes);
  /* Host copies of the assembled matrix: block-ELL values
   * [rows][nslots][nf][nf] and block columns [rows][nslots] (-1 empty);
   * level NULL: the fine operator's. */
  int (*download)(void *owner, void *level, const double **values, const int32_t **block_cols);
  void (*destroy)(void *owner, void *level);
} trace_levels;

#endif
