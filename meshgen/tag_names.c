/* Names of mesh tags: the table mesh->tag_names, kept sorted by (dim, tag),
 * and the lookups by name or number of include/hdgcl/mesh.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mesh_internal.h"

/* [+-]digits: what hdgcl_mesh_find_tag reads as a tag number. */
static bool is_decimal(const char *s) {
  if (*s == '+' || *s == '-') s++;
  if (!*s) return false;
  for (; *s; s++)
    if (*s < '0' || *s > '9') return false;
  return true;
}

const char *hdgcl_tag_name_problem(const char *name) {
  if (!name || !name[0]) return "is empty";
  if (strlen(name) > 63) return "is longer than 63 characters";
  for (const unsigned char *s = (const unsigned char *)name; *s; s++)
    if (*s == '"' || *s < 0x20 || *s == 0x7f) return "holds a '\"' or a control character";
  if (is_decimal(name)) return "is a decimal number (which reads as a tag number)";
  return NULL;
}

static const char *kind_of(const hdgcl_mesh *mesh, int dim) {
  return dim == mesh->dim ? "element" : "boundary";
}

static int check_dim(const hdgcl_mesh *mesh, int dim, const char *function) {
  if (!mesh) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: NULL mesh", function);
  if (dim != mesh->dim && dim != mesh->dim - 1)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s: dimension %d (a %dD mesh has element tags of dimension %d and "
                       "boundary tags of dimension %d)",
                       function, dim, mesh->dim, mesh->dim, mesh->dim - 1);
  return HDGCL_SUCCESS;
}

/* Index of (dim, tag) in the table, or where it would be inserted (*found false). */
static int32_t locate(const hdgcl_mesh *mesh, int dim, int32_t tag, bool *found) {
  int32_t lo = 0, hi = mesh->num_tag_names;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    const hdgcl_tag_name *t = &mesh->tag_names[mid];
    if (t->dim < dim || (t->dim == dim && t->tag < tag))
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = lo < mesh->num_tag_names && mesh->tag_names[lo].dim == dim &&
           mesh->tag_names[lo].tag == tag;
  return lo;
}

const char *hdgcl_mesh_tag_name(const hdgcl_mesh *mesh, int dim, int32_t tag) {
  if (!mesh) return NULL;
  bool found;
  int32_t i = locate(mesh, dim, tag, &found);
  return found ? mesh->tag_names[i].name : NULL;
}

/* The tags of this dimension: elem_tags, or face_tags of the boundary faces. */
static const int32_t *tags_of(const hdgcl_mesh *mesh, int dim, int32_t *count) {
  if (dim == mesh->dim) {
    *count = mesh->elem_tags ? mesh->num_elements : 0;
    return mesh->elem_tags;
  }
  *count = mesh->face_tags ? mesh->num_faces - mesh->num_interior_faces : 0;
  return mesh->face_tags ? mesh->face_tags + mesh->num_interior_faces : NULL;
}

static int compare_int32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return x < y ? -1 : x > y;
}

/* Records "KIND tag 'INPUT': PROBLEM (KIND tags: 1 'left', 2, ...)", the
 * tags being those of the mesh and the named ones, in increasing order. */
static int unknown_tag(const hdgcl_mesh *mesh, int dim, const char *input, const char *problem) {
  int32_t n, *sorted = NULL, distinct = 0;
  const int32_t *tags = tags_of(mesh, dim, &n);
  HDGCL_TRY(hdgcl_calloc((size_t)n + 1, sizeof *sorted, "tag list", &sorted));
  if (n > 0) memcpy(sorted, tags, (size_t)n * sizeof *sorted);
  qsort(sorted, (size_t)n, sizeof *sorted, compare_int32);
  for (int32_t i = 0; i < n; i++)
    if (distinct == 0 || sorted[distinct - 1] != sorted[i]) sorted[distinct++] = sorted[i];
  bool found;
  int32_t k = locate(mesh, dim, INT32_MIN, &found), i = 0; /* first name of dim */
  char list[640] = "";
  size_t used = 0;
  while (i < distinct || (k < mesh->num_tag_names && mesh->tag_names[k].dim == dim)) {
    bool named = k < mesh->num_tag_names && mesh->tag_names[k].dim == dim &&
                 (i == distinct || mesh->tag_names[k].tag <= sorted[i]);
    int32_t tag = named ? mesh->tag_names[k].tag : sorted[i];
    char item[96];
    if (named)
      snprintf(item, sizeof item, "%s%d '%s'", used ? ", " : "", (int)tag, mesh->tag_names[k].name);
    else
      snprintf(item, sizeof item, "%s%d", used ? ", " : "", (int)tag);
    if (used + strlen(item) + 6 > sizeof list) {
      snprintf(list + used, sizeof list - used, ", ...");
      break;
    }
    used += (size_t)snprintf(list + used, sizeof list - used, "%s", item);
    if (named) k++;
    if (i < distinct && sorted[i] == tag) i++;
  }
  free(sorted);
  const char *kind = kind_of(mesh, dim);
  if (!used)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s tag '%s': %s (the mesh has no %s tags)", kind,
                       input, problem, kind);
  return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s tag '%s': %s (%s tags: %s)", kind, input, problem,
                     kind, list);
}

int hdgcl_mesh_find_tag(const hdgcl_mesh *mesh, int dim, const char *name_or_number,
                        int32_t *tag) {
  HDGCL_TRY(check_dim(mesh, dim, "hdgcl_mesh_find_tag"));
  if (!name_or_number || !tag)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_find_tag: NULL argument");
  const char *s = name_or_number;
  if (!s[0]) return unknown_tag(mesh, dim, s, "empty name");
  if (is_decimal(s)) {
    errno = 0;
    long long value = strtoll(s, NULL, 10);
    if (errno || value < INT32_MIN || value > INT32_MAX)
      return unknown_tag(mesh, dim, s, "out of range for a tag");
    int32_t n;
    const int32_t *tags = tags_of(mesh, dim, &n);
    for (int32_t i = 0; i < n; i++)
      if (tags[i] == value) {
        *tag = (int32_t)value;
        return HDGCL_SUCCESS;
      }
    return unknown_tag(mesh, dim, s, "no such tag in the mesh");
  }
  for (int32_t i = 0; i < mesh->num_tag_names; i++)
    if (mesh->tag_names[i].dim == dim && !strcmp(mesh->tag_names[i].name, s)) {
      *tag = mesh->tag_names[i].tag;
      return HDGCL_SUCCESS;
    }
  return unknown_tag(mesh, dim, s, "no such name in the mesh");
}

int hdgcl_mesh_set_tag_name(hdgcl_mesh *mesh, int dim, int32_t tag, const char *name) {
  HDGCL_TRY(check_dim(mesh, dim, "hdgcl_mesh_set_tag_name"));
  const char *kind = kind_of(mesh, dim), *problem = hdgcl_tag_name_problem(name);
  if (problem)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "name of %s tag %d: '%.40s%s' %s", kind, (int)tag,
                       name ? name : "", name && strlen(name) > 40 ? "..." : "", problem);
  for (int32_t i = 0; i < mesh->num_tag_names; i++) {
    const hdgcl_tag_name *t = &mesh->tag_names[i];
    if (t->dim == dim && t->tag != tag && !strcmp(t->name, name))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "name of %s tag %d: '%s' already names %s tag %d",
                         kind, (int)tag, name, kind, (int)t->tag);
  }
  bool found;
  int32_t i = locate(mesh, dim, tag, &found);
  if (!found) {
    if (mesh->num_tag_names == INT32_MAX)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_set_tag_name: too many names");
    hdgcl_tag_name *grown =
        realloc(mesh->tag_names, ((size_t)mesh->num_tag_names + 1) * sizeof *grown);
    if (!grown)
      return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory adding a tag name (%d names)",
                         (int)mesh->num_tag_names + 1);
    mesh->tag_names = grown;
    memmove(grown + i + 1, grown + i, (size_t)(mesh->num_tag_names - i) * sizeof *grown);
    mesh->num_tag_names++;
    grown[i] = (hdgcl_tag_name){dim, tag, ""};
  }
  snprintf(mesh->tag_names[i].name, sizeof mesh->tag_names[i].name, "%s", name);
  return HDGCL_SUCCESS;
}
