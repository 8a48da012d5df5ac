/* The node's memory and its ranks, as the library's grouping formula sees them
 * (node_memory.h). */
#define _POSIX_C_SOURCE 200809L
#include "node_memory.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A cgroup limit file's value, or 0 for none ("max", or v1's huge "unlimited"). */
static uint64_t cgroup_limit(const char *path)
{
  FILE *f = fopen(path, "r");
  unsigned long long v = 0;
  int ok = f && fscanf(f, "%llu", &v) == 1;
  if (f)
    fclose(f);
  return ok && v < (1ULL << 62) ? (uint64_t)v : 0;
}

/* Inside a container the limit often sits on the process's own cgroup, not the root. */
static uint64_t own_cgroup_limit(void)
{
  FILE *f = fopen("/proc/self/cgroup", "r");
  uint64_t lowest = 0;
  char line[1024], path[1200];
  while (f && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    char *controllers = strchr(line, ':');
    char *rel = controllers ? strchr(controllers + 1, ':') : NULL;
    if (!rel)
      continue;
    *rel++ = '\0';
    if (strcmp(line, "0:") == 0)
      snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max", rel);
    else if (strstr(controllers, "memory"))
      snprintf(path, sizeof path, "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", rel);
    else
      continue;
    uint64_t v = cgroup_limit(path);
    if (v && (!lowest || v < lowest))
      lowest = v;
  }
  if (f)
    fclose(f);
  return lowest;
}

uint64_t node_memory_bytes(void)
{
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  uint64_t bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
  uint64_t limits[] = {cgroup_limit("/sys/fs/cgroup/memory.max"),
                       cgroup_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
                       own_cgroup_limit()};
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
    if (limits[i] && (!bytes || limits[i] < bytes))
      bytes = limits[i];
  return bytes;
}

int ranks_per_node(void)
{
  MPI_Comm node;
  int size = 1;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
      MPI_SUCCESS) {
    MPI_Comm_size(node, &size);
    MPI_Comm_free(&node);
  }
  return size;
}
