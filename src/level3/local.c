/*
 * One process's part of a call served on a line (line.c), against the gathered block G,
 * and the local solve that the line and the local route share.  A triangular solve is
 * the distributed halving of trxm.c on one process, down to blocks small enough for the
 * small-order kernel (small_trsm.c), so that most of the flops run in dgemm.  The leaves
 * are the kernel's largest order, 64, on both sides; measured on the calls' own shapes (one
 * core, GFLOP/s with leaves of 64, then 32 and 16, then the BLAS's dtrsm):
 *   right side, on Zen 3 since the kernel's four-column strips: the application's 736 x
 *   256 at 43.2, 42.5 (33.3); 200 x 128 at 41.1, 38.8, 36.9 (30.2); 300 x 64 at 43.6,
 *   38.7, 34.5 (26.0); Cholesky's 4032 x 64 panel at 39.6, 36.5 (25.7) with LLD 4100 and
 *   31.9, 25.8 (25.3) with LLD 4096, where the kernel goes through its copy; only a
 *   crowded 256 x 256 (LLD 256) ran faster at 16, by 2%;
 *   left side, on SkylakeX: LU's 64 x 2000 row solve at 33 (8), Cholesky's upper 64 x
 *   4032 at 34 against 22 halved to 16 (7.6), 1024 x 1024 at 58 (34).
 * Triangular multiplies gain nothing this way and stay with dtrmm.
 */
#include "local.h"

#include "scalapack_api.h"
#include "small_trsm.h"

/* Orders up to the kernel's are its leaves; larger ones are halved on a multiple of
 * SPLIT_ALIGN. */
#define SPLIT_ALIGN 16

typedef struct local_trsm {
  char side, uplo, trans, diag;
  int m, n; /* of the whole b */
  int ldg, ldb;
  const double *g0;           /* the whole triangle */
  const hpd_l3_ready *ready;  /* or NULL */
} local_trsm;

/* Before reading the diagonal block of order k at g, and what lies between its halves:
 * the columns of the triangle up to the block's last. */
static void need(const local_trsm *t, const double *g, int k)
{
  if (t->ready)
    t->ready->need(t->ready->arg, (g - t->g0) / (t->ldg + 1) + k);
}

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
  if (k <= HPD_SMALL_TRSM_ORDER) {
    int m = left ? k : t->m, n = left ? t->n : k;
    need(t, g, k);
    hpd_small_trsm(t->side, t->uplo, t->trans, t->diag, m, n, alpha, g, t->ldg, b, t->ldb);
    return;
  }
  int k1 = k / 2 / SPLIT_ALIGN * SPLIT_ALIGN, order[2] = {k1, k - k1};
  const double *diag[2] = {g, g + k1 + (long)k1 * t->ldg};
  double *part[2] = {b, left ? b + k1 : b + (long)k1 * t->ldb};
  const double *off = t->uplo == 'L' ? g + k1 : g + (long)k1 * t->ldg;
  /* The half whose solution does not depend on the other's goes first (trxm.c). */
  int first = ((t->uplo == 'L') == (t->trans == 'N')) == left ? 0 : 1, second = 1 - first;
  trsm(t, diag[first], part[first], order[first], alpha);
  need(t, g, k);
  remove_solved(t, off, order[second], order[first], part[first], alpha, part[second]);
  trsm(t, diag[second], part[second], order[second], 1.0);
}

static void solve(char side, char uplo, char trans, char diag, int m, int n, double alpha,
                  const double *a, int lda, double *b, int ldb, const hpd_l3_ready *ready)
{
  if (m == 0 || n == 0)
    return;
  if (alpha == 0.0) {
    /* B := 0 without reading it, as the BLAS defines it. */
    dtrsm_(&side, &uplo, &trans, &diag, &m, &n, &alpha, a, &lda, b, &ldb);
    return;
  }
  local_trsm t = {side, uplo, trans, diag, m, n, lda, ldb, a, ready};
  trsm(&t, a, b, side == 'L' ? m : n, alpha);
}

void hpd_l3_local_trsm(char side, char uplo, char trans, char diag, int m, int n,
                       double alpha, const double *a, int lda, double *b, int ldb)
{
  solve(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb, NULL);
}

void hpd_l3_local_update(const hpd_l3 *l3, const double *g, int k, int g_is_a, int m, int n,
                         double alpha, double beta, double *b, int ldb, double *c, int ldc,
                         const hpd_l3_ready *ready)
{
  if (m == 0 || n == 0)
    return;
  const hpd_call *call = &l3->call;
  /* G is sub(A)' where not sub(A): the other triangle, transposed back in the call. */
  char uplo = (call->uplo == 'U') == g_is_a ? 'U' : 'L';
  char trans = g_is_a == (call->transa == 'N') ? 'N' : 'T';
  switch (l3->routine) {
  case HPD_ROUTINE_PDTRSM:
    solve(l3->side, uplo, trans, l3->diag, m, n, alpha, g, k, b, ldb, ready);
    break;
  case HPD_ROUTINE_PDTRMM:
    dtrmm_(&l3->side, &uplo, &trans, &l3->diag, &m, &n, &alpha, g, &k, b, &ldb);
    break;
  default:
    dsymm_(&l3->side, &uplo, &m, &n, &alpha, g, &k, b, &ldb, &beta, c, &ldc);
    break;
  }
}
