/*
 * The restore plan: the writes that put the original frequency state back, prepared
 * while arming as (descriptor, bytes) pairs so that running them takes only lseek, write
 * and ftruncate.  It runs once, from whichever comes first: the backend's restore, MPI
 * finalize, exit, a fatal signal, or the guardian process once this process is gone.
 */
#ifndef HPD_DVFS_RESTORE_H
#define HPD_DVFS_RESTORE_H

#include <stddef.h>

#include "core/checked.h"
#include "dvfs/plan.h"

/* Starts an empty plan: HPD_OK, or HPD_STATUS_UNAVAILABLE while a plan is armed. */
HPD_CHECKED hpd_status hpd_restore_begin(void);

/* Arms the plan: the guardian process, the fatal-signal handlers, exit and MPI finalize.
 * HPD_OK, or a failure with one line in why and nothing armed. */
HPD_CHECKED hpd_status hpd_restore_arm(char *why, size_t why_size);

/* 1 from arming until the plan has run. */
HPD_CHECKED int hpd_restore_armed(void);

/* Runs the plan if it is armed and has not run, then dismisses the guardian and hands the
 * signals back.  Idempotent. */
void hpd_restore_run(void);

#endif
