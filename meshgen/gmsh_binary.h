/* The binary fields of a Gmsh 4.1 binary file (file type 1 in $MeshFormat,
 * what `gmsh -bin` writes): in $Entities, $Nodes and $Elements the numbers
 * are raw machine words of the writer, int (4 bytes: dimensions, entity
 * tags, element types, physical tags), size_t (the data size, 8 bytes:
 * counts, node and element tags) and double (8 bytes); the section lines
 * ($Nodes ... $EndNodes) stay text.  Read from the same stream as the text
 * lines, so in->offset counts both, and errors name the byte offset and the
 * section: "path: byte N: $Nodes: ...".  Every count is checked against the
 * bytes left in the file before anything is read or allocated for it. */
#ifndef HDGCL_MESHGEN_GMSH_BINARY_H
#define HDGCL_MESHGEN_GMSH_BINARY_H

#include "gmsh_input.h"

enum { GMSH_BINARY_INT = 4, GMSH_BINARY_SIZE = 8, GMSH_BINARY_REAL = 8 };

/* After the "4.1 1 8" line of $MeshFormat: the int 1 written in binary
 * (the endianness check; a byte-swapped file is refused) and its newline.
 * Switches in to binary mode (messages give byte offsets). */
int gmsh_binary_start(gmsh_input *in);

/* "path: byte N: SECTION: message" at the current field. */
int gmsh_binary_error(const gmsh_input *in, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Fails unless count items of at least `each` bytes fit in the rest of the
 * file (nothing to check if its size is unknown: the readers then allocate
 * only as data arrives); `what` names the items. */
int gmsh_binary_need(gmsh_input *in, const char *what, uint64_t count, int64_t each);

/* Reads `bytes` bytes; the end of the file before them is an error naming
 * `what`. */
int gmsh_binary_read(gmsh_input *in, const char *what, void *data, size_t bytes);

/* One int (4 bytes) or one size_t (8 bytes, unsigned) in [min, max]. */
int gmsh_binary_int(gmsh_input *in, const char *what, int64_t min, int64_t max, int64_t *value);
int gmsh_binary_size(gmsh_input *in, const char *what, int64_t min, int64_t max, int64_t *value);

/* n doubles, each finite. */
int gmsh_binary_reals(gmsh_input *in, const char *what, double *x, size_t n);

/* After the binary data of a section: the newline that ends it, then the
 * line `end` ("$EndNodes"). */
int gmsh_binary_end(gmsh_input *in, const char *end);

#endif
