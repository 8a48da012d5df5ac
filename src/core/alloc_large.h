/* Large working buffers: their pages come in huge pages where the kernel lets a program
 * ask for them, so that their first touch costs a few faults, not thousands. */
#ifndef HPD_CORE_ALLOC_LARGE_H
#define HPD_CORE_ALLOC_LARGE_H

#include <stddef.h>

/* bytes of memory (free() releases it), or NULL. */
void *hpd_alloc_large(size_t bytes);

/* The same, for a buffer kept from call to call: touched once where it is made, not in
 * the middle of a call's messages.  A buffer made for one call is not: its pages are
 * fresh at every call whichever way, and a sweep would only add a pass over them. */
void *hpd_alloc_large_kept(size_t bytes);

/* The same, for a block that holds indices or request handles beside its data: the
 * simulator's timing mode folds every rank's large buffers onto one memory (their data
 * is never computed there), which would mix every rank's indices; this block stays the
 * process's own. */
void *hpd_alloc_large_own(size_t bytes);

#endif
