/*
 * What the engine sees of energy accounting: set-up once per job on the first grid, a
 * mark at every phase boundary, and samples around each call.
 */
#ifndef HPD_ENERGY_ENERGY_H
#define HPD_ENERGY_ENERGY_H

#include <mpi.h>

#include "core/checked.h"
#include "core/waited.h"
#include "energy/ledger.h"
#include "energy/model.h"
#include "hpdaemon.h"

/* Sets this rank up, once.  Collective over comm (waited through wait): one reader per
 * node opens the meter, and the job is measured only if every node's meter opened.  With
 * MPI_COMM_NULL the rank models its own energy.  khz: the frequency in force. */
void hpd_energy_setup(MPI_Comm comm, unsigned khz, hpd_wait_fn wait);
HPD_CHECKED int hpd_energy_ready(void);

/* A phase boundary: time from here on counts for phase at khz. */
void hpd_energy_mark(hpd_phase phase, unsigned khz);

/* The sample as of the last mark, without reading a clock: right after a mark, what
 * hpd_get_energy_sample would give, for a fraction of its cost. */
void hpd_energy_sample_at_mark(hpd_energy_sample *out);

/* The job's source once set up. */
hpd_energy_source hpd_energy_source_now(void);

/* The joules of a sample difference in the job's source. */
double hpd_energy_joules(const hpd_energy_sample *delta);

/* The power model's break-even time for a low-frequency phase between two switches
 * (hpd_power_model_break_even_s), with the job's model, or the built-in one before
 * set-up or under HPD_ENERGY=none. */
double hpd_energy_break_even_s(unsigned low_khz, unsigned high_khz, double busy_share);

/* The modeled joules of phases that have not run yet, and of the switches between them,
 * with the same model as hpd_energy_break_even_s. */
double hpd_energy_predict_j(const hpd_phase_time *phases, int n, uint64_t switches);

#endif
