#include "pblas/dispatch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bcast/bcast.h"
#include "bcast/tune_table.h"
#include "bcast/wait.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/costs.h"
#include "core/stats.h"
#include "pblas/link_floor.h"
#include "pblas/predict.h"

/* A class's engine calls after its first, while each gains more than a tenth on the one
 * before: buffers, shared windows and their pages are set up over more than one call, and
 * the engine's figure must be what later calls take. */
#define WARM_CALLS 3
#define WARMING 0.9
/* Classes per grid.  A table that fills up sends new classes to the engine, as before
 * there was a dispatch rule; it fills alike on every rank of the grid. */
#define CLASS_SLOTS 256
#define CLASS_LIMIT (CLASS_SLOTS * 3 / 4)
/* A calibration's rounds; two settle it where the sides are apart by more than CLOSE,
 * one where they are apart by more than CLEAR: a second round would only cost the
 * slower side's calls again. */
#define ROUNDS 3
#define CLOSE 1.10
#define CLEAR 1.25
/* Calls per side in a round: a program repeats a size in runs, and the reference warms
 * up over its first few calls of a size (pdtrsm 128 x 128 on 2x1: 217, 171, 149, 118,
 * then 104 us, 88 us in steady state); calls alternating one by one run on caches the
 * other side filled.  Above SHORT_CALL_S one call per side says enough. */
#define SHORT_RUN 4
#define SHORT_CALL_S 10e-3
/* The engine must beat the reference's median call by this much: a near tie goes to the
 * reference, which is never slower than itself.  Calls under TINY_CALL_S are timed one
 * by one while a program's run of them overlaps one call's end with the next one's
 * start, the reference's more than the engine's (pdgemm 47 x 47 x 47 on 1x2 calibrated at
 * 23.5 us for the engine against 24.8 for the reference, then ran at 17 against 13), so
 * there the engine must win by a quarter. */
#define ENGINE_MARGIN 1.05
#define TINY_CALL_S 200e-6
#define TINY_MARGIN 1.25
#define SAMPLES (ROUNDS * SHORT_RUN)
/* A class on the engine is watched over runs of this many calls; one whose best call of
 * a run is slower than the reference's figure by SLOWER goes back to the reference. */
#define WATCH_CALLS 32
#define SLOWER 1.25
/* A close class asks whether a round of calibration is affordable at its 1st, 2nd, 4th
 * ... 64th call on the reference, then every 64th: one allreduce each time. */
#define ASK_EVERY 64
/* Before its route is settled, a 2-D class measures its links' rate with a probe of
 * three broadcasts of a panel (bcast.h) only where its calls move at least this many
 * panels along K: below it the probe would cost more than a quarter of the call's own
 * broadcasts, and a call that short gains little from the rate (a 2-D factorization's
 * level-3 calls move one panel each, dozens of classes in its first call). */
#define PROBE_PANELS 12

typedef enum class_state {
  STATE_NEW = 0,     /* no call yet */
  STATE_WARMING,     /* its engine calls are still getting faster */
  STATE_ENGINE,      /* settled on the engine, watched */
  STATE_REFERENCE,   /* settled on the reference by calibration */
  STATE_CLOSE,       /* on its leader until its calibration is affordable */
  STATE_CALIBRATING, /* rounds of reference and engine calls */
} class_state;

typedef struct hpd_route_class {
  uint32_t key; /* 0: an empty slot */
  char name[HPD_TUNE_KEY_MAX]; /* the class's verdict in the tune file (tune_table.h) */
  hpd_routine routine;
  struct hpd_route_table *table;
  class_state state;
  /* The grid's figures: the slowest rank's seconds per call on each side (the
   * reference's is its bound until calibration measures it). */
  double engine_s, reference_s;
  double first_s;           /* this rank's first engine call */
  hpd_reference_plan plan;  /* the reference's bound, from the first call (predict.h) */
  double margin;            /* by which the engine must beat the bound (predict.h) */
  int warm_calls;          /* engine calls after the first */
  double last_s;           /* the grid's figure for the latest of them */
  double opened_s; /* 2-D grids: the grid's figure for the reference call it opened on */
  int waiting;  /* calls since the class became close */
  int measured; /* reference_s is the median of reference calls, not the bound */
  /* calibration */
  int rounds, run, turn_left;
  hpd_route turn;
  double sample[2][SAMPLES]; /* this rank's engine and reference calls, in seconds */
  int samples[2];
  /* watching */
  int watched;
  double window_best; /* this rank's best call of the current run, or -1 */
} hpd_route_class;

struct hpd_route_table {
  hpd_route_class slot[CLASS_SLOTS];
  int used;
  double spent_s[HPD_ROUTINES_MAX]; /* this rank's seconds in the classes' calls */
  double lost_s[HPD_ROUTINES_MAX];  /* the grid's: calibration calls on the slower side */
};

/* Of M*N*K, 1 to 93: the product can exceed 64 bits. */
static int octave_of(const hpd_call *call)
{
  int octave = 0;
  frexp((double)call->m * (double)call->n * (double)call->k, &octave);
  return octave;
}

/* The strategy is part of the class: the engine's time depends on it (on a network,
 * overlap can win where daemon's phases in turn lose). */
static uint32_t class_key(const hpd_call *call, hpd_routine routine, const hpd_grid *grid)
{
  int uplo = call->uplo == 'U' ? 1 : call->uplo == 'L' ? 2 : 0;
  int letters =
      (((int)routine * 2 + (call->transa == 'T')) * 2 + (call->transb == 'T')) * 3 + uplo;
  int family = letters * HPD_STRATEGIES + (int)hpd_grid_strategy(grid);
  return 1u + (uint32_t)family * 128u + (uint32_t)octave_of(call); /* never 0 */
}

/* The class's name in the tune file: what class_key holds, the grid's shape and nodes,
 * and the library's version, since a verdict on another version's engine says nothing
 * of this one's. */
static void class_name(const hpd_call *call, hpd_routine routine, const hpd_grid *grid,
                       char *name, size_t size)
{
  snprintf(name, size, "%s/%dx%d/h%d/%s/%c%c%c/%s/o%d", HPD_VERSION_STRING, grid->nprow,
           grid->npcol, grid->nodes, hpd_routine_name(routine),
           call->transa == 'T' ? 'T' : 'N', call->transb == 'T' ? 'T' : 'N',
           call->uplo == 'U' || call->uplo == 'L' ? call->uplo : '-',
           hpd_strategy_name(hpd_grid_strategy(grid)), octave_of(call));
}

/* Rank 0 of the grid keeps the verdicts (tune_table.h): it alone reads them back. */
static int keeps_verdicts(const hpd_grid *grid)
{
  int rank = 0;
  MPI_Comm_rank(grid->comm, &rank);
  return rank == 0;
}

/* Keeps the class's route with its figures (HPD_TUNE_CLOSE: measured on both sides by a
 * round of calibration, not settled), or forgets it where route is negative. */
static void keep_verdict(const hpd_grid *grid, const hpd_route_class *cls, int route)
{
  if (!keeps_verdicts(grid))
    return;
  hpd_tune_verdict verdict = {(hpd_tune_route)route, cls->engine_s, cls->reference_s};
  hpd_tune_table_store_verdict(cls->name, route < 0 ? NULL : &verdict);
}

/* A new class takes the verdict that rank 0 of the grid knows, from an earlier grid of
 * this shape in this run or from the tune file: a class settled once is not timed again,
 * and one a round left close skips its engine warm-up.  Collective over the grid. */
static void restore_verdict(const hpd_grid *grid, hpd_route_class *cls)
{
  hpd_tune_verdict verdict;
  double known[3] = {-1.0, 0.0, 0.0};
  if (keeps_verdicts(grid) && hpd_tune_table_lookup_verdict(cls->name, &verdict))
    known[0] = verdict.route, known[1] = verdict.engine_s, known[2] = verdict.reference_s;
  hpd_wait_bcast(known, 3, MPI_DOUBLE, 0, grid->comm);
  if (known[0] < 0.0)
    return;
  /* A close class waits on its leader for an affordable round, as one that has just
   * ended its first round unsettled: never an engine call that its figures do not pay. */
  cls->state = known[0] == HPD_TUNE_ENGINE      ? STATE_ENGINE
               : known[0] == HPD_TUNE_REFERENCE ? STATE_REFERENCE
                                                : STATE_CLOSE;
  cls->engine_s = known[1];
  cls->reference_s = known[2];
  cls->measured = cls->state == STATE_CLOSE; /* kept close only after a round */
  cls->watched = 0;
  cls->window_best = -1.0;
}

static struct hpd_route_table *table_of(const hpd_grid *grid)
{
  return hpd_grid_state(grid, HPD_GRID_ROUTES, sizeof(struct hpd_route_table));
}

/* The class's slot, made on first sight where make is set; NULL when the table is full
 * (or, without make, when the class has not been seen). */
static hpd_route_class *find_class(struct hpd_route_table *table, uint32_t key,
                                   hpd_routine routine, int make)
{
  unsigned i = (unsigned)((key * 2654435761u) >> 24) % CLASS_SLOTS;
  for (;; i = (i + 1) % CLASS_SLOTS) {
    hpd_route_class *cls = &table->slot[i];
    if (cls->key == key)
      return cls;
    if (cls->key == 0) {
      if (!make || table->used >= CLASS_LIMIT)
        return NULL;
      table->used++;
      *cls = (hpd_route_class){.key = key, .routine = routine, .table = table};
      return cls;
    }
  }
}

/* The engine's lead grows with a call's size: a new class whose calls of the next octave
 * up (the same routine, letters and strategy on this grid) settled on the reference
 * starts close with that class's figures halved, so on the reference until a round of
 * calibration is affordable, instead of warming up on an engine that lost the larger
 * calls. */
static void follow_larger(hpd_route_class *cls)
{
  const hpd_route_class *larger = find_class(cls->table, cls->key + 1, cls->routine, 0);
  if (!larger || larger->state != STATE_REFERENCE)
    return;
  cls->state = STATE_CLOSE;
  cls->engine_s = larger->engine_s / 2.0;
  cls->reference_s = larger->reference_s / 2.0;
}

/* Each figure becomes the largest any rank of the grid has. */
static void slowest(const hpd_grid *grid, double *figures, int count)
{
  double cost = hpd_cost_begin(HPD_COST_AGREEMENT);
  hpd_wait_allreduce(MPI_IN_PLACE, figures, count, MPI_DOUBLE, MPI_MAX, grid->comm);
  hpd_cost_end(HPD_COST_AGREEMENT, cost);
}

static int run_of(const hpd_route_class *cls)
{
  return fmax(cls->engine_s, cls->reference_s) < SHORT_CALL_S ? SHORT_RUN : 1;
}

/* A round of calibration from its start; a calibration paused between rounds keeps the
 * rounds it has. */
static void start_round(hpd_route_class *cls)
{
  cls->state = STATE_CALIBRATING;
  if (cls->rounds == 0)
    cls->samples[0] = cls->samples[1] = 0;
  cls->run = cls->turn_left = run_of(cls);
  cls->turn = HPD_ROUTE_REFERENCE; /* the engine is warm already */
}

/* By how much the engine must beat the reference's figure to take a class. */
static double settling_margin(double reference_s)
{
  return reference_s < TINY_CALL_S ? TINY_MARGIN : ENGINE_MARGIN;
}

/* The side a close class waits on until its next round: the one its figures favour, the
 * engine only where a round measured the reference and the engine beat it by the margin
 * that would settle the class on it.  The bound alone is not trusted: over a network
 * PBLAS's messages overlap its updates and beat it (predict.h). */
static hpd_route leader(const hpd_route_class *cls)
{
  return cls->measured && cls->engine_s * settling_margin(cls->reference_s) < cls->reference_s
             ? HPD_ROUTE_ENGINE
             : HPD_ROUTE_REFERENCE;
}

/* Whether a close class may take a round of calibration now: what the round is predicted
 * to lose (each call on the slower side loses the difference of the figures; a tenth of
 * a call at least, since before a round has run the reference's figure is only a bound),
 * added to what calibrations have lost, within HPD_CALIBRATION of the grid's time in the
 * routine.  Collective over the grid. */
static int affordable(const hpd_grid *grid, const hpd_route_class *cls)
{
  double fraction = hpd_config_get()->calibration;
  if (!(fraction > 0.0))
    return 0;
  double spent = cls->table->spent_s[cls->routine];
  slowest(grid, &spent, 1);
  double per_call = fmax(fabs(cls->engine_s - cls->reference_s),
                         0.1 * fmax(cls->engine_s, cls->reference_s));
  double predicted = run_of(cls) * per_call;
  return cls->table->lost_s[cls->routine] + predicted <= fraction * spent;
}

/* Whether the grid has more than one process row and column. */
static int two_dimensional(const hpd_grid *grid)
{
  return grid && grid->nprow > 1 && grid->npcol > 1;
}

/* The panels a call's K is cut into: A's blocks along K. */
static int64_t panels_along_k(const hpd_call *call)
{
  int kb = call->A.desc[call->transa == 'N' ? HPD_NB : HPD_MB];
  return kb > 0 ? ((int64_t)call->k + kb - 1) / kb : 1;
}

static int asks_now(int waiting)
{
  return waiting <= ASK_EVERY ? (waiting & (waiting - 1)) == 0 : waiting % ASK_EVERY == 0;
}

/* A class's first call plans the reference's bound (predict.h) and, where the bound can
 * decide, times its links, a few whole panels: before the engine runs, so that its first
 * call already knows the links' rate.  Level 3's streams size their messages by it
 * (stream.h): without it they went in the least messages, and across two hosts at 10
 * Gbit/s pdtrsm's first call of order 4096 on 1 x 2 took 1.14 s against 0.57 s for the
 * next.  The auto schedule's next call needs it to model daemon (schedule.h); without
 * one it would run daemon to learn it (across two hosts, order 2048: a second call of
 * 0.35 s against 0.22 s). */
static void plan_first(const hpd_call *call, hpd_routine routine, hpd_trial trial,
                       hpd_dispatch_ticket *ticket)
{
  /* On a 2-D grid the plan bounds nothing but the links (predict.h): a call served as
   * pdgemm's multiplies plans pdgemm's panels, as many times. */
  int multiplies = trial == HPD_TRIAL_AS_PDGEMM ? 1 : trial == HPD_TRIAL_AS_TWO_PDGEMMS ? 2 : 0;
  ticket->cls->plan = hpd_predict_plan(call, multiplies ? HPD_ROUTINE_PDGEMM : routine);
  if (multiplies) {
    ticket->cls->plan.row_bytes *= multiplies;
    ticket->cls->plan.col_bytes *= multiplies;
  }
  ticket->cls->margin = hpd_predict_margin(call, routine);
  if (isfinite(ticket->cls->margin))
    hpd_predict_measure_links(&ticket->cls->plan, ticket->grid);
}

/* Leaves a class opened on the reference close, with engine_s as the engine's figure
 * until a round measures it: on the reference until that round is affordable. */
static void hold(hpd_route_class *cls, double engine_s)
{
  cls->state = STATE_CLOSE;
  cls->engine_s = engine_s;
  cls->reference_s = cls->opened_s;
  cls->measured = 0;
  cls->waiting = cls->rounds = 0;
}

/* The engine's figure of a class held without a trial, in opening calls (below). */
#define BUDGETED_TRIAL 2.0

/* A class the links' floor judges, on a grid that spans nodes, whose calls move too few
 * panels to probe the links: no floor can hold its trial, and on such short calls the
 * engine's own costs of a first call weigh most (simulated, 8x8 across Gigabit Ethernet:
 * pdgemm's trials at order 256 and 512 ran at 0.72 and 0.86 of the opening call's
 * speed, pdtrsm's block solve at 0.56 and 0.59; timing/notes/2026-12-06.md).  It waits
 * close on the reference as a class without a trial does (below), and a round of
 * calibration tries the engine once the budget can pay it. */
static int short_holds_trial(const hpd_dispatch_ticket *ticket)
{
  if (ticket->grid->link_nodes < 2)
    return 0;
  hold(ticket->cls, BUDGETED_TRIAL * ticket->cls->opened_s);
  return 1;
}

/* Whether the links leave a class opened on the reference no room for its trial.  The
 * least time its panels take to reach the nodes (link_floor.h) bounds both sides; the
 * engine's trials have run at 1.23 to 2.15 times that floor, so where the opening call
 * came within TRIAL_FLOOR of it a trial may lose: of six trials measured there
 * (simulated, 1.55 to 1.83 times the floor) four lost (0.82 to 0.94 of the opening call)
 * and two won (1.22 and 1.24), while at twice the floor and above all thirteen won
 * (1.035 to 2.24; timing/notes/2026-12-06.md).  A held class loses little: it waits
 * close on the reference, as after a trial that lost, and a round of calibration, paid
 * from the budget, still tries the engine when it is affordable.  Only pdgemm's panels
 * (a call served as pdgemm's multiplies, hpd_trial, plans them too) are the plan's whole
 * traffic for the engine too, and only a call that moves enough
 * panels to probe pays the links' probe (collective over the grid).  The figures are a
 * bound, not a round's: they are not kept in the tune file. */
#define TRIAL_FLOOR 2.0
static int links_hold_trial(const hpd_dispatch_ticket *ticket, hpd_trial trial)
{
  hpd_route_class *cls = ticket->cls;
  if (!(cls->opened_s > 0.0) ||
      (cls->routine != HPD_ROUTINE_PDGEMM && trial != HPD_TRIAL_AS_PDGEMM &&
       trial != HPD_TRIAL_AS_TWO_PDGEMMS))
    return 0;
  if (!ticket->probes)
    return short_holds_trial(ticket);
  double floor = hpd_link_floor_s(&cls->plan, ticket->grid);
  if (!(floor * TRIAL_FLOOR > cls->opened_s))
    return 0;
  hold(cls, floor);
  return 1;
}

/* A class opened on the reference whose caller does not expect its engine to win on the
 * grid (HPD_TRIAL_FROM_BUDGET) makes no trial: it waits close on the reference, and a
 * round of calibration tries the engine once the budget can pay it.  Its engine's figure
 * until then is BUDGETED_TRIAL times the opening call's, so that the round is predicted
 * to lose a whole call on each of its engine calls (the trials that made callers ask for
 * this lost 0.02 to 4.6 calls each, timing/notes/2026-12-06.md), and is affordable only
 * where the budget can pay that. */
static int budget_holds_trial(const hpd_dispatch_ticket *ticket, hpd_trial trial)
{
  hpd_route_class *cls = ticket->cls;
  if (trial != HPD_TRIAL_FROM_BUDGET || !(cls->opened_s > 0.0))
    return 0;
  hold(cls, BUDGETED_TRIAL * cls->opened_s);
  return 1;
}

hpd_route hpd_dispatch_route(const hpd_call *call, hpd_routine routine, int local,
                             hpd_trial trial, hpd_dispatch_ticket *ticket)
{
  *ticket = (hpd_dispatch_ticket){.one_off_before_s = hpd_costs_one_off_s()};
  if (hpd_config_get()->dispatch == HPD_DISPATCH_ENGINE || call->myrow < 0 ||
      call->mycol < 0)
    return HPD_ROUTE_ENGINE;
  if (call->m == 0 || call->n == 0 || call->k == 0 || call->alpha == 0.0)
    return HPD_ROUTE_ENGINE; /* the engine's local scaling, nothing to learn */
  if (local)
    return ticket->route = HPD_ROUTE_LOCAL;
  const hpd_grid *grid =
      hpd_grid_get(call->ictxt, call->nprow, call->npcol, call->myrow, call->mycol);
  ticket->grid = grid; /* the engine need not look it up again */
  struct hpd_route_table *table = grid ? table_of(grid) : NULL;
  hpd_route_class *cls =
      table ? find_class(table, class_key(call, routine, grid), routine, 1) : NULL;
  if (!cls)
    return HPD_ROUTE_ENGINE;
  ticket->cls = cls;
  ticket->probes = two_dimensional(grid) && panels_along_k(call) >= PROBE_PANELS;
  if (cls->state == STATE_NEW && !cls->name[0]) {
    /* Looked up at the class's first call only: a 2-D class is still new at its second
     * call, after its opening call, and the lookup would cost the grid a broadcast. */
    class_name(call, routine, grid, cls->name, sizeof cls->name);
    restore_verdict(grid, cls);
  }
  if (cls->state == STATE_NEW)
    follow_larger(cls);
  switch (cls->state) {
  case STATE_NEW:
    if (two_dimensional(grid) && !(cls->opened_s > 0.0)) {
      /* No bound says what the reference takes on a 2-D grid (predict.h), and where
       * its blocks are small the engine's first calls lost up to four to one: the class
       * opens on the reference, and the engine's calls are held against it. */
      ticket->calibrating = ticket->opening = 1;
      return ticket->route = HPD_ROUTE_REFERENCE;
    }
    plan_first(call, routine, trial, ticket);
    if (budget_holds_trial(ticket, trial) || links_hold_trial(ticket, trial)) {
      ticket->calibrating = 1;
      return ticket->route = HPD_ROUTE_REFERENCE;
    }
    ticket->calibrating = ticket->first = 1;
    return ticket->route = HPD_ROUTE_ENGINE;
  case STATE_WARMING:
    ticket->calibrating = ticket->warming = 1;
    return ticket->route = HPD_ROUTE_ENGINE;
  case STATE_ENGINE:
    ticket->watching = 1;
    return ticket->route = HPD_ROUTE_ENGINE;
  case STATE_REFERENCE:
    return ticket->route = HPD_ROUTE_REFERENCE;
  case STATE_CLOSE:
    ticket->calibrating = 1;
    cls->waiting++;
    if (!asks_now(cls->waiting) || !affordable(grid, cls))
      return ticket->route = leader(cls);
    start_round(cls);
    break;
  case STATE_CALIBRATING:
    /* Every round after the first must be affordable, now that the last one showed what a
     * round loses. */
    if (cls->rounds > 0 && cls->turn == HPD_ROUTE_REFERENCE && cls->turn_left == cls->run &&
        !affordable(grid, cls)) {
      cls->state = STATE_CLOSE;
      cls->waiting = 0;
      ticket->calibrating = 1;
      return ticket->route = leader(cls);
    }
    break;
  }
  ticket->calibrating = ticket->timed = 1;
  return ticket->route = cls->turn;
}

void hpd_dispatch_engine_begin(hpd_dispatch_ticket *ticket)
{
  if (!ticket->grid)
    return;
  hpd_bcast_how *how = hpd_grid_bcast(ticket->grid);
  ticket->how_before = *how;
  how->hold_tuning = ticket->calibrating;
  how->probe_rate = ticket->watching || ticket->probes;
  how->trials_capped = ticket->watching;
  if (ticket->watching) {
    /* The engine's lead, shared by the lines a call's panels may travel along. */
    const hpd_route_class *cls = ticket->cls;
    double lead = fmax(cls->reference_s - cls->engine_s, 0.0);
    how->trial_budget_s = two_dimensional(ticket->grid) ? lead / 2.0 : lead;
    how->trial_call = hpd_bcast_call();
  }
  hpd_grid_spare *spare = hpd_grid_spare_of(ticket->grid);
  ticket->spare_before = spare->until;
  double until = ticket->watching ? hpd_now() + ticket->cls->reference_s : 0.0;
  spare->until = spare->depth++ > 0 ? fmin(spare->until, until) : until;
}

void hpd_dispatch_engine_done(hpd_dispatch_ticket *ticket)
{
  if (!ticket->grid)
    return;
  *hpd_grid_bcast(ticket->grid) = ticket->how_before;
  hpd_grid_spare *spare = hpd_grid_spare_of(ticket->grid);
  spare->until = ticket->spare_before;
  spare->depth--;
}

/* Whether the engine's figure beats the reference's bound by the class's margin: the
 * bound's links were timed at the class's first call (plan_first), its flops at a local
 * dgemm rate (kernel_rate.h) timed now where the class's shape has not been timed.  The
 * links alone are a bound too: where they settle it (across hosts, where PBLAS waits for
 * its panels on a slow link), nothing is timed.  The timing is pure loss to the call that
 * takes it, where a round of calibration costs each of its reference calls no more than
 * the reference would: so it is taken only where it slows its call by at most the margin
 * the engine must win by in calibration (ENGINE_MARGIN), and a call of a class that wins
 * at all stays no slower than the reference's.  Otherwise the bound takes the rate
 * already kept for the shape, and without one the class goes to that round, which tells
 * more for less (pdgemm 1024 x 1024 x 1024 on 2x1: the timing took 10 ms of a 25 ms
 * call; an eigen-solve's reduction makes calls of 0.1 ms whose shapes take 2 to 12 ms to
 * time).  The timing's cost is predicted at the engine's rate for the call's flops (no
 * faster than the kernel's: the engine's call also moves its panels), and what it costs
 * counts as calibration's loss.  On a 2-D grid, where the bound decides nothing, nothing
 * is timed.  The grid takes its slowest rank's figures. */
static int beats_bound(const hpd_dispatch_ticket *ticket)
{
  hpd_route_class *cls = ticket->cls;
  cls->reference_s = 0.0;
  if (!isfinite(cls->margin) || !(cls->plan.flops > 0.0))
    return 0;
  double s_per_flop = cls->engine_s / cls->plan.flops;
  double timing[2] = {hpd_predict_compute_cost_s(&cls->plan, s_per_flop),
                      hpd_predict_links_s(&cls->plan, ticket->grid)};
  slowest(ticket->grid, timing, 2);
  if (cls->engine_s * cls->margin <= timing[1]) {
    cls->reference_s = timing[1]; /* the links alone settle it: nothing to time */
    return 1;
  }
  int may_time = timing[0] <= (ENGINE_MARGIN - 1.0) * cls->engine_s;
  double start = hpd_now();
  double compute_s = hpd_predict_compute_s(&cls->plan, may_time);
  double figures[2] = {hpd_predict_bound_s(&cls->plan, compute_s, ticket->grid),
                       hpd_now() - start};
  slowest(ticket->grid, figures, 2);
  cls->table->lost_s[cls->routine] += figures[1];
  cls->reference_s = figures[0];
  return cls->engine_s * cls->margin <= figures[0];
}

/* An engine call of a class opened on the reference, held against that call: one slower
 * by a quarter leaves the class close, on the reference until a round is affordable.  A
 * reference's first call may carry one-off costs of its own that the library cannot
 * take out, so it only ever tells that the engine loses, never that it wins: that is
 * the first round's to say, as on any grid.  figure: the grid's figure for the engine
 * call.  Returns whether the class was left close. */
static int loses_to_opening(const hpd_dispatch_ticket *ticket, double figure)
{
  hpd_route_class *cls = ticket->cls;
  if (!(cls->opened_s > 0.0))
    return 0;
  cls->table->lost_s[cls->routine] += fmax(figure - cls->opened_s, 0.0);
  if (!(figure > cls->opened_s * CLEAR))
    return 0;
  cls->state = STATE_CLOSE;
  cls->engine_s = fmax(cls->engine_s, figure);
  cls->reference_s = cls->opened_s;
  cls->measured = 1;
  cls->waiting = cls->rounds = 0;
  keep_verdict(ticket->grid, cls, HPD_TUNE_CLOSE);
  return 1;
}

/* An engine call after the first: while each is faster than the one before by more than
 * WARMING (buffers, windows and chunks are still being set up), up to WARM_CALLS of them,
 * the next runs on the engine too; then the figures decide: the engine where its fastest
 * call beats the reference's bound by the class's margin, otherwise the class is close
 * and takes its first round of calibration at once. */
static void warm(const hpd_dispatch_ticket *ticket, double seconds)
{
  hpd_route_class *cls = ticket->cls;
  double figures[2] = {cls->first_s, seconds};
  slowest(ticket->grid, figures, 2);
  if (cls->warm_calls++ == 0)
    cls->engine_s = cls->last_s = figures[0];
  double before = cls->last_s;
  cls->engine_s = fmin(cls->engine_s, figures[1]);
  cls->measured = 0;
  cls->last_s = figures[1];
  if (loses_to_opening(ticket, figures[1]) ||
      (cls->warm_calls < WARM_CALLS && figures[1] < before * WARMING))
    return;
  cls->watched = cls->waiting = cls->rounds = 0;
  cls->window_best = -1.0;
  if (beats_bound(ticket)) {
    cls->state = STATE_ENGINE;
    keep_verdict(ticket->grid, cls, HPD_TUNE_ENGINE);
  } else if (hpd_config_get()->calibration > 0.0) {
    start_round(cls); /* the first round is taken at once: the figure is only a bound */
  } else
    cls->state = STATE_CLOSE;
}

static void watch(const hpd_dispatch_ticket *ticket, double seconds)
{
  hpd_route_class *cls = ticket->cls;
  if (cls->window_best < 0.0 || seconds < cls->window_best)
    cls->window_best = seconds;
  if (++cls->watched % WATCH_CALLS != 0)
    return;
  double best = cls->window_best;
  slowest(ticket->grid, &best, 1);
  cls->window_best = -1.0;
  cls->engine_s = best;
  if (best > cls->reference_s * SLOWER) {
    cls->state = STATE_CLOSE;
    cls->waiting = cls->rounds = 0;
    keep_verdict(ticket->grid, cls, -1);
  }
}

/* The median of a side's calls (the upper middle one of an even count). */
static double median(const double *sample, int count)
{
  double sorted[SAMPLES];
  for (int i = 0; i < count; i++) {
    int at = i;
    for (; at > 0 && sorted[at - 1] > sample[i]; at--)
      sorted[at] = sorted[at - 1];
    sorted[at] = sample[i];
  }
  return sorted[count / 2];
}

/* One calibration call's time; a round ends with its engine run, and then the grid
 * agrees on each side's median and charges the round's loss. */
static void calibrate(const hpd_dispatch_ticket *ticket, double seconds)
{
  hpd_route_class *cls = ticket->cls;
  int side = ticket->route == HPD_ROUTE_ENGINE ? 0 : 1;
  if (cls->samples[side] < SAMPLES)
    cls->sample[side][cls->samples[side]++] = seconds;
  if (--cls->turn_left > 0)
    return;
  cls->turn = side == 0 ? HPD_ROUTE_REFERENCE : HPD_ROUTE_ENGINE;
  cls->turn_left = cls->run;
  if (side != 0)
    return;
  double m[2] = {median(cls->sample[0], cls->samples[0]),
                 median(cls->sample[1], cls->samples[1])};
  slowest(ticket->grid, m, 2);
  cls->engine_s = m[0];
  cls->reference_s = m[1];
  cls->measured = 1;
  cls->table->lost_s[cls->routine] += cls->run * fabs(m[0] - m[1]);
  int rounds = ++cls->rounds;
  int apart = m[0] > m[1] * CLOSE || m[1] > m[0] * CLOSE;
  int clear = m[0] > m[1] * CLEAR || m[1] > m[0] * CLEAR;
  if (rounds < ROUNDS && !(rounds >= 2 && apart) && !clear) {
    keep_verdict(ticket->grid, cls, HPD_TUNE_CLOSE);
    return;
  }
  cls->state = m[0] * settling_margin(m[1]) < m[1] ? STATE_ENGINE : STATE_REFERENCE;
  cls->watched = 0;
  cls->window_best = -1.0;
  keep_verdict(ticket->grid, cls,
               cls->state == STATE_ENGINE ? HPD_TUNE_ENGINE : HPD_TUNE_REFERENCE);
}

/* A call's seconds less the one-off costs it paid (costs.h: set-up, tuning, buffers). */
static double net_of_one_off(const hpd_dispatch_ticket *ticket, double seconds)
{
  return seconds - (hpd_costs_one_off_s() - ticket->one_off_before_s);
}

void hpd_dispatch_learn(const hpd_dispatch_ticket *ticket, double seconds)
{
  hpd_route_class *cls = ticket->cls;
  if (!cls)
    return;
  cls->table->spent_s[cls->routine] += seconds;
  /* Every figure is net of what the call spent once for all (costs.h): a class's calls
   * meet new message sizes, and so chunk trials, at any of its calls, not only at its
   * first, and a calibration round's one engine call that carried them would settle the
   * class on the reference (timing/notes/2026-12-02.md). */
  double net = net_of_one_off(ticket, seconds);
  if (ticket->opening) {
    double figure = net;
    slowest(ticket->grid, &figure, 1);
    cls->opened_s = fmax(figure, 1e-9);
  } else if (ticket->first) {
    cls->first_s = net;
    cls->warm_calls = 0;
    cls->state = STATE_WARMING;
    if (cls->opened_s > 0.0) {
      /* Held against the opening call at once, so that a losing engine is not called
       * twice (order 1024 on 4x4 simulated ranks took 0.022 s against the reference's
       * 0.0175 s with its chunk trials, and settles on the engine at 1.18x). */
      double figure = net;
      slowest(ticket->grid, &figure, 1);
      cls->engine_s = figure;
      loses_to_opening(ticket, figure);
    }
  } else if (ticket->warming) {
    warm(ticket, net);
  } else if (ticket->timed)
    calibrate(ticket, net);
  else if (ticket->watching)
    watch(ticket, net);
}
