/*
 * Exchanges through shared memory, for a communicator whose ranks all share one node.
 * Where every rank of a line must receive every other rank's part (the level-3 gathers),
 * broadcasts copy each part twice, into the transport's buffers and out of them, and
 * under the eager protocol the sender's copy runs inside the start: RUNN 1472 x 1472 on
 * 2x1 spent 2 ms starting and 2.3 ms receiving its 4.3 MB parts, against a 36 ms solve.
 * Here each rank writes its part once into its own segment of a shared window, and the
 * others read it from there, as the solve reaches it.
 *
 * An exchange: begin gives this rank's segment to fill (after every other rank has
 * finished reading what it held two exchanges ago: two slots alternate, so that a rank
 * may begin the next exchange while the others still read its last one); publish makes
 * it readable; peer waits, under the wait policy, until another rank has published and
 * gives its part; end says this rank has finished reading.  Every rank of the
 * communicator takes part in every exchange, in the same order.
 */
#ifndef HPD_BCAST_SHARED_H
#define HPD_BCAST_SHARED_H

#include <mpi.h>
#include <stddef.h>

typedef struct hpd_shared hpd_shared;

/* comm's exchange, with parts of up to bytes on every rank, where comm's ranks (two or
 * more) share one node and the pipelined broadcast is in force; NULL otherwise, alike on
 * every rank.  Collective over comm (it may allocate the window, or grow it). */
hpd_shared *hpd_shared_get(MPI_Comm comm, size_t bytes);

/* This rank's segment for the next exchange. */
double *hpd_shared_begin(hpd_shared *shared);

/* This rank's part, of bytes, is in its segment. */
void hpd_shared_publish(hpd_shared *shared, size_t bytes);

/* Rank q's part of this exchange, once published. */
const double *hpd_shared_peer(hpd_shared *shared, int q);

/* This rank has read all it needs of this exchange. */
void hpd_shared_end(hpd_shared *shared);

/* Frees the window; collective over the channel's communicator (channel.c). */
void hpd_shared_free(hpd_shared *shared);

#endif
