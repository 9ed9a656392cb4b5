/* ParaView output: every element is subdivided into n^2 sub-triangles on a
 * lattice of reference points, where u, q and u* are evaluated from their
 * modal coefficients; points are not shared between elements, so the
 * discontinuous fields show as they are.  Written atomically. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basis.h"
#include "error.h"
#include "solver_impl.h"

/* Lattice points of the reference triangle (-1,-1),(1,-1),(-1,1): (i, j), i + j <= n. */
static int lattice_index(int n, int i, int j) { return j * (n + 1) - j * (j - 1) / 2 + i; }

int hdgcl_solver_write_vtu(hdgcl_solver s, const char *path, int subdivisions) {
  if (!s || !path) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_write_vtu: NULL argument");
  if (!s->solved)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_write_vtu: call hdgcl_solver_solve first");
  const hdg_sizes *sz = &s->ref.sz;
  const hdgcl_mesh *m = s->mesh;
  if (m->type != HDGCL_TRIANGLE)
    return hdgcl_error(HDGCL_ERROR_UNSUPPORTED, "VTU output supports triangles only for now");
  int n = subdivisions > 0 ? subdivisions : sz->order + 1;
  if (n > 64) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "VTU subdivisions %d out of range [1, 64]", n);
  int npts = (n + 1) * (n + 2) / 2, ncells = n * n, np = sz->np, np1 = sz->np1, d = sz->dim;
  double *xi = NULL, *phi = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)npts * 2, sizeof(double), "VTU points", &xi), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)npts * np1, sizeof(double), "VTU basis", &phi), done);
  for (int j = 0; j <= n; j++)
    for (int i = 0; i + j <= n; i++) {
      int k = lattice_index(n, i, j);
      xi[2 * k] = -1.0 + 2.0 * i / n;
      xi[2 * k + 1] = -1.0 + 2.0 * j / n;
    }
  HDGCL_TRY_GOTO(status, hdgcl_basis_eval(sz->shape, sz->order + 1, npts, xi, phi, NULL), done);

  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) {
    status = hdgcl_error(HDGCL_ERROR_IO, "cannot write %s", path);
    goto done;
  }
  size_t total_pts = (size_t)m->num_elements * npts, total_cells = (size_t)m->num_elements * ncells;
  fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" "
             "byte_order=\"LittleEndian\">\n<UnstructuredGrid>\n"
             "<Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n<Points>\n"
             "<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n",
          total_pts, total_cells);
  for (int32_t e = 0; e < m->num_elements; e++) {
    hdg_geometry geo;
    HDGCL_TRY_GOTO(status, hdg_geometry_simplex(m, e, &geo), close);
    for (int k = 0; k < npts; k++) {
      double x[3] = {geo.x0[0], geo.x0[1], 0.0};
      for (int c = 0; c < d; c++)
        for (int l = 0; l < d; l++) x[c] += geo.jac[c * d + l] * (xi[2 * k + l] + 1.0);
      fprintf(f, "%.17g %.17g 0\n", x[0], x[1]);
    }
  }
  fprintf(f, "</DataArray>\n</Points>\n<Cells>\n"
             "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n");
  for (int32_t e = 0; e < m->num_elements; e++) {
    size_t base = (size_t)e * npts;
    for (int j = 0; j < n; j++)
      for (int i = 0; i + j < n; i++) {
        fprintf(f, "%zu %zu %zu\n", base + lattice_index(n, i, j), base + lattice_index(n, i + 1, j),
                base + lattice_index(n, i, j + 1));
        if (i + j + 1 < n)
          fprintf(f, "%zu %zu %zu\n", base + lattice_index(n, i + 1, j),
                  base + lattice_index(n, i + 1, j + 1), base + lattice_index(n, i, j + 1));
      }
  }
  fprintf(f, "</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n");
  for (size_t c = 1; c <= total_cells; c++) fprintf(f, "%zu\n", 3 * c);
  fprintf(f, "</DataArray>\n<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n");
  for (size_t c = 0; c < total_cells; c++) fprintf(f, "5\n"); /* VTK_TRIANGLE */
  fprintf(f, "</DataArray>\n</Cells>\n<PointData Scalars=\"u\" Vectors=\"q\">\n");
  /* u, u*, q at every lattice point. */
  const char *names[2] = {"u", "ustar"};
  for (int field = 0; field < 2; field++) {
    fprintf(f, "<DataArray type=\"Float64\" Name=\"%s\" format=\"ascii\">\n", names[field]);
    for (int32_t e = 0; e < m->num_elements; e++)
      for (int k = 0; k < npts; k++) {
        const double *c = field == 0 ? s->u + (size_t)e * np : s->ustar + (size_t)e * np1;
        int nb = field == 0 ? np : np1;
        double v = 0.0;
        for (int i = 0; i < nb; i++) v += c[i] * phi[(size_t)k * np1 + i];
        fprintf(f, "%.17g\n", v);
      }
    fprintf(f, "</DataArray>\n");
  }
  fprintf(f, "<DataArray type=\"Float64\" Name=\"q\" NumberOfComponents=\"3\" format=\"ascii\">\n");
  for (int32_t e = 0; e < m->num_elements; e++)
    for (int k = 0; k < npts; k++) {
      double v[3] = {0, 0, 0};
      for (int c = 0; c < d; c++)
        for (int i = 0; i < np; i++) v[c] += s->q[((size_t)e * d + c) * np + i] * phi[(size_t)k * np1 + i];
      fprintf(f, "%.17g %.17g %.17g\n", v[0], v[1], v[2]);
    }
  fprintf(f, "</DataArray>\n</PointData>\n<CellData>\n"
             "<DataArray type=\"Int32\" Name=\"element\" format=\"ascii\">\n");
  for (int32_t e = 0; e < m->num_elements; e++)
    for (int c = 0; c < ncells; c++) fprintf(f, "%d\n", (int)e);
  fprintf(f, "</DataArray>\n</CellData>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n");
  status = HDGCL_SUCCESS;
close:
  if ((ferror(f) | fclose(f)) != 0 && status == HDGCL_SUCCESS)
    status = hdgcl_error(HDGCL_ERROR_IO, "cannot write %s", path);
  if (status == HDGCL_SUCCESS && rename(tmp, path) != 0)
    status = hdgcl_error(HDGCL_ERROR_IO, "cannot rename %s to %s", tmp, path);
  if (status != HDGCL_SUCCESS) remove(tmp);
done:
  free(xi);
  free(phi);
  return status;
}
