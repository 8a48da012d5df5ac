/*
 * Exchanges through shared memory, for a communicator whose ranks all share one node.
 * Where every rank of a line must receive every other rank's part (the level-3 gathers),
 * broadcasts copy each part twice, into the transport's buffers and out of them, and
 * under the eager protocol the sender's copy runs inside the start: RUNN 1472 x 1472 on
 * 2x1 spent 2 ms starting and 2.3 ms receiving its 4.3 MB parts, against a 36 ms solve.
 * Parts of their own in the window, read out into each rank's block, still cost 1.4 to
 * 1.8 ms of copies.  Here the ranks share one area: each writes its entries straight
 * into their places in it, and all of them read the whole area there.
 *
 * An exchange: begin gives the area to fill, one of two that the caller names (after
 * every rank has finished reading what that area held last); each rank writes its
 * entries in steps, the same number on every rank, and publishes how many steps it has
 * written, so that the others may read its first entries while it writes the rest; wait
 * waits, under the wait policy, until another rank has published that far; end says
 * this rank has finished reading.  Every rank of the communicator takes part in every
 * exchange, in the same order, and publishes all its steps.  An exchange whose steps are
 * all published may stay open while the next one runs: the next one's end then ends
 * both.
 */
#ifndef HPD_BCAST_SHARED_H
#define HPD_BCAST_SHARED_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/elem.h"

typedef struct hpd_shared hpd_shared;

/* comm's exchange, with an area of at least bytes, where comm's ranks (two or
 * more) share one node and the pipelined broadcast is in force; NULL otherwise, alike on
 * every rank.  Collective over comm (it may allocate the window, or grow it). */
hpd_shared *hpd_shared_get(MPI_Comm comm, size_t bytes);

/* The area of the next exchange, area which (0 or 1) on every rank, to be written in span
 * steps; bytes (this rank's entries) go into the broadcast statistics.  An exchange that
 * stays open while another runs takes the other area.  Each use of an area waits until
 * every rank has ended the exchange it held last, so that a caller that keeps one area
 * for one purpose from call to call touches the same pages every call: a page's first
 * touch by a process costs far more than its later ones (alloc_large.c), and areas that
 * alternated from call to call made a class's second call pay them again. */
hpd_elem *hpd_shared_begin(hpd_shared *shared, int which, uint64_t span, size_t bytes);

/* Makes the pages of the leading bytes of this exchange's area now, where an earlier call
 * has not: each rank allocates a slice, then maps the others', where writing them
 * unmade, each rank its entries scattered over all of them, would cost each rank about
 * as much per page as making the whole area alone (a write fault on a page of another
 * rank's costs five times a mapped read).  Contents are unchanged.  Collective, with the
 * same bytes on every rank, before any rank writes to the area. */
void hpd_shared_make(hpd_shared *shared, size_t bytes);

/* This rank's entries of steps [0, upto) are in the area (upto <= span, not falling). */
void hpd_shared_publish(hpd_shared *shared, uint64_t upto);

/* Returns once rank q has published steps [0, upto) of this exchange. */
void hpd_shared_wait(hpd_shared *shared, int q, uint64_t upto);

/* This rank has read all it needs of this exchange. */
void hpd_shared_end(hpd_shared *shared);

/* Returns once every rank has called it as often as this one: for ranks that must know
 * that every other has finished writing an area that they still hold open. */
void hpd_shared_sync(hpd_shared *shared);

/* Frees the window; collective over the channel's communicator (channel.c). */
void hpd_shared_free(hpd_shared *shared);

#endif
