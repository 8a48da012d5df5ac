/* Waiting under the wait policy: for the broadcasts, and for the collectives of the
 * modules above them. */
#ifndef HPD_BCAST_WAIT_H
#define HPD_BCAST_WAIT_H

#include <mpi.h>

#include "bcast/bcast.h"
#include "core/waited.h"

/* Steps every broadcast in flight until the n handles are complete.  Counts nothing:
 * the public call around it does. */
void hpd_bcast_drive(hpd_bcast *handles, int n);

/* Waits for one MPI request (a collective the broadcasts need) the same way, stepping
 * the broadcasts in flight meanwhile. */
void hpd_wait_request(MPI_Request *request);

/* How hpdaemon's own collectives wait (for the modules below this one, core/waited.h):
 * hpd_wait_request, which steps the broadcasts in flight; under the simulator NULL, MPI's
 * blocking calls (below). */
hpd_wait_fn hpd_collective_waiter(void);

/* Duplicates comm (collective over it) the same way: a rank that arrives early waits
 * under the wait policy instead of spinning inside MPI while ranks sharing its core try
 * to catch up. */
void hpd_wait_dup(MPI_Comm comm, MPI_Comm *dup);

/* MPI_Allreduce, MPI_Bcast and MPI_Barrier, waited the same way: a blocking collective
 * spins inside MPI, and where ranks share a core the one it waits for runs a scheduler
 * slice later, at every step.  Under the simulator, where a rank costs nothing while it
 * waits, MPI's blocking ones, so that simulated times keep their collectives'
 * algorithms. */
void hpd_wait_allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm);
void hpd_wait_bcast(void *data, int count, MPI_Datatype type, int root, MPI_Comm comm);
void hpd_wait_barrier(MPI_Comm comm);

#endif
