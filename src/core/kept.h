/*
 * Working space kept from call to call.  A large call's pages cost their first-touch
 * faults at every call where its space is made afresh (timing/notes/2026-11-29.md,
 * "Fresh pages"), so a pool keeps its block while it is no more than twice what a call
 * asks for, and makes it afresh, touched once, where a call needs more or much less.  One
 * call uses a pool at a time; contents do not survive a call.
 */
#ifndef HPD_CORE_KEPT_H
#define HPD_CORE_KEPT_H

#include <stddef.h>

typedef struct hpd_kept {
  void *block;
  size_t bytes;
  int own; /* the process's own memory (alloc_large.h): for blocks that hold indices */
} hpd_kept;

/* bytes of pool's space, or NULL where memory ran short (the pool is then empty) or bytes
 * is 0. */
void *hpd_kept_get(hpd_kept *pool, size_t bytes);

#endif
