/*
 * The sysfs backend: direct writes under HPD_SYSFS_ROOT, through the descriptors the
 * armed domains keep open, so that a switch costs one write per domain and no path
 * lookup.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dvfs/backend.h"
#include "dvfs/cpufreq_tree.h"
#include "dvfs/domains.h"
#include "dvfs/restore.h"
#include "dvfs/sysfs_file.h"

static hpd_status sysfs_probe(const hpd_settings *cfg, hpd_dvfs_probe *out, char *why,
                              size_t why_size)
{
  char reason[HPD_DVFS_WHY_MAX];
#ifdef HPD_SIMULATED
  /* The cpufreq tree here is the machine's that runs the simulation, not a simulated
   * core's: sim switches those. */
  (void)cfg, (void)reason;
  memset(out, 0, sizeof *out);
  snprintf(why, why_size, "sysfs: not in the simulated build (sim switches the simulated "
                          "cores)");
  return HPD_STATUS_UNAVAILABLE;
#endif
  if (hpd_cpufreq_probe(cfg->sysfs_root, out, reason, sizeof reason) == HPD_OK)
    return HPD_OK;
  snprintf(why, why_size, "sysfs: %s", reason);
  return HPD_STATUS_UNAVAILABLE;
}

static hpd_status sysfs_arm(const hpd_settings *cfg, char *why, size_t why_size)
{
  char reason[HPD_DVFS_WHY_MAX];
  hpd_rank_domains rank;
  if (hpd_cpufreq_domains(cfg->sysfs_root, &rank, reason, sizeof reason) != HPD_OK ||
      hpd_domains_arm(cfg->sysfs_root, &rank, reason, sizeof reason) != HPD_OK) {
    snprintf(why, why_size, "sysfs: %s", reason);
    return HPD_STATUS_UNAVAILABLE;
  }
  static const char userspace[] = "userspace\n";
  for (int i = 0; i < hpd_domains_count(); i++) {
    hpd_domain *d = hpd_domain_at(i);
    int err = d->userspace ? hpd_sysfs_put(d->fd_governor, userspace, sizeof userspace - 1)
                           : 0;
    if (err) {
      char path[HPD_PATH_MAX + 64];
      hpd_domain_path(d, "scaling_governor", path, sizeof path);
      hpd_domains_restore();
      snprintf(why, why_size, "sysfs: %s: %s", path, strerror(err));
      return HPD_STATUS_UNAVAILABLE;
    }
  }
  return HPD_OK;
}

static int write_limit(hpd_domain *d, int is_max, unsigned khz)
{
  char text[16];
  size_t len = hpd_sysfs_format_uint(khz, text);
  return hpd_sysfs_put(is_max ? d->fd_max : d->fd_min, text, len);
}

static int sysfs_set(unsigned khz, hpd_phase phase)
{
  (void)phase;
  /* After restoration the descriptors are gone or must stay untouched. */
  if (!hpd_restore_armed())
    return ECANCELED;
  char text[16];
  size_t len = hpd_sysfs_format_uint(khz, text);
  for (int i = 0; i < hpd_domains_count(); i++) {
    hpd_domain *d = hpd_domain_at(i);
    int err = d->userspace ? hpd_sysfs_put(d->fd_setspeed, text, len)
                           : hpd_domain_pin(d, khz, write_limit);
    if (err)
      return err;
  }
  return 0;
}

static void sysfs_restore(void)
{
  hpd_domains_restore();
}

const hpd_dvfs_backend hpd_dvfs_backend_sysfs = {
    .kind = HPD_DVFS_SYSFS,
    .probe = sysfs_probe,
    .arm = sysfs_arm,
    .set = sysfs_set,
    .restore = sysfs_restore,
};
