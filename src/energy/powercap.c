/*
 * The powercap meter: the kernel's RAPL zones under HPD_POWERCAP_ROOT.  Top-level zones
 * are "<control type>:N" (intel-rapl:0, also on AMD, whose packages the same driver
 * exposes); those whose name starts with "package" are counted, with their "dram"
 * sub-zone ("<zone>:M") where there is one.  psys, core and uncore zones overlap the
 * packages and are left out.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "energy/meter.h"
#include "energy/wrap.h"

#define MAX_ZONES 64
#define MAX_NAME 64
/* Where a zone states no maximum power: more than any server package or its DRAM has
 * drawn, so that the wrap check errs on the side of warning. */
#define DEFAULT_MAX_WATTS 500.0

typedef struct zone {
  char energy_path[HPD_PATH_MAX];
  char name[MAX_NAME];
  int dram;
  hpd_wrap_counter counter;
} zone;

static zone zones[MAX_ZONES];
static int zone_count;
static int warned_wrap;

/* Reads a small sysfs file into buf without its trailing newline.  0, or an errno value
 * (a read(2) error included: EACCES for an energy_uj only root may read, EISDIR...). */
static int read_text(const char *path, char *buf, size_t size)
{
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return errno;
  ssize_t n = read(fd, buf, size - 1);
  int err = n < 0 ? errno : 0;
  close(fd);
  if (err)
    return err;
  buf[n] = '\0';
  while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
    buf[--n] = '\0';
  return 0;
}

/* 0, an errno value, or EINVAL for text that is not a whole decimal number. */
static int read_u64(const char *path, uint64_t *out)
{
  char buf[64];
  int err = read_text(path, buf, sizeof buf);
  if (err)
    return err;
  if (buf[0] < '0' || buf[0] > '9')
    return EINVAL;
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(buf, &end, 10);
  if (errno || *end != '\0')
    return EINVAL;
  *out = v;
  return 0;
}

/* dir/name into out (HPD_PATH_MAX bytes); ENAMETOOLONG when it does not fit. */
static int join(char *out, const char *dir, const char *name)
{
  int n = snprintf(out, HPD_PATH_MAX, "%s/%s", dir, name);
  return n < 0 || n >= HPD_PATH_MAX ? ENAMETOOLONG : 0;
}

static hpd_status fail(char *why, size_t why_size, const char *path, int err)
{
  snprintf(why, why_size, "powercap: cannot read %s: %s", path,
           err == EINVAL ? "not a whole number" : strerror(err));
  zone_count = 0;
  return HPD_STATUS_UNAVAILABLE;
}

/* "<prefix>:<digits>" with nothing after: a zone directly under its parent. */
static int is_child(const char *entry, const char *prefix, size_t prefix_len)
{
  if (strncmp(entry, prefix, prefix_len) != 0 || entry[prefix_len] != ':')
    return 0;
  const char *d = entry + prefix_len + 1;
  if (*d == '\0')
    return 0;
  for (; *d; d++)
    if (*d < '0' || *d > '9')
      return 0;
  return 1;
}

/* A top-level zone: "<control type>:N", the control type holding no colon. */
static int is_top_zone(const char *entry)
{
  const char *colon = strchr(entry, ':');
  return colon && colon != entry && is_child(entry, entry, (size_t)(colon - entry));
}

/* The largest power the zone's limits may be set to, in W; the package's average power
 * cannot exceed its enforced limit, which is at most this.  0 when none is stated. */
static double zone_max_watts(const char *dir)
{
  double watts = 0;
  for (int c = 0; c < 8; c++) {
    char file[64], path[HPD_PATH_MAX];
    uint64_t uw = 0;
    snprintf(file, sizeof file, "constraint_%d_max_power_uw", c);
    if (join(path, dir, file) != 0 || read_u64(path, &uw) != 0)
      continue;
    if ((double)uw * 1e-6 > watts)
      watts = (double)uw * 1e-6;
  }
  return watts;
}

/* Adds the zone in dir: its first energy reading, range and power bound. */
static hpd_status add_zone(const char *dir, const char *name, int dram, double now_s,
                           char *why, size_t why_size)
{
  if (zone_count == MAX_ZONES) {
    snprintf(why, why_size, "powercap: more than %d energy zones", MAX_ZONES);
    zone_count = 0;
    return HPD_STATUS_UNAVAILABLE;
  }
  zone *z = &zones[zone_count];
  char path[HPD_PATH_MAX];
  uint64_t range = 0, first = 0;
  int err;
  if ((err = join(path, dir, "max_energy_range_uj")) != 0 ||
      (err = read_u64(path, &range)) != 0)
    return fail(why, why_size, path, err);
  if (range == 0)
    return fail(why, why_size, path, EINVAL);
  if ((err = join(z->energy_path, dir, "energy_uj")) != 0 ||
      (err = read_u64(z->energy_path, &first)) != 0)
    return fail(why, why_size, z->energy_path, err);
  double watts = zone_max_watts(dir);
  if (watts <= 0)
    watts = DEFAULT_MAX_WATTS;
  hpd_wrap_init(&z->counter, range, watts * 1e6, first, now_s);
  snprintf(z->name, sizeof z->name, "%s", name);
  z->dram = dram;
  zone_count++;
  return HPD_OK;
}

/* The DRAM sub-zone of the package zone entry, into out: nested in the package's
 * directory, as sysfs shows it, else beside it (sysfs lists every zone at the top too).
 * 0 when there is none. */
static int find_dram(const char *root, const char *entry, char *out)
{
  char nested[HPD_PATH_MAX];
  const char *parents[2] = {join(nested, root, entry) == 0 ? nested : NULL, root};
  size_t len = strlen(entry);
  for (int p = 0; p < 2; p++) {
    DIR *d = parents[p] ? opendir(parents[p]) : NULL;
    if (!d)
      continue;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      char path[HPD_PATH_MAX], name[MAX_NAME];
      if (is_child(e->d_name, entry, len) && join(out, parents[p], e->d_name) == 0 &&
          join(path, out, "name") == 0 && read_text(path, name, sizeof name) == 0 &&
          strcmp(name, "dram") == 0) {
        closedir(d);
        return 1;
      }
    }
    closedir(d);
  }
  return 0;
}

/* intel-rapl's zones before any other control type's (intel-rapl-mmio repeats a package
 * through another interface), then by name, then by number. */
static int zone_order(const void *pa, const void *pb)
{
  const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
  int ra = strncmp(a, "intel-rapl:", 11) != 0, rb = strncmp(b, "intel-rapl:", 11) != 0;
  if (ra != rb)
    return ra - rb;
  size_t la = (size_t)(strchr(a, ':') - a), lb = (size_t)(strchr(b, ':') - b);
  int c = strncmp(a, b, la < lb ? la : lb);
  if (c || la != lb)
    return c ? c : (la < lb ? -1 : 1);
  unsigned long na = strtoul(a + la + 1, NULL, 10), nb = strtoul(b + lb + 1, NULL, 10);
  return (na > nb) - (na < nb);
}

static int already_counted(const char *name)
{
  for (int i = 0; i < zone_count; i++)
    if (!zones[i].dram && strcmp(zones[i].name, name) == 0)
      return 1;
  return 0;
}

static hpd_status scan(const char *root, char **entries, int count, char *why,
                       size_t why_size)
{
  double now_s = hpd_now();
  int packages = 0;
  for (int i = 0; i < count; i++) {
    char dir[HPD_PATH_MAX], path[HPD_PATH_MAX], name[MAX_NAME];
    if (join(dir, root, entries[i]) != 0 || join(path, dir, "name") != 0 ||
        read_text(path, name, sizeof name) != 0 || strncmp(name, "package", 7) != 0 ||
        already_counted(name))
      continue;
    if (add_zone(dir, name, 0, now_s, why, why_size) != HPD_OK)
      return HPD_STATUS_UNAVAILABLE;
    packages++;
    char dram[HPD_PATH_MAX];
    if (find_dram(root, entries[i], dram) &&
        add_zone(dram, "dram", 1, now_s, why, why_size) != HPD_OK)
      return HPD_STATUS_UNAVAILABLE;
  }
  if (packages == 0) {
    snprintf(why, why_size, "powercap: no package zone under %s", root);
    return HPD_STATUS_UNAVAILABLE;
  }
  return HPD_OK;
}

static hpd_status powercap_open(const hpd_settings *cfg, char *why, size_t why_size)
{
  const char *root = cfg->powercap_root;
  zone_count = 0;
  warned_wrap = 0;
  DIR *d = opendir(root);
  if (!d) {
    snprintf(why, why_size, "powercap: cannot open %s: %s", root, strerror(errno));
    return HPD_STATUS_UNAVAILABLE;
  }
  char *entries[MAX_ZONES];
  int count = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && count < MAX_ZONES)
    if (is_top_zone(e->d_name) && (entries[count] = strdup(e->d_name)) != NULL)
      count++;
  closedir(d);
  qsort(entries, (size_t)count, sizeof entries[0], zone_order);
  int rc = scan(root, entries, count, why, why_size);
  for (int i = 0; i < count; i++)
    free(entries[i]);
  if (rc != 0)
    zone_count = 0;
  return rc;
}

static hpd_status powercap_read(hpd_meter_reading *out)
{
  if (zone_count == 0) /* not open: an open meter has a package */
    return HPD_STATUS_UNAVAILABLE;
  uint64_t now[MAX_ZONES];
  /* Every zone first, so that a failure leaves every total as it was. */
  for (int i = 0; i < zone_count; i++)
    if (read_u64(zones[i].energy_path, &now[i]) != 0)
      return HPD_STATUS_UNAVAILABLE;
  double now_s = hpd_now();
  uint64_t package_uj = 0, dram_uj = 0;
  for (int i = 0; i < zone_count; i++) {
    zone *z = &zones[i];
    double gap = now_s - z->counter.last_s;
    if (hpd_wrap_advance(&z->counter, now[i], now_s) && !warned_wrap) {
      warned_wrap = 1;
      hpd_warn("powercap: %.3g s between two readings of %s, whose counter wraps every "
               "%.3g J: at up to %.3g W it may have wrapped more than once, and energy "
               "be undercounted", gap, z->energy_path,
               ((double)z->counter.range + 1) * 1e-6, z->counter.max_rate * 1e-6);
    }
    if (z->dram)
      dram_uj += z->counter.total;
    else
      package_uj += z->counter.total;
  }
  /* Totals in whole microjoules, converted once: exact where the joules are. */
  out->package_j = (double)package_uj / 1e6;
  out->dram_j = (double)dram_uj / 1e6;
  return HPD_OK;
}

static void powercap_close(void)
{
  zone_count = 0;
}

const hpd_meter hpd_meter_powercap = {HPD_ENERGY_POWERCAP, HPD_SOURCE_MEASURED, powercap_open,
                                      powercap_read, powercap_close};
