/*
 * Point-to-point transfers of any number of elements: MPI counts are ints, so a transfer
 * travels as messages of at most HPD_MOST_PER_MESSAGE elements, matched in order on the
 * other side by the same cut.
 */
#ifndef HPD_CORE_MESSAGES_H
#define HPD_CORE_MESSAGES_H

#include <mpi.h>
#include <stddef.h>

#include "kernel/elem.h"

#define HPD_MOST_PER_MESSAGE ((size_t)1 << 26)

/* The messages a transfer of count elements takes. */
static inline size_t hpd_messages_for(size_t count)
{
  return (count + HPD_MOST_PER_MESSAGE - 1) / HPD_MOST_PER_MESSAGE;
}

/* Posts the sends (send) or receives of count elements at buf to or from peer, their
 * requests appended at req[*n]. */
void hpd_post_elements(hpd_elem *buf, size_t count, int peer, int send, int tag,
                       MPI_Comm comm, MPI_Request *req, int *n);

#endif
