/* The serial reference path (--device ref): boundary data, local stage and
 * element-by-element assembly, CG or GMRES, recovery, all in plain C on the host.
 * It is the oracle the device pipeline is tested against. */
#include "reference/reference.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "solvers/krylov.h"

int reference_solve(hdgcl_solver s) {
  const hdgcl_mesh *mesh = s->mesh;
  int nf = s->ref.sz.nfb; /* values per face: ncomp * nf */
  int32_t nbnd = mesh->num_faces - mesh->num_interior_faces;
  size_t n = (size_t)s->num.num_unknown_faces * nf;
  double *bvals = NULL, *x = NULL;
  int status;
  hdgcl_stage_stats *st = s->result.stages;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)nbnd * nf, sizeof(double), "boundary data", &bvals),
                 done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "trace solution", &x), done);

  double t0 = hdgcl_wtime();
  HDGCL_TRY_GOTO(status, reference_boundary_data(s, bvals), done);
  HDGCL_TRY_GOTO(status, reference_assemble(s, bvals), done);
  double t1 = hdgcl_wtime();
  st[HDGCL_STAGE_ASSEMBLE].seconds = t1 - t0; /* local stage and scatter together */
  HDGCL_TRY_GOTO(status, s->solver == SOLVER_GMRES ? reference_gmres(s, x) : reference_cg(s, x),
                 done);
  double t2 = hdgcl_wtime();
  st[HDGCL_STAGE_SOLVE].seconds = t2 - t1;

  /* The trace of every face: solved unknowns, projected Dirichlet data (also
   * on the fixed components of per-component faces, docs/problems.md (P4):
   * their decoupled rows uhat = P_F g are solved to rtol only). */
  for (int32_t f = 0; f < mesh->num_faces; f++) {
    int32_t u = s->num.face_unknown[f];
    const double *src = u >= 0 ? x + (size_t)u * nf
                               : bvals + (size_t)(f - mesh->num_interior_faces) * nf;
    memcpy(s->trace + (size_t)f * nf, src, sizeof(double) * nf);
    for (int m = 0; m < nf && s->num.face_fixed[f]; m++)
      if (hdg_fixed(&s->num, f, m, s->ref.sz.nf))
        s->trace[(size_t)f * nf + m] = bvals[(size_t)(f - mesh->num_interior_faces) * nf + m];
  }
  HDGCL_TRY_GOTO(status, reference_recover(s), done);
  st[HDGCL_STAGE_RECOVER].seconds = hdgcl_wtime() - t2;
  status = HDGCL_SUCCESS;
done:
  free(bvals);
  free(x);
  return status;
}
