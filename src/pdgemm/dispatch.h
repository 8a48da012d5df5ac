/*
 * Which of three ways serves a legal call (HPD_DISPATCH=auto): the engine, a local
 * multiply where nothing travels (direct.h), or the reference where the engine is not
 * known to win.  Every rank of the grid decides alike: the local case from descriptor
 * data, the others from figures the grid agreed on by allreduce.
 *
 * The rule, per grid and call class (the routine, its TRANS and UPLO letters, the
 * strategy in force, the octave of M*N*K):
 *  - a class's first two calls run on the engine, and up to two more while each is faster
 *    than the one before by more than a tenth (the first calls also size buffers and grow
 *    windows); the fastest is the engine's figure, and the reference's is its lower bound
 *    (predict.h), its links timed after the first call and its flops when the warm-up
 *    ends, on one line only; the grid takes each figure's slowest rank;
 *  - where the engine is no slower than that bound, the engine serves the class without
 *    a single reference call; where the bound does not follow PBLAS's algorithm (predict.h,
 *    hpd_predict_margin: most routines) only where it beats the bound by a quarter, and
 *    on a 2-D grid never;
 *  - otherwise the class is close to call: the figure is a bound, which PBLAS's
 *    routines other than pdgemm may exceed by far, so the class takes one round of
 *    calibration (reference calls, then as many engine calls: four each under 10 ms,
 *    else one) at once (on a 2-D grid where the warming calls ran on provisional chunks,
 *    after one engine call that tunes them and a second warm-up), and each later round
 *    only where the time it is predicted to lose (calls run on the slower side), added
 *    to what calibrations have lost already, stays within HPD_CALIBRATION (2%; 0 takes
 *    no round at all) of the time the grid has spent in the routine, the class waiting
 *    meanwhile on the side its figures favour (the engine only where it beats the
 *    reference's by the margin below); after three rounds (two where the sides are more
 *    than 10% apart, one where they are more than a quarter apart) the engine takes the
 *    class only where its median call beats the reference's by 5% (by a quarter where
 *    the reference's calls take under 200 us, where timing one call at a time favours
 *    the engine);
 *  - a new class one octave below a class of the same routine, letters and strategy
 *    that settled on the reference starts close, with that class's figures halved: the
 *    engine's lead grows with a call's size;
 *  - a class on the engine is watched: where the best of 32 of its calls is slower than
 *    the reference's figure by a quarter, it goes back to the reference until calibrated;
 *  - a settled route is kept by the grid's rank 0 (and in HPD_TUNE_FILE, tune_table.h),
 *    named by version, grid shape, nodes and class, and so is a class that a round of
 *    calibration left close, with its measured figures; a new class whose name rank 0
 *    knows takes that state from its first call (a close one waits on its leader),
 *    told by one broadcast over the grid.
 */
#ifndef HPD_PDGEMM_DISPATCH_H
#define HPD_PDGEMM_DISPATCH_H

#include "call.h"
#include "grid.h"
#include "hpdaemon.h"

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
  int first;       /* the class's first call: it plans the reference's bound */
  int warming;     /* an engine call after the class's first, before the figures decide */
  int tuning;      /* the engine call that tunes the chunks before a class's first round */
  unsigned long provisional_before; /* hpd_bcast_provisional_uses() as the engine began */
  double links_cost_s; /* first call: what timing the bound's links took */
} hpd_dispatch_ticket;

/* The route of a checked call, and its ticket (ticket->route is the route).  local: the
 * call lives on one process (direct.h); its caller serves the route.  A call's class
 * comes from call->m, n, k and its letters (transa, transb, uplo), whatever the routine
 * means by them. */
hpd_route hpd_dispatch_route(const hpd_call *call, hpd_routine routine, int local,
                             hpd_dispatch_ticket *ticket);

/* Around the engine's service of a call on ticket.  While a class's route is not
 * settled, its broadcasts do not time chunk candidates (bcast.h, hpd_bcast_hold_tuning):
 * across hosts the trials cost more than the call (an order-2048 solve's first call took
 * 1.3 s against 0.2 s later), and a class that its first calls settle on either side
 * needs them only where it goes to the engine, whose first call there tunes them.  On a
 * 2-D grid a class left close tunes them in one engine call before its first round of
 * calibration (dispatch.c, warm), and a class's first call tunes them: the lines time
 * their candidates at once, and the untuned engine, with no measured link rate, cannot
 * send the groups behind a multiply flat (bcast.h) and teaches the auto schedule what
 * provisional chunks take (8x8 simulated InfiniBand ranks, order 4096: 0.36 s held
 * against 0.32 s with the trials, 0.25 s once tuned).  After the call, a class's first
 * call plans the reference's bound (predict.h) and, on one line, times its links. */
void hpd_dispatch_engine_begin(hpd_dispatch_ticket *ticket);
void hpd_dispatch_engine_done(const hpd_call *call, hpd_routine routine,
                              hpd_dispatch_ticket *ticket);

/* Routes a call checked by hpd_call_init (or _syrk) and serves it where the route is the
 * engine or a local multiply.  Returns HPD_SERVED_BY_ENGINE, HPD_SERVED_DIRECT_LOCAL,
 * HPD_SERVED_DIRECT_REFERENCE (the caller then calls the reference), or the engine's
 * fallback reason. */
int hpd_dispatch_serve(const hpd_call *call, hpd_routine routine, hpd_dispatch_ticket *ticket);

/* The call's wall seconds on this rank, reference included.  Collective over the grid
 * after a class's first call, at the end of a calibration round and of a watched run. */
void hpd_dispatch_learn(const hpd_dispatch_ticket *ticket, double seconds);

#endif
