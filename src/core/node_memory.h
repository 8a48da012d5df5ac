/* The memory of the node a process runs on, which the memory threshold is a fraction of. */
#ifndef HPD_CORE_NODE_MEMORY_H
#define HPD_CORE_NODE_MEMORY_H

#include <stdint.h>

/* This node's memory in bytes: physical memory, or the cgroup (v2 or v1) limit when
 * that is lower.  Read once. */
uint64_t hpd_node_memory_bytes(void);

#endif
