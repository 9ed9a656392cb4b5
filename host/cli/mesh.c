/* hdgcl mesh: builds or reads a mesh, prints a one-line summary (and its
 * named tags) and optionally writes it as a Gmsh file. */
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"

static void summary(FILE *out, const hdgcl_mesh *mesh) {
  double measure = 0;
  for (int32_t e = 0; e < mesh->num_elements; e++) measure += hdgcl_mesh_element_measure(mesh, e);
  fprintf(out, "%s mesh: %d vertices, %d elements, %d faces (%d interior, %d boundary), %s %.15g\n",
          hdgcl_mesh_is_mixed(mesh) ? "mixed" : hdgcl_element_type_name(mesh->type),
          (int)mesh->num_vertices, (int)mesh->num_elements,
          (int)mesh->num_faces, (int)mesh->num_interior_faces,
          (int)(mesh->num_faces - mesh->num_interior_faces), mesh->dim == 2 ? "area" : "volume",
          measure);
  if (hdgcl_mesh_is_mixed(mesh)) { /* "element types: 16 triangles, 8 quadrilaterals" */
    fprintf(out, "element types:");
    for (int i = 0; i < mesh->num_types; i++)
      fprintf(out, "%s %d %ss", i ? "," : "", (int)hdgcl_mesh_count_type(mesh, mesh->types[i]),
              hdgcl_element_type_name(mesh->types[i]));
    fputc('\n', out);
  }
  if (mesh->geometry_order > 1) /* curved (docs/geometry.md) */
    fprintf(out, "geometry order %d (%d nodes per element): %d curved, %d straight elements\n",
            mesh->geometry_order, mesh->nodes_per_element,
            (int)(mesh->num_elements - hdgcl_mesh_count_straight(mesh)), (int)hdgcl_mesh_count_straight(mesh));
  /* named tags, boundary then element: "boundary tags: 1 left (4 faces), ..." */
  for (int dim = mesh->dim - 1; dim <= mesh->dim; dim++) {
    bool boundary = dim < mesh->dim, first = true;
    const int32_t *tags = boundary ? mesh->face_tags + mesh->num_interior_faces : mesh->elem_tags;
    int32_t n = boundary ? mesh->num_faces - mesh->num_interior_faces : mesh->num_elements;
    for (int32_t i = 0; i < mesh->num_tag_names; i++) {
      const hdgcl_tag_name *t = &mesh->tag_names[i];
      if (t->dim != dim) continue;
      int32_t count = 0;
      for (int32_t k = 0; k < n; k++) count += tags[k] == t->tag;
      const char *lead = !first ? ", " : boundary ? "boundary tags: " : "element tags: ";
      fprintf(out, "%s%d %s (%d %s)", lead, (int)t->tag, t->name, (int)count,
              boundary ? (count == 1 ? "face" : "faces") : (count == 1 ? "element" : "elements"));
      first = false;
    }
    if (!first) fputc('\n', out);
  }
}

static int run(hdgcl_options opts) {
  static const char *const formats[] = {"41", "22", NULL};
  const char *spec, *output;
  int format;
  bool binary;
  HDGCL_TRY(hdgcl_options_get_string(opts, "mesh", NULL, &spec));
  HDGCL_TRY(hdgcl_options_get_string(opts, "output", NULL, &output));
  HDGCL_TRY(hdgcl_options_get_choice(opts, "format", formats, 0, &format));
  HDGCL_TRY(hdgcl_options_get_bool(opts, "binary", false, &binary));
  HDGCL_TRY(hdgcl_options_check_unused(opts));
  if (!spec) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--mesh SPEC is required (try --help)");
  /* a bare "--output" reads as the flag value "true" */
  if (output && (!output[0] || !strcmp(output, "true")))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--output needs a file name (write ./true for a file named true)");
  if (binary && format != 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--binary writes Gmsh 4.1 only (drop --format 22, or --binary)");
  if (binary && !output)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--binary needs --output FILE.msh");

  hdgcl_mesh *mesh = NULL;
  HDGCL_TRY(hdgcl_mesh_create_from_spec(spec, &mesh));
  int status = hdgcl_mesh_validate(mesh);
  if (status == HDGCL_SUCCESS && output)
    status = binary ? hdgcl_mesh_write_gmsh_binary(mesh, output)
                    : hdgcl_mesh_write_gmsh(mesh, output, format == 0 ? 41 : 22);
  if (status == HDGCL_SUCCESS) {
    summary(stdout, mesh);
    if (output)
      printf("wrote %s (Gmsh %s%s)\n", output, format == 0 ? "4.1" : "2.2",
             binary ? " binary" : "");
  }
  hdgcl_mesh_destroy(&mesh);
  return status;
}

static void help(FILE *out) {
  fprintf(out, "usage: hdgcl mesh --mesh SPEC [--output FILE.msh] [--format 41|22]\n"
               "             [--binary]\n"
               "\n"
               "Builds (or reads) a mesh, checks it, prints a one-line summary (element type,\n"
               "vertices, elements, faces interior/boundary, total area or volume) and its\n"
               "named tags with their counts, and, with --output, writes it as a Gmsh file\n"
               "(ASCII, or binary with --binary) with the boundary tags as physical groups\n"
               "(their names as physical names).\n"
               "\n"
               "  --mesh SPEC      square:N[xM]   unit square, 2 triangles per cell\n"
               "                   quad:N[xM]     unit square, quadrilaterals\n"
               "                   cube:N[xMxL]   unit cube, 6 tetrahedra per cell\n"
               "                   hex:N[xMxL]    unit cube, hexahedra\n"
               "                   annulus:N      1 <= r <= 2, triangles (annulus-quad:N: quads),\n"
               "                                  ,order=1|2|3 the geometry order (curved: 2, 3;\n"
               "                                  docs/geometry.md); tags 1 inner, 2 outer\n"
               "                   shell:N        1 <= r <= 2, 6 N^3 hexahedra, ,order=1|2|3\n"
               "                   mixed:N        unit square, triangles for x < 0.5 and quads\n"
               "                                  for x > 0.5 (N even; docs/geometry.md)\n"
               "                   modifiers: ,diag=right|left|alt (square), ,perturb=A (random\n"
               "                   interior vertex moves, 0 <= A < 0.5 of the shortest edge),\n"
               "                   ,seed=S, ,distort=A (smooth, 0 <= A <= 0.2), ,size=L[xH[xW]]\n"
               "                   (the box [0,L]x[0,H][x[0,W]] instead of the unit square/cube,\n"
               "                   e.g. square:40x4,size=10x1), ,split=x|y|z:V (element tags 1\n"
               "                   where the centroid's coordinate is below V, 2 elsewhere: two\n"
               "                   regions for hdgcl solve --material); or a Gmsh file FILE.msh\n"
               "                   (ASCII 2.2 and 4.1, binary 4.1; curved elements of order 2\n"
               "                   and 3, written back with their nodes by --output)\n"
               "  --output FILE    write the mesh to FILE (Gmsh, ASCII unless --binary)\n"
               "  --format 41|22   Gmsh format version of --output (default 41)\n"
               "  --binary         write --output as binary Gmsh 4.1 (as gmsh -bin does; read\n"
               "                   about twice as fast as ASCII)\n"
               "\n"
               "Boundary tags of the generated meshes: 1 left (x=0), 2 right (x=1), 3 bottom\n"
               "(y=0), 4 top (y=1), 5 back (z=0), 6 front (z=1) (x=L, y=H, z=W with ,size=).\n"
               "example: hdgcl mesh --mesh square:8,diag=alt,perturb=0.2 --output square.msh\n");
}

const cli_command cli_mesh = {"mesh", "build or read a mesh, print a summary, write Gmsh", run,
                              help};
