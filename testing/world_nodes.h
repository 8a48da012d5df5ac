/* How many nodes the job's ranks are on, for the MPI tests. */
#ifndef HPD_TESTING_WORLD_NODES_H
#define HPD_TESTING_WORLD_NODES_H

#include <mpi.h>

/* The nodes MPI_COMM_WORLD spans (MPI's shared-memory split). */
static inline int world_nodes(void)
{
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank = 0, leaders = 0;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_free(&node);
  int leader = node_rank == 0;
  MPI_Allreduce(&leader, &leaders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return leaders;
}

#endif
