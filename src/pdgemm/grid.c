#include "grid.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast.h"
#include "job.h"
#include "ngrp.h"
#include "node.h"
#include "scalapack_api.h"

/* MPI_Comm_create_group's tag.  Any value works: a process creates one communicator at a
 * time, and each creation has a parent communicator (BLACS's, per context) of its own. */
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

/* The grid's processes as ranks of system, in row-major grid order; 0 or -1. */
static int grid_ranks(int ictxt, int nprow, int npcol, MPI_Comm system, int *ranks)
{
  int size = 0;
  MPI_Comm_size(system, &size);
  for (int r = 0; r < nprow; r++)
    for (int c = 0; c < npcol; c++) {
      int pnum = Cblacs_pnum(ictxt, r, c);
      if (pnum < 0 || pnum >= size)
        return -1;
      ranks[r * npcol + c] = pnum;
    }
  return 0;
}

static MPI_Group grid_group(MPI_Comm system, const int *ranks, int n)
{
  MPI_Group all, out;
  MPI_Comm_group(system, &all);
  MPI_Group_incl(all, n, ranks, &out);
  MPI_Group_free(&all);
  return out;
}

static hpd_grid *find(MPI_Group group, int nprow, int npcol)
{
  for (int i = 0; i < cache_len; i++) {
    if (cache[i]->nprow != nprow || cache[i]->npcol != npcol)
      continue;
    int same = MPI_UNEQUAL;
    MPI_Group_compare(cache[i]->group, group, &same);
    if (same == MPI_IDENT)
      return cache[i];
  }
  return NULL;
}

/* The grid's ranks on this node, and the nodes the grid spans; collective over the
 * grid. */
static int ranks_on_node(MPI_Comm comm, int *nodes)
{
  hpd_node node;
  int on_node = 1;
  *nodes = 1;
  if (hpd_node_split(comm, &node) == MPI_SUCCESS) {
    MPI_Comm_size(node.comm, &on_node);
    *nodes = node.nodes;
  }
  hpd_node_free(&node);
  return on_node;
}

/* Collective over the grid. */
static double least_memory_per_rank(MPI_Comm comm, int on_node)
{
  double mine = (double)hpd_node_memory_bytes() / on_node, least = mine;
  MPI_Allreduce(&mine, &least, 1, MPI_DOUBLE, MPI_MIN, comm);
  return least;
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

/* Collective over the grid; takes ownership of group. */
static hpd_grid *create(MPI_Comm system, MPI_Group group, int nprow, int npcol, int myrow,
                        int mycol)
{
  hpd_grid *g = new_entry();
  g->nprow = nprow;
  g->npcol = npcol;
  g->group = group;
  /* A communicator of our own: BLACS frees its own with the context. */
  MPI_Comm_create_group(system, group, GRID_TAG, &g->comm);
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  if (nprow * npcol == world)
    hpd_job_world_grid_made(); /* every rank will be at the report's gathering */
  MPI_Comm_split(g->comm, myrow, mycol, &g->row);
  MPI_Comm_split(g->comm, mycol, myrow, &g->col);
  int on_node = ranks_on_node(g->comm, &g->nodes);
  g->mem_per_rank = least_memory_per_rank(g->comm, on_node);
  /* Waits hand the core over where this grid's ranks outnumber the node's cores. */
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  hpd_bcast_set_cores_shared(cores > 0 && on_node > cores);
  return g;
}

/* The grid asked for last, with its ranks in the BLACS system communicator it was made
 * from.  BLACS keeps a system communicator (what Cblacs_get(0, 0) hands out is its own
 * copy of MPI_COMM_WORLD) until Cblacs_exit, so the same ranks of the same one are the
 * same processes, and a call on that grid again finds it by comparing ranks: building
 * and comparing MPI groups cost a microsecond per call, more than a small call's
 * multiply. */
static struct {
  hpd_grid *grid;
  MPI_Comm system;
  int *ranks;
} last;

static int is_last(int ictxt, MPI_Comm system, int nprow, int npcol)
{
  if (!last.grid || system != last.system || last.grid->nprow != nprow ||
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
  last.system = system;
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
  if (grid_ranks(ictxt, nprow, npcol, system, ranks) != 0) {
    free(ranks);
    return NULL;
  }
  MPI_Group group = grid_group(system, ranks, n);
  hpd_grid *g = find(group, nprow, npcol);
  if (g)
    MPI_Group_free(&group);
  else
    g = create(system, group, nprow, npcol, myrow, mycol);
  remember(g, system, ranks);
  free(ranks);
  return g;
}

int hpd_grid_first_use(const hpd_grid *grid)
{
  hpd_grid *entry = (hpd_grid *)grid; /* a cache entry, allocated here */
  int first = !entry->used;
  entry->used = 1;
  return first;
}
