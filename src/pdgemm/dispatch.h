/*
 * Which of three ways serves a legal call (HPD_DISPATCH=auto): the engine, a local
 * multiply where nothing travels (direct.h), or the reference where the engine is not
 * predicted to win.  Every rank of the grid decides alike without talking: the local case
 * from descriptor data, the others from a route learned per grid and call class.
 *
 * A class is the routine, the TRANS letters (and UPLO), the strategy in force and the
 * octave of M*N*K.  Its first calls calibrate: one untimed engine call (it sizes
 * buffers), then pairs of one reference and one engine call (after the first pair, runs
 * of a few of each where calls are short), each rank timing its own, the engine's
 * broadcasts with a provisional chunk (timing chunk candidates would cost more than the
 * calls); after each pair (round of runs) one allreduce over the grid takes, for either
 * side, the slowest rank's best time (median, for short calls), and the route is settled
 * for the faster side after three rounds (six pairs where long calls are close, and a
 * near tie goes to the reference), or earlier where one side is clearly faster
 * (dispatch.c says when).  A size that settles on the reference sends the smaller sizes
 * of its routine and letters there without calibrating, one that settles on the engine
 * the larger ones.  A class settled on the engine by calibration is watched (one
 * allreduce every 32 calls) and calibrated again if its engine calls have become clearly
 * slower than the reference was.  Every rank of a grid takes part in each of its calls,
 * so every rank counts the same calls per class and reaches each allreduce in the same
 * call.
 */
#ifndef HPD_PDGEMM_DISPATCH_H
#define HPD_PDGEMM_DISPATCH_H

#include "call.h"
#include "grid.h"
#include "hpdaemon.h"

typedef enum hpd_route {
  HPD_ROUTE_ENGINE = 0,
  HPD_ROUTE_LOCAL = 1,     /* hpd_direct_local */
  HPD_ROUTE_REFERENCE = 2, /* the reference, predicted faster */
} hpd_route;

/* A call's route, and what it needs to report its time back to the calibration. */
typedef struct hpd_dispatch_ticket {
  hpd_route route;
  struct hpd_route_class *cls; /* NULL: nothing to learn from this call */
  const hpd_grid *grid;
  int calibrating; /* the class's route is being decided */
  int timed;       /* 1: the call is a calibration sample */
  int watching;    /* the class settled on the engine, whose calls are watched */
} hpd_dispatch_ticket;

/* The route of a checked call, and its ticket (ticket->route is the route).  local: the
 * call lives on one process (direct.h); its caller serves the route.  A call's class
 * comes from call->m, n, k and its letters (transa, transb, uplo), whatever the routine
 * means by them. */
hpd_route hpd_dispatch_route(const hpd_call *call, hpd_routine routine, int local,
                             hpd_dispatch_ticket *ticket);

/* Routes a call checked by hpd_call_init (or _syrk) and serves it where the route is the
 * engine or a local multiply.  Returns HPD_SERVED_BY_ENGINE, HPD_SERVED_DIRECT_LOCAL,
 * HPD_SERVED_DIRECT_REFERENCE (the caller then calls the reference), or the engine's
 * fallback reason. */
int hpd_dispatch_serve(const hpd_call *call, hpd_routine routine, hpd_dispatch_ticket *ticket);

/* The call's wall seconds on this rank, reference included, for a calibrating or watched
 * class; collective over the grid at the end of a calibration round and of a watched
 * run. */
void hpd_dispatch_learn(const hpd_dispatch_ticket *ticket, double seconds);

#endif
