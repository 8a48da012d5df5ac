/*
 * pdsymm by halving the order of sub(A): with A = [A11 A12; A21 A22], A21 = A12', and
 * sub(B), sub(C) cut alike (rows for SIDE 'L', columns for 'R'), each half of C is its
 * diagonal block's symmetric product (scaled by beta first) plus one multiply by the
 * stored off-diagonal block, transposed where the other half needs it so.
 */
#include "kernel/elem.h"
#include "level3/blocked.h"
#include "pblas/reference.h"

static hpd_matrix part_of(const hpd_l3 *l3, const hpd_matrix *x, int off)
{
  return l3->side == 'L' ? hpd_l3_sub(x, off, 0) : hpd_l3_sub(x, 0, off);
}

/* One diagonal block the layout keeps off a single line: the reference's. */
static void leaf(hpd_l3_run *run, const hpd_matrix *a, const hpd_matrix *b,
                 const hpd_matrix *c, int k, hpd_elem beta)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  int m = l3->side == 'L' ? k : call->m, n = l3->side == 'L' ? call->n : k;
  int ia = a->i + 1, ja = a->j + 1, ib = b->i + 1, jb = b->j + 1, ic = c->i + 1,
      jc = c->j + 1;
  hpd_reference_pdsymm()(&l3->side, &call->uplo, &m, &n, &call->alpha, call->a, &ia, &ja,
                         a->desc, call->b, &ib, &jb, b->desc, &beta, call->c, &ic, &jc,
                         c->desc);
}

/* C's half `into` += alpha * (the off-diagonal block, transposed by trans) times B's
 * half `from`, in the order SIDE gives. */
static void off_diagonal(hpd_l3_run *run, const hpd_matrix *off, char trans, int rows_into,
                         int rows_from, const hpd_matrix *from, const hpd_matrix *into)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  if (l3->side == 'L')
    hpd_l3_multiply(run, trans, 'N', rows_into, call->n, rows_from, call->alpha, call->a,
                    off, call->b, from, 1.0, call->c, into);
  else
    hpd_l3_multiply(run, 'N', trans, call->m, rows_into, rows_from, call->alpha, call->b,
                    from, call->a, off, 1.0, call->c, into);
}

static void symm(hpd_l3_run *run, const hpd_matrix *a, const hpd_matrix *b,
                 const hpd_matrix *c, int k, hpd_elem beta)
{
  const hpd_l3 *l3 = run->l3;
  if (hpd_l3_line(run, a, b, c, k, l3->call.alpha, beta) == HPD_OK)
    return;
  int k1 = hpd_l3_split(l3, a, k), k2 = k - k1;
  if (k1 == 0) {
    leaf(run, a, b, c, k, beta);
    return;
  }
  int upper = l3->call.uplo == 'U';
  /* The stored block is A12 (k1 x k2) for 'U', A21 (k2 x k1) for 'L'. */
  hpd_matrix off = upper ? hpd_l3_sub(a, 0, k1) : hpd_l3_sub(a, k1, 0);
  char as12 = upper ? 'N' : 'T', as21 = upper ? 'T' : 'N';
  hpd_matrix a22 = hpd_l3_sub(a, k1, k1);
  hpd_matrix b2 = part_of(l3, b, k1), c2 = part_of(l3, c, k1);
  symm(run, a, b, c, k1, beta);
  symm(run, &a22, &b2, &c2, k2, beta);
  /* Left: C1 += A12 B2, C2 += A21 B1.  Right: C1 += B2 A21, C2 += B1 A12. */
  int left = l3->side == 'L';
  off_diagonal(run, &off, left ? as12 : as21, k1, k2, &b2, c);
  off_diagonal(run, &off, left ? as21 : as12, k2, k1, b, &c2);
}

void hpd_l3_symm(hpd_l3_run *run)
{
  const hpd_call *call = &run->l3->call;
  if (hpd_l3_spread(run) == HPD_OK || hpd_l3_whole(run) == HPD_OK)
    return;
  symm(run, &call->A, &call->B, &call->C, call->k, call->beta);
}
