#include "core/costs.h"

#include "core/clock.h"

static hpd_cost_total totals[HPD_COSTS];
static int depth;

double hpd_cost_begin(hpd_cost kind)
{
  (void)kind;
  return depth++ == 0 ? hpd_now() : -1.0;
}

void hpd_cost_end(hpd_cost kind, double started)
{
  depth--;
  if (started < 0.0)
    return;
  totals[kind].seconds += hpd_now() - started;
  totals[kind].count++;
}

void hpd_costs_get(hpd_cost_total out[HPD_COSTS])
{
  for (int k = 0; k < HPD_COSTS; k++)
    out[k] = totals[k];
}

double hpd_costs_one_off_s(void)
{
  return totals[HPD_COST_SETUP].seconds + totals[HPD_COST_TUNING].seconds +
         totals[HPD_COST_BUFFERS].seconds;
}

const char *hpd_cost_name(hpd_cost kind)
{
  static const char *const names[HPD_COSTS] = {"setup", "tuning", "agreement", "buffers"};
  return kind >= 0 && kind < HPD_COSTS ? names[kind] : "unknown";
}
