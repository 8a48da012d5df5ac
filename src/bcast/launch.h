/* Starting a point-to-point broadcast: what the broadcasts' start (start.c) and the
 * tuning's trials (tune.c) share, so that neither depends on the other for it. */
#ifndef HPD_BCAST_LAUNCH_H
#define HPD_BCAST_LAUNCH_H

#include <stddef.h>

#include "bcast/bcast.h"
#include "bcast/channel.h"
#include "bcast/tree.h"

/* Starts a tree broadcast on ch with the next tag, and puts it in flight unless it is
 * complete already (a root with no children, say).  counted: among the channel's posted
 * broadcasts, so that it waits for a place where the channel has as many posted as it
 * may (hpd_inflight_posted_max: the broadcasts' starts); a tuning trial is not, as its
 * time must be its own. */
void hpd_tree_launch(hpd_bcast *h, hpd_bcast_channel *ch, hpd_tree_shape shape, void *buf,
                     const hpd_bcast_layout *layout, size_t chunk, int root, int counted);

/* A handle with nothing in flight: complete, on no channel. */
void hpd_bcast_set_idle(hpd_bcast *h);

/* One segment of bytes: a contiguous message. */
hpd_bcast_layout hpd_layout_contiguous(size_t bytes);

#endif
