/* The cost of this process's broadcast calls, behind hpd_bcast_counters_get. */
#ifndef HPD_BCAST_COUNTERS_H
#define HPD_BCAST_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

/* One broadcast started. */
void hpd_counters_add_start(size_t bytes);

/* Seconds spent timing one size class's chunk candidates. */
void hpd_counters_add_trials(double seconds);

/* The latest broadcast that moved data used chunks of this size (0: not pipelined). */
void hpd_counters_set_chunk(uint64_t chunk);

/*
 * The time of one public broadcast call (start, test or wait), between begin and end.
 * Reading this thread's CPU clock is a system call (about 0.25 us), as long as a whole
 * small broadcast, so it is read only once a call is about to wait: until then the call
 * ran on its core, and its CPU time is its wall time.  Whatever may wait (the wait
 * loops) calls hpd_call_blocks first.
 */
void hpd_call_begin(void);
void hpd_call_blocks(void);
void hpd_call_end(void);

#endif
