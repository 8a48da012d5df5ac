/* The node's memory and the ranks on it, for the drivers and tests that size a memory
 * threshold. */
#ifndef HPD_TESTING_NODE_MEMORY_H
#define HPD_TESTING_NODE_MEMORY_H

#include <stdint.h>

/* The node's memory as the grouping formula sees it: physical memory, or a lower
 * cgroup limit. */
uint64_t node_memory_bytes(void);
/* Ranks of MPI_COMM_WORLD sharing this rank's node (collective). */
int ranks_per_node(void);

#endif
