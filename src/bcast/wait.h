/* Waiting under the wait policy, for the module's own use. */
#ifndef HPD_BCAST_WAIT_H
#define HPD_BCAST_WAIT_H

#include <mpi.h>

#include "bcast/bcast.h"

/* Steps every broadcast in flight until the n handles are complete.  Counts nothing:
 * the public call around it does. */
void hpd_bcast_drive(hpd_bcast *handles, int n);

/* Waits for one MPI request (a collective the broadcasts need) the same way, stepping
 * the broadcasts in flight meanwhile. */
void hpd_wait_request(MPI_Request *request);

#endif
