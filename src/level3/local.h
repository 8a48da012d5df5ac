/* One process's part of pdtrsm, pdtrmm or pdsymm, served on a line (line.c), and the
 * local triangular solve. */
#ifndef HPD_LEVEL3_LOCAL_H
#define HPD_LEVEL3_LOCAL_H

#include "core/checked.h"
#include "kernel/elem.h"
#include "level3/level3.h"

/* What a solve calls before it reads G's columns [0, columns): where G is still being
 * gathered (line.c), this fills them, so that a solve that starts from G's first columns
 * works while the rest travels. */
typedef struct hpd_l3_ready {
  void (*need)(void *arg, int64_t columns);
  void *arg;
} hpd_l3_ready;

/* Whether the call's update can work through G's columns as they arrive (ready below):
 * every solve and symmetric multiply, and the triangular multiplies whose in-place order
 * takes G's first columns first. */
HPD_CHECKED int hpd_l3_local_streams(const hpd_l3 *l3, int g_is_a);

/* b (m x n, leading dimension ldb) := the call's operation on it with sub(A) taken from
 * G (order k, leading dimension k): G is sub(A) (g_is_a) or its transpose, holding the
 * matching triangle.  pdsymm writes c (leading dimension ldc); b is then only read.
 * BLAS semantics; a solve runs mostly in the gemm kernel.  ready: NULL where G is whole;
 * else (where hpd_l3_local_streams) the update asks for G's columns as it goes. */
void hpd_l3_local_update(const hpd_l3 *l3, const hpd_elem *g, int k, int g_is_a, int m, int n,
                         hpd_elem alpha, hpd_elem beta, hpd_elem *b, int ldb, hpd_elem *c,
                         int ldc, const hpd_l3_ready *ready);

/* dtrsm's operation (BLAS semantics, letters in upper case), mostly in the gemm kernel: the
 * line's solves and those the local route makes on one process (serve.c). */
void hpd_l3_local_trsm(char side, char uplo, char trans, char diag, int m, int n,
                       hpd_elem alpha, const hpd_elem *a, int lda, hpd_elem *b, int ldb);

#endif
