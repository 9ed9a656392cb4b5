/* The sections of a Gmsh file that the reader parses, per format
 * version, into a gmsh_content; and the step from that content to a mesh. */
#ifndef HDGCL_MESHGEN_GMSH_SECTIONS_H
#define HDGCL_MESHGEN_GMSH_SECTIONS_H

#include "gmsh_content.h"
#include "gmsh_input.h"
#include "hdgcl/mesh.h"

/* Each reads the body of its section (after the "$Name" line) up to and
 * including "$EndName". */
int gmsh_read_nodes22(gmsh_input *in, gmsh_content *c);
int gmsh_read_elements22(gmsh_input *in, gmsh_content *c);
int gmsh_read_entities41(gmsh_input *in, gmsh_content *c);
int gmsh_read_nodes41(gmsh_input *in, gmsh_content *c);
int gmsh_read_elements41(gmsh_input *in, gmsh_content *c);
/* gmsh_read41_binary.c: the same sections of a binary 4.1 file. */
int gmsh_read_entities41_binary(gmsh_input *in, gmsh_content *c);
int gmsh_read_nodes41_binary(gmsh_input *in, gmsh_content *c);
int gmsh_read_elements41_binary(gmsh_input *in, gmsh_content *c);

/* gmsh_elements.c: shared by both versions.  Fails, naming the type
 * number, unless hdgcl reads elements of this Gmsh type (number <= 0: the
 * type of a 4.1 element block). */
int gmsh_check_element_type(gmsh_input *in, int64_t number, int64_t gmsh_type);
/* Stores an element of the given node tags with its physical tag (points
 * are skipped); fails if a tag is no node's. */
int gmsh_store_element(gmsh_input *in, gmsh_content *c, int gmsh_type, int64_t number,
                       const uint64_t *tags, int32_t physical_tag);
/* Reads the node tags of one element from the current line (ending it) and
 * stores the element. */
int gmsh_read_element_nodes(gmsh_input *in, gmsh_content *c, int gmsh_type, int64_t number,
                            int32_t physical_tag);

/* gmsh_build.c: the mesh from the highest-dimensional elements; the
 * lower-dimensional ones with a physical group tag the boundary faces. */
int gmsh_build_mesh(const gmsh_content *c, const char *path, hdgcl_mesh **mesh);

/* gmsh_read.c: hdgcl_mesh_read_gmsh on an open stream (not closed); path
 * names it in errors. */
int gmsh_read_stream(FILE *file, const char *path, hdgcl_mesh **mesh);

#endif
