/*
 * A channel: what the broadcasts keep per communicator.  Each communicator a caller
 * passes gets a private duplicate, so that the broadcasts' messages can never match the
 * caller's own, and a count of the broadcasts started on it.  Every rank starts the same
 * broadcasts in the same order, so that count is the same on every rank and numbers the
 * tags: broadcasts in flight together never mix their chunks.  The channel lives as an
 * attribute of the caller's communicator and goes away with it.
 */
#ifndef HPD_BCAST_CHANNEL_H
#define HPD_BCAST_CHANNEL_H

#include <mpi.h>
#include <stdint.h>

#include "core/checked.h"

/* Size classes: a message of b bytes is in class floor(log2 b). */
#define HPD_SIZE_CLASSES 64

typedef struct hpd_bcast_channel {
  MPI_Comm comm; /* the private duplicate */
  int rank, size;
  uint64_t started;  /* broadcasts started on this channel */
  uint64_t tag_span; /* tags 0 .. tag_span-1, MPI_TAG_UB + 1 */
  uint64_t in_flight;
  int posted; /* counted broadcasts posted and not complete (hpd_inflight_posted_max) */
  /* The batch (bcast.h) this channel last started a broadcast in, and how many. */
  uint64_t batch;
  uint64_t in_batch;
  /* The chunk this channel's ranks agreed on for each size class; 0 = not yet. */
  uint64_t chunk[HPD_SIZE_CLASSES];
  /* Hosts: node_first[r] is the lowest rank of the channel on rank r's node (NULL when
   * every rank is on one node); hosts counts the nodes. */
  int *node_first;
  int hosts;
  int *visit; /* the order a broadcast visits the ranks, then scratch (topology.h) */
  /* The exchanges through shared memory (shared.h), or NULL, and what frees them with
   * the channel: set by shared.c, so that this file need not know them. */
  void *shared;
  void (*free_shared)(void *shared);
  /* The rate each size class's chosen chunk moved when it was tuned (the slowest rank's
   * time), in bytes per second, the same on every rank; 0 = unknown. */
  double rate[HPD_SIZE_CLASSES];
  /* The rate a whole message of each size class moved (hpd_bcast_whole_rate); 0 = not
   * measured. */
  double whole_rate[HPD_SIZE_CLASSES];
  /* The rate at which one rank took in a message along the channel while every line of
   * its grid sent one at once (the links' probe, pblas/link_floor.h), in bytes per
   * second, the same on every rank; 0 = not measured. */
  double stream_rate;
  /* Chunk trials under a budget (tune.h): the call whose budget is being spent and what
   * is left of it, the same on every rank; and the size classes whose tune-table entry
   * rank 0 was already asked for and had none, with rank 0's wait policy, which sets
   * the candidates. */
  uint64_t trial_call;
  double trial_budget_left;
  unsigned char asked[HPD_SIZE_CLASSES];
  uint64_t trial_wait[HPD_SIZE_CLASSES];
  /* The chunk a probe (tune.h) picked for a size class not tuned yet; 0 = none. */
  uint64_t probed[HPD_SIZE_CLASSES];
} hpd_bcast_channel;

/* The channel of comm; collective over comm the first time comm is seen. */
hpd_bcast_channel *hpd_channel_get(MPI_Comm comm);
/* The channel of comm if it has one already, else NULL; never collective. */
hpd_bcast_channel *hpd_channel_find(MPI_Comm comm);

/* The tag of the next broadcast started on ch. */
HPD_CHECKED int hpd_channel_next_tag(hpd_bcast_channel *ch);

/* The size class of a message of bytes > 0. */
HPD_CHECKED int hpd_size_class(uint64_t bytes);

#endif
