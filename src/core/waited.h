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

/* MPI_Allgather and MPI_Allgatherv the same way; MPI's return code.  Under the simulator
 * (wait NULL) the blocking ones matter most: its non-blocking gathers post every pair's
 * message at once, whose bookkeeping grows with their square (512 ranks: minutes). */
int hpd_allgather_waited(const void *in, int count, MPI_Datatype type, void *out,
                         MPI_Comm comm, hpd_wait_fn wait);
int hpd_allgatherv_waited(const void *in, int count, MPI_Datatype type, void *out,
                          const int *counts, const int *offsets, MPI_Comm comm,
                          hpd_wait_fn wait);

#endif
