#include "pblas/repeat.h"

#include <string.h>

#include "core/config.h"
#include "core/stats.h"
#include "pblas/grid.h"
#include "pblas/scalapack_api.h"

/* A few calls per routine: a program's loop often alternates two or three shapes (a
 * solve on the whole block and one on a strip of it). */
#define SLOTS 4

typedef struct slot {
  int word[HPD_REPEAT_WORDS];
  int count; /* 0: empty */
  int grid_shape[4];
  hpd_route route;       /* HPD_ROUTE_REFERENCE or HPD_ROUTE_LOCAL */
  const hpd_grid *grid;  /* reference: the grid whose class settled there */
  hpd_local_place place; /* local */
  unsigned repeats;      /* local: since remembered */
} slot;

static struct {
  slot slot[HPD_ROUTINES_MAX][SLOTS];
  int next[HPD_ROUTINES_MAX];
} memo;

static void put(hpd_repeat_key *key, int value)
{
  if (key->count >= 0 && key->count < HPD_REPEAT_WORDS)
    key->word[key->count++] = value;
  else
    key->count = -1;
}

static void begin(hpd_repeat_key *key, hpd_routine routine, const char *letters, int count,
                  hpd_elem alpha)
{
  const hpd_settings *config = hpd_config_get();
  key->count = 0;
  key->ictxt = -1;
  unsigned packed = 0;
  for (int l = 0; l < count; l++)
    packed = packed << 8 | (unsigned char)letters[l];
  put(key, (int)routine);
  put(key, (int)packed);
  put(key, alpha == 0.0); /* the engine scales; a route nobody remembers */
  put(key, (int)config->strategy);
  put(key, (int)config->dispatch);
}

static void matrix(hpd_repeat_key *key, int i, int j, const int *desc)
{
  int entries = desc[HPD_DTYPE] == HPD_BLOCK_CYCLIC_2D       ? 9
                : desc[HPD_DTYPE] == HPD_BLOCK_CYCLIC_2D_INB ? HPD_DLEN
                                                             : 0;
  if (entries == 0) {
    key->count = -1;
    return;
  }
  if (key->ictxt < 0)
    key->ictxt = desc[HPD_CTXT]; /* A's: the grid PBLAS checks against */
  put(key, i);
  put(key, j);
  for (int e = 0; e < entries; e++)
    put(key, desc[e]);
}

void hpd_repeat_key_of(hpd_repeat_key *key, hpd_routine routine, const char *letters,
                       int count, hpd_elem alpha, int m, int n, int k, int ia, int ja,
                       const int *desca, int ib, int jb, const int *descb, int ic, int jc,
                       const int *descc)
{
  begin(key, routine, letters, count, alpha);
  put(key, m);
  put(key, n);
  put(key, k);
  matrix(key, ia, ja, desca);
  if (descb)
    matrix(key, ib, jb, descb);
  if (descc)
    matrix(key, ic, jc, descc);
}

static int routine_of(const hpd_repeat_key *key)
{
  int routine = key->count > 0 ? key->word[0] : -1;
  return routine >= 0 && routine < HPD_ROUTINES_MAX ? routine : -1;
}

hpd_route hpd_repeat_route(const hpd_repeat_key *key, hpd_local_place *place, int *calls)
{
  int routine = routine_of(key);
  if (routine < 0)
    return HPD_ROUTE_ENGINE;
  size_t bytes = (size_t)key->count * sizeof key->word[0];
  for (int s = 0; s < SLOTS; s++) {
    slot *held = &memo.slot[routine][s];
    if (held->count != key->count || memcmp(held->word, key->word, bytes) != 0)
      continue;
    /* The same context number may since name another grid: BLACS reuses freed ones. */
    int shape[4];
    Cblacs_gridinfo(key->ictxt, &shape[0], &shape[1], &shape[2], &shape[3]);
    if (memcmp(shape, held->grid_shape, sizeof shape) != 0)
      return HPD_ROUTE_ENGINE;
    if (held->route == HPD_ROUTE_LOCAL) {
      *place = held->place; /* decided from the descriptors and this place on the grid */
      *calls = ++held->repeats % HPD_REPEAT_TIMED_EVERY ? 0 : HPD_REPEAT_TIMED_EVERY;
      return HPD_ROUTE_LOCAL;
    }
    return hpd_grid_get(key->ictxt, shape[0], shape[1], shape[2], shape[3]) == held->grid
               ? HPD_ROUTE_REFERENCE
               : HPD_ROUTE_ENGINE;
  }
  return HPD_ROUTE_ENGINE;
}

void hpd_repeat_remember(const hpd_repeat_key *key, const hpd_dispatch_ticket *ticket,
                         int reason, int local)
{
  int routine = routine_of(key);
  int reference = reason == HPD_SERVED_DIRECT_REFERENCE &&
                  ticket->route == HPD_ROUTE_REFERENCE && !ticket->calibrating &&
                  ticket->grid;
  local = local && reason == HPD_SERVED_DIRECT_LOCAL && ticket->route == HPD_ROUTE_LOCAL;
  if (routine < 0 || (!reference && !local))
    return;
  slot *free_slot = &memo.slot[routine][memo.next[routine]];
  memo.next[routine] = (memo.next[routine] + 1) % SLOTS;
  memcpy(free_slot->word, key->word, (size_t)key->count * sizeof key->word[0]);
  free_slot->count = key->count;
  free_slot->route = local ? HPD_ROUTE_LOCAL : HPD_ROUTE_REFERENCE;
  free_slot->grid = ticket->grid;
  free_slot->place = ticket->local;
  free_slot->repeats = 0;
  Cblacs_gridinfo(key->ictxt, &free_slot->grid_shape[0], &free_slot->grid_shape[1],
                  &free_slot->grid_shape[2], &free_slot->grid_shape[3]);
}
