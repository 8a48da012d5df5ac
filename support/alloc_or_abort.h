/* The drivers' and benchmarks' allocation: a job that runs out of memory for its
 * matrices stops whole, naming the program, rather than one rank failing alone. */
#ifndef HPD_SUPPORT_ALLOC_OR_ABORT_H
#define HPD_SUPPORT_ALLOC_OR_ABORT_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* count entries of size bytes, zeroed (at least one entry, so never NULL), or the job
 * aborted with a message naming program. */
static inline void *alloc_or_abort(const char *program, size_t count, size_t size)
{
  void *p = calloc(count ? count : 1, size);
  if (!p) {
    fprintf(stderr, "%s: out of memory for %zu local elements\n", program, count);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

#endif
