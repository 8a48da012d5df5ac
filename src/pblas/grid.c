#include "pblas/grid.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast/bcast.h"
#include "bcast/wait.h"
#include "core/config.h"
#include "core/costs.h"
#include "core/job.h"
#include "core/log.h"
#include "core/node.h"
#include "core/node_memory.h"
#include "pblas/scalapack_api.h"

/* MPI_Comm_create_group's tag for the grid (over BLACS's communicator, one per context),
 * and the next two for its lines (over the grid's): a process creates one communicator at
 * a time, but a line's creation may meet messages of the other line's, which shares this
 * process. */
#define GRID_TAG 0x4844

static hpd_grid **cache;
static int cache_len, cache_cap;

/* The communicator BLACS made for this grid (its system context), which the new
 * communicators derive from; MPI_COMM_NULL when there is none. */
static MPI_Comm grid_system(int ictxt)
{
  int handle = -1;
  Cblacs_get(ictxt, HPD_BLACS_GET_GRID_SYSTEM, &handle);
  return handle < 0 ? MPI_COMM_NULL : Cblacs2sys_handle(handle);
}

/* The grid's processes as ranks of system, in row-major grid order; HPD_OK or a failure. */
static hpd_status grid_ranks(int ictxt, int nprow, int npcol, MPI_Comm system, int *ranks)
{
  int size = 0;
  MPI_Comm_size(system, &size);
  for (int r = 0; r < nprow; r++)
    for (int c = 0; c < npcol; c++) {
      int pnum = Cblacs_pnum(ictxt, r, c);
      if (pnum < 0 || pnum >= size)
        return HPD_STATUS_UNAVAILABLE;
      ranks[r * npcol + c] = pnum;
    }
  return HPD_OK;
}

static MPI_Group grid_group(MPI_Comm system, const int *ranks, int n)
{
  MPI_Group all, out;
  MPI_Comm_group(system, &all);
  MPI_Group_incl(all, n, ranks, &out);
  MPI_Group_free(&all);
  return out;
}

/* The group's processes as ranks of MPI_COMM_WORLD, in the group's order. */
static int *world_ranks_of(MPI_Group group, int n)
{
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
  if (!in || !out)
    abort(); /* see new_entry */
  for (int i = 0; i < n; i++)
    in[i] = i;
  MPI_Group_translate_ranks(group, n, in, world, out);
  MPI_Group_free(&world);
  free(in);
  return out;
}

static hpd_grid *find(const int *world_ranks, int nprow, int npcol)
{
  size_t bytes = (size_t)nprow * (size_t)npcol * sizeof *world_ranks;
  for (int i = 0; i < cache_len; i++)
    if (cache[i]->nprow == nprow && cache[i]->npcol == npcol &&
        memcmp(cache[i]->world_ranks, world_ranks, bytes) == 0)
      return cache[i];
  return NULL;
}

/* The grid's communicator, in row-major grid order.  Where the grid is BLACS's whole
 * system communicator in its own order (a row-major grid over MPI_COMM_WORLD, the common
 * case), a duplicate waited under the wait policy; otherwise made from the group, which
 * blocks inside MPI.  Collective over the grid. */
static MPI_Comm grid_comm(MPI_Comm system, MPI_Group group, const int *ranks, int n)
{
  int size = 0, same = 1;
  MPI_Comm_size(system, &size);
  for (int i = 0; i < n && same; i++)
    same = ranks[i] == i;
  MPI_Comm comm = MPI_COMM_NULL;
  if (same && size == n)
    hpd_wait_dup(system, &comm);
  else
    MPI_Comm_create_group(system, group, GRID_TAG, &comm);
  return comm;
}

/* The processes of one line of the grid, at stride apart from first, as a communicator:
 * made from the group, collective over the line only, where a split would gather every
 * rank's colour over the whole grid first. */
static MPI_Comm line_comm(MPI_Comm grid, int first, int count, int stride, int tag)
{
  int *ranks = malloc((size_t)count * sizeof *ranks);
  if (!ranks)
    abort(); /* see new_entry */
  for (int i = 0; i < count; i++)
    ranks[i] = first + i * stride;
  MPI_Group all, line;
  MPI_Comm_group(grid, &all);
  MPI_Group_incl(all, count, ranks, &line);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_create_group(grid, line, tag, &comm);
  MPI_Group_free(&line);
  MPI_Group_free(&all);
  free(ranks);
  return comm;
}

/* The nodes the grid spans and the least node memory per grid rank over them, from one
 * gather (hpd_node_map); returns this rank's count of the grid's ranks on its node.
 * Collective over the grid. */
static int learn_nodes(hpd_grid *g)
{
  int n = g->nprow * g->npcol, me = 0;
  MPI_Comm_rank(g->comm, &me);
  double memory = (double)hpd_node_memory_bytes();
  int *first = malloc((size_t)n * sizeof *first), *count = calloc((size_t)n, sizeof *count);
  double *memories = malloc((size_t)n * sizeof *memories);
  if (!first || !count || !memories)
    abort(); /* see new_entry */
  g->nodes = hpd_node_map(g->comm, 0, memory, memories, first, hpd_collective_waiter());
  int on_node = 1;
  g->mem_per_rank = memory;
  if (g->nodes > 0) {
    for (int r = 0; r < n; r++)
      count[first[r]]++;
    on_node = count[first[me]];
    for (int r = 0; r < n; r++)
      g->mem_per_rank = fmin(g->mem_per_rank, memories[r] / count[first[r]]);
  } else {
    g->nodes = 1;
  }
  g->link_nodes = g->nodes;
#ifdef HPD_SIMULATED
  int by_link = hpd_node_map(g->comm, 1, memory, NULL, first, hpd_collective_waiter());
  g->link_nodes = by_link > 0 ? by_link : 1;
#endif
  free(first);
  free(count);
  free(memories);
  return on_node;
}

/* Room for one more entry.  Failing here cannot be turned into a fallback: the other
 * ranks of the grid are about to wait in the collectives below, so the job stops. */
static hpd_grid *new_entry(void)
{
  if (cache_len == cache_cap) {
    int cap = cache_cap ? 2 * cache_cap : 8;
    hpd_grid **bigger = realloc(cache, (size_t)cap * sizeof *bigger);
    if (!bigger)
      abort();
    cache = bigger;
    cache_cap = cap;
  }
  hpd_grid *g = calloc(1, sizeof *g);
  if (!g)
    abort();
  return cache[cache_len++] = g;
}

/* Collective over the grid; takes ownership of world_ranks. */
static hpd_grid *create(MPI_Comm system, MPI_Group group, const int *ranks,
                        int *world_ranks, int nprow, int npcol, int myrow, int mycol)
{
  double cost = hpd_cost_begin(HPD_COST_SETUP);
  hpd_grid *g = new_entry();
  g->nprow = nprow;
  g->npcol = npcol;
  g->world_ranks = world_ranks;
  /* Communicators of our own: BLACS frees its own with the context. */
  g->comm = grid_comm(system, group, ranks, nprow * npcol);
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  if (nprow * npcol == world)
    hpd_job_world_grid_made(); /* every rank will be at the report's gathering */
  g->row = line_comm(g->comm, myrow * npcol, npcol, 1, GRID_TAG + 1);
  g->col = line_comm(g->comm, mycol, nprow, npcol, GRID_TAG + 2);
  g->col_up = g->row_left = MPI_COMM_NULL;
  int on_node = learn_nodes(g);
  /* Waits hand the core over where this grid's ranks outnumber the node's cores. */
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  hpd_bcast_set_cores_shared(cores > 0 && on_node > cores);
  hpd_cost_end(HPD_COST_SETUP, cost);
  return g;
}

/* A mark of the communicator BLACS made the grid from, the same while it lives: BLACS
 * frees it with its context, and a communicator made later can have the same handle (a
 * simulated MPI's handles are addresses, reused on some ranks and not on others), but not
 * the attribute, which MPI deletes with the communicator. */
static int stamp_keyval = MPI_KEYVAL_INVALID;
static intptr_t stamps;

static intptr_t stamp_of(MPI_Comm system)
{
  if (stamp_keyval == MPI_KEYVAL_INVALID)
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &stamp_keyval,
                           NULL);
  void *value = NULL;
  int found = 0;
  MPI_Comm_get_attr(system, stamp_keyval, &value, &found);
  if (found)
    return (intptr_t)value;
  MPI_Comm_set_attr(system, stamp_keyval, (void *)++stamps);
  return stamps;
}

/* The grid asked for last, with its ranks in the BLACS communicator it was made from.
 * The same ranks of the same communicator are the same processes, so a call on that grid
 * again finds it by comparing ranks: building and comparing MPI groups cost a
 * microsecond per call, more than a small call's multiply. */
static struct {
  hpd_grid *grid;
  intptr_t system;
  int *ranks;
} last;

static int is_last(int ictxt, MPI_Comm system, int nprow, int npcol)
{
  if (!last.grid || stamp_of(system) != last.system || last.grid->nprow != nprow ||
      last.grid->npcol != npcol)
    return 0;
  for (int r = 0; r < nprow; r++)
    for (int c = 0; c < npcol; c++)
      if (Cblacs_pnum(ictxt, r, c) != last.ranks[r * npcol + c])
        return 0;
  return 1;
}

static void remember(hpd_grid *g, MPI_Comm system, const int *ranks)
{
  size_t bytes = (size_t)g->nprow * g->npcol * sizeof *ranks;
  int *copy = malloc(bytes);
  free(last.ranks);
  last.grid = copy ? g : NULL;
  last.system = stamp_of(system);
  last.ranks = copy;
  if (copy)
    memcpy(copy, ranks, bytes);
}

const hpd_grid *hpd_grid_get(int ictxt, int nprow, int npcol, int myrow, int mycol)
{
  MPI_Comm system = grid_system(ictxt);
  if (system == MPI_COMM_NULL)
    return NULL;
  if (is_last(ictxt, system, nprow, npcol))
    return last.grid;
  int n = nprow * npcol;
  int *ranks = malloc((size_t)n * sizeof *ranks);
  if (!ranks)
    abort(); /* see new_entry: a lone fallback here would hang the rest of the grid */
  if (grid_ranks(ictxt, nprow, npcol, system, ranks) != HPD_OK) {
    free(ranks);
    return NULL;
  }
  MPI_Group group = grid_group(system, ranks, n);
  int *world_ranks = world_ranks_of(group, n);
  hpd_grid *g = find(world_ranks, nprow, npcol);
  if (g)
    free(world_ranks);
  else
    g = create(system, group, ranks, world_ranks, nprow, npcol, myrow, mycol);
  MPI_Group_free(&group);
  remember(g, system, ranks);
  free(ranks);
  return g;
}

void *hpd_grid_state(const hpd_grid *grid, hpd_grid_slot slot, size_t bytes)
{
  hpd_grid *entry = (hpd_grid *)grid; /* a cache entry, allocated here */
  if (!entry->context[slot] && !(entry->context[slot] = calloc(1, bytes)))
    hpd_fatal("no memory for %zu bytes of a grid's state", bytes);
  return entry->context[slot];
}

/* This process's line of the grid ranked from its far end: made at the first request into
 * *kept (a cache entry's field), whose line runs from grid rank first by stride. */
static MPI_Comm line_back(const hpd_grid *grid, MPI_Comm *kept, int first, int count,
                          int stride, int tag)
{
  if (*kept == MPI_COMM_NULL)
    *kept = line_comm(grid->comm, first, count, stride, tag);
  return *kept;
}

MPI_Comm hpd_grid_col_up(const hpd_grid *grid)
{
  hpd_grid *entry = (hpd_grid *)grid; /* a cache entry, allocated here */
  int mycol = 0;
  MPI_Comm_rank(grid->row, &mycol);
  return line_back(grid, &entry->col_up, mycol + (grid->nprow - 1) * grid->npcol, grid->nprow,
                   -grid->npcol, GRID_TAG + 3);
}

MPI_Comm hpd_grid_row_left(const hpd_grid *grid)
{
  hpd_grid *entry = (hpd_grid *)grid; /* a cache entry, allocated here */
  int myrow = 0;
  MPI_Comm_rank(grid->col, &myrow);
  return line_back(grid, &entry->row_left, myrow * grid->npcol + grid->npcol - 1, grid->npcol,
                   -1, GRID_TAG + 4);
}

hpd_bcast_how *hpd_grid_bcast(const hpd_grid *grid)
{
  return hpd_grid_state(grid, HPD_GRID_BCAST, sizeof(hpd_bcast_how));
}

hpd_grid_spare *hpd_grid_spare_of(const hpd_grid *grid)
{
  return hpd_grid_state(grid, HPD_GRID_SPARE, sizeof(hpd_grid_spare));
}

int hpd_grid_first_use(const hpd_grid *grid)
{
  hpd_grid *entry = (hpd_grid *)grid; /* a cache entry, allocated here */
  int first = !entry->used;
  entry->used = 1;
  return first;
}

/* Across hosts a panel's broadcast takes as long as a multiply or longer, so hiding it
 * behind the multiply (overlap) can beat switching down for it, and auto takes whichever
 * of the two its figures favour; on one node daemon's switches cost nothing in time. */
hpd_strategy hpd_grid_strategy(const hpd_grid *grid)
{
  if (hpd_config_strategy_chosen())
    return hpd_config_get()->strategy;
  return grid->nodes > 1 ? HPD_STRATEGY_AUTO : HPD_STRATEGY_DAEMON;
}

double hpd_grid_budget(const hpd_grid *grid)
{
  return hpd_config_get()->mem_threshold * grid->mem_per_rank;
}
