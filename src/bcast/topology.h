/*
 * Who receives from whom.  Shapes are computed on positions in the order a broadcast
 * visits the ranks, the root at position 0, so any root works alike.  On one node that
 * order is the ranks from the root on, cyclically; across nodes it takes each node's
 * ranks together, the root's node first, so a chain crosses each host's link once
 * whatever the grid's rank order.
 */
#ifndef HPD_BCAST_TOPOLOGY_H
#define HPD_BCAST_TOPOLOGY_H

/* A chain 0 -> 1 -> ... : each position forwards to one successor. */
int hpd_topology_chain(int pos, int size, int *parent, int *children);

/* A binomial tree: log2(size) rounds, every position that has the data sends it on. */
int hpd_topology_binomial(int pos, int size, int *parent, int *children);

/* The rounds of a binomial tree over size positions: the levels its last one is below
 * the root. */
int hpd_topology_binomial_rounds(int size);

/* The root sends to every other position of its node itself, and to the first position
 * of every other node, which sends to the rest of its node: a node's link carries one
 * copy, and a receiver waits for at most one forward.  node_at[pos] names the node of
 * position pos (a node's positions are consecutive, as the visit order lays them out);
 * NULL: one node, where the root sends to everyone and nothing is forwarded, so a
 * broadcast moves while its receivers compute.  size <= HPD_BCAST_MAX_CHILDREN + 1. */
int hpd_topology_flat(int pos, int size, const int *node_at, int *parent, int *children);

/* All set *parent (-1 at the root) and children[] in the order sends should be
 * posted, and return the number of children. */

/* visit[0..size-1]: the ranks in the order a broadcast from root visits them.
 * node_first[r] is the lowest rank on rank r's node (NULL: all on one node); scratch
 * holds 2 * size ints.  Returns the position of rank `me`. */
int hpd_topology_visit_order(const int *node_first, int size, int root, int me, int *visit,
                             int *scratch);

#endif
