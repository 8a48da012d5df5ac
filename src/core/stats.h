/* Per-rank counters behind hpd_get_stats and the report. */
#ifndef HPD_CORE_STATS_H
#define HPD_CORE_STATS_H

#include "hpdaemon.h"

/* Served by the engine when reason < 0, else by the reference for that reason. */
void hpd_stats_record(hpd_routine routine, int reason, double seconds);

#define HPD_SERVED_BY_ENGINE (-1)

/* The grouping the engine chose for one call; bytes are per rank. */
void hpd_stats_record_grouping(hpd_routine routine, int ngrp, int panels,
                               uint64_t extra_bytes_model, uint64_t extra_bytes_observed);

#endif
