/*
 * pdtrsm, pdtrmm or pdsymm on a line of the grid, where each process of the line can
 * update its share of sub(B) (sub(C)) alone once it holds the whole order-k block of
 * sub(A): the block's triangle is gathered along the line (gather.h), at
 * the strategy's broadcast frequency, and each process makes one local update
 * (local.c) at the multiply frequency.  Two layouts allow it:
 *
 *   on one line: the block's rows (SIDE 'L') or columns ('R') lie on one process row
 *   (column), and so does the part of sub(B) they meet; only that line takes part, and
 *   the rest of the grid is not held up.  That is every call on a 1 x Q grid with SIDE
 *   'L' (P x 1 with 'R'), whose whole block travels once instead of the halving's
 *   operands at every level, and LU's, Cholesky's and inversion's calls on a single
 *   diagonal block;
 *
 *   turned: a P x 1 grid with SIDE 'L' (1 x Q with 'R'), where the rows (columns) of
 *   sub(B) are dealt over the line.  sub(B) is turned first (turn.c), so that each
 *   process holds whole columns (rows) of it, and turned back after.
 *
 * Either way the block is taken whole where its buffers fit the memory threshold, and is
 * halved by the caller otherwise.
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "bcast/shared.h"
#include "bcast/wait.h"
#include "core/alloc_all.h"
#include "core/log.h"
#include "core/stats.h"
#include "kernel/elem.h"
#include "level3/blocked.h"
#include "level3/gather.h"
#include "level3/kept.h"
#include "level3/local.h"
#include "level3/turn.h"
#include "local/direct.h"
#include "phase/phase.h"
#include "phase/spent.h"

/* Buffers up to this many entries are checked on the line alone: a grid-wide agreement
 * on each of LU's diagonal blocks would cost more than the block. */
#define SMALL_BLOCK ((size_t)1 << 17)

/* The shortest runs of rows that travel as rows of the gathered block (place). */
#define MIN_ROW_RUN 8

typedef struct placement {
  int turned;
  int line; /* the process row ('L') or column ('R') holding the line */
  hpd_l3_gather gather;
  hpd_l3_turn turn; /* turned only */
  struct hpd_shared *turn_shared; /* where the chunks lie in shared memory (turn.h) */
  size_t count;     /* buffer entries on each process of the line, at most */
  size_t turning;   /* of which the turn's (none where its chunks are shared) */
} placement;

/* The layout's line with sub(B) as it lies, or -1. */
static int line_as_laid(const hpd_l3 *l3, const hpd_matrix *a, const hpd_matrix *b, int k)
{
  const hpd_call *call = &l3->call;
  int left = l3->side == 'L';
  hpd_axis ak = left ? hpd_matrix_rows(a, call->nprow) : hpd_matrix_cols(a, call->npcol);
  hpd_axis bk = left ? hpd_matrix_rows(b, call->nprow) : hpd_matrix_cols(b, call->npcol);
  int line = hpd_direct_axis_owner(ak, k);
  return line >= 0 && hpd_direct_axis_owner(bk, k) == line ? line : -1;
}

/* pdsymm's sub(C) must lie like sub(B), so that one layout serves both. */
static int c_like_b(const hpd_l3 *l3, const hpd_matrix *b, const hpd_matrix *c, int m, int n)
{
  if (l3->routine != HPD_ROUTINE_PDSYMM)
    return 1;
  const hpd_call *call = &l3->call;
  hpd_axis br = hpd_matrix_rows(b, call->nprow), cr = hpd_matrix_rows(c, call->nprow);
  hpd_axis bc = hpd_matrix_cols(b, call->npcol), cc = hpd_matrix_cols(c, call->npcol);
  return hpd_axis_same(&br, &cr, m) && hpd_axis_same(&bc, &cc, n);
}

/* How this block can be served, from descriptor data alone (the same on every rank):
 * HPD_OK, or HPD_STATUS_DECLINED where neither layout allows it. */
static hpd_status place(const hpd_l3_run *run, const hpd_matrix *a, const hpd_matrix *b,
                        const hpd_matrix *c, int k, placement *pl)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  int left = l3->side == 'L';
  int m = left ? k : call->m, n = left ? call->n : k;
  if (!c_like_b(l3, b, c, m, n))
    return HPD_STATUS_DECLINED;
  *pl = (placement){.line = line_as_laid(l3, a, b, k)};
  /* The block's columns are dealt along a row, its rows along a column. */
  int along_row = pl->line >= 0 ? left : !left;
  if (pl->line < 0) {
    if ((left ? call->npcol : call->nprow) != 1)
      return HPD_STATUS_DECLINED;
    pl->turned = 1;
    pl->line = 0;
  }
  MPI_Comm row = run->grid->row, col = run->grid->col;
  hpd_axis across = along_row ? hpd_matrix_cols(a, call->npcol) : hpd_matrix_rows(a, call->nprow);
  /* Rows dealt along the line arrive as rows of G where they come in runs long enough to
   * copy: packing them as columns of G' transposes their storage (RUNN 1472 x 1472, NB 32,
   * 2x1: 42 to 45 ms against 39), but copies of single rows cost more (NB 1: 80 ms
   * against 58). */
  int rows_of_g = !along_row && across.nb >= MIN_ROW_RUN;
  int g_is_a = along_row || rows_of_g;
  pl->gather = (hpd_l3_gather){
      .k = k, .g_is_a = g_is_a, .rows_of_g = rows_of_g, .g_upper = (call->uplo == 'U') == g_is_a,
      .across = across,
      .nline = along_row ? call->npcol : call->nprow,
      .me = along_row ? call->mycol : call->myrow,
      .comm = along_row ? row : col};
  if (pl->turned) {
    pl->turn = (hpd_l3_turn){
        .left = left, .m = m, .n = n,
        .spread = left ? hpd_matrix_rows(b, call->nprow) : hpd_matrix_cols(b, call->npcol),
        .nline = pl->gather.nline, .me = pl->gather.me, .comm = pl->gather.comm};
    size_t exchange = hpd_l3_turn_exchange(&pl->turn);
    if (exchange > INT_MAX)
      return HPD_STATUS_DECLINED;
    int chunks = l3->routine == HPD_ROUTINE_PDSYMM ? 2 : 1;
    pl->turning = chunks * hpd_l3_turn_chunk(&pl->turn) + 2 * exchange;
  }
  /* G lies in shared memory instead where it can (gather.h); its two areas on a node
   * weigh no more per process than G itself on a line of two or more. */
  pl->count = (size_t)k * (size_t)k + hpd_l3_gather_triangle(k) + pl->turning;
  /* A block over the memory threshold is halved instead, unless it is a single block
   * (nothing to halve). */
  if ((double)pl->count * sizeof(hpd_elem) > hpd_grid_budget(run->grid) &&
      hpd_l3_split(l3, a, k) != 0)
    return HPD_STATUS_DECLINED;
  return HPD_OK;
}

/* Where the line's processes share one node, sub(B)'s chunks, and sub(C)'s for pdsymm,
 * lie in the line's exchange area (turn.h), which must then hold them as well as G:
 * asked for before G's gather asks for its own.  Collective over the line. */
static void share_turn(const hpd_l3 *l3, placement *pl)
{
  int chunks = l3->routine == HPD_ROUTINE_PDSYMM ? 2 : 1;
  size_t turned = chunks * hpd_l3_turn_area(&pl->turn);
  size_t g = (size_t)pl->gather.k * (size_t)pl->gather.k;
  pl->turn_shared = hpd_shared_get(pl->turn.comm, (turned > g ? turned : g) * sizeof(hpd_elem));
  if (pl->turn_shared)
    pl->turning = 0;
}

/* This process's buffers in *space (NULL off the line): HPD_OK, or HPD_STATUS_NO_MEMORY for
 * every process of the grid alike (the block is then halved) where some process of the line
 * could not make them.  Whether to agree grid-wide follows from descriptor data alone. */
static hpd_status agree_on_buffers(const hpd_l3_run *run, const placement *pl, int on_line,
                                   hpd_elem **space)
{
  size_t need = on_line ? hpd_l3_gather_space(&pl->gather) + pl->turning : 0;
  *space = need ? hpd_l3_kept(need, hpd_grid_budget(run->grid)) : NULL;
  on_line = need > 0; /* a process that needs nothing cannot fail */
  if (pl->count <= SMALL_BLOCK) {
    if (on_line && !*space) {
      /* Every process of the line has already taken this path from descriptor data
       * alone: none can turn back now. */
      hpd_fatal("no memory for a %d x %d diagonal block", pl->gather.k, pl->gather.k);
    }
    return HPD_OK;
  }
  if (hpd_all_have(!on_line || *space, run->grid->comm, hpd_collective_waiter()))
    return HPD_OK;
  static atomic_int warned;
  if (!atomic_exchange(&warned, 1))
    hpd_warn("not enough memory to gather a %d x %d block of sub(A) on a line of the grid: "
             "halving it instead",
             pl->gather.k, pl->gather.k);
  return HPD_STATUS_NO_MEMORY;
}

/* A process off the line takes part in the call with nothing to do: it books a call of
 * no steps, so that its statistics describe this call and not the one before. */
static void book_idle(const hpd_l3 *l3)
{
  hpd_spent spent;
  hpd_spent_start(&spent);
  hpd_phase_mark(HPD_PHASE_OTHER);
  hpd_spent_record(&spent, l3->routine, hpd_strategy_booked(), 0);
  hpd_stats_record_grouping(l3->routine, 1, 1, 0, 0);
}

static void turned_or_abort(int status)
{
  if (status != 0)
    hpd_fatal("no memory to turn sub(B) across the grid");
}

static void need_columns(void *gathering, int64_t columns)
{
  hpd_l3_gather_columns(gathering, columns);
}

/* Gathers the block, turns sub(B) (sub(C)) where so placed, updates this process's share
 * and turns it back, entering the strategy's phases. */
static void serve(const hpd_l3_run *run, const placement *pl, const hpd_matrix *a,
                  const hpd_matrix *b, const hpd_matrix *c, hpd_elem alpha, hpd_elem beta,
                  hpd_elem *space)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  int k = pl->gather.k, left = l3->side == 'L', symm = l3->routine == HPD_ROUTINE_PDSYMM;
  hpd_strategy strategy = hpd_strategy_booked();
  int travels = pl->gather.nline > 1;
  int steps = travels ? 1 + pl->turned : 0;
  /* A broadcast phase moves the block's triangle, and sub(B)'s part once when turned. */
  size_t entries = hpd_l3_gather_triangle(k) + (pl->turned ? hpd_l3_turn_exchange(&pl->turn) : 0);
  int switching = travels && hpd_phase_pays(strategy, entries * sizeof(hpd_elem));
  /* Where nothing travels there is no communication phase to slow down for. */
  hpd_strategy phases = travels ? strategy : HPD_STRATEGY_NONE;

  /* G and its staging in the caller's space, unless G lies in shared memory (gather.h). */
  int own_g = hpd_l3_gather_space(&pl->gather) > 0;
  hpd_elem *g = own_g ? space : NULL, *staged = own_g ? g + (size_t)k * (size_t)k : NULL;
  hpd_elem *bx = hpd_direct_origin(call, b, symm ? call->b : call->c);
  hpd_elem *cx = symm ? hpd_direct_origin(call, c, call->c) : NULL;
  int ldb = b->desc[HPD_LLD], ldc = symm ? c->desc[HPD_LLD] : 0;
  hpd_elem *tb = NULL, *tc = NULL, *send = NULL, *recv = NULL, *area = NULL;
  size_t stride = pl->turn_shared ? hpd_l3_turn_area(&pl->turn) : 0;
  /* This process's share of sub(B): columns (SIDE 'L') or rows ('R'). */
  int width;
  if (pl->turned) {
    if (!pl->turn_shared) {
      size_t chunk = hpd_l3_turn_chunk(&pl->turn);
      size_t exchange = hpd_l3_turn_exchange(&pl->turn);
      tb = space + hpd_l3_gather_space(&pl->gather);
      tc = symm ? tb + chunk : tb;
      send = tb + (symm ? 2 : 1) * chunk;
      recv = send + exchange;
    }
    width = hpd_l3_turn_width(&pl->turn);
  } else {
    hpd_axis across = left ? hpd_matrix_cols(b, call->npcol) : hpd_matrix_rows(b, call->nprow);
    width = (int)hpd_axis_count(&across, left ? call->n : call->m,
                                left ? call->mycol : call->myrow);
  }
  int m = left ? k : width, n = left ? width : k;

  hpd_spent spent;
  hpd_spent_start(&spent);
  hpd_phase_enter(phases, switching, HPD_PHASE_BROADCAST);
  int turn_c = symm && beta != 0.0;
  if (pl->turn_shared) {
    /* The turn's exchange stays open through the update and the way back, and the
     * gather's, begun after it, ends both: the turn takes the area the gather leaves. */
    size_t sent = (1 + (size_t)turn_c) * hpd_l3_turn_sent(&pl->turn);
    area = hpd_shared_begin(pl->turn_shared, 1 - HPD_L3_GATHER_AREA, 1,
                            sent * sizeof(hpd_elem));
    hpd_shared_make(pl->turn_shared, (symm ? 2 : 1) * stride * sizeof(hpd_elem));
    tb = area + (size_t)pl->turn.me * hpd_l3_turn_chunk(&pl->turn);
    tc = symm ? tb + stride : tb;
    hpd_l3_turn_place(&pl->turn, bx, ldb, area, 1);
    if (turn_c)
      hpd_l3_turn_place(&pl->turn, cx, ldc, area + stride, 1);
    hpd_shared_publish(pl->turn_shared, 1);
    for (int q = 0; q < pl->turn.nline; q++)
      if (q != pl->turn.me)
        hpd_shared_wait(pl->turn_shared, q, 1);
  } else if (pl->turned) {
    turned_or_abort(hpd_l3_turn_out(&pl->turn, bx, ldb, tb, send, recv));
    if (turn_c)
      turned_or_abort(hpd_l3_turn_out(&pl->turn, cx, ldc, tc, send, recv));
  }
  /* A solve asks for G's columns as it reaches them, so most of the block travels under
   * its first columns' work; so do the multiplies that can, where G travels (where it
   * does not, the trmm and symm kernels alone are as fast). */
  hpd_l3_gathering gathering;
  hpd_l3_gather_begin(&pl->gather, hpd_direct_origin(call, a, call->a), a->desc[HPD_LLD], g,
                      staged, &gathering);
  int streams = l3->routine == HPD_ROUTINE_PDTRSM ||
                (gathering.stream && hpd_l3_local_streams(l3, pl->gather.g_is_a));
  if (!streams)
    hpd_l3_gather_end(&gathering);
  g = gathering.g;
  hpd_l3_ready ready = {need_columns, &gathering};
  const hpd_l3_ready *as_it_comes = streams ? &ready : NULL;
  hpd_phase_enter(phases, switching, HPD_PHASE_MULTIPLY);
  if (pl->turned) {
    int ld = hpd_l3_turn_ld(&pl->turn);
    hpd_l3_local_update(l3, g, k, pl->gather.g_is_a, m, n, alpha, beta, tb, ld, tc, ld,
                        as_it_comes);
    if (streams)
      hpd_l3_gather_end(&gathering);
    hpd_phase_enter(phases, switching, HPD_PHASE_BROADCAST);
    if (pl->turn_shared) {
      hpd_shared_sync(pl->turn_shared); /* every chunk is updated */
      hpd_l3_turn_place(&pl->turn, symm ? cx : bx, symm ? ldc : ldb, symm ? area + stride : area,
                        0);
      hpd_l3_gather_release(&gathering);
    } else {
      hpd_l3_gather_release(&gathering);
      turned_or_abort(hpd_l3_turn_back(&pl->turn, symm ? tc : tb, symm ? cx : bx,
                                       symm ? ldc : ldb, send, recv));
    }
    hpd_phase_enter(phases, switching, HPD_PHASE_MULTIPLY);
  } else {
    hpd_l3_local_update(l3, g, k, pl->gather.g_is_a, m, n, alpha, beta, bx, ldb, cx, ldc,
                        as_it_comes);
    if (streams)
      hpd_l3_gather_end(&gathering);
    hpd_l3_gather_release(&gathering);
  }
  hpd_phase_mark(HPD_PHASE_OTHER);
  hpd_spent_record(&spent, l3->routine, strategy, steps);
  uint64_t bytes_held = (uint64_t)(pl->count * sizeof(hpd_elem));
  hpd_stats_record_grouping(l3->routine, 1, 1, bytes_held, bytes_held);
}

hpd_status hpd_l3_line(hpd_l3_run *run, const hpd_matrix *a, const hpd_matrix *b,
                       const hpd_matrix *c, int k, hpd_elem alpha, hpd_elem beta)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  placement pl;
  if (place(run, a, b, c, k, &pl) != HPD_OK)
    return HPD_STATUS_DECLINED;
  hpd_spent_set_up(run->grid);
  int on_line = pl.turned || (l3->side == 'L' ? call->myrow : call->mycol) == pl.line;
  if (on_line && pl.turned)
    share_turn(l3, &pl);
  if (on_line)
    hpd_l3_gather_share(&pl.gather);
  hpd_elem *space;
  hpd_status agreed = agree_on_buffers(run, &pl, on_line, &space);
  if (agreed != HPD_OK)
    return agreed;
  if (!on_line) {
    book_idle(l3);
    return HPD_OK;
  }
  serve(run, &pl, a, b, c, alpha, beta, space);
  return HPD_OK;
}
