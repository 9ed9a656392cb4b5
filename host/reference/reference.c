/* The serial reference path (--device ref): boundary data, local stage and
 * element-by-element assembly, CG or GMRES, recovery, all in plain C on the host.
 * It is the oracle the device pipeline is tested against. */
#include "reference/reference.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "solvers/krylov.h"

int reference_solve(const hdg_discretisation *disc, const solver_settings *set, hdg_solution *sol) {
  const hdgcl_mesh *mesh = disc->mesh;
  int nf = disc->ref.sz.nfb; /* values per face: ncomp * nf */
  int32_t nbnd = mesh->num_faces - mesh->num_interior_faces;
  size_t n = (size_t)disc->num.num_unknown_faces * nf;
  double *bvals = NULL, *x = NULL;
  int status;
  double *st = sol->stage_seconds;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)nbnd * nf, sizeof(double), "boundary data", &bvals),
                 done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "trace solution", &x), done);

  double t0 = hdgcl_wtime();
  HDGCL_TRY_GOTO(status, reference_boundary_data(disc, bvals), done);
  HDGCL_TRY_GOTO(status, reference_assemble(disc, sol, bvals), done);
  double t1 = hdgcl_wtime();
  st[HDGCL_STAGE_ASSEMBLE] = t1 - t0; /* local stage and scatter together */
  HDGCL_TRY_GOTO(status,
                 set->solver == SOLVER_GMRES ? reference_gmres(disc, set, sol, x)
                                             : reference_cg(disc, set, sol, x),
                 done);
  double t2 = hdgcl_wtime();
  st[HDGCL_STAGE_SOLVE] = t2 - t1;

  /* The trace of every face: solved unknowns, projected Dirichlet data (also
   * on the fixed components of per-component faces, docs/problems.md (P4):
   * their decoupled rows uhat = P_F g are solved to rtol only). */
  for (int32_t f = 0; f < mesh->num_faces; f++) {
    int32_t u = disc->num.face_unknown[f];
    const double *src = u >= 0 ? x + (size_t)u * nf
                               : bvals + (size_t)(f - mesh->num_interior_faces) * nf;
    memcpy(sol->trace + (size_t)f * nf, src, sizeof(double) * nf);
    for (int m = 0; m < nf && disc->num.face_fixed[f]; m++)
      if (hdg_fixed(&disc->num, f, m, disc->ref.sz.nf))
        sol->trace[(size_t)f * nf + m] = bvals[(size_t)(f - mesh->num_interior_faces) * nf + m];
  }
  HDGCL_TRY_GOTO(status, reference_recover(disc, sol), done);
  st[HDGCL_STAGE_RECOVER] = hdgcl_wtime() - t2;
  status = HDGCL_SUCCESS;
done:
  free(bvals);
  free(x);
  return status;
}
