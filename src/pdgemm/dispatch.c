#include "dispatch.h"

#include <math.h>
#include <stdlib.h>

#include "bcast.h"
#include "config.h"
#include "direct.h"
#include "engine.h"
#include "stats.h"

/* Classes per grid.  A table that fills up sends new classes to the engine, as before
 * there was a dispatch rule; it fills alike on every rank of the grid. */
#define CLASS_SLOTS 256
#define CLASS_LIMIT (CLASS_SLOTS * 3 / 4)
/* Three pairs settle a class: on a shared machine one call in a few is slowed down by
 * somebody else's work, and the best of three rarely is.  One pair settles it for the
 * reference where calls are short and the engine clearly slower: noise can then only
 * cost the engine a class of small calls, never make a call slower than the reference,
 * and a short run of a few calls per class (ScaLAPACK's drivers) stops paying for the
 * engine early.  One pair settles it for the engine where calls are long and the engine
 * clearly faster: the noise is small there, and one reference call at N = 4096 takes
 * seconds. */
#define PAIRS 3
#define LONG_CALL_S 10e-3
#define CLEAR_MARGIN 1.25
/* Where the two sides come within a tenth of each other after three pairs, the noise of
 * three samples decides; up to six pairs then, and the engine must win by 3% to be taken:
 * a near tie goes to the reference, which is never slower than itself. */
#define CLOSE_MARGIN 1.10
#define PAIRS_CLOSE 6
#define ENGINE_MARGIN 1.03
/* Short calls alternating with the other side run on caches it filled, and the reference
 * warms up over its first few calls of a size (pdtrsm 128 x 128 on 2x1: 217, 171, 149,
 * 118, then 104 us, the steady state 88 us): three alternating pairs had taken the engine
 * at a 5% lead there, against a reference 15% faster than the engine back to back.  So
 * after their first pair, short calls calibrate in runs of a few calls per side, as a
 * program that calls one size repeatedly makes them; three rounds settle the class, two
 * where the reference clearly wins, and the engine must win by 5%.  Short calls are
 * judged by each side's median call, not its best: the engine's calls of a few tens of
 * microseconds spread wider than the reference's (pdgemm 47 x 47 x 47 on 1x2: a best
 * engine call under the reference's best, a typical one 25% over it). */
#define SHORT_RUN 4
#define SHORT_ROUNDS 3
#define SHORT_ENGINE_MARGIN 1.05
/* Calls of a few tens of microseconds are timed one by one, each from the first rank in
 * to the last one out, while a program's run of them overlaps one call's end with the
 * next one's start, the reference's more than the engine's: pdgemm 47 x 47 x 47 on 1x2
 * calibrated at a median of 23.5 us for the engine and 24.8 for the reference, and then
 * ran at 17 us against the reference's 13.  Below this, the engine must be clearly faster,
 * by a quarter; the calls it then leaves to the reference gain a few microseconds at
 * most. */
#define TINY_CALL_S 200e-6
/* A side's calls in a calibration: the first pair and two runs, or six pairs. */
#define SAMPLES (1 + SHORT_RUN * (SHORT_ROUNDS - 1) > PAIRS_CLOSE \
                     ? 1 + SHORT_RUN * (SHORT_ROUNDS - 1)           \
                     : PAIRS_CLOSE)
/* A class settled on the engine is watched: its best call over each run of this many is
 * compared, by one allreduce, with the reference's time that settled it, and a class
 * whose engine has become clearly slower (other jobs took the cores, the calibration was
 * unlucky) is calibrated again. */
#define WATCH_CALLS 32

typedef struct hpd_route_class {
  uint32_t key; /* 0: an empty slot */
  int family, octave;
  struct hpd_route_table *table;
  int calls;    /* calls seen so far, while calibrating */
  int rounds;   /* calibration rounds completed: a run of reference calls, then of engine */
  int run;      /* calls per side in a round: 1, or SHORT_RUN once the calls are short */
  hpd_route turn; /* the side of the next calibration call after the warm-up */
  int turn_left;  /* its calls left in the current run */
  int settled;
  hpd_route route;
  double sample[2][SAMPLES]; /* this rank's engine and reference calls, in seconds */
  int samples[2];
  double reference_s; /* the grid's reference time when it settled on the engine; 0 when
                         its route was implied by its family, or is the reference */
  int watched;        /* engine calls since it settled */
  double window_best; /* this rank's best of them in the current run, or -1 */
} hpd_route_class;

/* Classes of one routine, TRANS/UPLO letters and strategy differ in size only: the engine's fixed
 * costs lose on small calls and its broadcasts win on large ones.  So once a size has
 * settled on the reference, every smaller one of the family goes there too, and once one
 * has settled on the engine, every larger one: only the sizes between the two are
 * calibrated.  That matters in short runs, where each calibration's engine warm-up (chunk
 * trials, first buffers) would cost more than the calls it decides. */
#define FAMILIES (HPD_ROUTINES_MAX * 12 * HPD_STRATEGIES)
#define NO_OCTAVE 255

typedef struct family_bounds {
  int lowest_engine;     /* the smallest octave settled on the engine, or NO_OCTAVE */
  int highest_reference; /* the largest octave settled on the reference, or -1 */
} family_bounds;

struct hpd_route_table {
  hpd_route_class slot[CLASS_SLOTS];
  int used;
  family_bounds family[FAMILIES];
};

/* The strategy is part of the family: the engine's time depends on it (on a network,
 * overlap can win where daemon's phases in turn lose), so a route learned under one
 * strategy says nothing about another that the program switches to later. */
static int family_of(const hpd_call *call, hpd_routine routine)
{
  int uplo = call->uplo == 'U' ? 1 : call->uplo == 'L' ? 2 : 0;
  int letters =
      (((int)routine * 2 + (call->transa == 'T')) * 2 + (call->transb == 'T')) * 3 + uplo;
  return letters * HPD_STRATEGIES + (int)hpd_config_get()->strategy;
}

/* The octave of M*N*K (1 to 93): the bits of the product, which can exceed 64. */
static int octave_of(const hpd_call *call)
{
  int bits = 0;
  frexp((double)call->m * (double)call->n * (double)call->k, &bits);
  return bits;
}

/* Never 0. */
static uint32_t class_key(int family, int octave)
{
  return 1u + (uint32_t)family * 128u + (uint32_t)octave;
}

/* The route a family's settled sizes imply for this octave, or -1 for none. */
static int implied_route(const family_bounds *f, int octave)
{
  if (octave <= f->highest_reference && octave < f->lowest_engine)
    return HPD_ROUTE_REFERENCE;
  if (octave >= f->lowest_engine && octave > f->highest_reference)
    return HPD_ROUTE_ENGINE;
  return -1;
}

static struct hpd_route_table *table_of(const hpd_grid *grid)
{
  hpd_grid *entry = (hpd_grid *)grid; /* a cache entry of grid.c, owned there */
  if (!entry->routes && (entry->routes = calloc(1, sizeof *entry->routes)))
    for (int f = 0; f < FAMILIES; f++)
      entry->routes->family[f] = (family_bounds){NO_OCTAVE, -1};
  return entry->routes;
}

/* The class's slot, made on first sight (settled at once where its family implies the
 * route); NULL when the table is full. */
static hpd_route_class *find_class(struct hpd_route_table *table, int family, int octave)
{
  uint32_t key = class_key(family, octave);
  unsigned i = (unsigned)((key * 2654435761u) >> 24) % CLASS_SLOTS;
  for (;; i = (i + 1) % CLASS_SLOTS) {
    hpd_route_class *cls = &table->slot[i];
    if (cls->key == key)
      return cls;
    if (cls->key == 0) {
      if (table->used >= CLASS_LIMIT)
        return NULL;
      table->used++;
      *cls = (hpd_route_class){.key = key, .family = family, .octave = octave, .table = table,
                               .run = 1, .turn = HPD_ROUTE_REFERENCE, .turn_left = 1};
      int implied = implied_route(&table->family[family], octave);
      if (implied >= 0) {
        cls->settled = 1;
        cls->route = (hpd_route)implied;
      }
      return cls;
    }
  }
}

hpd_route hpd_dispatch_route(const hpd_call *call, hpd_routine routine, int local,
                             hpd_dispatch_ticket *ticket)
{
  *ticket = (hpd_dispatch_ticket){0};
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
      table ? find_class(table, family_of(call, routine), octave_of(call)) : NULL;
  if (!cls)
    return HPD_ROUTE_ENGINE;
  if (cls->settled) {
    if (cls->route == HPD_ROUTE_ENGINE && cls->reference_s > 0.0)
      *ticket = (hpd_dispatch_ticket){.cls = cls, .grid = grid, .watching = 1};
    return ticket->route = cls->route;
  }
  *ticket = (hpd_dispatch_ticket){.cls = cls, .grid = grid, .calibrating = 1,
                                  .timed = cls->calls > 0};
  /* 0: the engine's warm-up; then runs of reference calls and of engine calls in turn */
  return ticket->route = cls->calls == 0 ? HPD_ROUTE_ENGINE : cls->turn;
}

static void settle(hpd_route_class *cls, hpd_route route, double reference_s)
{
  cls->settled = 1;
  cls->route = route;
  cls->reference_s = route == HPD_ROUTE_ENGINE ? reference_s : 0.0;
  cls->watched = 0;
  cls->window_best = -1.0;
  family_bounds *f = &cls->table->family[cls->family];
  if (route == HPD_ROUTE_ENGINE && cls->octave < f->lowest_engine)
    f->lowest_engine = cls->octave;
  if (route == HPD_ROUTE_REFERENCE && cls->octave > f->highest_reference)
    f->highest_reference = cls->octave;
}

/* Back to calibrating, starting with a reference call: the engine is warm already. */
static void unsettle(hpd_route_class *cls)
{
  family_bounds *f = &cls->table->family[cls->family];
  if (f->lowest_engine == cls->octave)
    f->lowest_engine = NO_OCTAVE;
  cls->settled = 0;
  cls->calls = 1;
  cls->rounds = 0;
  cls->run = cls->turn_left = 1;
  cls->turn = HPD_ROUTE_REFERENCE;
  cls->samples[0] = cls->samples[1] = 0;
}

static void watch(const hpd_dispatch_ticket *ticket, double seconds)
{
  hpd_route_class *cls = ticket->cls;
  if (cls->window_best < 0.0 || seconds < cls->window_best)
    cls->window_best = seconds;
  if (++cls->watched % WATCH_CALLS != 0)
    return;
  double slowest;
  MPI_Allreduce(&cls->window_best, &slowest, 1, MPI_DOUBLE, MPI_MAX, ticket->grid->comm);
  cls->window_best = -1.0;
  if (slowest > cls->reference_s * CLEAR_MARGIN)
    unsettle(cls);
}

/* The best and the median of a side's calls (the upper middle one of an even count). */
static void summarize(const double *sample, int count, double *best, double *median)
{
  double sorted[SAMPLES];
  for (int i = 0; i < count; i++) {
    int at = i;
    for (; at > 0 && sorted[at - 1] > sample[i]; at--)
      sorted[at] = sorted[at - 1];
    sorted[at] = sample[i];
  }
  *best = sorted[0];
  *median = sorted[count / 2];
}

void hpd_dispatch_learn(const hpd_dispatch_ticket *ticket, double seconds)
{
  hpd_route route = ticket->route;
  hpd_route_class *cls = ticket->cls;
  if (!cls)
    return;
  if (ticket->watching) {
    watch(ticket, seconds);
    return;
  }
  cls->calls++;
  if (!ticket->timed)
    return;
  int side = route == HPD_ROUTE_ENGINE ? 0 : 1;
  if (cls->samples[side] < SAMPLES)
    cls->sample[side][cls->samples[side]++] = seconds;
  if (--cls->turn_left > 0)
    return;
  cls->turn = route == HPD_ROUTE_ENGINE ? HPD_ROUTE_REFERENCE : HPD_ROUTE_ENGINE;
  cls->turn_left = cls->run;
  if (route != HPD_ROUTE_ENGINE)
    return; /* a round ends with its engine run */
  /* best engine, best reference, median engine, median reference: the slowest rank's */
  double mine[4], slowest[4];
  for (int s = 0; s < 2; s++)
    summarize(cls->sample[s], cls->samples[s], &mine[s], &mine[2 + s]);
  MPI_Allreduce(mine, slowest, 4, MPI_DOUBLE, MPI_MAX, ticket->grid->comm);
  int rounds = ++cls->rounds;
  int long_calls = slowest[0] >= LONG_CALL_S && slowest[1] >= LONG_CALL_S;
  double engine = slowest[long_calls ? 0 : 2], reference = slowest[long_calls ? 1 : 3];
  int engine_clearly_slower = reference * CLEAR_MARGIN < engine;
  int engine_clearly_faster = engine * CLEAR_MARGIN < reference;
  int close = engine < reference * CLOSE_MARGIN && reference < engine * CLOSE_MARGIN;
  double margin = long_calls               ? ENGINE_MARGIN
                  : reference < TINY_CALL_S ? CLEAR_MARGIN
                                            : SHORT_ENGINE_MARGIN;
  hpd_route winner = engine * margin < reference ? HPD_ROUTE_ENGINE : HPD_ROUTE_REFERENCE;
  int enough = long_calls ? rounds >= PAIRS_CLOSE || (rounds >= PAIRS && !close)
                          : rounds >= SHORT_ROUNDS ||
                                (rounds >= SHORT_ROUNDS - 1 && !close &&
                                 winner == HPD_ROUTE_REFERENCE);
  if (enough || (engine_clearly_slower && !long_calls) || (engine_clearly_faster && long_calls))
    settle(cls, winner, reference);
  else if (!long_calls)
    cls->run = cls->turn_left = SHORT_RUN; /* every rank saw the same times */
}

int hpd_dispatch_serve(const hpd_call *call, hpd_routine routine, hpd_dispatch_ticket *ticket)
{
  hpd_route route = hpd_dispatch_route(call, routine, hpd_direct_is_local(call), ticket);
  switch (route) {
  case HPD_ROUTE_LOCAL:
    hpd_direct_local(call);
    return HPD_SERVED_DIRECT_LOCAL;
  case HPD_ROUTE_REFERENCE:
    return HPD_SERVED_DIRECT_REFERENCE;
  case HPD_ROUTE_ENGINE:
  default: {
    /* While a class is being decided, its broadcasts do not time chunk candidates: the
     * trials would cost more than the calls being compared.  Every rank of the grid is
     * calibrating the same class in the same call. */
    hpd_bcast_hold_tuning(ticket->calibrating);
    int verdict = hpd_engine_serve(call, routine, ticket->grid);
    hpd_bcast_hold_tuning(0);
    return verdict;
  }
  }
}
