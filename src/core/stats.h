/* Per-rank counters behind hpd_get_stats and the report. */
#ifndef HPD_CORE_STATS_H
#define HPD_CORE_STATS_H

#include "core/checked.h"
#include "hpdaemon.h"

/* A call served by the engine, or sent past it by the dispatch rule (the HPD_SERVED_
 * values below), else by the reference for that fallback reason.  `seconds` stands for
 * `calls` calls' time: 1, or more for a timed call of a run of identical ones of which
 * only some are timed (this one and the untimed before it), 0 for an untimed one. */
void hpd_stats_record(hpd_routine routine, int reason, double seconds, int calls);

#define HPD_SERVED_BY_ENGINE (-1)
#define HPD_SERVED_DIRECT_LOCAL (-2)     /* a local dgemm or dsyrk: nothing travelled */
#define HPD_SERVED_DIRECT_REFERENCE (-3) /* the reference, predicted faster */

/* The grouping the engine chose for one call; bytes are per rank. */
void hpd_stats_record_grouping(hpd_routine routine, int ngrp, int panels,
                               uint64_t extra_bytes_model, uint64_t extra_bytes_observed);

/* Broadcasts made for one call: adds count, bytes and seconds; when count is not 0,
 * chunk becomes the latest pipeline chunk (0: the latest broadcast was not pipelined). */
void hpd_stats_record_bcast(hpd_routine routine, uint64_t count, uint64_t bytes,
                            double wall_s, double cpu_s, uint64_t chunk);

/* The frequency switches of one engine call over its steps broadcast steps (call: the
 * differences of the DVFS totals around it). */
void hpd_stats_record_dvfs(hpd_routine routine, hpd_strategy strategy, int steps,
                           const hpd_dvfs_totals *call);

/* One engine call's energy accounting (differences of two samples); joules is the
 * call's figure in the job's source. */
void hpd_stats_record_energy(hpd_routine routine, const hpd_energy_sample *call,
                             hpd_energy_source source, double joules);

/* One call the auto strategy decided: the schedule taken (overlap 1, daemon 0), why
 * (hpd_auto_reason); for both schedules the predictions compared (seconds of the grid's
 * slowest rank, modeled joules of the whole grid) and this rank's predicted joules;
 * this rank's predicted phases; what the call took on this rank: wall seconds and
 * modeled joules. */
typedef struct hpd_auto_call {
  int routine, overlap, reason;
  double predicted_s[2], predicted_j[2], own_j[2];
  double broadcast_s, multiply_s;
  double observed_s, observed_j, observed_broadcast_s, observed_multiply_s;
} hpd_auto_call;

void hpd_stats_record_auto(hpd_routine routine, const hpd_auto_call *call);

/* The latest decided calls on this rank, oldest first, for the JSON report. */
#define HPD_AUTO_LOG 64
HPD_CHECKED int hpd_stats_auto_log(hpd_auto_call out[HPD_AUTO_LOG]);

#endif
