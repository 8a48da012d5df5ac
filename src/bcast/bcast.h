/*
 * Non-blocking broadcast of a buffer of doubles, the only way the panel loop moves data.
 * A group of broadcasts is started, then waited for as a set, so that a later
 * implementation (pipelined, chunked) can replace MPI_Ibcast behind the same calls.
 * This module knows nothing about pdgemm.
 */
#ifndef HPD_BCAST_H
#define HPD_BCAST_H

#include <limits.h>
#include <mpi.h>
#include <stddef.h>

/* The largest count one broadcast accepts (MPI counts are int). */
#define HPD_BCAST_MAX_COUNT ((size_t)INT_MAX)

/* One broadcast in flight.  Treat as opaque: its contents belong to the implementation. */
typedef struct hpd_bcast {
  MPI_Request request;
} hpd_bcast;

/*
 * Starts broadcasting count doubles at buf from rank root of comm; every rank of comm
 * calls it with the same count, root and order of calls.  Returns 0, or -1 when the
 * count is above HPD_BCAST_MAX_COUNT (nothing started).  A count of 0 starts nothing
 * but still gives a handle that hpd_bcast_wait accepts.
 */
int hpd_bcast_start(double *buf, size_t count, int root, MPI_Comm comm, hpd_bcast *handle);

/* Waits until all n broadcasts are complete; buffers may then be read or reused. */
void hpd_bcast_wait(hpd_bcast *handles, int n);

#endif
