/*
 * pdtrsm and pdtrmm by halving the order of sub(A).  With op(sub(A)) split into diagonal
 * blocks A11, A22 and one off-diagonal block, and sub(B) cut alike (rows for SIDE 'L',
 * columns for 'R'):
 *   a solve handles first the half whose solution does not depend on the other (the
 *   "forward" half: the first for a lower op(A) on the left or an upper one on the
 *   right), then removes that solution's contribution from the other half by one
 *   multiply (beta = alpha carries the scaling), then solves the other half;
 *   a multiply first updates the half that still needs the other half's old values: its
 *   own diagonal product, then the off-diagonal product added by one multiply, and only
 *   then the other half.
 * The off-diagonal block is stored below the diagonal for UPLO 'L' and above it for 'U';
 * TRANSA transposes it in the multiply.
 */
#include "core/config.h"
#include "kernel/elem.h"
#include "level3/blocked.h"
#include "pblas/reference.h"

/* The part of sub(B) that meets rows (SIDE 'L') or columns ('R') [off, off + len) of
 * op(sub(A)). */
static hpd_matrix b_part(const hpd_l3 *l3, const hpd_matrix *b, int off)
{
  return l3->side == 'L' ? hpd_l3_sub(b, off, 0) : hpd_l3_sub(b, 0, off);
}

/* One diagonal block the layout keeps off a single line: the reference's. */
static void leaf(hpd_l3_run *run, const hpd_matrix *a, const hpd_matrix *b, int k,
                 hpd_elem alpha)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  int m = l3->side == 'L' ? k : call->m, n = l3->side == 'L' ? call->n : k;
  int ia = a->i + 1, ja = a->j + 1, ib = b->i + 1, jb = b->j + 1;
  hpd_pdtrxm_fn reference =
      l3->routine == HPD_ROUTINE_PDTRSM ? hpd_reference_pdtrsm() : hpd_reference_pdtrmm();
  reference(&l3->side, &call->uplo, &call->transa, &l3->diag, &m, &n, &alpha, call->a, &ia,
            &ja, a->desc, call->c, &ib, &jb, b->desc);
}

/* into := beta * into - (solve) or + (multiply) alpha * the off-diagonal block times the
 * half from, in the order SIDE gives. */
static void off_diagonal(hpd_l3_run *run, const hpd_matrix *off, int rows_into, int rows_from,
                         const hpd_matrix *from, hpd_elem alpha, hpd_elem beta,
                         const hpd_matrix *into)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  if (l3->side == 'L')
    hpd_l3_multiply(run, call->transa, 'N', rows_into, call->n, rows_from, alpha, call->a,
                    off, call->c, from, beta, call->c, into);
  else
    hpd_l3_multiply(run, 'N', call->transa, call->m, rows_into, rows_from, alpha, call->c,
                    from, call->a, off, beta, call->c, into);
}

static void trxm(hpd_l3_run *run, const hpd_matrix *a, const hpd_matrix *b, int k,
                 hpd_elem alpha)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  if (hpd_l3_line(run, a, b, b, k, alpha, 0.0) == HPD_OK)
    return;
  int k1 = hpd_l3_split(l3, a, k);
  if (k1 == 0) {
    leaf(run, a, b, k, alpha);
    return;
  }
  int order[2] = {k1, k - k1};
  hpd_matrix diag[2] = {*a, hpd_l3_sub(a, k1, k1)};
  hpd_matrix part[2] = {*b, b_part(l3, b, k1)};
  hpd_matrix off = call->uplo == 'L' ? hpd_l3_sub(a, k1, 0) : hpd_l3_sub(a, 0, k1);
  int forward = ((call->uplo == 'L') == (call->transa == 'N')) == (l3->side == 'L');
  if (l3->routine == HPD_ROUTINE_PDTRSM) {
    int f = forward ? 0 : 1, s = 1 - f;
    trxm(run, &diag[f], &part[f], order[f], alpha);
    off_diagonal(run, &off, order[s], order[f], &part[f], -1.0, alpha, &part[s]);
    trxm(run, &diag[s], &part[s], order[s], 1.0);
  } else {
    int f = forward ? 1 : 0, s = 1 - f;
    trxm(run, &diag[f], &part[f], order[f], alpha);
    off_diagonal(run, &off, order[f], order[s], &part[s], alpha, 1.0, &part[f]);
    trxm(run, &diag[s], &part[s], order[s], alpha);
  }
}

/* On one node, under the pipeline broadcast, the turned form's block lies in shared
 * memory (gather.h) and its exchanges are memory copies: its one local solve or multiply
 * then beats the work done where the rows lie, in many multiplies each a group or a slab
 * wide (timing/README.md).  Between nodes the bytes on the link decide: each process
 * receives s M N (P-1)/P entries where the rows stay, and turned t M N (P-1)/P^2 and the
 * block's triangle, M^2 (P-1)/(2P): s = 1 and t = 2 (sub(B) in and out of the turn), but
 * for pdsymm s = 2 (sub(B)'s rows and the other triangle's sums) and t = 3 (sub(B) in,
 * sub(C) in and out).  The rows stay where N (s P - t) <= M P / 2. */
int hpd_l3_rows_stay(const hpd_l3_run *run, hpd_axis *rows)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  if (l3->side != 'L' || call->transa != 'N' || call->npcol != 1 || call->nprow < 2 ||
      (run->grid->nodes == 1 && hpd_config_get()->bcast == HPD_BCAST_PIPELINE))
    return 0;
  hpd_axis ar = hpd_matrix_rows(&call->A, call->nprow);
  *rows = hpd_matrix_rows(&call->C, call->nprow);
  double m = call->m, n = call->n, p = call->nprow;
  int symm = l3->routine == HPD_ROUTINE_PDSYMM;
  double stay = symm ? 2.0 : 1.0, turned = symm ? 3.0 : 2.0;
  return hpd_axis_same(&ar, rows, call->m) && n * (stay * p - turned) <= m * p / 2.0;
}

void hpd_l3_trxm(hpd_l3_run *run)
{
  const hpd_call *call = &run->l3->call;
  if (hpd_l3_spread(run) == HPD_OK || hpd_l3_trsm_wave(run) == HPD_OK ||
      hpd_l3_whole(run) == HPD_OK || hpd_l3_trsm_grid(run) == HPD_OK)
    return;
  trxm(run, &call->A, &call->C, call->k, call->alpha);
}
