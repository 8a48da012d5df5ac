/*
 * Every process's part of one buffer sent to every other process of a communicator, in
 * small messages that the receiver can use as they land (spread.c), and the size of
 * message that makes that possible (trsm_wave.c).
 */
#ifndef HPD_LEVEL3_STREAM_H
#define HPD_LEVEL3_STREAM_H

#include <mpi.h>
#include <stddef.h>

#include "core/checked.h"
#include "kernel/elem.h"

/* Over MPICH's TCP transport, a burst of messages of more than 16 KiB each was seen to
 * complete only when the whole burst had arrived, so a receiver waited for all of them
 * before using the first; at 16 KiB each one completes as it lands.  That is the least
 * message.  A stream that carries a whole operand may take messages as long on a faster
 * link as 16 KiB takes at 1 Gbit/s (HPD_L3_MESSAGE_S, hpd_l3_stream_fit_link), so that
 * each message's own cost stays small against its bytes (timing/README.md, "The streams'
 * messages sized for the link"); one whose first bytes are awaited at once (a
 * factorization's panel) keeps the least. */
#define HPD_L3_MESSAGE_BYTES (16 * 1024)
#define HPD_L3_MESSAGE_S (HPD_L3_MESSAGE_BYTES * 8 / 1e9)

typedef struct hpd_l3_stream {
  hpd_elem *base;
  size_t message;     /* elements per message: the same on every process */
  const size_t *part; /* process q's part: elements [part[q], part[q + 1]) of base */
  int p, me;
  size_t *first;    /* p + 1 entries: the index in req of each process's first message */
  MPI_Request *req; /* every message received, in order, then every message sent */
  size_t received;  /* messages received in all */
  size_t polled;    /* the receives before it are complete */
} hpd_l3_stream;

/* The requests for p processes' parts (part is kept, not copied): HPD_OK, or
 * HPD_STATUS_NO_MEMORY where memory ran short. */
HPD_CHECKED hpd_status hpd_l3_stream_make(hpd_l3_stream *st, const size_t *part, int p,
                                          int me);

/* The bytes a stream needs on any of p processes where no part exceeds most elements,
 * and the stream laid out in such memory (aligned for a size_t), which the caller keeps
 * and frees; hpd_l3_stream_free is not for it. */
size_t hpd_l3_stream_bytes_most(size_t most, int p);
void hpd_l3_stream_place(hpd_l3_stream *st, const size_t *part, int p, int me, void *memory);

/* The same stream, finished, for new parts (kept, not copied), none of which has more
 * messages than the parts it was made or placed for. */
void hpd_l3_stream_renew(hpd_l3_stream *st, const size_t *part);

/* Messages sized for comm's fastest measured link rate from now on: the same on every
 * process of comm, which must all fit alike; HPD_L3_MESSAGE_BYTES where none is known. */
void hpd_l3_stream_fit_link(hpd_l3_stream *st, MPI_Comm comm);

/* Posts the receives of the other processes' parts into base and the sends of this
 * one's to each of them. */
void hpd_l3_stream_start(hpd_l3_stream *st, hpd_elem *base, MPI_Comm comm, int tag);

/* Waits until process q's part has arrived up to element `through` of it. */
void hpd_l3_stream_wait_for(hpd_l3_stream *st, int q, size_t through);

/* Lets the messages move on (between multiplies). */
void hpd_l3_stream_poll(hpd_l3_stream *st);

/* Waits for every message of a started stream. */
void hpd_l3_stream_finish(hpd_l3_stream *st);

void hpd_l3_stream_free(hpd_l3_stream *st);

#endif
