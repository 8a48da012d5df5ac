#include "core/node.h"

#ifdef HPD_SIMULATED
#include <simgrid/host.h>
#include <stdlib.h>
#endif

/* Splits comm by color (-1: by shared memory), and counts the parts. */
static int split(MPI_Comm comm, int color, hpd_node *node)
{
  node->comm = MPI_COMM_NULL;
  node->reader = 0;
  node->nodes = 0;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int rc = color < 0 ? MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                                           &node->comm)
                     : MPI_Comm_split(comm, color, rank, &node->comm);
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

int hpd_node_split(MPI_Comm comm, hpd_node *node)
{
  return split(comm, -1, node);
}

int hpd_node_split_links(MPI_Comm comm, hpd_node *node)
{
  int color = -1;
#ifdef HPD_SIMULATED
  const char *text = sg_host_get_property_value(sg_host_self(), "node");
  color = text ? atoi(text) : -1;
  /* Every rank must split alike: by the property only where all have it. */
  int lowest = color;
  MPI_Allreduce(&color, &lowest, 1, MPI_INT, MPI_MIN, comm);
  color = lowest < 0 ? -1 : color;
#endif
  return split(comm, color, node);
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
