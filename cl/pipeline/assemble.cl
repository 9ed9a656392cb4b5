/* Assembly of the trace system (docs/formulation.md (F11), paper 000
 * section 4.2): face-parallel and lock-free.  Every unknown face gathers its
 * row block from the condensed matrices K_e of its one or two neighbours;
 * each matrix entry and right-hand-side value has a fixed summation order,
 * so the result is bitwise reproducible and independent of how elements are
 * chunked (a sum of two terms does not depend on their order).
 * Prepended: common.h, problems.h, geometry.h.  Sizes: DIM, NVERT, NFACES,
 * NORIENT, NF, NT, NSLOTS, NQ_FACE, and the trace blocks NCOMP, NFB = NCOMP NF,
 * NTB = NCOMP NT (a face block holds component c's NF values at c NF + m;
 * docs/elasticity.md section 4); INTERLEAVED selects the interleaved (ELL)
 * value layout of --format ell and bell-i instead of row-major blocks.
 *
 * Block slots of unknown row u (face F): slot 0 = F; slots 1..NFACES-1 the
 * other faces of neighbour 0 in local order (lf0 + j) mod NFACES; the next
 * NFACES-1 slots the same for neighbour 1 (host/fem/hdg.h).  On a mixed mesh
 * the slots are the widest type's (ELEM_NFACES, cl/core/common.h) and a
 * narrower neighbour fills the first NFACES-1 of its side.
 *   block-ELL value (u, slot, m, n) at ((u*NSLOTS + slot)*NFB + m)*NFB + n
 *   scalar ELL: row = u*NFB + m, entry k = slot*NFB + n at k*nrows + row */

#define FACE_DIRICHLET 1
#define FACE_NEUMANN 2
#define FACE_ROBIN 3 /* host/fem/hdg.h: an unknown face with the load of a Neumann face */
/* face_fixed[F] bit c: component c of per-component face F is given (host/fem/hdg.h,
 * docs/problems.md (P4)); such faces are FACE_NEUMANN. */
#define FIXED(F, m) ((face_fixed[F] >> ((m) / NF)) & 1)

/* K_e[a][b] of chunk element le (column-major (NTB+1)^2 blocks). */
#define KE(K, le, a, b) K[(long)(le) * (NTB + 1) * (NTB + 1) + (long)(b) * (NTB + 1) + (a)]

/* Dirichlet trace or Neumann load <g_N, psi_m>_F of every boundary face, one
 * work-item per face, bvals[(F - nint)*NFB + c*NF + m].  The Dirichlet trace is the
 * projection in the face's reference inner product, lambda_m = sum_q w_q
 * psi_m g_D (the L2 projection on affine faces, whose mass matrix is sigma I);
 * the geometry comes from the neighbour's map at each face point.  Vector
 * problems (NCOMP > 1): each component of the displacement, or of the
 * traction sigma n (docs/elasticity.md (E12)); per-component faces the
 * displacement of their fixed components and the traction of the others
 * (docs/problems.md (P4)). */
__kernel void boundary_data(const int nint, const int nbnd,
                            const int efirst, const int eend, /* the faces of elements [efirst, eend) */
                            __global const char *face_bc,
                            __global const char *face_cond, /* [nbnd] condition index */
                            __global const char *face_fixed, /* [nfaces] fixed components */
                            __global const int *face_elems, __global const char *face_local,
                            __global const char *face_orient, __global const double *coords,
                            __global const int *elem_verts, const int problem_id,
                            const int problem_degree, const double problem_param,
                            const double mu, const double lambda,
                            __global const double *face_weights, /* [NQ_FACE] */
                            __global const double *psi_face,     /* [NQ_FACE][NF] */
                            __global const double *face_xi, /* [NFACES][NORIENT][NQ_FACE][DIM] */
                            __global const double *face_tangent, /* [NFACES][2][DIM] */
                            __global const double *face_nref,    /* [NFACES][DIM] */
                            __global double *bvals) {
  const int b = get_global_id(0);
  if (b >= nbnd) return;
  const int F = nint + b;
  problem_params pp = {problem_id, DIM, problem_degree, problem_param, mu, lambda};
  const long e = face_elems[2 * F];
  if (e < efirst || e >= eend) return; /* another batch's (element type's) face */
  const int lf = face_local[2 * F], o = face_orient[2 * F];
  double out[NFB];
  for (int m = 0; m < NFB; m++) out[m] = 0.0;
  const bool dirichlet = face_bc[F] == FACE_DIRICHLET;
  const int cond = face_cond[b];
  for (int q = 0; q < NQ_FACE; q++) {
    double X[DIM], x[3], nds[3];
    for (int l = 0; l < DIM; l++) X[l] = face_xi[((lf * NORIENT + o) * NQ_FACE + q) * DIM + l];
    const double ds = face_normal(e, coords, elem_verts, X, face_tangent + lf * 2 * DIM,
                                  face_nref + lf * DIM, x, nds);
#if NCOMP > 1
    const int fixed = dirichlet ? (1 << NCOMP) - 1 : face_fixed[F];
    double v[3], t[3];
    if (fixed) problem_elasticity_displacement(pp, cond, x, v);
    if (!dirichlet) {
      const double n[3] = {nds[0] / ds, nds[1] / ds, DIM == 3 ? nds[2] / ds : 0.0};
      problem_elasticity_traction(pp, cond, x, n, t);
    }
    for (int c = 0; c < NCOMP; c++)
      v[c] = (fixed >> c) & 1 ? v[c] * face_weights[q] : t[c] * (ds * face_weights[q]);
    for (int c = 0; c < NCOMP; c++)
      for (int m = 0; m < NF; m++) out[c * NF + m] += v[c] * psi_face[q * NF + m];
#else
    double w;
    if (dirichlet) {
      w = face_weights[q] * problem_dirichlet(pp, cond, x[0], x[1], x[2]);
    } else { /* Neumann and Robin faces: the flux datum */
      w = ds * face_weights[q] *
          problem_flux(pp, cond, x[0], x[1], x[2], nds[0] / ds, nds[1] / ds, nds[2] / ds);
    }
    for (int m = 0; m < NF; m++) out[m] += w * psi_face[q * NF + m];
#endif
  }
  for (int m = 0; m < NFB; m++) bvals[(long)b * NFB + m] = out[m];
}

/* Matrix entries contributed by the chunk elements [e0, e0 + nchunk): one
 * work-item per (row face, slot, m, n), in a grid-stride loop so the launch
 * stays below 2^31 work-items (NVIDIA's get_global_id is 32-bit signed
 * inside: past 2^31 it wraps negative) however many entries the matrix has. */
__kernel void assemble_matrix(const int nunknown, const int e0, const int nchunk,
                              __global const int *unknown_face, __global const int *block_cols,
                              __global const int *face_elems, __global const char *face_local,
                              __global const double *K, __global double *values) {
  const long total = (long)nunknown * NSLOTS * NFB * NFB;
  for (long t = get_global_id(0); t < total; t += get_global_size(0)) {
    const int n = t % NFB, m = (t / NFB) % NFB, slot = (t / (NFB * NFB)) % NSLOTS;
    const int u = t / (NSLOTS * NFB * NFB);
    if (block_cols[u * NSLOTS + slot] < 0) continue; /* empty slot: stays zero */
    const int F = unknown_face[u];
    double add = 0.0;
    bool any = false;
    if (slot == 0) {
      for (int side = 0; side < 2; side++) {
        const int e = face_elems[2 * F + side];
        if (e < e0 || e >= e0 + nchunk) continue;
        const int lf = face_local[2 * F + side];
        add += KE(K, e - e0, lf * NFB + m, lf * NFB + n);
        any = true;
      }
    } else {
      /* Slots in the widest type's layout (ELEM_NFACES); a narrower
       * neighbour's own faces are the first NFACES - 1 of its side. */
      const int side = (slot - 1) / (ELEM_NFACES - 1), j = (slot - 1) % (ELEM_NFACES - 1) + 1;
      const int e = face_elems[2 * F + side];
#if ELEM_NFACES != NFACES
      if (j < NFACES && e >= e0 && e < e0 + nchunk) {
#else
      if (e >= e0 && e < e0 + nchunk) {
#endif
        const int lf = face_local[2 * F + side], lg = (lf + j) % NFACES;
        add = KE(K, e - e0, lf * NFB + m, lg * NFB + n);
        any = true;
      }
    }
    if (!any) continue;
#ifdef INTERLEAVED
    const long nrows = (long)nunknown * NFB;
    values[(long)(slot * NFB + n) * nrows + (long)u * NFB + m] += add;
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
  if (row >= nunknown * NFB) return;
  const int u = row / NFB, m = row % NFB, F = unknown_face[u];
  double r = rhs[row];
  for (int side = 0; side < 2; side++) {
    const int e = face_elems[2 * F + side];
    if (e < e0 || e >= e0 + nchunk) continue;
    const int lf = face_local[2 * F + side];
    double ce = -KE(K, e - e0, lf * NFB + m, NTB); /* the last column holds -g_e */
    for (int lg = 0; lg < NFACES; lg++) {
      const int G = elem_faces[(long)e * ELEM_NFACES + lg];
      if (face_bc[G] != FACE_DIRICHLET) continue;
      for (int n = 0; n < NFB; n++)
        ce -= KE(K, e - e0, lf * NFB + m, lg * NFB + n) * bvals[(long)(G - nint) * NFB + n];
    }
    r += ce;
  }
  rhs[row] = r;
}

/* Value (slot, n) of row `row` (unknown u, value m) in either layout. */
#ifdef INTERLEAVED
#define VALUE(slot, n) values[(long)((slot) * NFB + (n)) * nunknown * NFB + row]
#else
#define VALUE(slot, n) values[(((long)u * NSLOTS + (slot)) * NFB + m) * NFB + (n)]
#endif

/* Neumann and Robin loads, added once after all chunks (F11), and the Robin
 * faces' alpha-weighted face mass matrices added to their diagonal blocks
 * (docs/problems.md (P3); robin[(F - nint)][m][n], zero elsewhere).  Then the
 * per-component faces (docs/problems.md (P4)): a fixed value's row becomes
 * uhat = P_F g (identity row, the projection from bvals on the right), and
 * the fixed values' columns move to the right-hand side of the other rows
 * (host/reference/reference_assemble.c fix_components does the same).  One work-item
 * per row: it alone writes its row. */
__kernel void add_neumann(const int nunknown, const int nint, __global const int *unknown_face,
                          __global const int *block_cols, __global const char *face_bc,
                          __global const char *face_fixed, __global const double *bvals,
                          __global const double *robin, __global double *rhs,
                          __global double *values) {
  const int row = get_global_id(0);
  if (row >= nunknown * NFB) return;
  const int u = row / NFB, m = row % NFB, F = unknown_face[u];
  if (face_bc[F] >= FACE_NEUMANN) rhs[row] += bvals[(long)(F - nint) * NFB + m];
#if NCOMP > 1
  if (FIXED(F, m)) {
    for (int slot = 0; slot < NSLOTS; slot++)
      for (int n = 0; n < NFB; n++) VALUE(slot, n) = slot == 0 && n == m ? 1.0 : 0.0;
    rhs[row] = bvals[(long)(F - nint) * NFB + m];
    return;
  }
  double r = rhs[row];
  for (int slot = 0; slot < NSLOTS; slot++) {
    const int col = block_cols[u * NSLOTS + slot];
    if (col < 0) continue;
    const int G = unknown_face[col];
    if (!face_fixed[G]) continue;
    for (int n = 0; n < NFB; n++) {
      if (!FIXED(G, n)) continue;
      r -= VALUE(slot, n) * bvals[(long)(G - nint) * NFB + n];
      VALUE(slot, n) = 0.0;
    }
  }
  rhs[row] = r;
#endif
  if (face_bc[F] != FACE_ROBIN) return;
  __global const double *rb = robin + ((long)(F - nint) * NFB + m) * NFB;
  for (int n = 0; n < NFB; n++) {
#ifdef INTERLEAVED
    values[(long)n * nunknown * NFB + row] += rb[n]; /* slot 0, column n */
#else
    values[((long)u * NSLOTS * NFB + m) * NFB + n] += rb[n];
#endif
  }
}

#undef VALUE

/* The solved trace's fixed values set to their data (per-component faces,
 * docs/problems.md (P4)): their decoupled rows uhat = P_F g are solved to the
 * Krylov tolerance only.  One work-item per row. */
__kernel void fix_solution(const int nunknown, const int nint, __global const int *unknown_face,
                           __global const char *face_fixed, __global const double *bvals,
                           __global double *x) {
  const int row = get_global_id(0);
  if (row >= nunknown * NFB) return;
  const int m = row % NFB, F = unknown_face[row / NFB];
  if (FIXED(F, m)) x[row] = bvals[(long)(F - nint) * NFB + m];
}

/* Column indices of the scalar ELL layout (padding: the row itself, value 0). */
__kernel void ell_columns(const int nunknown, __global const int *block_cols, __global int *cols) {
  const int row = get_global_id(0);
  if (row >= nunknown * NFB) return;
  const int u = row / NFB;
  const long nrows = (long)nunknown * NFB;
  for (int slot = 0; slot < NSLOTS; slot++) {
    const int c = block_cols[u * NSLOTS + slot];
    for (int n = 0; n < NFB; n++) cols[(long)(slot * NFB + n) * nrows + row] = c >= 0 ? c * NFB + n : row;
  }
}
