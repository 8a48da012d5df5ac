/*
 * Which ranks share a node (one host: shared memory).  The node's first rank is its
 * "reader": it reads a meter that counts for the whole node and names the node's host.
 * Grids, broadcasts, DVFS, energy and the report all learn their nodes here.
 */
#ifndef HPD_CORE_NODE_H
#define HPD_CORE_NODE_H

#include <mpi.h>

#include "core/checked.h"
#include "core/waited.h"

typedef struct hpd_node {
  MPI_Comm comm;  /* the ranks of comm on this node (shared memory) */
  int reader;     /* 1 on the node's rank 0 */
  int nodes;      /* nodes spanned by comm */
} hpd_node;

/* Collective over comm.  0, or an MPI error code (node->comm is then MPI_COMM_NULL). */
HPD_CHECKED int hpd_node_split(MPI_Comm comm, hpd_node *node);

void hpd_node_free(hpd_node *node);

/*
 * The node of every rank of comm, from one non-blocking gather of each rank's host name
 * (MPI_Get_processor_name, by which MPI's launchers place ranks), waited through wait:
 * node_first[r] is the lowest rank of comm on rank r's node, and values[r] (where values
 * is not NULL) is rank r's value; both arrays are comm's size long.  Collective over
 * comm; returns the nodes spanned, or 0 where MPI failed.
 *
 * links: by the ranks that share a host's network link, which is what a broadcast's shape
 * must know.  Natively that is the node.  Under the simulator every core is a host of its
 * own to the rest of the library (its own P-states and energy), while the platform's
 * cores of one node share its NIC: they are found by the host property "node"
 * (simulated/platform.py writes it) where every rank has it, by host otherwise.
 *
 * The same nodes as hpd_node_split's shared memory wherever hosts are named apart, for
 * callers that only count: a split blocks inside MPI, where a rank whose core is shared
 * spins and its partner waits a scheduler slice per step; a gather can wait under the
 * caller's wait policy.
 */
HPD_CHECKED int hpd_node_map(MPI_Comm comm, int links, double value, double *values,
                             int *node_first, hpd_wait_fn wait);

#endif
