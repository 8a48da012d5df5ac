/*
 * Where this rank's time went: wall and CPU seconds per phase (the engine's broadcasts,
 * its multiplies, everything else) and per frequency, from the first mark on.  The model
 * turns the per-frequency figures into joules; the per-phase ones go to the statistics.
 */
#ifndef HPD_ENERGY_LEDGER_H
#define HPD_ENERGY_LEDGER_H

#include "energy/model.h"
#include "hpdaemon.h"

#define HPD_LEDGER_PHASES 3 /* every hpd_phase, HPD_PHASE_OTHER included */

typedef struct hpd_ledger {
  double wall_s[HPD_LEDGER_PHASES], cpu_s[HPD_LEDGER_PHASES];
  int levels; /* distinct frequencies seen */
  hpd_phase_time at[HPD_MODEL_MAX_LEVELS];
} hpd_ledger;

/* Closes the running segment and opens one for phase at khz (0 = unknown). */
void hpd_ledger_mark(hpd_phase phase, unsigned khz);

/* The totals so far, the running segment included (it goes on). */
void hpd_ledger_read(hpd_ledger *out);

/* The totals up to the last mark, the running segment left out: no clock is read. */
void hpd_ledger_read_at_mark(hpd_ledger *out);

#endif
