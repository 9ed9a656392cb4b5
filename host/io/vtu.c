/* ParaView output: every element is subdivided on a lattice of n+1 points
 * per edge into linear sub-cells of its own kind (VTK_TRIANGLE, VTK_TETRA,
 * VTK_QUAD, VTK_HEXAHEDRON), at whose vertices u, q and u* (vector problems:
 * u, u*, stress, von Mises stress and pressure) are evaluated from their
 * modal coefficients.  Points are not shared between elements, so the
 * discontinuous fields show as they are.  Written atomically.  A path
 * ending in .pvtu writes the index and its one piece STEM_0000.vtu (the
 * layout of a distributed solve's output, pvtu_mpi.c, docs/mpi.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fem/basis.h"
#include "core/error.h"
#include "core/temp_file.h"
#include "drivers/solver_impl.h"
#include "io/vtu.h"

/* The point data arrays, one table for the pieces and the .pvtu index. */
typedef struct vtu_field {
  const char *name;
  int ncomp;
} vtu_field;
static const vtu_field scalar_fields[] = {{"u", 1}, {"ustar", 1}, {"q", 3}};
static const vtu_field vector_fields[] = {{"u", 3}, {"ustar", 3}, {"stress", 9}, {"von_mises", 1}, {"pressure", 1}};
static const char scalar_attributes[] = "Scalars=\"u\" Vectors=\"q\"";
static const char vector_attributes[] = "Scalars=\"von_mises\" Vectors=\"u\" Tensors=\"stress\"";

static void data_array_open(FILE *f, const vtu_field *field) {
  fprintf(f, "<DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"ascii\">\n",
          field->name, field->ncomp);
}

enum { VTK_TRIANGLE = 5, VTK_TETRA = 10, VTK_QUAD = 9, VTK_HEXAHEDRON = 12 };

/* The reference lattice of one element: points and sub-cells. */
typedef struct lattice {
  int npts, ncells, verts; /* vertices per sub-cell */
  int vtk_type;
  double *xi;              /* [npts][dim] */
  int *cells;              /* [ncells][verts] lattice point indices */
} lattice;

/* Index of lattice point (i, j, k) in a table of (n+1)^3 entries. */
#define AT(i, j, k) (((k) * (n + 1) + (j)) * (n + 1) + (i))

static int lattice_build(hdgcl_element_type type, int n, lattice *L) {
  memset(L, 0, sizeof *L);
  int d = (type == HDGCL_TRIANGLE || type == HDGCL_QUADRILATERAL) ? 2 : 3;
  bool simplex = type == HDGCL_TRIANGLE || type == HDGCL_TETRAHEDRON;
  int *id = NULL, status;
  size_t table = (size_t)(n + 1) * (n + 1) * (d == 3 ? n + 1 : 1);
  HDGCL_TRY(hdgcl_calloc(table, sizeof *id, "lattice", &id));
  HDGCL_TRY_GOTO(status, hdgcl_calloc(table * d, sizeof(double), "lattice points", &L->xi), fail);
  for (int k = 0; k <= (d == 3 ? n : 0); k++)
    for (int j = 0; j <= n; j++)
      for (int i = 0; i <= n; i++) {
        id[AT(i, j, k)] = -1;
        if (simplex && i + j + k > n) continue;
        int c[3] = {i, j, k};
        for (int l = 0; l < d; l++) L->xi[(size_t)L->npts * d + l] = -1.0 + 2.0 * c[l] / n;
        id[AT(i, j, k)] = L->npts++;
      }
  L->ncells = d == 2 ? n * n : n * n * n;
  L->verts = simplex ? d + 1 : (d == 2 ? 4 : 8);
  L->vtk_type = type == HDGCL_TRIANGLE      ? VTK_TRIANGLE
                : type == HDGCL_TETRAHEDRON ? VTK_TETRA
                : type == HDGCL_QUADRILATERAL ? VTK_QUAD
                                              : VTK_HEXAHEDRON;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)L->ncells * L->verts, sizeof(int), "lattice cells", &L->cells),
                 fail);
  int *c = L->cells;
#define CELL(...)                                                                                \
  do {                                                                                           \
    int v_[] = {__VA_ARGS__};                                                                    \
    memcpy(c, v_, sizeof v_);                                                                    \
    c += sizeof v_ / sizeof *v_;                                                                 \
  } while (0)
  if (type == HDGCL_TRIANGLE) {
    for (int j = 0; j < n; j++)
      for (int i = 0; i + j < n; i++) {
        CELL(id[AT(i, j, 0)], id[AT(i + 1, j, 0)], id[AT(i, j + 1, 0)]);
        if (i + j + 1 < n) CELL(id[AT(i + 1, j, 0)], id[AT(i + 1, j + 1, 0)], id[AT(i, j + 1, 0)]);
      }
  } else if (type == HDGCL_TETRAHEDRON) {
    /* n^3 sub-tetrahedra: an "up" tet at every lattice point, the octahedron
     * between four of them split into 4 tets along one diagonal, and a "down" tet. */
    for (int k = 0; k < n; k++)
      for (int j = 0; j + k < n; j++)
        for (int i = 0; i + j + k < n; i++) {
          CELL(id[AT(i, j, k)], id[AT(i + 1, j, k)], id[AT(i, j + 1, k)], id[AT(i, j, k + 1)]);
          if (i + j + k + 2 <= n) {
            int a = id[AT(i + 1, j, k)], b = id[AT(i, j + 1, k)], cc = id[AT(i, j, k + 1)];
            int dd = id[AT(i + 1, j + 1, k)], e = id[AT(i + 1, j, k + 1)], f = id[AT(i, j + 1, k + 1)];
            CELL(a, f, b, dd);
            CELL(a, f, dd, e);
            CELL(a, f, e, cc);
            CELL(a, f, cc, b);
          }
          if (i + j + k + 3 <= n)
            CELL(id[AT(i + 1, j + 1, k)], id[AT(i + 1, j, k + 1)], id[AT(i, j + 1, k + 1)],
                 id[AT(i + 1, j + 1, k + 1)]);
        }
  } else if (type == HDGCL_QUADRILATERAL) {
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        CELL(id[AT(i, j, 0)], id[AT(i + 1, j, 0)], id[AT(i + 1, j + 1, 0)], id[AT(i, j + 1, 0)]);
  } else {
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
          CELL(id[AT(i, j, k)], id[AT(i + 1, j, k)], id[AT(i + 1, j + 1, k)], id[AT(i, j + 1, k)],
               id[AT(i, j, k + 1)], id[AT(i + 1, j, k + 1)], id[AT(i + 1, j + 1, k + 1)],
               id[AT(i, j + 1, k + 1)]);
  }
#undef CELL
  if (type == HDGCL_TETRAHEDRON) /* VTK wants positive orientation: swap two vertices if not */
    for (int t = 0; t < L->ncells; t++) {
      int *v = L->cells + 4 * t;
      double a[3][3];
      for (int r = 0; r < 3; r++)
        for (int l = 0; l < 3; l++) a[r][l] = L->xi[3 * v[r + 1] + l] - L->xi[3 * v[0] + l];
      double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                   a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                   a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
      if (det < 0) {
        int tmpv = v[2];
        v[2] = v[3];
        v[3] = tmpv;
      }
    }
  if (c != L->cells + (size_t)L->ncells * L->verts) {
    status = hdgcl_error(HDGCL_ERROR_INTERNAL, "VTU lattice: %td cells written, %d expected",
                         (c - L->cells) / L->verts, L->ncells);
    goto fail;
  }
  free(id);
  return HDGCL_SUCCESS;
fail:
  free(id);
  free(L->xi);
  free(L->cells);
  L->xi = NULL;
  L->cells = NULL;
  return status;
}
#undef AT

/* Vector problems (docs/elasticity.md section 10): the displacement u and u*
 * (3 components, z = 0 in 2D), the Cauchy stress
 *   sigma = mu (H + H^T - tr(H) I) - p I   (= mu (H + H^T) + lambda tr(H) I, (E12)); von Mises (E16)
 * from H and the discrete pressure p (9 components, row-major; in 2D plane
 * strain, sigma_zz = -lambda / (mu + lambda) p), its von Mises stress
 * sqrt(3/2 s:s) with s the deviator of sigma, and the pressure p.  The point
 * data section, "</Cells>" line included. */
/* Per element type t (0: the widest type's, 1: a mixed mesh's other type):
 * its lattice L[t], bases phi0[t], phi[t] of np[t], np1[t] functions; the
 * solution's rows are the widest type's (rnp, rnp1). */
static void vector_point_data(hdgcl_solver s, FILE *f, const lattice *const Ls[2],
                              const double *const phi0s[2], const double *const phis[2],
                              const int nps[2], const int np1s[2]) {
  const hdg_sizes *sz = &s->disc.ref.sz;
  const hdgcl_mesh *m = s->disc.mesh;
  int rnp = sz->np, rnp1 = sz->np1, d = sz->dim;
  fprintf(f, "</DataArray>\n</Cells>\n<PointData %s>\n", vector_attributes);
  for (int field = 0; field < 5; field++) {
    data_array_open(f, &vector_fields[field]);
    for (int32_t e = 0; e < m->num_elements; e++) {
      int t = discretisation_ref(&s->disc, e) == &s->disc.ref ? 0 : 1;
      const lattice *L = Ls[t];
      const double *phi0 = phi0s[t], *phi = phis[t];
      int np = nps[t], np1 = np1s[t];
      for (int k = 0; k < L->npts; k++) {
        const double *b = phi0 + (size_t)k * np, *b1 = phi + (size_t)k * np1;
        double v[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
        if (field == 0 || field == 1) {
          for (int c = 0; c < d; c++) {
            if (field == 0)
              for (int i = 0; i < np; i++) v[c] += s->sol.u[((size_t)e * d + c) * rnp + i] * b[i];
            else
              for (int i = 0; i < np1; i++) v[c] += s->sol.ustar[((size_t)e * d + c) * rnp1 + i] * b1[i];
          }
          fprintf(f, "%.17g %.17g %.17g\n", v[0], v[1], v[2]);
          continue;
        }
        double h[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, p = 0.0, tr = 0.0, sig[3][3];
        for (int i = 0; i < d; i++)
          for (int j = 0; j < d; j++)
            for (int a = 0; a < np; a++) h[i][j] += s->sol.q[(((size_t)e * d + i) * d + j) * rnp + a] * b[a];
        for (int a = 0; a < np; a++) p += s->sol.p[(size_t)e * rnp + a] * b[a];
        if (field == 4) {
          fprintf(f, "%.17g\n", p);
          continue;
        }
        double mu = s->disc.mu[e], lambda = s->disc.lambda[e]; /* the element's material */
        for (int i = 0; i < d; i++) tr += h[i][i];
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) sig[i][j] = mu * (h[i][j] + h[j][i] - (i == j ? tr : 0.0)) - (i == j ? p : 0.0);
        if (d == 2) sig[2][2] = -lambda / (mu + lambda) * p; /* plane strain */
        if (field == 2) {
          for (int i = 0; i < 9; i++) fprintf(f, "%.17g%c", sig[i / 3][i % 3], i < 8 ? ' ' : '\n');
          continue;
        }
        double mean = (sig[0][0] + sig[1][1] + sig[2][2]) / 3, ss = 0.0;
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) {
            double dev = sig[i][j] - (i == j ? mean : 0.0);
            ss += dev * dev;
          }
        fprintf(f, "%.17g\n", sqrt(1.5 * ss));
      }
    }
    fprintf(f, "</DataArray>\n");
  }
  fprintf(f, "</PointData>\n");
}

/* One element type's lattice and its bases at the lattice points: phi0
 * [npts][np] for u and q (H, p), phi [npts][np1] for u*.  (The tensor-product
 * bases of quadrilaterals and hexahedra are not hierarchical, basis.h: the
 * first np functions of degree p+1 are not the degree-p basis.) */
typedef struct vtu_type {
  lattice L;
  double *phi, *phi0;
  int np, np1;
} vtu_type;

static int vtu_type_build(const hdg_sizes *sz, int n, vtu_type *t) {
  *t = (vtu_type){.np = sz->np, .np1 = sz->np1};
  HDGCL_TRY(lattice_build(sz->type, n, &t->L));
  HDGCL_TRY(hdgcl_calloc((size_t)t->L.npts * t->np1, sizeof(double), "VTU basis", &t->phi));
  HDGCL_TRY(hdgcl_basis_eval(sz->shape, sz->order + 1, t->L.npts, t->L.xi, t->phi, NULL));
  HDGCL_TRY(hdgcl_calloc((size_t)t->L.npts * t->np, sizeof(double), "VTU basis", &t->phi0));
  return hdgcl_basis_eval(sz->shape, sz->order, t->L.npts, t->L.xi, t->phi0, NULL);
}

static void vtu_type_free(vtu_type *t) {
  free(t->phi);
  free(t->phi0);
  free(t->L.xi);
  free(t->L.cells);
}

/* A mixed mesh (docs/geometry.md, "Mixed meshes"): each element is cut into
 * sub-cells of its own type's lattice and VTK cell type; u, q, u* rows have
 * the widest type's np and np1 (s->disc.ref), of which it reads its own. */
int vtu_piece_write(hdgcl_solver s, FILE *f, int subdivisions, const int32_t *element_numbers, int rank) {
  if (!s || !f) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_write_vtu: NULL argument");
  if (!s->solved)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_write_vtu: call hdgcl_solver_solve first");
  const hdg_sizes *sz = &s->disc.ref.sz;
  const hdgcl_mesh *m = s->disc.mesh;
  int n = subdivisions > 0 ? subdivisions : sz->order + 1;
  if (n > 64) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "VTU subdivisions %d out of range [1, 64]", n);
  int snp = sz->np, snp1 = sz->np1, d = sz->dim;
  bool mixed = s->disc.other_ref.sz.np > 0;
  vtu_type ty[2] = {{.np = 0}, {.np = 0}};
  int status;
  HDGCL_TRY_GOTO(status, vtu_type_build(sz, n, &ty[0]), done);
  if (mixed) HDGCL_TRY_GOTO(status, vtu_type_build(&s->disc.other_ref.sz, n, &ty[1]), done);
#define TYPE_OF(e) (&ty[discretisation_ref(&s->disc, e) == &s->disc.ref ? 0 : 1])

  size_t total_pts = 0, total_cells = 0;
  for (int32_t e = 0; e < m->num_elements; e++) {
    total_pts += (size_t)TYPE_OF(e)->L.npts;
    total_cells += (size_t)TYPE_OF(e)->L.ncells;
  }
  fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" "
             "byte_order=\"LittleEndian\">\n<UnstructuredGrid>\n"
             "<Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n<Points>\n"
             "<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n",
          total_pts, total_cells);
  for (int32_t e = 0; e < m->num_elements; e++) {
    const lattice *L = &TYPE_OF(e)->L;
    for (int k = 0; k < L->npts; k++) {
      double x[3], jac[9];
      hdg_map(m, e, L->xi + (size_t)k * d, x, jac);
      fprintf(f, "%.17g %.17g %.17g\n", x[0], x[1], d == 3 ? x[2] : 0.0);
    }
  }
  fprintf(f, "</DataArray>\n</Points>\n<Cells>\n"
             "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n");
  size_t base = 0;
  for (int32_t e = 0; e < m->num_elements; e++) {
    const lattice *L = &TYPE_OF(e)->L;
    for (int c = 0; c < L->ncells; c++) {
      for (int v = 0; v < L->verts; v++)
        fprintf(f, "%zu%c", base + L->cells[c * L->verts + v], v + 1 < L->verts ? ' ' : '\n');
    }
    base += (size_t)L->npts;
  }
  fprintf(f, "</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n");
  size_t offset = 0;
  for (int32_t e = 0; e < m->num_elements; e++) {
    const lattice *L = &TYPE_OF(e)->L;
    for (int c = 0; c < L->ncells; c++) {
      offset += (size_t)L->verts;
      fprintf(f, "%zu\n", offset);
    }
  }
  fprintf(f, "</DataArray>\n<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n");
  for (int32_t e = 0; e < m->num_elements; e++) {
    const lattice *L = &TYPE_OF(e)->L;
    for (int c = 0; c < L->ncells; c++) fprintf(f, "%d\n", L->vtk_type);
  }
  if (sz->ncomp > 1) { /* each element's type (a mixed mesh: ty[1] the other's) */
    int o = ty[1].np ? 1 : 0;
    const lattice *Ls[2] = {&ty[0].L, &ty[o].L};
    const double *phi0s[2] = {ty[0].phi0, ty[o].phi0}, *phis[2] = {ty[0].phi, ty[o].phi};
    const int nps[2] = {ty[0].np, ty[o].np}, np1s[2] = {ty[0].np1, ty[o].np1};
    vector_point_data(s, f, Ls, phi0s, phis, nps, np1s);
    goto cell_data;
  }
  fprintf(f, "</DataArray>\n</Cells>\n<PointData %s>\n", scalar_attributes);
  for (int field = 0; field < 2; field++) {
    data_array_open(f, &scalar_fields[field]);
    for (int32_t e = 0; e < m->num_elements; e++) {
      const vtu_type *t = TYPE_OF(e);
      for (int k = 0; k < t->L.npts; k++) {
        const double *c = field == 0 ? s->sol.u + (size_t)e * snp : s->sol.ustar + (size_t)e * snp1;
        const double *b = field == 0 ? t->phi0 + (size_t)k * t->np : t->phi + (size_t)k * t->np1;
        int nb = field == 0 ? t->np : t->np1;
        double v = 0.0;
        for (int i = 0; i < nb; i++) v += c[i] * b[i];
        fprintf(f, "%.17g\n", v);
      }
    }
    fprintf(f, "</DataArray>\n");
  }
  data_array_open(f, &scalar_fields[2]);
  for (int32_t e = 0; e < m->num_elements; e++) {
    const vtu_type *t = TYPE_OF(e);
    for (int k = 0; k < t->L.npts; k++) {
      double v[3] = {0, 0, 0};
      for (int c = 0; c < d; c++)
        for (int i = 0; i < t->np; i++)
          v[c] += s->sol.q[((size_t)e * d + c) * snp + i] * t->phi0[(size_t)k * t->np + i];
      fprintf(f, "%.17g %.17g %.17g\n", v[0], v[1], v[2]);
    }
  }
  fprintf(f, "</DataArray>\n</PointData>\n");
cell_data:
  fprintf(f, "<CellData>\n<DataArray type=\"Int32\" Name=\"element\" format=\"ascii\">\n");
  for (int32_t e = 0; e < m->num_elements; e++)
    for (int c = 0; c < TYPE_OF(e)->L.ncells; c++)
      fprintf(f, "%d\n", (int)(element_numbers ? element_numbers[e] : e));
#undef TYPE_OF
  fprintf(f, "</DataArray>\n");
  if (rank >= 0) { /* the partition of a distributed solve */
    fprintf(f, "<DataArray type=\"Int32\" Name=\"rank\" format=\"ascii\">\n");
    for (size_t c = 0; c < total_cells; c++) fprintf(f, "%d\n", rank);
    fprintf(f, "</DataArray>\n");
  }
  fprintf(f, "</CellData>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n");
  status = HDGCL_SUCCESS;
done:
  vtu_type_free(&ty[0]);
  vtu_type_free(&ty[1]);
  return status;
}

bool vtu_is_pvtu(const char *path) {
  size_t n = path ? strlen(path) : 0;
  return n > 5 && !strcmp(path + n - 5, ".pvtu");
}

int vtu_piece_path(const char *pvtu, int r, char *piece, size_t n, const char **source) {
  if (!vtu_is_pvtu(pvtu))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: a parallel VTK file must be named STEM.pvtu", pvtu);
  size_t stem = strlen(pvtu) - 5;
  int len = snprintf(piece, n, "%.*s_%04d.vtu", (int)stem, pvtu, r);
  if (len < 0 || (size_t)len >= n) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: file name too long", pvtu);
  const char *slash = strrchr(piece, '/');
  *source = slash ? slash + 1 : piece;
  return HDGCL_SUCCESS;
}

int vtu_index_write(hdgcl_solver s, FILE *f, const char *pvtu, int pieces) {
  bool vector = s->disc.ref.sz.ncomp > 1;
  const vtu_field *fields = vector ? vector_fields : scalar_fields;
  int nfields = vector ? 5 : 3;
  fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PUnstructuredGrid\" version=\"0.1\" "
             "byte_order=\"LittleEndian\">\n<PUnstructuredGrid GhostLevel=\"0\">\n"
             "<PPoints>\n<PDataArray type=\"Float64\" NumberOfComponents=\"3\"/>\n</PPoints>\n"
             "<PPointData %s>\n", vector ? vector_attributes : scalar_attributes);
  for (int i = 0; i < nfields; i++)
    fprintf(f, "<PDataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%d\"/>\n", fields[i].name,
            fields[i].ncomp);
  fprintf(f, "</PPointData>\n<PCellData>\n<PDataArray type=\"Int32\" Name=\"element\"/>\n"
             "<PDataArray type=\"Int32\" Name=\"rank\"/>\n</PCellData>\n");
  for (int r = 0; r < pieces; r++) {
    char piece[4200];
    const char *source;
    HDGCL_TRY(vtu_piece_path(pvtu, r, piece, sizeof piece, &source));
    fprintf(f, "<Piece Source=\"%s\"/>\n", source);
  }
  fprintf(f, "</PUnstructuredGrid>\n</VTKFile>\n");
  return HDGCL_SUCCESS;
}

/* A serial solve as STEM.pvtu and its one piece STEM_0000.vtu, both or neither. */
static int write_pvtu_serial(hdgcl_solver s, const char *path, int subdivisions) {
  char piece_path[4200];
  const char *source;
  HDGCL_TRY(vtu_piece_path(path, 0, piece_path, sizeof piece_path, &source));
  hdgcl_temp_file piece = {0}, index = {0};
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_temp_open(&piece, piece_path, "w"), fail);
  HDGCL_TRY_GOTO(status, vtu_piece_write(s, piece.f, subdivisions, NULL, 0), fail);
  HDGCL_TRY_GOTO(status, hdgcl_temp_open(&index, path, "w"), fail);
  HDGCL_TRY_GOTO(status, vtu_index_write(s, index.f, path, 1), fail);
  HDGCL_TRY_GOTO(status, hdgcl_temp_commit(&piece), fail);
  status = hdgcl_temp_commit(&index);
  if (status != HDGCL_SUCCESS) remove(piece_path); /* committed: no index, no piece */
  return status;
fail:
  hdgcl_temp_discard(&piece);
  hdgcl_temp_discard(&index);
  return status;
}

int hdgcl_solver_write_vtu(hdgcl_solver s, const char *path, int subdivisions) {
  if (!s || !path) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_write_vtu: NULL argument");
  if (vtu_is_pvtu(path)) return write_pvtu_serial(s, path, subdivisions);
  hdgcl_temp_file out;
  HDGCL_TRY(hdgcl_temp_open(&out, path, "w"));
  int status = vtu_piece_write(s, out.f, subdivisions, NULL, -1);
  if (status != HDGCL_SUCCESS) {
    hdgcl_temp_discard(&out);
    return status;
  }
  return hdgcl_temp_commit(&out);
}
