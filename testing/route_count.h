/*
 * Which way hpdaemon took a call: the counter of a routine's statistics that a route
 * moves, for the tests that check each call's route (test_potrf, test_getrf,
 * test_repeat).
 */
#ifndef HPD_TESTING_ROUTE_COUNT_H
#define HPD_TESTING_ROUTE_COUNT_H

#include <stdint.h>

#include "hpdaemon.h"

typedef enum route {
  ROUTE_ENGINE,           /* hpdaemon's own */
  ROUTE_DIRECT_LOCAL,     /* LAPACK on one process */
  ROUTE_FALLBACK,         /* the reference, for a case hpdaemon does not cover */
  ROUTE_REJECTED,         /* illegal arguments, reported by the reference */
  ROUTE_DIRECT_REFERENCE  /* the reference, as the faster route */
} route;

static inline uint64_t route_count(hpd_routine routine, route which)
{
  hpd_stats s;
  hpd_get_stats(&s);
  const hpd_routine_stats *r = &s.routine[routine];
  switch (which) {
  case ROUTE_ENGINE:
    return r->engine_calls;
  case ROUTE_DIRECT_LOCAL:
    return r->direct_local_calls;
  case ROUTE_FALLBACK:
    return r->fallback_calls;
  case ROUTE_REJECTED:
    return r->rejected_calls;
  default:
    return r->direct_calls - r->direct_local_calls;
  }
}

#endif
