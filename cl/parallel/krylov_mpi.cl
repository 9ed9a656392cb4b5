/* The distributed Krylov solve's own kernels (host/parallel/krylov_mpi.c,
 * docs/mpi.md): the halo of the cut faces packed and added on the device,
 * dot products over the rows a rank owns, the CG updates with the scalars
 * the host reduced over the ranks, and (block-)Jacobi on the summed diagonal
 * blocks.  Built after core/common.h, solvers/trace_matrix.h (NF, NSLOTS,
 * INTERLEAVED) and solvers/vectors.cl (group_partials2, DOT_WG). */

/* send[k pf + j] = x[idx[k] pf + j]: the blocks of `count` cut faces (pf
 * values each) packed in the order of the message. */
__kernel void mpi_halo_gather(const int count, const int pf, __global const int *idx,
                              __global const double *x, __global double *send) {
  const int i = get_global_id(0);
  if (i >= count * pf) return;
  const int k = i / pf, j = i - k * pf;
  send[i] = x[(long)idx[k] * pf + j];
}

/* y = A x on the face rows list[0..count-1] only (one work-item per row
 * (k, m)): the overlapped product runs it on the cut faces' rows, then on
 * the others while the halo messages fly.  Each row's sum is the one of the
 * serial kernel of the storage (cl/solvers/spmv.cl: spmv_bell, spmv_bell_i,
 * spmv_ell; MPI_ELL or INTERLEAVED): same terms in the same order, so the
 * overlapped product equals the plain one bit for bit (tests/test_mpi_solve.c
 * checks it).  cols: block columns, or ELL's scalar columns. */
__kernel void mpi_spmv_rows(const int count, __global const int *list, const int nunknown,
                            __global const int *cols, __global const double *values,
                            __global const double *x, __global double *y) {
  const int i = get_global_id(0);
  if (i >= count * NF) return;
  const int k = i / NF, m = i - k * NF;
  const int u = list[k], row = u * NF + m;
  const int nrows = nunknown * NF;
  double s = 0.0;
#ifdef MPI_ELL
  for (int e = 0; e < NSLOTS * NF; e++)
    s += values[(long)e * nrows + row] * x[cols[(long)e * nrows + row]];
#else
  for (int slot = 0; slot < NSLOTS; slot++) {
    const int c = cols[u * NSLOTS + slot];
    if (c < 0) continue;
    __global const double *xc = x + (long)c * NF;
#ifdef INTERLEAVED
    __global const double *a = values + (long)slot * NF * nrows + row;
    for (int n = 0; n < NF; n++) s += a[(long)n * nrows] * xc[n];
#else
    __global const double *blk = values + ((long)(u * NSLOTS + slot) * NF + m) * NF;
    for (int n = 0; n < NF; n++) s += blk[n] * xc[n];
#endif
  }
#endif
  y[row] = s;
}

/* y[idx[k] pf + j] += recv[k pf + j]: the neighbours' shares added (a cut
 * face has one neighbour, so no two work-items write one entry). */
__kernel void mpi_halo_scatter_add(const int count, const int pf, __global const int *idx,
                                   __global const double *recv, __global double *y) {
  const int i = get_global_id(0);
  if (i >= count * pf) return;
  const int k = i / pf, j = i - k * pf;
  y[(long)idx[k] * pf + j] += recv[i];
}

/* partial[2g], partial[2g+1]: this group's sums of a.b and a.c over the
 * rows the rank owns (owned[row] != 0; NF entries a row). */
__kernel void mpi_owned_dot2(const int n, __global const char *owned, __global const double *a,
                             __global const double *b, __global const double *c,
                             __global double *partial) {
  __local double buf[DOT_WG];
  double s = 0.0, t = 0.0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    if (owned[i / NF]) {
      s += a[i] * b[i];
      t += a[i] * c[i];
    }
  group_partials2(buf, s, t, partial);
}

/* Multi-dot over the owned rows (GMRES's Gram-Schmidt): partial[g MDOT_MAX
 * + j] = this group's share of V_j . w for j < k (V_j = v + j n). */
__kernel void mpi_owned_mdot(const int n, const int k, __global const char *owned,
                             __global const double *v, __global const double *w,
                             __global double *partial) {
  __local double buf[DOT_WG];
  for (int j = 0; j < k; j++) {
    __global const double *vj = v + (long)j * n;
    double s = 0.0;
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
      if (owned[i / NF]) s += vj[i] * w[i];
    s = group_sum(buf, s);
    if (get_local_id(0) == 0) partial[get_group_id(0) * MDOT_MAX + j] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* x += alpha p, r -= alpha q. */
__kernel void mpi_cg_update_xr(const int n, const double alpha, __global const double *p,
                               __global const double *q, __global double *x,
                               __global double *r) {
  const int i = get_global_id(0);
  if (i >= n) return;
  x[i] += alpha * p[i];
  r[i] -= alpha * q[i];
}

/* p = z + beta p. */
__kernel void mpi_cg_update_p(const int n, const double beta, __global const double *z,
                              __global double *p) {
  const int i = get_global_id(0);
  if (i >= n) return;
  p[i] = z[i] + beta * p[i];
}

/* diag[u] = the diagonal block (slot 0) of face row u, NF x NF row-major. */
__kernel void mpi_diag_blocks(const int nunknown, __global const double *values,
                              __global double *diag) {
  const int i = get_global_id(0);
  if (i >= nunknown * NF * NF) return;
  const int u = i / (NF * NF), mn = i - u * NF * NF, m = mn / NF, c = mn - m * NF;
  diag[i] = trace_block_entry(values, nunknown, u, 0, m, c);
}

/* In place, per face row: block: the inverse of the summed diagonal block
 * (SPD: no pivoting, trace_matrix.h); else Jacobi: dinv[u NF + m] = 1 / its
 * diagonal entries. */
__kernel void mpi_diag_invert(const int nunknown, const int block, __global double *diag,
                              __global double *dinv) {
  const int u = get_global_id(0);
  if (u >= nunknown) return;
  __global double *a = diag + (long)u * NF * NF;
  if (block)
    posdef_invert_in_place(a, NF);
  else
    for (int m = 0; m < NF; m++) dinv[(long)u * NF + m] = 1.0 / a[m * NF + m];
}

/* z = blockdiag(binv) r: one work-item per entry (u, m). */
__kernel void mpi_block_apply(const int n, __global const double *binv, __global const double *r,
                              __global double *z) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const int u = i / NF, m = i - u * NF;
  __global const double *row = binv + ((long)u * NF + m) * NF;
  __global const double *ru = r + (long)u * NF;
  double s = 0.0;
  for (int c = 0; c < NF; c++) s += row[c] * ru[c];
  z[i] = s;
}

/* z = dinv .* r (Jacobi). */
__kernel void mpi_jacobi_apply(const int n, __global const double *dinv, __global const double *r,
                               __global double *z) {
  const int i = get_global_id(0);
  if (i >= n) return;
  z[i] = dinv[i] * r[i];
}

/* ASM's patch inverses on a rank (cl/solvers/precond_asm.cl, asm_setup)
 * with the summed diagonal blocks (diag, NF x NF per face row): a patch is
 * one element's faces, and the only entries of A_e = R_e A R_e^T that a
 * rank holds in part are the diagonal blocks of its cut faces (two faces of
 * one element share no other element), so with them summed A_e is the
 * global matrix's, and the patches are exactly the serial ones
 * (docs/mpi.md, ASM). */
__kernel void mpi_asm_setup(const int nelem, const int nunknown, __global const int *elem_faces,
                            __global const int *face_elems, __global const int *face_unknown,
                            __global const double *values, __global const double *diag,
                            __global double *ainv) {
  const int e = get_global_id(0);
  if (e >= nelem) return;
  __global double *a = ainv + (long)e * NT * NT;
  for (int fa = 0; fa < NFACES; fa++) {
    const int face = elem_faces[e * NFACES + fa];
    const int ua = face_unknown[face];
    const int side = face_elems[2 * face] == e ? 0 : 1;
    for (int fb = 0; fb < NFACES; fb++) {
      const int ub = face_unknown[elem_faces[e * NFACES + fb]];
      const int slot = patch_slot(fa, fb, side, NFACES); /* one element type (partition.c) */
      for (int m = 0; m < NF; m++)
        for (int n = 0; n < NF; n++) {
          double v;
          if (ua < 0 || ub < 0)
            v = (fa == fb && m == n) ? 1.0 : 0.0;
          else if (fa == fb)
            v = diag[((long)ua * NF + m) * NF + n];
          else
            v = trace_block_entry(values, nunknown, ua, slot, m, n);
          a[(fa * NF + m) * NT + fb * NF + n] = v;
        }
    }
  }
  posdef_invert_in_place(a, NT);
}
