#include "pdgemm/engine.h"

#include <limits.h>
#include <math.h>

#include "core/clock.h"
#include "core/config.h"
#include "core/stats.h"
#include "dvfs/dvfs.h"
#include "energy/energy.h"
#include "local/triangle.h"
#include "pblas/call.h"
#include "pblas/grid.h"
#include "pblas/kernel_rate.h"
#include "pblas/poll.h"
#include "pdgemm/buffers.h"
#include "pdgemm/gathered.h"
#include "pdgemm/ngrp.h"
#include "pdgemm/operands.h"
#include "pdgemm/panels.h"
#include "pdgemm/schedule.h"
#include "pdgemm/summa.h"
#include "pdgemm/summa_pieces.h"
#include "phase/spent.h"

/* This process's share of sub(C). */
typedef struct c_share {
  hpd_elem *c;
  int ldc;
  int64_t m, n;
} c_share;

/* The lines a call's panels may travel along: A's along the grid's row, B's down its
 * column, with this rank's rows (A) or columns (B) of sub(C), what each column of a panel
 * holds there (the same on every rank of the line). */
typedef struct travel_line {
  int travels, size;
  MPI_Comm comm;
  double extent;
} travel_line;

static void travel_lines(const hpd_call *call, const hpd_grid *grid, const hpd_operand *a,
                         const hpd_operand *b, c_share share, travel_line lines[2])
{
  lines[0] = (travel_line){a->travels, call->npcol, grid->row, (double)share.m};
  lines[1] = (travel_line){b->travels, call->nprow, grid->col, (double)share.n};
}

/* The least time the travelling panels take to reach this rank: on each line they travel
 * along, every panel but its own share, at the fastest rate that line's link has shown;
 * 0 where a link has shown none yet. */
static double least_link_s(const travel_line lines[2], double k)
{
  double seconds = 0.0;
  for (int i = 0; i < 2; i++) {
    if (!lines[i].travels || lines[i].size < 2)
      continue;
    double rate = hpd_bcast_link_rate_fastest(lines[i].comm);
    if (!(rate > 0.0))
      return 0.0;
    double share = (double)(lines[i].size - 1) / lines[i].size;
    seconds += sizeof(hpd_elem) * k * lines[i].extent * share / rate;
  }
  return seconds;
}

/* The polls of a group's multiply of group_columns on a share of m x n: its strips. */
static int group_polls(int64_t m, int64_t n, int64_t group_columns)
{
  int64_t strip = hpd_poll_strip(HPD_POLL_FLOPS, 2.0 * (double)m * group_columns, n);
  int64_t strips = n > 0 ? (n + strip - 1) / strip : 1;
  return strips < INT_MAX ? (int)strips : INT_MAX;
}

/* Whether overlap's hidden broadcasts would crawl on this rank's lines (schedule.h):
 * a line of three ranks or more whose panels (widest columns) go down the chain, neither
 * flat at the rate measured as a broadcast measures it (collective over the line; not at
 * all while tuning is held: a line without a rate stays a chain) nor down a binomial
 * tree (hpd_bcast_batch: the chain longer than a group's strips), and that cannot carry
 * a group's panels in the time the group's multiply takes at this process's kernel rate:
 * its hops are then forwarded one poll late after another, and each falls further behind
 * (paper-ethernet 8x8, order 16384, where a column's 7 hops fit in a group's 14 strips:
 * overlap's call took 71.6 s, daemon's 33.7 s).  A tree's ranks pass a panel on whole at
 * their first poll after it (across nodes one child after another, once the send before
 * is done: tree.c), so it takes about the hops it takes in daemon's broadcast; the
 * levels the polls miss are made at the links' full rate while the line's ranks wait at
 * the group's end, as daemon makes them (the same grid at order 4096, 3 levels against a
 * group's one strip: overlap 1.52 s, daemon 1.71 s; paper-infiniband 32x16 at 16384, 5
 * levels against 2 strips: 2.13 s and 2.82 s).
 * The kernel's rate is timed (pblas/kernel_rate.h) only where the timing's flops are at
 * most 1/TIMING_SHARE of the call's: a shorter call moves too little for its broadcasts
 * to fall far behind, and the timing would cost it more (order 4096 on 16x16 simulated
 * ranks of 10 GFLOP/s: 54 ms against an 80 ms call); without a rate the check is not
 * made. */
#define TIMING_SHARE 100.0

/* A group's multiply of group_columns on this rank's share, in seconds at the kernel's
 * rate (timed as above), or 0 where no rate is known.  k: the call's columns of K, both
 * sides of a pair. */
static double group_multiply_s(c_share share, double k, int64_t group_columns, int widest)
{
  int rows = (int)fmin((double)share.m, INT_MAX), cols = (int)fmin((double)share.n, INT_MAX);
  double share_flops = 2.0 * (double)share.m * (double)share.n;
  int may_time = hpd_kernel_timing_flops(rows, cols, widest) * TIMING_SHARE <= share_flops * k;
  return share_flops * (double)group_columns *
         hpd_kernel_s_per_flop(rows, cols, widest, may_time);
}

static int overlap_crawls(const hpd_grid *grid, const travel_line lines[2], c_share share,
                          double k, int64_t group_columns, int widest)
{
  int strips = group_polls(share.m, share.n, group_columns);
  double multiply_s = -1.0; /* timed only where a line needs it */
  int crawls = 0;
  for (int i = 0; i < 2; i++) {
    if (!lines[i].travels || lines[i].size < 3)
      continue;
    double panel = (double)sizeof(hpd_elem) * widest * lines[i].extent;
    double rate = panel > 0.0 ? hpd_bcast_measure_link(lines[i].comm, (size_t)panel,
                                                       hpd_grid_bcast(grid))
                              : 0.0;
    if (crawls || !(rate > 0.0) ||
        hpd_bcast_hidden_shape(lines[i].comm, (size_t)panel, strips) != HPD_HIDDEN_CHAIN)
      continue;
    if (multiply_s < 0.0)
      multiply_s = group_multiply_s(share, k, group_columns, widest);
    double group_link_s =
        (double)sizeof(hpd_elem) * (double)group_columns * lines[i].extent / rate;
    crawls = multiply_s > 0.0 && group_link_s > multiply_s;
  }
  return crawls;
}

/* Groups that overlap keeps travelling while one multiplies: two where a hidden panel
 * reaches some rank of one of this rank's lines only through another rank's poll, either
 * forwarded from a flat broadcast's node (hpd_bcast_forwards) or down a tree deeper than
 * a group's multiply has polls (hpd_bcast_hidden_shape: paper-infiniband 16x32, order
 * 8192, a column of 16 ranks on 16 nodes, 4 levels against 1 strip), so that the forward
 * has a whole multiply before its group is needed; else one.  polls: those of a group
 * one ahead, as the broadcasts count them (the summa loop's hidden_polls).  Collective
 * over the lines the operands travel along: a line's rate is measured first (as the crawl
 * check measures it), since whether a panel goes flat depends on it.  Each rank decides
 * for its own lines; the grid agrees on the groups' width (buffers.h). */
static int overlap_ahead(const hpd_call *call, const hpd_grid *grid, const hpd_operand *a,
                         const hpd_operand *b, c_share share, int widest, int polls)
{
  travel_line lines[2];
  travel_lines(call, grid, a, b, share, lines);
  int forwards = 0;
  for (int i = 0; i < 2; i++) {
    if (!lines[i].travels || lines[i].size < 3)
      continue;
    size_t panel = sizeof(hpd_elem) * (size_t)widest * (size_t)lines[i].extent;
    if (panel > 0)
      (void)hpd_bcast_measure_link(lines[i].comm, panel, hpd_grid_bcast(grid));
    int deep_tree = hpd_bcast_hidden_shape(lines[i].comm, panel, polls) == HPD_HIDDEN_TREE &&
                    hpd_bcast_hidden_hops(lines[i].size, polls) > polls;
    forwards |= hpd_bcast_forwards(lines[i].comm) || deep_tree;
  }
  return forwards ? 2 : 1;
}

/* The auto strategy's schedule for a call whose operands travel (schedule.h); overlap's
 * groups would span group_columns of K. */
static hpd_strategy choose_schedule(const hpd_call *call, const hpd_grid *grid,
                                    const hpd_operand *a, const hpd_operand *b, int sides,
                                    c_share share, int groups, int64_t group_columns,
                                    int widest, hpd_schedule_work *work,
                                    hpd_auto_call *decision)
{
  double k = (double)call->k * sides; /* a pair multiplies [A B] by [B A]' */
  *work = (hpd_schedule_work){
      .volume = (double)call->m * (double)call->n * k,
      .bytes = (double)sizeof(hpd_elem) * k *
               (double)((a->travels ? share.m : 0) + (b->travels ? share.n : 0)),
      .flops = 2.0 * (double)share.m * (double)share.n * k,
      .daemon_groups = groups};
  travel_line lines[2];
  travel_lines(call, grid, a, b, share, lines);
  for (int i = 0; i < 2; i++)
    work->long_lines |= lines[i].travels && lines[i].size > 2;
  if (work->long_lines)
    work->crawls = overlap_crawls(grid, lines, share, k, group_columns, widest);
  work->least_link_s = least_link_s(lines, k);
  return hpd_schedule_choose(grid, work, decision);
}

static int multiply(const hpd_call *call, hpd_routine routine, const hpd_grid *grid,
                    c_share share, const hpd_triangle *triangle)
{
  double started = hpd_now();
  const hpd_settings *cfg = hpd_config_get();
  hpd_operand a, b, a2;
  int64_t kb;
  hpd_operands_plan(call, cfg->kb, &a, &b, &kb);
  if (hpd_operands_plan_pair(call, &b, &a2) != HPD_OK)
    return HPD_FALLBACK_UNSUPPORTED;
  int sides = call->pair ? 2 : 1;
  const hpd_axis *b_cuts = call->pair ? &a2.k : b.travels && !b.gathered ? &b.k : NULL;
  hpd_panels panels = {call->k, a.travels ? &a.k : NULL, b_cuts, kb};
  int widest = 0, count = hpd_panel_count(&panels, &widest);

  /* The largest shares of sub(C) on any process: the same figures on every rank. */
  hpd_axis crows = hpd_matrix_rows(&call->C, call->nprow);
  hpd_axis ccols = hpd_matrix_cols(&call->C, call->npcol);
  int64_t mloc_max = hpd_axis_max_count(&crows, call->m);
  int64_t nloc_max = hpd_axis_max_count(&ccols, call->n);
  if ((uint64_t)mloc_max * (uint64_t)widest > HPD_BCAST_MAX_COUNT ||
      (uint64_t)nloc_max * (uint64_t)widest > HPD_BCAST_MAX_COUNT)
    return HPD_FALLBACK_UNSUPPORTED; /* one panel would exceed an MPI count */

  hpd_spent_set_up(grid);
  hpd_strategy strategy = hpd_grid_strategy(grid);
  double budget = hpd_grid_budget(grid);
  int ngrp = hpd_ngrp_choose(cfg->ngrp, budget, mloc_max, nloc_max, widest * sides, count);
  int may_overlap = strategy == HPD_STRATEGY_AUTO || strategy == HPD_STRATEGY_OVERLAP;
  hpd_growth growth = hpd_buffers_growth(grid, ngrp, a.travels ? mloc_max : 0,
                                         b.travels || b.from_a ? nloc_max : 0, widest * sides,
                                         budget, may_overlap ? 2 : 1);
  ngrp = growth.ngrp;
  int travels = a.travels || b.travels;
  int decided = strategy == HPD_STRATEGY_AUTO && travels;
  hpd_schedule_work work;
  hpd_auto_call decision;
  int ahead = 1;
  if (travels && may_overlap) {
    /* The polls of a group one ahead, as the broadcasts will count them. */
    int one_slot = 1;
    int one_ahead = hpd_ngrp_overlap(cfg->ngrp, ngrp, widest, count, 1, &one_slot);
    int64_t columns = (int64_t)one_ahead * widest * sides;
    ahead = overlap_ahead(call, grid, &a, &b, share, widest * sides,
                          group_polls(mloc_max, nloc_max, columns));
  }
  if (decided) {
    int overlap_slots = 1;
    int64_t group_columns = (int64_t)hpd_ngrp_overlap(cfg->ngrp, ngrp, widest, count, ahead,
                                                      &overlap_slots) * widest * sides;
    strategy = choose_schedule(call, grid, &a, &b, sides, share, (count + ngrp - 1) / ngrp,
                               group_columns, widest * sides, &work, &decision);
  }
  else if (strategy == HPD_STRATEGY_AUTO)
    strategy = HPD_STRATEGY_DAEMON; /* nothing travels: no phase to switch for */
  int slots = 1, pieces = 1;
  if (strategy == HPD_STRATEGY_OVERLAP && travels) {
    ngrp = hpd_ngrp_overlap(cfg->ngrp, ngrp, widest, count, ahead, &slots);
    pieces = HPD_PIECES_MAX;
  } else
    ngrp = hpd_dvfs_group_panels(strategy, ngrp);
  int ready = hpd_operand_alloc(&a) == HPD_OK && hpd_operand_alloc(&b) == HPD_OK;
  /* The group buffers stay allocated from call to call, within the threshold
   * (core/workspace.h): pages freshly mapped for every call would cost their first-touch
   * faults again each time, about 5% of a large multiply. */
  hpd_buffers bufs = {
      .panels = &panels,
      .a_travels = a.travels,
      .b_travels = b.travels,
      .b_gathers = b.from_a,
      .sides = sides,
      .mloc = share.m,
      .nloc = share.n,
      .slots = slots,
      .handles_per_panel = b.gathered ? 0 : 1 + pieces,
      .handles_per_group = b.gathered ? hpd_gathered_blocks(&b.rows, call->n) : 0,
      .budget = budget};
  ngrp = hpd_buffers_agree(&bufs, ngrp, ready, grid->comm, &growth);
  if (ngrp == 0) {
    hpd_operand_free(&a);
    hpd_operand_free(&b);
    return HPD_FALLBACK_NO_MEMORY;
  }

  hpd_operands_fill(call, &a, &b);
  hpd_triangle_scale(triangle, share.c, share.ldc, share.m, share.n, call->beta);
  hpd_summa loop = {.grid = grid, .myrow = call->myrow, .mycol = call->mycol, .a = &a,
                    .b = &b, .a2 = call->pair ? &a2 : NULL, .panels = &panels,
                    .ngrp = ngrp, .slots = slots,
                    .pieces = pieces, .handles_per_panel = bufs.handles_per_panel,
                    .handles_per_group = bufs.handles_per_group,
                    .strategy = strategy, .alpha = call->alpha,
                    .c = share.c, .ldc = share.ldc, .mloc = (int)share.m,
                    .nloc = (int)share.n, .cut_max = a.travels ? mloc_max : nloc_max,
                    .hidden_polls =
                        group_polls(mloc_max, nloc_max, (int64_t)ngrp * widest * sides),
                    .triangle = triangle, .zeros_in = call->zeros_in,
                    .zeros_uplo = call->zeros_uplo, .abuf = bufs.a,
                    .bbuf = bufs.b,
                    .handles = bufs.handles};
  hpd_spent cost;
  hpd_spent_start(&cost);
  hpd_summa_run(&loop); /* ends on a mark */
  hpd_spent_record(&cost, routine, strategy, hpd_summa_steps(&loop, count));

  if (decided) {
    const hpd_energy_sample *spent = &cost.spent;
    /* What timing chunk candidates took is no schedule's: a call that tuned a new size
     * class would otherwise make its schedule look slow until that schedule ran again
     * (overlap, learned first across nodes, lost to daemon on 4x4 simulated ranks). */
    double trials_s = fmin(cost.bcast.trials_s, fmin(spent->wall_s, spent->broadcast_s));
    hpd_energy_sample learned = *spent;
    learned.wall_s -= trials_s;
    learned.broadcast_s -= trials_s;
    double bcast_wall_s = cost.bcast.wall_s;
    hpd_schedule_learn(grid, &work, strategy, &learned,
                       bcast_wall_s > 0.0 ? cost.bcast.cpu_s / bcast_wall_s : 1.0);
    decision.observed_s = spent->wall_s;
    decision.observed_j = spent->modeled_j;
    decision.observed_broadcast_s = spent->broadcast_s;
    decision.observed_multiply_s = spent->multiply_s;
    hpd_stats_record_auto(routine, &decision);
  }
  hpd_stats_record_grouping(routine, ngrp, count,
                            hpd_ngrp_bytes(ngrp * slots, mloc_max, nloc_max, widest * sides),
                            a.temp_bytes + b.temp_bytes + hpd_buffers_bytes());
  if (growth.capped)
    hpd_buffers_pay_forward(grid, &growth, hpd_now() - started, budget);
  hpd_operand_free(&a);
  hpd_operand_free(&b);
  return HPD_SERVED_BY_ENGINE;
}

int hpd_engine_serve(const hpd_call *call, hpd_routine routine, const hpd_grid *grid)
{
  /* A process outside the grid holds no part of C: nothing to do, as in PBLAS. */
  if (call->myrow < 0 || call->mycol < 0 || call->m == 0 || call->n == 0)
    return HPD_SERVED_BY_ENGINE;

  hpd_triangle triangle = {.uplo = call->uplo,
                           .rows = hpd_matrix_rows(&call->C, call->nprow),
                           .cols = hpd_matrix_cols(&call->C, call->npcol),
                           .myrow = call->myrow, .mycol = call->mycol,
                           .m = call->m, .n = call->n, .b_is_a = call->b_is_a,
                           .pair = call->pair};
  c_share share = {.ldc = call->C.desc[HPD_LLD],
                   .m = hpd_axis_count(&triangle.rows, call->m, call->myrow),
                   .n = hpd_axis_count(&triangle.cols, call->n, call->mycol)};
  share.c = call->c + hpd_matrix_row0(&call->C, call->nprow, call->myrow) +
            hpd_matrix_col0(&call->C, call->npcol, call->mycol) * (int64_t)share.ldc;

  /* Nothing to multiply: C := beta*C, a local step; A and B are never read. */
  if (call->alpha == 0.0 || call->k == 0) {
    hpd_triangle_scale(&triangle, share.c, share.ldc, share.m, share.n, call->beta);
    return HPD_SERVED_BY_ENGINE;
  }

  if (!grid)
    grid = hpd_grid_get(call->ictxt, call->nprow, call->npcol, call->myrow, call->mycol);
  if (!grid)
    return HPD_FALLBACK_NO_GRID;
  return multiply(call, routine, grid, share, &triangle);
}
