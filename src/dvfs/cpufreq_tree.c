#include "dvfs/cpufreq_tree.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void hpd_cpufreq_path(char *path, size_t size, const char *root, int cpu, const char *name)
{
  if (name)
    snprintf(path, size, "%s/cpu%d/cpufreq/%s", root, cpu, name);
  else
    snprintf(path, size, "%s/cpu%d/cpufreq", root, cpu);
}

int hpd_cpufreq_read(const char *root, int cpu, const char *name, char *buf, size_t size)
{
  char path[HPD_PATH_MAX + 64];
  hpd_cpufreq_path(path, sizeof path, root, cpu, name);
  /* Non-blocking, so that a FIFO where a file was expected cannot hang the probe. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return errno;
  size_t used = 0;
  int err = 0;
  for (;;) {
    ssize_t n = read(fd, buf + used, size - 1 - used);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      err = errno;
      break;
    }
    if (n == 0)
      break;
    used += (size_t)n;
    if (used == size - 1) {
      char extra;
      if (read(fd, &extra, 1) > 0)
        err = EINVAL;
      break;
    }
  }
  close(fd);
  if (err)
    return err;
  while (used > 0 && isspace((unsigned char)buf[used - 1]))
    used--;
  buf[used] = '\0';
  return 0;
}

/* A decimal number below UINT_MAX + 1, then only white space or the end. */
static hpd_status parse_uint(const char **s, unsigned *out)
{
  while (isspace((unsigned char)**s))
    (*s)++;
  if (!isdigit((unsigned char)**s))
    return HPD_STATUS_INVALID;
  unsigned long long v = 0;
  while (isdigit((unsigned char)**s)) {
    v = v * 10 + (unsigned)(**s - '0');
    if (v > UINT_MAX)
      return HPD_STATUS_INVALID;
    (*s)++;
  }
  if (**s != '\0' && !isspace((unsigned char)**s))
    return HPD_STATUS_INVALID;
  *out = (unsigned)v;
  return HPD_OK;
}

int hpd_cpufreq_read_uint(const char *root, int cpu, const char *name, unsigned *out)
{
  char text[64];
  int err = hpd_cpufreq_read(root, cpu, name, text, sizeof text);
  if (err)
    return err;
  const char *s = text;
  unsigned v;
  if (parse_uint(&s, &v) != HPD_OK || *s != '\0')
    return EINVAL;
  *out = v;
  return 0;
}

int hpd_word_in_list(const char *list, const char *word)
{
  size_t len = strlen(word);
  for (const char *s = list; *s;) {
    while (isspace((unsigned char)*s))
      s++;
    const char *start = s;
    while (*s && !isspace((unsigned char)*s))
      s++;
    if ((size_t)(s - start) == len && len > 0 && memcmp(start, word, len) == 0)
      return 1;
  }
  return 0;
}

static void fail_errno(char *why, size_t why_size, const char *root, int cpu,
                       const char *name, int err)
{
  char path[HPD_PATH_MAX + 64];
  hpd_cpufreq_path(path, sizeof path, root, cpu, name);
  snprintf(why, why_size, "%s: %s", path, err == EINVAL ? "unexpected contents"
                                                         : strerror(err));
}

/* The CPUs sharing cpu's frequency: a missing or empty list means the CPU alone. */
static hpd_status domain_of(const char *root, int cpu, int *id, char *why, size_t why_size)
{
  static const char *names[] = {"related_cpus", "affected_cpus"};
  char text[HPD_CPUFREQ_VALUE_MAX];
  hpd_cpus set;
  hpd_cpus_clear(&set);
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    int err = hpd_cpufreq_read(root, cpu, names[i], text, sizeof text);
    if (err == ENOENT)
      continue;
    if (err || hpd_cpus_parse(text, &set) != HPD_OK) {
      fail_errno(why, why_size, root, cpu, names[i], err ? err : EINVAL);
      return HPD_STATUS_UNAVAILABLE;
    }
    break;
  }
  hpd_cpus_add(&set, cpu);
  *id = hpd_cpus_next(&set, 0);
  return HPD_OK;
}

hpd_status hpd_cpufreq_domains(const char *root, hpd_rank_domains *out, char *why,
                               size_t why_size)
{
  memset(out, 0, sizeof *out);
  hpd_cpus rank;
  if (hpd_cpus_of_rank(root, &rank, &out->bound, why, why_size) != HPD_OK)
    return HPD_STATUS_UNAVAILABLE;
  for (int cpu = hpd_cpus_next(&rank, 0); cpu >= 0; cpu = hpd_cpus_next(&rank, cpu + 1)) {
    char dir[HPD_PATH_MAX + 64];
    hpd_cpufreq_path(dir, sizeof dir, root, cpu, NULL);
    struct stat st;
    int err = stat(dir, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
    if (err) {
      snprintf(why, why_size, "%s: %s", dir, strerror(err));
      return HPD_STATUS_UNAVAILABLE;
    }
    int id;
    if (domain_of(root, cpu, &id, why, why_size) != HPD_OK)
      return HPD_STATUS_UNAVAILABLE;
    if (hpd_rank_domains_add(out, id, cpu) != HPD_OK) {
      snprintf(why, why_size, "more than %d frequency domains", HPD_DVFS_MAX_DOMAINS);
      return HPD_STATUS_UNAVAILABLE;
    }
  }
  if (out->count == 0) {
    snprintf(why, why_size, "no CPU to switch");
    return HPD_STATUS_UNAVAILABLE;
  }
  return HPD_OK;
}

static int ascending(const void *a, const void *b)
{
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

void hpd_probe_set_freqs(hpd_dvfs_probe *probe, const unsigned *khz, int count)
{
  unsigned sorted[HPD_CPUFREQ_VALUE_MAX / 2];
  int n = 0;
  for (int i = 0; i < count && n < (int)(sizeof sorted / sizeof sorted[0]); i++)
    if (khz[i] > 0)
      sorted[n++] = khz[i];
  qsort(sorted, (size_t)n, sizeof sorted[0], ascending);
  int unique = 0;
  for (int i = 0; i < n; i++)
    if (unique == 0 || sorted[unique - 1] != sorted[i])
      sorted[unique++] = sorted[i];
  /* A longer table is thinned rather than cut, so that both ends stay reachable. */
  int keep = unique < HPD_DVFS_MAX_FREQS ? unique : HPD_DVFS_MAX_FREQS;
  for (int i = 0; i < keep; i++) {
    int from = keep == unique ? i : (int)((long long)i * (unique - 1) / (keep - 1));
    probe->available_khz[i] = sorted[from];
  }
  probe->available_count = keep;
}

hpd_status hpd_probe_merge(hpd_dvfs_probe *all, const hpd_dvfs_probe *one, int first,
                           char *why, size_t why_size)
{
  if (first) {
    hpd_probe_set_freqs(all, one->available_khz, one->available_count);
    all->min_khz = one->min_khz;
    all->max_khz = one->max_khz;
    all->latency_ns = one->latency_ns;
    memcpy(all->driver, one->driver, sizeof all->driver);
    memcpy(all->governor, one->governor, sizeof all->governor);
    return HPD_OK;
  }
  int had_table = all->available_count > 0 || one->available_count > 0;
  if (one->min_khz > all->min_khz)
    all->min_khz = one->min_khz;
  if (one->max_khz < all->max_khz)
    all->max_khz = one->max_khz;
  if (one->latency_ns > all->latency_ns)
    all->latency_ns = one->latency_ns;
  unsigned common[HPD_DVFS_MAX_FREQS];
  int n = 0;
  const hpd_dvfs_probe *table = all->available_count ? all : one;
  for (int i = 0; i < table->available_count; i++) {
    unsigned f = table->available_khz[i];
    int in_other = 1;
    if (all->available_count && one->available_count) {
      in_other = 0;
      for (int j = 0; j < one->available_count; j++)
        in_other |= one->available_khz[j] == f;
    }
    if (in_other && f >= all->min_khz && f <= all->max_khz)
      common[n++] = f;
  }
  hpd_probe_set_freqs(all, common, n);
  if (all->min_khz > all->max_khz || (had_table && n == 0)) {
    snprintf(why, why_size, "the frequency domains of this rank share no frequency");
    return HPD_STATUS_UNAVAILABLE;
  }
  return HPD_OK;
}

hpd_status hpd_cpufreq_check_writable(const char *root, int cpu, int userspace, char *why,
                                      size_t why_size)
{
  const char *names[] = {"scaling_governor", "scaling_min_freq", "scaling_max_freq",
                         "scaling_setspeed"};
  int count = userspace ? 4 : 3;
  for (int i = 0; i < count; i++) {
    char path[HPD_PATH_MAX + 64];
    hpd_cpufreq_path(path, sizeof path, root, cpu, names[i]);
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0 && errno != ENXIO) {
      snprintf(why, why_size, "%s: %s", path, strerror(errno));
      return HPD_STATUS_UNAVAILABLE;
    }
    if (fd >= 0)
      close(fd);
  }
  return HPD_OK;
}

/* What one domain offers, read through its CPU's files. */
static hpd_status probe_cpu(const char *root, int cpu, hpd_dvfs_probe *p, int *userspace,
                            char *why, size_t why_size)
{
  char text[HPD_CPUFREQ_VALUE_MAX];
  int err;
  memset(p, 0, sizeof *p);
  if ((err = hpd_cpufreq_read(root, cpu, "scaling_driver", p->driver, sizeof p->driver))) {
    fail_errno(why, why_size, root, cpu, "scaling_driver", err);
    return HPD_STATUS_UNAVAILABLE;
  }
  if ((err = hpd_cpufreq_read(root, cpu, "scaling_governor", p->governor,
                              sizeof p->governor))) {
    fail_errno(why, why_size, root, cpu, "scaling_governor", err);
    return HPD_STATUS_UNAVAILABLE;
  }
  if ((err = hpd_cpufreq_read_uint(root, cpu, "cpuinfo_min_freq", &p->min_khz))) {
    fail_errno(why, why_size, root, cpu, "cpuinfo_min_freq", err);
    return HPD_STATUS_UNAVAILABLE;
  }
  if ((err = hpd_cpufreq_read_uint(root, cpu, "cpuinfo_max_freq", &p->max_khz))) {
    fail_errno(why, why_size, root, cpu, "cpuinfo_max_freq", err);
    return HPD_STATUS_UNAVAILABLE;
  }
  /* Unknown latency is not a reason to refuse the domain. */
  if (hpd_cpufreq_read_uint(root, cpu, "cpuinfo_transition_latency", &p->latency_ns))
    p->latency_ns = 0;
  err = hpd_cpufreq_read(root, cpu, "scaling_available_governors", text, sizeof text);
  if (err && err != ENOENT) {
    fail_errno(why, why_size, root, cpu, "scaling_available_governors", err);
    return HPD_STATUS_UNAVAILABLE;
  }
  *userspace = !err && hpd_word_in_list(text, "userspace");
  /* intel_pstate and other drivers without a table: the limits are the range. */
  err = hpd_cpufreq_read(root, cpu, "scaling_available_frequencies", text, sizeof text);
  if (err == ENOENT)
    return HPD_OK;
  unsigned khz[HPD_CPUFREQ_VALUE_MAX / 2];
  int n = 0;
  for (const char *s = text; !err && *s;) {
    if (parse_uint(&s, &khz[n]) != HPD_OK)
      err = EINVAL;
    else
      n++;
    while (isspace((unsigned char)*s))
      s++;
  }
  if (err) {
    fail_errno(why, why_size, root, cpu, "scaling_available_frequencies", err);
    return HPD_STATUS_UNAVAILABLE;
  }
  hpd_probe_set_freqs(p, khz, n);
  return HPD_OK;
}

hpd_status hpd_cpufreq_probe(const char *root, hpd_dvfs_probe *out, char *why,
                             size_t why_size)
{
  memset(out, 0, sizeof *out);
  hpd_rank_domains d;
  if (hpd_cpufreq_domains(root, &d, why, why_size) != HPD_OK)
    return HPD_STATUS_UNAVAILABLE;
  for (int i = 0; i < d.count; i++) {
    hpd_dvfs_probe one;
    int userspace;
    if (probe_cpu(root, d.cpu[i], &one, &userspace, why, why_size) != HPD_OK ||
        hpd_probe_merge(out, &one, i == 0, why, why_size) != HPD_OK ||
        hpd_cpufreq_check_writable(root, d.cpu[i], userspace, why, why_size) != HPD_OK)
      return HPD_STATUS_UNAVAILABLE;
  }
  out->domains = d.count;
  memcpy(out->domain_id, d.id, sizeof d.id);
  out->bound = d.bound;
  return HPD_OK;
}
