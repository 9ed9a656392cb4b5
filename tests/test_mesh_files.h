/* Temporary directories and small files for the mesh tests. */
#ifndef HDGCL_TESTS_TEST_MESH_FILES_H
#define HDGCL_TESTS_TEST_MESH_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A fresh directory under $TMPDIR (or /tmp); NULL on failure. */
static inline char *tmf_make_dir(void) {
  const char *base = getenv("TMPDIR");
  static char path[512];
  snprintf(path, sizeof path, "%s/hdgcl_mesh_test_XXXXXX", base && base[0] ? base : "/tmp");
  return mkdtemp(path);
}

/* dir/name into buf. */
static inline const char *tmf_path(const char *dir, const char *name, char *buf, size_t size) {
  snprintf(buf, size, "%s/%s", dir, name);
  return buf;
}

static inline int tmf_write(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t n = strlen(text);
  int ok = fwrite(text, 1, n, f) == n;
  return (fclose(f) == 0 && ok) ? 0 : -1;
}

static inline int tmf_exists(const char *path) { return access(path, F_OK) == 0; }

/* Entries in dir other than . and .. */
static inline int tmf_count_entries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  return n;
}

/* Removes the files in dir (not recursive), then dir. */
static inline void tmf_remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    char path[1024];
    for (struct dirent *e; (e = readdir(d));)
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
        remove(tmf_path(dir, e->d_name, path, sizeof path));
    closedir(d);
  }
  rmdir(dir);
}

#endif
