/*
 * Who receives from whom.  Both shapes are computed in ranks relative to the root, so
 * any root works alike: rank r is (r - root) mod size positions down the broadcast.
 */
#ifndef HPD_BCAST_TOPOLOGY_H
#define HPD_BCAST_TOPOLOGY_H

/* A chain root -> root+1 -> ... : each rank forwards to one successor. */
int hpd_topology_chain(int rank, int root, int size, int *parent, int *children);

/* A binomial tree: log2(size) rounds, every rank that has the data sends it on. */
int hpd_topology_binomial(int rank, int root, int size, int *parent, int *children);

/* Both set *parent (-1 at the root) and children[] in the order sends should be
 * posted, and return the number of children. */

#endif
