/* The node helper: one reader per node; the map from host names
 * gives the nodes the split by shared memory gives.  --nodes K: the ranks run on K hosts
 * (testing/test_cluster.sh, case nodes); 1 by default. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/node.h"

/* Failures where hpd_node_map over comm disagrees with hpd_node_split over it (each
 * node led by its lowest rank), or spans other than nodes, or gathers the values wrong. */
static int map_disagrees(MPI_Comm comm, int nodes)
{
  int rank = 0, size = 0, failed = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  hpd_node node;
  if (hpd_node_split(comm, &node) != MPI_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, 1);
  int lead = rank, *split_first = malloc(size * sizeof(int)), *first = malloc(size * sizeof(int));
  double *values = malloc(size * sizeof(double));
  if (!split_first || !first || !values)
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Bcast(&lead, 1, MPI_INT, 0, node.comm);
  MPI_Allgather(&lead, 1, MPI_INT, split_first, 1, MPI_INT, comm);
  failed += hpd_node_map(comm, 0, rank + 0.5, values, first, NULL) != nodes;
  failed += node.nodes != nodes;
  for (int r = 0; r < size; r++)
    failed += first[r] != split_first[r] || values[r] != r + 0.5;
  /* By links: natively the same nodes; no values asked for. */
  memset(first, -1, size * sizeof(int));
  failed += hpd_node_map(comm, 1, 0.0, NULL, first, NULL) != nodes;
  for (int r = 0; r < size; r++)
    failed += first[r] != split_first[r];
  hpd_node_free(&node);
  free(split_first), free(first), free(values);
  return failed;
}

/* Failures of the helper on one machine: one node, its reader rank 0;
 * on a sub-communicator without rank 0, its own first rank reads. */
static int one_machine(int rank, int size)
{
  int failed = 0;
  hpd_node node;
  if (hpd_node_split(MPI_COMM_WORLD, &node) != MPI_SUCCESS) {
    fprintf(stderr, "rank %d: hpd_node_split failed\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  /* Every rank of this test runs on one machine: one node, and its reader is rank 0. */
  int node_size = 0;
  MPI_Comm_size(node.comm, &node_size);
  failed += node.nodes != 1;
  failed += node_size != size;
  failed += node.reader != (rank == 0);
  hpd_node_free(&node);
  failed += node.comm != MPI_COMM_NULL;

  /* On a sub-communicator without world rank 0, its own first rank reads. */
  MPI_Comm odd;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &odd);
  if (rank % 2 == 1) {
    if (hpd_node_split(odd, &node) != MPI_SUCCESS)
      MPI_Abort(MPI_COMM_WORLD, 1);
    failed += node.nodes != 1 || node.reader != (rank == 1);
    hpd_node_free(&node);
    failed += map_disagrees(odd, 1);
  }
  MPI_Comm_free(&odd);

  return failed;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, failed = 0, nodes = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc == 3 && !strcmp(argv[1], "--nodes"))
    nodes = atoi(argv[2]);
  failed += map_disagrees(MPI_COMM_WORLD, nodes);
  if (nodes == 1)
    failed += one_machine(rank, size);

  int total = 0;
  MPI_Allreduce(&failed, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_energy_node: %s on %d ranks, %d node(s)\n", total ? "FAILED" : "passed", size,
           nodes);
  MPI_Finalize();
  return total ? 1 : 0;
}
