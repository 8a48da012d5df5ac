/*
 * pdtrmm and pdsymm on a 2-D grid as multiplies of the engine, with sub(A)'s triangle
 * made whole in a copy laid out as sub(A) is, zeros in the other triangle:
 *   pdtrmm: sub(B) := alpha * op(T) * sub(B) (SIDE 'L') or alpha * sub(B) * op(T) ('R'),
 *   T the triangle with its diagonal (ones where it is unit).  The product reads the old
 *   sub(B) throughout while it writes the new one, so sub(B) is read from a copy too.
 *   pdsymm: sub(A) = H + H', H the triangle with its diagonal halved (exact), so sub(C) :=
 *   alpha * H * sub(B) + beta * sub(C), then sub(C) += alpha * H' * sub(B) (from the right
 *   alike): two multiplies.
 * Halved (trxm.c, symm.c), a call moves sub(B)'s panels once per level of the halving, in
 * multiplies that each wait for the one before; whole, once per multiply, grouped and
 * pipelined, and the engine skips the triangle's zeros but within its diagonal blocks
 * (call.h).
 */
#include <string.h>

#include "level3/blocked.h"
#include "level3/kept.h"
#include "pblas/scalapack_api.h"

/* A rows x cols matrix laid out as x's sub-matrix of that extent, in storage of its own
 * (leading dimension its local rows): the same process holds the same entries. */
typedef struct compact {
  hpd_matrix m;
  hpd_axis rows, cols;
  int64_t lrows, lcols;
} compact;

static compact compact_of(const hpd_call *call, const hpd_matrix *x, int rows, int cols)
{
  compact c = {.rows = hpd_matrix_rows(x, call->nprow), .cols = hpd_matrix_cols(x, call->npcol)};
  c.lrows = hpd_axis_count(&c.rows, rows, call->myrow);
  c.lcols = hpd_axis_count(&c.cols, cols, call->mycol);
  hpd_desc_of_axes(call, &c.rows, rows, &c.cols, cols, c.m.desc);
  return c;
}

/* The most entries of a rows x cols compact copy on any process. */
static size_t most_of(const compact *c, int rows, int cols)
{
  int64_t r = hpd_axis_max_count(&c->rows, rows), k = hpd_axis_max_count(&c->cols, cols);
  return (size_t)(r > 1 ? r : 1) * (size_t)k;
}

static void copy_in(const hpd_call *call, const hpd_matrix *x, const hpd_elem *from,
                    const compact *c, hpd_elem *into)
{
  int64_t ld = x->desc[HPD_LLD], ldc = c->m.desc[HPD_LLD];
  from += hpd_matrix_row0(x, call->nprow, call->myrow) +
          hpd_matrix_col0(x, call->npcol, call->mycol) * ld;
  for (int64_t j = 0; j < c->lcols; j++)
    memcpy(into + j * ldc, from + j * ld, (size_t)c->lrows * sizeof *into);
}

/* Local rows in order hold rising global rows, so those on one side of a column's
 * diagonal are a run at one end of the column.  The diagonal: kept, ones (unit), or
 * halved (pdsymm). */
static void mask(const hpd_call *call, char diag, const compact *c, hpd_elem *t)
{
  int64_t ld = c->m.desc[HPD_LLD];
  for (int64_t j = 0; j < c->lcols; j++) {
    int64_t g = hpd_axis_global(&c->cols, j, call->mycol);
    hpd_elem *col = t + j * ld;
    if (call->uplo == 'U') {
      int64_t kept = hpd_axis_count(&c->rows, g + 1, call->myrow);
      memset(col + kept, 0, (size_t)(c->lrows - kept) * sizeof *col);
    } else
      memset(col, 0, (size_t)hpd_axis_count(&c->rows, g, call->myrow) * sizeof *col);
    if (diag != 'N' && hpd_axis_owner(&c->rows, g) == call->myrow) {
      hpd_elem *d = col + hpd_axis_local(&c->rows, g);
      *d = diag == 'U' ? 1.0 : 0.5 * *d;
    }
  }
}

/* sub(C) := alpha * op(t) * x + beta * sub(C) (SIDE 'L') or alpha * x * op(t) + beta *
 * sub(C) ('R'), the engine told where op(t)'s zeros lie. */
static void multiply(hpd_l3_run *run, char trans, const hpd_elem *t, const compact *tm,
                     const hpd_elem *x, const hpd_matrix *xm, hpd_elem beta)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  run->zeros_in = l3->side == 'L' ? 'A' : 'B';
  run->zeros_uplo = (call->uplo == 'U') == (trans == 'N') ? 'U' : 'L';
  if (l3->side == 'L')
    hpd_l3_multiply(run, trans, 'N', call->m, call->n, call->k, call->alpha, t, &tm->m, x, xm,
                    beta, call->c, &call->C);
  else
    hpd_l3_multiply(run, 'N', trans, call->m, call->n, call->k, call->alpha, x, xm, t, &tm->m,
                    beta, call->c, &call->C);
  run->zeros_in = run->zeros_uplo = 0;
}

hpd_status hpd_l3_whole(hpd_l3_run *run)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  int trmm = l3->routine == HPD_ROUTINE_PDTRMM;
  if ((!trmm && l3->routine != HPD_ROUTINE_PDSYMM) || call->nprow < 2 || call->npcol < 2)
    return HPD_STATUS_DECLINED;
  int m = call->m, n = call->n, k = call->k;
  compact t = compact_of(call, &call->A, k, k), b = compact_of(call, &call->C, m, n);
  size_t t_most = most_of(&t, k, k), b_most = trmm ? most_of(&b, m, n) : 0;
  size_t need = (t_most + b_most) * sizeof(hpd_elem);
  double budget = hpd_grid_budget(run->grid);
  if ((double)need > budget)
    return HPD_STATUS_NO_MEMORY;
  hpd_elem *space = hpd_l3_kept(t_most + b_most, budget);
  if (!hpd_l3_kept_agreed(run->grid->comm, need, space != NULL,
                          trmm ? "pdtrmm's copies of sub(A) and sub(B)"
                               : "pdsymm's copy of sub(A)"))
    return HPD_STATUS_NO_MEMORY;
  hpd_elem *tri = space;
  copy_in(call, &call->A, call->a, &t, tri);
  mask(call, trmm ? l3->diag : 'H', &t, tri);
  if (trmm) {
    hpd_elem *old = space + t_most;
    copy_in(call, &call->C, call->c, &b, old);
    multiply(run, call->transa, tri, &t, old, &b.m, 0.0);
  } else {
    multiply(run, 'N', tri, &t, call->b, &call->B, call->beta);
    multiply(run, 'T', tri, &t, call->b, &call->B, 1.0);
  }
  return HPD_OK;
}
