/* Meshes from a spec string (hdgcl_mesh_create_from_spec):
 *   square:N[xM]  quad:N[xM]  cube:N[xMxL]  hex:N[xMxL]  annulus:N  annulus-quad:N
 *   mixed:N (triangles and quadrilaterals, hdgcl_mesh_create_mixed_square)
 * with optional ",diag=right|left|alt" (square only), ",distort=A", ",perturb=A",
 * ",seed=S", ",size=L[xH[xW]]" (the box [0,L]x[0,H][x[0,W]] instead of the unit
 * square/cube, e.g. a slender beam square:40x4,size=10x1), ",split=A:V" (element
 * tags 1 where the centroid's coordinate A = x|y|z is below V, else 2: two
 * material regions for --material), ",order=1|2|3" (annulus only: the geometry
 * order); or a path ending in ".msh".  Every error
 * names the spec. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mesh_internal.h"

typedef struct mesh_kind {
  const char *name;
  hdgcl_element_type type;
  int dim;
} mesh_kind;

static const mesh_kind kinds[] = {{"square", HDGCL_TRIANGLE, 2},
                                  {"quad", HDGCL_QUADRILATERAL, 2},
                                  {"cube", HDGCL_TETRAHEDRON, 3},
                                  {"hex", HDGCL_HEXAHEDRON, 3},
                                  {"annulus", HDGCL_TRIANGLE, 2},
                                  {"annulus-quad", HDGCL_QUADRILATERAL, 2},
                                  {"shell", HDGCL_HEXAHEDRON, 3},
                                  {"mixed", HDGCL_TRIANGLE, 2}};
enum { NUM_KINDS = sizeof kinds / sizeof kinds[0] };

typedef struct mesh_request {
  const mesh_kind *kind;
  int n[3];
  hdgcl_diagonal diagonal;
  double perturb;
  uint64_t seed;
  double distort;
  double size[3]; /* extent of the box along each axis (default 1) */
  int split_axis; /* -1: no split; else tags 1 | 2 across coordinate split_at */
  double split_at;
  int geometry_order; /* annulus: 1 (straight), 2, 3 */
  bool boundary_only;  /* annulus ,curve=boundary: curved along the circles only */
} mesh_request;

/* The curved kinds: an annulus or a spherical shell (one cell count; order, split). */
static bool is_annulus(const mesh_request *req) {
  return !strncmp(req->kind->name, "annulus", 7) || !strcmp(req->kind->name, "shell");
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int spec_error(const char *spec, const char *problem) {
  return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                     "mesh spec '%s': %s (expected square:N[xM], quad:N[xM], cube:N[xMxL], "
                     "hex:N[xMxL] with ,diag=right|left|alt ,distort=A ,perturb=A ,seed=S "
                     ",size=L[xH[xW]] ,split=x|y|z:V; annulus:N or annulus-quad:N with "
                     ",order=1|2|3 ,split=x|y:V ,curve=all|boundary; shell:N with ,order=1|2|3; "
                     "mixed:N (N even) with ,distort=A ,split=x|y:V; or a .msh file)",
                     spec, problem);
}

/* Decimal digits only (no sign, no spaces); *end after them. */
static bool parse_count(const char *s, const char **end, int *value) {
  if (*s < '0' || *s > '9') return false;
  errno = 0;
  char *stop;
  long x = strtol(s, &stop, 10);
  if (errno || x > INT32_MAX) return false;
  *value = (int)x;
  *end = stop;
  return true;
}

/* KIND:N[xM[xL]] up to the first ',' or the end. */
static int parse_sizes(const char *spec, const char *s, mesh_request *req, const char **rest) {
  const char *colon = strchr(s, ':');
  if (!colon) return spec_error(spec, "missing ':' after the mesh kind");
  for (int k = 0; k < NUM_KINDS; k++)
    if (strlen(kinds[k].name) == (size_t)(colon - s) && !strncmp(s, kinds[k].name, colon - s))
      req->kind = &kinds[k];
  if (!req->kind) return spec_error(spec, "unknown mesh kind");
  const char *p = colon + 1;
  int count = 0;
  for (;;) {
    int value;
    if (count == 3 || !parse_count(p, &p, &value))
      return spec_error(spec, "cell counts must be positive integers written NxM...");
    if (value <= 0) return spec_error(spec, "cell counts must be at least 1");
    req->n[count++] = value;
    if (*p != 'x') break;
    p++;
  }
  if (!strncmp(req->kind->name, "annulus", 7) && count != 1)
    return spec_error(spec, "an annulus takes one cell count N (N across, 8N around)");
  if (!strcmp(req->kind->name, "mixed") && count != 1)
    return spec_error(spec, "a mixed mesh takes one cell count N (N x N squares)");
  if (!strcmp(req->kind->name, "shell") && count != 1)
    return spec_error(spec, "a shell takes one cell count N (N x N per cube face, N across)");
  if (count == 1)
    for (int d = 1; d < req->kind->dim; d++) req->n[d] = req->n[0];
  else if (count != req->kind->dim)
    return spec_error(spec, req->kind->dim == 2 ? "give N or NxM cells" : "give N or NxMxL cells");
  if (*p != '\0' && *p != ',')
    return spec_error(spec, "unexpected characters after the cell counts");
  *rest = p;
  return HDGCL_SUCCESS;
}

/* ",key=value" modifiers. */
static int parse_modifiers(const char *spec, const char *p, mesh_request *req) {
  bool seen_diag = false, seen_perturb = false, seen_seed = false, seen_distort = false;
  bool seen_size = false, seen_split = false, seen_order = false;
  while (*p == ',') {
    p++;
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char item[128];
    if (len >= sizeof item) return spec_error(spec, "modifier too long");
    memcpy(item, p, len);
    item[len] = '\0';
    p += len;
    char *value = strchr(item, '=');
    if (!value || value == item || !value[1])
      return spec_error(spec, "modifiers are written ,key=value");
    *value++ = '\0';
    char *stop;
    if (is_annulus(req) && strcmp(item, "order") && strcmp(item, "split") &&
        (strcmp(item, "curve") || req->kind->dim != 2)) {
      char problem[256];
      snprintf(problem, sizeof problem, "modifier '%s' does not apply to an %s (order, split%s do)",
               item, req->kind->dim == 2 ? "annulus" : "shell", req->kind->dim == 2 ? ", curve" : "");
      return spec_error(spec, problem);
    }
    if (!strcmp(req->kind->name, "mixed") && strcmp(item, "distort") && strcmp(item, "split")) {
      char problem[256];
      snprintf(problem, sizeof problem, "modifier '%s' does not apply to a mixed mesh (distort, split do)",
               item);
      return spec_error(spec, problem);
    }
    if (!strcmp(item, "curve")) { /* annulus only (above) */
      if (strcmp(value, "boundary") && strcmp(value, "all"))
        return spec_error(spec, "curve must be all or boundary");
      req->boundary_only = !strcmp(value, "boundary");
    } else if (!strcmp(item, "order")) {
      if (seen_order) return spec_error(spec, "order given twice");
      if (!is_annulus(req)) return spec_error(spec, "order applies to annulus and shell meshes only");
      if (strlen(value) != 1 || value[0] < '1' || value[0] > '3')
        return spec_error(spec, "order (of the geometry) must be 1, 2 or 3");
      req->geometry_order = value[0] - '0';
      seen_order = true;
    } else if (!strcmp(item, "diag")) {
      if (seen_diag) return spec_error(spec, "diag given twice");
      if (req->kind->type != HDGCL_TRIANGLE)
        return spec_error(spec, "diag applies to square: (triangle) meshes only");
      if (!strcmp(value, "right"))
        req->diagonal = HDGCL_DIAGONAL_RIGHT;
      else if (!strcmp(value, "left"))
        req->diagonal = HDGCL_DIAGONAL_LEFT;
      else if (!strcmp(value, "alt"))
        req->diagonal = HDGCL_DIAGONAL_ALTERNATING;
      else
        return spec_error(spec, "diag must be right, left or alt");
      seen_diag = true;
    } else if (!strcmp(item, "perturb")) {
      if (seen_perturb) return spec_error(spec, "perturb given twice");
      errno = 0;
      req->perturb = strtod(value, &stop);
      if (errno || *stop || !isfinite(req->perturb) || isspace((unsigned char)value[0]))
        return spec_error(spec, "perturb must be a number");
      if (!(req->perturb >= 0 && req->perturb < 0.5))
        return spec_error(spec, "perturb must be in [0, 0.5)");
      seen_perturb = true;
    } else if (!strcmp(item, "distort")) {
      if (seen_distort) return spec_error(spec, "distort given twice");
      errno = 0;
      req->distort = strtod(value, &stop);
      if (errno || *stop || !isfinite(req->distort) || isspace((unsigned char)value[0]))
        return spec_error(spec, "distort must be a number");
      if (!(req->distort >= 0 && req->distort <= 0.2))
        return spec_error(spec, "distort must be in [0, 0.2]");
      seen_distort = true;
    } else if (!strcmp(item, "seed")) {
      if (seen_seed) return spec_error(spec, "seed given twice");
      errno = 0;
      if (value[0] < '0' || value[0] > '9') return spec_error(spec, "seed must be an integer >= 0");
      req->seed = strtoull(value, &stop, 10);
      if (errno || *stop) return spec_error(spec, "seed must be an integer in [0, 2^64)");
      seen_seed = true;
    } else if (!strcmp(item, "size")) {
      if (seen_size) return spec_error(spec, "size given twice");
      /* L, LxH or LxHxW (3D): positive finite numbers; L alone scales every axis */
      const char *bad_size = "size must be L, LxH (2D) or LxHxW (3D) with positive numbers";
      char *v = value;
      int count = 0;
      for (;;) {
        char *cut = strchr(v, 'x');
        if (cut) *cut = '\0';
        /* decimal numbers only (strtod would also read hex, inf and nan) */
        if (count == req->kind->dim || !*v || strspn(v, "0123456789.eE+-") != strlen(v))
          return spec_error(spec, bad_size);
        errno = 0;
        double x = strtod(v, &stop);
        if (errno || *stop || !isfinite(x) || !(x > 0)) return spec_error(spec, bad_size);
        req->size[count++] = x;
        if (!cut) break;
        v = cut + 1;
      }
      if (count == 1)
        for (int k = 1; k < req->kind->dim; k++) req->size[k] = req->size[0];
      else if (count != req->kind->dim)
        return spec_error(spec, bad_size);
      seen_size = true;
    } else if (!strcmp(item, "split")) {
      if (seen_split) return spec_error(spec, "split given twice");
      const char *bad_split = "split must be x:V, y:V or z:V (3D) with a number V";
      const char *axes = req->kind->dim == 3 ? "xyz" : "xy";
      if (!value[0] || !strchr(axes, value[0]) || value[1] != ':' || !value[2] ||
          strspn(value + 2, "0123456789.eE+-") != strlen(value + 2))
        return spec_error(spec, bad_split);
      errno = 0;
      req->split_at = strtod(value + 2, &stop);
      if (errno || *stop || !isfinite(req->split_at)) return spec_error(spec, bad_split);
      req->split_axis = value[0] - 'x';
      seen_split = true;
    } else {
      char problem[256];
      snprintf(problem, sizeof problem,
               "unknown modifier '%s' (known: diag, perturb, distort, seed, size, split, order)",
               item);
      return spec_error(spec, problem);
    }
  }
  if (*p != '\0') return spec_error(spec, "unexpected characters");
  return HDGCL_SUCCESS;
}

int hdgcl_mesh_create_from_spec(const char *spec, hdgcl_mesh **mesh) {
  if (!mesh) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_create_from_spec: mesh is NULL");
  *mesh = NULL;
  if (!spec || !spec[0]) return spec_error("", "empty");
  if (ends_with(spec, ".msh")) return hdgcl_mesh_read_gmsh(spec, mesh);

  mesh_request req = {NULL, {1, 1, 1}, HDGCL_DIAGONAL_RIGHT, 0.0, 0, 0.0, {1, 1, 1}, -1, 0.0, 1, false};
  const char *rest = spec;
  HDGCL_TRY(parse_sizes(spec, spec, &req, &rest));
  HDGCL_TRY(parse_modifiers(spec, rest, &req));

  hdgcl_mesh *m = NULL;
  int status;
  if (!strcmp(req.kind->name, "mixed")) {
    status = hdgcl_mesh_create_mixed_square(req.n[0], &m);
  } else if (is_annulus(&req) && req.kind->dim == 3) {
    status = hdgcl_mesh_create_shell(req.n[0], req.geometry_order, &m);
  } else if (is_annulus(&req)) {
    status = (req.boundary_only ? hdgcl_mesh_create_annulus_boundary : hdgcl_mesh_create_annulus)(
        req.kind->type, req.n[0], req.geometry_order, &m);
  } else if (req.kind->dim == 2) {
    const double lo[2] = {0, 0}, hi[2] = {req.size[0], req.size[1]};
    status =
        hdgcl_mesh_create_rectangle(req.kind->type, req.n[0], req.n[1], lo, hi, req.diagonal, &m);
  } else {
    const double lo[3] = {0, 0, 0}, hi[3] = {req.size[0], req.size[1], req.size[2]};
    status = hdgcl_mesh_create_box(req.kind->type, req.n[0], req.n[1], req.n[2], lo, hi, &m);
  }
  if (status == HDGCL_SUCCESS) status = hdgcl_mesh_distort(m, req.distort);
  if (status == HDGCL_SUCCESS) status = hdgcl_mesh_perturb(m, req.perturb, req.seed);
  if (status == HDGCL_SUCCESS && req.split_axis >= 0) { /* element tags 1 | 2 by centroid */
    int stride = m->verts_per_element, d = m->dim;
    for (int32_t e = 0; e < m->num_elements; e++) {
      double c = 0.0;
      int nv = hdgcl_mesh_element_verts(m, e);
      for (int a = 0; a < nv; a++)
        c += m->coords[(size_t)m->elem_verts[(size_t)e * stride + a] * d + req.split_axis];
      m->elem_tags[e] = c / nv < req.split_at ? 1 : 2;
    }
  }
  if (status == HDGCL_SUCCESS) status = hdgcl_mesh_sort_straight_first(m); /* element batches */
  if (status != HDGCL_SUCCESS) {
    hdgcl_mesh_destroy(&m);
    char message[512]; /* the generator's message, prefixed with the spec */
    snprintf(message, sizeof message, "%s", hdgcl_last_error());
    return hdgcl_error(status, "mesh spec '%s': %s", spec, message);
  }
  *mesh = m;
  return HDGCL_SUCCESS;
}
