/*
 * pdtrsm from the left with TRANSA 'N' on a 2-D grid (P x Q, both above 1), block by
 * block of sub(A)'s order with a look-ahead of one block.  Block j's rows of sub(B) lie on
 * one process row, which also holds sub(A)'s diagonal block j, once sub(A)'s column panel
 * j has come along the row; so block j is solved there, without moving sub(B), and its
 * solution X_j goes down every process column, where each process removes it from its
 * rows still to solve (the rows after the block for a lower triangle, before it for an
 * upper one), with the panel's rows for them.  The process row that holds the next block
 * updates that block first, solves it and starts its solution down the columns, and only
 * then updates the rest, so the next solution travels under the updates and the chain
 * of blocks waits on no update.  sub(A)'s panels travel along the rows A_AHEAD blocks
 * ahead of their use, since they depend on nothing.  PBLAS moves the same panels and
 * solutions, one step after the other.
 *
 * The solves run where the layout puts each diagonal block whole on one process: sub(A)'s
 * rows dealt over the process rows as sub(B)'s are, its columns in blocks of the same
 * cut.  Every broadcast starts in one order on all processes: the panels along each row,
 * the solutions down each column, block after block.
 */
#include <string.h>

#include "bcast/bcast.h"
#include "kernel/kernel.h"
#include "level3/blocked.h"
#include "level3/kept.h"
#include "local/scale.h"
#include "pblas/scalapack_api.h"

#define A_AHEAD 2
#define A_SLOTS (A_AHEAD + 1)
/* Columns of sub(B) updated between two polls of the broadcasts in flight. */
#define STRIP 256

typedef struct solve {
  const hpd_call *call;
  const hpd_grid *grid;
  char diag;
  int forward; /* blocks in rising order (lower triangle) */
  hpd_axis rows, cols; /* sub(B)'s rows (= sub(A)'s), sub(A)'s columns */
  int k, blocks;
  int64_t mloc, nloc; /* this process's share of sub(B) */
  hpd_elem *b;
  int64_t ldb;
  const hpd_elem *a; /* sub(A)'s share, from its first local row and column */
  int64_t lda;
  hpd_elem *panels; /* A_SLOTS of mloc x nb */
  hpd_elem *sols;   /* 2 of nb x nloc */
  int nb;
  hpd_bcast ah[A_SLOTS], xh[2];
} solve;

/* Block t of the order of solving: its first index and its end. */
static void block(const solve *s, int t, int *k0, int *k1)
{
  int j = s->forward ? t : s->blocks - 1 - t;
  int first = s->rows.first < s->k ? s->rows.first : s->k;
  int64_t lo = j == 0 ? 0 : first + (int64_t)(j - 1) * s->rows.nb;
  int64_t hi = j == 0 ? first : lo + s->rows.nb;
  *k0 = (int)lo;
  *k1 = (int)(hi < s->k ? hi : s->k);
}

static int64_t local_rows_before(const solve *s, int64_t g)
{
  return hpd_axis_count(&s->rows, g, s->call->myrow);
}

/* Panel t of sub(A) as this process reads it: its own columns where it holds them. */
static const hpd_elem *panel(const solve *s, int t, int64_t *ld)
{
  int k0, k1;
  block(s, t, &k0, &k1);
  if (hpd_axis_owner(&s->cols, k0) == s->call->mycol) {
    *ld = s->lda;
    return s->a + hpd_axis_local(&s->cols, k0) * s->lda;
  }
  *ld = s->mloc > 0 ? s->mloc : 1;
  return s->panels + (size_t)(t % A_SLOTS) * (size_t)*ld * (size_t)s->nb;
}

static void start_panel(solve *s, int t)
{
  if (t >= s->blocks)
    return;
  int k0, k1;
  block(s, t, &k0, &k1);
  int64_t ld;
  hpd_elem *at = (hpd_elem *)panel(s, t, &ld);
  hpd_bcast_started(hpd_bcast_start_strided(at, (size_t)s->mloc, (size_t)(k1 - k0), (size_t)ld,
                                            hpd_axis_owner(&s->cols, k0), s->grid->row,
                                            hpd_grid_bcast(s->grid), &s->ah[t % A_SLOTS]));
}

/* Solution t as this process reads it: in sub(B) on the process row that solved it. */
static const hpd_elem *solution(const solve *s, int t, int64_t *ld)
{
  int k0, k1;
  block(s, t, &k0, &k1);
  if (hpd_axis_owner(&s->rows, k0) == s->call->myrow) {
    *ld = s->ldb;
    return s->b + local_rows_before(s, k0);
  }
  *ld = k1 - k0;
  return s->sols + (size_t)(t % 2) * (size_t)s->nb * (size_t)(s->nloc > 0 ? s->nloc : 1);
}

static void start_solution(solve *s, int t)
{
  int k0, k1;
  block(s, t, &k0, &k1);
  int64_t ld;
  hpd_elem *x = (hpd_elem *)solution(s, t, &ld);
  hpd_bcast_started(hpd_bcast_start_strided(x, (size_t)(k1 - k0), (size_t)s->nloc, (size_t)ld,
                                            hpd_axis_owner(&s->rows, k0), s->grid->col,
                                            hpd_grid_bcast(s->grid), &s->xh[t % 2]));
}

/* Solves block t on the process row that holds it, its panel here. */
static void solve_block(solve *s, int t)
{
  int k0, k1;
  block(s, t, &k0, &k1);
  int64_t lda, r0 = local_rows_before(s, k0);
  hpd_bcast_wait(&s->ah[t % A_SLOTS], 1);
  const hpd_elem *a = panel(s, t, &lda);
  if (s->nloc > 0)
    hpd_kernel_trsm('L', s->call->uplo, 'N', s->diag, k1 - k0, (int)s->nloc, 1.0, a + r0,
                    (int)lda, s->b + r0, (int)s->ldb);
}

/* Local rows [r0, r1) of sub(B) -= their rows of panel t times solution t, in strips of
 * columns with a poll of the broadcasts in flight between two. */
static void update(solve *s, int t, int64_t r0, int64_t r1)
{
  if (r1 <= r0 || s->nloc == 0)
    return;
  int k0, k1;
  block(s, t, &k0, &k1);
  int64_t lda, ldx;
  const hpd_elem *a = panel(s, t, &lda), *x = solution(s, t, &ldx);
  for (int64_t c0 = 0; c0 < s->nloc; c0 += STRIP) {
    int64_t c1 = c0 + STRIP < s->nloc ? c0 + STRIP : s->nloc;
    hpd_kernel_gemm('N', 'N', (int)(r1 - r0), (int)(c1 - c0), k1 - k0, -1.0, a + r0, (int)lda,
                    x + c0 * ldx, (int)ldx, 1.0, s->b + r0 + c0 * s->ldb, (int)s->ldb);
    hpd_bcast_test(s->xh, 2);
    hpd_bcast_test(s->ah, A_SLOTS);
  }
}

/* The local rows still to solve after block t, less those of block u (none: u < 0). */
static void update_rest(solve *s, int t, int u)
{
  int k0, k1;
  block(s, t, &k0, &k1);
  int64_t lo = s->forward ? local_rows_before(s, k1) : 0;
  int64_t hi = s->forward ? s->mloc : local_rows_before(s, k0);
  if (u < 0) {
    update(s, t, lo, hi);
    return;
  }
  int u0, u1;
  block(s, u, &u0, &u1);
  int64_t skip0 = local_rows_before(s, u0), skip1 = local_rows_before(s, u1);
  update(s, t, lo, skip0 > lo ? skip0 : lo);
  update(s, t, skip1 < hi ? skip1 : hi, hi);
}

static int owns_rows(const solve *s, int t)
{
  int k0, k1;
  block(s, t, &k0, &k1);
  return hpd_axis_owner(&s->rows, k0) == s->call->myrow;
}

static void run_solve(void *arg)
{
  solve *s = arg;
  for (int t = 0; t < A_SLOTS && t < s->blocks; t++)
    start_panel(s, t);
  if (owns_rows(s, 0))
    solve_block(s, 0);
  start_solution(s, 0);
  for (int t = 0; t < s->blocks; t++) {
    hpd_bcast_wait(&s->xh[t % 2], 1);
    hpd_bcast_wait(&s->ah[t % A_SLOTS], 1);
    int next = t + 1 < s->blocks ? t + 1 : -1;
    if (next >= 0 && owns_rows(s, next)) {
      int u0, u1;
      block(s, next, &u0, &u1);
      update(s, t, local_rows_before(s, u0), local_rows_before(s, u1));
      solve_block(s, next);
      start_solution(s, next);
      update_rest(s, t, next);
    } else {
      if (next >= 0)
        start_solution(s, next);
      update_rest(s, t, -1);
    }
    start_panel(s, t + A_SLOTS);
  }
}

/* Whether sub(A)'s diagonal blocks each lie whole on the process that holds their rows
 * of sub(B): sub(A)'s rows dealt as sub(B)'s, its columns cut where its rows are. */
static int fits(const hpd_l3 *l3, hpd_axis *rows, hpd_axis *cols)
{
  const hpd_call *call = &l3->call;
  if (l3->routine != HPD_ROUTINE_PDTRSM || l3->side != 'L' || call->transa != 'N' ||
      call->nprow < 2 || call->npcol < 2)
    return 0;
  hpd_axis brows = hpd_matrix_rows(&call->C, call->nprow);
  *rows = hpd_matrix_rows(&call->A, call->nprow);
  *cols = hpd_matrix_cols(&call->A, call->npcol);
  int first_rows = rows->first < call->k ? rows->first : call->k;
  int first_cols = cols->first < call->k ? cols->first : call->k;
  return hpd_axis_same(rows, &brows, call->k) && first_rows == first_cols &&
         rows->nb == cols->nb;
}

hpd_status hpd_l3_trsm_grid(hpd_l3_run *run)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  solve s = {.call = call, .grid = run->grid, .diag = l3->diag, .k = call->k};
  if (!fits(l3, &s.rows, &s.cols))
    return HPD_STATUS_DECLINED;
  hpd_axis bcols = hpd_matrix_cols(&call->C, call->npcol);
  s.forward = call->uplo == 'L';
  s.nb = s.rows.nb > s.rows.first ? s.rows.nb : s.rows.first;
  s.nb = s.nb < s.k ? s.nb : s.k;
  int first = s.rows.first < s.k ? s.rows.first : s.k;
  s.blocks = 1 + (s.k - first + s.rows.nb - 1) / s.rows.nb;
  s.mloc = hpd_axis_count(&s.rows, s.k, call->myrow);
  s.nloc = hpd_axis_count(&bcols, call->n, call->mycol);
  s.ldb = call->C.desc[HPD_LLD];
  s.b = call->c + hpd_matrix_row0(&call->C, call->nprow, call->myrow) +
        hpd_matrix_col0(&call->C, call->npcol, call->mycol) * s.ldb;
  s.lda = call->A.desc[HPD_LLD];
  s.a = call->a + hpd_matrix_row0(&call->A, call->nprow, call->myrow) +
        hpd_matrix_col0(&call->A, call->npcol, call->mycol) * s.lda;
  size_t most_rows = (size_t)hpd_axis_max_count(&s.rows, s.k);
  size_t most_cols = (size_t)hpd_axis_max_count(&bcols, call->n);
  size_t panels = A_SLOTS * (most_rows > 0 ? most_rows : 1) * (size_t)s.nb;
  size_t sols = 2 * (size_t)s.nb * (most_cols > 0 ? most_cols : 1);
  size_t need = (panels + sols) * sizeof(hpd_elem);
  double budget = hpd_grid_budget(run->grid);
  if ((double)need > budget)
    return HPD_STATUS_NO_MEMORY;
  hpd_elem *space = hpd_l3_kept(panels + sols, budget);
  if (!hpd_l3_kept_agreed(run->grid->comm, need, space != NULL, "pdtrsm's panels"))
    return HPD_STATUS_NO_MEMORY;
  s.panels = space;
  s.sols = space + panels;
  if (call->alpha != 1.0)
    hpd_local_scale(s.b, s.ldb, s.mloc, s.nloc, call->alpha);
  hpd_l3_overlapped(run, (uint64_t)need, run_solve, &s);
  return HPD_OK;
}
