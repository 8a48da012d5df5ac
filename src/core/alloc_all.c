#include "core/alloc_all.h"

#include <stdlib.h>

#include "core/alloc_large.h"

int hpd_all_have(int have, MPI_Comm comm)
{
  int all = 0;
  MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_LAND, comm);
  return all;
}

void *hpd_alloc_all_own(size_t bytes, MPI_Comm comm)
{
  void *block = hpd_alloc_large_own(bytes);
  if (hpd_all_have(block != NULL, comm))
    return block;
  free(block);
  return NULL;
}
