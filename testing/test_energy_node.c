/* The node helper: one reader per node, sums over readers only. */
#include <mpi.h>
#include <stdio.h>

#include "core/node.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

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
  /* Each rank offers rank + 10; only the reader's 10 counts. */
  double sum = hpd_node_sum(&node, MPI_COMM_WORLD, rank + 10.0);
  failed += sum != 10.0;
  hpd_node_free(&node);
  failed += node.comm != MPI_COMM_NULL;

  /* On a sub-communicator without world rank 0, its own first rank reads. */
  MPI_Comm odd;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &odd);
  if (rank % 2 == 1) {
    if (hpd_node_split(odd, &node) != MPI_SUCCESS)
      MPI_Abort(MPI_COMM_WORLD, 1);
    failed += node.nodes != 1 || node.reader != (rank == 1);
    failed += hpd_node_sum(&node, odd, 2.5) != 2.5;
    hpd_node_free(&node);
  }
  MPI_Comm_free(&odd);

  int total = 0;
  MPI_Allreduce(&failed, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_energy_node: %s on %d ranks\n", total ? "FAILED" : "passed", size);
  MPI_Finalize();
  return total ? 1 : 0;
}
