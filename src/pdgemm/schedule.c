#include "pdgemm/schedule.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bcast/wait.h"
#include "core/config.h"
#include "dvfs/dvfs.h"
#include "energy/energy.h"
#include "pdgemm/schedule_history.h"
#include "phase/phase.h"

enum { DAEMON = 0, OVERLAP = 1 };

static int class_of(double volume)
{
  int c = volume > 1.0 ? (int)(log2(volume) / 2.0) : 0;
  return c < HPD_SCHEDULE_CLASSES ? c : HPD_SCHEDULE_CLASSES - 1;
}

/* The class nearest to cls that has seen calls (the smaller one on a tie), or -1. */
static int nearest_seen(const int *calls, int cls)
{
  for (int d = 0; d < HPD_SCHEDULE_CLASSES; d++) {
    if (cls - d >= 0 && calls[cls - d])
      return cls - d;
    if (cls + d < HPD_SCHEDULE_CLASSES && calls[cls + d])
      return cls + d;
  }
  return -1;
}

static hpd_schedule_history *history_of(const hpd_grid *grid)
{
  return hpd_grid_state(grid, HPD_GRID_SCHEDULES, sizeof(hpd_schedule_history));
}

/* One more observation of a figure (see schedule_history.h); none is taken where the
 * call gave nothing to divide by. */
static void follow(double *figure, double num, double den, int first)
{
  if (!(den > 0.0) || !(num >= 0.0))
    return;
  double seen = num / den;
  if (first || seen < *figure)
    *figure = seen;
  else
    *figure += 0.25 * (seen - *figure);
}

/* This rank's T_b and T_m for work at the rates daemon showed in d. */
static void predict_phases(const hpd_daemon_seen *d, const hpd_schedule_work *work,
                           double *bcast_s, double *multiply_s)
{
  *bcast_s = work->bytes * d->bcast_s_per_byte;
  *multiply_s = work->flops * d->multiply_s_per_flop;
}

/* This rank's predicted seconds and modeled joules of both schedules. */
typedef struct prediction {
  double bcast_s, multiply_s;
  double time_s[2], joules[2];
} prediction;

static void predict(const hpd_schedule_history *h, const hpd_schedule_work *work,
                    prediction *p)
{
  int cls = class_of(work->volume);
  const hpd_daemon_seen *d = &h->daemon[nearest_seen(h->daemon_calls, cls)];
  const hpd_overlap_seen *o = &h->overlap[nearest_seen(h->overlap_calls, cls)];
  predict_phases(d, work, &p->bcast_s, &p->multiply_s);
  double tb = p->bcast_s, tm = p->multiply_s;
  p->time_s[DAEMON] = (tb + tm) * d->wall_over_phases;
  p->time_s[OVERLAP] = fmax(tb, tm) * (o->wall_over_base > 0.0 ? o->wall_over_base : 1.0);

  unsigned low_khz, high_khz;
  hpd_dvfs_levels(&low_khz, &high_khz);
  int switches = work->daemon_groups > 0 &&
                 hpd_phase_pays(HPD_STRATEGY_DAEMON,
                                 (size_t)(work->bytes / work->daemon_groups));
  hpd_phase_time daemon[2] = {
      {switches ? low_khz : high_khz, d->bcast_busy * tb, (1.0 - d->bcast_busy) * tb},
      {high_khz, fmax(0.0, p->time_s[DAEMON] - tb), 0.0}};
  p->joules[DAEMON] =
      hpd_energy_predict_j(daemon, 2, switches ? 2 * (uint64_t)work->daemon_groups : 0);
  hpd_phase_time overlap = {high_khz, o->busy * p->time_s[OVERLAP],
                            (1.0 - o->busy) * p->time_s[OVERLAP]};
  p->joules[OVERLAP] = hpd_energy_predict_j(&overlap, 1, 0);
}

/* The grid's figures: the slowest rank's seconds, the sum of the ranks' joules.  The
 * decision must come out the same on every rank, which a floating-point sum, added in a
 * different order on each, does not promise; whole nanoseconds and microjoules do. */
enum { FIGURES = 4 };

static void max_and_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
  (void)type;
  const int64_t *a = in;
  int64_t *b = inout;
  for (int i = 0; i + FIGURES <= *len; i += FIGURES) {
    for (int s = 0; s < 2; s++) {
      b[i + s] = a[i + s] > b[i + s] ? a[i + s] : b[i + s];
      b[i + 2 + s] += a[i + 2 + s];
    }
  }
}

static void grid_figures(MPI_Comm comm, const prediction *mine, double time_s[2],
                         double joules[2])
{
  static MPI_Op op = MPI_OP_NULL;
  if (op == MPI_OP_NULL)
    MPI_Op_create(max_and_sum, 1, &op);
  int64_t local[FIGURES], grid[FIGURES];
  for (int s = 0; s < 2; s++) {
    local[s] = llround(fmin(mine->time_s[s], 1e9) * 1e9);
    local[2 + s] = llround(fmin(mine->joules[s], 1e9) * 1e6);
  }
  hpd_wait_allreduce(local, grid, FIGURES, MPI_INT64_T, op, comm);
  for (int s = 0; s < 2; s++) {
    time_s[s] = (double)grid[s] * 1e-9;
    joules[s] = (double)grid[2 + s] * 1e-6;
  }
}

/* 1 when the schedule the rule took in class cls has been taken long enough that the
 * other should run once instead.  Every rank sees the same decisions, so the same
 * counts. */
static int put_to_test(hpd_schedule_history *h, int cls, int taken)
{
  if (h->probe_gap[cls] == 0 || taken != h->taken_last[cls]) {
    h->probe_gap[cls] = HPD_SCHEDULE_PROBE_FIRST;
    h->taken_last[cls] = taken;
    h->streak[cls] = 0;
  }
  if (++h->streak[cls] <= h->probe_gap[cls])
    return 0;
  h->streak[cls] = 0;
  if (h->probe_gap[cls] < HPD_SCHEDULE_PROBE_LAST)
    h->probe_gap[cls] *= 2;
  return 1;
}

/* Daemon's figures in class cls where no daemon call was seen but an overlap call was
 * and every link of the call has shown its rate: the bounds a daemon call cannot beat,
 * its broadcasts at the links' fastest rate and its multiply at overlap's rate.
 * Collective over grid->comm: one line of the grid may know its link's rate while
 * another does not. */
static int model_daemon(const hpd_grid *grid, hpd_schedule_history *h, int cls,
                        const hpd_schedule_work *work)
{
  const hpd_overlap_seen *o = &h->overlap[nearest_seen(h->overlap_calls, cls)];
  int mine = work->least_link_s > 0.0 && work->bytes > 0.0 && o->multiply_s_per_flop > 0.0;
  int all = 0;
  hpd_wait_allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, grid->comm);
  if (!all)
    return 0;
  h->daemon[cls] = (hpd_daemon_seen){.bcast_s_per_byte = work->least_link_s / work->bytes,
                                     .bcast_busy = 1.0,
                                     .multiply_s_per_flop = o->multiply_s_per_flop,
                                     .wall_over_phases = 1.0};
  h->daemon_calls[cls] = 1;
  h->daemon_modeled[cls] = 1;
  return 1;
}

/* overlap's wall over its base from the call that ran before daemon's figures existed,
 * once they do.  That call was a grid's first, so its one-time costs count against
 * overlap: a ratio too high is lowered by the next overlap call (a faster observation is
 * taken at once), one too low, which would keep running a schedule that loses, cannot
 * come from it.  Without it the prediction would take overlap as perfect and run it
 * again where its broadcasts crawl. */
static void set_unset_call(hpd_schedule_history *h, int cls)
{
  int o_cls = nearest_seen(h->overlap_calls, cls), d_cls = nearest_seen(h->daemon_calls, cls);
  if (o_cls < 0 || d_cls < 0)
    return;
  hpd_overlap_seen *o = &h->overlap[o_cls];
  if (!(o->unset_wall_s > 0.0))
    return;
  hpd_schedule_work then = {.bytes = o->unset_bytes, .flops = o->unset_flops};
  double tb, tm;
  predict_phases(&h->daemon[d_cls], &then, &tb, &tm);
  if (!(o->wall_over_base > 0.0))
    follow(&o->wall_over_base, o->unset_wall_s, fmax(tb, tm), 1);
  o->unset_wall_s = 0.0;
}

hpd_strategy hpd_schedule_choose(const hpd_grid *grid, const hpd_schedule_work *work,
                                 hpd_auto_call *decision)
{
  memset(decision, 0, sizeof *decision);
  if (work->long_lines) {
    int crawls = 0;
    hpd_wait_allreduce(&work->crawls, &crawls, 1, MPI_INT, MPI_MAX, grid->comm);
    if (crawls) {
      decision->reason = HPD_AUTO_ONLY_IN_BUDGET;
      return HPD_STRATEGY_DAEMON;
    }
  }
  hpd_schedule_history *h = history_of(grid);
  int cls = class_of(work->volume);
  decision->reason = HPD_AUTO_LEARNING;
  int overlap_seen = nearest_seen(h->overlap_calls, cls) >= 0;
  if (nearest_seen(h->daemon_calls, cls) < 0 &&
      (overlap_seen ? !model_daemon(grid, h, cls, work) : grid->nodes == 1))
    return HPD_STRATEGY_DAEMON;
  if (!overlap_seen) {
    decision->overlap = 1;
    return HPD_STRATEGY_OVERLAP;
  }

  set_unset_call(h, cls);
  prediction mine;
  predict(h, work, &mine);
  decision->broadcast_s = mine.bcast_s;
  decision->multiply_s = mine.multiply_s;
  for (int s = 0; s < 2; s++)
    decision->own_j[s] = mine.joules[s];
  grid_figures(grid->comm, &mine, decision->predicted_s, decision->predicted_j);

  const double *t = decision->predicted_s, *e = decision->predicted_j;
  double budget = fmin(t[DAEMON], t[OVERLAP]) * (1.0 + hpd_config_get()->max_slowdown);
  int thriftier = e[OVERLAP] < e[DAEMON] ? OVERLAP : DAEMON;
  int taken = t[thriftier] <= budget ? thriftier : !thriftier;
  decision->reason = taken == thriftier ? HPD_AUTO_LEAST_ENERGY : HPD_AUTO_ONLY_IN_BUDGET;
  if (put_to_test(h, cls, taken) &&
      t[!taken] <= t[taken] * (1.0 + HPD_SCHEDULE_PROBE_WITHIN)) {
    taken = !taken;
    decision->reason = HPD_AUTO_LEARNING;
  }
  decision->overlap = taken == OVERLAP;
  return taken == OVERLAP ? HPD_STRATEGY_OVERLAP : HPD_STRATEGY_DAEMON;
}

void hpd_schedule_learn(const hpd_grid *grid, const hpd_schedule_work *work,
                        hpd_strategy strategy, const hpd_energy_sample *call,
                        double bcast_busy_share)
{
  hpd_schedule_history *h = history_of(grid);
  int cls = class_of(work->volume);
  if (strategy == HPD_STRATEGY_DAEMON) {
    hpd_daemon_seen *d = &h->daemon[cls];
    int first = h->daemon_calls[cls]++ == 0 || h->daemon_modeled[cls];
    h->daemon_modeled[cls] = 0;
    if (first) /* a figure the call cannot give stays as the neutral guess */
      *d = (hpd_daemon_seen){.bcast_busy = 1.0, .wall_over_phases = 1.0};
    follow(&d->bcast_s_per_byte, call->broadcast_s, work->bytes, first);
    follow(&d->bcast_busy, fmin(1.0, fmax(0.0, bcast_busy_share)), 1.0, first);
    follow(&d->multiply_s_per_flop, call->multiply_s, work->flops, first);
    follow(&d->wall_over_phases, call->wall_s, call->broadcast_s + call->multiply_s, first);
    return;
  }
  /* Counted even where nothing could be learned, so that every rank's counts, which
   * decide the learning calls, stay the same. */
  hpd_overlap_seen *o = &h->overlap[cls];
  int first = h->overlap_calls[cls]++ == 0;
  if (first)
    *o = (hpd_overlap_seen){.busy = 1.0}; /* wall_over_base 0: not seen yet */
  follow(&o->multiply_s_per_flop, call->multiply_s, work->flops, first);
  int daemon_seen = nearest_seen(h->daemon_calls, cls);
  follow(&o->busy, fmin(call->cpu_s, call->wall_s), call->wall_s, first);
  if (daemon_seen < 0) {
    o->unset_wall_s = call->wall_s;
    o->unset_bytes = work->bytes;
    o->unset_flops = work->flops;
    return;
  }
  double tb, tm;
  predict_phases(&h->daemon[daemon_seen], work, &tb, &tm);
  follow(&o->wall_over_base, call->wall_s, fmax(tb, tm), !(o->wall_over_base > 0.0));
}
