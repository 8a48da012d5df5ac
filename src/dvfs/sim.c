#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "backend.h"
#include "clock.h"
#include "log.h"

/* The paper's cluster: what sim pretends to have where the hardware offers nothing. */
static const unsigned sim_khz[] = {800000, 1300000, 1800000, 2500000};

/* A bound on the record: 2^20 switches is hours of basic strategy; past it the count
 * goes on but the record stops growing. */
#define SIM_RECORD_MAX ((size_t)1 << 20)

static struct {
  double latency_s;
  hpd_switch_record *records;
  size_t count, capacity;
} sim;

static int sim_probe(const hpd_config *cfg, hpd_dvfs_probe *out, char *why, size_t why_size)
{
  (void)why, (void)why_size;
  memset(out, 0, sizeof *out);
  out->available_count = (int)(sizeof sim_khz / sizeof sim_khz[0]);
  memcpy(out->available_khz, sim_khz, sizeof sim_khz);
  out->min_khz = sim_khz[0];
  out->max_khz = sim_khz[out->available_count - 1];
  out->latency_ns = (unsigned)(cfg->sim_switch_us * 1e3);
  strcpy(out->driver, "sim");
  strcpy(out->governor, "sim");
  out->domains = 0; /* nothing real is switched, so nothing is shared */
  out->bound = 1;
  return 0;
}

static int sim_arm(const hpd_config *cfg, char *why, size_t why_size)
{
  (void)why, (void)why_size;
  sim.latency_s = cfg->sim_switch_us * 1e-6;
  sim.count = 0;
  return 0;
}

static void emulate_latency(void)
{
  if (sim.latency_s <= 0)
    return;
  double until = hpd_now() + sim.latency_s;
  while (hpd_now() < until)
    ;
}

/* A transition keeps the core busy at the old frequency, so the latency is spun, then the
 * switch is recorded. */
static int sim_set(unsigned khz, hpd_phase phase)
{
  emulate_latency();
  if (sim.count == sim.capacity && sim.capacity < SIM_RECORD_MAX) {
    size_t grown = sim.capacity ? 2 * sim.capacity : 1024;
    hpd_switch_record *more = realloc(sim.records, grown * sizeof *more);
    if (more) {
      sim.records = more;
      sim.capacity = grown;
    }
  }
  if (sim.count < sim.capacity)
    sim.records[sim.count++] = (hpd_switch_record){hpd_now(), khz, phase};
  return 0;
}

static void sim_restore(void)
{
}

size_t hpd_dvfs_trace_sized(const hpd_switch_record **records, size_t size)
{
  /* A null records only asks for the count. */
  if (records && hpd_abi_check("hpd_dvfs_trace", records, size, sizeof *sim.records))
    return 0;
  if (records)
    *records = sim.records;
  return sim.count;
}

const hpd_dvfs_backend hpd_dvfs_backend_sim = {HPD_DVFS_SIM, sim_probe, sim_arm, sim_set,
                                               sim_restore};
