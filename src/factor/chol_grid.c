/*
 * Cholesky's factor on a 2-D grid (P x Q, both above 1), with a look-ahead of one panel.
 *
 * Both triangles are one algorithm on L, the lower factor: for 'U' it is U', so that L's
 * rows are sub(A)'s columns and its columns sub(A)'s rows, and the grid is read
 * transposed.  Below, "a process row" is the set of processes that hold the same rows of
 * L (a grid row for 'L', a grid column for 'U') and "a process column" those that hold
 * the same columns of L.  Panel p is L's columns [g0, g1); the process column that holds
 * them factors it:
 *   - every process of the column factors the panel's diagonal block (LAPACK's dpotrf),
 *     each its own copy of it, the owner into sub(A): the owner sent the block down the
 *     column a step early, with every panel but the last applied to it, and each applies
 *     the last one itself from that panel's rows for its columns, which it holds then;
 *     the same operations on the same data give every copy the same bits;
 *   - each process of the column solves its rows of the panel below the block against
 *     it, and broadcasts them along its process row, INFO behind them, so that every
 *     process learns whether the factorization stopped there;
 *   - every process then has L's rows for its own rows of the trailing matrix; the rows
 *     for its columns lie on the processes of its process column (the row owner of each
 *     column's block), and each of those broadcasts its share down the column;
 *   - every process updates its share of the trailing triangle, C -= L_rows L_cols'.
 * ScaLAPACK's PDPOTRF runs these one after the other, so that all but one process column
 * waits for each panel's factor; and a factored block broadcast down the column (across
 * every node, where the column spans them) would sit between one panel's shares and the
 * next one's, which wait for the rows it solves.  Here the process column that holds
 * panel p+1 first applies panel p to that panel's columns only, factors it and starts
 * its broadcasts along the rows, and then applies panel p to the rest of its share,
 * while every other process applies panel p to all of its share: panel p+1 travels under
 * those updates, and its factorization leaves the critical path but for its own column's
 * first block.
 *
 * Panel p+1's shares down the columns start as soon as its rows are here, before the
 * update of panel p ends, so that they travel under it too.  Which comes first on a
 * process is a rule of what bound its last step: one that waited longer for panel p's
 * shares than its update of panel p-1 took is bound by the links (the columns span the
 * nodes of a slow network, and the shares cross them at every step), so it waits for
 * panel p+1's rows and starts their shares before it updates, keeping the links busy;
 * any other updates first, in pieces of whole blocks until the rows are here, so that
 * the next panel's factorization stays hidden under its flops.  Every update but that of
 * the next panel's own columns runs in strips of rows with a poll between two
 * (hpd_factor_strip_rows): the rows travel along the process row on a chain, each hop
 * waiting for a poll, and the shares down the columns start only where they are here.
 * The order of the starts is the same either way.
 *
 * Every process starts its broadcasts in one order, the same for all: at the start,
 * panels 0 and 1's diagonal blocks (their process columns only); in step p, panel p+2's
 * diagonal block (its process column only), panel p+1's rows, then its column shares.
 */
#include <string.h>

#include "bcast/bcast.h"
#include "core/clock.h"
#include "factor/chol.h"
#include "factor/lookahead.h"
#include "kernel/kernel.h"
#include "level3/local.h"
#include "local/triangle.h"
#include "pblas/poll.h"

typedef struct state {
  const hpd_chol *c;
  int upper, n, nb, panels, lda;
  int64_t row0, col0;   /* sub(A)'s first entry in the local array */
  hpd_axis lrows, lcols; /* L's rows and columns over the process rows and columns */
  int me_r, me_c;       /* this process's process row and column */
  MPI_Comm along_row, along_col; /* its process row (ranked by column) and column */
  hpd_elem *early[2];   /* panel q's diagonal block, every panel before q-1 applied, then
                         * factored here; its other triangle stays zero */
  hpd_bcast early_bcast[2];
  int early_pending[2]; /* whether that broadcast is started and not waited for */
  hpd_elem *rows[2];    /* panel p's L rows for this process's rows, INFO behind them */
  hpd_elem *cols;       /* panel p's L rows for this process's columns, local order */
  hpd_elem *shares;     /* what each process of the column contributes to cols */
  hpd_bcast row_bcast[2];
  hpd_bcast *sharing_now; /* the shares in flight, one per process row that has one */
  int64_t *share_count;   /* each process row's rows in them */
  int sharing;
  size_t share_bytes;
  int ahead;   /* the panel whose rows this process awaits while it applies the last one */
  int known;   /* whether they are here, its INFO read and its shares started */
  int failed;  /* the INFO of the first panel whose factorization stopped, else 0 */
} state;

typedef hpd_grid_panel panel;

static panel panel_at(const state *s, int p)
{
  return hpd_grid_panel_at(p, s->nb, s->n, &s->lrows, &s->lcols);
}

/* L's entry (i, j), i one of this process's rows of L and j one of its columns. */
static hpd_elem *entry(const state *s, int64_t i, int64_t j)
{
  int64_t li = hpd_axis_local(&s->lrows, i), lj = hpd_axis_local(&s->lcols, j);
  int64_t r = s->upper ? lj : li, c = s->upper ? li : lj;
  return s->c->a + s->row0 + r + (s->col0 + c) * (int64_t)s->lda;
}

/* This process's rows (or columns) of L from index g on: the first's local index and
 * their count. */
static int64_t mine_from(const hpd_axis *ax, int n, int me, int64_t g, int64_t *first)
{
  *first = hpd_axis_count(ax, g, me);
  return hpd_axis_count(ax, n, me) - *first;
}

/* Starts panel p's broadcast along this process's row: its rows below the diagonal block
 * and INFO, from the process column that holds it. */
static void start_rows(state *s, int p)
{
  panel pn = panel_at(s, p);
  int64_t first, mr = mine_from(&s->lrows, s->n, s->me_r, pn.g1, &first);
  hpd_bcast_started(hpd_bcast_start(s->rows[p % 2], (size_t)(mr * pn.jb + 1), pn.owner_c,
                                    s->along_row, hpd_grid_bcast(s->c->grid),
                                    &s->row_bcast[p % 2]));
}

/* The stored triangle of the jb x jb block at from (leading dimension ldf) into to
 * (leading dimension ldt). */
static void copy_triangle(const state *s, int jb, const hpd_elem *from, int64_t ldf,
                          hpd_elem *to, int64_t ldt)
{
  for (int k = 0; k < jb; k++) {
    int i0 = s->upper ? 0 : k, i1 = s->upper ? k + 1 : jb;
    memcpy(to + i0 + k * ldt, from + i0 + k * ldf, (size_t)(i1 - i0) * sizeof(hpd_elem));
  }
}

/* Starts panel q's diagonal block down its process column from its owner, every panel
 * before q-1 applied: for q >= 2, at the start of step q-2, the owner's block holds the
 * panels before q-2, and it applies panel q-2 to a copy from that panel's rows for its
 * own rows (sub(A)'s block gets panel q-2 in the update, as every block does). */
static void send_early(state *s, int q)
{
  panel pq = panel_at(s, q);
  if (s->me_c != pq.owner_c)
    return;
  int jb = pq.jb;
  char uplo = s->upper ? 'U' : 'L';
  hpd_elem *early = s->early[q % 2];
  if (s->me_r == pq.owner_r) {
    copy_triangle(s, jb, entry(s, pq.g0, pq.g0), s->lda, early, jb);
    if (q >= 2) {
      panel pp = panel_at(s, q - 2);
      int64_t first, mr = mine_from(&s->lrows, s->n, s->me_r, pp.g1, &first);
      int64_t at = hpd_axis_count(&s->lrows, pq.g0, s->me_r) - first;
      hpd_kernel_syrk(uplo, 'N', jb, pp.jb, -1.0, s->rows[(q - 2) % 2] + at, (int)mr, 1.0,
                      early, jb);
    }
  }
  hpd_bcast_started(hpd_bcast_start(early, (size_t)jb * jb, pq.owner_r, s->along_col,
                                    hpd_grid_bcast(s->c->grid), &s->early_bcast[q % 2]));
  s->early_pending[q % 2] = 1;
}

static void await_early(state *s, int q, hpd_factor_run *run)
{
  if (!s->early_pending[q % 2])
    return;
  int jb = panel_at(s, q).jb;
  hpd_factor_run_wait(run, &s->early_bcast[q % 2], 1, (size_t)jb * jb * sizeof(hpd_elem));
  s->early_pending[q % 2] = 0;
}

/* Panel p on the process column that holds it, panel p-1 applied to its columns and its
 * rows for this process's columns in s->cols: the diagonal block factored in its early
 * copy (free again before panel p+2's is sent), this process's rows below it solved and
 * copied out as L's rows, and their broadcast started. */
static void factor_panel(state *s, int p, hpd_factor_run *run)
{
  panel pn = panel_at(s, p);
  int jb = pn.jb;
  char uplo = s->upper ? 'U' : 'L';
  await_early(s, p, run);
  hpd_elem *diag = s->early[p % 2];
  if (p > 0) { /* panel p's block comes first in this column's share of panel p-1 */
    int64_t first, nc = mine_from(&s->lcols, s->n, s->me_c, pn.g0, &first);
    hpd_kernel_syrk(uplo, 'N', jb, panel_at(s, p - 1).jb, -1.0, s->cols, (int)nc, 1.0,
                    diag, jb);
  }
  int status = hpd_kernel_potrf(uplo, jb, diag, jb);
  if (s->me_r == pn.owner_r) /* as dpotrf leaves it, stopped or not */
    copy_triangle(s, jb, diag, jb, entry(s, pn.g0, pn.g0), s->lda);
  int64_t first, mr = mine_from(&s->lrows, s->n, s->me_r, pn.g1, &first);
  hpd_elem *out = s->rows[p % 2];
  if (mr > 0) {
    hpd_elem *below = entry(s, hpd_axis_global(&s->lrows, first, s->me_r), pn.g0);
    if (status == 0) {
      if (s->upper)
        hpd_l3_local_trsm('L', 'U', 'T', 'N', jb, (int)mr, 1.0, diag, jb, below, s->lda);
      else
        hpd_l3_local_trsm('R', 'L', 'T', 'N', (int)mr, jb, 1.0, diag, jb, below, s->lda);
    }
    for (int k = 0; k < jb; k++) /* L's rows: U's columns read across for 'U' */
      for (int64_t i = 0; i < mr; i++)
        out[i + k * mr] = s->upper ? below[k + i * (int64_t)s->lda]
                                   : below[i + k * (int64_t)s->lda];
  }
  out[mr * jb] = (hpd_elem)status;
  start_rows(s, p);
}

/* Whether L's block starting at global index g has its columns on this process's
 * process column and its rows on process row r. */
static int shared_by(const state *s, int64_t g, int r)
{
  return hpd_axis_owner(&s->lcols, g) == s->me_c && hpd_axis_owner(&s->lrows, g) == r;
}

/* The rows of panel p that process row r contributes to this process column's: those
 * from g1 on whose blocks r holds as rows and this column as columns. */
static int64_t share_rows(const state *s, const panel *pn, int r)
{
  int64_t rows = 0;
  for (int64_t g = pn->g1; g < s->n; g = hpd_axis_next_boundary(&s->lcols, g)) {
    int64_t end = hpd_axis_next_boundary(&s->lcols, g);
    if (shared_by(s, g, r))
      rows += (end < s->n ? end : s->n) - g;
  }
  return rows;
}

/* Starts panel p's L rows for this process's columns on their way: each process row
 * broadcasts down the column the blocks it holds there, in global order, into its own
 * part of s->shares (this process's own part copied from its rows). */
static void start_shares(state *s, int p)
{
  panel pn = panel_at(s, p);
  int jb = pn.jb;
  int64_t first_r, mr = mine_from(&s->lrows, s->n, s->me_r, pn.g1, &first_r);
  const hpd_elem *rows = s->rows[p % 2];
  hpd_bcast_how down = hpd_factor_down_columns(s->c->grid);
  hpd_elem *at = s->shares;
  s->sharing = 0;
  s->share_bytes = 0;
  for (int r = 0; r < s->lrows.nprocs; r++) {
    int64_t rows_r = share_rows(s, &pn, r);
    s->share_count[r] = rows_r;
    if (rows_r == 0)
      continue;
    if (r == s->me_r) { /* this process's blocks there, from its rows */
      hpd_axis_runs runs = {&s->lrows, s->me_r, first_r, first_r + mr};
      int64_t l, g, len, put = 0;
      while (hpd_axis_next_run(&runs, &l, &g, &len))
        if (hpd_axis_owner(&s->lcols, g) == s->me_c) {
          for (int k = 0; k < jb; k++)
            memcpy(at + put + k * rows_r, rows + (l - first_r) + k * mr,
                   (size_t)len * sizeof(hpd_elem));
          put += len;
        }
    }
    hpd_bcast_started(hpd_bcast_start(at, (size_t)(rows_r * jb), r, s->along_col, &down,
                                      &s->sharing_now[s->sharing++]));
    s->share_bytes += (size_t)(rows_r * jb) * sizeof(hpd_elem);
    at += rows_r * jb;
  }
}

/* Waits for panel p's shares and puts them into s->cols in this process's column order. */
static void finish_shares(state *s, int p, hpd_factor_run *run)
{
  panel pn = panel_at(s, p);
  int jb = pn.jb;
  int64_t first_c, nc = mine_from(&s->lcols, s->n, s->me_c, pn.g1, &first_c);
  hpd_factor_run_wait(run, s->sharing_now, s->sharing, s->share_bytes);
  const hpd_elem *at = s->shares;
  for (int r = 0; r < s->lrows.nprocs; r++) {
    int64_t count = s->share_count[r], taken = 0;
    for (int64_t g = pn.g1; g < s->n && count > 0; g = hpd_axis_next_boundary(&s->lcols, g)) {
      if (!shared_by(s, g, r))
        continue;
      int64_t end = hpd_axis_next_boundary(&s->lcols, g), len = (end < s->n ? end : s->n) - g;
      int64_t lc = hpd_axis_local(&s->lcols, g) - first_c;
      for (int k = 0; k < jb; k++)
        memcpy(s->cols + lc + k * nc, at + taken + k * count, (size_t)len * sizeof(hpd_elem));
      taken += len;
    }
    at += count * jb;
  }
}

static void poll_ahead(void *arg);

/* Applies panel p to this process's share of the trailing matrix after it, on L's
 * columns [c0, c1) of the share (local, from the trailing matrix's first); polled: in
 * strips of L's rows (hpd_factor_strip_rows), poll_ahead between two. */
static void apply(state *s, int p, int64_t c0, int64_t c1, int polled)
{
  panel pn = panel_at(s, p);
  int64_t first_r, first_c, m = s->n - pn.g1;
  int64_t mr = mine_from(&s->lrows, s->n, s->me_r, pn.g1, &first_r);
  int64_t nc = mine_from(&s->lcols, s->n, s->me_c, pn.g1, &first_c);
  if (mr == 0 || c0 >= c1)
    return;
  hpd_axis rows = hpd_axis_from(&s->lrows, pn.g1), cols = hpd_axis_from(&s->lcols, pn.g1);
  const hpd_elem *lr = s->rows[p % 2], *lc = s->cols;
  hpd_triangle t = {.uplo = s->upper ? 'U' : 'L', .m = m, .n = m, .b_is_a = 1};
  hpd_elem *c;
  if (s->upper) { /* sub(A)'s rows are L's columns */
    t.rows = cols, t.cols = rows, t.myrow = s->me_c, t.mycol = s->me_r;
    c = s->c->a + s->row0 + first_c + (s->col0 + first_r) * (int64_t)s->lda;
  } else {
    t.rows = rows, t.cols = cols, t.myrow = s->me_r, t.mycol = s->me_c;
    c = s->c->a + s->row0 + first_r + (s->col0 + first_c) * (int64_t)s->lda;
  }
  /* The narrowest strips, unlike LU's (lu_grid.c): the shares of L that this update
   * waits for next move down the columns during it, and need its polls.  Once nothing is
   * in flight on this process a poll moves nothing, and the rest of the update goes in
   * one multiply, saving a packing per strip.  (LU's strips are four times as tall and
   * its broadcasts in flight through most of its update, U's next piece starting before
   * each piece is applied: little to save there.) */
  int64_t strip = polled ? hpd_factor_strip_rows(mr, c1 - c0, pn.jb, HPD_POLL_MIN_STRIP) : mr;
  for (int64_t r0 = 0, r1; r0 < mr; r0 = r1) {
    r1 = mr - r0 > strip && hpd_bcast_in_flight() ? r0 + strip : mr;
    if (s->upper) {
      hpd_share_part part = {c0, c1, r0, r1};
      hpd_triangle_update_part(&t, 'N', 'T', pn.jb, -1.0, lc + c0, (int)nc, lr + r0, (int)mr,
                               NULL, c, s->lda, (int)nc, (int)mr, &part, NULL);
    } else {
      hpd_share_part part = {r0, r1, c0, c1};
      hpd_triangle_update_part(&t, 'N', 'T', pn.jb, -1.0, lr + r0, (int)mr, lc + c0, (int)nc,
                               NULL, c, s->lda, (int)mr, (int)nc, &part, NULL);
    }
    if (r1 < mr)
      poll_ahead(s);
  }
}

/* The elements that hold the shares' handles and counts for P process rows, at the
 * front of the buffers (aligned for both: the space is). */
static uint64_t handle_elems(int P)
{
  uint64_t bytes = (uint64_t)P * (sizeof(hpd_bcast) + sizeof(int64_t));
  return (bytes + sizeof(hpd_elem) - 1) / sizeof(hpd_elem);
}

static state state_of(const hpd_chol *c, hpd_elem *space)
{
  const hpd_call *call = c->call;
  int up = c->upper;
  state s = {.c = c, .upper = up, .n = c->n, .nb = c->sub.desc[HPD_NB],
             .lda = c->sub.desc[HPD_LLD],
             .row0 = hpd_matrix_row0(&c->sub, call->nprow, call->myrow),
             .col0 = hpd_matrix_col0(&c->sub, call->npcol, call->mycol),
             .lrows = hpd_chol_across(c, !up),
             .lcols = hpd_chol_across(c, up),
             .me_r = up ? call->mycol : call->myrow,
             .me_c = up ? call->myrow : call->mycol,
             .along_row = up ? c->grid->col : c->grid->row,
             .along_col = up ? c->grid->row : c->grid->col};
  s.panels = (s.n + s.nb - 1) / s.nb;
  int64_t nb = s.nb, mr = hpd_axis_max_count(&s.lrows, s.n);
  int64_t nc = hpd_axis_max_count(&s.lcols, s.n);
  s.sharing_now = (hpd_bcast *)(void *)space;
  s.share_count = (int64_t *)(void *)(s.sharing_now + s.lrows.nprocs);
  s.early[0] = space + handle_elems(s.lrows.nprocs);
  s.early[1] = s.early[0] + nb * nb;
  memset(s.early[0], 0, 2 * (size_t)(nb * nb) * sizeof(hpd_elem));
  s.rows[0] = s.early[1] + nb * nb;
  s.rows[1] = s.rows[0] + mr * nb + 1;
  s.cols = s.rows[1] + mr * nb + 1;
  s.shares = s.cols + nc * nb;
  return s;
}

/* Panel p's rows are here: where its factorization went through, and a step follows,
 * its shares start, so that they travel while this process applies panel p-1. */
static void rows_here(state *s, int p)
{
  panel pn = panel_at(s, p);
  int64_t first, mr = mine_from(&s->lrows, s->n, s->me_r, pn.g1, &first);
  int status = (int)s->rows[p % 2][mr * pn.jb];
  s->failed = status ? (int)pn.g0 + status : 0;
  s->known = 1;
  if (!s->failed && p + 1 < s->panels)
    start_shares(s, p);
}

/* Waits for panel p's rows along this process's row, where they are not here yet. */
static void await_rows(state *s, int p, hpd_factor_run *run)
{
  if (s->known)
    return;
  panel pn = panel_at(s, p);
  int64_t first, mr = mine_from(&s->lrows, s->n, s->me_r, pn.g1, &first);
  hpd_factor_run_wait(run, &s->row_bcast[p % 2], 1, (size_t)(mr * pn.jb + 1) * sizeof(hpd_elem));
  rows_here(s, p);
}

/* Between strips of an update: moves the broadcasts in flight, and once the awaited
 * panel's rows are here, starts its shares. */
static void poll_ahead(void *arg)
{
  state *s = arg;
  if (hpd_bcast_test(&s->row_bcast[s->ahead % 2], 1) && !s->known)
    rows_here(s, s->ahead);
}

uint64_t hpd_chol_grid_bytes(const hpd_chol *c)
{
  hpd_axis lrows = hpd_chol_across(c, !c->upper), lcols = hpd_chol_across(c, c->upper);
  uint64_t nb = (uint64_t)c->sub.desc[HPD_NB];
  uint64_t mr = (uint64_t)hpd_axis_max_count(&lrows, c->n);
  uint64_t nc = (uint64_t)hpd_axis_max_count(&lcols, c->n);
  return (handle_elems(lrows.nprocs) + 2 * nb * nb + 2 * (mr * nb + 1) + 2 * nc * nb) *
         sizeof(hpd_elem);
}

int hpd_chol_grid_factor(const hpd_chol *c, hpd_elem *space)
{
  state s = state_of(c, space);
  hpd_factor_run run;
  hpd_factor_run_begin(&run);
  for (int q = 0; q < 2 && q < s.panels; q++)
    send_early(&s, q);
  if (s.me_c == panel_at(&s, 0).owner_c)
    factor_panel(&s, 0, &run);
  else
    start_rows(&s, 0);
  await_rows(&s, 0, &run);
  double updated_s = 0.0; /* the last update's time */
  int64_t piece = (HPD_POLL_MIN_STRIP + s.nb - 1) / s.nb * s.nb;
  for (int p = 0; !s.failed && p + 1 < s.panels; p++) {
    panel pn = panel_at(&s, p);
    if (p + 2 < s.panels)
      send_early(&s, p + 2);
    double t0 = hpd_now();
    finish_shares(&s, p, &run);
    int link_bound = hpd_now() - t0 > updated_s && p > 0;
    int64_t ahead = 0;
    if (s.me_c == panel_at(&s, p + 1).owner_c) {
      ahead = panel_at(&s, p + 1).jb; /* the next panel's columns, all of them here */
      apply(&s, p, 0, ahead, 0);
      factor_panel(&s, p + 1, &run);
    } else {
      start_rows(&s, p + 1);
    }
    s.ahead = p + 1;
    s.known = 0;
    poll_ahead(&s);
    if (link_bound)
      await_rows(&s, p + 1, &run);
    t0 = hpd_now();
    int64_t first, nc = mine_from(&s.lcols, s.n, s.me_c, pn.g1, &first);
    for (int64_t end; !s.known && ahead < nc; ahead = end) { /* whole blocks at a time */
      end = ahead + piece < nc ? ahead + piece : nc;
      apply(&s, p, ahead, end, 1);
      poll_ahead(&s);
    }
    apply(&s, p, ahead, nc, 1);
    updated_s = hpd_now() - t0;
    await_rows(&s, p + 1, &run);
  }
  for (int q = 0; q < 2; q++) /* a stop leaves one on its way */
    await_early(&s, q, &run);
  hpd_factor_run_end(&run, HPD_ROUTINE_PDPOTRF, s.panels, hpd_chol_grid_bytes(c));
  return s.failed;
}
