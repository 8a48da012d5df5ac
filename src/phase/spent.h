/*
 * What one served piece of work spent, recorded under its routine: its broadcasts, its
 * frequency switches and its energy.  The engine's grouped loop and level 3's own
 * broadcast-then-compute steps (src/level3/line.c) book alike, so the report, the JSON
 * and the switch identities cover both.
 */
#ifndef HPD_PHASE_SPENT_H
#define HPD_PHASE_SPENT_H

#include "bcast/bcast.h"
#include "energy/energy.h"
#include "hpdaemon.h"
#include "pblas/grid.h"

typedef struct hpd_spent {
  hpd_bcast_counters bcast;
  hpd_dvfs_totals switched;
  hpd_energy_sample spent;
} hpd_spent;

/* Frequency scaling and energy accounting are set up once per process; the first use of
 * a grid checks its ranks' node (a collective over the grid: every rank of it calls). */
void hpd_spent_set_up(const hpd_grid *grid);

/* The counters now. */
void hpd_spent_start(hpd_spent *m);

/* Records what was spent since hpd_spent_start (the work must have ended on an energy
 * mark) over steps broadcast steps, and leaves the differences in *m. */
void hpd_spent_record(hpd_spent *m, hpd_routine routine, hpd_strategy strategy, int steps);

#endif
