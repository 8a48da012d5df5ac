#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* madvise */
#endif
#include "core/alloc_large.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Below this, a block's pages are few and malloc's own placement serves as well. */
#define LARGE ((size_t)4 << 20)

void *hpd_alloc_large(size_t bytes)
{
#ifdef HPD_SIMULATED
  /* Under the simulator's timing mode only its malloc folds every rank's large buffers
   * onto one memory. */
  return malloc(bytes);
#else
  if (bytes < LARGE)
    return malloc(bytes);
  long page = sysconf(_SC_PAGESIZE);
  size_t align = page > 64 ? (size_t)page : 64;
  void *block = NULL;
  return posix_memalign(&block, align, (bytes + align - 1) / align * align) == 0 ? block
                                                                                  : NULL;
#endif
}

/*
 * A kept block's pages are made where it is made, not at their first touch inside a call,
 * where a process waiting for the kernel to back a page holds up every process waiting
 * for its messages (timing/notes/2026-11-29.md, "Fresh pages").  The kernel makes them
 * in one request where it can, about half the cost of faulting them in one by one, else
 * a sweep does.  Huge pages are not asked for: where the kernel has none free, a region
 * that asks for them waits for memory to be compacted at its faults, which cost a call up
 * to ten times what plain pages do (timing/notes/2026-11-29.md, "Fresh pages made at
 * once").
 */
void hpd_alloc_large_touch(void *block, size_t bytes)
{
  hpd_alloc_large_touch_part(block, bytes, 0, bytes, 0);
}

void hpd_alloc_large_touch_part(void *block, size_t bytes, size_t from, size_t to,
                                int written)
{
#ifndef HPD_SIMULATED
  if (!block || to > bytes || from >= to)
    return;
  char *start = (char *)block + from;
#ifdef MADV_POPULATE_WRITE
  /* A large block is page-aligned and whole pages long (hpd_alloc_large), so the pages
   * that hold the part lie inside it; making them leaves their contents as they are. */
  if (bytes >= LARGE) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t first = (uintptr_t)start / page * page;
    if (madvise((void *)first, (uintptr_t)block + to - first, MADV_POPULATE_WRITE) == 0 &&
        !written)
      return;
  }
#endif
  memset(start, 0, to - from);
#else
  (void)block, (void)bytes, (void)from, (void)to, (void)written;
#endif
}

void hpd_alloc_large_populate(void *block, size_t bytes, int as_writer)
{
#if !defined(HPD_SIMULATED) && defined(MADV_POPULATE_WRITE)
  if (block && bytes)
    (void)madvise(block, bytes, as_writer ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
#else
  (void)block, (void)bytes, (void)as_writer;
#endif
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
