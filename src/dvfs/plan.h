/*
 * The restore plan's writes: (descriptor, bytes) pairs prepared while arming, so that
 * running them takes only lseek, write and ftruncate.  The arming and running are
 * restore.h's; the guardian process (guardian.h) runs the writes from here too.
 */
#ifndef HPD_DVFS_PLAN_H
#define HPD_DVFS_PLAN_H

#include "core/checked.h"
#include "dvfs/backend.h"

/* Per domain: governor, minimum, maximum, minimum again, set speed. */
#define HPD_RESTORE_MAX_WRITES (HPD_DVFS_MAX_DOMAINS * 5)
/* Per domain: governor, minimum, maximum, set speed. */
#define HPD_RESTORE_MAX_FDS (HPD_DVFS_MAX_DOMAINS * 4)
/* A governor name (at most 15 characters in the kernel) or a number, and a newline. */
#define HPD_RESTORE_VALUE_MAX 32

/* Empties the plan (restore.h's hpd_restore_begin, where no plan is armed). */
void hpd_restore_plan_clear(void);

/* Appends the write of "value\n" to fd.  HPD_OK, or HPD_STATUS_FULL when the plan is full
 * or the value too long. */
HPD_CHECKED hpd_status hpd_restore_add(int fd, const char *value);

/* Every write of the plan in order, refusals skipped.  Async-signal-safe. */
void hpd_restore_write_plan(void);

/* The descriptors the plan writes to, ascending, each once. */
HPD_CHECKED int hpd_restore_fds(int *fds, int max);

#endif
