#include "core/waited.h"

void hpd_waited(MPI_Request *request, hpd_wait_fn wait)
{
  if (wait)
    wait(request);
  else
    MPI_Wait(request, MPI_STATUS_IGNORE);
}

void hpd_allreduce_waited(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm, hpd_wait_fn wait)
{
  if (!wait) {
    MPI_Allreduce(in, out, count, type, op, comm);
    return;
  }
  MPI_Request request;
  MPI_Iallreduce(in, out, count, type, op, comm, &request);
  wait(&request);
}
