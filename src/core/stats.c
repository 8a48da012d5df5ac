#include "core/stats.h"

#include <pthread.h>
#include <string.h>
#include <sys/resource.h>

#include "core/abi.h"

static hpd_stats stats;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const reason_names[HPD_FALLBACK_REASONS] = {
    [HPD_FALLBACK_DISABLED] = "disabled",
    [HPD_FALLBACK_NO_ENGINE] = "no_engine",
    [HPD_FALLBACK_BAD_ARGUMENT] = "bad_argument",
    [HPD_FALLBACK_NO_GRID] = "no_grid",
    [HPD_FALLBACK_NO_MEMORY] = "no_memory",
    [HPD_FALLBACK_UNSUPPORTED] = "unsupported",
};

static const char *const routine_names[HPD_ROUTINES] = {
    [HPD_ROUTINE_PDGEMM] = "pdgemm",
    [HPD_ROUTINE_PDSYRK] = "pdsyrk",
    [HPD_ROUTINE_PDTRSM] = "pdtrsm",
    [HPD_ROUTINE_PDTRMM] = "pdtrmm",
    [HPD_ROUTINE_PDSYMM] = "pdsymm",
    [HPD_ROUTINE_PDSYR2K] = "pdsyr2k",
    [HPD_ROUTINE_PDLASWP] = "pdlaswp",
    [HPD_ROUTINE_PDPOTRF] = "pdpotrf",
    [HPD_ROUTINE_PDGETRF] = "pdgetrf",
};

const char *hpd_fallback_reason_name(int reason)
{
  return reason >= 0 && reason < HPD_FALLBACK_REASONS ? reason_names[reason] : "unknown";
}

const char *hpd_routine_name(int routine)
{
  return routine >= 0 && routine < HPD_ROUTINES ? routine_names[routine] : "unknown";
}

static const char *const auto_reason_names[HPD_AUTO_REASONS] = {
    [HPD_AUTO_NONE] = "none",
    [HPD_AUTO_LEARNING] = "learning",
    [HPD_AUTO_LEAST_ENERGY] = "least energy",
    [HPD_AUTO_ONLY_IN_BUDGET] = "time budget",
};

const char *hpd_auto_reason_name(int reason)
{
  return reason >= 0 && reason < HPD_AUTO_REASONS ? auto_reason_names[reason] : "unknown";
}

void hpd_stats_record(hpd_routine routine, int reason, double seconds, int calls)
{
  pthread_mutex_lock(&stats_lock);
  hpd_routine_stats *s = &stats.routine[routine];
  if (calls > 0) {
    if (s->time_min == 0.0 || seconds < s->time_min)
      s->time_min = seconds;
    if (seconds > s->time_max)
      s->time_max = seconds;
    s->time_total += seconds * calls;
  }
  s->calls++;
  if (reason == HPD_SERVED_BY_ENGINE) {
    s->engine_calls++;
  } else if (reason == HPD_SERVED_DIRECT_LOCAL || reason == HPD_SERVED_DIRECT_REFERENCE) {
    s->direct_calls++;
    s->direct_local_calls += reason == HPD_SERVED_DIRECT_LOCAL;
  } else if (reason == HPD_FALLBACK_BAD_ARGUMENT) {
    s->rejected_calls++;
  } else {
    s->fallback_calls++;
    s->fallback_by_reason[reason]++;
  }
  pthread_mutex_unlock(&stats_lock);
}

void hpd_stats_record_grouping(hpd_routine routine, int ngrp, int panels,
                               uint64_t extra_bytes_model, uint64_t extra_bytes_observed)
{
  pthread_mutex_lock(&stats_lock);
  hpd_routine_stats *s = &stats.routine[routine];
  s->ngrp_last = ngrp;
  s->panels_last = panels;
  if (extra_bytes_model > s->extra_bytes_model_max)
    s->extra_bytes_model_max = extra_bytes_model;
  if (extra_bytes_observed > s->extra_bytes_observed_max)
    s->extra_bytes_observed_max = extra_bytes_observed;
  pthread_mutex_unlock(&stats_lock);
}

void hpd_stats_record_bcast(hpd_routine routine, uint64_t count, uint64_t bytes,
                            double wall_s, double cpu_s, uint64_t chunk)
{
  pthread_mutex_lock(&stats_lock);
  hpd_routine_stats *s = &stats.routine[routine];
  s->bcast_count += count;
  s->bcast_bytes += bytes;
  s->bcast_wall_s += wall_s;
  s->bcast_cpu_s += cpu_s;
  if (count)
    s->bcast_chunk_last = chunk;
  pthread_mutex_unlock(&stats_lock);
}

void hpd_stats_record_dvfs(hpd_routine routine, hpd_strategy strategy, int steps,
                           const hpd_dvfs_totals *call)
{
  pthread_mutex_lock(&stats_lock);
  hpd_routine_stats *s = &stats.routine[routine];
  s->dvfs_switches += call->switches;
  s->dvfs_skipped += call->skipped;
  s->dvfs_held += call->held;
  s->dvfs_switch_s += call->switch_s;
  s->steps_total += (uint64_t)steps;
  s->steps_last = steps;
  s->strategy_last = strategy;
  s->switches_last = call->switches + call->skipped + call->held;
  pthread_mutex_unlock(&stats_lock);
}

static hpd_auto_call auto_log[HPD_AUTO_LOG];
static uint64_t auto_logged;

int hpd_stats_auto_log(hpd_auto_call out[HPD_AUTO_LOG])
{
  pthread_mutex_lock(&stats_lock);
  int count = auto_logged < HPD_AUTO_LOG ? (int)auto_logged : HPD_AUTO_LOG;
  for (int i = 0; i < count; i++)
    out[i] = auto_log[(auto_logged - (uint64_t)count + (uint64_t)i) % HPD_AUTO_LOG];
  pthread_mutex_unlock(&stats_lock);
  return count;
}

void hpd_stats_record_auto(hpd_routine routine, const hpd_auto_call *call)
{
  pthread_mutex_lock(&stats_lock);
  hpd_auto_call *logged = &auto_log[auto_logged++ % HPD_AUTO_LOG];
  *logged = *call;
  logged->routine = routine;
  hpd_routine_stats *s = &stats.routine[routine];
  s->auto_calls++;
  s->auto_overlap_calls += call->overlap;
  if (call->reason == HPD_AUTO_LEARNING) {
    s->auto_learning_calls++;
  } else {
    s->auto_predicted_s += call->predicted_s[call->overlap];
    s->auto_observed_s += call->observed_s;
    s->auto_predicted_j += call->own_j[call->overlap];
    s->auto_observed_j += call->observed_j;
    for (int i = 0; i < 2; i++)
      s->auto_last_s[i] = call->predicted_s[i], s->auto_last_j[i] = call->predicted_j[i];
    s->auto_last_broadcast_s = call->broadcast_s;
    s->auto_last_multiply_s = call->multiply_s;
  }
  s->auto_last_reason = call->reason;
  pthread_mutex_unlock(&stats_lock);
}

/* Peak resident memory so far; Linux reports it in KiB. */
static uint64_t peak_rss_bytes(void)
{
  struct rusage usage;
  return getrusage(RUSAGE_SELF, &usage) == 0 ? (uint64_t)usage.ru_maxrss * 1024 : 0;
}

void hpd_stats_record_energy(hpd_routine routine, const hpd_energy_sample *call,
                             hpd_energy_source source, double joules)
{
  pthread_mutex_lock(&stats_lock);
  hpd_routine_stats *s = &stats.routine[routine];
  s->broadcast_phase_s += call->broadcast_s;
  s->multiply_phase_s += call->multiply_s;
  s->cpu_s += call->cpu_s;
  s->energy_modeled_j += call->modeled_j;
  s->energy_measured_j += call->measured_j;
  s->energy_last_j = joules;
  s->energy_source = source;
  pthread_mutex_unlock(&stats_lock);
}

int hpd_get_stats_sized(hpd_stats *out, size_t size)
{
  int status = hpd_abi_check("hpd_get_stats", out, size, sizeof *out);
  if (status != HPD_SUCCESS)
    return status;
  /* The peak is the process's, a maximum that never goes down: read when asked for, not
   * by a system call at the end of every engine call. */
  uint64_t rss = peak_rss_bytes();
  pthread_mutex_lock(&stats_lock);
  *out = stats;
  pthread_mutex_unlock(&stats_lock);
  for (int r = 0; r < HPD_ROUTINES; r++)
    if (out->routine[r].engine_calls)
      out->routine[r].peak_rss_bytes = rss;
  return HPD_SUCCESS;
}

void hpd_reset_stats(void)
{
  pthread_mutex_lock(&stats_lock);
  memset(&stats, 0, sizeof stats);
  auto_logged = 0;
  pthread_mutex_unlock(&stats_lock);
}
