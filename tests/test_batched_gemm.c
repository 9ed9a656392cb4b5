/* cl/core/batched_gemm.cl and its choice against CLBlast (host/core/batched_gemm.c):
 * - every transpose pair, sizes below, at and across a tile (ragged edges),
 *   slices of k that do not divide it, padded leading dimensions, offsets,
 *   gaps between batch members, alpha and beta, in several tile
 *   configurations, against a host triple loop (gemm_check.h, 1e-13);
 * - a batch past one launch's limit of work-items runs in pieces (the
 *   limit lowered to three matrices, and below one);
 * - beta = 0 does not read C (NaN there stays out of the product);
 * - names that are no tiling, or one the device cannot run, are argument
 *   errors naming the variable;
 * - HDGCL_BATCHED_GEMM=tuned times CLBlast and the configurations and
 *   writes a record that a second choice reads ("cache"); without a trial
 *   the shape keeps CLBlast;
 * - whole solves whose local stage runs every product through the tiled
 *   kernel give CLBlast's trace matrix and u to 1e-12: triangles (Z after an
 *   explicit S^-1, K by the GEMM, in chunks of 7), tetrahedra elasticity,
 *   and the mapped stage's five products on hexahedra (A^-1), distorted
 *   quadrilaterals with convection (mapped_factor, W and W_t) and hexahedra
 *   elasticity. */
#include "gemm_check.h"
#include "hdg_test.h"

static char cache_dir[256];

static void check_products(hdgcl_context ctx) {
  const char *tilings[] = {"tiled", "tiled:12x20:3x5:7", "tiled:8x4:1x1:3"};
  const gemm_case cases[] = {
      {false, false, 13, 7, 10, 3, 0, 0, 0, 1.0, 0.0},
      {true, false, 13, 7, 10, 3, 2, 5, 3, -1.0, 1.0},
      {false, true, 9, 17, 5, 2, 1, 0, 7, 0.5, -2.0},
      {true, true, 6, 5, 11, 4, 0, 3, 0, 2.0, 0.25},
      {true, false, 70, 45, 33, 2, 3, 1, 1, -1.0, 1.0},
      {false, false, 65, 66, 67, 1, 0, 0, 0, 1.0, 0.0},
      {false, true, 1, 1, 1, 5, 0, 0, 0, 1.0, 1.0},
  };
  for (size_t t = 0; t < sizeof tilings / sizeof *tilings; t++)
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
      CHECK_OK(gemm_check_by(ctx, &cases[i], tilings[t]));
}

/* A batch past one launch's limit runs in pieces, each with its own offsets:
 * the limit lowered to 3 matrices (13 x 7 by 8 x 4 tiles of 1 x 1: 4 tiles
 * of 32 work-items each), and below one matrix (one per launch). */
static void check_pieces(hdgcl_context ctx) {
  const gemm_case cases[] = {
      {false, false, 13, 7, 10, 7, 1, 4, 2, 1.0, 0.5},
      {true, false, 13, 7, 10, 5, 0, 2, 3, -1.0, 1.0},
  };
  const size_t launch_max[] = {3 * 4 * 32, 100};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    CHECK_OK(gemm_check_launches(ctx, &cases[i], "tiled:8x4:1x1:3", launch_max[i]));
}

/* beta = 0 with NaN in C: C = alpha A B exactly, no NaN read. */
static void check_beta_zero(hdgcl_context ctx) {
  const size_t m = 5, n = 4, k = 3;
  double a[15], b[12], c[20], nan_c[20];
  for (size_t i = 0; i < 15; i++) a[i] = (double)i - 7.0;
  for (size_t i = 0; i < 12; i++) b[i] = 0.5 * (double)i;
  for (size_t i = 0; i < 20; i++) nan_c[i] = NAN;
  hdgcl_buffer da, db, dc;
  CHECK_OK(hdgcl_buffer_create(ctx, sizeof a, "A", &da));
  CHECK_OK(hdgcl_buffer_create(ctx, sizeof b, "B", &db));
  CHECK_OK(hdgcl_buffer_create(ctx, sizeof c, "C", &dc));
  CHECK_OK(hdgcl_buffer_write(ctx, &da, 0, sizeof a, a));
  CHECK_OK(hdgcl_buffer_write(ctx, &db, 0, sizeof b, b));
  CHECK_OK(hdgcl_buffer_write(ctx, &dc, 0, sizeof c, nan_c));
  batched_gemm g;
  batched_gemm_init(&g, false, false, m, n, k, m, k, m);
  CHECK_OK(batched_gemm_use(ctx, &g, "tiled:8x8:2x2:2", ""));
  gemm_operands o = {.a = da.mem, .b = db.mem, .c = dc.mem};
  CHECK_OK(batched_gemm_run(ctx, &g, 2.0, &o, 0.0, 1));
  CHECK_OK(hdgcl_buffer_read(ctx, &dc, 0, sizeof c, c));
  int wrong = 0;
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < m; i++) {
      double s = 0.0;
      for (size_t l = 0; l < k; l++) s += a[i + l * m] * b[l + j * k];
      wrong += !(c[i + j * m] == 2.0 * s);
    }
  CHECK_MSG(wrong == 0, "beta = 0: %d entries of C differ from alpha A B (C held NaN)", wrong);
  batched_gemm_destroy(&g);
  hdgcl_buffer_release(ctx, &da);
  hdgcl_buffer_release(ctx, &db);
  hdgcl_buffer_release(ctx, &dc);
}

static void check_names(hdgcl_context ctx) {
  const char *bad[] = {"cuda",           "tiled:",           "tiled:64x64:3x4:16",
                       "tiled:64x64:4x4:0", "tiled:4096x4096:1x1:1", "tiled:8x8:2x2:2x",
                       "tiled:0x8:1x1:1"};
  batched_gemm g;
  batched_gemm_init(&g, true, false, 10, 10, 10, 10, 10, 10);
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    CHECK_FAILS(batched_gemm_use(ctx, &g, bad[i], "HDGCL_BATCHED_GEMM="), HDGCL_ERROR_ARGUMENT);
    CHECK_MSG(strstr(hdgcl_last_error(), "HDGCL_BATCHED_GEMM=") != NULL, "%s: %s", bad[i],
              hdgcl_last_error());
    CHECK_MSG(!strcmp(g.name, "clblast") && !g.kernel, "%s left %s behind", bad[i], g.name);
  }
  batched_gemm_destroy(&g);
}

/* The choice: no trial keeps CLBlast; tuned runs the trial and stores it;
 * a second context reads the record; a bad value names the variable. */
static void check_choice(void) {
  hdgcl_context ctx = test_context_cached(cache_dir, false);
  const size_t m = 20, n = 21, k = 20, batch = 64;
  hdgcl_buffer da, db, dc;
  CHECK_OK(hdgcl_buffer_create(ctx, m * k * batch * 8, "A", &da));
  CHECK_OK(hdgcl_buffer_create(ctx, k * n * batch * 8, "B", &db));
  CHECK_OK(hdgcl_buffer_create(ctx, m * n * batch * 8, "C", &dc));
  CHECK_OK(hdgcl_buffer_fill(ctx, &da, 0, m * k * batch * 8, 0.5));
  CHECK_OK(hdgcl_buffer_fill(ctx, &db, 0, k * n * batch * 8, 0.25));
  gemm_operands o = {.a = da.mem, .a_stride = m * k, .b = db.mem, .b_stride = k * n,
                     .c = dc.mem, .c_stride = m * n};
  batched_gemm g;
  batched_gemm_init(&g, false, false, m, n, k, m, k, m);
  unsetenv("HDGCL_BATCHED_GEMM");
  CHECK_OK(batched_gemm_choose(ctx, &g, false, false));
  CHECK_OK(batched_gemm_trial(ctx, &g, 0.0, &o, batch)); /* nothing to try */
  CHECK_MSG(!strcmp(g.name, "clblast") && !strcmp(g.source, "default") && !g.untried,
            "no trial: %s from %s", g.name, g.source);
  setenv("HDGCL_BATCHED_GEMM", "tuned", 1);
  CHECK_OK(batched_gemm_choose(ctx, &g, false, false));
  CHECK(g.untried);
  CHECK_OK(batched_gemm_trial(ctx, &g, 0.0, &o, batch));
  CHECK_MSG(!strcmp(g.source, "trial"), "tuned: %s from %s", g.name, g.source);
  char chosen[48];
  snprintf(chosen, sizeof chosen, "%s", g.name);
  printf("trial at %zux%zux%zu, batch %zu: %s\n", m, n, k, batch, chosen);
  /* the product of the chosen implementation is right */
  double c[20 * 21];
  CHECK_OK(batched_gemm_run(ctx, &g, 1.0, &o, 0.0, batch));
  CHECK_OK(hdgcl_buffer_read(ctx, &dc, (batch - 1) * m * n * 8, sizeof c, c));
  int wrong = 0;
  for (size_t i = 0; i < m * n; i++) wrong += c[i] != 0.125 * (double)k;
  CHECK_MSG(wrong == 0, "%s: %d entries of the last product wrong", chosen, wrong);
  batched_gemm_destroy(&g);
  hdgcl_context ctx2 = test_context_cached(cache_dir, false);
  batched_gemm_init(&g, false, false, m, n, k, m, k, m);
  CHECK_OK(batched_gemm_choose(ctx2, &g, false, false));
  CHECK_MSG(!strcmp(g.source, "cache") && !strcmp(g.name, chosen),
            "second context: %s from %s, expected %s from cache", g.name, g.source, chosen);
  batched_gemm_destroy(&g);
  hdgcl_context_destroy(&ctx2);
  setenv("HDGCL_BATCHED_GEMM", "fastest", 1);
  batched_gemm_init(&g, false, false, m, n, k, m, k, m);
  CHECK_FAILS(batched_gemm_choose(ctx, &g, true, false), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "HDGCL_BATCHED_GEMM=fastest") != NULL);
  unsetenv("HDGCL_BATCHED_GEMM");
  hdgcl_buffer_release(ctx, &da);
  hdgcl_buffer_release(ctx, &db);
  hdgcl_buffer_release(ctx, &dc);
  hdgcl_context_destroy(&ctx);
}

typedef struct {
  const char *mesh, *problem, *order, *chunk;
} solve_case;

static solved solve_gemm(hdgcl_context ctx, const solve_case *c, const char *gemm) {
  solved s = solve_with_env(ctx, "HDGCL_BATCHED_GEMM", gemm, c->mesh, c->problem, c->order, c->chunk);
  CHECK_MSG(!s.status, "%s on %s p = %s, HDGCL_BATCHED_GEMM=%s: %s", c->problem, c->mesh,
            c->order, gemm, s.status ? hdgcl_last_error() : "");
  return s;
}

/* Case c by CLBlast and by `tiled`: the same trace matrix and u to 1e-12. */
static void check_solve(hdgcl_context ctx, const solve_case *c, const char *tiled) {
  solved s[2] = {solve_gemm(ctx, c, "clblast"), solve_gemm(ctx, c, tiled)};
  if (!s[0].status && !s[1].status) {
    const hdgcl_result *r = s[1].result;
    CHECK_MSG(!strcmp(r->local_gemm_z, tiled) && !strcmp(r->local_gemm_k, tiled) &&
                  !strcmp(r->local_gemm_k_source, "environment"),
              "%s on %s: GEMMs %s and %s (%s)", c->problem, c->mesh, r->local_gemm_z,
              r->local_gemm_k, r->local_gemm_k_source);
    int rows, slots, nf;
    const double *v0, *v1, *u0, *u1;
    CHECK_OK(hdgcl_solver_matrix(s[0].solver, &rows, &slots, &nf, &v0, NULL, NULL));
    CHECK_OK(hdgcl_solver_matrix(s[1].solver, NULL, NULL, NULL, &v1, NULL, NULL));
    /* the trace of the first faces, as many values as the system has rows */
    CHECK_OK(hdgcl_solver_solution(s[0].solver, NULL, NULL, NULL, &u0));
    CHECK_OK(hdgcl_solver_solution(s[1].solver, NULL, NULL, NULL, &u1));
    double dk = relative_difference(v1, v0, (size_t)rows * slots * nf * nf);
    double du = relative_difference(u1, u0, (size_t)rows * nf);
    printf("%s on %s p = %s, %s against clblast: trace matrix %.1e, trace solution %.1e\n",
           c->problem, c->mesh, c->order, tiled, dk, du);
    CHECK_MSG(dk < 1e-12 && du < 1e-12,
              "%s on %s p = %s: trace matrix differs by %.3e, trace solution by %.3e",
              c->problem, c->mesh, c->order, dk, du);
  }
  solved_destroy(&s[0]);
  solved_destroy(&s[1]);
}

int main(void) {
  test_cache_dir_create(cache_dir, sizeof cache_dir, "hdgcl-gemm-test");
  unsetenv("HDGCL_BATCHED_GEMM");
  hdgcl_context ctx = test_device();
  check_products(ctx);
  check_pieces(ctx);
  check_beta_zero(ctx);
  check_names(ctx);
  check_choice();

  /* Solves: Z after an explicit S^-1 and K by the GEMM, where those run. */
  setenv("HDGCL_LOCAL_INVERT", "cholesky", 1);
  setenv("HDGCL_LOCAL_SCHUR", "gemm", 1);
  setenv("HDGCL_LOCAL_ELEMENT", "off", 1);
  const solve_case affine[] = {{"square:4,perturb=0.2,seed=6", "helmholtz-sin", "5", "7"},
                               {"cube:1", "poisson-mixed", "3", NULL}};
  for (int i = 0; i < 2; i++) check_solve(ctx, &affine[i], "tiled:32x32:2x2:8");
  setenv("HDGCL_LOCAL_INVERT", "gauss-jordan", 1);
  const solve_case other[] = {{"cube:1", "elasticity", "2", NULL},
                              {"hex:2,distort=0.1", "helmholtz-sin", "2", "3"},
                              {"quad:3,distort=0.1", "convection-diffusion", "3", NULL},
                              {"hex:2", "elasticity", "1", NULL}};
  for (int i = 0; i < 4; i++)
    check_solve(ctx, &other[i], i % 2 ? "tiled:12x20:3x5:7" : "tiled:64x64:4x4:16");
  unsetenv("HDGCL_LOCAL_INVERT");
  unsetenv("HDGCL_LOCAL_SCHUR");
  unsetenv("HDGCL_LOCAL_ELEMENT");
  hdgcl_context_destroy(&ctx);
  test_cache_dir_remove(cache_dir);
  CHECK_DONE();
}
