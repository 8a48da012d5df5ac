#include "bcast/bcast_mpi.h"

#include "bcast/request.h"
#include "hpdaemon.h"

void hpd_ibcast_begin(hpd_bcast *h, void *buf, const hpd_bcast_layout *layout,
                      MPI_Datatype unit, int root)
{
  int size = 1;
  MPI_Type_size(unit, &size);
  h->kind = HPD_BCAST_MPI;
  h->buf = buf;
  h->layout = *layout;
  h->bytes = layout->seg_bytes * layout->segs;
  h->done = 0;
  if (layout->segs <= 1 || layout->stride == layout->seg_bytes) {
    MPI_Ibcast(buf, (int)(h->bytes / (size_t)size), unit, root, h->comm, &h->request);
    return;
  }
  /* Type signatures match across ranks whatever their strides: segs * seg units each.
   * A type may be freed while a call that uses it is pending. */
  MPI_Datatype columns;
  MPI_Type_vector((int)layout->segs, (int)(layout->seg_bytes / (size_t)size),
                  (int)(layout->stride / (size_t)size), unit, &columns);
  MPI_Type_commit(&columns);
  MPI_Ibcast(buf, 1, columns, root, h->comm, &h->request);
  MPI_Type_free(&columns);
}

int hpd_ibcast_advance(hpd_bcast *h)
{
  h->done = hpd_request_done(&h->request);
  return h->done;
}
