/* Whether requests are complete, for every poll of the library's own messages. */
#ifndef HPD_BCAST_REQUEST_H
#define HPD_BCAST_REQUEST_H

#include <mpi.h>

#include "core/checked.h"

#ifdef HPD_SIMULATED
/* Polls that leave no trace in the simulator (simulated/requests.c). */
HPD_CHECKED int hpd_sim_request_done(MPI_Request *request);
HPD_CHECKED int hpd_sim_request_any_done(int count, MPI_Request *requests, int *index);
/* The index of a complete request among count, finished and nulled, or -1 where none
 * is complete; requests has room for count + 1 (the poll's own). */
HPD_CHECKED int hpd_sim_request_any_of(int count, MPI_Request *requests);
#endif

/* A null request is complete without asking MPI: the simulator's MPI_Test leaves the
 * flag false for one when the status is ignored, and hpd_inflight_block nulls the
 * requests it saw complete. */
static inline int hpd_request_done(MPI_Request *request)
{
  int flag = 1;
  if (*request == MPI_REQUEST_NULL)
    return 1;
#ifdef HPD_SIMULATED
  flag = hpd_sim_request_done(request);
#else
  MPI_Test(request, &flag, MPI_STATUS_IGNORE);
#endif
  return flag;
}

/* MPI_Testany's answer: 1 with *index the request finished (MPI_UNDEFINED where all are
 * null), or 0 where none is complete. */
static inline HPD_CHECKED int hpd_request_any_done(int count, MPI_Request *requests,
                                                   int *index) {
#ifdef HPD_SIMULATED
  return hpd_sim_request_any_done(count, requests, index);
#else
  int flag;
  MPI_Testany(count, requests, index, &flag, MPI_STATUS_IGNORE);
  return flag;
#endif
}

#endif
