/*
 * Which ranks share a node (one host: shared memory).  The node's rank 0 is its
 * "reader": it reads a meter that counts for the whole node, names the node's host, and
 * node sums add the readers' figures only.  Broadcasts, the report and energy all learn
 * their nodes here.
 */
#ifndef HPD_CORE_NODE_H
#define HPD_CORE_NODE_H

#include <mpi.h>

#include "core/checked.h"

typedef struct hpd_node {
  MPI_Comm comm;  /* the ranks of comm on this node (shared memory) */
  int reader;     /* 1 on the node's rank 0 */
  int nodes;      /* nodes spanned by comm */
} hpd_node;

/* Collective over comm.  0, or an MPI error code (node->comm is then MPI_COMM_NULL). */
HPD_CHECKED int hpd_node_split(MPI_Comm comm, hpd_node *node);

/* The same over the ranks that share a host's network link, which is what a broadcast's
 * shape must know.  Natively that is the node.  Under the simulator every core is a host
 * of its own to the rest of the library (its own P-states and energy), while the
 * platform's cores of one node share its NIC: they are found by the host property
 * "node" (simulated/platform.py writes it; a platform without it gives every core its
 * own link, as hpd_node_split does). */
HPD_CHECKED int hpd_node_split_links(MPI_Comm comm, hpd_node *node);

void hpd_node_free(hpd_node *node);

/* Collective over comm: value summed over the readers (others add nothing); every rank
 * gets the sum. */
double hpd_node_sum(const hpd_node *node, MPI_Comm comm, double value);

#endif
