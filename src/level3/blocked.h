/* The blocked pdtrsm and pdtrmm, and the other routines' blocked forms (level3.h). */
#ifndef HPD_LEVEL3_BLOCKED_H
#define HPD_LEVEL3_BLOCKED_H

#include "pieces.h"

/* Each serves its whole checked call (alpha != 0, extents >= 1) on the grid of run. */
void hpd_l3_trxm(hpd_l3_run *run);
void hpd_l3_symm(hpd_l3_run *run);
/* One diagonal block of order k (pdtrsm, pdtrmm: b is sub(B)'s part, c unused; pdsymm:
 * b and c are sub(B)'s and sub(C)'s), served by hpdaemon where sub(A)'s block lies on one
 * process and the parts of sub(B) and sub(C) it meets on that process's row (SIDE 'L') or
 * column ('R'), laid out alike: 0, or -1 (nothing done) where they do not. */
int hpd_l3_line(hpd_l3_run *run, const hpd_matrix *a, const hpd_matrix *b,
                    const hpd_matrix *c, int k, double alpha, double beta);
/* Returns 0, or -1 where the engine refused the first half: sub(C) is then untouched and
 * run->reason says why. */
int hpd_l3_syr2k(hpd_l3_run *run);

#endif
