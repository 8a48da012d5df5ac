#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HPD_SIMULATED
#include <simgrid/host.h>
#include <smpi/smpi.h>
#endif

#include "core/abi.h"
#include "core/clock.h"
#include "core/log.h"
#include "dvfs/backend.h"

#ifndef HPD_SIMULATED
/* The paper's cluster: what sim pretends to have where the hardware offers nothing. */
static const unsigned sim_khz[] = {800000, 1300000, 1800000, 2500000};
#endif

/* A bound on the record: 2^20 switches is hours of basic strategy; past it the count
 * goes on but the record stops growing. */
#define SIM_RECORD_MAX ((size_t)1 << 20)

static struct {
  double latency_s;
  hpd_switch_record *records;
  size_t count, capacity;
  /* The simulated build: the frequency of each of the simulated core's P-states, in the
   * simulator's order (fastest first), and the P-state it had when armed. */
  unsigned pstate_khz[HPD_DVFS_MAX_FREQS];
  int pstates;
  unsigned long armed_pstate;
} sim;

#ifdef HPD_SIMULATED
/* The simulated core's frequencies, from the host property that simulated/platform.py
 * writes (kHz, fastest first, one per P-state): HPD_OK, or a failure with one line in why.
 */
static hpd_status read_pstates(char *why, size_t why_size)
{
  const char *list = sg_host_get_property_value(sg_host_self(), "frequencies_khz");
  sim.pstates = 0;
  for (const char *at = list; at && *at && sim.pstates < HPD_DVFS_MAX_FREQS;) {
    char *end;
    unsigned long khz = strtoul(at, &end, 10);
    if (end == at || khz == 0)
      break;
    sim.pstate_khz[sim.pstates++] = (unsigned)khz;
    at = *end == ',' ? end + 1 : end;
  }
  if (sim.pstates == 0 || sim.pstates != (int)sg_host_get_nb_pstates(sg_host_self())) {
    snprintf(why, why_size, "sim: the simulated host %s lists no frequency per P-state "
                            "(a platform of simulated/platform.py does)",
             sg_host_get_name(sg_host_self()));
    return HPD_STATUS_UNAVAILABLE;
  }
  return HPD_OK;
}
#endif

static hpd_status sim_probe(const hpd_settings *cfg, hpd_dvfs_probe *out, char *why,
                            size_t why_size)
{
  (void)why, (void)why_size;
  memset(out, 0, sizeof *out);
#ifdef HPD_SIMULATED
  /* The simulated core's own P-states, ascending as the probe lists them. */
  if (read_pstates(why, why_size) != HPD_OK)
    return HPD_STATUS_UNAVAILABLE;
  out->available_count = sim.pstates;
  for (int i = 0; i < sim.pstates; i++)
    out->available_khz[i] = sim.pstate_khz[sim.pstates - 1 - i];
#else
  out->available_count = (int)(sizeof sim_khz / sizeof sim_khz[0]);
  memcpy(out->available_khz, sim_khz, sizeof sim_khz);
#endif
  out->min_khz = out->available_khz[0];
  out->max_khz = out->available_khz[out->available_count - 1];
  out->latency_ns = (unsigned)(cfg->sim_switch_us * 1e3);
  strcpy(out->driver, "sim");
  strcpy(out->governor, "sim");
  out->domains = 0; /* nothing real is switched, so nothing is shared */
  out->bound = 1;
  return HPD_OK;
}

static int sim_arm(const hpd_settings *cfg, char *why, size_t why_size)
{
  (void)why, (void)why_size;
  sim.latency_s = cfg->sim_switch_us * 1e-6;
  sim.count = 0;
#ifdef HPD_SIMULATED
  sim.armed_pstate = sg_host_get_pstate(sg_host_self());
#endif
  return 0;
}

static void emulate_latency(void)
{
  if (sim.latency_s <= 0)
    return;
#ifdef HPD_SIMULATED
  /* Simulated time passes in the simulator's calls only: the transition is a stretch of
   * busy simulated time, at the old P-state's power. */
  smpi_execute(sim.latency_s);
  return;
#endif
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
#ifdef HPD_SIMULATED
  /* The P-state of the highest frequency not above khz (the slowest where none is). */
  int pstate = sim.pstates - 1;
  for (int i = sim.pstates - 1; i >= 0; i--)
    if (sim.pstate_khz[i] <= khz)
      pstate = i;
  sg_host_set_pstate(sg_host_self(), (unsigned long)pstate);
#endif
  return 0;
}

static void sim_restore(void)
{
#ifdef HPD_SIMULATED
  if (sim.pstates > 0)
    sg_host_set_pstate(sg_host_self(), sim.armed_pstate);
#endif
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
