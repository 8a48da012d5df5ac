/* hpd_bcast over MPI_Ibcast: the library's tree algorithm, all broadcasts in flight. */
#include "bcast.h"

int hpd_bcast_start(double *buf, size_t count, int root, MPI_Comm comm, hpd_bcast *handle)
{
  handle->request = MPI_REQUEST_NULL;
  if (count > HPD_BCAST_MAX_COUNT)
    return -1;
  if (count == 0) /* every rank has the same count, so all skip together */
    return 0;
  MPI_Ibcast(buf, (int)count, MPI_DOUBLE, root, comm, &handle->request);
  return 0;
}

void hpd_bcast_wait(hpd_bcast *handles, int n)
{
  /* MPI_Waitall needs contiguous MPI_Request; the handle may grow other fields later. */
  for (int i = 0; i < n; i++)
    if (handles[i].request != MPI_REQUEST_NULL)
      MPI_Wait(&handles[i].request, MPI_STATUS_IGNORE);
}
