/* One process's part of pdtrsm, pdtrmm or pdsymm, served on a line (line.c). */
#ifndef HPD_LEVEL3_LOCAL_H
#define HPD_LEVEL3_LOCAL_H

#include "level3.h"

/* b (m x n, leading dimension ldb) := the call's operation on it with sub(A) taken from
 * G (order k, leading dimension k): G is sub(A) (g_is_a) or its transpose, holding the
 * matching triangle.  pdsymm writes c (leading dimension ldc); b is then only read.
 * BLAS semantics; a solve runs mostly in dgemm. */
void hpd_l3_local_update(const hpd_l3 *l3, const double *g, int k, int g_is_a, int m, int n,
                         double alpha, double beta, double *b, int ldb, double *c, int ldc);

#endif
