/* Collectives that wait the caller's way: modules below the broadcasts' wait policy
 * (bcast/wait.h) take it from their callers. */
#ifndef HPD_CORE_WAITED_H
#define HPD_CORE_WAITED_H

#include <mpi.h>

/* How a caller waits for an MPI request; NULL: MPI's own blocking wait. */
typedef void (*hpd_wait_fn)(MPI_Request *request);

/* Waits for request through wait. */
void hpd_waited(MPI_Request *request, hpd_wait_fn wait);

/* MPI_Allreduce; with a wait, started non-blocking and waited through it. */
void hpd_allreduce_waited(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm, hpd_wait_fn wait);

#endif
