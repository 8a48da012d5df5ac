#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* madvise */
#endif
#include "core/alloc_large.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Below this, the pages are few anyway and rounding up to a huge page would waste more
 * than it saves. */
#define LARGE ((size_t)4 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

void *hpd_alloc_large(size_t bytes)
{
#ifdef HPD_SIMULATED
  /* Under the simulator's timing mode only its malloc folds every rank's large buffers
   * onto one memory; huge pages are no concern there. */
  return malloc(bytes);
#else
  if (bytes < LARGE)
    return malloc(bytes);
  size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
  void *block = NULL;
  if (posix_memalign(&block, HUGE_PAGE, rounded) != 0)
    return NULL;
#ifdef MADV_HUGEPAGE
  madvise(block, rounded, MADV_HUGEPAGE); /* advice only: a kernel without it says no */
#endif
  return block;
#endif
}

void *hpd_alloc_large_kept(size_t bytes)
{
  void *block = hpd_alloc_large(bytes);
#ifndef HPD_SIMULATED
  /* Touched here, in one sweep: left to the call, each first touch lands inside its
   * receives and kernels, where a process waiting for the kernel to back a page holds up
   * every process waiting for its messages, and costs the call several times what the
   * sweep costs (timing/notes/2026-11-29.md, "Fresh pages"). */
  if (block)
    memset(block, 0, bytes);
#endif
  return block;
}

void *hpd_alloc_large_own(size_t bytes)
{
#ifdef HPD_SIMULATED
  /* The simulator intercepts malloc, not posix_memalign. */
  void *block = NULL;
  return posix_memalign(&block, 64, bytes ? bytes : 1) == 0 ? block : NULL;
#else
  return hpd_alloc_large(bytes);
#endif
}
