#include "core/node.h"

int hpd_node_split(MPI_Comm comm, hpd_node *node)
{
  node->comm = MPI_COMM_NULL;
  node->reader = 0;
  node->nodes = 0;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                               &node->comm);
  if (rc != MPI_SUCCESS)
    return rc;
  int node_rank = 0;
  MPI_Comm_rank(node->comm, &node_rank);
  node->reader = node_rank == 0;
  rc = MPI_Allreduce(&node->reader, &node->nodes, 1, MPI_INT, MPI_SUM, comm);
  if (rc != MPI_SUCCESS)
    hpd_node_free(node);
  return rc;
}

void hpd_node_free(hpd_node *node)
{
  if (node->comm != MPI_COMM_NULL)
    MPI_Comm_free(&node->comm);
  node->comm = MPI_COMM_NULL;
}

double hpd_node_sum(const hpd_node *node, MPI_Comm comm, double value)
{
  double mine = node->reader ? value : 0.0, sum = 0.0;
  MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  return sum;
}
