/*
 * What the look-ahead factorizations (chol.h, lu.h) share: their buffers, and the
 * booking of each panel's broadcast step.  Each waits for panel p's broadcast once, at
 * the strategy's broadcast frequency, and does everything else (factoring the next panel,
 * applying this one) at its multiply frequency: one broadcast step per panel, N_grp 1,
 * under the switch identities every engine call keeps.  Overlap's identity is no switch
 * at all, and the look-ahead is its kind of schedule.
 */
#ifndef HPD_FACTOR_LOOKAHEAD_H
#define HPD_FACTOR_LOOKAHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "bcast.h"
#include "grid.h"
#include "hpdaemon.h"
#include "spent.h"

/* Up to this much, a factorization's buffers live on its caller's stack: the small ones
 * (order 128 and below with NB 64) then allocate nothing, and no process needs to hear
 * from the others that they have theirs, which costs more than such a factorization's
 * messages. */
#define HPD_FACTOR_STACK_BYTES (192 * 1024)

/*
 * The buffers of a call, bytes on every process (the same figure on each): the caller's
 * stack (HPD_FACTOR_STACK_BYTES) where they fit, else allocated and confirmed by one
 * allreduce over the grid.  Returns HPD_SERVED_BY_ENGINE with *space set (free it when it
 * is not stack), or HPD_FALLBACK_NO_MEMORY on every process alike, past the memory
 * threshold or where one could not allocate (one warning naming routine).
 */
int hpd_factor_buffers(uint64_t bytes, const hpd_grid *grid, double *stack,
                       const char *routine, double **space);

typedef struct hpd_factor_run {
  hpd_strategy strategy; /* booked */
  hpd_strategy phases;   /* switched */
  hpd_spent spent;
  int steps;
} hpd_factor_run;

/* Starts booking; what follows runs at the multiply frequency. */
void hpd_factor_run_begin(hpd_factor_run *run);

/* Waits for one panel's n broadcasts (bytes of them on this process), in the broadcast
 * phase. */
void hpd_factor_run_wait(hpd_factor_run *run, hpd_bcast *handles, int n, size_t bytes);

/* Records the run under routine: panels panels, bytes of buffers per process. */
void hpd_factor_run_end(hpd_factor_run *run, hpd_routine routine, int panels,
                        uint64_t bytes);

/* A progress callback (triangle.h) that moves the two broadcasts at arg. */
void hpd_factor_poll(void *arg);

#endif
