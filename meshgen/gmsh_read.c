/* hdgcl_mesh_read_gmsh: Gmsh .msh files, ASCII formats 2.2 and 4.1 and
 * binary 4.1.  $MeshFormat comes first; then $Nodes, $Elements,
 * $PhysicalNames (and for 4.1 $Entities, which give elements their physical
 * groups) are parsed, and any other section ($Periodic, $NodeData, ...) is
 * skipped up to its $End line.  In a binary file $Entities, $Nodes and
 * $Elements hold binary numbers (gmsh_read41_binary.c), $PhysicalNames stays
 * text.  Binary 2.2 files are refused. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "gmsh_binary.h"
#include "gmsh_sections.h"

/* "$MeshFormat" line already read: version, file type (0 ASCII, 1 binary),
 * data size (of size_t in binary files); in a binary file the int 1 follows
 * in binary (gmsh_binary_start). */
static int read_format(gmsh_input *in, int *version, bool *binary) {
  char text[32];
  int64_t file_type, data_size;
  HDGCL_TRY(gmsh_next_line(in, "the format version line", NULL));
  HDGCL_TRY(gmsh_word(in, "format version", text, sizeof text));
  HDGCL_TRY(gmsh_int(in, "file type", INT64_MIN, INT64_MAX, &file_type));
  if (file_type != 0 && file_type != 1)
    return gmsh_error(in, HDGCL_ERROR_FORMAT, "file type %lld is not 0 (ASCII) or 1 (binary)",
                      (long long)file_type);
  HDGCL_TRY(gmsh_int(in, "data size", INT64_MIN, INT64_MAX, &data_size));
  HDGCL_TRY(gmsh_end_of_line(in, "the format version line"));
  if (!strcmp(text, "2.2"))
    *version = 22;
  else if (!strcmp(text, "4.1"))
    *version = 41;
  else
    return gmsh_error(in, HDGCL_ERROR_FORMAT,
                      "Gmsh format version %s is not supported (use 2.2 or 4.1)", text);
  *binary = file_type == 1;
  if (*binary && *version != 41)
    return gmsh_error(in, HDGCL_ERROR_FORMAT,
                      "binary Gmsh %s files are not read, only binary 4.1 (gmsh -bin -format "
                      "msh41) and ASCII 2.2 and 4.1",
                      text);
  if (*binary && data_size != GMSH_BINARY_SIZE)
    return gmsh_error(in, HDGCL_ERROR_FORMAT,
                      "data size %lld in a binary file: only 8 (64-bit size_t) is read",
                      (long long)data_size);
  if (*binary) HDGCL_TRY(gmsh_binary_start(in));
  return gmsh_expect_line(in, "$EndMeshFormat");
}

/* "$PhysicalNames" line already read (the same in 2.2 and 4.1): a count,
 * then lines `dim tag "name"` (a name may hold blanks).  Whether a name suits
 * hdgcl is checked when the mesh is built, for the dimensions it keeps. */
static int read_physical_names(gmsh_input *in, gmsh_content *c) {
  int64_t count, dim, tag;
  HDGCL_TRY(gmsh_next_line(in, "the number of physical names", NULL));
  HDGCL_TRY(gmsh_int(in, "number of physical names", 0, INT32_MAX, &count));
  HDGCL_TRY(gmsh_end_of_line(in, "the number of physical names"));
  for (int64_t i = 0; i < count; i++) {
    HDGCL_TRY(gmsh_next_line(in, "a physical name line (dim tag \"name\")", NULL));
    HDGCL_TRY(gmsh_int(in, "physical dimension", 0, 3, &dim));
    HDGCL_TRY(gmsh_int(in, "physical tag", INT32_MIN, INT32_MAX, &tag));
    const char *open = in->cursor;
    while (*open == ' ' || *open == '\t') open++;
    if (*open != '"')
      return gmsh_error(in, HDGCL_ERROR_FORMAT,
                        "expected a physical name in double quotes, found '%.40s'%s", open,
                        *open ? "" : " (line ends early)");
    const char *close = strchr(open + 1, '"');
    if (!close)
      return gmsh_error(in, HDGCL_ERROR_FORMAT, "physical name %.40s has no closing '\"'", open);
    gmsh_physical_name name = {(int)dim, (int32_t)tag, "", (size_t)(close - open - 1),
                               gmsh_position(in)};
    snprintf(name.name, sizeof name.name, "%.*s", (int)name.length, open + 1);
    in->cursor = close + 1;
    HDGCL_TRY(gmsh_end_of_line(in, "the physical name"));
    for (int64_t k = 0; k < c->num_names; k++)
      if (c->names[k].dim == dim && c->names[k].tag == tag)
        return gmsh_error(in, HDGCL_ERROR_FORMAT,
                          "physical group %lld of dimension %lld is named twice (\"%s\" on %s)",
                          (long long)tag, (long long)dim, c->names[k].name,
                          gmsh_at(c, c->names[k].line).text);
    HDGCL_TRY(gmsh_add_physical_name(c, &name));
  }
  return gmsh_expect_line(in, "$EndPhysicalNames");
}

/* Skips the body of section $name up to $Endname. */
static int skip_section(gmsh_input *in, const char *name) {
  char end[128];
  snprintf(end, sizeof end, "$End%s", name);
  long start = in->binary ? (long)in->position : in->line_no;
  for (;;) {
    bool eof; /* binary files: the section may hold binary data */
    HDGCL_TRY(in->binary ? gmsh_next_raw_line(in, end, &eof) : gmsh_next_line(in, end, &eof));
    if (eof)
      return gmsh_error(in, HDGCL_ERROR_FORMAT, "end of file: missing %s for $%s at %s %ld", end,
                        name, in->binary ? "byte" : "line", start);
    if (gmsh_line_is(in, end)) return HDGCL_SUCCESS;
  }
}

static int read_sections(gmsh_input *in, gmsh_content *c) {
  bool eof;
  do HDGCL_TRY(gmsh_next_line(in, "$MeshFormat", NULL));
  while (in->line[0] == '\0');
  if (!gmsh_line_is(in, "$MeshFormat"))
    return gmsh_error(in, HDGCL_ERROR_FORMAT, "not a Gmsh file (expected $MeshFormat)");
  int version = 0;
  HDGCL_TRY(read_format(in, &version, &c->binary));
  for (;;) {
    HDGCL_TRY(gmsh_next_line(in, "a section", &eof));
    if (eof) break;
    const char *line = in->line;
    while (*line == ' ' || *line == '\t') line++;
    if (*line == '\0') continue;
    if (line[0] != '$' || strchr(line, ' ') || strchr(line, '\t') || strlen(line) > 100)
      return gmsh_error(in, HDGCL_ERROR_FORMAT, "expected a section name ($Name), found '%.40s'",
                        line);
    char name[104];
    snprintf(name, sizeof name, "%s", line + 1);
    if (!strncmp(name, "End", 3))
      return gmsh_error(in, HDGCL_ERROR_FORMAT, "$%s without a matching section start", name);
    if (!strcmp(name, "Nodes")) {
      if (c->have_nodes) return gmsh_error(in, HDGCL_ERROR_FORMAT, "second $Nodes section");
      c->have_nodes = true;
      HDGCL_TRY(version == 22 ? gmsh_read_nodes22(in, c)
                : c->binary   ? gmsh_read_nodes41_binary(in, c)
                              : gmsh_read_nodes41(in, c));
    } else if (!strcmp(name, "Elements")) {
      if (c->have_elements) return gmsh_error(in, HDGCL_ERROR_FORMAT, "second $Elements section");
      if (!c->have_nodes) return gmsh_error(in, HDGCL_ERROR_FORMAT, "$Elements before $Nodes");
      c->have_elements = true;
      HDGCL_TRY(version == 22 ? gmsh_read_elements22(in, c)
                : c->binary   ? gmsh_read_elements41_binary(in, c)
                              : gmsh_read_elements41(in, c));
    } else if (!strcmp(name, "Entities") && version == 41) {
      if (c->have_entities) return gmsh_error(in, HDGCL_ERROR_FORMAT, "second $Entities section");
      if (c->have_elements) return gmsh_error(in, HDGCL_ERROR_FORMAT, "$Entities after $Elements");
      HDGCL_TRY(c->binary ? gmsh_read_entities41_binary(in, c) : gmsh_read_entities41(in, c));
    } else if (!strcmp(name, "PhysicalNames")) {
      if (c->have_names) return gmsh_error(in, HDGCL_ERROR_FORMAT, "second $PhysicalNames section");
      c->have_names = true;
      HDGCL_TRY(read_physical_names(in, c));
    } else {
      HDGCL_TRY(skip_section(in, name));
    }
  }
  in->line_no = 0; /* the remaining errors are about the whole file */
  if (!c->have_nodes) return gmsh_error(in, HDGCL_ERROR_FORMAT, "no $Nodes section");
  if (!c->have_elements) return gmsh_error(in, HDGCL_ERROR_FORMAT, "no $Elements section");
  return HDGCL_SUCCESS;
}

/* The reader proper, on an open stream (gmsh_sections.h): the file reader
 * below, and tests/fuzz/fuzz_gmsh.c on a buffer (fmemopen). */
int gmsh_read_stream(FILE *file, const char *path, hdgcl_mesh **mesh) {
  *mesh = NULL;
  gmsh_input in = gmsh_input_on(file, path);
  gmsh_content content = {0};
  int status = read_sections(&in, &content);
  free(in.line);
  if (status == HDGCL_SUCCESS) status = gmsh_build_mesh(&content, path, mesh);
  gmsh_content_free(&content);
  return status;
}

int hdgcl_mesh_read_gmsh(const char *path, hdgcl_mesh **mesh) {
  if (!mesh || !path)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_read_gmsh: NULL argument");
  *mesh = NULL;
  gmsh_input in;
  HDGCL_TRY(gmsh_input_open(&in, path));
  int status = gmsh_read_stream(in.file, path, mesh);
  gmsh_input_close(&in);
  if (status == HDGCL_SUCCESS) status = hdgcl_mesh_sort_straight_first(*mesh); /* element batches */
  if (status != HDGCL_SUCCESS) hdgcl_mesh_destroy(mesh);
  return status;
}
