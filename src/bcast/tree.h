/*
 * The broadcast as a state machine over point-to-point messages, for the pipeline (a
 * chain, small chunks), the binomial tree (the whole message per hop) and the flat tree
 * of a hidden batch (bcast.h: the root sends to everyone on its node and to one rank of
 * each other node, which sends to the rest of its node; reported as binomial).
 *
 * With non-blocking point-to-point calls, a chunk only moves while its sender and its
 * receiver call into MPI, so nothing here waits: hpd_tree_advance does what can be done
 * now and returns.  A rank keeps up to its window of receives posted ahead (bcast.h); when
 * chunk i has arrived it posts chunk i's sends to its children (a binomial tree's whole
 * message to one child after another), and completes sends and receives in order.  All
 * chunks of a broadcast share its tag: MPI keeps messages between two ranks with one tag
 * in order, so chunk i matches receive i.
 */
#ifndef HPD_BCAST_TREE_H
#define HPD_BCAST_TREE_H

#include <stddef.h>

#include "bcast/bcast.h"
#include "bcast/channel.h"

typedef enum hpd_tree_shape { HPD_TREE_CHAIN, HPD_TREE_BINOMIAL, HPD_TREE_FLAT } hpd_tree_shape;

/* Sets up h for the data at buf, laid out as layout says (no empty segment), from root
 * in chunks of chunk bytes (> 0, at most 1 GiB; a segment's last chunk may be shorter);
 * the caller has filled h->channel, h->comm and h->tag.  Posts nothing: the first
 * hpd_tree_advance does. */
void hpd_tree_begin(hpd_bcast *h, hpd_tree_shape shape, void *buf,
                    const hpd_bcast_layout *layout, size_t chunk, int root);

/* One step; returns 1 when anything moved.  Sets h->done at the end.  harvested: every
 * completed request of h is null already (the simulated build's sweep, inflight.c), so
 * a live one is pending without asking MPI. */
int hpd_tree_advance(hpd_bcast *h, int harvested);

#endif
