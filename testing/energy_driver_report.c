#include "energy_driver_report.h"

#include <math.h>
#include <stdio.h>

#include "bench_common.h"
#include "bench_sample.h"

#define MIB (1024.0 * 1024.0)

const char *ed_routine_name(int routine)
{
  static const char *const names[ED_ROUTINES] = {"pdgemm", "pdgetrf", "pdpotrf"};
  return routine >= 0 && routine < ED_ROUTINES ? names[routine] : "unknown";
}

static double mean(double total, const ed_figures *f)
{
  return f->runs ? total / f->runs : 0;
}

void ed_print_header(const ed_options *o, const ed_grid *g)
{
  hpd_dvfs_info dvfs;
  hpd_energy_info energy;
  hpd_get_dvfs_info(&dvfs);
  hpd_get_energy_info(&energy);
  printf("# energy_driver: hpdaemon %s, pdgemm, pdgetrf and pdpotrf, N=%d NB=%d, grid %dx%d (%d "
         "ranks), threshold %g, %d run(s) per row (medians per run)\n",
         HPD_VERSION_STRING, o->n, o->nb, o->p, o->q, g->size, o->threshold, o->reps);
  char rule[48];
  printf("# DVFS: %s backend (%s), low %u kHz, high %u kHz, switch min %s\n",
         hpd_dvfs_name(dvfs.backend), bench_dvfs_how(dvfs.backend, dvfs.applied),
         dvfs.low_khz, dvfs.high_khz, bench_switch_rule(rule, sizeof rule));
  printf("# energy: %s", hpd_energy_source_name(energy.source));
  if (energy.source == HPD_SOURCE_MODELED)
    printf(" (no meter here: the power model's figures, %s, not measurements)", energy.model);
  else if (energy.source == HPD_SOURCE_MEASURED)
    printf(" (%s meter)", hpd_energy_name(energy.meter));
  else if (energy.source == HPD_SOURCE_SIMULATED)
    printf(" (the simulated platform's joules, not measurements)");
  printf("\n# energy_J and cpu_s: all ranks together; switches, skipped, held (requests "
         "daemon's switch rule held back): per rank; time_s: slowest rank; memory: largest "
         "of any rank\n");
  printf("%-8s %-8s %5s %8s %7s %7s %8s %9s %-8s %15s %18s %12s %8s\n", "routine",
         "strategy", "N_grp", "switches", "skipped", "held", "time_s", "energy_J", "source",
         "extra_MiB_model", "extra_MiB_observed", "peak_RSS_MiB", "cpu_s");
}

void ed_print_row(int r, int strategy, const ed_figures *f, int source)
{
  char energy[32] = "-"; /* HPD_ENERGY=none: no figure at all, rather than a false 0 */
  if (source != HPD_SOURCE_NONE)
    snprintf(energy, sizeof energy, "%.3f", bench_median(f->energy_j, f->runs));
  printf("%-8s %-8s %5d %8.0f %7.0f %7.0f %8.4f %9s %-8s %15.2f %18.2f %12.1f %8.3f\n",
         ed_routine_name(r), hpd_strategy_name(strategy), f->ngrp,
         mean((double)f->switches, f), mean((double)f->skipped, f),
         mean((double)f->held, f), bench_median(f->time_s, f->runs), energy,
         hpd_energy_source_name(source),
         (double)f->model / MIB, (double)f->observed / MIB, (double)f->peak_rss / MIB,
         bench_median(f->cpu_s, f->runs));
}

void ed_append_csv(const ed_options *o, int r, int strategy, const ed_figures *f, int source)
{
  FILE *out = fopen(o->csv, "a");
  if (!out) {
    fprintf(stderr, "energy_driver: cannot append to %s\n", o->csv);
    return;
  }
  if (ftell(out) == 0)
    fprintf(out, "routine,strategy,n,nb,p,q,threshold,runs,ngrp,switches,skipped,held,"
                 "time_s,energy_j,energy_source,extra_mib_model,extra_mib_observed,"
                 "peak_rss_mib,cpu_s\n");
  fprintf(out, "%s,%s,%d,%d,%d,%d,%g,%d,%d,%.1f,%.1f,%.1f,%.6f,%.4f,%s,%.3f,%.3f,%.1f,%.4f\n",
          ed_routine_name(r), hpd_strategy_name(strategy), o->n, o->nb, o->p, o->q,
          o->threshold, f->runs, f->ngrp, mean((double)f->switches, f),
          mean((double)f->skipped, f), mean((double)f->held, f), bench_median(f->time_s, f->runs),
          bench_median(f->energy_j, f->runs), hpd_energy_source_name(source),
          (double)f->model / MIB, (double)f->observed / MIB, (double)f->peak_rss / MIB,
          bench_median(f->cpu_s, f->runs));
  fclose(out);
}

/* Percent saved by daemon against other, "-" where there is nothing to compare;
 * negative when daemon did worse. */
static const char *saving(char *out, size_t len, double other, double daemon)
{
  if (other > 0)
    snprintf(out, len, "%+.2f%%", 100.0 * (other - daemon) / other);
  else
    snprintf(out, len, "-");
  return out;
}

/* The auto strategy against the better of daemon and overlap on each routine: the
 * energy it spent over the thriftier one's, and its time over the faster one's. */
static void print_auto_against_best(ed_figures rows[ED_ROUTINES][HPD_STRATEGIES], int source,
                                    const int *ran, const char *label)
{
  if (!ran[HPD_STRATEGY_AUTO] || !ran[HPD_STRATEGY_DAEMON] || !ran[HPD_STRATEGY_OVERLAP])
    return;
  printf("# auto against the better of daemon and overlap, percent (positive = auto spent "
         "more):\n");
  for (int r = 0; r < ED_ROUTINES; r++) {
    const ed_figures *a = &rows[r][HPD_STRATEGY_AUTO], *d = &rows[r][HPD_STRATEGY_DAEMON],
                     *v = &rows[r][HPD_STRATEGY_OVERLAP];
    double least_j = fmin(bench_median(d->energy_j, d->runs), bench_median(v->energy_j, v->runs));
    double least_s = fmin(bench_median(d->time_s, d->runs), bench_median(v->time_s, v->runs));
    double auto_j = bench_median(a->energy_j, a->runs), auto_s = bench_median(a->time_s, a->runs);
    if (source == HPD_SOURCE_NONE || !(least_j > 0.0))
      printf("%-8s auto vs best   energy %s -   time %+.2f%%\n", ed_routine_name(r), label,
             100.0 * (auto_s - least_s) / least_s);
    else
      printf("%-8s auto vs best   energy%s %+.2f%%   time %+.2f%%\n", ed_routine_name(r), label,
             100.0 * (auto_j - least_j) / least_j, 100.0 * (auto_s - least_s) / least_s);
  }
}

void ed_print_savings(const ed_options *o, ed_figures rows[ED_ROUTINES][HPD_STRATEGIES],
                      int source)
{
  int ran[HPD_STRATEGIES] = {0};
  for (int i = 0; i < o->strategy_count; i++)
    ran[o->strategies[i]] = 1;
  if (!ran[HPD_STRATEGY_DAEMON] || !(ran[HPD_STRATEGY_BASIC] || ran[HPD_STRATEGY_NONE])) {
    printf("# savings: need daemon and basic or none (-s all)\n");
    return;
  }
  const char *label = source == HPD_SOURCE_MODELED ? " (modeled)" : "";
  print_auto_against_best(rows, source, ran, label);
  printf("# savings of daemon, percent (negative = daemon worse):\n");
  for (int r = 0; r < ED_ROUTINES; r++) {
    const ed_figures *d = &rows[r][HPD_STRATEGY_DAEMON];
    for (int other = HPD_STRATEGY_NONE; other <= HPD_STRATEGY_BASIC; other++) {
      if (!ran[other])
        continue;
      const ed_figures *x = &rows[r][other];
      char energy[32], time[32];
      printf("%-8s daemon vs %-6s energy%s %8s   time %8s\n", ed_routine_name(r),
             hpd_strategy_name(other), label,
             saving(energy, sizeof energy, source == HPD_SOURCE_NONE ? 0 :
                    bench_median(x->energy_j, x->runs), bench_median(d->energy_j, d->runs)),
             saving(time, sizeof time, bench_median(x->time_s, x->runs),
                    bench_median(d->time_s, d->runs)));
    }
  }
}

void ed_print_reference(const ed_figures ref[ED_ROUTINES], int source)
{
  printf("# reference ScaLAPACK (hpd_set_disable(1)), same calls, for context:");
  for (int r = 0; r < ED_ROUTINES; r++)
    printf("%s %s %.4f s", r ? "," : "", ed_routine_name(r),
           bench_median(ref[r].time_s, ref[r].runs));
  if (source != HPD_SOURCE_NONE) {
    printf("; energy");
    for (int r = 0; r < ED_ROUTINES; r++)
      printf("%s %s %.3f J", r ? "," : "", ed_routine_name(r),
             bench_median(ref[r].energy_j, ref[r].runs));
    printf(" (%s)", hpd_energy_source_name(source));
  }
  printf("\n");
}
