/* The ranks that share a node's memory (node_memory.h). */
#include "node_memory.h"

#include <mpi.h>

int ranks_per_node(void)
{
  MPI_Comm node;
  int size = 1;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
      MPI_SUCCESS) {
    MPI_Comm_size(node, &size);
    MPI_Comm_free(&node);
  }
  return size;
}
