/*
 * The library's own costs: time a rank spends on what no reference call spends, and
 * that grows with the grid rather than with the work (making communicators, timing
 * chunks, links and kernels, agreeing across the grid, making buffers).  The report
 * shows them, so that a run on a large grid says what it paid for being served.
 *
 * A cost is timed from hpd_cost_begin to hpd_cost_end; a cost begun inside another is
 * part of the outer one and is not counted again (a channel made by a chunk trial is
 * tuning).  One thread per process calls the library, as everywhere else.
 */
#ifndef HPD_CORE_COSTS_H
#define HPD_CORE_COSTS_H

#include <stdint.h>

typedef enum hpd_cost {
  HPD_COST_SETUP,     /* the grid's and the broadcast channels' communicators */
  HPD_COST_TUNING,    /* chunk trials, link and whole-message rates, kernel rates */
  HPD_COST_AGREEMENT, /* the dispatch's and the buffers' grid-wide agreements */
  HPD_COST_BUFFERS,   /* working space made or grown, shared windows and their pages */
  HPD_COSTS
} hpd_cost;

typedef struct hpd_cost_total {
  double seconds;
  uint64_t count;
} hpd_cost_total;

/* Begins timing a cost; returns what hpd_cost_end needs. */
double hpd_cost_begin(hpd_cost kind);

/* Ends the cost begun with hpd_cost_begin, which returned started. */
void hpd_cost_end(hpd_cost kind, double started);

/* This process's totals since it started. */
void hpd_costs_get(hpd_cost_total out[HPD_COSTS]);

/* This process's seconds of the costs paid once for all (set-up, tuning, buffers; not
 * the agreements, which recur) since it started: the difference over a call is what the
 * call spent that later calls of its kind do not. */
double hpd_costs_one_off_s(void);

/* The name of a cost, as the report and its JSON spell it. */
const char *hpd_cost_name(hpd_cost kind);

#endif
