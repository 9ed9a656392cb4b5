/* Reference path, assembly: boundary data by quadrature, and the trace
 * system (F11) assembled element by element (a scatter: each K_e block is
 * added into the row of its test face), the naive counterpart of the
 * device's face-parallel gather. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "fem/face_map.h"
#include "reference/reference.h"
#include "reference/reference_local.h"
#include "problem/user_problem.h"

int reference_boundary_data(const hdg_discretisation *disc, double *bvals) {
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdgcl_quadrature *qf = &disc->ref.qface;
  int nf = sz->nf, d = sz->dim;
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    if (sz->ncomp > 1) { /* vector problems: nfb values per face */
      HDGCL_TRY(elasticity_boundary_values(disc, f, bvals + (size_t)(f - mesh->num_interior_faces) * sz->nfb));
      continue;
    }
    double *out = bvals + (size_t)(f - mesh->num_interior_faces) * nf;
    memset(out, 0, sizeof(double) * nf);
    int32_t e = mesh->face_elems[2 * f];
    int lf = mesh->face_local[2 * f], o = mesh->face_orient[2 * f];
    int cond = disc->num.face_cond[f - mesh->num_interior_faces];
    for (int q = 0; q < qf->n; q++) {
      double X[3], x[3], nds[3];
      HDGCL_TRY(hdgcl_face_map_points(discretisation_ref(disc, e)->sz.type, lf, o, 1,
                                      qf->points + (size_t)q * (d - 1), X));
      double ds = hdg_face_normal(mesh, e, lf, X, x, nds);
      const double *psi = disc->ref.psi_face + (size_t)q * nf;
      if (disc->num.face_bc[f] == FACE_DIRICHLET) {
        /* Projection in the face's reference inner product: lambda_m = sum_q w psi_m g
         * (the L2 projection on affine faces, where the face mass matrix is sigma I). */
        double gd = problem_dirichlet(disc->params, cond, x[0], x[1], x[2]);
        for (int m = 0; m < nf; m++) out[m] += qf->weights[q] * psi[m] * gd;
      } else {
        /* Neumann (and Robin) load <g_N, psi_m>_F with g_N = kappa grad u . n. */
        double gn = problem_flux(disc->params, cond, x[0], x[1], x[2], nds[0] / ds, nds[1] / ds,
                                 nds[2] / ds);
        for (int m = 0; m < nf; m++) out[m] += ds * qf->weights[q] * psi[m] * gn;
      }
    }
  }
  return HDGCL_SUCCESS;
}

int reference_block_slot(const hdg_numbering *num, int nslots, int32_t row, int32_t col) {
  const int32_t *cols = num->block_cols + (size_t)row * nslots;
  for (int s = 0; s < nslots; s++)
    if (cols[s] == col) return s;
  return -1;
}

/* Per-component faces (docs/problems.md (P4)): the row of a fixed trace
 * value becomes uhat = P_F g (an identity row, the projection from bvals on
 * the right), and its column moves to the right-hand side of the other rows,
 * so the fixed values decouple.  Row by row, in the order of the device's
 * add_neumann (cl/pipeline/assemble.cl). */
static void fix_components(const hdg_discretisation *disc, hdg_solution *sol, const double *bvals) {
  const hdg_numbering *num = &disc->num;
  const hdg_sizes *sz = &disc->ref.sz;
  int nfb = sz->nfb, nf = sz->nf, nslots = sz->nslots;
  int32_t nint = disc->mesh->num_interior_faces;
  for (int32_t u = 0; u < num->num_unknown_faces; u++) {
    int32_t F = num->unknown_face[u];
    for (int m = 0; m < nfb; m++) {
      double *r = sol->rhs + (size_t)u * nfb + m;
      if (hdg_fixed(num, F, m, nf)) {
        for (int sl = 0; sl < nslots; sl++)
          for (int n = 0; n < nfb; n++)
            sol->matrix[(((size_t)u * nslots + sl) * nfb + m) * nfb + n] = sl == 0 && n == m ? 1.0 : 0.0;
        *r = bvals[(size_t)(F - nint) * nfb + m];
        continue;
      }
      for (int sl = 0; sl < nslots; sl++) {
        int32_t col = num->block_cols[(size_t)u * nslots + sl];
        if (col < 0) continue;
        int32_t G = num->unknown_face[col];
        if (!num->face_fixed[G]) continue;
        for (int n = 0; n < nfb; n++) {
          if (!hdg_fixed(num, G, n, nf)) continue;
          double *v = sol->matrix + (((size_t)u * nslots + sl) * nfb + m) * nfb + n;
          *r -= *v * bvals[(size_t)(G - nint) * nfb + n];
          *v = 0.0;
        }
      }
    }
  }
}

/* The trace system is assembled in face blocks of nf = nfb = ncomp * nf
 * values (hdg_sizes): the scalar K_e of (F10) (ncomp = 1) or the vector one
 * of docs/elasticity.md (E9), element traces nt = ntb values face-major. */
int reference_assemble(const hdg_discretisation *disc, hdg_solution *sol, const double *bvals) {
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdg_numbering *num = &disc->num;
  int nf = sz->nfb, nt = sz->ntb, nfe = sz->nfaces, nslots = sz->nslots;
  int stride = mesh->faces_per_element; /* a mixed mesh: nfe and nt are each element's */
  bool vector = sz->ncomp > 1;
  size_t nrows = (size_t)num->num_unknown_faces;
  memset(sol->matrix, 0, sizeof(double) * nrows * nslots * nf * nf);
  memset(sol->rhs, 0, sizeof(double) * nrows * nf);
  reference_element el = {0};
  elasticity_element vel = {0};
  double *g = NULL;
  const double *ke = NULL;
  int status;
  if (vector) {
    HDGCL_TRY(elasticity_element_create(sz, &vel));
    ke = vel.k;
  } else {
    HDGCL_TRY(reference_element_create(sz, &el));
    ke = el.k;
  }
  HDGCL_TRY_GOTO(status, hdgcl_calloc(nt, sizeof(double), "element rhs", &g), done);
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    if (vector) {
      const hdg_sizes *esz = &discretisation_ref(disc, e)->sz; /* e's type's (a mixed mesh) */
      nfe = esz->nfaces;
      nt = esz->ntb;
      HDGCL_TRY_GOTO(status, elasticity_element_condense(disc, e, &vel), done);
      memcpy(g, vel.g, sizeof(double) * nt);
    } else {
      HDGCL_TRY_GOTO(status, reference_element_condense(disc, e, &el), done);
      reference_element_rhs(&el, g);
      nfe = el.sz.nfaces;
      nt = el.sz.ntb;
    }
    const int32_t *faces = mesh->elem_faces + (size_t)e * stride;
    for (int a = 0; a < nfe; a++) {
      int32_t row = num->face_unknown[faces[a]];
      if (row < 0) continue; /* Dirichlet face: no equation */
      double *r = sol->rhs + (size_t)row * nf;
      for (int m = 0; m < nf; m++) r[m] += g[a * nf + m];
      for (int b = 0; b < nfe; b++) {
        int32_t col = num->face_unknown[faces[b]];
        const double *kab = ke + (size_t)(a * nf) * nt + b * nf;
        if (col < 0) { /* known Dirichlet trace: move to the right-hand side */
          const double *lam = bvals + (size_t)(faces[b] - mesh->num_interior_faces) * nf;
          for (int m = 0; m < nf; m++)
            for (int n = 0; n < nf; n++) r[m] -= kab[m * nt + n] * lam[n];
          continue;
        }
        int slot = reference_block_slot(num, nslots, row, col);
        if (slot < 0) {
          status = hdgcl_error(HDGCL_ERROR_INTERNAL, "face %d has no block column for face %d",
                               (int)faces[a], (int)faces[b]);
          goto done;
        }
        double *blk = sol->matrix + ((size_t)row * nslots + slot) * nf * nf;
        for (int m = 0; m < nf; m++)
          for (int n = 0; n < nf; n++) blk[m * nf + n] += kab[m * nt + n];
      }
    }
  }
  /* Neumann and Robin loads (F11), and the Robin faces' blocks (docs/problems.md (P3)). */
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    if (num->face_bc[f] < FACE_NEUMANN) continue;
    double *r = sol->rhs + (size_t)num->face_unknown[f] * nf;
    const double *load = bvals + (size_t)(f - mesh->num_interior_faces) * nf;
    for (int m = 0; m < nf; m++) r[m] += load[m];
    if (num->face_bc[f] != FACE_ROBIN) continue;
    double *blk = sol->matrix + (size_t)num->face_unknown[f] * nslots * nf * nf; /* slot 0 */
    const double *rb = disc->robin + (size_t)(f - mesh->num_interior_faces) * nf * nf;
    for (int m = 0; m < nf * nf; m++) blk[m] += rb[m];
  }
  if (vector) fix_components(disc, sol, bvals);
  status = HDGCL_SUCCESS;
done:
  free(g);
  if (vector)
    elasticity_element_destroy(&vel);
  else
    reference_element_destroy(&el);
  return status;
}
