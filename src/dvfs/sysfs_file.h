/*
 * A cpufreq file kept open for writing for the whole job, so that restoring it needs
 * no path lookup, no allocation and no lock: everything here is async-signal-safe
 * except hpd_sysfs_open.
 */
#ifndef HPD_DVFS_SYSFS_FILE_H
#define HPD_DVFS_SYSFS_FILE_H

#include <stddef.h>

#include "core/checked.h"

/* Opens path for writing only (never appending), close-on-exec, above the standard
 * descriptors (a process with 0-2 closed would otherwise get them).  The descriptor, or
 * -1 with errno set. */
HPD_CHECKED int hpd_sysfs_open(const char *path);

/* Replaces the file's value with bytes: lseek to 0, one write(2), ftruncate to len.
 * sysfs ignores the truncation and FIFOs refuse the seek; neither matters.  0, or the
 * errno value of the refused write (EIO for a short one). */
int hpd_sysfs_put(int fd, const char *bytes, size_t len);

/* "VALUE\n" for a frequency in kHz; the length written to text (at least 12 bytes). */
size_t hpd_sysfs_format_uint(unsigned value, char *text);

#endif
