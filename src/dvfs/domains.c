#include "dvfs/domains.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dvfs/cpufreq_tree.h"
#include "dvfs/restore.h"
#include "dvfs/sysfs_file.h"

static char root_path[HPD_PATH_MAX];
static hpd_domain domains[HPD_DVFS_MAX_DOMAINS];
static int domain_count;

int hpd_domains_count(void)
{
  return domain_count;
}

hpd_domain *hpd_domain_at(int index)
{
  return &domains[index];
}

void hpd_domain_path(const hpd_domain *d, const char *name, char *path, size_t size)
{
  hpd_cpufreq_path(path, size, root_path, d->cpu, name);
}

static void close_all(void)
{
  for (int i = 0; i < domain_count; i++) {
    int *fds[] = {&domains[i].fd_governor, &domains[i].fd_min, &domains[i].fd_max,
                  &domains[i].fd_setspeed};
    for (size_t f = 0; f < sizeof fds / sizeof fds[0]; f++) {
      if (*fds[f] >= 0)
        close(*fds[f]);
      *fds[f] = -1;
    }
  }
  domain_count = 0;
}

static hpd_status open_file(const hpd_domain *d, const char *name, int *fd, char *why,
                            size_t why_size)
{
  char path[HPD_PATH_MAX + 64];
  hpd_domain_path(d, name, path, sizeof path);
  *fd = hpd_sysfs_open(path);
  if (*fd < 0) {
    snprintf(why, why_size, "%s: %s", path, strerror(errno));
    return HPD_STATUS_UNAVAILABLE;
  }
  return HPD_OK;
}

static hpd_status read_failed(const hpd_domain *d, const char *name, int err, char *why,
                              size_t why_size)
{
  char path[HPD_PATH_MAX + 64];
  hpd_domain_path(d, name, path, sizeof path);
  snprintf(why, why_size, "%s: %s", path, err == EINVAL ? "unexpected contents"
                                                         : strerror(err));
  return HPD_STATUS_UNAVAILABLE;
}

/* The original state of one domain, into the plan: the governor first, so that the limits
 * and the set speed written after it are not overridden by its start; the minimum twice,
 * so that a minimum above the pinned maximum, refused on the first pass by kernels that
 * check min <= max, goes through once the maximum is back. */
static hpd_status save_domain(hpd_domain *d, char *why, size_t why_size)
{
  char governor[HPD_RESTORE_VALUE_MAX], available[HPD_CPUFREQ_VALUE_MAX];
  unsigned min, max, speed = 0;
  int err, have_speed = 0;
  if ((err = hpd_cpufreq_read(root_path, d->cpu, "scaling_governor", governor,
                              sizeof governor)) != 0 ||
      governor[0] == '\0')
    return read_failed(d, "scaling_governor", err ? err : EINVAL, why, why_size);
  if ((err = hpd_cpufreq_read_uint(root_path, d->cpu, "scaling_min_freq", &min)) != 0)
    return read_failed(d, "scaling_min_freq", err, why, why_size);
  if ((err = hpd_cpufreq_read_uint(root_path, d->cpu, "scaling_max_freq", &max)) != 0)
    return read_failed(d, "scaling_max_freq", err, why, why_size);
  err = hpd_cpufreq_read(root_path, d->cpu, "scaling_available_governors", available,
                         sizeof available);
  if (err && err != ENOENT)
    return read_failed(d, "scaling_available_governors", err, why, why_size);
  d->userspace = !err && hpd_word_in_list(available, "userspace");
  /* Read only under userspace: elsewhere the file says "<unsupported>", or is not a
   * file at all. */
  if (strcmp(governor, "userspace") == 0)
    have_speed = hpd_cpufreq_read_uint(root_path, d->cpu, "scaling_setspeed", &speed) == 0;
  d->pinned_max = max;

  if (open_file(d, "scaling_governor", &d->fd_governor, why, why_size) != HPD_OK ||
      open_file(d, "scaling_min_freq", &d->fd_min, why, why_size) != HPD_OK ||
      open_file(d, "scaling_max_freq", &d->fd_max, why, why_size) != HPD_OK ||
      ((d->userspace || have_speed) &&
       open_file(d, "scaling_setspeed", &d->fd_setspeed, why, why_size) != HPD_OK))
    return HPD_STATUS_UNAVAILABLE;

  char min_text[16], max_text[16], speed_text[16];
  snprintf(min_text, sizeof min_text, "%u", min);
  snprintf(max_text, sizeof max_text, "%u", max);
  snprintf(speed_text, sizeof speed_text, "%u", speed);
  if (hpd_restore_add(d->fd_governor, governor) != HPD_OK ||
      hpd_restore_add(d->fd_min, min_text) != HPD_OK || hpd_restore_add(d->fd_max, max_text) != HPD_OK ||
      hpd_restore_add(d->fd_min, min_text) != HPD_OK ||
      (have_speed && hpd_restore_add(d->fd_setspeed, speed_text) != HPD_OK)) {
    snprintf(why, why_size, "the restore plan is full");
    return HPD_STATUS_UNAVAILABLE;
  }
  return HPD_OK;
}

hpd_status hpd_domains_arm(const char *root, const hpd_rank_domains *rank, char *why,
                           size_t why_size)
{
  if (hpd_restore_armed()) {
    snprintf(why, why_size, "frequency control is already armed");
    return HPD_STATUS_UNAVAILABLE;
  }
  /* Left open where an earlier plan ran from exit, finalize or a signal. */
  close_all();
  if (hpd_restore_begin() != HPD_OK) {
    snprintf(why, why_size, "the restore plan cannot be started");
    return HPD_STATUS_UNAVAILABLE;
  }
  snprintf(root_path, sizeof root_path, "%s", root);
  for (int i = 0; i < rank->count; i++) {
    hpd_domain *d = &domains[i];
    d->cpu = rank->cpu[i];
    d->fd_governor = d->fd_min = d->fd_max = d->fd_setspeed = -1;
    domain_count = i + 1;
    if (save_domain(d, why, why_size) != HPD_OK) {
      close_all();
      return HPD_STATUS_UNAVAILABLE;
    }
  }
  if (hpd_restore_arm(why, why_size) != HPD_OK) {
    close_all();
    return HPD_STATUS_UNAVAILABLE;
  }
  return HPD_OK;
}

int hpd_domain_pin(hpd_domain *d, unsigned khz,
                   int (*write_limit)(hpd_domain *d, int is_max, unsigned khz))
{
  int err;
  if (khz <= d->pinned_max) {
    if ((err = write_limit(d, 0, khz)) != 0 || (err = write_limit(d, 1, khz)) != 0)
      return err;
  } else {
    if ((err = write_limit(d, 1, khz)) != 0)
      return err;
    d->pinned_max = khz;
    if ((err = write_limit(d, 0, khz)) != 0)
      return err;
  }
  d->pinned_max = khz;
  return 0;
}

void hpd_domains_restore(void)
{
  int saved_errno = errno;
  hpd_restore_run();
  close_all();
  errno = saved_errno;
}
