/* Gmsh's curved elements (tests/data/curved, written by gmsh 4.8.4 from the
 * .geo files there): every type hdgcl reads, ASCII 2.2 / 4.1 and binary 4.1.
 * 1. straight-sided cubes (tetrahedra 10 / 20, hexahedra 27 / 20): each
 *    element's curved map equals its vertex map (affine, trilinear) to
 *    1e-12, so the node orders agree with Gmsh's; volume 1;
 * 2. annuli (triangles 6 / 10, quadrangles 9 / 8 / 16) and a spherical shell
 *    (tetrahedra 10): every geometry node within 1 <= r <= 2, the measure
 *    against 3 pi (28/3 pi), boundary tags named inner and outer;
 * 3. refusals: an order hdgcl does not read (triangle 15), a file mixing
 *    triangles 3 and 6, a tangled triangle 6, each naming the element;
 * 4. the writer's round trip: every curved mesh above and the generated
 *    annuli written as ASCII 4.1, 2.2 and binary 4.1 read back with the same
 *    vertices, geometry nodes (bitwise), element and boundary tags. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "hdgcl/mesh.h"
#include "test_mesh_files.h"

static const double pi = 3.14159265358979323846;

typedef struct curved_file {
  const char *name;
  hdgcl_element_type type;
  int order, nodes; /* geometry order, nodes per element after reading */
} curved_file;

static double total_measure(const hdgcl_mesh *m) {
  double s = 0.0;
  for (int32_t e = 0; e < m->num_elements; e++) s += hdgcl_mesh_element_measure(m, e);
  return s;
}

static hdgcl_mesh *read_file(const char *data, const curved_file *f) {
  char path[1024];
  snprintf(path, sizeof path, "%s/curved/%s", data, f->name);
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &m));
  if (!m) return NULL;
  CHECK_MSG(m->type == f->type && m->geometry_order == f->order && m->nodes_per_element == f->nodes,
            "%s: type %d order %d nodes %d", f->name, (int)m->type, m->geometry_order,
            m->nodes_per_element);
  CHECK_OK(hdgcl_mesh_validate(m));
  return m;
}

/* The straight mesh's curved map against the vertex map at a few points. */
static void straight(const char *data) {
  const curved_file files[] = {{"tet10.msh", HDGCL_TETRAHEDRON, 2, 10},
                               {"tet20.msh", HDGCL_TETRAHEDRON, 3, 20},
                               {"hex27.msh", HDGCL_HEXAHEDRON, 2, 27},
                               {"hex20-bin.msh", HDGCL_HEXAHEDRON, 2, 27},
                               {"hex64.msh", HDGCL_HEXAHEDRON, 3, 64}};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    hdgcl_mesh *m = read_file(data, &files[i]);
    if (!m) continue;
    bool simplex = m->type == HDGCL_TETRAHEDRON;
    double worst = 0.0;
    for (int32_t e = 0; e < m->num_elements; e++)
      for (int p = 0; p < 4; p++) {
        double xi[3] = {-0.7 + 0.3 * p, -0.8 + 0.25 * (p % 3), simplex ? -0.9 : 0.1 * p - 0.2};
        double x[3], jac[9], n[8], dn[24], y[3] = {0, 0, 0};
        hdgcl_mesh_map(m, e, xi, x, jac);
        hdgcl_geometry_functions(m->type, 1, xi, n, dn);
        for (int a = 0; a < m->verts_per_element; a++)
          for (int k = 0; k < 3; k++)
            y[k] += n[a] * m->coords[3 * (size_t)m->elem_verts[(size_t)e * m->verts_per_element + a] + k];
        for (int k = 0; k < 3; k++) worst = fmax(worst, fabs(x[k] - y[k]));
      }
    double volume = total_measure(m);
    printf("%-14s %4d elements: curved map - vertex map %.1e, volume - 1 %.1e\n", files[i].name,
           (int)m->num_elements, worst, volume - 1);
    CHECK_MSG(worst < 1e-12 && fabs(volume - 1) < 1e-12, "%s: %.2e %.2e", files[i].name, worst,
              volume - 1);
    hdgcl_mesh_destroy(&m);
  }
}

static void curved(const char *data) {
  const curved_file files[] = {{"tri6.msh", HDGCL_TRIANGLE, 2, 6},
                               {"tri6-bin.msh", HDGCL_TRIANGLE, 2, 6},
                               {"tri10.msh", HDGCL_TRIANGLE, 3, 10},
                               {"quad9.msh", HDGCL_QUADRILATERAL, 2, 9},
                               {"quad8.msh", HDGCL_QUADRILATERAL, 2, 9},
                               {"quad16-bin.msh", HDGCL_QUADRILATERAL, 3, 16},
                               {"shell-tet10.msh", HDGCL_TETRAHEDRON, 2, 10}};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    hdgcl_mesh *m = read_file(data, &files[i]);
    if (!m) continue;
    double rmin = INFINITY, rmax = 0.0;
    int d = m->dim;
    for (size_t k = 0; k < (size_t)m->num_elements * m->nodes_per_element; k++) {
      double r = 0.0;
      for (int j = 0; j < d; j++) r += m->elem_nodes[k * d + j] * m->elem_nodes[k * d + j];
      rmin = fmin(rmin, sqrt(r));
      rmax = fmax(rmax, sqrt(r));
    }
    double exact = d == 2 ? 3 * pi : 28 * pi / 3, measure = total_measure(m);
    printf("%-16s %4d elements: r in [%.15f, %.15f], measure error %.1e\n", files[i].name,
           (int)m->num_elements, rmin, rmax, (measure - exact) / exact);
    CHECK(rmin > 1 - 1e-12 && rmax < 2 + 1e-12);
    CHECK_MSG(fabs(measure - exact) < (d == 2 ? 1e-4 : 2e-3) * exact, "%s: measure %.10f",
              files[i].name, measure);
    int32_t tag;
    CHECK_OK(hdgcl_mesh_find_tag(m, d - 1, "inner", &tag));
    CHECK(tag == 1);
    hdgcl_mesh_destroy(&m);
  }
}

#define HEAD22 "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
/* a triangle 6 of the unit right triangle; node 4 the midpoint of edge 0-1 */
#define NODES6(x4) "$Nodes\n7\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 " x4 " 0 0\n5 0.5 0.5 0\n6 0 0.5 0\n7 1 1 0\n$EndNodes\n"

static void refused(void) {
  char *dir = tmf_make_dir();
  CHECK(dir != NULL);
  if (!dir) return;
  const struct {
    const char *name, *text, *message[2];
  } cases[] = {
      {"order4.msh",
       HEAD22 NODES6("0.5") "$Elements\n1\n1 23 2 0 1 1 2 3 4 5 6 1 2 3 4 5 6 7 1 2\n$EndElements\n",
       {"order4.msh:16: ", "element 1 has type 23, which hdgcl does not read"}},
      {"mixed.msh",
       HEAD22 NODES6("0.5") "$Elements\n2\n1 9 2 0 1 1 2 3 4 5 6\n2 2 2 0 1 2 7 3\n$EndElements\n",
       {"mixed.msh:17: ", "element 2 is a triangle, element 1 (line 16) a triangle 6"}},
      {"tangled.msh",
       HEAD22 NODES6("1.6") "$Elements\n1\n1 9 2 0 1 1 2 3 4 5 6\n$EndElements\n",
       {"tangled.msh:16: triangle 6 1: ", "curved element 0 is inverted or tangled"}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char path[1024];
    tmf_path(dir, cases[i].name, path, sizeof path);
    CHECK(tmf_write(path, cases[i].text) == 0);
    hdgcl_mesh *m = NULL;
    int status = hdgcl_mesh_read_gmsh(path, &m);
    CHECK_MSG(status != HDGCL_SUCCESS && m == NULL, "%s read", cases[i].name);
    for (int k = 0; k < 2; k++)
      CHECK_MSG(strstr(hdgcl_last_error(), cases[i].message[k]), "%s: '%s' not in '%s'",
                cases[i].name, cases[i].message[k], hdgcl_last_error());
    printf("%s: %s\n", cases[i].name, hdgcl_last_error());
  }
  tmf_remove_dir(dir);
}

/* a and b the same mesh: vertices, elements, geometry nodes, tags. */
static bool same_mesh(const hdgcl_mesh *a, const hdgcl_mesh *b) {
  if (a->type != b->type || a->num_vertices != b->num_vertices ||
      a->num_elements != b->num_elements || a->geometry_order != b->geometry_order ||
      a->nodes_per_element != b->nodes_per_element || a->num_faces != b->num_faces)
    return false;
  size_t ne = (size_t)a->num_elements;
  if (memcmp(a->coords, b->coords, sizeof(double) * a->num_vertices * a->dim) ||
      memcmp(a->elem_verts, b->elem_verts, sizeof(int32_t) * ne * a->verts_per_element) ||
      memcmp(a->elem_tags, b->elem_tags, sizeof(int32_t) * ne) ||
      memcmp(a->face_tags, b->face_tags, sizeof(int32_t) * a->num_faces))
    return false;
  return a->geometry_order <= 1 ||
         !memcmp(a->elem_nodes, b->elem_nodes, sizeof(double) * ne * a->nodes_per_element * a->dim);
}

static void round_trip(const char *data) {
  char *dir = tmf_make_dir();
  CHECK(dir != NULL);
  if (!dir) return;
  const char *sources[] = {"tri6.msh", "tri10.msh", "quad9.msh", "quad8.msh", "quad16-bin.msh",
                           "tet10.msh", "tet20.msh", "hex27.msh", "hex64.msh", "shell-tet10.msh",
                           "annulus:2,order=2", "annulus-quad:2,order=3", "shell:1,order=3"};
  for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
    char path[1024];
    hdgcl_mesh *m = NULL;
    if (strchr(sources[i], ':'))
      CHECK_OK(hdgcl_mesh_create_from_spec(sources[i], &m));
    else {
      snprintf(path, sizeof path, "%s/curved/%s", data, sources[i]);
      CHECK_OK(hdgcl_mesh_read_gmsh(path, &m));
    }
    if (!m) continue;
    for (int form = 0; form < 3; form++) {
      tmf_path(dir, "out.msh", path, sizeof path);
      int status = form == 2 ? hdgcl_mesh_write_gmsh_binary(m, path)
                             : hdgcl_mesh_write_gmsh(m, path, form ? 22 : 41);
      CHECK_MSG(status == HDGCL_SUCCESS, "%s form %d: %s", sources[i], form, hdgcl_last_error());
      hdgcl_mesh *back = NULL;
      CHECK_OK(hdgcl_mesh_read_gmsh(path, &back));
      CHECK_MSG(back && same_mesh(m, back), "%s: round trip %s differs", sources[i],
                form == 0 ? "4.1" : form == 1 ? "2.2" : "binary 4.1");
      hdgcl_mesh_destroy(&back);
    }
    printf("%-22s written as 4.1, 2.2, binary 4.1 and read back: the same\n", sources[i]);
    hdgcl_mesh_destroy(&m);
  }
  tmf_remove_dir(dir);
}

int main(void) {
  const char *data = getenv("HDGCL_TEST_DATA");
  CHECK_MSG(data != NULL, "HDGCL_TEST_DATA is not set");
  if (!data) CHECK_DONE();
  straight(data);
  curved(data);
  refused();
  round_trip(data);
  CHECK_DONE();
}
