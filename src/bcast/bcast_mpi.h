/* The mpi algorithm: the MPI library's own non-blocking broadcast, for comparison. */
#ifndef HPD_BCAST_MPI_H
#define HPD_BCAST_MPI_H

#include <stddef.h>

#include "bcast.h"

/* Starts MPI_Ibcast of bytes at buf on h->comm; unit is the type to count in (MPI_BYTE,
 * or MPI_DOUBLE for messages whose byte count exceeds an int).  The caller has filled
 * h->channel and h->comm. */
void hpd_ibcast_begin(hpd_bcast *h, void *buf, size_t bytes, MPI_Datatype unit, int root);

/* Tests the request; returns 1 when it completed now.  Sets h->done. */
int hpd_ibcast_advance(hpd_bcast *h);

#endif
