/* The L2 projection of the problem's exact solution (a user's problem: its
 * initial condition) onto each element's basis (discretisation.h): a transient
 * problem's u at t = 0 (docs/time.md). */
#include <stdlib.h>
#include <string.h>

#include "core/dense.h"
#include "core/error.h"
#include "discretisation/discretisation.h"
#include "problem/user_problem.h"

/* Per element, M u_e = b with M_ij = (phi_j, phi_i)_K and b_i = (u, phi_i)_K by
 * the load quadrature.  On a simplex the map is affine, so M = |J| M_ref and
 * one factorisation of the reference mass matrix serves every element.  A
 * mixed mesh (docs/geometry.md, "Mixed meshes"): each element's own tables,
 * its mass matrix per element, into rows of the widest type's np (the
 * narrower type's row ends in zeros). */
int discretisation_project_exact(const hdg_discretisation *d, double *u) {
  const hdgcl_mesh *mesh = d->mesh;
  const hdg_reference *ref = &d->ref;
  const hdgcl_quadrature *qv = &ref->qload;
  const int row = ref->sz.np, dim = ref->sz.dim;
  const bool mixed = hdgcl_mesh_is_mixed(mesh);
  if (ref->sz.ncomp != 1)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "discretisation_project_exact: scalar problems only");
  bool affine = (mesh->type == HDGCL_TRIANGLE || mesh->type == HDGCL_TETRAHEDRON) &&
                mesh->geometry_order <= 1 && !mixed;
  int np = row;
  double *m = NULL, *b = NULL;
  HDGCL_TRY(hdgcl_calloc((size_t)row * row, sizeof(double), "projection mass matrix", &m));
  int status = hdgcl_calloc((size_t)row, sizeof(double), "projection load", &b);
  if (status != HDGCL_SUCCESS) goto done;
  if (affine) { /* M_ref = sum_q w_q phi(xi_q) phi(xi_q)^T, factored once */
    for (int q = 0; q < qv->n; q++) {
      const double *phi = ref->phi_load + (size_t)q * np;
      for (int i = 0; i < np; i++)
        for (int j = 0; j < np; j++) m[i * np + j] += qv->weights[q] * phi[i] * phi[j];
    }
    if (dense_cholesky(np, m)) {
      status = hdgcl_error(HDGCL_ERROR_INTERNAL, "the reference mass matrix is not positive definite");
      goto done;
    }
  }
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    if (mixed) {
      ref = discretisation_ref(d, e);
      np = ref->sz.np;
      qv = &ref->qload;
    }
    memset(b, 0, sizeof(double) * row);
    if (!affine) memset(m, 0, sizeof(double) * np * np);
    double detj = 1.0;
    for (int q = 0; q < qv->n; q++) {
      double x[3] = {0, 0, 0}, jac[9], g[3];
      detj = hdg_map(mesh, e, qv->points + (size_t)q * dim, x, jac);
      if (!(detj > 0)) {
        status = hdgcl_error(HDGCL_ERROR_MESH, "element %d: Jacobian %g <= 0 at a quadrature point",
                             (int)e, detj);
        goto done;
      }
      const double *phi = ref->phi_load + (size_t)q * np;
      double w = qv->weights[q] * (affine ? 1.0 : detj);
      /* a user's transient problem: its initial condition; else the exact u at params' time */
      double uq = d->user ? hdg_user_initial(d->user, x[0], x[1], x[2])
                          : problem_u(d->params, x[0], x[1], x[2], g);
      for (int i = 0; i < np; i++) b[i] += w * uq * phi[i];
      if (!affine)
        for (int i = 0; i < np; i++)
          for (int j = 0; j < np; j++) m[i * np + j] += w * phi[i] * phi[j];
    }
    if (!affine && dense_cholesky(np, m)) {
      status = hdgcl_error(HDGCL_ERROR_MESH, "element %d: its mass matrix is not positive definite",
                           (int)e);
      goto done;
    }
    dense_cholesky_solve(np, m, 1, b); /* affine: |J| cancels between M and b */
    memcpy(u + (size_t)e * row, b, sizeof(double) * row); /* b's tail past np: zeros */
  }
done:
  free(m);
  free(b);
  return status;
}
