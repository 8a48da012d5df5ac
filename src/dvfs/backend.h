/*
 * A frequency backend: how one rank reads and switches the frequency domains of the CPUs
 * it runs on.  dvfs.c picks one (HPD_DVFS), checks the frequencies and the domains
 * against the other ranks of the node, then arms it; after that it only calls set().
 */
#ifndef HPD_DVFS_BACKEND_H
#define HPD_DVFS_BACKEND_H

#include <stddef.h>

#include "core/config.h"
#include "hpdaemon.h"

#define HPD_DVFS_MAX_DOMAINS 256
#define HPD_DVFS_MAX_FREQS 32

typedef struct hpd_dvfs_probe {
  unsigned available_khz[HPD_DVFS_MAX_FREQS]; /* ascending; none: use min..max */
  int available_count;
  unsigned min_khz, max_khz; /* hardware limits (cpuinfo_min_freq, cpuinfo_max_freq) */
  unsigned latency_ns;       /* cpuinfo_transition_latency */
  char driver[32], governor[32];
  /* The domains this rank would switch: the lowest CPU of each domain's related_cpus,
   * over the CPUs of sched_getaffinity. */
  int domains;
  int domain_id[HPD_DVFS_MAX_DOMAINS];
  int bound; /* 0 when the affinity mask holds every online CPU */
} hpd_dvfs_probe;

typedef struct hpd_dvfs_backend {
  hpd_dvfs_kind kind;
  /* Reads what is there and changes nothing.  HPD_OK, or a failure with one line in why. */
  hpd_status (*probe)(const hpd_settings *cfg, hpd_dvfs_probe *out, char *why,
                      size_t why_size);
  /* Saves the original state of the probed domains, takes control of them (the
   * userspace governor where there is one) and arms restoration at finalize, exit and
   * fatal signals.  HPD_OK, or a failure with one line in why (nothing left changed). */
  hpd_status (*arm)(const hpd_settings *cfg, char *why, size_t why_size);
  /* Sets every armed domain to khz for phase (which only sim records).  0, or the errno
   * value of the refused write. */
  int (*set)(unsigned khz, hpd_phase phase);
  /* Puts the saved state back; idempotent; harmless when arm failed or never ran. */
  void (*restore)(void);
} hpd_dvfs_backend;

extern const hpd_dvfs_backend hpd_dvfs_backend_cpupower;
extern const hpd_dvfs_backend hpd_dvfs_backend_sysfs;
extern const hpd_dvfs_backend hpd_dvfs_backend_sim;

#endif
