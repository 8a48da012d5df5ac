#define _GNU_SOURCE /* sched_getaffinity, CPU_ALLOC */
#include "dvfs/cpus.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void hpd_cpus_clear(hpd_cpus *set)
{
  memset(set, 0, sizeof *set);
}

void hpd_cpus_add(hpd_cpus *set, int cpu)
{
  if (cpu >= 0 && cpu < HPD_CPUS_MAX)
    set->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

int hpd_cpus_has(const hpd_cpus *set, int cpu)
{
  return cpu >= 0 && cpu < HPD_CPUS_MAX && (set->bits[cpu / 64] >> (cpu % 64)) & 1;
}

int hpd_cpus_count(const hpd_cpus *set)
{
  int n = 0;
  for (size_t w = 0; w < sizeof set->bits / sizeof set->bits[0]; w++)
    n += __builtin_popcountll(set->bits[w]);
  return n;
}

int hpd_cpus_next(const hpd_cpus *set, int from)
{
  if (from < 0)
    from = 0;
  for (int w = from / 64; w < HPD_CPUS_MAX / 64; w++) {
    uint64_t bits = set->bits[w];
    if (w == from / 64)
      bits &= ~(uint64_t)0 << (from % 64);
    if (bits)
      return w * 64 + __builtin_ctzll(bits);
  }
  return -1;
}

int hpd_cpus_subset(const hpd_cpus *a, const hpd_cpus *b)
{
  for (size_t w = 0; w < sizeof a->bits / sizeof a->bits[0]; w++)
    if (a->bits[w] & ~b->bits[w])
      return 0;
  return 1;
}

/* A CPU number: digits only, below HPD_CPUS_MAX.  -1 otherwise. */
static int parse_cpu(const char **s)
{
  if (!isdigit((unsigned char)**s))
    return -1;
  long v = 0;
  while (isdigit((unsigned char)**s)) {
    v = v * 10 + (**s - '0');
    if (v >= HPD_CPUS_MAX)
      return -1;
    (*s)++;
  }
  return (int)v;
}

hpd_status hpd_cpus_parse(const char *text, hpd_cpus *out)
{
  hpd_cpus set;
  hpd_cpus_clear(&set);
  const char *s = text;
  for (;;) {
    while (*s == ',' || isspace((unsigned char)*s))
      s++;
    if (*s == '\0')
      break;
    int lo = parse_cpu(&s), hi = lo;
    if (lo < 0)
      return HPD_STATUS_INVALID;
    if (*s == '-') {
      s++;
      hi = parse_cpu(&s);
      if (hi < lo)
        return HPD_STATUS_INVALID;
    }
    if (*s != '\0' && *s != ',' && !isspace((unsigned char)*s))
      return HPD_STATUS_INVALID;
    for (int cpu = lo; cpu <= hi; cpu++)
      hpd_cpus_add(&set, cpu);
  }
  *out = set;
  return HPD_OK;
}

int hpd_cpus_affinity(hpd_cpus *out)
{
  cpu_set_t *mask = CPU_ALLOC(HPD_CPUS_MAX);
  if (!mask)
    return ENOMEM;
  size_t size = CPU_ALLOC_SIZE(HPD_CPUS_MAX);
  CPU_ZERO_S(size, mask);
  if (sched_getaffinity(0, size, mask) != 0) {
    int err = errno;
    CPU_FREE(mask);
    return err;
  }
  hpd_cpus_clear(out);
  for (int cpu = 0; cpu < HPD_CPUS_MAX; cpu++)
    if (CPU_ISSET_S(cpu, size, mask))
      hpd_cpus_add(out, cpu);
  CPU_FREE(mask);
  return 0;
}

/* "cpu" followed by digits only: cpufreq and cpuidle are not CPUs. */
static int cpu_entry(const char *name)
{
  if (strncmp(name, "cpu", 3) != 0 || name[3] == '\0')
    return -1;
  const char *s = name + 3;
  int cpu = parse_cpu(&s);
  return *s == '\0' ? cpu : -1;
}

static hpd_status online_from_entries(const char *root, hpd_cpus *out, char *why,
                                      size_t why_size)
{
  DIR *dir = opendir(root);
  if (!dir) {
    snprintf(why, why_size, "%s: %s", root, strerror(errno));
    return HPD_STATUS_UNAVAILABLE;
  }
  hpd_cpus_clear(out);
  struct dirent *e;
  while ((e = readdir(dir)) != NULL) {
    int cpu = cpu_entry(e->d_name);
    if (cpu >= 0)
      hpd_cpus_add(out, cpu);
  }
  closedir(dir);
  if (hpd_cpus_count(out) == 0) {
    snprintf(why, why_size, "%s: no online file and no cpuN entries", root);
    return HPD_STATUS_UNAVAILABLE;
  }
  return HPD_OK;
}

hpd_status hpd_cpus_online(const char *root, hpd_cpus *out, char *why, size_t why_size)
{
  char path[HPD_PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/online", root);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      return online_from_entries(root, out, why, why_size);
    snprintf(why, why_size, "%s: %s", path, strerror(errno));
    return HPD_STATUS_UNAVAILABLE;
  }
  /* 8192 CPUs written as single numbers with commas stay under 64 KiB. */
  const size_t size = 65536;
  char *text = malloc(size);
  ssize_t n = -1;
  if (text)
    do
      n = read(fd, text, size - 1);
    while (n < 0 && errno == EINTR);
  int err = text ? errno : ENOMEM;
  close(fd);
  if (n < 0) {
    snprintf(why, why_size, "%s: %s", path, strerror(err));
    free(text);
    return HPD_STATUS_UNAVAILABLE;
  }
  text[n] = '\0';
  int bad = hpd_cpus_parse(text, out) != HPD_OK || hpd_cpus_count(out) == 0;
  free(text);
  if (bad) {
    snprintf(why, why_size, "%s: not a CPU list", path);
    return HPD_STATUS_UNAVAILABLE;
  }
  return HPD_OK;
}

hpd_status hpd_cpus_of_rank(const char *root, hpd_cpus *rank, int *bound, char *why,
                            size_t why_size)
{
  hpd_cpus online;
  if (hpd_cpus_online(root, &online, why, why_size) != HPD_OK)
    return HPD_STATUS_UNAVAILABLE;
  int err = hpd_cpus_affinity(rank);
  if (err) {
    snprintf(why, why_size, "sched_getaffinity: %s", strerror(err));
    return HPD_STATUS_UNAVAILABLE;
  }
  *bound = !hpd_cpus_subset(&online, rank);
  return HPD_OK;
}

hpd_status hpd_rank_domains_add(hpd_rank_domains *d, int id, int cpu)
{
  int at = 0;
  while (at < d->count && d->id[at] < id)
    at++;
  if (at < d->count && d->id[at] == id)
    return HPD_OK;
  if (d->count == HPD_DVFS_MAX_DOMAINS)
    return HPD_STATUS_FULL;
  memmove(&d->id[at + 1], &d->id[at], (size_t)(d->count - at) * sizeof d->id[0]);
  memmove(&d->cpu[at + 1], &d->cpu[at], (size_t)(d->count - at) * sizeof d->cpu[0]);
  d->id[at] = id;
  d->cpu[at] = cpu;
  d->count++;
  return HPD_OK;
}
