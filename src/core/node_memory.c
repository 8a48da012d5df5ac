#include "core/node_memory.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HPD_SIMULATED
#include <simgrid/host.h>

#include "core/log.h"
#endif

static uint64_t node_memory;
static pthread_once_t node_memory_once = PTHREAD_ONCE_INIT;

#ifndef HPD_SIMULATED
/* The limit in a cgroup file, or 0 for none ("max", a v1 "unlimited" near 2^63, or
 * a missing file). */
static uint64_t read_limit(const char *path)
{
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  char text[64] = "";
  unsigned long long v = 0;
  int ok = fgets(text, sizeof text, f) && strncmp(text, "max", 3) != 0 &&
           sscanf(text, "%llu", &v) == 1;
  fclose(f);
  return ok && v < (1ULL << 62) ? (uint64_t)v : 0;
}

static uint64_t lower(uint64_t current, uint64_t limit)
{
  return limit && limit < current ? limit : current;
}

/* The process's own cgroup directories, from /proc/self/cgroup: inside a container the
 * limit is often on them rather than on the root of /sys/fs/cgroup. */
static uint64_t own_cgroup_limits(uint64_t bytes)
{
  FILE *f = fopen("/proc/self/cgroup", "r");
  if (!f)
    return bytes;
  char line[1024], path[1200];
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    /* "ID:CONTROLLERS:PATH"; v2 has ID 0 and no controllers. */
    char *controllers = strchr(line, ':');
    char *rel = controllers ? strchr(controllers + 1, ':') : NULL;
    if (!rel || strcmp(rel + 1, "/") == 0)
      continue;
    *rel = '\0';
    if (strcmp(line, "0:") == 0)
      snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max", rel + 1);
    else if (strstr(controllers, "memory"))
      snprintf(path, sizeof path, "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", rel + 1);
    else
      continue;
    bytes = lower(bytes, read_limit(path));
  }
  fclose(f);
  return bytes;
}

static void measure_node_memory(void)
{
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  uint64_t bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
  bytes = lower(bytes, read_limit("/sys/fs/cgroup/memory.max"));
  bytes = lower(bytes, read_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes"));
  node_memory = own_cgroup_limits(bytes);
}
#else
/* A simulated core is a node of its own to the library: its share of its node's memory,
 * from the host property that simulated/platform.py writes (this machine's memory says
 * nothing of the simulated node's, and all ranks share it here). */
static void measure_node_memory(void)
{
  const char *text = sg_host_get_property_value(sg_host_self(), "memory_bytes");
  node_memory = text ? strtoull(text, NULL, 10) : 0;
  if (node_memory == 0)
    hpd_fatal("the simulated host %s has no memory_bytes property (a platform of "
              "simulated/platform.py has)",
              sg_host_get_name(sg_host_self()));
}
#endif

uint64_t hpd_node_memory_bytes(void)
{
  pthread_once(&node_memory_once, measure_node_memory);
  return node_memory;
}
