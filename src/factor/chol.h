/*
 * Cholesky's lower factor on one process row (a 1 x Q grid), with a look-ahead of one
 * panel.  There every panel of sub(A) lies on one process, whole: its factorization is
 * LAPACK's dpotrf on the diagonal block and a local triangular solve below it, with no
 * message at all.  ScaLAPACK's PDPOTRF still runs it between two trailing updates, so the
 * other processes wait for it at every step.  Here the owner of panel p+1 first applies
 * panel p to its own block only, factors it and starts its broadcast, and only then
 * applies panel p to the rest of its columns; the others meanwhile apply panel p to
 * theirs.  The broadcast travels under those updates, and no process waits for a panel's
 * factorization.
 */
#ifndef HPD_FACTOR_CHOL_H
#define HPD_FACTOR_CHOL_H

#include "call.h"
#include "grid.h"

/* sub(A) = A(IA:IA+N-1, JA:JA+N-1), its first row and column on a block boundary, on a
 * 1 x Q grid; its lower triangle is replaced by L. */
typedef struct hpd_chol {
  int n;
  double *a;        /* the local array */
  hpd_matrix sub;   /* sub(A) */
  const hpd_call *call; /* grid position */
  const hpd_grid *grid;
} hpd_chol;

/* The bytes of buffers a call needs on every process, the same figure on each. */
uint64_t hpd_chol_bytes(const hpd_chol *c);

/*
 * Factors sub(A); collective over the grid, every process with its buffers (`space`,
 * hpd_chol_bytes of them).  Returns 0, or k > 0 where the leading minor of order k is
 * not positive definite: as in PDPOTRF, the panels before the failing one are factored
 * and applied to the whole trailing matrix, and the factorization stops there.  Frequency
 * phases and energy are booked under pdpotrf.
 */
int hpd_chol_lower(const hpd_chol *c, double *space);

#endif
