/*
 * The broadcasts in flight on this process, on every communicator.  Point-to-point
 * chunks move only while someone calls into MPI, so every test or wait steps all of
 * them, not just the ones it was asked about: a rank waiting for its row's panel still
 * forwards its column's chunks to the next rank of the chain.
 */
#ifndef HPD_BCAST_INFLIGHT_H
#define HPD_BCAST_INFLIGHT_H

#include "bcast/bcast.h"
#include "bcast/channel.h"

/* Adds a started broadcast that is not done yet. */
void hpd_inflight_add(hpd_bcast *h);

/* Posts a tree broadcast that hpd_tree_begin set up and puts it in flight, unless it
 * completes at once.  counted (hpd_tree_launch): where its channel has as many counted
 * broadcasts posted as it may (hpd_inflight_posted_max), it waits in flight, queued, and
 * the first sweep that finds a place posts it; every rank of the channel posts them in
 * the order they started. */
void hpd_inflight_launch(hpd_bcast *h, int counted);

/* The counted broadcasts ch may have posted at once: HPD_BCAST_POSTED_PER_RANK per rank
 * of ch in the simulated build, no limit (INT_MAX) in the native one (bcast.h). */
int hpd_inflight_posted_max(const hpd_bcast_channel *ch);

/* Steps every broadcast in flight once and drops the ones that completed; returns 1
 * when anything moved. */
int hpd_inflight_sweep(void);

/* (The simulated build's wait: wait.c.)  Blocks until one pending request of the broadcasts in flight, or *also (may be NULL),
 * completes; the completed request is left null where it lives, so that the next sweep
 * reads it as complete.  Returns at once when nothing is pending. */
void hpd_inflight_block(MPI_Request *also);

#endif
