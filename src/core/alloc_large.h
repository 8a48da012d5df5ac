/* Large working buffers: their pages come in huge pages where the kernel lets a program
 * ask for them, so that a call's first touch of them costs a few faults, not thousands. */
#ifndef HPD_CORE_ALLOC_LARGE_H
#define HPD_CORE_ALLOC_LARGE_H

#include <stddef.h>

/* bytes of memory (free() releases it), or NULL. */
void *hpd_alloc_large(size_t bytes);

#endif
