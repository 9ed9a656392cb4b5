/* Line-by-line reading of a Gmsh ASCII file with line numbers, so that
 * every error names "path:line". */
#ifndef HDGCL_MESHGEN_GMSH_INPUT_H
#define HDGCL_MESHGEN_GMSH_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct gmsh_input {
  FILE *file;
  const char *path;
  long line_no;       /* number of the current line, 1-based (0 before the first) */
  char *line;         /* current line without its end-of-line characters */
  size_t capacity;    /* of line (getline) */
  const char *cursor; /* next token of line */
} gmsh_input;

int gmsh_input_open(gmsh_input *in, const char *path);
void gmsh_input_close(gmsh_input *in);

/* Records "path:line: message" and returns status. */
int gmsh_error(const gmsh_input *in, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reads the next line into in->line.  At the end of the file *eof is set
 * (eof may be NULL: then the end of the file is an error saying that
 * `expected` was missing). */
int gmsh_next_line(gmsh_input *in, const char *expected, bool *eof);

/* The current line, stripped of surrounding blanks, equals text. */
bool gmsh_line_is(const gmsh_input *in, const char *text);

/* Reads the next line, which must be `text` (e.g. "$EndNodes"). */
int gmsh_expect_line(gmsh_input *in, const char *text);

/* Next whitespace-separated token of the current line as an integer in
 * [min, max], or a finite real; `what` names it in the error message. */
int gmsh_int(gmsh_input *in, const char *what, int64_t min, int64_t max, int64_t *value);
int gmsh_real(gmsh_input *in, const char *what, double *value);

/* Next token as a string (copied into buf); error if the line has none. */
int gmsh_word(gmsh_input *in, const char *what, char *buf, size_t size);

/* The current line has no more tokens. */
int gmsh_end_of_line(gmsh_input *in, const char *what);

#endif
