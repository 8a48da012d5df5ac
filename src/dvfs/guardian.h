/*
 * The guardian: a child process that runs the restore plan when this process ends
 * without running it (SIGKILL, an abort that skips exit handlers).  It waits on a socket
 * whose other end only this process holds; end of file means this process is gone.
 */
#ifndef HPD_DVFS_GUARDIAN_H
#define HPD_DVFS_GUARDIAN_H

#include <stddef.h>

#include "core/checked.h"

/* Starts it with the plan as it stands.  HPD_OK, or a failure with one line in why. */
HPD_CHECKED hpd_status hpd_guardian_start(char *why, size_t why_size);

/* Tells it the plan has run, so that it exits without writing, and reaps it. */
void hpd_guardian_dismiss(void);

#endif
