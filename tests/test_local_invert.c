/* The local stage's S^-1 kernels and their choice (host/pipeline/local.c): in a
 * temporary cache directory, a mesh below the trial's size takes the default
 * (Cholesky; Gauss-Jordan when nonsymmetric) and writes no record; with
 * HDGCL_LOCAL_INVERT=tuned the first solve times the candidates and writes
 * one tuning record (*.tune), a second context reuses it ("cache"), a
 * corrupt record is replaced by a new trial, --no-cache times again and
 * writes nothing; HDGCL_LOCAL_INVERT forces a kernel, and Cholesky,
 * Gauss-Jordan (two work-group sizes), the tiled Gauss-Jordan and the tiled
 * Gauss-Jordan solve of [S | W F] (each grid) give the same solution, also on
 * quadrilaterals (mapped elements); the nonsymmetric problem refuses
 * Cholesky, its trial picks a Gauss-Jordan, and the Gauss-Jordan kernels
 * agree there;
 * bad HDGCL_LOCAL_INVERT values are errors naming the variable.  K = K0 -
 * [W | F]^T Z by local_schur (the default below the trial's size) and by
 * the batched GEMM give the same solution (symmetric, convection, elasticity,
 * quadrilaterals); HDGCL_LOCAL_SCHUR=tuned times both and writes a record;
 * a bad value is an error naming the variable.  The column solves
 * (cholesky-columns, small SPD S only) and K0 from its factors before
 * the GEMM give the same solution in chunks.  Mapped elements give the same
 * solution with mapped_factor's work copy in local and in global memory.
 * local_schur with Z staged in local memory and local_build with W through a
 * local tile assemble bitwise the trace matrix of their unstaged forms. */
#include <dirent.h>
#include <unistd.h>

#include "hdg_test.h"

static char cache_dir[256];

static hdgcl_context open_context(bool no_cache) { return test_context_cached(cache_dir, no_cache); }

/* Number of *.tune files in the cache directory; the path of the last one. */
static int count_records(char *last, size_t n) {
  DIR *d = opendir(cache_dir);
  if (!d) return 0;
  int count = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len > 5 && !strcmp(e->d_name + len - 5, ".tune")) {
      count++;
      if (last) snprintf(last, n, "%s/%s", cache_dir, e->d_name);
    }
  }
  closedir(d);
  return count;
}

static solved solve_case(hdgcl_context ctx, const char *problem) {
  return solve_with(ctx, "square:4,perturb=0.2,seed=6", "problem", problem, "order", "5", NULL);
}

static void expect_source(const solved *s, const char *source) {
  CHECK(s->status == 0);
  if (s->status) return;
  CHECK_MSG(s->result->local_invert && !strcmp(s->result->local_invert_source, source),
            "local_invert %s:%d from %s, expected from %s", s->result->local_invert,
            s->result->local_invert_wg, s->result->local_invert_source, source);
}

/* A solve with HDGCL_LOCAL_INVERT=value. */
static solved forced(hdgcl_context ctx, const char *problem, const char *value) {
  setenv("HDGCL_LOCAL_INVERT", value, 1);
  solved s = solve_case(ctx, problem);
  unsetenv("HDGCL_LOCAL_INVERT");
  return s;
}

/* The relative difference of u between two solves of the same case (NP = 21
 * values of u per element, p = 5 triangles, unless n says otherwise);
 * printed under `what` and checked below 1e-12. */
static void expect_same_u(const solved *ref, const solved *s, size_t n, const char *what) {
  if (ref->status || s->status) {
    CHECK_MSG(0, "%s: a solve failed: %s", what, hdgcl_last_error());
    return;
  }
  const double *u0, *u1;
  CHECK_OK(hdgcl_solver_solution(ref->solver, &u0, NULL, NULL, NULL));
  CHECK_OK(hdgcl_solver_solution(s->solver, &u1, NULL, NULL, NULL));
  if (!n) n = (size_t)ref->result->num_elements * 21;
  double diff = relative_difference(u1, u0, n);
  printf("%s: u differs by %.1e\n", what, diff);
  CHECK_MSG(diff < 1e-12, "%s: u differs by %.3e", what, diff);
}

/* A case solved two ways: mesh, problem, order and the values of u per element. */
typedef struct {
  const char *mesh, *problem, *order;
  size_t per;
} pair_case;

/* The two solves of case c give the same u (expect_same_u, under "PROBLEM on
 * MESH: what"); both are destroyed. */
static void expect_same_pair(solved s[2], const pair_case *c, const char *what) {
  char text[128];
  snprintf(text, sizeof text, "%s on %s: %s", c->problem, c->mesh, what);
  if (!s[0].status) expect_same_u(&s[0], &s[1], (size_t)s[0].result->num_elements * c->per, text);
  solved_destroy(&s[0]);
  solved_destroy(&s[1]);
}

/* $var=value makes the default case fail with an argument error naming var. */
static void expect_rejected(hdgcl_context ctx, const char *var, const char *value) {
  setenv(var, value, 1);
  solved s = solve_case(ctx, "helmholtz-sin");
  unsetenv(var);
  CHECK_MSG(s.status == HDGCL_ERROR_ARGUMENT && strstr(hdgcl_last_error(), var), "%s=%s accepted",
            var, value);
  solved_destroy(&s);
}

/* Case c solved with $var set to each of values[0..1] (and $HDGCL_LOCAL_SCHUR
 * to local-schur; in chunks of `chunk` elements unless NULL) into s[0..1];
 * a failed solve is reported under `var`. */
static void solve_pair_env(hdgcl_context ctx, const pair_case *c, const char *var,
                           const char *const values[2], const char *chunk, solved s[2]) {
  for (int v = 0; v < 2; v++) {
    setenv("HDGCL_LOCAL_SCHUR", "local-schur", 1);
    setenv(var, values[v], 1);
    s[v] = chunk ? solve_with(ctx, c->mesh, "problem", c->problem, "order", c->order, "chunk",
                              chunk, NULL)
                 : solve_with(ctx, c->mesh, "problem", c->problem, "order", c->order, NULL);
    unsetenv(var);
    unsetenv("HDGCL_LOCAL_SCHUR");
    CHECK_MSG(s[v].status == 0, "%s on %s, %s=%s: %s", c->problem, c->mesh, var, values[v],
              s[v].status ? hdgcl_last_error() : "solved");
  }
}

/* The two solves of case c assembled bitwise the same trace matrix and give
 * the same u (expect_same_pair, which destroys both). */
static void expect_same_matrix(solved s[2], const pair_case *c, const char *what) {
  if (!s[0].status && !s[1].status) {
    int rows, slots, nf;
    const double *v0, *v1;
    CHECK_OK(hdgcl_solver_matrix(s[0].solver, &rows, &slots, &nf, &v0, NULL, NULL));
    CHECK_OK(hdgcl_solver_matrix(s[1].solver, NULL, NULL, NULL, &v1, NULL, NULL));
    CHECK_MSG(!memcmp(v0, v1, (size_t)rows * slots * nf * nf * sizeof(double)),
              "%s on %s: %s changes the trace matrix", c->problem, c->mesh, what);
  }
  expect_same_pair(s, c, what);
}

int main(void) {
  test_cache_dir_create(cache_dir, sizeof cache_dir, "hdgcl-tune-test");
  unsetenv("HDGCL_LOCAL_INVERT");
  unsetenv("HDGCL_LOCAL_SCHUR");

  /* A mesh below the trial's minimum size: the default method, no record. */
  hdgcl_context ctx = open_context(false);
  solved d0 = solve_case(ctx, "helmholtz-sin");
  expect_source(&d0, "default");
  CHECK(d0.status || !strcmp(d0.result->local_invert, "cholesky"));
  CHECK(count_records(NULL, 0) == 0);

  /* Trial (asked for: HDGCL_LOCAL_INVERT=tuned), record, reuse. */
  setenv("HDGCL_LOCAL_INVERT", "tuned", 1);
  solved a = solve_case(ctx, "helmholtz-sin");
  expect_source(&a, "trial");
  expect_same_u(&a, &d0, 0, "default (cholesky) against the trial's choice");
  solved_destroy(&d0);
  char record[512] = "";
  CHECK(count_records(record, sizeof record) == 1);
  hdgcl_context ctx2 = open_context(false);
  solved b = solve_case(ctx2, "helmholtz-sin");
  expect_source(&b, "cache");
  if (!a.status && !b.status) {
    CHECK(!strcmp(a.result->local_invert, b.result->local_invert) &&
          a.result->local_invert_wg == b.result->local_invert_wg);
    printf("trial chose %s:%d; the second context read it from the cache\n",
           a.result->local_invert, a.result->local_invert_wg);
  }
  solved_destroy(&b);

  /* A corrupt record: a new trial, and the record rewritten. */
  FILE *f = fopen(record, "w");
  CHECK(f != NULL);
  if (f) {
    fputs("bogus:0\n", f);
    fclose(f);
  }
  solved c = solve_case(ctx2, "helmholtz-sin");
  expect_source(&c, "trial");
  solved_destroy(&c);
  f = fopen(record, "r");
  char line[64] = "";
  CHECK(f && fgets(line, sizeof line, f) && strncmp(line, "bogus", 5) != 0);
  if (f) fclose(f);
  hdgcl_context_destroy(&ctx2);

  /* --no-cache: a trial every time, no record written. */
  CHECK(remove(record) == 0);
  hdgcl_context nc = open_context(true);
  solved d = solve_case(nc, "helmholtz-sin");
  expect_source(&d, "trial");
  CHECK(count_records(NULL, 0) == 0);
  solved_destroy(&d);
  hdgcl_context_destroy(&nc);
  unsetenv("HDGCL_LOCAL_INVERT");

  /* Forced kernels agree with each other (and with the trial's choice). */
  const char *variants[] = {"cholesky",
                            "gauss-jordan",
                            "gauss-jordan:128",
                            "gauss-jordan-tiled:64",
                            "gauss-jordan-tiled:121",
                            "gauss-jordan-tiled:256",
                            "gauss-jordan-tiled",
                            "gauss-jordan-solve:64",
                            "gauss-jordan-solve:121",
                            "gauss-jordan-solve:256",
                            "gauss-jordan-solve",
                            "cholesky-solve:1",
                            "cholesky-solve:16"};
  const int wgs[] = {0, 0, 128, 64, 121, 256, 256, 64, 121, 256, 256, 1, 16};
  for (int v = 0; v < 13; v++) {
    solved s = forced(ctx, "helmholtz-sin", variants[v]);
    expect_source(&s, "environment");
    char what[64];
    snprintf(what, sizeof what, "%s against the trial's choice", variants[v]);
    expect_same_u(&a, &s, 0, what);
    CHECK(s.status || !wgs[v] || s.result->local_invert_wg == wgs[v]);
    solved_destroy(&s);
  }
  /* Chunks of 5 elements: the solve kernels write Z at each chunk's offset. */
  setenv("HDGCL_LOCAL_INVERT", "cholesky-solve:16", 1); /* 5 of a group's 16 work-items work */
  solved cs5 = solve_with(ctx, "square:4,perturb=0.2,seed=6", "problem", "helmholtz-sin", "order",
                          "5", "chunk", "5", NULL);
  expect_same_u(&a, &cs5, 0, "cholesky-solve:16 in chunks of 5");
  solved_destroy(&cs5);
  setenv("HDGCL_LOCAL_INVERT", "gauss-jordan-solve:64", 1);
  solved ch = solve_with(ctx, "square:4,perturb=0.2,seed=6", "problem", "helmholtz-sin", "order", "5",
                         "chunk", "5", NULL);
  unsetenv("HDGCL_LOCAL_INVERT");
  expect_same_u(&a, &ch, 0, "gauss-jordan-solve:64 in chunks of 5");
  solved_destroy(&ch);
  solved_destroy(&a);

  /* Nonsymmetric: Gauss-Jordan only (either kernel), the same solution. */
  solved n0 = solve_case(ctx, "convection-diffusion"); /* before a record exists */
  expect_source(&n0, "default");
  CHECK(n0.status || !strcmp(n0.result->local_invert, "gauss-jordan"));
  solved_destroy(&n0);
  solved n1 = forced(ctx, "convection-diffusion", "tuned");
  CHECK(n1.status == 0 && !strncmp(n1.result->local_invert, "gauss-jordan", 12));
  solved n3 = forced(ctx, "convection-diffusion", "gauss-jordan");
  const char *nonsym[] = {"gauss-jordan-tiled:121", "gauss-jordan-solve:121"};
  for (int v = 0; v < 2; v++) {
    solved n4 = forced(ctx, "convection-diffusion", nonsym[v]);
    char what[64];
    snprintf(what, sizeof what, "convection: %s against gauss-jordan", nonsym[v]);
    expect_same_u(&n3, &n4, 0, what);
    solved_destroy(&n4);
  }
  solved_destroy(&n1);
  solved_destroy(&n3);

  /* Mapped elements (quadrilaterals): the solve kernel against Gauss-Jordan. */
  const char *quad[] = {"gauss-jordan", "gauss-jordan-solve"};
  solved qs[2];
  for (int v = 0; v < 2; v++) {
    setenv("HDGCL_LOCAL_INVERT", quad[v], 1);
    qs[v] = solve_with(ctx, "quad:3,distort=0.1", "problem", "helmholtz-sin", "order", "4",
                       NULL);
    unsetenv("HDGCL_LOCAL_INVERT");
    CHECK_MSG(qs[v].status == 0, "quad:3 with %s: %s", quad[v], hdgcl_last_error());
  }
  if (!qs[0].status) /* u of (u, q) */
    expect_same_u(&qs[0], &qs[1], (size_t)qs[0].result->element_dofs / 3,
                  "quad:3: gauss-jordan-solve against gauss-jordan");
  solved_destroy(&qs[0]);
  solved_destroy(&qs[1]);
  /* K by local_schur and by the batched GEMM. */
  const pair_case kc[] = {{"square:4,perturb=0.2,seed=6", "helmholtz-sin", "5", 21},
                          {"square:4,perturb=0.2,seed=6", "convection-diffusion", "5", 21},
                          {"square:3", "elasticity", "3", 20},
                          {"quad:3,distort=0.1", "helmholtz-sin", "4", 25}};
  for (int ci = 0; ci < 8; ci++) {
    solved ks[2];
    const char *method[] = {"local-schur", "gemm"};
    for (int v = 0; v < 2; v++) {
      setenv("HDGCL_LOCAL_SCHUR", method[v], 1);
      const pair_case *kp = &kc[ci % 4];
      /* the GEMM in chunks of 7 the second time: K and Z at each chunk's offsets */
      ks[v] = v && ci >= 4 ? solve_with(ctx, kp->mesh, "problem", kp->problem, "order", kp->order,
                                        "chunk", "7", NULL)
                           : solve_with(ctx, kp->mesh, "problem", kp->problem, "order", kp->order, NULL);
      unsetenv("HDGCL_LOCAL_SCHUR");
      CHECK_MSG(ks[v].status == 0 && !strcmp(ks[v].result->local_schur, method[v]) &&
                    !strcmp(ks[v].result->local_schur_source, "environment"),
                "%s %s with K by %s: %s", kp->problem, kp->mesh, method[v],
                ks[v].status ? hdgcl_last_error() : ks[v].result->local_schur);
    }
    expect_same_pair(ks, &kc[ci % 4], ci < 4 ? "K by the GEMM against local-schur"
                                             : "K by the GEMM in chunks of 7 against local-schur");
  }
  /* local_schur with its work-group's Z staged in local memory and read from
   * global memory (HDGCL_LOCAL_SCHUR_STAGE; PoCL stages only when asked): the
   * same products in the same order, so the trace matrix and u are bitwise
   * equal.  local_schur_k0
   * (tetrahedra, triangles; chunks of 7 elements, so groups meet chunk ends),
   * local_schur (elasticity, convection).  Groups are whole elements: for
   * tetrahedra p = 4 two, 2 x 61 rows and 34 KiB of Z (a third would pass
   * the 40 KiB allowed). */
  const pair_case sc[] = {{"cube:2", "helmholtz-sin", "1", 4},
                          {"square:4,perturb=0.2,seed=6", "helmholtz-sin", "3", 10},
                          {"square:3", "elasticity", "2", 12},
                          {"square:4,perturb=0.2,seed=6", "convection-diffusion", "3", 10},
                          {"cube:1", "helmholtz-sin", "4", 35}};
  const char *const off_on[] = {"off", "on"};
  for (int ci = 0; ci < 5; ci++) {
    solved ss[2];
    solve_pair_env(ctx, &sc[ci], "HDGCL_LOCAL_SCHUR_STAGE", off_on, ci == 0 ? "7" : NULL, ss);
    for (int v = 0; v < 2; v++)
      CHECK_MSG(ss[v].status || (ss[v].result->local_schur_stage > 0) == (v == 1),
                "%s on %s, HDGCL_LOCAL_SCHUR_STAGE=%s: %d bytes staged", sc[ci].problem,
                sc[ci].mesh, off_on[v], ss[v].result->local_schur_stage);
    if (!ss[1].status && ci == 4)
      CHECK_MSG(ss[1].result->local_schur_wg == 122 && ss[1].result->local_schur_stage == 34160,
                "tetrahedra p = 4: work-groups of %d, %d bytes staged; expected 122, 34160",
                ss[1].result->local_schur_wg, ss[1].result->local_schur_stage);
    expect_same_matrix(ss, &sc[ci], "K with Z staged in local memory against Z from global memory");
  }
  /* local_build's W through a local tile and straight from the tables
   * (HDGCL_LOCAL_BUILD_TILE; by default only where the tables' slices outgrow
   * the cache, tetrahedra from p = 6): the same products, bitwise.  One and
   * several elements per work-group, symmetric and nonsymmetric ([W_t | F]). */
  const pair_case tc[] = {{"cube:1", "helmholtz-sin", "4", 35},
                          {"cube:2", "helmholtz-sin", "1", 4},
                          {"cube:1", "convection-diffusion", "3", 20},
                          {"square:4,perturb=0.2,seed=6", "convection-diffusion", "3", 10}};
  for (int ci = 0; ci < 4; ci++) {
    solved ts[2];
    solve_pair_env(ctx, &tc[ci], "HDGCL_LOCAL_BUILD_TILE", off_on, NULL, ts);
    expect_same_matrix(ts, &tc[ci], "W through a local tile against W from the tables");
  }
  /* Mapped elements: A^-1 = (M / kappa)^-1 by the tiled Gauss-Jordan, X = A^-1 Y,
   * q = -X [u; lambda], against M = L L^T, X = Ls Y, q = -Ls^T X [u; lambda]
   * (HDGCL_MAPPED_INVERSE): other roundings, so u and q agree to 1e-12 and
   * the trace matrices to 1e-12 relative.  Quadrilaterals with kappa 1 and 10
   * (A = M / kappa), hexahedra p = 3 (M is 64 x 64), convection on distorted
   * quadrilaterals (nonsymmetric: W_t too). */
  const pair_case mi[] = {{"quad:4", "kappa-jump", "4", 25},
                          {"hex:2", "helmholtz-sin", "3", 64},
                          {"quad:3,distort=0.1", "convection-diffusion", "3", 16}};
  for (int ci = 0; ci < 3; ci++) {
    solved ms[2];
    solve_pair_env(ctx, &mi[ci], "HDGCL_MAPPED_INVERSE", off_on, NULL, ms);
    if (!ms[0].status && !ms[1].status) {
      int rows, slots, nf;
      const double *v0, *v1, *q0, *q1;
      CHECK_OK(hdgcl_solver_matrix(ms[0].solver, &rows, &slots, &nf, &v0, NULL, NULL));
      CHECK_OK(hdgcl_solver_matrix(ms[1].solver, NULL, NULL, NULL, &v1, NULL, NULL));
      double dk = relative_difference(v1, v0, (size_t)rows * slots * nf * nf);
      CHECK_OK(hdgcl_solver_solution(ms[0].solver, NULL, &q0, NULL, NULL));
      CHECK_OK(hdgcl_solver_solution(ms[1].solver, NULL, &q1, NULL, NULL));
      /* element_dofs counts u and q, (1 + dim) Np per element */
      int dim = ms[0].mesh->dim;
      size_t nq = (size_t)ms[0].result->element_dofs / (dim + 1) * dim;
      double dq = relative_difference(q1, q0, nq);
      printf("%s on %s: A^-1 against Ls: K differs by %.1e, q by %.1e\n", mi[ci].problem,
             mi[ci].mesh, dk, dq);
      CHECK_MSG(dk < 1e-12 && dq < 1e-12, "%s on %s: A^-1 against Ls: K by %.3e, q by %.3e",
                mi[ci].problem, mi[ci].mesh, dk, dq);
    }
    expect_same_pair(ms, &mi[ci], "A^-1 against Ls");
  }
  { /* read on mapped meshes only: a bad value is an argument error naming it */
    setenv("HDGCL_MAPPED_INVERSE", "sometimes", 1);
    solved bad = solve_with(ctx, "quad:2", "order", "2", NULL);
    unsetenv("HDGCL_MAPPED_INVERSE");
    CHECK_MSG(bad.status == HDGCL_ERROR_ARGUMENT && strstr(hdgcl_last_error(), "HDGCL_MAPPED_INVERSE"),
              "HDGCL_MAPPED_INVERSE=sometimes accepted");
    solved_destroy(&bad);
  }
  expect_rejected(ctx, "HDGCL_LOCAL_BUILD_TILE", "maybe");
  expect_rejected(ctx, "HDGCL_LOCAL_SCHUR_STAGE", "yes");
  /* Z one column per work-item (local_solve_columns, small SPD S) against
   * Cholesky, the second solve in chunks of 7 elements (Z at each chunk's
   * offset); then K0 from its factors by local_k0 before the GEMM in
   * chunks of 7 against local_schur_k0 in one chunk (each chunk's faces'
   * orientations).  Tetrahedra p = 2 (S is 10 x 10), triangles p = 3,
   * quadrilaterals p = 2 (mapped: no K0 factors, K0 from the build). */
  const pair_case cc[] = {{"cube:2", "helmholtz-sin", "2", 10},
                          {"square:4,perturb=0.2,seed=6", "helmholtz-sin", "3", 10},
                          {"quad:3,distort=0.1", "helmholtz-sin", "2", 9}};
  for (int ci = 0; ci < 3; ci++)
    for (int step = 0; step < 2; step++) {
      const char *var = step == 0 ? "HDGCL_LOCAL_INVERT" : "HDGCL_LOCAL_SCHUR";
      const char *value[2] = {step == 0 ? "cholesky" : "local-schur",
                              step == 0 ? "cholesky-columns" : "gemm"};
      solved cs[2];
      for (int v = 0; v < 2; v++) {
        setenv(var, value[v], 1);
        cs[v] = v ? solve_with(ctx, cc[ci].mesh, "problem", cc[ci].problem, "order", cc[ci].order,
                               "chunk", "7", NULL)
                  : solve_with(ctx, cc[ci].mesh, "problem", cc[ci].problem, "order", cc[ci].order,
                               NULL);
        unsetenv(var);
        const char *used = cs[v].status ? "-"
                           : step == 0  ? cs[v].result->local_invert
                                        : cs[v].result->local_schur;
        CHECK_MSG(cs[v].status == 0 && !strcmp(used, value[v]), "%s on %s with %s=%s: %s",
                  cc[ci].problem, cc[ci].mesh, var, value[v],
                  cs[v].status ? hdgcl_last_error() : used);
      }
      expect_same_pair(cs, &cc[ci],
                       step == 0 ? "cholesky-columns in chunks of 7 against cholesky"
                                 : "K by local_k0 and the GEMM in chunks of 7 against local-schur");
    }
  solved big = forced(ctx, "helmholtz-sin", "cholesky-columns"); /* S is 21 x 21 */
  CHECK_MSG(big.status == HDGCL_ERROR_ARGUMENT && strstr(hdgcl_last_error(), "HDGCL_LOCAL_INVERT"),
            "HDGCL_LOCAL_INVERT=cholesky-columns accepted for p = 5 triangles");
  solved_destroy(&big);
  /* Mapped elements: mapped_factor with M in local and in global memory. */
  const pair_case mc[] = {{"quad:3,distort=0.1", "convection-diffusion", "4", 25},
                          {"hex:2,distort=0.1", "helmholtz-sin", "2", 27},
                          {"hex:2,distort=0.1", "elasticity", "2", 81}};
  for (int ci = 0; ci < 3; ci++) {
    solved ms[2];
    const char *scratch[] = {"local", "global"};
    for (int v = 0; v < 2; v++) {
      ms[v] = solve_with(ctx, mc[ci].mesh, "problem", mc[ci].problem, "order", mc[ci].order,
                         "scratch", scratch[v], NULL);
      CHECK_MSG(ms[v].status == 0, "%s %s with --scratch %s: %s", mc[ci].problem, mc[ci].mesh,
                scratch[v], hdgcl_last_error());
    }
    expect_same_pair(ms, &mc[ci], "mapped_factor in global against local memory");
  }
  int before = count_records(NULL, 0);
  setenv("HDGCL_LOCAL_SCHUR", "tuned", 1);
  solved kt = solve_case(ctx, "helmholtz-sin");
  CHECK_MSG(kt.status == 0 && !strcmp(kt.result->local_schur_source, "trial"),
            "HDGCL_LOCAL_SCHUR=tuned: K by %s from %s", kt.status ? "-" : kt.result->local_schur,
            kt.status ? "-" : kt.result->local_schur_source);
  CHECK(count_records(NULL, 0) == before + 1);
  solved_destroy(&kt);
  unsetenv("HDGCL_LOCAL_SCHUR");
  expect_rejected(ctx, "HDGCL_LOCAL_SCHUR", "clblast");
  solved n2 = forced(ctx, "convection-diffusion", "cholesky");
  CHECK(n2.status == HDGCL_ERROR_ARGUMENT && strstr(hdgcl_last_error(), "nonsymmetric"));
  solved_destroy(&n2);
  solved n5 = forced(ctx, "convection-diffusion", "cholesky-solve");
  CHECK(n5.status == HDGCL_ERROR_ARGUMENT && strstr(hdgcl_last_error(), "nonsymmetric"));
  solved_destroy(&n5);
  const char *bad[] = {"lu", "gauss-jordan:0", "gauss-jordan:100000", "gauss-jordan-tiled:100",
                       "gauss-jordan-solve:128"};
  for (int i = 0; i < 5; i++) expect_rejected(ctx, "HDGCL_LOCAL_INVERT", bad[i]);
  hdgcl_context_destroy(&ctx);

  test_cache_dir_remove(cache_dir);
  CHECK_DONE();
}
