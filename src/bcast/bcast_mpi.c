#include "bcast_mpi.h"

#include "hpdaemon.h"

void hpd_ibcast_begin(hpd_bcast *h, void *buf, size_t bytes, MPI_Datatype unit, int root)
{
  int size = 1;
  MPI_Type_size(unit, &size);
  h->kind = HPD_BCAST_MPI;
  h->buf = buf;
  h->bytes = bytes;
  h->done = 0;
  MPI_Ibcast(buf, (int)(bytes / (size_t)size), unit, root, h->comm, &h->request);
}

int hpd_ibcast_advance(hpd_bcast *h)
{
  int flag = 0;
  MPI_Test(&h->request, &flag, MPI_STATUS_IGNORE);
  h->done = flag;
  return flag;
}
