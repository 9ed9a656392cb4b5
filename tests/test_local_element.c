/* The whole local stage in one kernel (host/pipeline/local.c): cl/pipeline/local_element.cl,
 * one element per work-item (the form for CPUs), and
 * cl/pipeline/local_element_tiled.cl, one element per work-group, Gauss-Jordan on
 * the augmented matrix [S, W F; (W F)^T, K0] (the form for GPUs).  With
 * HDGCL_LOCAL_ELEMENT=on[:WG] or tiled[:G] each gives the trace matrix and u
 * of the split kernels (local_build_s, local_build, Z, K) to 1e-12
 * relative: on triangles (p = 0, 1, 5, 4 with kappa jumping across
 * elements, work-groups of 1 and of 16 in chunks of 7, so that groups
 * straddle chunk ends), on tetrahedra with Neumann faces (p = 3, in chunks:
 * the tiled kernel's largest tetrahedra, 61 x 61 in local memory), at p = 2
 * and at p = 7 (local_element's largest private arrays, 257 KiB), in every
 * shape of the tiled kernel (a grid of 8 work-items square, one
 * element per group; grids of 4, four elements, and of 8, two, per group in
 * chunks of 7, so that a chunk's last group has elements missing).  HDGCL_LOCAL_ELEMENT=tuned times them against the split
 * kernels (local_element on CPUs, local_element_tiled elsewhere) and writes
 * a record that a second context reads ("cache").  Bad values, grids whose
 * tile does not fit, and problems neither takes (convection, elasticity,
 * mapped elements) are argument errors naming the variable. */
#include "hdg_test.h"

static char cache_dir[256];

static hdgcl_context open_context(void) { return test_context_cached(cache_dir, false); }

typedef struct {
  const char *mesh, *problem, *order, *chunk, *on; /* chunk NULL: one batch; on: the value */
} element_case;

/* Case c with HDGCL_LOCAL_ELEMENT=value. */
static solved solve_env(hdgcl_context ctx, const element_case *c, const char *value) {
  return solve_with_env(ctx, "HDGCL_LOCAL_ELEMENT", value, c->mesh, c->problem, c->order, c->chunk);
}

/* local_element (c->on) against the split kernels: the same trace matrix
 * and u to 1e-12 relative. */
static void expect_same(hdgcl_context ctx, const element_case *c) {
  solved s[2] = {solve_env(ctx, c, "off"), solve_env(ctx, c, c->on)};
  CHECK_MSG(!s[0].status && !s[1].status, "%s on %s p = %s: a solve failed", c->problem, c->mesh,
            c->order);
  if (!s[0].status && !s[1].status) {
    const hdgcl_result *r = s[1].result;
    const char *method = strncmp(c->on, "tiled", 5) ? "local-element" : "local-element-tiled";
    int grid = 0; /* the grid asked for ("tiled:G..."), -1: any ("tiled") */
    if (!strcmp(c->on, "tiled")) grid = -1;
    else if (!strncmp(c->on, "tiled:", 6)) grid = atoi(c->on + 6);
    CHECK_MSG(grid < 0 ? r->local_element_grid > 0 : r->local_element_grid == grid,
              "%s on %s: local_element_grid %d for HDGCL_LOCAL_ELEMENT=%s", c->problem, c->mesh,
              r->local_element_grid, c->on);
    CHECK_MSG(s[0].result->local_element_wg == 0 && r->local_element_wg > 0 &&
                  !strcmp(r->local_invert, method) &&
                  !strcmp(r->local_element_source, "environment"),
              "%s on %s: local_element %d (%s), local_invert %s", c->problem, c->mesh,
              r->local_element_wg, r->local_element_source, r->local_invert);
    int rows, slots, nf;
    const double *v0, *v1, *u0, *u1;
    CHECK_OK(hdgcl_solver_matrix(s[0].solver, &rows, &slots, &nf, &v0, NULL, NULL));
    CHECK_OK(hdgcl_solver_matrix(s[1].solver, NULL, NULL, NULL, &v1, NULL, NULL));
    CHECK_OK(hdgcl_solver_solution(s[0].solver, &u0, NULL, NULL, NULL));
    CHECK_OK(hdgcl_solver_solution(s[1].solver, &u1, NULL, NULL, NULL));
    double dk = relative_difference(v1, v0, (size_t)rows * slots * nf * nf);
    double du = relative_difference(u1, u0, (size_t)r->element_dofs / (s[0].mesh->dim + 1));
    printf("%s on %s p = %s, HDGCL_LOCAL_ELEMENT=%s%s%s: trace matrix %.1e, u %.1e\n", c->problem,
           c->mesh, c->order, c->on, c->chunk ? ", chunks of " : "", c->chunk ? c->chunk : "", dk,
           du);
    CHECK_MSG(dk < 1e-12 && du < 1e-12, "%s on %s p = %s: trace matrix differs by %.3e, u by %.3e",
              c->problem, c->mesh, c->order, dk, du);
  }
  solved_destroy(&s[0]);
  solved_destroy(&s[1]);
}

/* HDGCL_LOCAL_ELEMENT=value on case c fails with an argument error naming the variable. */
static void expect_rejected(hdgcl_context ctx, const element_case *c, const char *value) {
  solved s = solve_env(ctx, c, value);
  CHECK_MSG(s.status == HDGCL_ERROR_ARGUMENT && strstr(hdgcl_last_error(), "HDGCL_LOCAL_ELEMENT"),
            "HDGCL_LOCAL_ELEMENT=%s on %s %s accepted", value, c->problem, c->mesh);
  solved_destroy(&s);
}

int main(void) {
  test_cache_dir_create(cache_dir, sizeof cache_dir, "hdgcl-element-test");
  hdgcl_context ctx = open_context();
  const element_case same[] = {
      {"square:4,perturb=0.2,seed=6", "helmholtz-sin", "5", "7", "on"},
      {"square:4,perturb=0.2,seed=6", "helmholtz-sin", "5", "7", "on:16"},
      {"square:3", "helmholtz-sin", "0", NULL, "on"},
      {"square:3,perturb=0.2,seed=2", "polynomial", "1", NULL, "on:4"},
      {"cube:2", "poisson-mixed", "3", "5", "on"},
      {"cube:1", "helmholtz-sin", "7", NULL, "on"},
      {"square:4", "kappa-jump", "4", NULL, "on"},
      {"square:4,perturb=0.2,seed=6", "helmholtz-sin", "5", "7", "tiled"},
      {"square:3", "helmholtz-sin", "0", NULL, "tiled:8"},
      {"square:4,perturb=0.2,seed=6", "helmholtz-sin", "3", "7", "tiled:4"},
      {"square:4,perturb=0.2,seed=6", "helmholtz-sin", "2", "7", "tiled:8:2"},
      {"square:3,perturb=0.2,seed=2", "polynomial", "1", NULL, "tiled:8:1"},
      {"cube:2", "poisson-mixed", "3", "5", "tiled:8"},
      {"cube:1", "helmholtz-sin", "2", NULL, "tiled:8"},
      {"square:4", "kappa-jump", "4", NULL, "tiled:8:1"},
  };
  for (size_t i = 0; i < sizeof same / sizeof *same; i++) expect_same(ctx, &same[i]);

  const element_case tri = {"square:3", "helmholtz-sin", "2", NULL, NULL};
  const char *bad[] = {"yes",     "on:0",    "on:x",   "on:16x",  "tiled:x",  "tiled:9",
                       "tiled:",  "tiled:8:", "tiled:8x", "tiled:0", "tiled:8:3", "tiled:4:1",
                       "tiled:11", "tiled:16:1" /* shapes removed at stop 36 */};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) expect_rejected(ctx, &tri, bad[i]);
  /* tetrahedra p = 4: 96 x 96 fits no shape (it took grid 16, removed); p = 6 none */
  const element_case tet4 = {"cube:1", "helmholtz-sin", "4", NULL, NULL};
  const element_case tet6 = {"cube:1", "helmholtz-sin", "6", NULL, NULL};
  expect_rejected(ctx, &tet4, "tiled:8");
  expect_rejected(ctx, &tet6, "tiled");
  const element_case other[] = {{"square:3", "convection-diffusion", "2", NULL, NULL},
                                {"square:2", "elasticity", "2", NULL, NULL},
                                {"quad:2", "helmholtz-sin", "2", NULL, NULL}};
  for (int i = 0; i < 3; i++) {
    expect_rejected(ctx, &other[i], "on");
    expect_rejected(ctx, &other[i], "tiled");
  }

  /* The trial and its record. */
  solved t = solve_env(ctx, &tri, "tuned");
  CHECK_MSG(!t.status && !strcmp(t.result->local_element_source, "trial"),
            "HDGCL_LOCAL_ELEMENT=tuned: local_element from %s",
            t.status ? "a failed solve" : t.result->local_element_source);
  int chosen = t.status ? -1 : t.result->local_element_wg;
  solved_destroy(&t);
  hdgcl_context ctx2 = open_context();
  solved c = solve_with(ctx2, tri.mesh, "problem", tri.problem, "order", tri.order, NULL);
  /* a mesh below the trial's size: the record only */
  CHECK_MSG(!c.status && !strcmp(c.result->local_element_source, "cache") &&
                c.result->local_element_wg == chosen,
            "second context: local_element %d from %s, expected %d from the record",
            c.status ? -1 : c.result->local_element_wg,
            c.status ? "a failed solve" : c.result->local_element_source, chosen);
  printf("trial chose work-groups of %d (0: the split kernels); second context: %s\n", chosen,
         c.status ? "failed" : c.result->local_element_source);
  solved_destroy(&c);
  hdgcl_context_destroy(&ctx2);
  hdgcl_context_destroy(&ctx);
  test_cache_dir_remove(cache_dir);
  CHECK_DONE();
}
