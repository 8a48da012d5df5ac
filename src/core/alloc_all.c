#include "core/alloc_all.h"

#include <stdlib.h>

#include "core/alloc_large.h"
#include "core/costs.h"

int hpd_all_have(int have, MPI_Comm comm, hpd_wait_fn wait)
{
  int all = 0;
  double cost = hpd_cost_begin(HPD_COST_AGREEMENT);
  hpd_allreduce_waited(&have, &all, 1, MPI_INT, MPI_LAND, comm, wait);
  hpd_cost_end(HPD_COST_AGREEMENT, cost);
  return all;
}

void *hpd_alloc_all_own(size_t bytes, MPI_Comm comm, hpd_wait_fn wait)
{
  void *block = hpd_alloc_large_own(bytes);
  if (hpd_all_have(block != NULL, comm, wait))
    return block;
  free(block);
  return NULL;
}
