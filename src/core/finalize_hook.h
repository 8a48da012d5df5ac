/*
 * Work that must run when the program finalizes MPI, while MPI still works (the report's
 * gather, the frequencies' restoration).  MPI deletes MPI_COMM_SELF's attributes first
 * thing in MPI_Finalize, so a hook is an attribute whose delete callback runs it.
 */
#ifndef HPD_CORE_FINALIZE_HOOK_H
#define HPD_CORE_FINALIZE_HOOK_H

#include <stdatomic.h>

#include "core/checked.h"
#include "core/status.h"

/* Hooks fn into MPI_Finalize, once per flag: the first call that finds MPI running sets
 * *once, and later calls with the same flag do nothing.  HPD_OK where fn is hooked now or
 * was already, or where MPI is not running (nothing is hooked and *once stays clear, for a
 * later call); a failure where MPI refuses the attribute, or past the hooks' room, once:
 * the caller falls back on an exit handler and says so. */
HPD_CHECKED hpd_status hpd_finalize_hook(void (*fn)(void), atomic_int *once);

#endif
