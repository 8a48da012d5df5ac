#include "factor_driver_table.h"

#include <stdio.h>
#include <string.h>

#include "bench_common.h"
#include "bench_sample.h"
#include "hpdaemon.h"

void fd_row_init(fd_row *row, fd_variant variant, int strategy)
{
  memset(row, 0, sizeof *row);
  row->variant = variant;
  row->strategy = strategy;
  row->worst.guards_ok = 1;
  row->identity_ok = 1;
}

void fd_row_add(fd_row *row, const fd_run *run, const fd_residual *resid)
{
  if (row->runs < FD_MAX_REPS) {
    row->time_s[row->runs] = run->time_s;
    row->energy_j[row->runs] = run->energy_j;
  }
  row->runs++;
  for (int r = 0; r < FD_ROUTINES; r++)
    row->calls[r] += run->calls[r], row->engine[r] += run->engine[r];
  row->switches += run->switches;
  row->skipped += run->skipped;
  row->held += run->held;
  row->identity_ok &= run->identity_ok;
  if (run->info && !row->info)
    row->info = run->info;
  row->worst = fd_residual_worst(&row->worst, resid);
}

int fd_row_passes(const fd_row *row)
{
  return row->runs > 0 && !row->info && row->identity_ok && fd_residual_passes(&row->worst);
}

void fd_print_header(const fd_options *o, int ranks)
{
  hpd_dvfs_info dvfs;
  hpd_energy_info energy;
  hpd_get_dvfs_info(&dvfs);
  hpd_get_energy_info(&energy);
  printf("# factor_driver: hpdaemon %s, N=%d NB=%d, grid %dx%d (%d ranks), threshold %g, "
         "%d run(s) per row (medians per run)\n",
         HPD_VERSION_STRING, o->n, o->nb, o->p, o->q, ranks, o->threshold, o->reps);
  char rule[48];
  printf("# DVFS: %s backend (%s), switch min %s\n", hpd_dvfs_name(dvfs.backend),
         bench_dvfs_how(dvfs.backend, dvfs.applied), bench_switch_rule(rule, sizeof rule));
  printf("# energy: %s", hpd_energy_source_name(energy.source));
  if (energy.source == HPD_SOURCE_MODELED)
    printf(" (no meter here: the power model's figures, %s, not measurements)", energy.model);
  else if (energy.source == HPD_SOURCE_MEASURED)
    printf(" (%s meter)", hpd_energy_name(energy.meter));
  else if (energy.source == HPD_SOURCE_SIMULATED)
    printf(" (the simulated platform's joules, not measurements)");
  printf("\n# pdgemm, pdsyrk, factor (the row's pdgetrf or pdpotrf itself): calls per run served by hpdaemon's engine (fewest of any rank) /"
         " calls that reached hpdaemon (most of any rank)\n"
         "# switches, skipped, held (requests daemon's switch rule held back): per run, most "
         "of any rank; energy_J: all ranks together; time_s: the factorization alone, "
         "slowest rank\n"
         "# resid_I: ||A - P*L*U|| / (||A|| N eps) (LU), ||A - L*L'|| or ||A - U'*U|| "
         "(Cholesky), infinity norm as ScaLAPACK's testers; resid_1: the 1-norm; worst run;\n"
         "#   check ok: both <= %g (the testers' threshold), info 0, guard zones intact, "
         "switch requests as the strategy promises\n",
         FD_RESID_THRESHOLD);
  printf("%-8s %-4s %-8s %9s %11s %11s %7s %8s %7s %7s %10s %-8s %9s %9s %s\n", "factor",
         "uplo", "strategy", "time_s", "pdgemm", "pdsyrk", "factor", "switches", "skipped", "held",
         "energy_J", "source", "resid_I", "resid_1", "check");
}

/* engine/calls per run. */
static const char *served(char *out, size_t len, const fd_row *row, int r)
{
  double runs = row->runs ? row->runs : 1;
  snprintf(out, len, "%.0f/%.0f", row->engine[r] / runs, row->calls[r] / runs);
  return out;
}

void fd_print_row(const fd_row *row, int source)
{
  char gemm[32], syrk[32], potrf[32], energy[32] = "-", check[32] = "ok";
  int runs = row->runs < FD_MAX_REPS ? row->runs : FD_MAX_REPS;
  double per_run = row->runs ? row->runs : 1;
  if (source != HPD_SOURCE_NONE) /* HPD_ENERGY=none: no figure rather than a false 0 */
    snprintf(energy, sizeof energy, "%.3f", bench_median(row->energy_j, runs));
  if (row->info)
    snprintf(check, sizeof check, "FAIL(info=%d)", row->info);
  else if (!row->worst.guards_ok)
    snprintf(check, sizeof check, "FAIL(guard)");
  else if (!row->identity_ok)
    snprintf(check, sizeof check, "FAIL(switches)");
  else if (!fd_residual_passes(&row->worst))
    snprintf(check, sizeof check, "FAIL");
  printf("%-8s %-4c %-8s %9.4f %11s %11s %7s %8.0f %7.0f %7.0f %10s %-8s %9.3g %9.3g %s\n",
         fd_factor_name(row->variant.factor), row->variant.uplo,
         hpd_strategy_name(row->strategy), bench_median(row->time_s, runs),
         served(gemm, sizeof gemm, row, 0), served(syrk, sizeof syrk, row, 1),
         served(potrf, sizeof potrf, row, row->variant.factor == FD_LU ? 3 : 2),
         row->switches / per_run, row->skipped / per_run, row->held / per_run, energy,
         hpd_energy_source_name(source), row->worst.inf, row->worst.one, check);
}
