/* The energy driver's main table: one row per routine and strategy, daemon's savings,
 * the reference's figures, and the CSV file. */
#ifndef HPD_TESTING_ENERGY_DRIVER_REPORT_H
#define HPD_TESTING_ENERGY_DRIVER_REPORT_H

#include <stdint.h>

#include "energy_driver_data.h"
#include "hpdaemon.h"

#define ED_MAX_REPS 100

enum ed_routine { ED_GEMM = 0, ED_LU = 1, ED_LLT = 2, ED_ROUTINES = 3 };

/* One row.  Times and energy are kept run by run: on a shared machine one disturbed run
 * moves a mean, not the median.  Counts are the same in every run. */
typedef struct ed_figures {
  int runs;
  double time_s[ED_MAX_REPS];                       /* slowest rank */
  double energy_j[ED_MAX_REPS], cpu_s[ED_MAX_REPS]; /* all ranks together */
  uint64_t switches, skipped, held; /* per rank, the largest, summed over runs */
  int ngrp;                   /* the largest of any call */
  uint64_t model, observed, peak_rss; /* bytes per rank, the largest */
  double check; /* worst scaled difference from the reference's result */
  int info;     /* pdgetrf_'s, the first nonzero one */
} ed_figures;

const char *ed_routine_name(int routine); /* "pdgemm", "pdgetrf", "pdpotrf" */

/* Rank 0 only.  source: the hpd_energy_source every energy figure comes from. */
void ed_print_header(const ed_options *o, const ed_grid *g);
void ed_print_row(int routine, int strategy, const ed_figures *f, int source);
void ed_append_csv(const ed_options *o, int routine, int strategy, const ed_figures *f,
                   int source);
void ed_print_savings(const ed_options *o, ed_figures rows[ED_ROUTINES][HPD_STRATEGIES],
                      int source);
void ed_print_reference(const ed_figures ref[ED_ROUTINES], int source);

#endif
