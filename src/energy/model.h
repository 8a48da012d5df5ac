/*
 * The power model, for nodes without a meter: a core draws P_busy(f) while it computes
 * and P_idle(f) while it waits, and every frequency switch costs E_switch, so
 *   E = sum over phases of (P_busy(f) * t_busy + P_idle(f) * t_idle) + switches * E_switch.
 * Figures from it are modeled, never measured.  The built-in parameters describe the
 * HP-DAEMON paper's cluster (README.md says how they were derived).
 */
#ifndef HPD_ENERGY_MODEL_H
#define HPD_ENERGY_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/checked.h"

#define HPD_MODEL_MAX_LEVELS 16

typedef struct hpd_power_model {
  int levels;                            /* frequency levels, ascending, at least one */
  unsigned khz[HPD_MODEL_MAX_LEVELS];
  double busy_w[HPD_MODEL_MAX_LEVELS];   /* one core computing at khz[i] */
  double idle_w[HPD_MODEL_MAX_LEVELS];   /* one core waiting at khz[i] */
  double switch_j;                       /* energy of one frequency switch */
  double switch_us;                      /* its duration */
  char source[256];                      /* "built-in: ..." or the file's path */
} hpd_power_model;

/* The paper's cluster: AMD Opteron 2380, 0.8/1.3/1.8/2.5 GHz, 0.1 J and 70 us a switch. */
void hpd_power_model_builtin(hpd_power_model *m);

/* Reads a model file (README.md gives the format).  HPD_OK, or a failure with one line in
 * why naming the file and, for a bad line, its number; *m is then unchanged. */
HPD_CHECKED hpd_status hpd_power_model_load(const char *path, hpd_power_model *m, char *why,
                                            size_t why_size);

/* Watts of one core at khz, busy (1) or idle (0): linear between the two nearest levels,
 * the end level's watts outside them. */
double hpd_power_model_watts(const hpd_power_model *m, unsigned khz, int busy);

/* Time one core spent at one frequency: busy_s computing (its CPU time), idle_s waiting
 * (wall time less CPU time).  A negative time, which clock granularity can give, counts
 * as 0. */
typedef struct hpd_phase_time {
  unsigned khz;
  double busy_s, idle_s;
} hpd_phase_time;

/* Joules of n phases and of the switches between them. */
double hpd_power_model_joules(const hpd_power_model *m, const hpd_phase_time *t, int n,
                              uint64_t switches);

/* How long a phase must run at low_khz instead of high_khz (0: the model's lowest or
 * highest level) to save the two switches around it, for a core busy for busy_share of
 * the phase (clamped to [0,1]); INFINITY where the low frequency saves nothing. */
double hpd_power_model_break_even_s(const hpd_power_model *m, unsigned low_khz,
                                    unsigned high_khz, double busy_share);

#endif
