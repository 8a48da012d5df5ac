/*
 * The finalize guard: preloaded into MPI ranks (LD_PRELOAD), it keeps MPICH 4.0.x from
 * hanging in MPI_Finalize over UCX's TCP transport (README: "The finalize hang").
 *
 * Why it hangs: MPICH 4.0's finalize closes every endpoint in flush mode, waits for the
 * closes, and only then enters the process manager's barrier, where it stops driving
 * UCX.  UCX (1.11 and later) flushes a TCP endpoint that has sent anything with a
 * zero-length put that the peer must acknowledge from its own progress loop.  A rank that
 * reaches finalize later than a peer sends that put to a peer already blocked in the
 * barrier, and waits for an acknowledgement that never comes.
 *
 * What the guard does: the endpoint close that MPICH calls there reports that it is
 * already complete, so every rank reaches the barrier; the worker's destruction after the
 * barrier then closes every endpoint without waiting on the peer.  Nothing is lost for a
 * correct MPI program: every message a rank sent was matched by a receive that completed
 * before its peer called MPI_Finalize, and bytes still in a socket's send buffer are
 * delivered by the kernel.  MPICH calls this function only in finalize.
 */
#include <stddef.h>

#define GUARD_EXPORT __attribute__((visibility("default")))

/* UCX's ucp_disconnect_nb(ucp_ep_h); NULL is its "completed at once" (UCS_OK). */
GUARD_EXPORT void *ucp_disconnect_nb(void *endpoint);

void *ucp_disconnect_nb(void *endpoint)
{
  (void)endpoint;
  return NULL;
}
