/*
 * The reference's time for a call, from below.  PBLAS runs every level-3 routine as a
 * loop of rank-32 updates of the output (pilaenv's width), each after broadcasts of the
 * operands' panels along the grid's rows and columns that a process waits for before its
 * update.  So a reference call takes at least its flops at this process's measured rate
 * for rank-32 updates of its share of the output (kernel_rate.h), plus the panel bytes
 * this process receives at the fastest rate a whole panel crosses its row and column
 * links, as PBLAS's ring broadcasts send it (hpd_bcast_whole_rate: the best of three,
 * once per size class; a chunk tuning would cost three times as much and time chunks
 * PBLAS never sends), for each panel PBLAS moves: pdsyr2k moves both operands' panels
 * each way, and pdsymm on the line of sub(B)'s panels also combines a panel of partial
 * products over that line at every step.  The routine's flops are counted as a fraction
 * of a multiply of the output's order by call->k: 1 for pdgemm, pdsymm and pdsyr2k (two
 * products on one triangle), 1/2 for pdsyrk, pdtrsm and pdtrmm (one triangle).  A link
 * not yet measured counts as free.
 * PBLAS's pdtrsm from the left on one process row takes another algorithm, whose steps
 * wait on each other across the row (pblas_trsm.h): its figure is its chain of messages
 * and its flops, since each step's messages leave only once the process that solves the
 * step has updated its share.
 *
 * The sum is a bound only where a panel's transfer never overlaps an update.  Over TCP a
 * sender's message can move while its receiver still computes the update before: a solve
 * from the right on 2x1 across two emulated hosts ran at 0.82 of this figure (the engine,
 * slower still, was not taken).  test_predict checks it against the reference on one node.
 */
#ifndef HPD_PBLAS_PREDICT_H
#define HPD_PBLAS_PREDICT_H

#include "hpdaemon.h"
#include "pblas/call.h"
#include "pblas/grid.h"

/* PBLAS's rank-k update width (pilaenv). */
#define HPD_REFERENCE_KB 32

/* The bound's terms for a call, from its arguments alone: nothing measured yet. */
typedef struct hpd_reference_plan {
  int rows, cols, kb; /* the rank-kb update of this process's share */
  double flops;       /* of that share */
  double row_bytes, row_panel; /* received along the grid's row, in messages of row_panel */
  double col_bytes, col_panel; /* the same along its column */
} hpd_reference_plan;

hpd_reference_plan hpd_predict_plan(const hpd_call *call, hpd_routine routine);

/* Times the whole panels the plan's links carry, where not timed yet (collective over the
 * grid's rows and columns, as hpd_predict_bound_s, which then finds them kept). */
void hpd_predict_measure_links(const hpd_reference_plan *plan, const hpd_grid *grid);

/* The plan's flops at this process's measured rate (local, kernel_rate.h), timed now
 * where it is due and may_time allows; 0 where no rate is kept. */
double hpd_predict_compute_s(const hpd_reference_plan *plan, int may_time);

/* The seconds hpd_predict_compute_s would spend timing the rate, predicted at
 * s_per_flop; 0 where the rate is known already. */
double hpd_predict_compute_cost_s(const hpd_reference_plan *plan, double s_per_flop);

/* This process's seconds for the plan's links alone, a lower bound on the reference's
 * that needs no kernel timing; collective as hpd_predict_bound_s. */
double hpd_predict_links_s(const hpd_reference_plan *plan, const hpd_grid *grid);

/* This process's lower bound on the reference's seconds, given the plan's compute_s;
 * 0 where compute_s is.  Collective over the grid's rows and columns where a link must be
 * measured: every rank of the grid calls it together. */
double hpd_predict_bound_s(const hpd_reference_plan *plan, double compute_s,
                           const hpd_grid *grid);

/* Both steps at once for a checked, not local call on grid. */
double hpd_predict_reference_s(const hpd_call *call, hpd_routine routine,
                               const hpd_grid *grid);

/* How much faster than the figure the engine must be to be taken without a reference
 * call, on one line of the grid: 1 where the figure follows PBLAS's own algorithm for the
 * call (pdgemm, pdsyrk, pdsyr2k, pdsymm on the line of sub(B)'s panels, the
 * inner-product solve, pdtrsm and pdtrmm from the left with TRANSA 'N' on P x 1, whose
 * blocks of sub(B) travel whole); 1.25 elsewhere, where PBLAS
 * runs the routine with more overlap than the general figure grants (pdtrmm L U N N of
 * order 2048 on 1x2 across two emulated hosts took 165 ms against a figure of 177 ms).
 * On a 2-D grid the figure decides nothing (INFINITY: a round of calibration measures the
 * reference): the links' rates were measured with every line broadcasting at once, while
 * PBLAS's panels leave line after line as its processes drift apart and find the links
 * partly free.  On 8x8 simulated ranks of two InfiniBand nodes a pdgemm of order 4096
 * took 0.248 s against a figure of 0.302 s, and on 16x32 0.141 s against a figure above
 * the engine's 0.20 s.  Nor for the factorizations, which the figure does not model:
 * INFINITY for pdgetrf and pdpotrf on every grid. */
double hpd_predict_margin(const hpd_call *call, hpd_routine routine);

#endif
