/* Memory that every process of a communicator gets, or none does: the scratch of a
 * collective step, which cannot start on some processes and fall back on others. */
#ifndef HPD_CORE_ALLOC_ALL_H
#define HPD_CORE_ALLOC_ALL_H

#include <mpi.h>
#include <stddef.h>

#include "core/checked.h"
#include "core/waited.h"

/* Collective over comm: 1 on every process where every one has what it needs (have), 0
 * on every process where some one has not (one allreduce, waited through wait). */
HPD_CHECKED int hpd_all_have(int have, MPI_Comm comm, hpd_wait_fn wait);

/* Collective over comm: bytes allocated on this process (hpd_alloc_large_own: a block
 * that holds indices beside its data), or NULL on every process where any one could not
 * allocate (one allreduce; what others got is freed). */
HPD_CHECKED void *hpd_alloc_all_own(size_t bytes, MPI_Comm comm, hpd_wait_fn wait);

#endif
