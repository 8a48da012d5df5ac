#include "core/workspace.h"

#include <stdlib.h>

#include "core/alloc_large.h"
#include "core/costs.h"

typedef struct area {
  int layer;
  int own; /* holds indices or request handles beside data (alloc_large.h) */
  void *block;
  size_t bytes;
  size_t made; /* the first bytes whose pages are made */
} area;

static area areas[HPD_AREAS] = {
    [HPD_AREA_FACTOR] = {.layer = 0, .own = 1},
    [HPD_AREA_LEVEL3] = {.layer = 1},
    [HPD_AREA_ENGINE_A] = {.layer = 2},
    [HPD_AREA_ENGINE_B] = {.layer = 2},
    [HPD_AREA_ENGINE_HANDLES] = {.layer = 2, .own = 1},
};

void hpd_workspace_give_back(hpd_area which)
{
  area *a = &areas[which];
  free(a->block);
  a->block = NULL;
  a->bytes = a->made = 0;
}

size_t hpd_workspace_bytes(hpd_area which)
{
  return areas[which].bytes;
}

size_t hpd_workspace_held(void)
{
  size_t held = 0;
  for (int i = 0; i < HPD_AREAS; i++)
    held += areas[i].bytes;
  return held;
}

/* Makes the pages of area's first bytes where they are not made yet, written where the
 * space is made ahead of its use (alloc_large.h). */
static void make(area *a, size_t bytes, int ahead)
{
  if (bytes <= a->made)
    return;
  double cost = hpd_cost_begin(HPD_COST_BUFFERS);
  hpd_alloc_large_touch_part(a->block, a->bytes, a->made, bytes, ahead);
  hpd_cost_end(HPD_COST_BUFFERS, cost);
  a->made = bytes;
}

int hpd_workspace_reserve(hpd_area which, size_t bytes, double budget)
{
  area *a = &areas[which];
  if (bytes <= a->bytes)
    return 1;
  hpd_workspace_give_back(which);
  for (int i = 0; i < HPD_AREAS && (double)(hpd_workspace_held() + bytes) > budget; i++)
    if (areas[i].layer > a->layer)
      hpd_workspace_give_back((hpd_area)i);
  void *block = a->own ? hpd_alloc_large_own(bytes) : hpd_alloc_large(bytes);
  if (!block)
    return 0;
  a->block = block;
  a->bytes = bytes;
#ifdef HPD_SIMULATED
  a->made = bytes; /* the simulator's memory takes no time to make (alloc_large.c) */
#endif
  return 1;
}

void *hpd_workspace_get(hpd_area which, size_t bytes, double budget)
{
  area *a = &areas[which];
  if (bytes == 0 || !hpd_workspace_reserve(which, bytes, budget))
    return NULL;
  make(a, bytes, 0);
  return a->block;
}

size_t hpd_workspace_made(hpd_area which)
{
  return areas[which].made;
}

size_t hpd_workspace_make_piece(hpd_area which, size_t bytes, size_t piece)
{
  area *a = &areas[which];
  size_t upto = bytes < a->bytes ? bytes : a->bytes;
  if (a->made < upto)
    make(a, upto - a->made > piece ? a->made + piece : upto, 1);
  return a->made;
}
