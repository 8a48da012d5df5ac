/*
 * LU with partial pivoting on a 2-D grid (P x Q, both above 1), with a look-ahead of one
 * panel.  Panel p is sub(A)'s columns [g0, g1); the process column that holds them
 * factors it (lu_panel.h: one reduction per column over the column's processes, the
 * updates in gemm) and each of its processes broadcasts its rows of the panel along its
 * process row, the pivots and INFO behind them.  Then every process
 *   - applies the panel's interchanges to its other columns: the rows one process sends
 *     another travel as one message (swap/exchange.h);
 *   - on the process row that holds the panel's top rows, solves them against the
 *     panel's unit lower block for its columns to the right, U's block row, which it
 *     broadcasts down its process column;
 *   - updates its share of the trailing matrix, C -= L U.
 * ScaLAPACK's PDGETRF does the same steps one after the other, so that every process
 * column but one waits for each panel, which PDGETF2 factors column by column with
 * several messages each.  Here the process column that holds panel p+1 applies panel p
 * to that panel's columns first, factors it and starts its broadcasts, and only then
 * applies panel p to the rest of its share, while the other columns apply panel p to all
 * of theirs: panel p+1 travels under those updates.  The interchanges, U's block row and
 * its broadcast go in pieces of columns, the next panel's first, each piece started
 * before the one ahead of it is applied: a step's interchanges and U cross the nodes'
 * links and memory, and in one piece every process waited for all of them before its
 * update began, where in pieces all but the first travel under the update.  The piece
 * after the next panel's starts once that panel is factored and sent, so that nothing
 * but its own columns' share of the step stands before it on the column that factors
 * it.  Interchanges on the columns left of a panel come last in its step, off the path
 * the next panel takes.  The updates run in strips of rows with a poll between two, so
 * that the panels and U's pieces move along their chains while they run.
 *
 * Every process starts its broadcasts in the same order: along its process row panel p's
 * then panel p+1's, down its process column step p's block row of U, piece by piece.
 */
#include <string.h>

#include "bcast/bcast.h"
#include "bcast/wait.h"
#include "factor/lookahead.h"
#include "factor/lu.h"
#include "factor/lu_panel.h"
#include "kernel/kernel.h"
#include "level3/local.h"
#include "swap/exchange.h"

typedef struct state {
  const hpd_lu *f;
  int m, n, mn, nb, lda, panels;
  int64_t row0, col0; /* sub(A)'s first entry in the local array */
  hpd_axis rows, cols;
  int me_r, me_c;
  int64_t nloc; /* this process's columns of sub(A) */
  MPI_Comm along_row, along_col;
  hpd_elem *top;      /* a panel's top rows, on its process column */
  hpd_elem *scratch;  /* the panel's (lu_panel.h) */
  hpd_elem *panel[2]; /* panel p's rows from g0 on this process row, pivots and INFO */
  hpd_elem *u;        /* step p's block row of U for this process's columns */
  int *piv;           /* a panel's pivots, 0-based */
  int *swaps;         /* the same 1-based, as the interchanges read them */
  hpd_swap_plan plan;
  hpd_lu_pivot_search search;
  hpd_bcast row_bcast[2];
} state;

typedef hpd_grid_panel panel;

static panel panel_at(const state *s, int p)
{
  return hpd_grid_panel_at(p, s->nb, s->mn, &s->rows, &s->cols);
}

/* This process's local entry of sub(A) at local row i and local column j, both counted
 * from sub(A)'s first. */
static hpd_elem *at(const state *s, int64_t i, int64_t j)
{
  return s->f->a + s->row0 + i + (s->col0 + j) * (int64_t)s->lda;
}

/* This process's rows (columns) of sub(A) before global row (column) g. */
static int64_t rows_before(const state *s, int64_t g)
{
  return hpd_axis_count(&s->rows, g, s->me_r);
}

static int64_t cols_before(const state *s, int64_t g)
{
  return hpd_axis_count(&s->cols, g, s->me_c);
}

/* This process's rows of panel p, from g0 on. */
static int64_t panel_rows(const state *s, const panel *pn)
{
  return rows_before(s, s->m) - rows_before(s, pn->g0);
}

static void start_rows(state *s, int p)
{
  panel pn = panel_at(s, p);
  size_t count = (size_t)(panel_rows(s, &pn) * pn.jb + pn.jb + 1);
  hpd_bcast_started(hpd_bcast_start(s->panel[p % 2], count, pn.owner_c, s->along_row,
                                    hpd_grid_bcast(s->f->grid), &s->row_bcast[p % 2]));
}

/* Panel p on its process column, every earlier panel applied to its columns: factored,
 * copied out with its pivots and INFO, and its broadcast along the rows started. */
static void factor_panel(state *s, int p)
{
  panel pn = panel_at(s, p);
  int jb = pn.jb, holds_top = s->me_r == pn.owner_r;
  int64_t r0 = rows_before(s, pn.g0), mr = panel_rows(s, &pn), c0 = cols_before(s, pn.g0);
  hpd_elem *mine = at(s, r0, c0);
  if (holds_top)
    for (int k = 0; k < jb; k++)
      memcpy(s->top + (int64_t)k * jb, mine + (int64_t)k * s->lda, jb * sizeof(hpd_elem));
  hpd_wait_bcast(s->top, jb * jb, HPD_ELEM_MPI, pn.owner_r, s->along_col);
  int skip = holds_top ? jb : 0;
  hpd_lu_panel pp = {.jb = jb, .g0 = pn.g0, .top = s->top, .below = mine + skip,
                     .nbelow = mr - skip, .below_l0 = r0 + skip, .ld = s->lda,
                     .rows = &s->rows, .me = s->me_r, .comm = s->along_col,
                     .search = &s->search, .scratch = s->scratch, .piv = s->piv};
  int info = hpd_lu_panel_factor(&pp);
  if (holds_top)
    for (int k = 0; k < jb; k++)
      memcpy(mine + (int64_t)k * s->lda, s->top + (int64_t)k * jb, jb * sizeof(hpd_elem));
  hpd_elem *out = s->panel[p % 2];
  for (int k = 0; k < jb; k++)
    memcpy(out + k * mr, mine + (int64_t)k * s->lda, (size_t)mr * sizeof(hpd_elem));
  for (int i = 0; i < jb; i++)
    out[mr * jb + i] = s->piv[i];
  out[mr * jb + jb] = info;
  start_rows(s, p);
}

/* Panel p's interchanges on this process's local columns [c0, c1). */
static void interchange(state *s, const panel *pn, int64_t c0, int64_t c1)
{
  if (c1 <= c0)
    return;
  hpd_swap_lines lines = {.a = s->f->a + s->row0, .line_step = 1, .pos_step = s->lda,
                          .axis = s->rows, .pos0 = s->col0 + c0, .npos = c1 - c0,
                          .comm = s->along_col, .me = s->me_r, .nprocs = s->rows.nprocs,
                          .wait = hpd_collective_waiter()};
  int k1 = (int)pn->g0 + 1;
  hpd_swap_apply(&lines, s->swaps, k1, k1 + pn->jb - 1, &s->plan);
}

/* Panel p's update of this process's rows below it and local columns [c0, c1) of the
 * block row u (leading dimension ldu, from the first column right of the panel), in
 * strips of rows with a poll between two (hpd_factor_strip_rows). */
static void update(const state *s, const panel *pn, const hpd_elem *u, int ldu, int64_t c0,
                   int64_t c1)
{
  int holds_top = s->me_r == pn->owner_r;
  int64_t mr = panel_rows(s, pn), skip = holds_top ? pn->jb : 0, below = mr - skip;
  int64_t right = cols_before(s, pn->g1), width = c1 - c0;
  if (below <= 0 || width <= 0)
    return;
  const hpd_elem *l = s->panel[(pn->g0 / s->nb) % 2] + skip;
  hpd_elem *c = at(s, rows_before(s, pn->g0) + skip, right + c0);
  /* Tall strips: what must travel during this update started before it (the next
   * panel, U's next piece), so its polls only speed what is already under way, while a
   * strip of 256 rows costs a tall share a tenth of the kernel's rate. */
  int64_t strip = hpd_factor_strip_rows(below, width, pn->jb, HPD_FACTOR_LU_STRIP);
  for (int64_t i = 0; i < below; i += strip) {
    int h = (int)(i + strip < below ? strip : below - i);
    hpd_kernel_gemm('N', 'N', h, (int)width, pn->jb, -1.0, l + i, (int)mr, u + c0 * ldu, ldu,
                    1.0, c + i, s->lda);
    if (i + strip < below)
      hpd_bcast_test(NULL, 0); /* every broadcast in flight */
  }
}

/* Up to this many pieces of whole blocks carry the block row of U to the right of the next
 * panel's columns: each piece's interchanges and broadcast start before the piece ahead
 * of it is applied, so that they travel under that update instead of before it. */
#define U_PIECES 4

/* Starts the block row of U for this process's columns [c0, c1) right of panel p: their
 * interchanges, the solve of the top rows on the process row that holds them, and the
 * broadcast down the process column, into down. */
static void start_u(state *s, const panel *pn, int64_t c0, int64_t c1, hpd_bcast *down)
{
  int64_t mr = panel_rows(s, pn), r0 = rows_before(s, pn->g0), right = cols_before(s, pn->g1);
  interchange(s, pn, right + c0, right + c1);
  int holds_top = s->me_r == pn->owner_r;
  hpd_elem *mine = at(s, r0, right + c0);
  if (holds_top)
    hpd_l3_local_trsm('L', 'L', 'N', 'U', pn->jb, (int)(c1 - c0), 1.0,
                      s->panel[(pn->g0 / s->nb) % 2], (int)mr, mine, s->lda);
  /* Not over shared links (hpd_factor_down_columns): every column's root is on the
   * same process row, so flat copies would all leave through that row's nodes' links,
   * where the chain spreads them over every node of the column. */
  hpd_bcast_started(hpd_bcast_start_strided(
      holds_top ? mine : s->u + c0 * pn->jb, (size_t)pn->jb, (size_t)(c1 - c0),
      holds_top ? (size_t)s->lda : (size_t)pn->jb, pn->owner_r, s->along_col,
      hpd_grid_bcast(s->f->grid), down));
}

/* The end of the piece of U that starts at local column c0 (right of the panel), of
 * ncols: the next panel's columns alone where they lead, else a share of the rest in
 * whole blocks. */
static int64_t piece_end(int64_t c0, int64_t lead, int64_t rest_piece, int64_t ncols)
{
  int64_t end = c0 < lead ? lead : c0 + rest_piece;
  return end < ncols ? end : ncols;
}

/* Step p, panel p received: its pivots recorded, its interchanges, block row of U and
 * update applied, and panel p+1 factored and sent out first by its process column. */
static void step(state *s, int p, hpd_factor_run *run)
{
  panel pn = panel_at(s, p);
  int64_t mr = panel_rows(s, &pn), r0 = rows_before(s, pn.g0);
  const hpd_elem *status = s->panel[p % 2] + mr * pn.jb;
  for (int i = 0; i < pn.jb; i++) { /* where PDGETF2 leaves them: from this row's IIA */
    s->swaps[i] = (int)status[i] + 1;
    s->f->ipiv[s->row0 + r0 + i] = s->f->sub.i + s->swaps[i];
  }
  int64_t right = cols_before(s, pn.g1), ncols = s->nloc - right;
  int holds_top = s->me_r == pn.owner_r;
  const hpd_elem *u = holds_top ? at(s, r0, right) : s->u;
  int ldu = holds_top ? s->lda : pn.jb;
  int64_t lead = 0;
  if (p + 1 < s->panels) {
    if (panel_at(s, p + 1).owner_c == s->me_c)
      lead = panel_at(s, p + 1).jb; /* its columns are the first on the right here */
    else
      start_rows(s, p + 1);
  }
  int64_t blocks = (ncols - lead + s->nb - 1) / s->nb;
  int64_t rest_piece = (blocks + U_PIECES - 1) / U_PIECES * s->nb;
  hpd_bcast down[2];
  int64_t c0 = 0, c1 = piece_end(0, lead, rest_piece, ncols);
  if (ncols > 0)
    start_u(s, &pn, c0, c1, &down[0]);
  for (int k = 0; c0 < ncols; k++, c0 = c1, c1 = piece_end(c0, lead, rest_piece, ncols)) {
    int leads = c0 < lead, more = c1 < ncols;
    int64_t c2 = piece_end(c1, lead, rest_piece, ncols);
    if (more && !leads)
      start_u(s, &pn, c1, c2, &down[(k + 1) % 2]);
    hpd_factor_run_wait(run, &down[k % 2], 1, (size_t)(pn.jb * (c1 - c0)) * sizeof(hpd_elem));
    update(s, &pn, u, ldu, c0, c1);
    if (leads) { /* the next panel's columns, updated: factored and sent first */
      factor_panel(s, p + 1);
      if (more)
        start_u(s, &pn, c1, c2, &down[(k + 1) % 2]);
    }
  }
  interchange(s, &pn, 0, cols_before(s, pn.g0));
}

static state state_of(const hpd_lu *f, hpd_elem *space)
{
  const hpd_call *call = f->call;
  state s = {.f = f, .m = f->m, .n = f->n, .mn = f->m < f->n ? f->m : f->n,
             .nb = f->sub.desc[HPD_NB], .lda = f->sub.desc[HPD_LLD],
             .row0 = hpd_matrix_row0(&f->sub, call->nprow, call->myrow),
             .col0 = hpd_matrix_col0(&f->sub, call->npcol, call->mycol),
             .rows = hpd_matrix_rows(&f->sub, call->nprow),
             .cols = hpd_matrix_cols(&f->sub, call->npcol),
             .me_r = call->myrow, .me_c = call->mycol,
             .along_row = f->grid->row, .along_col = f->grid->col};
  s.panels = (s.mn + s.nb - 1) / s.nb;
  s.nloc = cols_before(&s, s.n);
  int64_t nb = s.nb, mr = hpd_axis_max_count(&s.rows, s.m);
  int64_t nc = hpd_axis_max_count(&s.cols, s.n);
  s.top = space;
  s.scratch = s.top + nb * nb;
  s.panel[0] = s.scratch + hpd_lu_panel_scratch(s.nb);
  s.panel[1] = s.panel[0] + mr * nb + nb + 1;
  s.u = s.panel[1] + mr * nb + nb + 1;
  s.piv = (int *)(s.u + nb * nc);
  s.swaps = s.piv + nb;
  hpd_swap_plan_carve(nb, nc, s.rows.nprocs, s.u + nb * nc + nb, &s.plan);
  return s;
}

uint64_t hpd_lu_grid_bytes(const hpd_lu *f)
{
  const hpd_call *call = f->call;
  hpd_axis rows = hpd_matrix_rows(&f->sub, call->nprow);
  hpd_axis cols = hpd_matrix_cols(&f->sub, call->npcol);
  uint64_t nb = (uint64_t)f->sub.desc[HPD_NB];
  uint64_t mr = (uint64_t)hpd_axis_max_count(&rows, f->m);
  uint64_t nc = (uint64_t)hpd_axis_max_count(&cols, f->n);
  uint64_t elems = nb * nb + (uint64_t)hpd_lu_panel_scratch((int)nb) +
                   2 * (mr * nb + nb + 1) + nb * nc + nb; /* the last: both pivot lists */
  return elems * sizeof(hpd_elem) +
         hpd_swap_plan_carve((int64_t)nb, (int64_t)nc, call->nprow, NULL, NULL);
}

int hpd_lu_grid_factor(const hpd_lu *f, hpd_elem *space)
{
  state s = state_of(f, space);
  hpd_lu_pivot_search_open(&s.search, s.nb);
  hpd_factor_run run;
  hpd_factor_run_begin(&run);
  if (s.me_c == panel_at(&s, 0).owner_c)
    factor_panel(&s, 0);
  else
    start_rows(&s, 0);
  int info = 0;
  for (int p = 0; p < s.panels; p++) {
    panel pn = panel_at(&s, p);
    int64_t mr = panel_rows(&s, &pn);
    hpd_factor_run_wait(&run, &s.row_bcast[p % 2], 1,
                        (size_t)(mr * pn.jb + pn.jb + 1) * sizeof(hpd_elem));
    int status = (int)s.panel[p % 2][mr * pn.jb + pn.jb];
    if (info == 0 && status > 0)
      info = (int)pn.g0 + status;
    step(&s, p, &run);
  }
  hpd_lu_pivot_search_close(&s.search);
  hpd_factor_run_end(&run, HPD_ROUTINE_PDGETRF, s.panels,
                     f->booked ? f->booked : hpd_lu_grid_bytes(f));
  return info;
}
