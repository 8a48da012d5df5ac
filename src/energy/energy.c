#include "energy/energy.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/abi.h"
#include "core/config.h"
#include "core/log.h"
#include "core/node.h"
#include "energy/meter.h"
#include "energy/model.h"

static struct {
  int ready;
  hpd_energy_info info;
  const hpd_meter *meter; /* open on the reader when measured */
  hpd_power_model model;
  hpd_meter_reading base;
} energy;

static const char *const source_names[] = {"none", "modeled", "measured", "simulated"};

const char *hpd_energy_source_name(int source)
{
  return source >= 0 && source <= HPD_SOURCE_SIMULATED ? source_names[source] : "unknown";
}

/* A root with zones in it means a meter exists but could not be read: worth a warning.
 * No root at all is a machine without meters, which the report's "modeled" says enough
 * about. */
static int powercap_present(const char *root)
{
  DIR *dir = opendir(root);
  if (!dir)
    return 0;
  int entries = 0;
  for (struct dirent *e; (e = readdir(dir)) != NULL;)
    entries += e->d_name[0] != '.';
  closedir(dir);
  return entries > 0;
}

static void load_model(const hpd_settings *cfg)
{
  hpd_power_model_builtin(&energy.model);
  if (cfg->power_model[0]) {
    char why[HPD_PATH_MAX + 256];
    if (hpd_power_model_load(cfg->power_model, &energy.model, why, sizeof why) != HPD_OK)
      hpd_warn("energy: %s; using the built-in model", why);
  }
  snprintf(energy.info.model, sizeof energy.info.model, "%s", energy.model.source);
}

/* Measured only where every node's reader opened a meter: a job half measured and half
 * modeled would add unlike figures.  The source of the figures: the meters', or modeled.
 * One gather over comm tells every rank whether all readers opened theirs and which kind
 * its own node's reader opened (first: core/node.h's map). */
static hpd_energy_source open_meters(const hpd_settings *cfg, MPI_Comm comm, const int *first,
                                     hpd_wait_fn wait)
{
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int opened = 1;
  if (first[rank] == rank) {
    energy.meter = hpd_meter_select(cfg, energy.info.why, sizeof energy.info.why);
    opened = energy.meter && energy.meter->read(&energy.base) == 0;
  }
  int mine[3] = {opened, energy.meter ? (int)energy.meter->kind : -1,
                 energy.meter ? (int)energy.meter->source : HPD_SOURCE_MODELED};
  int *all = calloc((size_t)size, sizeof mine);
  if (!all)
    abort(); /* the other ranks are about to wait for this one in the gather */
  /* Where the gather fails, no meter counts as opened: the model serves. */
  int everywhere = hpd_allgather_waited(mine, 3, MPI_INT, all, comm, wait) == MPI_SUCCESS;
  for (int r = 0; r < size; r++)
    everywhere &= all[3 * r];
  int kind = all[3 * first[rank] + 1], source = all[3 * first[rank] + 2];
  free(all);
  if (!everywhere && energy.meter) {
    energy.meter->close();
    energy.meter = NULL;
  }
  energy.info.meter = everywhere ? (hpd_energy_kind)kind : HPD_ENERGY_MODEL;
  return everywhere ? (hpd_energy_source)source : HPD_SOURCE_MODELED;
}

void hpd_energy_setup(MPI_Comm comm, unsigned khz, hpd_wait_fn wait)
{
  if (energy.ready)
    return;
  energy.ready = 1;
  const hpd_settings *cfg = hpd_config_get();
  memset(&energy.info, 0, sizeof energy.info);
  energy.info.meter = HPD_ENERGY_NONE;
  hpd_ledger_mark(HPD_PHASE_OTHER, khz);
  if (cfg->energy == HPD_ENERGY_NONE)
    return;
  load_model(cfg);
  int size = 0, rank = 0, *first = NULL;
  if (comm != MPI_COMM_NULL) {
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    if (!(first = malloc((size_t)size * sizeof *first)))
      abort(); /* the other ranks are about to wait for this one in the gather */
  }
  int nodes = first ? hpd_node_map(comm, 0, 0.0, NULL, first, wait) : 0;
  if (nodes == 0) {
    free(first);
    energy.info.source = HPD_SOURCE_MODELED;
    energy.info.meter = HPD_ENERGY_MODEL;
    return;
  }
  energy.info.reader = first[rank] == rank;
  energy.info.nodes = nodes;
  energy.info.source = cfg->energy != HPD_ENERGY_MODEL ? open_meters(cfg, comm, first, wait)
                                                       : HPD_SOURCE_MODELED;
  free(first);
  int measured = energy.info.source != HPD_SOURCE_MODELED;
  int asked = cfg->energy == HPD_ENERGY_POWERCAP || cfg->energy == HPD_ENERGY_PAPI;
  if (!measured && (asked || (cfg->energy == HPD_ENERGY_AUTO &&
                              powercap_present(cfg->powercap_root)))) {
    char line[HPD_DVFS_WHY_MAX];
    snprintf(line, sizeof line, "%s", energy.info.why);
    for (char *c = line; *c; c++)
      if (*c == '\n')
        *c = ';';
    hpd_warn_job("energy: no meter could be read on every node (%s); energy figures are modeled",
             line[0] ? line : "a node has no meter");
  }
}

int hpd_energy_ready(void)
{
  return energy.ready;
}

void hpd_energy_mark(hpd_phase phase, unsigned khz)
{
  if (energy.ready)
    hpd_ledger_mark(phase, khz);
}

hpd_energy_source hpd_energy_source_now(void)
{
  return energy.info.source;
}

double hpd_energy_joules(const hpd_energy_sample *delta)
{
  return energy.info.source >= HPD_SOURCE_MEASURED ? delta->measured_j : delta->modeled_j;
}

/* The job's model, or the built-in one before set-up or under HPD_ENERGY=none. */
static const hpd_power_model *job_model(void)
{
  static hpd_power_model builtin;
  if (energy.model.levels > 0)
    return &energy.model;
  if (builtin.levels == 0)
    hpd_power_model_builtin(&builtin);
  return &builtin;
}

double hpd_energy_break_even_s(unsigned low_khz, unsigned high_khz, double busy_share)
{
  return hpd_power_model_break_even_s(job_model(), low_khz, high_khz, busy_share);
}

double hpd_energy_predict_j(const hpd_phase_time *phases, int n, uint64_t switches)
{
  return hpd_power_model_joules(job_model(), phases, n, switches);
}

int hpd_get_energy_info_sized(hpd_energy_info *out, size_t size)
{
  int status = hpd_abi_check("hpd_get_energy_info", out, size, sizeof *out);
  if (status != HPD_SUCCESS)
    return status;
  *out = energy.info;
  return HPD_SUCCESS;
}

static double modeled_joules(hpd_ledger *l, uint64_t switches)
{
  /* An unknown frequency (no DVFS state) is the model's nominal, highest, one. */
  for (int i = 0; i < l->levels; i++)
    if (l->at[i].khz == 0)
      l->at[i].khz = energy.model.khz[energy.model.levels - 1];
  return hpd_power_model_joules(&energy.model, l->at, l->levels, switches);
}

/* The sample of the ledger's totals l. */
static void sample_of(hpd_ledger *l, hpd_energy_sample *out)
{
  for (int p = 0; p < HPD_LEDGER_PHASES; p++) {
    out->wall_s += l->wall_s[p];
    out->cpu_s += l->cpu_s[p];
  }
  out->broadcast_s = l->wall_s[HPD_PHASE_BROADCAST];
  out->multiply_s = l->wall_s[HPD_PHASE_MULTIPLY];
  hpd_dvfs_totals switched;
  hpd_get_dvfs_totals(&switched);
  out->switches = switched.switches;
  if (energy.info.source == HPD_SOURCE_NONE)
    return;
  out->modeled_j = modeled_joules(l, switched.switches);
  hpd_meter_reading r;
  if (energy.meter && energy.meter->read(&r) == 0)
    out->measured_j = (r.package_j + r.dram_j) - (energy.base.package_j + energy.base.dram_j);
}

/* The sample of the ledger as read, zero before set-up. */
static void take_sample(hpd_energy_sample *out, void (*read)(hpd_ledger *))
{
  memset(out, 0, sizeof *out);
  if (!energy.ready)
    return;
  hpd_ledger l;
  read(&l);
  sample_of(&l, out);
}

int hpd_get_energy_sample_sized(hpd_energy_sample *out, size_t size)
{
  int status = hpd_abi_check("hpd_get_energy_sample", out, size, sizeof *out);
  if (status != HPD_SUCCESS)
    return status;
  take_sample(out, hpd_ledger_read);
  return HPD_SUCCESS;
}

void hpd_energy_sample_at_mark(hpd_energy_sample *out)
{
  take_sample(out, hpd_ledger_read_at_mark);
}

int hpd_sum_energy_sample_sized(int comm, const hpd_energy_sample *mine,
                                hpd_energy_sample *sum, size_t size)
{
  int status = hpd_abi_check("hpd_sum_energy_sample", mine ? sum : NULL, size, sizeof *sum);
  if (status != HPD_SUCCESS)
    return status;
  MPI_Comm c = MPI_Comm_f2c(comm);
  double in[7] = {mine->cpu_s, mine->broadcast_s, mine->multiply_s, mine->modeled_j,
                  mine->measured_j, (double)mine->switches, mine->wall_s};
  double out[7];
  MPI_Allreduce(in, out, 6, MPI_DOUBLE, MPI_SUM, c);
  MPI_Allreduce(&in[6], &out[6], 1, MPI_DOUBLE, MPI_MAX, c);
  *sum = (hpd_energy_sample){.wall_s = out[6], .cpu_s = out[0], .broadcast_s = out[1],
                             .multiply_s = out[2], .modeled_j = out[3],
                             .measured_j = out[4], .switches = (uint64_t)out[5]};
  return HPD_SUCCESS;
}
