/* Line-by-line reading of a Gmsh file with line numbers, so that every
 * error names "path:line"; in a binary file (gmsh_binary.h) errors name the
 * byte offset instead ("path: byte N"), as lines mean little there. */
#ifndef HDGCL_MESHGEN_GMSH_INPUT_H
#define HDGCL_MESHGEN_GMSH_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct gmsh_input {
  FILE *file;
  const char *path;
  long line_no;        /* number of the current line, 1-based (0 before the first) */
  char *line;          /* current line without its end-of-line characters */
  size_t capacity;     /* of line (getline) */
  const char *cursor;  /* next token of line */
  bool binary;         /* binary file: messages give byte offsets */
  int64_t offset;      /* bytes read so far (text lines and binary fields) */
  int64_t position;    /* offset of the current line or binary field */
  int64_t size;        /* of the whole file in bytes, -1 if unknown (a pipe) */
  const char *section; /* binary section being read, e.g. "$Nodes" (messages) */
} gmsh_input;

/* A reader on an open stream at its start. */
gmsh_input gmsh_input_on(FILE *file, const char *path);

int gmsh_input_open(gmsh_input *in, const char *path);
void gmsh_input_close(gmsh_input *in);

/* Records "path:line: message" (binary files: "path: byte N: message";
 * "path: message" once line_no is 0) and returns status. */
int gmsh_error(const gmsh_input *in, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reads the next line into in->line.  At the end of the file *eof is set
 * (eof may be NULL: then the end of the file is an error saying that
 * `expected` was missing). */
int gmsh_next_line(gmsh_input *in, const char *expected, bool *eof);

/* The same for a line of a section that is skipped, which in a binary file
 * may hold any byte: a line with a NUL byte reads as "". */
int gmsh_next_raw_line(gmsh_input *in, const char *expected, bool *eof);

/* Where the current line or field is, as stored with nodes and elements
 * (gmsh_content.h): its line number, or in a binary file its byte offset. */
long gmsh_position(const gmsh_input *in);

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
