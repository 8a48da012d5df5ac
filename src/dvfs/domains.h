/*
 * The armed frequency domains, shared by the sysfs and cpupower backends: the original
 * state of each, saved into the restore plan, and the cpufreq files of each kept open for
 * the whole job.  Whichever way a backend switches, restoration goes through these
 * descriptors.
 */
#ifndef HPD_DVFS_DOMAINS_H
#define HPD_DVFS_DOMAINS_H

#include <stddef.h>

#include "core/checked.h"
#include "dvfs/cpus.h"

typedef struct hpd_domain {
  int cpu;       /* whose files are written: the rank's lowest CPU in the domain */
  int userspace; /* 1: switched through scaling_setspeed; 0: by pinning min and max */
  int fd_governor, fd_min, fd_max, fd_setspeed; /* -1 where not opened */
  unsigned pinned_max; /* pinning: scaling_max_freq as last written */
} hpd_domain;

/* Saves the state of every domain into the restore plan, opens its files and arms
 * restoration.  Writes nothing.  HPD_OK, or a failure with one line in why and nothing left
 * open. */
HPD_CHECKED hpd_status hpd_domains_arm(const char *root, const hpd_rank_domains *rank,
                                       char *why, size_t why_size);

HPD_CHECKED int hpd_domains_count(void);
hpd_domain *hpd_domain_at(int index);
/* The path of a domain's file, for messages. */
void hpd_domain_path(const hpd_domain *d, const char *name, char *path, size_t size);

/* Pins min and max to khz in the order that keeps min <= max at every step (kernels
 * before frequency QoS refuse the opposite).  write_limit writes one limit (is_max 0 or
 * 1) and returns 0 or an errno value; so does this. */
HPD_CHECKED int hpd_domain_pin(hpd_domain *d, unsigned khz,
                               int (*write_limit)(hpd_domain *d, int is_max, unsigned khz));

/* Runs the restore plan if it has not run, then closes the files.  Idempotent. */
void hpd_domains_restore(void);

#endif
