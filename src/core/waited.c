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

int hpd_allgather_waited(const void *in, int count, MPI_Datatype type, void *out,
                         MPI_Comm comm, hpd_wait_fn wait)
{
  if (!wait)
    return MPI_Allgather(in, count, type, out, count, type, comm);
  MPI_Request request;
  int rc = MPI_Iallgather(in, count, type, out, count, type, comm, &request);
  if (rc == MPI_SUCCESS)
    wait(&request);
  return rc;
}

int hpd_allgatherv_waited(const void *in, int count, MPI_Datatype type, void *out,
                          const int *counts, const int *offsets, MPI_Comm comm,
                          hpd_wait_fn wait)
{
  if (!wait)
    return MPI_Allgatherv(in, count, type, out, counts, offsets, type, comm);
  MPI_Request request;
  int rc = MPI_Iallgatherv(in, count, type, out, counts, offsets, type, comm, &request);
  if (rc == MPI_SUCCESS)
    wait(&request);
  return rc;
}
