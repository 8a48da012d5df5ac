/*
 * Which of three ways serves a legal call (HPD_DISPATCH=auto): the engine, a local
 * multiply where nothing travels (direct.h), or the reference where the engine is not
 * known to win.  Every rank of the grid decides alike: the local case from descriptor
 * data, the others from figures the grid agreed on by allreduce.
 *
 * The rule, per grid and call class (the routine, its TRANS and UPLO letters, the
 * strategy in force, the octave of M*N*K): the engine serves a class unless calls show the
 * reference faster, and the reference is called only where the engine is not predicted to
 * win, within a budget.
 *  - Warm-up: the first calls run on the engine, up to four while each gains a tenth; the
 *    fastest is the engine's figure.
 *  - Prediction: the reference's figure from PBLAS's algorithm at measured rates
 *    (predict.h); the engine beating it by the prediction's margin settles the class on
 *    the engine without a reference call.
 *  - On a 2-D grid, where no prediction decides, a class opens with one reference call,
 *    and an engine call a quarter slower than it leaves the class on the reference.
 *    Where that call took less than twice the least time its panels take across the
 *    nodes' links (link_floor.h), no engine call is made: most trials there lost.  Nor
 *    where the caller's engine is not expected to win on such a grid (hpd_trial): its
 *    first engine calls are a round of calibration, within the budget below.
 *  - Calibration otherwise: rounds of reference then engine calls, the first at once, the
 *    later ones within HPD_CALIBRATION of the grid's time in the routine; three rounds
 *    settle it (fewer where the sides are far apart), on the engine where it beats the
 *    reference by the settling margin.  Meanwhile the class runs on the side a round
 *    favoured, the reference before any.
 *  - A new class one octave below one settled on the reference starts unsettled there.
 *  - A class on the engine is watched, and calibrated again where it turns slow.
 *  - Verdicts persist per grid shape, nodes and class (tune_table.h).
 * README, "Which calls the engine serves", states it in full with its reasons.
 */
#ifndef HPD_PBLAS_DISPATCH_H
#define HPD_PBLAS_DISPATCH_H

#include "bcast/bcast.h"
#include "hpdaemon.h"
#include "pblas/call.h"
#include "pblas/grid.h"

typedef enum hpd_route {
  HPD_ROUTE_ENGINE = 0,
  HPD_ROUTE_LOCAL = 1,     /* hpd_direct_local */
  HPD_ROUTE_REFERENCE = 2, /* the reference: not known to be slower */
} hpd_route;

/* A call's route, and what it needs to report its time back to the rule. */
typedef struct hpd_dispatch_ticket {
  hpd_route route;
  struct hpd_route_class *cls; /* NULL: nothing to learn from this call */
  const hpd_grid *grid;
  int calibrating; /* the class's route is not settled: its calls are not remembered */
  int timed;       /* 1: a calibration sample */
  int watching;    /* the class is on the engine, whose calls are watched */
  int opening;     /* 2-D grids: the class's first call, on the reference */
  int first;       /* the class's first engine call: it plans the reference's bound */
  int warming;     /* an engine call after the class's first, before the figures decide */
  int probes;      /* 2-D grids: the call moves enough panels to probe its links' rate */
  double one_off_before_s; /* the one-off costs paid before the call (costs.h) */
  hpd_bcast_how how_before; /* the grid's broadcasts before the engine's service */
  double spare_before;      /* the grid's spare before it (hpd_grid_spare_of) */
  hpd_local_place local; /* the local route's, where its service gives it (repeat.h) */
} hpd_dispatch_ticket;

/* When a class opened on the reference on a 2-D grid first calls the engine: at once (its
 * second call, the trial), or only in a round of calibration, paid from the budget
 * (HPD_CALIBRATION), where the caller's engine is not expected to win on such a grid.
 * A caller whose engine serves the call as one multiply moving pdgemm's panels of the
 * same M, N and K (pdtrmm's whole form, pdtrsm's block solve), or two (pdsymm's), asks
 * for pdgemm's trial: at once unless the links' floor of those panels holds it, as it
 * holds pdgemm's. */
typedef enum hpd_trial {
  HPD_TRIAL_AT_ONCE = 0,
  HPD_TRIAL_FROM_BUDGET = 1,
  HPD_TRIAL_AS_PDGEMM = 2,
  HPD_TRIAL_AS_TWO_PDGEMMS = 3,
} hpd_trial;

/* The route of a checked call, and its ticket (ticket->route is the route).  local: the
 * call lives on one process (direct.h); its caller serves the route.  trial: as above,
 * the same on every rank of the grid.  A call's class comes from call->m, n, k and its
 * letters (transa, transb, uplo), whatever the routine means by them.  A class's first
 * call plans the reference's bound (predict.h) and, on one line of the grid, times its
 * links here, before the engine runs: collective over the grid's row and column. */
hpd_route hpd_dispatch_route(const hpd_call *call, hpd_routine routine, int local,
                             hpd_trial trial, hpd_dispatch_ticket *ticket);

/* Around the engine's service of a call on ticket: how its broadcasts tune their chunks
 * (the grid's, hpd_grid_bcast).  While a class is unsettled its broadcasts do not time
 * chunk candidates (the hold): the trials cost tens of milliseconds, more than many calls,
 * and the engine's figures must be what it gains without them.  On a 2-D grid they
 * measure a size class's link rate with one broadcast where they need it (a probe: flat
 * broadcasts behind a multiply and the auto schedule cannot decide without one), unless
 * the links' probe (link_floor.h) gave the line its stream rate.  Once a
 * class has settled on the engine, each call may spend on trials what the engine gains
 * over the reference (the grid's figures), split between a 2-D grid's two lines, so that
 * tuning never makes a call slower than the reference; a class whose trials do not fit
 * keeps its provisional chunks.  The same holds for work done for later calls (the
 * grid's spare, hpd_grid_spare_of): a call of a settled class may go on with it until
 * the reference's figure has passed since the call began, within an outer call's time
 * where it is nested in one; a call of a class still being learned spends nothing on
 * it, since its lead is not known and a class's first call carries the grid's one-off
 * costs already.  What was in force before is restored after: a call served inside
 * another's hold keeps it. */
void hpd_dispatch_engine_begin(hpd_dispatch_ticket *ticket);
void hpd_dispatch_engine_done(hpd_dispatch_ticket *ticket);

/* The call's wall seconds on this rank, reference included.  Collective over the grid
 * after a class's first call, at the end of a calibration round and of a watched run. */
void hpd_dispatch_learn(const hpd_dispatch_ticket *ticket, double seconds);

#endif
