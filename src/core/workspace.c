#include "core/workspace.h"

#include <stdlib.h>

#include "core/alloc_large.h"
#include "core/costs.h"

typedef struct area {
  int layer;
  int own; /* holds indices or request handles beside data (alloc_large.h) */
  void *block;
  size_t bytes;
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
  a->bytes = 0;
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

void *hpd_workspace_get(hpd_area which, size_t bytes, double budget)
{
  area *a = &areas[which];
  if (bytes == 0)
    return NULL;
  if (bytes <= a->bytes)
    return a->block;
  hpd_workspace_give_back(which);
  for (int i = 0; i < HPD_AREAS && (double)(hpd_workspace_held() + bytes) > budget; i++)
    if (areas[i].layer > a->layer)
      hpd_workspace_give_back((hpd_area)i);
  double cost = hpd_cost_begin(HPD_COST_BUFFERS);
  void *block = a->own ? hpd_alloc_large_own(bytes) : hpd_alloc_large(bytes);
  if (block)
    hpd_alloc_large_touch(block, bytes);
  hpd_cost_end(HPD_COST_BUFFERS, cost);
  if (!block)
    return NULL;
  a->block = block;
  a->bytes = bytes;
  return block;
}
