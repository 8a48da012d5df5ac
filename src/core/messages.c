#include "core/messages.h"

void hpd_post_elements(hpd_elem *buf, size_t count, int peer, int send, int tag,
                       MPI_Comm comm, MPI_Request *req, int *n)
{
  for (size_t at = 0; at < count; at += HPD_MOST_PER_MESSAGE) {
    int len = (int)(count - at < HPD_MOST_PER_MESSAGE ? count - at : HPD_MOST_PER_MESSAGE);
    MPI_Request *r = &req[(*n)++];
    if (send)
      MPI_Isend(buf + at, len, HPD_ELEM_MPI, peer, tag, comm, r);
    else
      MPI_Irecv(buf + at, len, HPD_ELEM_MPI, peer, tag, comm, r);
  }
}
