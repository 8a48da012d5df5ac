/*
 * An energy counter that wraps: a value in [0, range] that counts up and restarts at 0
 * after range, as powercap's energy_uj does.  Turns successive raw readings into one
 * total that does not wrap.
 */
#ifndef HPD_ENERGY_WRAP_H
#define HPD_ENERGY_WRAP_H

#include <stdint.h>

#include "core/checked.h"

typedef struct hpd_wrap_counter {
  uint64_t range;   /* the largest value shown: a turn is range + 1 units */
  uint64_t last;    /* the previous raw reading */
  double last_s;    /* when it was taken, on a monotonic clock */
  uint64_t total;   /* counted since the first reading, in the counter's unit */
  double max_rate;  /* an upper bound on units per second, for the wrap check */
} hpd_wrap_counter;

/* The increase from old to now on a counter that shows 0..range (both in that range). */
uint64_t hpd_wrap_delta(uint64_t old, uint64_t now, uint64_t range);

/* The first reading: total starts at 0. */
void hpd_wrap_init(hpd_wrap_counter *c, uint64_t range, double max_rate, uint64_t first,
                   double now_s);

/* Adds the increase since the previous reading.  Returns 1 when so much time has passed
 * that, at max_rate, the counter could have gone round more than once: the increase
 * counted is then only known modulo range + 1.  Returns 0 otherwise. */
HPD_CHECKED int hpd_wrap_advance(hpd_wrap_counter *c, uint64_t now, double now_s);

#endif
