/*
 * The auto strategy: daemon or overlap, chosen per call by predicted time and energy.
 *
 * Daemon runs a group's broadcasts at the low frequency and then its multiply at the
 * high one, so a call lasts about T_b + T_m; overlap keeps the high frequency and hides
 * the next group's broadcasts behind this group's multiply, about max(T_b, T_m).  Which
 * costs less energy depends on how much of the time overlap saves against what the low
 * frequency saves, so neither is always right.
 *
 * The predictions come from what the grid's earlier calls showed, kept per size class
 * (the call's m*n*k, by factors of 4): daemon calls give this rank's broadcast seconds
 * per byte (T_b = bytes * that), multiply seconds per flop (T_m) and how far the whole
 * call exceeded T_b + T_m; overlap calls give how far they exceeded max(T_b, T_m).  A
 * class not yet seen borrows from the nearest one that was.  The first calls of a grid
 * learn both: on one node daemon first, then overlap; across nodes overlap first (it
 * hides the link, so the first call is the faster one), and then daemon's figures come
 * from the model where the links have shown their rates (its broadcasts at the fastest
 * of them, its multiply at overlap's rate, both bounds it cannot beat), else from a
 * daemon call.  Every rank of the grid sees the same calls, so they agree on these
 * without a message, but for one allreduce on whether every link has a rate.
 * Afterwards each rank predicts both schedules, one allreduce takes the slowest rank's
 * time and the sum of the ranks' modeled joules, and every rank applies the same rule to
 * the same figures: the least energy among the schedules within HPD_MAX_SLOWDOWN of
 * the faster.  A choice repeated many times in a class is put to the test now and then,
 * where the other schedule is predicted close enough to win (schedule_history.h).
 */
#ifndef HPD_PDGEMM_SCHEDULE_H
#define HPD_PDGEMM_SCHEDULE_H

#include <stdint.h>

#include "core/stats.h"
#include "hpdaemon.h"
#include "pblas/grid.h"

/* One call's work on this rank, in the measures the predictions scale by. */
typedef struct hpd_schedule_work {
  double volume; /* m * n * k of the call: the same on every rank, it picks the class */
  double bytes;  /* what this rank's shares of the travelling panels hold */
  double flops;  /* this rank's multiply */
  int daemon_groups; /* the daemon schedule's groups: two switches each */
  /* The least time its broadcasts can take: what this rank receives at the fastest rate
   * its links have shown; 0 where a link has shown none yet. */
  double least_link_s;
  /* Whether the grid has a line of three ranks or more that a panel travels along (the
   * same on every rank), and whether, on this rank's lines, overlap's hidden broadcasts
   * would crawl: a hidden panel that goes down a chain (bcast.h) moves one hop per poll
   * of the rank before it, and a group's multiply polls once per strip (poll.h), so
   * where the line cannot carry a group's panels in that multiply's time, the next
   * group's panels reach its end a multiply or more late, group after group (simulated
   * 8x8 Ethernet ranks, order 16384: overlap 71.6 s, daemon 33.7 s).  A line whose
   * panels go flat or down a binomial tree does not crawl (engine.c). */
  int long_lines, crawls;
} hpd_schedule_work;

/* HPD_STRATEGY_DAEMON or HPD_STRATEGY_OVERLAP for a call whose operands travel, with
 * the predictions and the reason in *decision.  Where overlap would crawl on any rank,
 * daemon, neither learned nor predicted (HPD_AUTO_ONLY_IN_BUDGET).  Collective over
 * grid->comm where the grid has long lines or the call is not one that learns. */
hpd_strategy hpd_schedule_choose(const hpd_grid *grid, const hpd_schedule_work *work,
                                 hpd_auto_call *decision);

/* What the call showed, run under strategy (daemon or overlap): this rank's sample
 * difference around it and the CPU share of its broadcast calls. */
void hpd_schedule_learn(const hpd_grid *grid, const hpd_schedule_work *work,
                        hpd_strategy strategy, const hpd_energy_sample *call,
                        double bcast_busy_share);

#endif
