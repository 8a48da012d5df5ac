/* Large working buffers, page-aligned, and the making of their pages before use
 * (alloc_large.c says why). */
#ifndef HPD_CORE_ALLOC_LARGE_H
#define HPD_CORE_ALLOC_LARGE_H

#include <stddef.h>

#include "core/checked.h"

/* bytes of memory (free() releases it), or NULL. */
HPD_CHECKED void *hpd_alloc_large(size_t bytes);

/* The same, for a block that holds indices or request handles beside its data: the
 * simulator's timing mode folds every rank's large buffers onto one memory (their data
 * is never computed there), which would mix every rank's indices; this block stays the
 * process's own. */
HPD_CHECKED void *hpd_alloc_large_own(size_t bytes);

/* Makes the pages of bytes at block (from either of the above) now, for a buffer kept
 * from call to call, so that they are not first touched in the middle of a call's
 * messages; NULL is ignored.  A buffer made for one call is not touched: its pages are
 * fresh at every call whichever way, and a sweep would only add a pass over them. */
void hpd_alloc_large_touch(void *block, size_t bytes);

/* The same for the part [from, to) of a block of bytes: the pages that hold it are made
 * (the contents of the part may change, the rest's do not); where written, they are also
 * written once.  A page made without a write can still cost most of its price at its
 * first write: on a virtual machine here, 32 MiB made at once took 5 ms, and their first
 * write 42 ms more (a sweep of fresh pages, 90 ms); a buffer made ahead of the call that
 * uses it is written, so that the call finds it as a later call would. */
void hpd_alloc_large_touch_part(void *block, size_t bytes, size_t from, size_t to,
                                int written);

/* Makes the pages of a block of shared memory now, without changing its contents: as a
 * writer would (they are allocated, where another process has not already done so), or
 * as a reader would (pages another process made enter this one's page tables, many at a
 * fault).  block is page-aligned.  Where the kernel cannot do either (before Linux 5.14,
 * or out of memory), nothing is done: the first touches make the pages, as without it. */
void hpd_alloc_large_populate(void *block, size_t bytes, int as_writer);

#endif
