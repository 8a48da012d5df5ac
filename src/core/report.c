#include "core/report.h"

#include <errno.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/costs.h"
#include "core/finalize_hook.h"
#include "core/job.h"
#include "core/log.h"
#include "core/stats.h"

static atomic_int armed_with_mpi;
static atomic_int armed_at_exit;
static atomic_int written;
static int world_size = 1;

static const char *count_text(int value, char *text, size_t size)
{
  if (value == 0)
    return "auto";
  snprintf(text, size, "%d", value);
  return text;
}

/* "128 KiB", "1 MiB", "1000 B": chunk sizes are read, not computed with. */
static const char *bytes_text(uint64_t bytes, char *text, size_t size)
{
  if (bytes >= 1048576 && bytes % 1048576 == 0)
    snprintf(text, size, "%llu MiB", (unsigned long long)(bytes / 1048576));
  else if (bytes >= 1024 && bytes % 1024 == 0)
    snprintf(text, size, "%llu KiB", (unsigned long long)(bytes / 1024));
  else
    snprintf(text, size, "%llu B", (unsigned long long)bytes);
  return text;
}

/* The broadcasts' CPU seconds beside their wall seconds: a ratio near 1 means the rank
 * kept a core busy while it waited, far below 1 that the core idled. */
static void write_bcast_line(FILE *out, const hpd_routine_stats *s)
{
  char chunk[32];
  double ratio = s->bcast_wall_s > 0 ? s->bcast_cpu_s / s->bcast_wall_s : 0.0;
  fprintf(out, "  %-8s broadcasts %llu, %.1f MiB, last chunk %s: wall %.4f s, CPU %.4f s, "
               "CPU/wall %.2f\n",
          "", (unsigned long long)s->bcast_count, s->bcast_bytes / 1048576.0,
          s->bcast_chunk_last ? bytes_text(s->bcast_chunk_last, chunk, sizeof chunk) : "-",
          s->bcast_wall_s, s->bcast_cpu_s, ratio);
}

/* Which backend switched, at which frequencies, and why the others did not. */
static void write_dvfs_lines(FILE *out, const hpd_settings *cfg)
{
  hpd_dvfs_info info;
  hpd_get_dvfs_info(&info);
  if (info.backend == HPD_DVFS_AUTO) {
    fprintf(out, "  DVFS %s, strategy %s: not set up (no multiply served)\n",
            hpd_dvfs_name(cfg->dvfs), hpd_strategy_name(cfg->strategy));
    return;
  }
  char min_text[32];
  if (cfg->switch_min_ms < 0)
    snprintf(min_text, sizeof min_text, "auto");
  else
    snprintf(min_text, sizeof min_text, "%g ms", cfg->switch_min_ms);
  fprintf(out, "  DVFS %s%s, strategy %s, low %u kHz, high %u kHz, latency %.1f us, "
               "switch min %s\n",
          hpd_dvfs_name(info.backend), info.applied ? "" : " (switches not applied)",
          hpd_strategy_name(cfg->strategy), info.low_khz, info.high_khz,
          info.latency_ns / 1e3, min_text);
  fprintf(out, "  DVFS backends: %s\n", info.why);
}

static void write_switch_line(FILE *out, const hpd_routine_stats *s)
{
  fprintf(out, "  %-8s switches %llu, skipped %llu, held %llu, %.4f s switching; %llu "
               "broadcast steps, last call %s: %llu requests over %d steps\n",
          "", (unsigned long long)s->dvfs_switches, (unsigned long long)s->dvfs_skipped,
          (unsigned long long)s->dvfs_held, s->dvfs_switch_s,
          (unsigned long long)s->steps_total, hpd_strategy_name(s->strategy_last),
          (unsigned long long)s->switches_last,
          s->steps_last);
}

/* The auto strategy's choices, and how its predictions compared with what happened. */
static void write_auto_line(FILE *out, const hpd_routine_stats *s)
{
  fprintf(out, "  %-8s auto: %llu calls, %llu overlap, %llu daemon (%llu learning); "
               "predicted %.4f s, observed %.4f s; %.3f J predicted, %.3f J observed "
               "(modeled, rank); last: %s\n",
          "", (unsigned long long)s->auto_calls, (unsigned long long)s->auto_overlap_calls,
          (unsigned long long)(s->auto_calls - s->auto_overlap_calls),
          (unsigned long long)s->auto_learning_calls, s->auto_predicted_s, s->auto_observed_s,
          s->auto_predicted_j, s->auto_observed_j, hpd_auto_reason_name(s->auto_last_reason));
}

/* Rank 0's energy: the model for its cores, and its node's meter when measured. */
static void write_energy_line(FILE *out, const hpd_routine_stats *s)
{
  fprintf(out, "  %-8s phases: broadcast %.4f s, multiply %.4f s, CPU %.4f s; energy ", "",
          s->broadcast_phase_s, s->multiply_phase_s, s->cpu_s);
  if (s->energy_source >= HPD_SOURCE_MEASURED)
    fprintf(out, "%.3f J %s (node), %.3f J modeled (rank)", s->energy_measured_j,
            hpd_energy_source_name(s->energy_source), s->energy_modeled_j);
  else if (s->energy_source == HPD_SOURCE_MODELED)
    fprintf(out, "%.3f J modeled (rank)", s->energy_modeled_j);
  else
    fprintf(out, "not accounted");
  fprintf(out, "; peak RSS %.1f MiB\n", s->peak_rss_bytes / 1048576.0);
}

static void write_energy_source(FILE *out)
{
  hpd_energy_info info;
  hpd_get_energy_info(&info);
  if (info.source == HPD_SOURCE_NONE)
    return;
  fprintf(out, "  energy %s%s%s (model: %s)\n", hpd_energy_source_name(info.source),
          info.source == HPD_SOURCE_MEASURED ? " by " : "",
          info.source == HPD_SOURCE_MEASURED ? hpd_energy_name(info.meter) : "", info.model);
}

/* Rank 0's own costs (costs.h); nothing where it had none. */
static void write_costs_line(FILE *out)
{
  hpd_cost_total costs[HPD_COSTS];
  hpd_costs_get(costs);
  uint64_t any = 0;
  for (int k = 0; k < HPD_COSTS; k++)
    any += costs[k].count;
  if (!any)
    return;
  fprintf(out, "  own costs (rank 0):");
  for (int k = 0; k < HPD_COSTS; k++)
    fprintf(out, "%s %s %.4f s (%llu)", k ? "," : "", hpd_cost_name((hpd_cost)k),
            costs[k].seconds, (unsigned long long)costs[k].count);
  fprintf(out, "\n");
}

/* The job's nodes and every rank's counters, or a line saying they are rank 0's alone. */
static void write_job_lines(FILE *out, const hpd_job *job)
{
  if (!job->gathered) {
    fprintf(out, "  job: figures above and below are rank 0's (%s)\n",
            job->too_late ? "MPI had shut down before the ranks could gather them"
                          : "no grid spanned every rank");
    return;
  }
  fprintf(out, "  job: %d ranks on %d node%s, %d", job->ranks, job->nodes,
          job->nodes == 1 ? "" : "s", job->per_node_min);
  if (job->per_node_max != job->per_node_min)
    fprintf(out, " to %d", job->per_node_max);
  fprintf(out, " per node:");
  for (int h = 0; h < job->hosts_shown; h++)
    fprintf(out, "%s %s", h ? "," : "", job->host[h]);
  fprintf(out, "%s\n", job->nodes > job->hosts_shown ? ", ..." : "");
  fprintf(out, "  %-8s %8s %8s %8s %8s %19s %10s %9s %10s\n", "all", "calls", "engine", "direct",
          "fallback", "time_s min..max", "bcast_MiB", "switches", "energy_J");
  for (int r = 0; r < HPD_ROUTINES; r++) {
    const hpd_job_field *f = job->field[r];
    if (f[HPD_JOB_CALLS].sum == 0)
      continue;
    fprintf(out, "  %-8s %8.0f %8.0f %8.0f %8.0f %9.4f..%-8.4f %10.1f %9.0f %10.3f\n",
            hpd_routine_name(r), f[HPD_JOB_CALLS].sum, f[HPD_JOB_ENGINE].sum,
            f[HPD_JOB_DIRECT].sum, f[HPD_JOB_FALLBACK].sum, f[HPD_JOB_TIME_S].min,
            f[HPD_JOB_TIME_S].max, f[HPD_JOB_BCAST_BYTES].sum / 1048576.0,
            f[HPD_JOB_SWITCHES].sum, f[HPD_JOB_ENERGY_MODELED_J].sum);
  }
}

void hpd_report_write_summary(FILE *out, const hpd_stats *stats, const hpd_settings *cfg,
                              const hpd_job *job)
{
  char ngrp_text[16], kb_text[16];
  fprintf(out, "hpdaemon %s report (rank 0 of %d)\n", HPD_VERSION_STRING, world_size);
  fprintf(out, "  threshold %.3g  N_grp %s  kb %s  disable %d\n", cfg->mem_threshold,
          count_text(cfg->ngrp, ngrp_text, sizeof ngrp_text),
          count_text(cfg->kb, kb_text, sizeof kb_text), cfg->disable);
  char chunk_text[32];
  fprintf(out, "  broadcast %s  chunk %s  wait %s  tune file %s\n",
          hpd_bcast_algorithm_name(cfg->bcast),
          cfg->chunk ? bytes_text(cfg->chunk, chunk_text, sizeof chunk_text) : "tuned",
          hpd_wait_policy_name(cfg->wait), cfg->tune_file[0] ? cfg->tune_file : "none");
  write_dvfs_lines(out, cfg);
  write_energy_source(out);
  fprintf(out, "  dispatch %s  calibration %g%%\n", hpd_dispatch_name(cfg->dispatch),
          100.0 * cfg->calibration);
  fprintf(out, "  %-8s %8s %8s %8s %8s %8s %10s %9s %9s %9s\n", "routine", "calls", "engine",
          "direct", "fallback", "rejected", "time_s", "mean_ms", "min_ms", "max_ms");
  for (int r = 0; r < HPD_ROUTINES; r++) {
    const hpd_routine_stats *s = &stats->routine[r];
    double mean = s->calls ? s->time_total / (double)s->calls : 0.0;
    fprintf(out, "  %-8s %8llu %8llu %8llu %8llu %8llu %10.4f %9.3f %9.3f %9.3f\n",
            hpd_routine_name(r), (unsigned long long)s->calls,
            (unsigned long long)s->engine_calls, (unsigned long long)s->direct_calls,
            (unsigned long long)s->fallback_calls,
            (unsigned long long)s->rejected_calls, s->time_total, mean * 1e3,
            s->time_min * 1e3, s->time_max * 1e3);
    if (s->direct_calls)
      fprintf(out, "  %-8s direct: %llu local, %llu reference; no frequency switch\n", "",
              (unsigned long long)s->direct_local_calls,
              (unsigned long long)(s->direct_calls - s->direct_local_calls));
    for (int why = 0; why < HPD_FALLBACK_REASONS; why++)
      if (s->fallback_by_reason[why] && why != HPD_FALLBACK_BAD_ARGUMENT)
        fprintf(out, "  %-8s fallback %-14s %llu\n", "", hpd_fallback_reason_name(why),
                (unsigned long long)s->fallback_by_reason[why]);
    if (s->engine_calls)
      fprintf(out, "  %-8s N_grp %d of %d panels, extra memory per rank %.1f MiB model, "
                   "%.1f MiB observed\n",
              "", s->ngrp_last, s->panels_last, s->extra_bytes_model_max / 1048576.0,
              s->extra_bytes_observed_max / 1048576.0);
    if (s->bcast_count)
      write_bcast_line(out, s);
    if (s->engine_calls) {
      write_switch_line(out, s);
      write_energy_line(out, s);
    }
    if (s->auto_calls)
      write_auto_line(out, s);
  }
  write_costs_line(out);
  write_job_lines(out, job);
  fflush(out);
}

static void json_string(FILE *out, const char *s)
{
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

static void write_job_json(FILE *out, const hpd_job *job)
{
  fprintf(out, "  \"job\": {\"gathered\": %d", job->gathered);
  if (job->gathered) {
    fprintf(out, ", \"ranks\": %d, \"nodes\": %d, \"ranks_per_node_min\": %d, "
                 "\"ranks_per_node_max\": %d, \"hosts\": [",
            job->ranks, job->nodes, job->per_node_min, job->per_node_max);
    for (int h = 0; h < job->hosts_shown; h++) {
      fprintf(out, "%s", h ? ", " : "");
      json_string(out, job->host[h]);
    }
    fprintf(out, "], \"routines\": {");
    for (int r = 0; r < HPD_ROUTINES; r++) {
      fprintf(out, "%s\"%s\": {", r ? ", " : "", hpd_routine_name(r));
      for (int f = 0; f < HPD_JOB_FIELDS; f++) {
        const hpd_job_field *v = &job->field[r][f];
        fprintf(out, "%s\"%s\": {\"min\": %.9g, \"max\": %.9g, \"sum\": %.9g}", f ? ", " : "",
                hpd_job_field_name(f), v->min, v->max, v->sum);
      }
      fprintf(out, "}");
    }
    fprintf(out, "}");
  }
  fprintf(out, "},\n");
}

/* A routine's auto figures, closing its object. */
static void write_auto_json(FILE *out, const hpd_routine_stats *s)
{
  fprintf(out, ", \"auto\": {\"calls\": %llu, \"overlap_calls\": %llu, \"learning_calls\": %llu, "
               "\"predicted_s\": %.9g, \"observed_s\": %.9g, \"predicted_modeled_j\": %.9g, "
               "\"observed_modeled_j\": %.9g, \"last_reason\": \"%s\", "
               "\"last_predicted\": {\"daemon_s\": %.9g, \"overlap_s\": %.9g, "
               "\"daemon_grid_j\": %.9g, \"overlap_grid_j\": %.9g, \"broadcast_s\": %.9g, "
               "\"multiply_s\": %.9g}}}",
          (unsigned long long)s->auto_calls, (unsigned long long)s->auto_overlap_calls,
          (unsigned long long)s->auto_learning_calls, s->auto_predicted_s, s->auto_observed_s,
          s->auto_predicted_j, s->auto_observed_j, hpd_auto_reason_name(s->auto_last_reason),
          s->auto_last_s[0], s->auto_last_s[1], s->auto_last_j[0], s->auto_last_j[1],
          s->auto_last_broadcast_s, s->auto_last_multiply_s);
}

/* Rank 0's latest auto decisions, one per call: what was predicted, what was taken and
 * why, and what the call then took.  Joules are modeled. */
static void write_auto_log_json(FILE *out)
{
  hpd_auto_call log[HPD_AUTO_LOG];
  int count = hpd_stats_auto_log(log);
  fprintf(out, "  \"auto_calls\": [");
  for (int i = 0; i < count; i++) {
    const hpd_auto_call *c = &log[i];
    fprintf(out, "%s\n    {\"routine\": \"%s\", \"schedule\": \"%s\", \"why\": \"%s\", "
                 "\"predicted\": {\"daemon_s\": %.6g, \"overlap_s\": %.6g, "
                 "\"daemon_grid_j\": %.6g, \"overlap_grid_j\": %.6g, \"broadcast_s\": %.6g, "
                 "\"multiply_s\": %.6g}, \"observed\": {\"wall_s\": %.6g, "
                 "\"broadcast_s\": %.6g, \"multiply_s\": %.6g, \"modeled_j\": %.6g}}",
            i ? "," : "", hpd_routine_name(c->routine), c->overlap ? "overlap" : "daemon",
            hpd_auto_reason_name(c->reason), c->predicted_s[0], c->predicted_s[1],
            c->predicted_j[0], c->predicted_j[1], c->broadcast_s, c->multiply_s, c->observed_s,
            c->observed_broadcast_s, c->observed_multiply_s, c->observed_j);
  }
  fprintf(out, "%s]\n", count ? "\n  " : "");
}

static void write_costs_json(FILE *out)
{
  hpd_cost_total costs[HPD_COSTS];
  hpd_costs_get(costs);
  fprintf(out, "  \"costs\": {");
  for (int k = 0; k < HPD_COSTS; k++)
    fprintf(out, "%s\"%s\": {\"seconds\": %.9g, \"count\": %llu}", k ? ", " : "",
            hpd_cost_name((hpd_cost)k), costs[k].seconds, (unsigned long long)costs[k].count);
  fprintf(out, "},\n");
}

void hpd_report_write_json(FILE *out, const hpd_stats *stats, const hpd_settings *cfg,
                           const hpd_job *job)
{
  fprintf(out, "{\n  \"library\": \"hpdaemon\",\n  \"version\": \"%s\",\n", HPD_VERSION_STRING);
  fprintf(out, "  \"rank\": 0,\n  \"ranks\": %d,\n", world_size);
  fprintf(out,
          "  \"config\": {\"mem_threshold\": %.17g, \"ngrp\": %d, \"kb\": %d, "
          "\"disable\": %d, \"report\": ",
          cfg->mem_threshold, cfg->ngrp, cfg->kb, cfg->disable);
  json_string(out, cfg->report == HPD_REPORT_JSON ? cfg->report_path : "summary");
  fprintf(out, ", \"bcast\": \"%s\", \"chunk\": %llu, \"wait\": \"%s\", \"tune_file\": ",
          hpd_bcast_algorithm_name(cfg->bcast), (unsigned long long)cfg->chunk,
          hpd_wait_policy_name(cfg->wait));
  json_string(out, cfg->tune_file);
  fprintf(out, ", \"dvfs\": \"%s\", \"strategy\": \"%s\", \"freq_low_khz\": %u, "
               "\"freq_high_khz\": %u, \"sim_switch_us\": %.9g, "
               "\"switch_min_ms\": %.9g, \"dispatch\": \"%s\", \"max_slowdown\": %.9g, "
               "\"calibration\": %.9g},\n",
          hpd_dvfs_name(cfg->dvfs), hpd_strategy_name(cfg->strategy), cfg->freq_low_khz,
          cfg->freq_high_khz, cfg->sim_switch_us, cfg->switch_min_ms,
          hpd_dispatch_name(cfg->dispatch), cfg->max_slowdown, cfg->calibration);
  hpd_dvfs_info info;
  hpd_get_dvfs_info(&info);
  fprintf(out, "  \"dvfs\": {\"backend\": \"%s\", \"applied\": %d, \"low_khz\": %u, "
               "\"high_khz\": %u, \"latency_ns\": %u, \"domains\": %d, \"why\": ",
          info.backend == HPD_DVFS_AUTO ? "not set up" : hpd_dvfs_name(info.backend),
          info.applied, info.low_khz, info.high_khz, info.latency_ns, info.domains);
  json_string(out, info.why);
  hpd_energy_info energy;
  hpd_get_energy_info(&energy);
  fprintf(out, "},\n  \"energy\": {\"source\": \"%s\", \"meter\": \"%s\", \"reader\": %d, "
               "\"nodes\": %d, \"model\": ",
          hpd_energy_source_name(energy.source), hpd_energy_name(energy.meter), energy.reader,
          energy.nodes);
  json_string(out, energy.model);
  fprintf(out, ", \"why\": ");
  json_string(out, energy.why);
  fprintf(out, "},\n");
  write_job_json(out, job);
  fprintf(out, "  \"routines\": {");
  for (int r = 0; r < HPD_ROUTINES; r++) {
    const hpd_routine_stats *s = &stats->routine[r];
    fprintf(out, "%s\n    \"%s\": {\"calls\": %llu, \"engine_calls\": %llu, "
                 "\"direct_calls\": %llu, \"direct_local_calls\": %llu, "
                 "\"fallback_calls\": %llu, \"rejected_calls\": %llu, \"fallback_reasons\": {",
            r ? "," : "", hpd_routine_name(r), (unsigned long long)s->calls,
            (unsigned long long)s->engine_calls, (unsigned long long)s->direct_calls,
            (unsigned long long)s->direct_local_calls, (unsigned long long)s->fallback_calls,
            (unsigned long long)s->rejected_calls);
    const char *sep = "";
    for (int why = 0; why < HPD_FALLBACK_REASONS; why++, sep = ", ")
      if (why != HPD_FALLBACK_BAD_ARGUMENT)
        fprintf(out, "%s\"%s\": %llu", sep, hpd_fallback_reason_name(why),
                (unsigned long long)s->fallback_by_reason[why]);
    fprintf(out, "}, \"time_total_s\": %.9g, \"time_min_s\": %.9g, \"time_max_s\": %.9g, "
                 "\"ngrp_last\": %d, \"panels_last\": %d, \"extra_bytes_model_max\": %llu, "
                 "\"extra_bytes_observed_max\": %llu, ",
            s->time_total, s->time_min, s->time_max, s->ngrp_last, s->panels_last,
            (unsigned long long)s->extra_bytes_model_max,
            (unsigned long long)s->extra_bytes_observed_max);
    fprintf(out, "\"bcast_count\": %llu, \"bcast_bytes\": %llu, \"bcast_wall_s\": %.9g, "
                 "\"bcast_cpu_s\": %.9g, \"bcast_cpu_over_wall\": %.6g, "
                 "\"bcast_chunk_last\": %llu, ",
            (unsigned long long)s->bcast_count, (unsigned long long)s->bcast_bytes,
            s->bcast_wall_s, s->bcast_cpu_s,
            s->bcast_wall_s > 0 ? s->bcast_cpu_s / s->bcast_wall_s : 0.0,
            (unsigned long long)s->bcast_chunk_last);
    fprintf(out, "\"dvfs_switches\": %llu, \"dvfs_skipped\": %llu, \"dvfs_held\": %llu, "
                 "\"dvfs_switch_s\": %.9g, \"steps_total\": %llu, \"steps_last\": %d, "
                 "\"strategy_last\": \"%s\", \"switches_last\": %llu, ",
            (unsigned long long)s->dvfs_switches, (unsigned long long)s->dvfs_skipped,
            (unsigned long long)s->dvfs_held, s->dvfs_switch_s,
            (unsigned long long)s->steps_total, s->steps_last,
            hpd_strategy_name(s->strategy_last), (unsigned long long)s->switches_last);
    fprintf(out, "\"broadcast_phase_s\": %.9g, \"multiply_phase_s\": %.9g, \"cpu_s\": %.9g, "
                 "\"energy_source\": \"%s\", \"energy_modeled_j\": %.9g, "
                 "\"energy_measured_j\": %.9g, \"energy_last_j\": %.9g, "
                 "\"peak_rss_bytes\": %llu",
            s->broadcast_phase_s, s->multiply_phase_s, s->cpu_s,
            hpd_energy_source_name(s->energy_source), s->energy_modeled_j,
            s->energy_measured_j, s->energy_last_j, (unsigned long long)s->peak_rss_bytes);
    write_auto_json(out, s);
  }
  fprintf(out, "\n  },\n");
  write_costs_json(out);
  write_auto_log_json(out);
  fprintf(out, "}\n");
}

static void write_report_of(const hpd_stats *stats, const hpd_job *job)
{
  const hpd_settings *cfg = hpd_config_get();
  if (hpd_world_rank() != 0 || atomic_exchange(&written, 1))
    return;
  if (cfg->report == HPD_REPORT_SUMMARY) {
    hpd_report_write_summary(stdout, stats, cfg, job);
    return;
  }
  FILE *out = fopen(cfg->report_path, "w");
  if (!out) {
    hpd_warn("cannot write the report to %s: %s", cfg->report_path, strerror(errno));
    return;
  }
  hpd_report_write_json(out, stats, cfg, job);
  if (fclose(out) != 0)
    hpd_warn("writing the report to %s failed: %s", cfg->report_path, strerror(errno));
}

/* At exit, where MPI_Finalize was never reached: rank 0's own figures.  A process that
 * never started MPI (a shell or a tool the preload reached) ran no routine of ours: it
 * writes nothing, so that a script under the launcher gives one report, not one per
 * command it ran. */
static void write_report(void)
{
  if (hpd_config_get()->report == HPD_REPORT_OFF || atomic_load(&written))
    return;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    return;
  hpd_stats stats;
  hpd_get_stats(&stats);
  hpd_job alone = {0};
  write_report_of(&stats, &alone);
}

static void report_at_finalize(void)
{
  if (hpd_config_get()->report == HPD_REPORT_OFF || atomic_load(&written))
    return;
  hpd_stats stats;
  hpd_get_stats(&stats);
  hpd_job job;
  hpd_job_gather(&stats, &job); /* every rank, where every rank is known to be here */
  write_report_of(&stats, &job);
}

void hpd_report_arm(void)
{
  if (hpd_config_get()->report == HPD_REPORT_OFF)
    return;
  if (!atomic_exchange(&armed_at_exit, 1))
    atexit(write_report);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized || atomic_load(&armed_with_mpi))
    return;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  hpd_world_rank(); /* kept now: a simulated MPI reads finalized when the report is due */
  if (hpd_finalize_hook(report_at_finalize, &armed_with_mpi) != HPD_OK)
    hpd_warn("cannot hook MPI_Finalize; the report is written at exit instead");
}
