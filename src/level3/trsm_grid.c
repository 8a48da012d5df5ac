/*
 * pdtrsm with TRANSA 'N' on a 2-D grid (P x Q, both above 1), block by block of sub(A)'s
 * order with a look-ahead of one block.  Written for SIDE 'L', where the solve runs down
 * sub(B)'s rows: block j's rows of sub(B) lie on one process row, which also holds
 * sub(A)'s diagonal block j once sub(A)'s column panel j has come along the row; so block
 * j is solved there, without moving sub(B), and its solution X_j goes down every process
 * column, where each process removes it from its rows still to solve (the rows after the
 * block for a lower triangle, before it for an upper one), with the panel's rows for
 * them.  SIDE 'R' is the same along sub(B)'s columns: sub(A)'s row panels go down the
 * process columns and the solutions along the process rows.
 *
 * The process line that holds the next block updates that block first, solves it and
 * starts its solution on, and only then updates the rest, so the next solution travels
 * under the updates and the chain of blocks waits on no update.  sub(A)'s panels travel
 * A_AHEAD blocks ahead of their use, since they depend on nothing.  PBLAS moves the same
 * panels and solutions, one step after the other.
 *
 * Both travel packed: a broadcast's chunks never cross a segment of its layout, so a
 * solution sent from sub(B)'s columns would go a column (a block's rows) per message.
 * The owners copy them out instead, a panel only the part it is read on.  Packed, a panel
 * is laid out as SIDE 'L' reads it (indices along the solve down, the block's across),
 * SIDE 'R''s transposed, and so is a solution (the block's indices down): one layout for
 * both sides, read transposed where SIDE 'R' multiplies.
 *
 * The solve reads op(sub(A)) with each diagonal block whole on one process: its axis
 * along the solve dealt as sub(B)'s, its other axis in blocks of the same cut.  Where
 * sub(A) lies so (TRANSA 'N' and such a layout) it is read in place; otherwise (TRANSA
 * 'T' or 'C', or another layout) its triangle is first dealt anew into that layout, in
 * one exchange that moves about a Q-th of what the panels then move (deal.c), and the
 * solve runs on op(sub(A)) as on a sub(A) with TRANSA 'N'.  Every broadcast starts in one
 * order on all processes: the panels, then the solutions, block after block.
 */
#include <limits.h>
#include <string.h>

#include "bcast/bcast.h"
#include "core/log.h"
#include "kernel/kernel.h"
#include "level3/blocked.h"
#include "level3/deal.h"
#include "level3/kept.h"
#include "local/scale.h"
#include "pblas/scalapack_api.h"

#define A_AHEAD 2
#define A_SLOTS (A_AHEAD + 1)
/* Solutions alive at once: the one being applied and the next one travelling. */
#define X_SLOTS 2
/* Indices across updated between two polls of the broadcasts in flight. */
#define STRIP 256
/* A block's solution travels in slabs of its indices across, each a broadcast of its
 * own: the next block's process line solves a slab as soon as that slab has come, while
 * the next slab travels, so the chain of blocks waits on one slab's crossing, not on a
 * whole block's.  At most SLABS_MOST of them, none narrower than SLAB_LEAST (below that a
 * slab's messages cost more than its crossing saves). */
#define SLABS_MOST 4
#define SLAB_LEAST 32

typedef struct solve {
  const hpd_call *call;
  const hpd_grid *grid;
  char diag, uplo;
  int right;      /* SIDE 'R': the solve runs along sub(B)'s columns */
  int forward;    /* blocks in rising order */
  hpd_axis along; /* sub(B)'s axis the solve runs along (= sub(A)'s matching one) */
  hpd_axis other; /* sub(A)'s other axis, cut as along is */
  int me_along, me_other, procs_along; /* this process on the two process lines */
  int k, blocks;
  int64_t mloc, nloc; /* this process's share of sub(B): along the solve, across it */
  hpd_elem *b;
  int64_t ldb;
  const hpd_elem *a; /* op(sub(A))'s share, from its first local row and column */
  int64_t lda;
  int dealt;          /* op(sub(A)) dealt anew into a (deal.c) */
  hpd_l3_deal deal;
  hpd_elem *dealt_area, *send, *recv; /* the deal's: a's storage and its buffers */
  size_t panels_n, sols_n, dealt_n, exchange_n; /* entries of each buffer, at most */
  hpd_elem *panels; /* A_SLOTS of mloc x nb: a panel's part it is read on, packed */
  hpd_elem *sols;   /* X_SLOTS of nb x nloc, packed */
  int nb;
  int slabs, width;   /* a solution's slabs, and the indices across of each but the last */
  MPI_Comm panel_comm; /* the line sub(A)'s panels travel: the process row ('L') */
  MPI_Comm down;       /* the line solutions travel, ranked in the order of solving */
  hpd_bcast ah[A_SLOTS], xh[X_SLOTS][SLABS_MOST];
} solve;

/* Block t of the order of solving: its first index and its end. */
static void block(const solve *s, int t, int *k0, int *k1)
{
  int j = s->forward ? t : s->blocks - 1 - t;
  int first = s->along.first < s->k ? s->along.first : s->k;
  int64_t lo = j == 0 ? 0 : first + (int64_t)(j - 1) * s->along.nb;
  int64_t hi = j == 0 ? first : lo + s->along.nb;
  *k0 = (int)lo;
  *k1 = (int)(hi < s->k ? hi : s->k);
}

static int64_t local_before(const solve *s, int64_t g)
{
  return hpd_axis_count(&s->along, g, s->me_along);
}

/* This process's entry of sub(B) at local index l along the solve and o across it. */
static hpd_elem *b_at(const solve *s, int64_t l, int64_t o)
{
  return s->b + (s->right ? o + l * s->ldb : l + o * s->ldb);
}

/* The local indices along [*lo, *hi) that panel t is read on: its diagonal block's and
 * those its solution updates.  The same on a whole process line. */
static void panel_part(const solve *s, int t, int64_t *lo, int64_t *hi)
{
  int k0, k1;
  block(s, t, &k0, &k1);
  *lo = s->forward ? local_before(s, k0) : 0;
  *hi = s->forward ? s->mloc : local_before(s, k1);
}

/* Panel t of sub(A) as every process of the line reads it, packed: *count indices along
 * from local index *lo on (count may be NULL), leading dimension *ld. */
static hpd_elem *panel(const solve *s, int t, int64_t *lo, int64_t *ld, int64_t *count)
{
  int64_t hi;
  panel_part(s, t, lo, &hi);
  *ld = hi - *lo > 0 ? hi - *lo : 1;
  if (count)
    *count = hi - *lo;
  return s->panels + (size_t)(t % A_SLOTS) * (size_t)(s->mloc > 0 ? s->mloc : 1) * (size_t)s->nb;
}

/* The panel's owner packs the part it is read on, so that it travels in the pipeline's
 * chunks rather than a message per column. */
static void start_panel(solve *s, int t)
{
  if (t >= s->blocks)
    return;
  int k0, k1;
  block(s, t, &k0, &k1);
  int64_t lo, ld, count, first = hpd_axis_local(&s->other, k0);
  hpd_elem *at = panel(s, t, &lo, &ld, &count);
  int owner = hpd_axis_owner(&s->other, k0);
  if (owner == s->me_other)
    for (int c = 0; c < k1 - k0; c++)
      for (int64_t i = 0; i < count; i++)
        at[i + c * ld] = s->right ? s->a[first + c + (lo + i) * s->lda]
                                  : s->a[lo + i + (first + c) * s->lda];
  hpd_bcast_started(hpd_bcast_start(at, (size_t)count * (size_t)(k1 - k0), owner,
                                    s->panel_comm, hpd_grid_bcast(s->grid),
                                    &s->ah[t % A_SLOTS]));
}

/* Solution t, packed (block indices x nloc) on every process. */
static hpd_elem *solution(const solve *s, int t)
{
  return s->sols + (size_t)(t % X_SLOTS) * (size_t)s->nb * (size_t)(s->nloc > 0 ? s->nloc : 1);
}

static void slab_span(const solve *s, int j, int64_t *c0, int64_t *c1)
{
  *c0 = (int64_t)j * s->width < s->nloc ? (int64_t)j * s->width : s->nloc;
  *c1 = *c0 + s->width < s->nloc ? *c0 + s->width : s->nloc;
}

/* Slab j of solution t on to the other lines, from the process line that solved it. */
static void start_solution(solve *s, int t, int j)
{
  int k0, k1;
  block(s, t, &k0, &k1);
  int64_t c0, c1;
  slab_span(s, j, &c0, &c1);
  int owner = hpd_axis_owner(&s->along, k0);
  hpd_bcast_started(hpd_bcast_start(solution(s, t) + c0 * (k1 - k0),
                                    (size_t)(k1 - k0) * (size_t)(c1 - c0),
                                    s->forward ? owner : s->procs_along - 1 - owner, s->down,
                                    hpd_grid_bcast(s->grid), &s->xh[t % X_SLOTS][j]));
}

/* Solves slab j of block t on the process line that holds it, its panel here, and packs
 * the slab's solution for its broadcast.  SIDE 'R' reads the diagonal block transposed
 * from its packed panel: X A = B is X (A')' = B, A' of the other triangle. */
static void solve_slab(solve *s, int t, int j)
{
  int k0, k1;
  block(s, t, &k0, &k1);
  int64_t lo, lda, c0, c1, r0 = local_before(s, k0);
  slab_span(s, j, &c0, &c1);
  if (c1 <= c0)
    return;
  int kb = k1 - k0;
  const hpd_elem *d = panel(s, t, &lo, &lda, NULL) + (r0 - lo);
  hpd_elem *b = b_at(s, r0, c0), *x = solution(s, t) + c0 * kb;
  if (s->right)
    hpd_kernel_trsm('R', s->uplo == 'U' ? 'L' : 'U', 'T', s->diag, (int)(c1 - c0), kb, 1.0, d,
                    (int)lda, b, (int)s->ldb);
  else
    hpd_kernel_trsm('L', s->uplo, 'N', s->diag, kb, (int)(c1 - c0), 1.0, d, (int)lda, b,
                    (int)s->ldb);
  for (int64_t o = 0; o < c1 - c0; o++)
    for (int c = 0; c < kb; c++)
      x[c + o * kb] = *b_at(s, r0 + c, c0 + o);
}

/* Local indices [r0, r1) along and [c0, c1) across of sub(B) -= their part of panel t
 * times solution t, in strips across with a poll of the broadcasts in flight between
 * two. */
static void update(solve *s, int t, int64_t r0, int64_t r1, int64_t c0, int64_t c1)
{
  if (r1 <= r0 || c1 <= c0)
    return;
  int k0, k1;
  block(s, t, &k0, &k1);
  int kb = k1 - k0;
  int64_t lo, lda;
  const hpd_elem *a = panel(s, t, &lo, &lda, NULL) + (r0 - lo), *x = solution(s, t);
  for (int64_t c = c0; c < c1; c += STRIP) {
    int64_t e = c + STRIP < c1 ? c + STRIP : c1;
    if (s->right) /* B(o, i) -= X(o, :) A(:, i), both packed transposed */
      hpd_kernel_gemm('T', 'T', (int)(e - c), (int)(r1 - r0), kb, -1.0, x + c * kb, kb, a,
                      (int)lda, 1.0, b_at(s, r0, c), (int)s->ldb);
    else
      hpd_kernel_gemm('N', 'N', (int)(r1 - r0), (int)(e - c), kb, -1.0, a, (int)lda,
                      x + c * kb, kb, 1.0, b_at(s, r0, c), (int)s->ldb);
    hpd_bcast_test(s->ah, 1); /* sweeps every broadcast in flight */
  }
}

/* The local indices still to solve after block t, less those of block u (none: u < 0),
 * in slab j's indices across. */
static void update_rest(solve *s, int t, int u, int j)
{
  int k0, k1;
  block(s, t, &k0, &k1);
  int64_t c0, c1;
  slab_span(s, j, &c0, &c1);
  int64_t lo = s->forward ? local_before(s, k1) : 0;
  int64_t hi = s->forward ? s->mloc : local_before(s, k0);
  if (u < 0) {
    update(s, t, lo, hi, c0, c1);
    return;
  }
  int u0, u1;
  block(s, u, &u0, &u1);
  int64_t skip0 = local_before(s, u0), skip1 = local_before(s, u1);
  update(s, t, lo, skip0 > lo ? skip0 : lo, c0, c1);
  update(s, t, skip1 < hi ? skip1 : hi, hi, c0, c1);
}

static int owns_block(const solve *s, int t)
{
  int k0, k1;
  block(s, t, &k0, &k1);
  return hpd_axis_owner(&s->along, k0) == s->me_along;
}

/*
 * Step t: every process takes solution t slab by slab as each arrives, and starts the
 * next block's slab of the same number right after (the broadcasts start in one order
 * everywhere, each once this process has passed on the slab before it).  The process line
 * of block t+1 first brings that slab of its block up to date and solves it, so the next
 * solution's slab leaves before any of the rest of the updates, which every process
 * makes once all of solution t has come.
 */
static void run_solve(void *arg)
{
  solve *s = arg;
  if (s->dealt && hpd_l3_deal_run(&s->deal, s->dealt_area, s->lda, s->send, s->recv,
                                  s->grid->comm) != HPD_OK)
    hpd_fatal("no exchange to deal sub(A) anew for pdtrsm"); /* the others wait in it */
  for (int t = 0; t < A_SLOTS && t < s->blocks; t++)
    start_panel(s, t);
  if (owns_block(s, 0))
    hpd_bcast_wait(&s->ah[0], 1);
  for (int j = 0; j < s->slabs; j++) {
    if (owns_block(s, 0))
      solve_slab(s, 0, j);
    start_solution(s, 0, j);
  }
  for (int t = 0; t < s->blocks; t++) {
    hpd_bcast_wait(&s->ah[t % A_SLOTS], 1);
    int next = t + 1 < s->blocks ? t + 1 : -1;
    int leads = next >= 0 && owns_block(s, next);
    if (leads)
      hpd_bcast_wait(&s->ah[next % A_SLOTS], 1);
    for (int j = 0; j < s->slabs; j++) {
      hpd_bcast_wait(&s->xh[t % X_SLOTS][j], 1);
      if (leads) {
        int g0, g1;
        int64_t c0, c1;
        block(s, next, &g0, &g1);
        slab_span(s, j, &c0, &c1);
        update(s, t, local_before(s, g0), local_before(s, g1), c0, c1);
        solve_slab(s, next, j);
      }
      if (next >= 0)
        start_solution(s, next, j);
    }
    for (int j = 0; j < s->slabs; j++)
      update_rest(s, t, leads ? next : -1, j);
    start_panel(s, t + A_SLOTS);
  }
}

/* Whether the block solve takes the call: pdtrsm from either side on a 2-D grid. */
static int takes(const hpd_l3 *l3)
{
  const hpd_call *call = &l3->call;
  return l3->routine == HPD_ROUTINE_PDTRSM && (l3->side == 'L' || l3->side == 'R') &&
         call->nprow > 1 && call->npcol > 1;
}

/* The axes the solve reads op(sub(A)) on: along the solve as sub(B) is dealt, across cut
 * alike.  Returns whether sub(A) lies so already (TRANSA 'N' and its own axes such);
 * otherwise *other is the new layout's, from process 0 of its line. */
static int read_in_place(const hpd_l3 *l3, hpd_axis *along, hpd_axis *other)
{
  const hpd_call *call = &l3->call;
  int right = l3->side == 'R';
  *along = right ? hpd_matrix_cols(&call->C, call->npcol) : hpd_matrix_rows(&call->C, call->nprow);
  hpd_axis a_along = right ? hpd_matrix_cols(&call->A, call->npcol)
                           : hpd_matrix_rows(&call->A, call->nprow);
  hpd_axis a_other = right ? hpd_matrix_rows(&call->A, call->nprow)
                           : hpd_matrix_cols(&call->A, call->npcol);
  int first_along = a_along.first < call->k ? a_along.first : call->k;
  int first_other = a_other.first < call->k ? a_other.first : call->k;
  if (call->transa == 'N' && hpd_axis_same(&a_along, along, call->k) &&
      first_along == first_other && a_along.nb == a_other.nb) {
    *along = a_along;
    *other = a_other;
    return 1;
  }
  *other = (hpd_axis){.first = along->first, .nb = along->nb, .src = 0,
                      .nprocs = right ? call->nprow : call->npcol};
  return 0;
}

/* The solve's layout on this process and its buffers' sizes, from descriptor data: 0
 * where the block solve does not take the call. */
static int plan(const hpd_l3 *l3, const hpd_grid *grid, solve *s)
{
  const hpd_call *call = &l3->call;
  if (!takes(l3))
    return 0;
  *s = (solve){.call = call, .grid = grid, .diag = l3->diag, .k = call->k,
               .right = l3->side == 'R'};
  s->dealt = !read_in_place(l3, &s->along, &s->other);
  /* op(sub(A)) = sub(A)' is of the other triangle. */
  s->uplo = call->transa == 'N' ? call->uplo : call->uplo == 'U' ? 'L' : 'U';
  hpd_axis across = s->right ? hpd_matrix_rows(&call->C, call->nprow)
                             : hpd_matrix_cols(&call->C, call->npcol);
  s->me_along = s->right ? call->mycol : call->myrow;
  s->me_other = s->right ? call->myrow : call->mycol;
  s->procs_along = s->right ? call->npcol : call->nprow;
  s->forward = s->uplo == (s->right ? 'U' : 'L');
  s->nb = s->along.nb > s->along.first ? s->along.nb : s->along.first;
  s->nb = s->nb < s->k ? s->nb : s->k;
  int first = s->along.first < s->k ? s->along.first : s->k;
  s->blocks = 1 + (s->k - first + s->along.nb - 1) / s->along.nb;
  s->mloc = hpd_axis_count(&s->along, s->k, s->me_along);
  s->nloc = hpd_axis_count(&across, s->right ? call->m : call->n,
                           s->right ? call->myrow : call->mycol);
  size_t most_along = (size_t)hpd_axis_max_count(&s->along, s->k);
  size_t most_across = (size_t)hpd_axis_max_count(&across, s->right ? call->m : call->n);
  s->panels_n = A_SLOTS * (most_along > 0 ? most_along : 1) * (size_t)s->nb;
  s->sols_n = X_SLOTS * (size_t)s->nb * (most_across > 0 ? most_across : 1);
  s->lda = call->A.desc[HPD_LLD];
  s->a = call->a + hpd_matrix_row0(&call->A, call->nprow, call->myrow) +
         hpd_matrix_col0(&call->A, call->npcol, call->mycol) * s->lda;
  if (s->dealt) {
    s->deal = (hpd_l3_deal){.k = s->k, .uplo = s->uplo, .transposed = call->transa != 'N',
                            .from_rows = hpd_matrix_rows(&call->A, call->nprow),
                            .from_cols = hpd_matrix_cols(&call->A, call->npcol),
                            .a = s->a, .lda = s->lda,
                            .rows = s->right ? s->other : s->along,
                            .cols = s->right ? s->along : s->other,
                            .nprow = call->nprow, .npcol = call->npcol,
                            .myrow = call->myrow, .mycol = call->mycol};
    s->dealt_n = hpd_l3_deal_out_most(&s->deal);
    size_t send_n = hpd_l3_deal_send_most(&s->deal);
    s->exchange_n = send_n + s->dealt_n; /* it receives at most its share */
    if (send_n > INT_MAX || s->dealt_n > INT_MAX)
      return 0; /* MPI counts the exchange's entries in an int */
  }
  return 1;
}

static size_t need_bytes(const solve *s)
{
  return (s->panels_n + s->sols_n + s->dealt_n + s->exchange_n) * sizeof(hpd_elem);
}

/* The block solve moves sub(A)'s panels, about K^2 / (2P) entries into a process whatever
 * sub(B)'s width W (N from the left, M from the right), and the solutions, K W / Q (a
 * dealt sub(A) adds a Q-th of the panels); a solve that moves only sub(B) and sums its
 * updates moves about K W, and PBLAS takes that one where its own solve of both operands
 * would move more than twice as much.  The block solve overlaps its panels' travel with
 * the updates (it ran 1.2 to 2 times as fast as PBLAS's solve of both operands), so it
 * pays where it moves at most four times K W: across nodes a narrower sub(B) (few
 * right-hand sides) waits on the reference.  On 8x8 at order 4096 that is W of 67 or
 * more; the block solve lost at 64 and below on the paper's InfiniBand and Ethernet
 * alike, and won at 128.  On one node the panels cross memory, not links, and the class
 * takes its trial (2x2 on one node's two cores at order 2048, W 16: the block solve took
 * 16 ms against PBLAS's 136, whose many small sums each wait for a core there). */
#define SUB_B_ONLY_MARGIN 4.0

static int pays(const solve *s)
{
  if (s->grid->link_nodes < 2)
    return 1;
  const hpd_call *call = s->call;
  double k = s->k, width = s->right ? call->m : call->n;
  double procs_other = s->right ? call->nprow : call->npcol;
  double panels = (double)hpd_axis_max_count(&s->along, s->k) * k / 2.0;
  double moved = panels * (s->dealt ? 1.0 + 1.0 / procs_other : 1.0) + k * width / procs_other;
  return moved <= SUB_B_ONLY_MARGIN * k * width;
}

int hpd_l3_trsm_grid_fits(const hpd_l3 *l3, const hpd_grid *grid)
{
  solve s;
  return grid && plan(l3, grid, &s) && (double)need_bytes(&s) <= hpd_grid_budget(grid) &&
         pays(&s);
}

hpd_status hpd_l3_trsm_grid(hpd_l3_run *run)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  solve s;
  if (!plan(l3, run->grid, &s))
    return HPD_STATUS_DECLINED;
  /* A broadcast's chain visits the ranks in order from its root: ranked in the order of
   * solving, each solution reaches the next block's process line first. */
  s.panel_comm = s.right ? run->grid->col : run->grid->row;
  if (s.right)
    s.down = s.forward ? run->grid->row : hpd_grid_row_left(run->grid);
  else
    s.down = s.forward ? run->grid->col : hpd_grid_col_up(run->grid);
  s.ldb = call->C.desc[HPD_LLD];
  s.b = call->c + hpd_matrix_row0(&call->C, call->nprow, call->myrow) +
        hpd_matrix_col0(&call->C, call->npcol, call->mycol) * s.ldb;
  size_t need = need_bytes(&s);
  double budget = hpd_grid_budget(run->grid);
  if ((double)need > budget)
    return HPD_STATUS_NO_MEMORY;
  hpd_elem *space = hpd_l3_kept(need / sizeof(hpd_elem), budget);
  if (!hpd_l3_kept_agreed(run->grid->comm, need, space != NULL, "pdtrsm's panels"))
    return HPD_STATUS_NO_MEMORY;
  s.panels = space;
  s.sols = space + s.panels_n;
  if (s.dealt) {
    hpd_elem *dealt = s.sols + s.sols_n;
    s.a = s.dealt_area = dealt;
    s.lda = hpd_axis_count(&s.deal.rows, s.k, call->myrow);
    s.lda = s.lda > 0 ? s.lda : 1;
    s.send = dealt + s.dealt_n;
    s.recv = s.send + hpd_l3_deal_send_most(&s.deal);
  }
  s.slabs = (int)(s.nloc / SLAB_LEAST);
  s.slabs = s.slabs < 1 ? 1 : s.slabs > SLABS_MOST ? SLABS_MOST : s.slabs;
  s.width = (int)((s.nloc + s.slabs - 1) / s.slabs);
  if (call->alpha != 1.0)
    hpd_local_scale(s.b, s.ldb, s.right ? s.nloc : s.mloc, s.right ? s.mloc : s.nloc,
                    call->alpha);
  hpd_l3_overlapped(run, (uint64_t)need, run_solve, &s);
  return HPD_OK;
}
