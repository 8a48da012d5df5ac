/* The node's memory and the ranks on it, for the drivers and tests that size a memory
 * threshold: the memory exactly as the grouping formula reads it (the library's own
 * core/node_memory.c, compiled into each such program: hpd_add_node_memory in
 * testing/CMakeLists.txt), and the ranks sharing it. */
#ifndef HPD_TESTING_NODE_MEMORY_H
#define HPD_TESTING_NODE_MEMORY_H

#include "core/node_memory.h"

/* Ranks of MPI_COMM_WORLD sharing this rank's node (collective). */
int ranks_per_node(void);

#endif
