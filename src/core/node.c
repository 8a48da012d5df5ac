#include "core/node.h"

#include <stdint.h>
#include <stdlib.h>

#ifdef HPD_SIMULATED
#include <simgrid/host.h>
#endif

int hpd_node_split(MPI_Comm comm, hpd_node *node)
{
  node->comm = MPI_COMM_NULL;
  node->reader = 0;
  node->nodes = 0;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node->comm);
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

/* The simulated platform's node of this rank's host, sharing one link; -1 natively or
 * where the platform names none. */
static int link_node(void)
{
#ifdef HPD_SIMULATED
  const char *text = sg_host_get_property_value(sg_host_self(), "node");
  return text ? atoi(text) : -1;
#else
  return -1;
#endif
}

void hpd_node_free(hpd_node *node)
{
  if (node->comm != MPI_COMM_NULL)
    MPI_Comm_free(&node->comm);
  node->comm = MPI_COMM_NULL;
}

/* What each rank tells the others. */
typedef struct node_entry {
  uint64_t host; /* its host name's FNV-1a hash */
  int64_t link;  /* link_node() */
  double value;
} node_entry;

typedef struct keyed {
  uint64_t key;
  int rank;
} keyed;

static uint64_t host_hash(void)
{
  char name[MPI_MAX_PROCESSOR_NAME + 1] = {0};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  uint64_t h = 14695981039346656037ull;
  for (int i = 0; i < len && name[i]; i++)
    h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
  return h;
}

static int by_key_then_rank(const void *a, const void *b)
{
  const keyed *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return (x->rank > y->rank) - (x->rank < y->rank);
}

int hpd_node_map(MPI_Comm comm, int links, double value, double *values, int *node_first,
                 hpd_wait_fn wait)
{
  int size = 0;
  MPI_Comm_size(comm, &size);
  node_entry mine = {host_hash(), links ? link_node() : -1, value};
  node_entry *all = malloc((size_t)size * sizeof *all);
  keyed *order = malloc((size_t)size * sizeof *order);
  int nodes = 0;
  if (!all || !order)
    abort(); /* the other ranks are about to wait for this one in the gather */
  if (hpd_allgather_waited(&mine, (int)sizeof mine, MPI_BYTE, all, comm, wait) != MPI_SUCCESS)
    goto out;
  /* By the link only where every rank names one: every rank must group alike. */
  int by_link = links;
  for (int r = 0; r < size; r++)
    by_link &= all[r].link >= 0;
  for (int r = 0; r < size; r++) {
    order[r] = (keyed){by_link ? (uint64_t)all[r].link : all[r].host, r};
    if (values)
      values[r] = all[r].value;
  }
  qsort(order, (size_t)size, sizeof *order, by_key_then_rank);
  for (int i = 0, first = 0; i < size; i++) {
    if (i == 0 || order[i].key != order[i - 1].key) {
      first = order[i].rank;
      nodes++;
    }
    node_first[order[i].rank] = first;
  }
out:
  free(all);
  free(order);
  return nodes;
}
