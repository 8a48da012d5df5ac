/*
 * Sets of CPU numbers: the kernel's CPU lists, this process's affinity, and the frequency
 * domains those CPUs fall into.
 */
#ifndef HPD_DVFS_CPUS_H
#define HPD_DVFS_CPUS_H

#include <stddef.h>
#include <stdint.h>

#include "core/checked.h"
#include "dvfs/backend.h"

/* Larger than any machine the kernel's default configuration supports (NR_CPUS 8192). */
#define HPD_CPUS_MAX 8192

typedef struct hpd_cpus {
  uint64_t bits[HPD_CPUS_MAX / 64];
} hpd_cpus;

void hpd_cpus_clear(hpd_cpus *set);
void hpd_cpus_add(hpd_cpus *set, int cpu);
HPD_CHECKED int hpd_cpus_has(const hpd_cpus *set, int cpu);
HPD_CHECKED int hpd_cpus_count(const hpd_cpus *set);
/* The lowest CPU at or above from, or -1. */
HPD_CHECKED int hpd_cpus_next(const hpd_cpus *set, int from);
/* 1 when every CPU of a is in b. */
HPD_CHECKED int hpd_cpus_subset(const hpd_cpus *a, const hpd_cpus *b);

/* A kernel CPU list: "0-3,5" (online, cpulist files) or "0 1 2 3" (related_cpus), with any
 * mix of commas and white space; empty text is the empty set.  HPD_OK, or
 * HPD_STATUS_INVALID on anything else (a CPU at or above HPD_CPUS_MAX included). */
HPD_CHECKED hpd_status hpd_cpus_parse(const char *text, hpd_cpus *out);

/* The CPUs this process may run on.  0, or an errno value. */
HPD_CHECKED int hpd_cpus_affinity(hpd_cpus *out);

/* The online CPUs of a cpu tree: root/online, or its cpuN entries where that file is
 * absent.  HPD_OK, or a failure with one line in why. */
HPD_CHECKED hpd_status hpd_cpus_online(const char *root, hpd_cpus *out, char *why,
                                       size_t why_size);

/* This process's CPUs, and whether it is bound: 0 when the affinity holds every online
 * CPU of the tree.  HPD_OK, or a failure with one line in why. */
HPD_CHECKED hpd_status hpd_cpus_of_rank(const char *root, hpd_cpus *rank, int *bound,
                                        char *why, size_t why_size);

/* The frequency domains of this rank, ascending by id. */
typedef struct hpd_rank_domains {
  int count;
  int id[HPD_DVFS_MAX_DOMAINS];  /* the lowest CPU of the domain's related CPUs */
  int cpu[HPD_DVFS_MAX_DOMAINS]; /* the rank's lowest CPU in the domain: whose files are
                                    read and written (the id may be offline) */
  int bound;                     /* 0 when the affinity holds every online CPU */
} hpd_rank_domains;

/* Records that cpu belongs to the domain id.  HPD_OK, or HPD_STATUS_FULL when there are too
 * many domains. */
HPD_CHECKED hpd_status hpd_rank_domains_add(hpd_rank_domains *d, int id, int cpu);

#endif
