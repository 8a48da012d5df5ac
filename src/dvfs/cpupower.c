/*
 * The libcpupower backend: probing and switching through the library, on the kernel's
 * own tree only (the library has its path built in).  Written against the library of
 * Debian 12 (linux 6.1 tools); every call used here has kept its name and meaning since
 * the library replaced libcpufreq (linux 3.x).  The library returns negative error
 * values, allocates, and is not async-signal-safe, so restoration does not go through it:
 * the armed domains' descriptors and restore plan, shared with the sysfs backend, do it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/config.h"
#include "dvfs/backend.h"
#include "dvfs/cpufreq_tree.h"
#include "dvfs/domains.h"
#include "dvfs/restore.h"

#if defined(HPD_HAVE_CPUPOWER) && defined(__has_include)
#if __has_include(<cpufreq.h>)
#define HPD_CPUPOWER_API 1
#include <cpufreq.h>
#endif
#endif

#ifdef HPD_CPUPOWER_API

static const char kernel_root[] = HPD_DEFAULT_SYSFS_ROOT;

/* The root in the configuration, trailing slashes aside, is the kernel's. */
static int root_is_kernel(const char *root)
{
  size_t len = strlen(root);
  while (len > 1 && root[len - 1] == '/')
    len--;
  return len == strlen(kernel_root) && strncmp(root, kernel_root, len) == 0;
}

/* The library reports failures as negative values without the cause; the failed system
 * call it made last leaves the cause in errno. */
static int library_errno(int ret, int errno_after)
{
  if (ret >= 0)
    return 0;
  return errno_after ? errno_after : -ret;
}

/* The lowest CPU sharing cpu's frequency, from related_cpus, else affected_cpus. */
static int domain_id(int cpu)
{
  struct cpufreq_affected_cpus *list = cpufreq_get_related_cpus((unsigned)cpu);
  int from_related = list != NULL;
  if (!list)
    list = cpufreq_get_affected_cpus((unsigned)cpu);
  int id = cpu;
  for (struct cpufreq_affected_cpus *c = list ? list->first : NULL; c; c = c->next)
    if ((int)c->cpu < id)
      id = (int)c->cpu;
  if (list && from_related)
    cpufreq_put_related_cpus(list);
  else if (list)
    cpufreq_put_affected_cpus(list);
  return id;
}

static hpd_status rank_domains(hpd_rank_domains *out, char *why, size_t why_size)
{
  memset(out, 0, sizeof *out);
  hpd_cpus rank;
  if (hpd_cpus_of_rank(kernel_root, &rank, &out->bound, why, why_size) != HPD_OK)
    return HPD_STATUS_UNAVAILABLE;
  for (int cpu = hpd_cpus_next(&rank, 0); cpu >= 0; cpu = hpd_cpus_next(&rank, cpu + 1)) {
    char *driver = cpufreq_get_driver((unsigned)cpu);
    if (!driver) {
      snprintf(why, why_size, "CPU %d has no cpufreq driver (no %s/cpu%d/cpufreq)", cpu,
               kernel_root, cpu);
      return HPD_STATUS_UNAVAILABLE;
    }
    cpufreq_put_driver(driver);
    if (hpd_rank_domains_add(out, domain_id(cpu), cpu) != HPD_OK) {
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

static hpd_status probe_cpu(int cpu, hpd_dvfs_probe *p, int *userspace, char *why,
                            size_t why_size)
{
  memset(p, 0, sizeof *p);
  unsigned long min = 0, max = 0;
  int ret = cpufreq_get_hardware_limits((unsigned)cpu, &min, &max);
  if (ret != 0 || min == 0 || max < min || max > UINT_MAX) {
    snprintf(why, why_size, "cannot read the frequency limits of CPU %d%s%s", cpu,
             ret < 0 ? ": " : "", ret < 0 ? strerror(-ret) : "");
    return HPD_STATUS_UNAVAILABLE;
  }
  p->min_khz = (unsigned)min;
  p->max_khz = (unsigned)max;
  /* 0 when unreadable; a driver that does not know says 4294967295 (CPUFREQ_ETERNAL),
   * passed on as it is, as the sysfs backend does. */
  unsigned long latency = cpufreq_get_transition_latency((unsigned)cpu);
  p->latency_ns = latency > UINT_MAX ? UINT_MAX : (unsigned)latency;

  char *driver = cpufreq_get_driver((unsigned)cpu);
  if (driver) {
    snprintf(p->driver, sizeof p->driver, "%s", driver);
    cpufreq_put_driver(driver);
  }
  struct cpufreq_policy *policy = cpufreq_get_policy((unsigned)cpu);
  if (!policy) {
    snprintf(why, why_size, "cannot read the policy of CPU %d", cpu);
    return HPD_STATUS_UNAVAILABLE;
  }
  snprintf(p->governor, sizeof p->governor, "%s", policy->governor ? policy->governor : "");
  cpufreq_put_policy(policy);

  *userspace = 0;
  struct cpufreq_available_governors *govs = cpufreq_get_available_governors((unsigned)cpu);
  for (struct cpufreq_available_governors *g = govs ? govs->first : NULL; g; g = g->next)
    *userspace |= g->governor && strcmp(g->governor, "userspace") == 0;
  if (govs)
    cpufreq_put_available_governors(govs);

  unsigned khz[HPD_CPUFREQ_VALUE_MAX / 2];
  int n = 0;
  struct cpufreq_available_frequencies *freqs =
      cpufreq_get_available_frequencies((unsigned)cpu);
  for (struct cpufreq_available_frequencies *f = freqs ? freqs->first : NULL;
       f && n < (int)(sizeof khz / sizeof khz[0]); f = f->next)
    if (f->frequency <= UINT_MAX)
      khz[n++] = (unsigned)f->frequency;
  if (freqs)
    cpufreq_put_available_frequencies(freqs);
  hpd_probe_set_freqs(p, khz, n);
  return HPD_OK;
}

static hpd_status cpupower_probe_rank(const hpd_settings *cfg, hpd_dvfs_probe *out,
                                      char *why, size_t why_size)
{
  memset(out, 0, sizeof *out);
  if (!root_is_kernel(cfg->sysfs_root)) {
    snprintf(why, why_size, "HPD_SYSFS_ROOT is set; libcpupower reads only %s", kernel_root);
    return HPD_STATUS_UNAVAILABLE;
  }
  hpd_rank_domains d;
  if (rank_domains(&d, why, why_size) != HPD_OK)
    return HPD_STATUS_UNAVAILABLE;
  for (int i = 0; i < d.count; i++) {
    hpd_dvfs_probe one;
    int userspace;
    if (probe_cpu(d.cpu[i], &one, &userspace, why, why_size) != HPD_OK ||
        hpd_probe_merge(out, &one, i == 0, why, why_size) != HPD_OK ||
        hpd_cpufreq_check_writable(kernel_root, d.cpu[i], userspace, why, why_size) != HPD_OK)
      return HPD_STATUS_UNAVAILABLE;
  }
  out->domains = d.count;
  memcpy(out->domain_id, d.id, sizeof d.id);
  out->bound = d.bound;
  return HPD_OK;
}

static hpd_status cpupower_probe(const hpd_settings *cfg, hpd_dvfs_probe *out, char *why,
                                 size_t why_size)
{
  char reason[HPD_DVFS_WHY_MAX];
  if (cpupower_probe_rank(cfg, out, reason, sizeof reason) == HPD_OK)
    return HPD_OK;
  snprintf(why, why_size, "cpupower: %s", reason);
  return HPD_STATUS_UNAVAILABLE;
}

static hpd_status cpupower_arm(const hpd_settings *cfg, char *why, size_t why_size)
{
  char reason[HPD_DVFS_WHY_MAX];
  hpd_rank_domains rank;
  if (!root_is_kernel(cfg->sysfs_root)) {
    snprintf(why, why_size, "cpupower: HPD_SYSFS_ROOT is set; libcpupower reads only %s",
             kernel_root);
    return HPD_STATUS_UNAVAILABLE;
  }
  if (rank_domains(&rank, reason, sizeof reason) != HPD_OK ||
      hpd_domains_arm(kernel_root, &rank, reason, sizeof reason) != HPD_OK) {
    snprintf(why, why_size, "cpupower: %s", reason);
    return HPD_STATUS_UNAVAILABLE;
  }
  for (int i = 0; i < hpd_domains_count(); i++) {
    hpd_domain *d = hpd_domain_at(i);
    if (!d->userspace)
      continue;
    char governor[] = "userspace";
    errno = 0;
    int ret = cpufreq_modify_policy_governor((unsigned)d->cpu, governor);
    int err = library_errno(ret, errno);
    if (err) {
      hpd_domains_restore();
      snprintf(why, why_size, "cpupower: cannot select the userspace governor of CPU %d: %s",
               d->cpu, strerror(err));
      return HPD_STATUS_UNAVAILABLE;
    }
  }
  return HPD_OK;
}

static int write_limit(hpd_domain *d, int is_max, unsigned khz)
{
  errno = 0;
  int ret = is_max ? cpufreq_modify_policy_max((unsigned)d->cpu, khz)
                   : cpufreq_modify_policy_min((unsigned)d->cpu, khz);
  return library_errno(ret, errno);
}

static int cpupower_set(unsigned khz, hpd_phase phase)
{
  (void)phase;
  if (!hpd_restore_armed())
    return ECANCELED;
  for (int i = 0; i < hpd_domains_count(); i++) {
    hpd_domain *d = hpd_domain_at(i);
    int err;
    if (d->userspace) {
      errno = 0;
      int ret = cpufreq_set_frequency((unsigned)d->cpu, khz);
      err = library_errno(ret, errno);
    } else {
      err = hpd_domain_pin(d, khz, write_limit);
    }
    if (err)
      return err;
  }
  return 0;
}

#else /* no libcpupower */

static hpd_status cpupower_probe(const hpd_settings *cfg, hpd_dvfs_probe *out, char *why,
                                 size_t why_size)
{
  (void)cfg;
  memset(out, 0, sizeof *out);
  snprintf(why, why_size, "cpupower: not built with libcpupower");
  return HPD_STATUS_UNAVAILABLE;
}

static hpd_status cpupower_arm(const hpd_settings *cfg, char *why, size_t why_size)
{
  (void)cfg;
  snprintf(why, why_size, "cpupower: not built with libcpupower");
  return HPD_STATUS_UNAVAILABLE;
}

static int cpupower_set(unsigned khz, hpd_phase phase)
{
  (void)phase;
  (void)khz;
  return ENOSYS;
}

#endif

static void cpupower_restore(void)
{
  hpd_domains_restore();
}

const hpd_dvfs_backend hpd_dvfs_backend_cpupower = {
    .kind = HPD_DVFS_CPUPOWER,
    .probe = cpupower_probe,
    .arm = cpupower_arm,
    .set = cpupower_set,
    .restore = cpupower_restore,
};
