#include "energy/wrap.h"

/* The counter shows every value in [0, range] and steps from range to 0, so a full turn
 * is range + 1 units.  The hardware under powercap really steps in energy units of its
 * own (61 uJ on most RAPL packages) and range is the last multiple of that unit, so a
 * wrap is undercounted by less than one hardware unit: 61 uJ in about 262 kJ. */
uint64_t hpd_wrap_delta(uint64_t old, uint64_t now, uint64_t range)
{
  if (now >= old)
    return now - old;
  /* A reading above range breaks the documented contract; the counter evidently reaches
   * it, so the turn is taken to end there rather than to underflow. */
  uint64_t top = old > range ? old : range;
  return (top - old) + now + 1;
}

void hpd_wrap_init(hpd_wrap_counter *c, uint64_t range, double max_rate, uint64_t first,
                   double now_s)
{
  c->range = range;
  c->last = first;
  c->last_s = now_s;
  c->total = 0;
  c->max_rate = max_rate;
}

int hpd_wrap_advance(hpd_wrap_counter *c, uint64_t now, double now_s)
{
  /* A counter that could have covered a full turn since the previous reading may hide
   * whole turns: the reading only tells the increase modulo range + 1. */
  double elapsed = now_s - c->last_s;
  int ambiguous = elapsed > 0 && elapsed * c->max_rate >= (double)c->range + 1.0;
  c->total += hpd_wrap_delta(c->last, now, c->range);
  c->last = now;
  c->last_s = now_s;
  return ambiguous;
}
