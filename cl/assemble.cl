/* Assembly of the trace system (docs/formulation.md (F11), paper 000
 * section 4.2): face-parallel and lock-free.  Every unknown face gathers its
 * row block from the condensed matrices K_e of its one or two neighbours;
 * each matrix entry and right-hand-side value has a fixed summation order,
 * so the result is bitwise reproducible and independent of how elements are
 * chunked (a sum of two terms does not depend on their order).
 * Prepended: common.h, problems.h, geometry.h.  Sizes: DIM, NVERT, NFACES,
 * NORIENT, NF, NT, NSLOTS, NQ_FACE; INTERLEAVED selects the interleaved (ELL)
 * value layout of --format ell and bell-i instead of row-major blocks.
 *
 * Block slots of unknown row u (face F): slot 0 = F; slots 1..NFACES-1 the
 * other faces of neighbour 0 in local order (lf0 + j) mod NFACES; the next
 * NFACES-1 slots the same for neighbour 1 (host/hdg.h).
 *   block-ELL value (u, slot, m, n) at ((u*NSLOTS + slot)*NF + m)*NF + n
 *   scalar ELL: row = u*NF + m, entry k = slot*NF + n at k*nrows + row */

#define FACE_DIRICHLET 1
#define FACE_NEUMANN 2

/* K_e[a][b] of chunk element le (column-major (NT+1)^2 blocks). */
#define KE(K, le, a, b) K[(long)(le) * (NT + 1) * (NT + 1) + (long)(b) * (NT + 1) + (a)]

/* Dirichlet trace or Neumann load <g_N, psi_m>_F of every boundary face, one
 * work-item per face, bvals[(F - nint)*NF + m].  The Dirichlet trace is the
 * projection in the face's reference inner product, lambda_m = sum_q w_q
 * psi_m g_D (the L2 projection on affine faces, whose mass matrix is sigma I);
 * the geometry comes from the neighbour's map at each face point. */
__kernel void boundary_data(const int nint, const int nbnd, __global const char *face_bc,
                            __global const int *face_elems, __global const char *face_local,
                            __global const char *face_orient, __global const double *coords,
                            __global const int *elem_verts, const int problem_id,
                            const int problem_degree, const double problem_param,
                            __global const double *face_weights, /* [NQ_FACE] */
                            __global const double *psi_face,     /* [NQ_FACE][NF] */
                            __global const double *face_xi, /* [NFACES][NORIENT][NQ_FACE][DIM] */
                            __global const double *face_tangent, /* [NFACES][2][DIM] */
                            __global const double *face_nref,    /* [NFACES][DIM] */
                            __global double *bvals) {
  const int b = get_global_id(0);
  if (b >= nbnd) return;
  const int F = nint + b;
  problem_params pp = {problem_id, DIM, problem_degree, problem_param};
  const long e = face_elems[2 * F];
  const int lf = face_local[2 * F], o = face_orient[2 * F];
  double out[NF];
  for (int m = 0; m < NF; m++) out[m] = 0.0;
  const bool dirichlet = face_bc[F] == FACE_DIRICHLET;
  for (int q = 0; q < NQ_FACE; q++) {
    double X[DIM], x[3], nds[3];
    for (int l = 0; l < DIM; l++) X[l] = face_xi[((lf * NORIENT + o) * NQ_FACE + q) * DIM + l];
    const double ds = face_normal(e, coords, elem_verts, X, face_tangent + lf * 2 * DIM,
                                  face_nref + lf * DIM, x, nds);
    double w;
    if (dirichlet) {
      double grad[3];
      w = face_weights[q] * problem_u(pp, x[0], x[1], x[2], grad);
    } else {
      w = ds * face_weights[q] *
          problem_neumann(pp, x[0], x[1], x[2], nds[0] / ds, nds[1] / ds, nds[2] / ds);
    }
    for (int m = 0; m < NF; m++) out[m] += w * psi_face[q * NF + m];
  }
  for (int m = 0; m < NF; m++) bvals[(long)b * NF + m] = out[m];
}

/* Matrix entries contributed by the chunk elements [e0, e0 + nchunk): one
 * work-item per (row face, slot, m, n), in a grid-stride loop so the launch
 * stays below 2^31 work-items (NVIDIA's get_global_id is 32-bit signed
 * inside: past 2^31 it wraps negative) however many entries the matrix has. */
__kernel void assemble_matrix(const int nunknown, const int e0, const int nchunk,
                              __global const int *unknown_face, __global const int *block_cols,
                              __global const int *face_elems, __global const char *face_local,
                              __global const double *K, __global double *values) {
  const long total = (long)nunknown * NSLOTS * NF * NF;
  for (long t = get_global_id(0); t < total; t += get_global_size(0)) {
    const int n = t % NF, m = (t / NF) % NF, slot = (t / (NF * NF)) % NSLOTS;
    const int u = t / (NSLOTS * NF * NF);
    if (block_cols[u * NSLOTS + slot] < 0) continue; /* empty slot: stays zero */
    const int F = unknown_face[u];
    double add = 0.0;
    bool any = false;
    if (slot == 0) {
      for (int side = 0; side < 2; side++) {
        const int e = face_elems[2 * F + side];
        if (e < e0 || e >= e0 + nchunk) continue;
        const int lf = face_local[2 * F + side];
        add += KE(K, e - e0, lf * NF + m, lf * NF + n);
        any = true;
      }
    } else {
      const int side = (slot - 1) / (NFACES - 1), j = (slot - 1) % (NFACES - 1) + 1;
      const int e = face_elems[2 * F + side];
      if (e >= e0 && e < e0 + nchunk) {
        const int lf = face_local[2 * F + side], lg = (lf + j) % NFACES;
        add = KE(K, e - e0, lf * NF + m, lg * NF + n);
        any = true;
      }
    }
    if (!any) continue;
#ifdef INTERLEAVED
    const long nrows = (long)nunknown * NF;
    values[(long)(slot * NF + n) * nrows + (long)u * NF + m] += add;
#else
    values[t] += add;
#endif
  }
}

/* Right-hand side contributed by the chunk elements: g_e minus the columns
 * of Dirichlet faces times their known trace.  One work-item per row. */
__kernel void assemble_rhs(const int nunknown, const int e0, const int nchunk, const int nint,
                           __global const int *unknown_face, __global const int *face_elems,
                           __global const char *face_local, __global const int *elem_faces,
                           __global const char *face_bc, __global const double *bvals,
                           __global const double *K, __global double *rhs) {
  const int row = get_global_id(0);
  if (row >= nunknown * NF) return;
  const int u = row / NF, m = row % NF, F = unknown_face[u];
  double r = rhs[row];
  for (int side = 0; side < 2; side++) {
    const int e = face_elems[2 * F + side];
    if (e < e0 || e >= e0 + nchunk) continue;
    const int lf = face_local[2 * F + side];
    double ce = -KE(K, e - e0, lf * NF + m, NT); /* the last column holds -g_e */
    for (int lg = 0; lg < NFACES; lg++) {
      const int G = elem_faces[(long)e * NFACES + lg];
      if (face_bc[G] != FACE_DIRICHLET) continue;
      for (int n = 0; n < NF; n++)
        ce -= KE(K, e - e0, lf * NF + m, lg * NF + n) * bvals[(long)(G - nint) * NF + n];
    }
    r += ce;
  }
  rhs[row] = r;
}

/* Neumann loads, added once after all chunks (F11). One work-item per row. */
__kernel void add_neumann(const int nunknown, const int nint, __global const int *unknown_face,
                          __global const char *face_bc, __global const double *bvals,
                          __global double *rhs) {
  const int row = get_global_id(0);
  if (row >= nunknown * NF) return;
  const int u = row / NF, m = row % NF, F = unknown_face[u];
  if (face_bc[F] == FACE_NEUMANN) rhs[row] += bvals[(long)(F - nint) * NF + m];
}

/* Column indices of the scalar ELL layout (padding: the row itself, value 0). */
__kernel void ell_columns(const int nunknown, __global const int *block_cols, __global int *cols) {
  const int row = get_global_id(0);
  if (row >= nunknown * NF) return;
  const int u = row / NF;
  const long nrows = (long)nunknown * NF;
  for (int slot = 0; slot < NSLOTS; slot++) {
    const int c = block_cols[u * NSLOTS + slot];
    for (int n = 0; n < NF; n++) cols[(long)(slot * NF + n) * nrows + row] = c >= 0 ? c * NF + n : row;
  }
}
