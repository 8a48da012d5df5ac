/*
 * The restore plan: the writes that put the original frequency state back, prepared
 * while arming as (descriptor, bytes) pairs so that running them takes only lseek, write
 * and ftruncate.  It runs once, from whichever comes first: the backend's restore, MPI
 * finalize, exit, a fatal signal, or the guardian process once this process is gone.
 */
#ifndef HPD_DVFS_RESTORE_H
#define HPD_DVFS_RESTORE_H

#include <stddef.h>

#include "dvfs/backend.h"

/* Per domain: governor, minimum, maximum, minimum again, set speed. */
#define HPD_RESTORE_MAX_WRITES (HPD_DVFS_MAX_DOMAINS * 5)
/* Per domain: governor, minimum, maximum, set speed. */
#define HPD_RESTORE_MAX_FDS (HPD_DVFS_MAX_DOMAINS * 4)
/* A governor name (at most 15 characters in the kernel) or a number, and a newline. */
#define HPD_RESTORE_VALUE_MAX 32

/* Starts an empty plan.  -1 while a plan is armed. */
int hpd_restore_begin(void);

/* Appends the write of "value\n" to fd.  0, or -1 when the plan is full or the value too
 * long. */
int hpd_restore_add(int fd, const char *value);

/* Arms the plan: the guardian process, the fatal-signal handlers, exit and MPI finalize.
 * 0, or -1 with one line in why and nothing armed. */
int hpd_restore_arm(char *why, size_t why_size);

/* 1 from arming until the plan has run. */
int hpd_restore_armed(void);

/* Runs the plan if it is armed and has not run, then dismisses the guardian and hands the
 * signals back.  Idempotent. */
void hpd_restore_run(void);

/* Every write of the plan in order, refusals skipped.  Async-signal-safe. */
void hpd_restore_write_plan(void);

/* The descriptors the plan writes to, ascending, each once. */
int hpd_restore_fds(int *fds, int max);

#endif
