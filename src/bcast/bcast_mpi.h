/* The mpi algorithm: the MPI library's own non-blocking broadcast, for comparison. */
#ifndef HPD_BCAST_MPI_H
#define HPD_BCAST_MPI_H

#include <stddef.h>

#include "bcast/bcast.h"
#include "core/checked.h"

/* Starts MPI_Ibcast of the data at buf, laid out as layout says, on h->comm; unit is the
 * type to count in (MPI_BYTE, or the element type for messages whose byte count exceeds an
 * int), and divides the segment and the stride.  The caller has filled h->channel and
 * h->comm. */
void hpd_ibcast_begin(hpd_bcast *h, void *buf, const hpd_bcast_layout *layout,
                      MPI_Datatype unit, int root);

/* Tests the request; returns 1 when it completed now.  Sets h->done. */
HPD_CHECKED int hpd_ibcast_advance(hpd_bcast *h);

#endif
