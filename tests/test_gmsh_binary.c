/* Binary Gmsh 4.1 files made by hand (a builder below writes the fields
 * with their sizes: int 4 bytes, size_t 8, double 8) and broken one field
 * at a time: each is refused with the right one-line message naming the
 * file, the byte offset and the section, and no mesh; a file cut at every
 * length is refused cleanly; counts far beyond the file's size are refused
 * before anything is allocated, also from a pipe, whose size is unknown.
 * HDGCL_GMSH_SEEDS=DIR writes the files into DIR (the seeds of
 * tests/fuzz/corpus/gmsh). */
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "test_mesh_checks.h"
#include "test_mesh_files.h"

typedef struct builder {
  unsigned char data[4096];
  size_t size;
} builder;

static size_t put(builder *b, const void *p, size_t n) {
  size_t at = b->size;
  if (b->size + n <= sizeof b->data) memcpy(b->data + b->size, p, n), b->size += n;
  return at;
}
static size_t text(builder *b, const char *s) { return put(b, s, strlen(s)); }
static size_t i32(builder *b, int32_t x) { return put(b, &x, sizeof x); }
static size_t u64(builder *b, uint64_t x) { return put(b, &x, sizeof x); }
static size_t f64(builder *b, double x) { return put(b, &x, sizeof x); }

/* Offsets of the fields the cases change. */
typedef struct marks {
  size_t one, curves, physical_count, node_header, node_count, node_block_n, node_tag, coord,
      node_data_end, element_header, line_block, triangle_dim, triangle_type, triangle_n,
      second_node, element_data_end, entities_data, nodes_data, elements_data;
} marks;

/* Two triangles on the unit square (node tags 1..4), a boundary line in
 * physical group 3 "bottom", the surface in group 8 "domain". */
static void good_file(builder *b, marks *m) {
  b->size = 0;
  text(b, "$MeshFormat\n4.1 1 8\n");
  m->one = i32(b, 1);
  text(b, "\n$EndMeshFormat\n");
  text(b, "$PhysicalNames\n2\n1 3 \"bottom\"\n2 8 \"domain\"\n$EndPhysicalNames\n");
  text(b, "$Entities\n");
  u64(b, 0);
  m->curves = u64(b, 1);
  u64(b, 1);
  u64(b, 0);
  m->entities_data = i32(b, 5); /* curve 5 */
  for (int k = 0; k < 6; k++) f64(b, k < 3 ? 0 : 1);
  m->physical_count = u64(b, 1);
  i32(b, 3);
  u64(b, 2);
  i32(b, 1);
  i32(b, -2);
  i32(b, 9); /* surface 9 */
  for (int k = 0; k < 6; k++) f64(b, k < 3 ? 0 : 1);
  u64(b, 1);
  i32(b, 8);
  u64(b, 1);
  i32(b, 5);
  text(b, "\n$EndEntities\n$Nodes\n");
  m->node_header = u64(b, 1);
  m->node_count = u64(b, 4);
  u64(b, 1);
  u64(b, 4);
  i32(b, 2);
  i32(b, 9);
  i32(b, 0);
  m->node_block_n = u64(b, 4);
  m->node_tag = u64(b, 1);
  m->nodes_data = u64(b, 2);
  for (uint64_t t = 3; t <= 4; t++) u64(b, t);
  static const double xyz[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  m->coord = f64(b, 0);
  for (int k = 1; k < 12; k++) f64(b, xyz[k / 3][k % 3]);
  m->node_data_end = text(b, "\n$EndNodes\n$Elements\n");
  m->element_header = u64(b, 2);
  u64(b, 3);
  u64(b, 1);
  u64(b, 3);
  m->line_block = i32(b, 1);
  i32(b, 5);
  i32(b, 1);
  u64(b, 1);
  u64(b, 1);
  u64(b, 1);
  u64(b, 2);
  m->triangle_dim = i32(b, 2);
  i32(b, 9);
  m->triangle_type = i32(b, 2);
  m->triangle_n = u64(b, 2);
  m->elements_data = u64(b, 2);
  u64(b, 1);
  m->second_node = u64(b, 2);
  u64(b, 3);
  u64(b, 3);
  u64(b, 1);
  u64(b, 3);
  u64(b, 4);
  m->element_data_end = text(b, "\n$EndElements\n");
}

static void write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(data, 1, size, f) == size);
  if (f) fclose(f);
}

/* Reads path, which must fail with FORMAT and a one-line message starting
 * with the path and holding each of the substrings. */
static void expect_failure(const char *path, const char *name, const char *const want[3]) {
  hdgcl_mesh *mesh = NULL;
  int status = hdgcl_mesh_read_gmsh(path, &mesh);
  const char *msg = hdgcl_last_error();
  if (getenv("HDGCL_TEST_VERBOSE")) printf("%s\n", msg);
  CHECK_MSG(status == HDGCL_ERROR_FORMAT, "%s: status %s (%s)", name, hdgcl_status_name(status),
            msg);
  CHECK_MSG(mesh == NULL, "%s: a mesh was returned", name);
  CHECK_MSG(strstr(msg, path) == msg, "%s: message does not start with the path: %s", name, msg);
  CHECK_MSG(strchr(msg, '\n') == NULL, "%s: message has several lines", name);
  for (int k = 0; k < 3 && want && want[k]; k++)
    CHECK_MSG(strstr(msg, want[k]) != NULL, "%s: message '%s' lacks '%s'", name, msg, want[k]);
  hdgcl_mesh_destroy(&mesh);
}

static const char *seeds; /* HDGCL_GMSH_SEEDS */

static void save_seed(const char *name, const builder *b) {
  if (!seeds) return;
  char path[1024];
  snprintf(path, sizeof path, "%s/bin_%s", seeds, name);
  write_file(path, b->data, b->size);
}

/* One broken variant: the good file with `size` bytes at offset `at`
 * replaced by `bytes`. */
static void broken(const char *dir, const char *name, size_t at, const void *bytes, size_t size,
                   const char *w0, const char *w1, const char *w2) {
  builder b;
  marks m;
  good_file(&b, &m);
  memcpy(b.data + at, bytes, size);
  char path[1024];
  tmf_path(dir, name, path, sizeof path);
  write_file(path, b.data, b.size);
  const char *const want[3] = {w0, w1, w2};
  int before = check_failures;
  expect_failure(path, name, want);
  if (check_failures != before) fprintf(stderr, "  ... case %s\n", name);
  save_seed(name, &b);
}

static void broken_u64(const char *dir, const char *name, size_t at, uint64_t x, const char *w0,
                       const char *w1, const char *w2) {
  broken(dir, name, at, &x, sizeof x, w0, w1, w2);
}
static void broken_i32(const char *dir, const char *name, size_t at, int32_t x, const char *w0,
                       const char *w1, const char *w2) {
  broken(dir, name, at, &x, sizeof x, w0, w1, w2);
}

static void check_good(const char *dir, const builder *b) {
  char path[1024];
  tmf_path(dir, "good.msh", path, sizeof path);
  write_file(path, b->data, b->size);
  save_seed("good.msh", b);
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &m));
  if (!m) return;
  CHECK_OK(hdgcl_mesh_validate(m));
  CHECK(m->type == HDGCL_TRIANGLE && m->num_vertices == 4 && m->num_elements == 2);
  const double xy[8] = {0, 0, 1, 0, 1, 1, 0, 1};
  CHECK(!memcmp(m->coords, xy, sizeof xy));
  CHECK(m->elem_tags[0] == 8 && m->elem_tags[1] == 8);
  int tagged = 0;
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++) tagged += m->face_tags[f] == 3;
  CHECK(tagged == 1);
  CHECK(!strcmp(hdgcl_mesh_tag_name(m, 1, 3), "bottom"));
  CHECK(!strcmp(hdgcl_mesh_tag_name(m, 2, 8), "domain"));
  /* the same mesh through the writer, both encodings */
  char ascii[1024], binary[1024];
  tmf_path(dir, "good_ascii.msh", ascii, sizeof ascii);
  tmf_path(dir, "good_binary.msh", binary, sizeof binary);
  CHECK_OK(hdgcl_mesh_write_gmsh(m, ascii, 41));
  CHECK_OK(hdgcl_mesh_write_gmsh_binary(m, binary));
  hdgcl_mesh *a = NULL, *c = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(ascii, &a));
  CHECK_OK(hdgcl_mesh_read_gmsh(binary, &c));
  if (a && c) tmc_check_same_mesh(a, c);
  if (a) tmc_check_same_mesh(m, a);
  hdgcl_mesh_destroy(&a);
  hdgcl_mesh_destroy(&c);
  hdgcl_mesh_destroy(&m);
}

/* The good file cut at every length before its last line fails cleanly;
 * cuts inside each section's data name the section. */
static void check_truncated(const char *dir, const builder *b, const marks *m) {
  char path[1024];
  tmf_path(dir, "cut.msh", path, sizeof path);
  for (size_t n = 0; n <= m->element_data_end; n++) {
    write_file(path, b->data, n);
    char name[32];
    snprintf(name, sizeof name, "cut at %zu", n);
    int before = check_failures;
    expect_failure(path, name, NULL);
    if (check_failures != before) break;
  }
  static const char *const sections[3] = {"$Entities: ", "$Nodes: ", "$Elements: "};
  size_t cuts[3] = {m->entities_data + 6, m->nodes_data + 3, m->elements_data + 5};
  for (int k = 0; k < 3; k++) {
    write_file(path, b->data, cuts[k]);
    const char *const want[3] = {sections[k], "truncated file"};
    expect_failure(path, sections[k], want);
    if (seeds && k == 1) {
      builder cut = *b;
      cut.size = cuts[k];
      save_seed("cut_nodes.msh", &cut);
    }
  }
}

/* A count of 2^30 nodes in a 600-byte file, from a pipe (size unknown):
 * refused when the data runs out, without allocating for the count. */
static void check_pipe(const char *dir, const marks *m) {
  char path[1024];
  tmf_path(dir, "pipe.msh", path, sizeof path);
  if (mkfifo(path, 0600) != 0) {
    fprintf(stderr, "note: no FIFO (%s), pipe case skipped\n", path);
    return;
  }
  builder b;
  marks mm;
  good_file(&b, &mm);
  uint64_t huge = (uint64_t)1 << 30;
  memcpy(b.data + m->node_block_n, &huge, sizeof huge);
  pid_t child = fork();
  if (child == 0) { /* the writer end; a reader that stops early must not kill it loudly */
    signal(SIGPIPE, SIG_IGN);
    FILE *f = fopen(path, "wb");
    if (f) fwrite(b.data, 1, b.size, f), fclose(f);
    _exit(0);
  }
  CHECK(child > 0);
  if (child <= 0) return;
  const char *const want[3] = {"$Nodes: ", "unexpected end of file reading node tags"};
  expect_failure(path, "pipe", want);
  int status;
  waitpid(child, &status, 0);
}

int main(void) {
  char *dir = tmf_make_dir();
  CHECK(dir != NULL);
  if (!dir) CHECK_DONE();
  seeds = getenv("HDGCL_GMSH_SEEDS");
  builder b;
  marks m;
  good_file(&b, &m);
  CHECK(b.size < sizeof b.data);
  check_good(dir, &b);
  check_truncated(dir, &b, &m);
  check_pipe(dir, &m);

  char at[64];
  broken_i32(dir, "swapped.msh", m.one, 0x01000000, "$MeshFormat: ", "other byte order", NULL);
  broken_i32(dir, "one.msh", m.one, 2, "$MeshFormat: ", "the endianness check), found 2", NULL);
  broken(dir, "data_size.msh", 18, "4", 1, "data size 4 in a binary file", "only 8", NULL);
  broken(dir, "version22.msh", 12, "2.2", 3, "binary Gmsh 2.2 files are not read", NULL, NULL);
  /* counts beyond the file */
  broken_u64(dir, "curves.msh", m.curves, 1u << 30, "$Entities: ", "1073741824 curves need",
             "bytes but only");
  broken_u64(dir, "curves_huge.msh", m.curves, UINT64_MAX,
             "$Entities: ", "number of curves 18446744073709551615 out of range", NULL);
  broken_u64(dir, "physical_count.msh", m.physical_count, 1u << 20,
             "$Entities: ", "1048576 physical tags need", NULL);
  broken_u64(dir, "node_blocks.msh", m.node_header, (uint64_t)1 << 33,
             "$Nodes: ", "number of blocks 8589934592 out of range", NULL);
  snprintf(at, sizeof at, "broken_nodes.msh: byte %zu: ", m.node_block_n);
  broken_u64(dir, "broken_nodes.msh", m.node_block_n, 1u << 30, at, "$Nodes: 1073741824 nodes",
             "(a wrong count, or a truncated file)");
  broken_u64(dir, "nodes_declared.msh", m.node_count, 5,
             "$Nodes: ", "the header declares 5 nodes but its blocks hold 4", NULL);
  broken_u64(dir, "triangles.msh", m.triangle_n, (uint64_t)1 << 50,
             "$Elements: ", "elements of the block need", NULL);
  broken_u64(dir, "triangles_huge.msh", m.triangle_n, ((uint64_t)1 << 63) + 5,
             "$Elements: ", "number of elements in block 9223372036854775813 out of range", NULL);
  broken_u64(dir, "triangles_few.msh", m.triangle_n, 1,
             "$Elements: ", "the header declares 3 elements but its blocks hold 2", NULL);
  /* values */
  snprintf(at, sizeof at, "element_type.msh: byte %zu: ", m.triangle_type);
  broken_i32(dir, "element_type.msh", m.triangle_type, 23, at, "type 23", "does not read"); /* triangle 15 */
  broken_i32(dir, "element_dim.msh", m.triangle_dim, 3,
             "$Elements: ", "triangle elements (type 2) in an entity of dimension 3", NULL);
  broken_i32(dir, "entity_dim.msh", m.line_block, 7,
             "$Elements: ", "entity dimension 7 out of range [0, 3]", NULL);
  broken_u64(dir, "node_tag.msh", m.node_tag, 0, "$Nodes: ", "node tag 0 out of range", NULL);
  broken_u64(dir, "repeated_node.msh", m.node_tag, 2, "node tag 2 is defined twice", NULL, NULL);
  double nan = NAN;
  snprintf(at, sizeof at, "coordinate.msh: byte %zu: ", m.coord);
  broken(dir, "coordinate.msh", m.coord, &nan, sizeof nan, at, "$Nodes: node coordinate nan",
         "not a finite number");
  broken_u64(dir, "dangling.msh", m.second_node, 77, "element 2 references node 77", NULL, NULL);
  broken(dir, "end_nodes.msh", m.node_data_end, "X", 1, "$Nodes: ", "more bytes after",
         "$EndNodes");
  tmf_remove_dir(dir);
  CHECK_DONE();
}
