/* Whether a request is complete, for the broadcasts' polls. */
#ifndef HPD_BCAST_REQUEST_H
#define HPD_BCAST_REQUEST_H

#include <mpi.h>

/* A null request is complete without asking MPI: the simulator's MPI_Test leaves the
 * flag false for one when the status is ignored, and hpd_inflight_block nulls the
 * requests it saw complete. */
static inline int hpd_request_done(MPI_Request *request)
{
  int flag = 1;
  if (*request != MPI_REQUEST_NULL)
    MPI_Test(request, &flag, MPI_STATUS_IGNORE);
  return flag;
}

#endif
