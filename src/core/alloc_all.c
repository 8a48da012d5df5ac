#include "alloc_all.h"

#include <stdlib.h>

#include "alloc_large.h"

void *hpd_alloc_all(size_t bytes, MPI_Comm comm)
{
  void *block = hpd_alloc_large(bytes);
  int have = block != NULL, all = 0;
  MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_LAND, comm);
  if (all)
    return block;
  free(block);
  return NULL;
}
