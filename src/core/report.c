#include "report.h"

#include <errno.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "log.h"

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

void hpd_report_write_summary(FILE *out, const hpd_stats *stats, const hpd_config *cfg)
{
  char ngrp_text[16], kb_text[16];
  fprintf(out, "hpdaemon %s report (rank 0 of %d)\n", HPD_VERSION_STRING, world_size);
  fprintf(out, "  threshold %.3g  N_grp %s  kb %s  disable %d\n", cfg->mem_threshold,
          count_text(cfg->ngrp, ngrp_text, sizeof ngrp_text),
          count_text(cfg->kb, kb_text, sizeof kb_text), cfg->disable);
  fprintf(out, "  %-8s %8s %8s %8s %8s %10s %9s %9s %9s\n", "routine", "calls", "engine",
          "fallback", "rejected", "time_s", "mean_ms", "min_ms", "max_ms");
  for (int r = 0; r < HPD_ROUTINES; r++) {
    const hpd_routine_stats *s = &stats->routine[r];
    double mean = s->calls ? s->time_total / (double)s->calls : 0.0;
    fprintf(out, "  %-8s %8llu %8llu %8llu %8llu %10.4f %9.3f %9.3f %9.3f\n",
            hpd_routine_name(r), (unsigned long long)s->calls,
            (unsigned long long)s->engine_calls, (unsigned long long)s->fallback_calls,
            (unsigned long long)s->rejected_calls, s->time_total, mean * 1e3,
            s->time_min * 1e3, s->time_max * 1e3);
    for (int why = 0; why < HPD_FALLBACK_REASONS; why++)
      if (s->fallback_by_reason[why] && why != HPD_FALLBACK_BAD_ARGUMENT)
        fprintf(out, "  %-8s fallback %-14s %llu\n", "", hpd_fallback_reason_name(why),
                (unsigned long long)s->fallback_by_reason[why]);
    if (s->engine_calls)
      fprintf(out, "  %-8s N_grp %d of %d panels, extra memory per rank %.1f MiB model, "
                   "%.1f MiB observed\n",
              "", s->ngrp_last, s->panels_last, s->extra_bytes_model_max / 1048576.0,
              s->extra_bytes_observed_max / 1048576.0);
  }
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

void hpd_report_write_json(FILE *out, const hpd_stats *stats, const hpd_config *cfg)
{
  fprintf(out, "{\n  \"library\": \"hpdaemon\",\n  \"version\": \"%s\",\n", HPD_VERSION_STRING);
  fprintf(out, "  \"rank\": 0,\n  \"ranks\": %d,\n", world_size);
  fprintf(out,
          "  \"config\": {\"mem_threshold\": %.17g, \"ngrp\": %d, \"kb\": %d, "
          "\"disable\": %d, \"report\": ",
          cfg->mem_threshold, cfg->ngrp, cfg->kb, cfg->disable);
  json_string(out, cfg->report == HPD_REPORT_JSON ? cfg->report_path : "summary");
  fprintf(out, "},\n  \"routines\": {");
  for (int r = 0; r < HPD_ROUTINES; r++) {
    const hpd_routine_stats *s = &stats->routine[r];
    fprintf(out, "%s\n    \"%s\": {\"calls\": %llu, \"engine_calls\": %llu, "
                 "\"fallback_calls\": %llu, \"rejected_calls\": %llu, \"fallback_reasons\": {",
            r ? "," : "", hpd_routine_name(r), (unsigned long long)s->calls,
            (unsigned long long)s->engine_calls, (unsigned long long)s->fallback_calls,
            (unsigned long long)s->rejected_calls);
    const char *sep = "";
    for (int why = 0; why < HPD_FALLBACK_REASONS; why++, sep = ", ")
      if (why != HPD_FALLBACK_BAD_ARGUMENT)
        fprintf(out, "%s\"%s\": %llu", sep, hpd_fallback_reason_name(why),
                (unsigned long long)s->fallback_by_reason[why]);
    fprintf(out, "}, \"time_total_s\": %.9g, \"time_min_s\": %.9g, \"time_max_s\": %.9g, "
                 "\"ngrp_last\": %d, \"panels_last\": %d, \"extra_bytes_model_max\": %llu, "
                 "\"extra_bytes_observed_max\": %llu}",
            s->time_total, s->time_min, s->time_max, s->ngrp_last, s->panels_last,
            (unsigned long long)s->extra_bytes_model_max,
            (unsigned long long)s->extra_bytes_observed_max);
  }
  fprintf(out, "\n  }\n}\n");
}

static void write_report(void)
{
  const hpd_config *cfg = hpd_config_get();
  if (cfg->report == HPD_REPORT_OFF || hpd_world_rank() != 0 || atomic_exchange(&written, 1))
    return;
  hpd_stats stats;
  hpd_get_stats(&stats);
  if (cfg->report == HPD_REPORT_SUMMARY) {
    hpd_report_write_summary(stdout, &stats, cfg);
    return;
  }
  FILE *out = fopen(cfg->report_path, "w");
  if (!out) {
    hpd_warn("cannot write the report to %s: %s", cfg->report_path, strerror(errno));
    return;
  }
  hpd_report_write_json(out, &stats, cfg);
  if (fclose(out) != 0)
    hpd_warn("writing the report to %s failed: %s", cfg->report_path, strerror(errno));
}

/* MPI deletes MPI_COMM_SELF's attributes first thing in MPI_Finalize. */
static int report_at_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
  (void)comm, (void)keyval, (void)value, (void)extra;
  write_report();
  return MPI_SUCCESS;
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
  if (!initialized || finalized || atomic_exchange(&armed_with_mpi, 1))
    return;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  int keyval;
  if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, report_at_finalize, &keyval, NULL) !=
          MPI_SUCCESS ||
      MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL) != MPI_SUCCESS)
    hpd_warn("cannot hook MPI_Finalize; the report is written at exit instead");
}
