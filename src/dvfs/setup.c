/* Choosing the backend: what HPD_DVFS allows, what probes, what the frequencies and the
 * node's other ranks permit, and what arms. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/node.h"
#include "dvfs/state.h"

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One line per backend tried, kept for the report. */
static void note(const char *fmt, ...)
{
  char *why = hpd_dvfs.info.why;
  size_t used = strlen(why);
  if (used + 3 >= sizeof hpd_dvfs.info.why)
    return;
  if (used)
    used += (size_t)snprintf(why + used, sizeof hpd_dvfs.info.why - used, "; ");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why + used, sizeof hpd_dvfs.info.why - used, fmt, ap);
  va_end(ap);
}

static int candidates(hpd_dvfs_kind kind, const hpd_dvfs_backend **list)
{
  switch (kind) {
  case HPD_DVFS_AUTO:
    list[0] = &hpd_dvfs_backend_cpupower;
    list[1] = &hpd_dvfs_backend_sysfs;
    list[2] = &hpd_dvfs_backend_sim;
    return 3;
  case HPD_DVFS_CPUPOWER:
    list[0] = &hpd_dvfs_backend_cpupower;
    return 1;
  case HPD_DVFS_SYSFS:
    list[0] = &hpd_dvfs_backend_sysfs;
    return 1;
  case HPD_DVFS_SIM:
    list[0] = &hpd_dvfs_backend_sim;
    return 1;
  default:
    return 0;
  }
}

static void available_text(const hpd_dvfs_probe *p, char *text, size_t size)
{
  size_t used = 0;
  text[0] = '\0';
  if (p->available_count == 0) {
    snprintf(text, size, "from %u to %u kHz", p->min_khz, p->max_khz);
    return;
  }
  for (int i = 0; i < p->available_count && used < size; i++)
    used += (size_t)snprintf(text + used, size - used, "%s%u", i ? " " : "",
                             p->available_khz[i]);
  if (used < size)
    snprintf(text + used, size - used, " kHz");
}

static int available(const hpd_dvfs_probe *p, unsigned khz)
{
  if (p->available_count == 0)
    return khz >= p->min_khz && khz <= p->max_khz;
  for (int i = 0; i < p->available_count; i++)
    if (p->available_khz[i] == khz)
      return 1;
  return 0;
}

/* Low and high from the configuration, or the extremes; HPD_OK, or a failure after the
 * error. */
static hpd_status pick_frequencies(const hpd_settings *cfg, const hpd_dvfs_probe *p,
                                   const char *backend)
{
  unsigned lowest = p->available_count ? p->available_khz[0] : p->min_khz;
  unsigned highest = p->available_count ? p->available_khz[p->available_count - 1]
                                        : p->max_khz;
  unsigned low = cfg->freq_low_khz ? cfg->freq_low_khz : lowest;
  unsigned high = cfg->freq_high_khz ? cfg->freq_high_khz : highest;
  char list[512];
  available_text(p, list, sizeof list);
  const struct { const char *name; unsigned khz; } asked[] = {{"HPD_FREQ_LOW", low},
                                                              {"HPD_FREQ_HIGH", high}};
  for (int i = 0; i < 2; i++) {
    if (!available(p, asked[i].khz)) {
      hpd_warn("DVFS: %s=%u kHz is not available through %s; available: %s. Frequency "
               "scaling is off",
               asked[i].name, asked[i].khz, backend, list);
      note("%s: %s=%u kHz is not available (available: %s)", backend, asked[i].name,
           asked[i].khz, list);
      return HPD_STATUS_UNAVAILABLE;
    }
  }
  if (low > high) {
    hpd_warn("DVFS: HPD_FREQ_LOW (%u kHz) is above HPD_FREQ_HIGH (%u kHz). Frequency "
             "scaling is off",
             low, high);
    note("%s: HPD_FREQ_LOW is above HPD_FREQ_HIGH", backend);
    return HPD_STATUS_UNAVAILABLE;
  }
  hpd_dvfs.info.low_khz = low;
  hpd_dvfs.info.high_khz = high;
  return HPD_OK;
}

/* 1 if another rank of this node switches one of this rank's domains.  Collective over
 * comm; the simpler rule of the two the design allows: a shared domain is not switched
 * at all, rather than switched by one rank once all of its ranks are communicating.
 * Every rank's domains are gathered over comm, nodes from host names (core/node.h), so
 * that no collective blocks inside MPI. */
static int domain_shared(MPI_Comm comm, const hpd_dvfs_probe *p, int *unbound_anywhere,
                         hpd_wait_fn wait)
{
  int size = 0, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  int mine = p ? p->domains : 0;
  int *first = malloc((size_t)size * sizeof *first);
  int *counts = malloc((size_t)size * sizeof *counts);
  int *offsets = malloc((size_t)size * sizeof *offsets);
  double *domains = malloc((size_t)size * sizeof *domains);
  if (!first || !counts || !offsets || !domains)
    abort(); /* the other ranks are about to wait for this one in the gathers */
  /* Where the nodes cannot be told, every domain counts as shared: nothing is switched. */
  int shared = hpd_node_map(comm, 0, mine, domains, first, wait) == 0;
  int *ids = NULL;
  if (!shared) {
    int total = 0;
    for (int r = 0; r < size; r++) {
      counts[r] = (int)domains[r];
      offsets[r] = total;
      total += counts[r];
    }
    if (!(ids = calloc((size_t)total + 1, sizeof *ids)))
      abort();
    shared = hpd_allgatherv_waited(p ? p->domain_id : NULL, mine, MPI_INT, ids, counts,
                                   offsets, comm, wait) != MPI_SUCCESS;
    for (int r = 0; r < size && !shared; r++)
      for (int j = 0; r != rank && first[r] == first[rank] && j < counts[r] && !shared; j++)
        for (int i = 0; i < mine && !shared; i++)
          shared = p->domain_id[i] == ids[offsets[r] + j];
  }
  shared = shared && mine > 0;
  free(ids);
  free(domains);
  free(offsets);
  free(counts);
  free(first);
  int flags[2] = {shared, shared && p && !p->bound}, any[2];
  hpd_allreduce_waited(flags, any, 2, MPI_INT, MPI_MAX, comm, wait);
  *unbound_anywhere = any[1];
  return shared + 2 * any[0];
}

static void record_probe(const hpd_dvfs_probe *p)
{
  hpd_dvfs_info *info = &hpd_dvfs.info;
  info->available_count = p->available_count;
  memcpy(info->available_khz, p->available_khz, sizeof info->available_khz);
  info->min_khz = p->min_khz;
  info->max_khz = p->max_khz;
  info->latency_ns = p->latency_ns;
  info->domains = p->domains;
  snprintf(info->driver, sizeof info->driver, "%s", p->driver);
  snprintf(info->governor, sizeof info->governor, "%s", p->governor);
}

/* A probe that failed because the files exist but may not be written: the site has
 * DVFS but not for this user, which deserves a warning even under auto. */
static int refused(const char *why)
{
  const int errors[] = {EACCES, EPERM, EROFS};
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
    if (strstr(why, strerror(errors[i])))
      return 1;
  return 0;
}

/* Probes the candidates in order; the first that probes with usable frequencies. */
static const hpd_dvfs_backend *first_probing(const hpd_settings *cfg,
                                             const hpd_dvfs_backend *const *list, int n,
                                             hpd_dvfs_probe *p)
{
  for (int i = 0; i < n; i++) {
    char why[HPD_PATH_MAX + 256] = "";
    const char *name = hpd_dvfs_name(list[i]->kind);
    if (list[i]->probe(cfg, p, why, sizeof why) != 0) {
      note("%s", why[0] ? why : name);
      if (refused(why) || cfg->dvfs == list[i]->kind)
        hpd_warn("DVFS: %s; %s", why[0] ? why : name,
                 n > i + 1 ? "trying the next backend" : "frequency scaling is off");
      continue;
    }
    if (pick_frequencies(cfg, p, name) != HPD_OK)
      return NULL;
    return list[i];
  }
  return NULL;
}

void hpd_dvfs_choose(const hpd_settings *cfg, MPI_Comm comm, hpd_wait_fn wait)
{
  memset(&hpd_dvfs.info, 0, sizeof hpd_dvfs.info);
  hpd_dvfs.info.backend = HPD_DVFS_NONE;
  hpd_dvfs.backend = NULL;
  const hpd_dvfs_backend *list[3] = {NULL, NULL, NULL};
  int n = candidates(cfg->dvfs, list);
  if (n == 0)
    note("none: HPD_DVFS=none");
  if (comm == MPI_COMM_NULL && n > 0 && list[n - 1]->kind != HPD_DVFS_SIM) {
    /* Set up alone: another rank of the node may own the same domain. */
    note("%s: not used by a rank set up outside a whole grid (no node check)",
         hpd_dvfs_name(cfg->dvfs));
    n = 0;
  } else if (comm == MPI_COMM_NULL && n == 3) {
    note("cpupower, sysfs: not used by a rank set up outside a whole grid (no node check)");
    list[0] = list[2];
    n = 1;
  }
  hpd_dvfs_probe probe;
  const hpd_dvfs_backend *chosen = first_probing(cfg, list, n, &probe);

  if (comm != MPI_COMM_NULL) {
    int unbound = 0;
    int shared = domain_shared(comm, chosen ? &probe : NULL, &unbound, wait);
    if (shared >= 2)
      hpd_warn("DVFS: %s; frequency scaling is off for the ranks concerned",
               unbound ? "ranks not bound to their CPUs share the frequency domains of their "
                         "node (bind each rank, e.g. mpiexec -bind-to core)"
                       : "ranks on one node share a frequency domain");
    if (shared & 1) {
      note("%s: a frequency domain is shared with another rank of the node",
           hpd_dvfs_name(chosen->kind));
      chosen = NULL;
    }
  }

  if (chosen) {
    char why[HPD_PATH_MAX + 256] = "";
    if (chosen->arm(cfg, why, sizeof why) != 0) {
      note("%s", why[0] ? why : "arming failed");
      chosen = NULL;
      /* auto still has the simulation to fall back on. */
      if (cfg->dvfs == HPD_DVFS_AUTO)
        chosen = first_probing(cfg, &list[2], 1, &probe);
      if (chosen && chosen->arm(cfg, why, sizeof why) != 0)
        chosen = NULL;
    }
  }
  if (!chosen) {
    /* No frequency is set, whatever the probe offered: the phases alone are counted. */
    hpd_dvfs.info.low_khz = hpd_dvfs.info.high_khz = 0;
    note("none: switches are counted, not applied");
    return;
  }
  record_probe(&probe);
  hpd_dvfs.backend = chosen;
  hpd_dvfs.info.backend = chosen->kind;
  hpd_dvfs.info.applied = 1;
  note("%s: in use", hpd_dvfs_name(chosen->kind));
}
