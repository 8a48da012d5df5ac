/*
 * The library's own costs (src/core/costs.c): a cost counts its time and one more
 * occurrence; a cost begun inside another is part of the outer one, counted once; a
 * working-space block that is made counts as buffers, one that is reused does not.
 */
#include <stdio.h>
#include <time.h>

#include "check.h"
#include "core/costs.h"
#include "core/workspace.h"

static void pause_ms(long ms)
{
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

int main(void)
{
  hpd_cost_total before[HPD_COSTS], after[HPD_COSTS];
  hpd_costs_get(before);
  for (int k = 0; k < HPD_COSTS; k++)
    CHECK(before[k].count == 0 && before[k].seconds == 0.0);

  double outer = hpd_cost_begin(HPD_COST_SETUP);
  pause_ms(2);
  double inner = hpd_cost_begin(HPD_COST_TUNING);
  pause_ms(2);
  hpd_cost_end(HPD_COST_TUNING, inner);
  hpd_cost_end(HPD_COST_SETUP, outer);
  hpd_costs_get(after);
  CHECK(after[HPD_COST_SETUP].count == 1);
  CHECK(after[HPD_COST_SETUP].seconds >= 0.004);
  CHECK(after[HPD_COST_TUNING].count == 0 && after[HPD_COST_TUNING].seconds == 0.0);

  /* After the outer one ends, a cost counts on its own again. */
  double alone = hpd_cost_begin(HPD_COST_TUNING);
  hpd_cost_end(HPD_COST_TUNING, alone);
  hpd_costs_get(after);
  CHECK(after[HPD_COST_TUNING].count == 1);

  const double plenty = 1e15;
  void *block = hpd_workspace_get(HPD_AREA_LEVEL3, (size_t)1 << 20, plenty);
  CHECK(block != NULL);
  hpd_costs_get(after);
  CHECK(after[HPD_COST_BUFFERS].count == 1);
  CHECK(hpd_workspace_get(HPD_AREA_LEVEL3, (size_t)1 << 20, plenty) == block);
  hpd_costs_get(after);
  CHECK(after[HPD_COST_BUFFERS].count == 1);
  hpd_workspace_give_back(HPD_AREA_LEVEL3);

  CHECK(hpd_cost_name(HPD_COST_AGREEMENT)[0] == 'a');
  printf("test_costs: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
