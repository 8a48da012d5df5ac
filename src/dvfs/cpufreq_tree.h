/*
 * Reading a cpufreq tree (ROOT/cpuN/cpufreq/...): the kernel's under
 * /sys/devices/system/cpu, or a copy of its layout made elsewhere.  Nothing here writes.
 */
#ifndef HPD_DVFS_CPUFREQ_TREE_H
#define HPD_DVFS_CPUFREQ_TREE_H

#include <stddef.h>

#include "core/checked.h"
#include "dvfs/backend.h"
#include "dvfs/cpus.h"

/* The longest value read from one cpufreq file (a frequency table included). */
#define HPD_CPUFREQ_VALUE_MAX 4096

/* ROOT/cpuN/cpufreq/NAME, or ROOT/cpuN/cpufreq when name is NULL. */
void hpd_cpufreq_path(char *path, size_t size, const char *root, int cpu, const char *name);

/* The whole file without its trailing white space.  0, or an errno value (EINVAL: longer
 * than size allows). */
HPD_CHECKED int hpd_cpufreq_read(const char *root, int cpu, const char *name, char *buf,
                                 size_t size);

/* A file holding one decimal number.  0, or an errno value (EINVAL: not a number). */
HPD_CHECKED int hpd_cpufreq_read_uint(const char *root, int cpu, const char *name,
                                      unsigned *out);

/* 1 when the white-space separated list holds word. */
HPD_CHECKED int hpd_word_in_list(const char *list, const char *word);

/* The rank's frequency domains, from each CPU's related_cpus (else affected_cpus, else
 * the CPU alone).  Fails when one of the rank's CPUs has no cpufreq directory. */
HPD_CHECKED hpd_status hpd_cpufreq_domains(const char *root, hpd_rank_domains *out,
                                           char *why, size_t why_size);

/* Fills probe->available_khz from frequencies in any order, possibly repeated: ascending,
 * each once, at most HPD_DVFS_MAX_FREQS (evenly thinned, the lowest and highest kept). */
void hpd_probe_set_freqs(hpd_dvfs_probe *probe, const unsigned *khz, int count);

/* Narrows all to what every domain offers so far: one is the next domain's probe (its
 * domain fields are ignored).  HPD_OK, or a failure with one line in why when nothing is
 * common. */
HPD_CHECKED hpd_status hpd_probe_merge(hpd_dvfs_probe *all, const hpd_dvfs_probe *one,
                                       int first, char *why, size_t why_size);

/* Opens for writing (and closes) the files arming will write for this CPU: governor,
 * minimum, maximum, and scaling_setspeed where userspace is 1.  Opening changes nothing;
 * a FIFO with no reader counts as writable.  HPD_OK, or a failure with one line in why. */
HPD_CHECKED hpd_status hpd_cpufreq_check_writable(const char *root, int cpu, int userspace,
                                                  char *why, size_t why_size);

/* The whole probe of a sysfs tree.  Never reads scaling_setspeed. */
HPD_CHECKED hpd_status hpd_cpufreq_probe(const char *root, hpd_dvfs_probe *out, char *why,
                                         size_t why_size);

#endif
