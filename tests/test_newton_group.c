/* Newton's element kernel in work-groups (cl/pipeline/local_newton_group.cl,
 * docs/nonlinear.md section 7) against the one-work-item kernel
 * (cl/pipeline/local_newton.cl's newton_element), $HDGCL_NEWTON_KERNEL=group:WG
 * against item, on every element type: affine triangles and tetrahedra,
 * rectangles and distorted (bilinear) quadrilaterals, hexahedra and distorted
 * (trilinear) hexahedra; nonlinear diffusion (kappa(u), N_k of (N5)),
 * Burgers (N15)-(N16), paper 001's outflow (N25) and a DIRK stage's element
 * load.  The same Newton steps, each step's residual and the solution (u, q,
 * u*, trace) to 1e-12 relative; work-groups of 16, of 7 (not a power of
 * two: every strided loop's remainder) and of 64 and 128 (more work-items than
 * some phases have entries).  A bad $HDGCL_NEWTON_KERNEL is a
 * one-line error. */
#include "hdg_test.h"

static solved run(hdgcl_context dev, const char *kernel, const char *mesh, const char *problem,
                  const char *order, bool transient) {
  setenv("HDGCL_NEWTON_KERNEL", kernel, 1);
  solved s = transient ? solve_with(dev, mesh, "problem", problem, "order", order, "scheme", "dirk2",
                                    "time-step", "0.1", "final-time", "0.2", NULL)
                       : solve_with(dev, mesh, "problem", problem, "order", order, "newton-forcing",
                                    "fixed", NULL);
  unsetenv("HDGCL_NEWTON_KERNEL");
  return s;
}

int main(void) {
  static const struct {
    const char *mesh, *problem, *order, *wg;
    bool transient;
  } cases[] = {{"square:3", "burgers", "2", "group:16", false},
               {"square:2", "nonlinear-diffusion", "3", "group:7", false},
               {"quad:4", "burgers-paper001", "3", "group:16", false},
               {"quad:3,distort=0.15", "burgers", "2", "group:7", false},
               {"quad:3,distort=0.15", "nonlinear-heat", "2", "group:16", true},
               {"cube:1", "burgers", "2", "group:16", false},
               {"hex:1", "burgers", "2", "group:7", false},
               {"hex:2,distort=0.1", "nonlinear-diffusion", "1", "group:16", false},
               /* groups larger than some phases' work (K_e's NT (NT + 1) = 42 entries
                * here): the GPU sizes, which PoCL once miscompiled */
               {"square:2", "burgers", "1", "group:128", false},
               {"quad:4", "burgers-paper001", "2", "group:64", false}};
  hdgcl_context dev = test_device();
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    solved a = run(dev, "item", cases[i].mesh, cases[i].problem, cases[i].order, cases[i].transient);
    solved b = run(dev, cases[i].wg, cases[i].mesh, cases[i].problem, cases[i].order, cases[i].transient);
    CHECK_OK(a.status);
    CHECK_OK(b.status);
    if (!a.status && !b.status) {
      const hdgcl_result *ra = a.result, *rb = b.result;
      double d = solution_difference(&b, &a, 1), dr = 0.0;
      bool same = ra->newton_steps == rb->newton_steps && ra->newton_steps_all == rb->newton_steps_all;
      for (int k = 0; same && k <= ra->newton_steps; k++)
        dr = fmax(dr, fabs(rb->newton_history[k] - ra->newton_history[k]) / ra->newton_history[0]);
      int sa = cases[i].transient ? ra->newton_steps_all : ra->newton_steps;
      int sb = cases[i].transient ? rb->newton_steps_all : rb->newton_steps;
      printf("%s %s p=%s %s vs item: %d, %d Newton steps, solution %.2e, residual history %.2e\n",
             cases[i].problem, cases[i].mesh, cases[i].order, cases[i].wg, sa, sb, d, dr);
      CHECK_MSG(same && sa > 0, "%s %s: Newton steps %d, %d", cases[i].problem, cases[i].mesh, sa, sb);
      CHECK_MSG(d < 1e-12, "%s %s: group vs item %g", cases[i].problem, cases[i].mesh, d);
      CHECK_MSG(dr < 1e-12, "%s %s: residual histories %g", cases[i].problem, cases[i].mesh, dr);
    }
    solved_destroy(&a);
    solved_destroy(&b);
  }
  /* a bad switch: one line naming it */
  solved s = run(dev, "groups", "square:2", "burgers", "1", false);
  CHECK(s.status == HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "HDGCL_NEWTON_KERNEL=groups") != NULL);
  solved_destroy(&s);
  hdgcl_context_destroy(&dev);
  CHECK_DONE();
}
