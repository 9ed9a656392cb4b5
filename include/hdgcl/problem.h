/* Built-in problems, each with an exact solution (for error norms and rates).
 * Select one by name with the option "problem" (--problem NAME). */
#ifndef HDGCL_PROBLEM_H
#define HDGCL_PROBLEM_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hdgcl_problem_info {
  const char *name;
  const char *description;
  int dim;                 /* space dimension it is posed in; 0: both 2D and 3D */
  const char *default_mesh;
} hdgcl_problem_info;

/* Number of built-in problems and the i-th one (NULL if out of range). */
int hdgcl_problem_count(void);
const hdgcl_problem_info *hdgcl_problem_get(int i);

#ifdef __cplusplus
}
#endif
#endif
