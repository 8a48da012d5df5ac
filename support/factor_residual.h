/*
 * The factorization's residual, as ScaLAPACK's own testers compute it: the matrix is
 * rebuilt from its factors (P*L*U, L*L' or U'*U), the original is subtracted, and
 *
 *   resid = ||rebuilt - A|| / (||A|| * N * eps),   eps = pdlamch('Epsilon'),
 *
 * passes up to 16 (the threshold of the testers' LU.dat and LLT.dat), a NaN never.  The
 * testers use the infinity norm; the 1-norm is computed too and must pass as well.
 * Cholesky leaves the other triangle alone: there the "rebuilt" matrix is what
 * pdpotrf_ left, so a write into that triangle shows up in the residual, as it does in
 * the testers'.
 */
#ifndef HPD_SUPPORT_FACTOR_RESIDUAL_H
#define HPD_SUPPORT_FACTOR_RESIDUAL_H

#include "factor_problem.h"

#define FD_RESID_THRESHOLD 16.0

typedef struct fd_residual {
  double inf, one; /* the residual in the infinity norm and in the 1-norm */
  int guards_ok;   /* every rank's guard zones intact */
} fd_residual;

/* Collective.  pb holds the factors of fd_factorize (left unchanged).  The rebuilding
 * multiply goes to the reference pdgemm (hpd_set_disable(1) for its duration), so the
 * engine under test never checks its own work. */
fd_residual fd_residual_check(const fd_problem *pb, const fd_grid *g);

/* Both norms at most FD_RESID_THRESHOLD (NaN fails) and the guards intact. */
int fd_residual_passes(const fd_residual *r);

/* The worse of two residuals, keeping a NaN and any broken guard. */
fd_residual fd_residual_worst(const fd_residual *a, const fd_residual *b);

#endif
