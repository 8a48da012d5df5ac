#include "dispatch.h"

#include <stdlib.h>

#include "config.h"
#include "direct.h"
#include "engine.h"
#include "stats.h"

/* Classes per grid.  A table that fills up sends new classes to the engine, as before
 * there was a dispatch rule; it fills alike on every rank of the grid. */
#define CLASS_SLOTS 256
#define CLASS_LIMIT (CLASS_SLOTS * 3 / 4)
/* Three pairs settle a class: on a shared machine one call in a few is slowed down by
 * somebody else's work, and the best of three rarely is.  Where calls take long enough
 * for that noise to be small (and a calibration call to be costly: one reference call at
 * N = 4096 takes seconds), one pair settles it if one side is clearly faster. */
#define PAIRS 3
#define LONG_CALL_S 10e-3
#define CLEAR_MARGIN 1.25

typedef struct hpd_route_class {
  uint32_t key; /* 0: an empty slot */
  int calls;    /* calls seen so far, while calibrating */
  int settled;
  hpd_route route;
  double best[2]; /* this rank's best engine and reference call, in seconds */
} hpd_route_class;

struct hpd_route_table {
  hpd_route_class slot[CLASS_SLOTS];
  int used;
};

static int settled_count, reference_count;

static int octave(uint64_t x)
{
  int bits = 0;
  for (; x; x >>= 1)
    bits++;
  return bits;
}

/* Never 0: routine, TRANS letters, UPLO, octaves of M*N*K (up to 93) and of K. */
static uint32_t class_key(const hpd_call *call, hpd_routine routine)
{
  uint64_t flops = (uint64_t)call->m * (uint64_t)call->n * (uint64_t)call->k;
  uint32_t uplo = call->uplo == 'U' ? 1 : call->uplo == 'L' ? 2 : 0;
  return 1u | (uint32_t)routine << 1 | (uint32_t)(call->transa == 'T') << 4 |
         (uint32_t)(call->transb == 'T') << 5 | uplo << 6 | (uint32_t)octave(flops) << 8 |
         (uint32_t)octave((uint64_t)call->k) << 16;
}

/* The class's slot, made on first sight; NULL when the table is full or cannot be had. */
static hpd_route_class *find_class(const hpd_grid *grid, uint32_t key)
{
  hpd_grid *entry = (hpd_grid *)grid; /* a cache entry of grid.c, owned there */
  if (!entry->routes && !(entry->routes = calloc(1, sizeof *entry->routes)))
    return NULL;
  struct hpd_route_table *table = entry->routes;
  unsigned i = (unsigned)((key * 2654435761u) >> 24) % CLASS_SLOTS;
  for (;; i = (i + 1) % CLASS_SLOTS) {
    hpd_route_class *cls = &table->slot[i];
    if (cls->key == key)
      return cls;
    if (cls->key == 0) {
      if (table->used >= CLASS_LIMIT)
        return NULL;
      table->used++;
      *cls = (hpd_route_class){.key = key, .best = {-1.0, -1.0}};
      return cls;
    }
  }
}

static hpd_route route_of(const hpd_call *call, hpd_routine routine,
                          hpd_dispatch_ticket *ticket)
{
  *ticket = (hpd_dispatch_ticket){0};
  if (hpd_config_get()->dispatch == HPD_DISPATCH_ENGINE || call->myrow < 0 ||
      call->mycol < 0)
    return HPD_ROUTE_ENGINE;
  if (hpd_direct_is_local(call))
    return HPD_ROUTE_LOCAL;
  if (call->m == 0 || call->n == 0 || call->k == 0 || call->alpha == 0.0)
    return HPD_ROUTE_ENGINE; /* a local scaling, nothing to learn */
  const hpd_grid *grid =
      hpd_grid_get(call->ictxt, call->nprow, call->npcol, call->myrow, call->mycol);
  hpd_route_class *cls = grid ? find_class(grid, class_key(call, routine)) : NULL;
  if (!cls)
    return HPD_ROUTE_ENGINE;
  if (cls->settled)
    return cls->route;
  *ticket = (hpd_dispatch_ticket){.cls = cls, .grid = grid, .timed = cls->calls > 0};
  /* 0: the engine's warm-up; then reference, engine, reference, engine, ... */
  return cls->calls == 0 || cls->calls % 2 == 0 ? HPD_ROUTE_ENGINE : HPD_ROUTE_REFERENCE;
}

static void settle(hpd_route_class *cls, hpd_route route)
{
  cls->settled = 1;
  cls->route = route;
  settled_count++;
  reference_count += route == HPD_ROUTE_REFERENCE;
}

void hpd_dispatch_learn(const hpd_dispatch_ticket *ticket, double seconds)
{
  hpd_route route = ticket->route;
  hpd_route_class *cls = ticket->cls;
  if (!cls)
    return;
  cls->calls++;
  if (!ticket->timed)
    return;
  int side = route == HPD_ROUTE_ENGINE ? 0 : 1;
  if (cls->best[side] < 0.0 || seconds < cls->best[side])
    cls->best[side] = seconds;
  if (route != HPD_ROUTE_ENGINE)
    return; /* a pair ends with its engine call */
  double slowest[2];
  MPI_Allreduce(cls->best, slowest, 2, MPI_DOUBLE, MPI_MAX, ticket->grid->comm);
  int pairs = (cls->calls - 1) / 2;
  double engine = slowest[0], reference = slowest[1];
  int clear = engine * CLEAR_MARGIN < reference || reference * CLEAR_MARGIN < engine;
  int long_calls = engine >= LONG_CALL_S && reference >= LONG_CALL_S;
  if (pairs >= PAIRS || (clear && long_calls))
    settle(cls, engine < reference ? HPD_ROUTE_ENGINE : HPD_ROUTE_REFERENCE);
}

int hpd_dispatch_serve(const hpd_call *call, hpd_routine routine, hpd_dispatch_ticket *ticket)
{
  hpd_route route = route_of(call, routine, ticket);
  ticket->route = route;
  switch (route) {
  case HPD_ROUTE_LOCAL:
    hpd_direct_local(call);
    return HPD_SERVED_DIRECT_LOCAL;
  case HPD_ROUTE_REFERENCE:
    return HPD_SERVED_DIRECT_REFERENCE;
  case HPD_ROUTE_ENGINE:
  default:
    return hpd_engine_serve(call, routine);
  }
}

void hpd_dispatch_counts(int *settled, int *to_reference)
{
  *settled = settled_count;
  *to_reference = reference_count;
}
