/*
 * The broadcasts in flight on this process, on every communicator.  Point-to-point
 * chunks move only while someone calls into MPI, so every test or wait steps all of
 * them, not just the ones it was asked about: a rank waiting for its row's panel still
 * forwards its column's chunks to the next rank of the chain.
 */
#ifndef HPD_BCAST_INFLIGHT_H
#define HPD_BCAST_INFLIGHT_H

#include "bcast/bcast.h"

/* Adds a started broadcast that is not done yet. */
void hpd_inflight_add(hpd_bcast *h);

/* Steps every broadcast in flight once and drops the ones that completed; returns 1
 * when anything moved. */
int hpd_inflight_sweep(void);

/* (The simulated build's wait: wait.c.)  Blocks until one pending request of the broadcasts in flight, or *also (may be NULL),
 * completes; the completed request is left null where it lives, so that the next sweep
 * reads it as complete.  Returns at once when nothing is pending. */
void hpd_inflight_block(MPI_Request *also);

#endif
