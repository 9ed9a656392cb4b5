/* Shared by cl/pipeline/local_newton.cl (one work-item per element) and
 * cl/pipeline/local_newton_group.cl (one work-group per element): the sizes
 * and layouts of Newton's element scratch (docs/nonlinear.md (N5)-(N6)). */
#define FACE_DIRICHLET 1         /* face_bc (host/fem/hdg.h) */
#define FACE_NEUMANN 2
#define NL ((DIM + 1) * NP)      /* element unknowns (q_1..q_d, u) */
#define NA (NL + NT + 1)         /* columns of the augmented matrix */
#define AUG(i, j) aug[(long)(i) * NA + (j)]
#define JTL(m, l) jtl[(long)(m) * NL + (l)]
/* K_e[a][b], column-major (NT+1)^2 blocks as cl/pipeline/assemble.cl reads them */
#define KE(a, b) k[(long)(b) * (NT + 1) + (a)]

/* kappa(u) and kappa'(u) (N1) at the point x: the problem's if nonlinear (a
 * user's expression and its symbolic derivative, docs/nonlinear.md section
 * 1), else the element's constant. */
double newton_kappa(problem_params pp, int nonlinear, double kappa_e, const double *x, double u,
                    double *dk) {
  if (nonlinear) return USER_ON(pp) ? USER_FN(kappa_u)(x[0], x[1], x[2], u, dk) : problem_kappa_u(pp, u, dk);
  *dk = 0.0;
  return kappa_e;
}
