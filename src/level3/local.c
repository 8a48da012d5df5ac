/*
 * One process's part of a call served on a line (line.c), against the gathered block G.
 * A triangular solve is the distributed halving of trxm.c on one process, down to blocks
 * small enough for the BLAS's own dtrsm, so that most of the flops run in dgemm.
 * Measured with both cores busy (SkylakeX kernels), a right-side solve of the
 * application's shape (736 x 1472, order 1472) ran at 35 to 57 GFLOP/s halved down to
 * 64, against 28 to 55 down to 128 and 30 to 42 for the BLAS's dtrsm; with order 256
 * (736 x 256), 22 to 34 against 19 to 28 and 12 to 20.  Below 64 the multiplies grow
 * too thin to gain more.  Triangular multiplies gain nothing this way and stay with
 * dtrmm.
 */
#include "local.h"

#include "scalapack_api.h"

/* Orders up to this are the BLAS's; larger ones are halved on a multiple of SPLIT_ALIGN. */
#define LEAF 64
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
  if (k <= LEAF) {
    int m = left ? k : t->m, n = left ? t->n : k;
    dtrsm_(&t->side, &t->uplo, &t->trans, &t->diag, &m, &n, &alpha, g, &t->ldg, b, &t->ldb);
    return;
  }
  int k1 = k / 2 / SPLIT_ALIGN * SPLIT_ALIGN, order[2] = {k1, k - k1};
  const double *diag[2] = {g, g + k1 + (long)k1 * t->ldg};
  double *part[2] = {b, left ? b + k1 : b + (long)k1 * t->ldb};
  const double *off = t->uplo == 'L' ? g + k1 : g + (long)k1 * t->ldg;
  /* The half whose solution does not depend on the other's goes first (trxm.c). */
  int first = ((t->uplo == 'L') == (t->trans == 'N')) == left ? 0 : 1, second = 1 - first;
  trsm(t, diag[first], part[first], order[first], alpha);
  remove_solved(t, off, order[second], order[first], part[first], alpha, part[second]);
  trsm(t, diag[second], part[second], order[second], 1.0);
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
  case HPD_ROUTINE_PDTRSM: {
    local_trsm t = {l3->side, uplo, trans, l3->diag, m, n, k, ldb};
    trsm(&t, g, b, l3->side == 'L' ? m : n, alpha);
    break;
  }
  case HPD_ROUTINE_PDTRMM:
    dtrmm_(&l3->side, &uplo, &trans, &l3->diag, &m, &n, &alpha, g, &k, b, &ldb);
    break;
  default:
    dsymm_(&l3->side, &uplo, &m, &n, &alpha, g, &k, b, &ldb, &beta, c, &ldc);
    break;
  }
}
