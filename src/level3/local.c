/*
 * One process's part of a call served on a line (line.c), against the gathered block G,
 * and the local solve that the line and the local route share.  A triangular solve is
 * the distributed halving of trxm.c on one process, down to blocks small enough for the
 * BLAS's own dtrsm, so that most of the flops run in dgemm.  OpenBLAS's dtrsm is slow on
 * the small orders these calls bring: measured alone (SkylakeX kernels, one core), 10 to
 * 16 GFLOP/s on 736 x 64 and on Cholesky's 4032 x 64 panel solves, where dgemm on the
 * same shapes runs at 58.  Right-side solves are halved down to 16: the application's
 * 736 x 256 (order 256) ran at 42 to 46 GFLOP/s against 36 down to 64 and 16 to 21 for
 * dtrsm; Cholesky's panel at 22 against 13 to 16; at order 1472 all leaves from 16 to 64
 * came within noise (40 to 58).  Left-side solves stop at 64: LU's 64 x 4032 row solve ran
 * no faster halved (5.8 to 6.9 down to 16, 7.4 to 7.9 at 64).  Triangular multiplies gain
 * nothing this way and stay with dtrmm.
 */
#include "local.h"

#include "scalapack_api.h"

/* Orders up to the leaf are the BLAS's; larger ones are halved on a multiple of
 * SPLIT_ALIGN (of 8 below order 64).  The small leaf needs enough rows to stream: below
 * SMALL_LEAF_ROWS, three BLAS calls cost more than dtrsm's one (order 31 with 31 rows ran
 * at 0.95 of the reference's dtrsm). */
#define LEAF_RIGHT 16
#define LEAF_LEFT 64
#define SMALL_LEAF_ROWS 128
#define SPLIT_ALIGN 16

typedef struct local_trsm {
  char side, uplo, trans, diag;
  int m, n; /* of the whole b */
  int ldg, ldb;
} local_trsm;

/* into := beta * into - op(off) times from, in SIDE's order; into has order rows_into
 * along the halved dimension, from rows_from. */
static void remove_solved(const local_trsm *t, const double *off, int rows_into,
                          int rows_from, const double *from, double beta, double *into)
{
  char n = 'N';
  double minus_one = -1.0;
  if (t->side == 'L')
    dgemm_(&t->trans, &n, &rows_into, &t->n, &rows_from, &minus_one, off, &t->ldg, from,
           &t->ldb, &beta, into, &t->ldb);
  else
    dgemm_(&n, &t->trans, &t->m, &rows_into, &rows_from, &minus_one, from, &t->ldb, off,
           &t->ldg, &beta, into, &t->ldb);
}

static void trsm(const local_trsm *t, const double *g, double *b, int k, double alpha)
{
  int left = t->side == 'L';
  int leaf = left || t->m < SMALL_LEAF_ROWS ? LEAF_LEFT : LEAF_RIGHT;
  if (k <= leaf) {
    int m = left ? k : t->m, n = left ? t->n : k;
    dtrsm_(&t->side, &t->uplo, &t->trans, &t->diag, &m, &n, &alpha, g, &t->ldg, b, &t->ldb);
    return;
  }
  int align = k >= 64 ? SPLIT_ALIGN : 8;
  int k1 = k / 2 / align * align, order[2] = {k1, k - k1};
  const double *diag[2] = {g, g + k1 + (long)k1 * t->ldg};
  double *part[2] = {b, left ? b + k1 : b + (long)k1 * t->ldb};
  const double *off = t->uplo == 'L' ? g + k1 : g + (long)k1 * t->ldg;
  /* The half whose solution does not depend on the other's goes first (trxm.c). */
  int first = ((t->uplo == 'L') == (t->trans == 'N')) == left ? 0 : 1, second = 1 - first;
  trsm(t, diag[first], part[first], order[first], alpha);
  remove_solved(t, off, order[second], order[first], part[first], alpha, part[second]);
  trsm(t, diag[second], part[second], order[second], 1.0);
}

void hpd_l3_local_trsm(char side, char uplo, char trans, char diag, int m, int n,
                       double alpha, const double *a, int lda, double *b, int ldb)
{
  if (m == 0 || n == 0)
    return;
  local_trsm t = {side, uplo, trans, diag, m, n, lda, ldb};
  trsm(&t, a, b, side == 'L' ? m : n, alpha);
}

void hpd_l3_local_update(const hpd_l3 *l3, const double *g, int k, int g_is_a, int m, int n,
                         double alpha, double beta, double *b, int ldb, double *c, int ldc)
{
  if (m == 0 || n == 0)
    return;
  const hpd_call *call = &l3->call;
  /* G is sub(A)' where not sub(A): the other triangle, transposed back in the call. */
  char uplo = (call->uplo == 'U') == g_is_a ? 'U' : 'L';
  char trans = g_is_a == (call->transa == 'N') ? 'N' : 'T';
  switch (l3->routine) {
  case HPD_ROUTINE_PDTRSM:
    hpd_l3_local_trsm(l3->side, uplo, trans, l3->diag, m, n, alpha, g, k, b, ldb);
    break;
  case HPD_ROUTINE_PDTRMM:
    dtrmm_(&l3->side, &uplo, &trans, &l3->diag, &m, &n, &alpha, g, &k, b, &ldb);
    break;
  default:
    dsymm_(&l3->side, &uplo, &m, &n, &alpha, g, &k, b, &ldb, &beta, c, &ldc);
    break;
  }
}
