/*
 * The C side of the Fortran module's test: how the C compiler lays out the structs the
 * module mirrors, a hpd_stats filled with a known pattern, and the configuration as C
 * code reads it, so that fortran_module.f90 can compare what it sees with each.
 */
#include <stddef.h>
#include <string.h>

#include "hpdaemon.h"

#define OFFSETS(type, ...) {sizeof(type), __VA_ARGS__}
#define AT(type, field) offsetof(type, field)

/* In the order of the Fortran test's structs; entry 0 is the size, then every field's
 * offset in declaration order. */
static const size_t stats_layout[] = OFFSETS(hpd_stats, AT(hpd_stats, routine));
static const size_t routine_stats_layout[] = OFFSETS(
    hpd_routine_stats, AT(hpd_routine_stats, calls), AT(hpd_routine_stats, engine_calls),
    AT(hpd_routine_stats, fallback_calls), AT(hpd_routine_stats, rejected_calls),
    AT(hpd_routine_stats, fallback_by_reason), AT(hpd_routine_stats, time_total),
    AT(hpd_routine_stats, time_min), AT(hpd_routine_stats, time_max),
    AT(hpd_routine_stats, ngrp_last), AT(hpd_routine_stats, panels_last),
    AT(hpd_routine_stats, extra_bytes_model_max), AT(hpd_routine_stats, extra_bytes_observed_max),
    AT(hpd_routine_stats, bcast_count), AT(hpd_routine_stats, bcast_bytes),
    AT(hpd_routine_stats, bcast_wall_s), AT(hpd_routine_stats, bcast_cpu_s),
    AT(hpd_routine_stats, bcast_chunk_last), AT(hpd_routine_stats, dvfs_switches),
    AT(hpd_routine_stats, dvfs_skipped), AT(hpd_routine_stats, dvfs_switch_s),
    AT(hpd_routine_stats, steps_total), AT(hpd_routine_stats, steps_last),
    AT(hpd_routine_stats, strategy_last), AT(hpd_routine_stats, switches_last),
    AT(hpd_routine_stats, broadcast_phase_s), AT(hpd_routine_stats, multiply_phase_s),
    AT(hpd_routine_stats, cpu_s), AT(hpd_routine_stats, energy_modeled_j),
    AT(hpd_routine_stats, energy_measured_j), AT(hpd_routine_stats, energy_last_j),
    AT(hpd_routine_stats, energy_source), AT(hpd_routine_stats, peak_rss_bytes),
    AT(hpd_routine_stats, dvfs_held), AT(hpd_routine_stats, direct_calls),
    AT(hpd_routine_stats, direct_local_calls), AT(hpd_routine_stats, auto_calls),
    AT(hpd_routine_stats, auto_overlap_calls), AT(hpd_routine_stats, auto_learning_calls),
    AT(hpd_routine_stats, auto_predicted_s), AT(hpd_routine_stats, auto_observed_s),
    AT(hpd_routine_stats, auto_predicted_j), AT(hpd_routine_stats, auto_observed_j),
    AT(hpd_routine_stats, auto_last_s), AT(hpd_routine_stats, auto_last_j),
    AT(hpd_routine_stats, auto_last_broadcast_s), AT(hpd_routine_stats, auto_last_multiply_s),
    AT(hpd_routine_stats, auto_last_reason));
static const size_t config_layout[] = OFFSETS(
    hpd_config, AT(hpd_config, mem_threshold), AT(hpd_config, report),
    AT(hpd_config, report_path), AT(hpd_config, disable), AT(hpd_config, ngrp),
    AT(hpd_config, kb), AT(hpd_config, bcast), AT(hpd_config, chunk), AT(hpd_config, wait),
    AT(hpd_config, tune_file), AT(hpd_config, dvfs), AT(hpd_config, strategy),
    AT(hpd_config, freq_low_khz), AT(hpd_config, freq_high_khz), AT(hpd_config, sysfs_root),
    AT(hpd_config, sim_switch_us), AT(hpd_config, energy), AT(hpd_config, powercap_root),
    AT(hpd_config, power_model), AT(hpd_config, switch_min_ms),
    AT(hpd_config, dispatch), AT(hpd_config, max_slowdown), AT(hpd_config, calibration));
static const size_t dvfs_info_layout[] = OFFSETS(
    hpd_dvfs_info, AT(hpd_dvfs_info, backend), AT(hpd_dvfs_info, applied),
    AT(hpd_dvfs_info, low_khz), AT(hpd_dvfs_info, high_khz), AT(hpd_dvfs_info, available_khz),
    AT(hpd_dvfs_info, available_count), AT(hpd_dvfs_info, min_khz), AT(hpd_dvfs_info, max_khz),
    AT(hpd_dvfs_info, latency_ns), AT(hpd_dvfs_info, domains), AT(hpd_dvfs_info, driver),
    AT(hpd_dvfs_info, governor), AT(hpd_dvfs_info, why));
static const size_t dvfs_totals_layout[] = OFFSETS(
    hpd_dvfs_totals, AT(hpd_dvfs_totals, switches), AT(hpd_dvfs_totals, skipped),
    AT(hpd_dvfs_totals, switch_s), AT(hpd_dvfs_totals, held));
static const size_t energy_info_layout[] = OFFSETS(
    hpd_energy_info, AT(hpd_energy_info, source), AT(hpd_energy_info, meter),
    AT(hpd_energy_info, reader), AT(hpd_energy_info, nodes), AT(hpd_energy_info, model),
    AT(hpd_energy_info, why));
static const size_t energy_sample_layout[] = OFFSETS(
    hpd_energy_sample, AT(hpd_energy_sample, wall_s), AT(hpd_energy_sample, cpu_s),
    AT(hpd_energy_sample, broadcast_s), AT(hpd_energy_sample, multiply_s),
    AT(hpd_energy_sample, modeled_j), AT(hpd_energy_sample, measured_j),
    AT(hpd_energy_sample, switches));

#define LAYOUT(table) {table, sizeof table / sizeof table[0]}
static const struct {
  const size_t *entries;
  size_t count;
} layouts[] = {LAYOUT(stats_layout),     LAYOUT(routine_stats_layout),
               LAYOUT(config_layout),    LAYOUT(dvfs_info_layout),
               LAYOUT(dvfs_totals_layout), LAYOUT(energy_info_layout),
               LAYOUT(energy_sample_layout)};

/* Entry 0 is the size of struct `which`, entry k the offset of its k-th field; -1 past
 * the last field, so a field missing on either side shows too. */
long hpdtest_layout(int which, int entry)
{
  if (which < 0 || (size_t)which >= sizeof layouts / sizeof layouts[0] || entry < 0 ||
      (size_t)entry >= layouts[which].count)
    return -1;
  return (long)layouts[which].entries[entry];
}

/* Offsets cannot tell a double from a uint64_t of the same size: every field of every
 * routine gets a value of its own type, 1000 * routine + the field's number, so that a
 * field read as the wrong type, or from the wrong place, comes out wrong. */
void hpdtest_fill_stats(hpd_stats *out)
{
  memset(out, 0, sizeof *out);
  for (int r = 0; r < HPD_ROUTINES_MAX; r++) {
    hpd_routine_stats *s = &out->routine[r];
    uint64_t u = 1000u * (unsigned)r;
    double d = 1000.0 * r;
    s->calls = u + 1, s->engine_calls = u + 2, s->fallback_calls = u + 3;
    s->rejected_calls = u + 4;
    for (int i = 0; i < HPD_FALLBACK_REASONS_MAX; i++)
      s->fallback_by_reason[i] = u + 100 + (unsigned)i;
    s->time_total = d + 5.5, s->time_min = d + 6.5, s->time_max = d + 7.5;
    s->ngrp_last = 1000 * r + 8, s->panels_last = 1000 * r + 9;
    s->extra_bytes_model_max = u + 10, s->extra_bytes_observed_max = u + 11;
    s->bcast_count = u + 12, s->bcast_bytes = u + 13;
    s->bcast_wall_s = d + 14.5, s->bcast_cpu_s = d + 15.5;
    s->bcast_chunk_last = u + 16, s->dvfs_switches = u + 17, s->dvfs_skipped = u + 18;
    s->dvfs_switch_s = d + 19.5, s->steps_total = u + 20;
    s->steps_last = 1000 * r + 21, s->strategy_last = 1000 * r + 22;
    s->switches_last = u + 23;
    s->broadcast_phase_s = d + 24.5, s->multiply_phase_s = d + 25.5, s->cpu_s = d + 26.5;
    s->energy_modeled_j = d + 27.5, s->energy_measured_j = d + 28.5;
    s->energy_last_j = d + 29.5;
    s->energy_source = (hpd_energy_source)(1000 * r + 30);
    s->peak_rss_bytes = u + 31, s->dvfs_held = u + 32;
    s->direct_calls = u + 33, s->direct_local_calls = u + 34;
    s->auto_calls = u + 35, s->auto_overlap_calls = u + 36, s->auto_learning_calls = u + 37;
    s->auto_predicted_s = d + 38.5, s->auto_observed_s = d + 39.5;
    s->auto_predicted_j = d + 40.5, s->auto_observed_j = d + 41.5;
    s->auto_last_s[0] = d + 42.5, s->auto_last_s[1] = d + 43.5;
    s->auto_last_j[0] = d + 44.5, s->auto_last_j[1] = d + 45.5;
    s->auto_last_broadcast_s = d + 46.5, s->auto_last_multiply_s = d + 47.5;
    s->auto_last_reason = 1000 * r + 48;
  }
}

/* The configuration as a C caller of hpd_get_config sees it. */
double hpdtest_c_mem_threshold(void)
{
  hpd_config c;
  hpd_get_config(&c);
  return c.mem_threshold;
}

int hpdtest_c_strategy(void)
{
  hpd_config c;
  hpd_get_config(&c);
  return (int)c.strategy;
}

/* The report mode; its path is copied into path (len bytes, NUL-terminated). */
int hpdtest_c_report(char *path, int len)
{
  hpd_config c;
  hpd_get_config(&c);
  if (len > 0) {
    strncpy(path, c.report_path, (size_t)len - 1);
    path[len - 1] = '\0';
  }
  return (int)c.report;
}

double hpdtest_c_switch_min_ms(void)
{
  hpd_config c;
  hpd_get_config(&c);
  return c.switch_min_ms;
}

int hpdtest_c_version(void)
{
  return HPD_VERSION_MAJOR * 10000 + HPD_VERSION_MINOR * 100 + HPD_VERSION_PATCH;
}
