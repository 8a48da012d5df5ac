/*
 * What the engine sees of frequency scaling: set-up once per job on the first grid,
 * then one call per phase.  The strategy decides how many panels a phase spans; a
 * phase entry asks for its frequency, and a request for the frequency already set is
 * skipped (counted apart).
 */
#ifndef HPD_DVFS_DVFS_H
#define HPD_DVFS_DVFS_H

#include <mpi.h>
#include <stdint.h>

#include "core/checked.h"
#include "core/waited.h"
#include "hpdaemon.h"

/* Sets this rank up, once.  Collective over comm, where the ranks of a node compare
 * their frequency domains (waited through wait); with MPI_COMM_NULL the rank cannot know
 * whom it shares with, so it uses no real backend (sim under auto). */
void hpd_dvfs_setup(MPI_Comm comm, hpd_wait_fn wait);
HPD_CHECKED int hpd_dvfs_ready(void);

/* Panels per group under the strategy: basic switches around every panel, so it
 * broadcasts and multiplies one at a time; the others group ngrp. */
HPD_CHECKED int hpd_dvfs_group_panels(hpd_strategy strategy, int ngrp);

/* Requests the phase's frequency if the strategy switches; returns 1 if it changed. */
int hpd_dvfs_phase(hpd_strategy strategy, hpd_phase phase);

/* Counts a phase request the strategy held back (the group was too short to pay for
 * its switches): nothing is written, the frequency stays as it is. */
void hpd_dvfs_hold(hpd_strategy strategy);

/* The broadcast and multiply frequencies in kHz (0 where no backend knows them). */
void hpd_dvfs_levels(unsigned *low_khz, unsigned *high_khz);

/* The frequency in force for the energy model, in kHz (the high one before any switch). */
unsigned hpd_dvfs_current_khz(void);

/* Puts the original frequency state back (finalize, exit); idempotent. */
void hpd_dvfs_restore(void);

#endif
