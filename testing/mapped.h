/* Test helper: the process's mapped bytes, for tests that hold its address space
 * (RLIMIT_AS) just above what it uses, so that large allocations fail. */
#ifndef HPD_TESTING_MAPPED_H
#define HPD_TESTING_MAPPED_H

#include <stdio.h>

/* VmSize from /proc/self/status in bytes; -1 where it cannot be read. */
static inline long long mapped_bytes(void)
{
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmSize: %lld kB", &kib) == 1)
      break;
  if (f)
    fclose(f);
  return kib < 0 ? -1 : kib * 1024;
}

#endif
