/* Reference path, local stage (see reference_local.c). */
#ifndef HDGCL_HOST_REFERENCE_LOCAL_H
#define HDGCL_HOST_REFERENCE_LOCAL_H

#include "discretisation/discretisation.h"

/* The matrices of (F6) for one element, and its condensed system. Row-major. */
typedef struct reference_element {
  hdg_sizes sz;
  double *a;     /* [np][np]            A */
  double *b;     /* [dim][np][np]       B_k */
  double *c;     /* [dim][np][nt]       C_k */
  double *d;     /* [np][np]            D */
  double *e;     /* [np][nt]            E (the u-equation's, F22) */
  double *et;    /* [np][nt]            E_t (the trace equation's, F22; = E without convection) */
  double *h;     /* [nt][nt]            H */
  double *f;     /* [np]                F */
  double *achol; /* [np][np]            Cholesky factor of A */
  double *s;     /* [np][np]            LU factors of S (pivots in piv) */
  double *wf;    /* [np][nt+1]          [W | F] */
  double *wl;    /* [np][nt]            W_t = E_t - sum_k B_k^T A^-1 C_k (F23) */
  double *k;     /* [nt][nt]            K_e */
  double *z;     /* [np][nt+1]          S^-1 [W | F] */
  double *scratch; /* [np][max(np, nt)] */
  double *my;      /* [dim][np][np + nt]  M^-1 [B_l | C_l] (a tensor kappa only) */
  int *piv;        /* [np] */
} reference_element;

int reference_element_create(const hdg_sizes *sz, reference_element *el);
void reference_element_destroy(reference_element *el);

/* Integrates the matrices A..H, F of (F6), (F22) on element e (the first
 * eight fields; the vector problems use them with kappa = 1, c = 0, beta = 0,
 * docs/elasticity.md (E5)). */
int reference_element_matrices(const hdg_discretisation *disc, int32_t e, reference_element *el);

/* Integrates (F6) on element e and condenses it: fills every field. */
int reference_element_condense(const hdg_discretisation *disc, int32_t e, reference_element *el);

/* g_e = W_t^T S^-1 F (F10), (F23), nt values. */
void reference_element_rhs(const reference_element *el, double *g);

#endif
