/*
 * pdlaswp_ served by hpdaemon (src/swap/) against ScaLAPACK's own in the same run
 * (hpd_set_disable), on the grid given as P Q: rows and columns,
 * pivots as LU makes them (each row with one at or below it), arbitrary ones (above as
 * well, repeated, chains), none that move, runs inside one block and across blocks,
 * blocks that are not square, a first block off process 0, sub-matrices off the corner.
 * The results must be identical to the bit, and hpdaemon must have served every forward
 * call, or the comparison would prove nothing.  Backward calls must reach the installed
 * ScaLAPACK (before 2.2.3 it reads their pivots from line K2's local index): they are
 * made with K1 = K2 here, where every version reads the same pivot.
 * Usage: test_laswp P Q.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist_matrix.h"
#include "hpdaemon.h"
#include "scalapack.h"

typedef struct layout {
  int m, n, mb, nb, rsrc, csrc;
} layout;

typedef enum { PIVOTS_LU, PIVOTS_ANY, PIVOTS_NONE } pivot_kind;

typedef struct swap_case {
  layout shape;
  char direc, rowcol;
  int ia, ja, n; /* n: the length of the lines */
  int k1, k2;
  pivot_kind pivots;
} swap_case;

static dist_grid grid;
static dist_tally tally;

/* The layout on this grid: a first block off process 0 where the grid has another. */
static layout on_grid(layout s)
{
  s.rsrc %= grid.nprow;
  s.csrc %= grid.npcol;
  return s;
}

static dist matrix_new(const layout *s)
{
  return dist_new_laid(&grid, s->m, s->n, s->mb, s->nb, s->rsrc, s->csrc, 7);
}

/* The case's pivots, the same on every process, each at its own local index of line k1
 * (as ScaLAPACK's INFOG2L finds it), in an array as long as PDLASWP's IPIV. */
static int *tied_pivots(const swap_case *c, const dist *x, unsigned seed)
{
  int rows = c->rowcol == 'R' || c->rowcol == 'r';
  int lines = rows ? c->shape.m : c->shape.n;
  size_t len = (size_t)(rows ? x->lld + c->shape.mb : x->nloc + c->shape.nb) +
               (size_t)(c->k2 - c->k1 + 1);
  int *ipiv = malloc(len * sizeof *ipiv);
  for (size_t i = 0; i < len; i++)
    ipiv[i] = -1; /* anything read outside the run would be out of range */
  int li, lj, prow, pcol, one = 1;
  if (rows)
    infog2l_(&c->k1, &one, x->desc, &grid.nprow, &grid.npcol, &grid.myrow, &grid.mycol, &li,
             &lj, &prow, &pcol);
  else
    infog2l_(&one, &c->k1, x->desc, &grid.nprow, &grid.npcol, &grid.myrow, &grid.mycol, &li,
             &lj, &prow, &pcol);
  int at = (rows ? li : lj) - 1;
  for (int i = c->k1; i <= c->k2; i++) {
    seed = seed * 1103515245u + 12345u;
    unsigned draw = seed >> 8;
    int p = i;
    if (c->pivots == PIVOTS_LU)
      p = i + (int)(draw % (unsigned)(lines - i + 1));
    else if (c->pivots == PIVOTS_ANY)
      p = draw % 4 == 0 ? c->k1 : 1 + (int)(draw % (unsigned)lines); /* chains on k1 */
    ipiv[at + i - c->k1] = p;
  }
  return ipiv;
}

static uint64_t served(void)
{
  hpd_stats s;
  hpd_get_stats(&s);
  return s.routine[HPD_ROUTINE_PDLASWP].engine_calls;
}

static void run_case(const swap_case *c, unsigned seed)
{
  dist x = matrix_new(&c->shape);
  int *ipiv = tied_pivots(c, &x, seed);
  size_t bytes = dist_local_len(&x) * sizeof *x.data;
  double *reference = malloc(bytes);
  memcpy(reference, x.data, bytes);
  double *before = malloc(bytes);
  memcpy(before, x.data, bytes);

  hpd_set_disable(1);
  double *keep = x.data;
  x.data = reference;
  pdlaswp_(&c->direc, &c->rowcol, &c->n, x.data, &c->ia, &c->ja, x.desc, &c->k1, &c->k2,
           ipiv);
  x.data = keep;
  hpd_set_disable(0);
  uint64_t was = served();
  pdlaswp_(&c->direc, &c->rowcol, &c->n, x.data, &c->ia, &c->ja, x.desc, &c->k1, &c->k2,
           ipiv);
  int by_hpdaemon = served() > was;
  int forward = c->direc == 'F' || c->direc == 'f';

  int differs = memcmp(x.data, reference, bytes) != 0;
  int moved = memcmp(before, reference, bytes) != 0;
  int any_differs, any_moved, all_served;
  MPI_Allreduce(&differs, &any_differs, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  MPI_Allreduce(&moved, &any_moved, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  int as_expected = by_hpdaemon == forward;
  MPI_Allreduce(&as_expected, &all_served, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  int expect_moves = forward && c->pivots != PIVOTS_NONE && c->n > 0 && c->k2 >= c->k1;
  char what[160];
  snprintf(what, sizeof what,
           "%c%c %dx%d mb %d nb %d src %d,%d ia %d ja %d n %d k %d..%d pivots %d",
           c->direc, c->rowcol, c->shape.m, c->shape.n, c->shape.mb, c->shape.nb,
           c->shape.rsrc, c->shape.csrc, c->ia, c->ja, c->n, c->k1, c->k2, (int)c->pivots);
  dist_judge(&tally, what, any_differs ? 1.0 : 0.0, 0.0);
  /* the comparison proves something only where data moved and hpdaemon moved it */
  dist_judge(&tally, forward ? "served by hpdaemon" : "handed to the reference",
             all_served ? 0.0 : 1.0, 0.0);
  if (expect_moves)
    dist_judge(&tally, "data moved", any_moved ? 0.0 : 1.0, 0.0);
  free(ipiv), free(reference), free(before), free(x.data);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  grid = dist_grid_open(argc, argv, "test_laswp", 1);
  const layout shapes[] = {
      {37, 29, 4, 3, 0, 0},   /* small, non-square blocks */
      {64, 50, 8, 8, 1, 0},   /* first block off process 0 */
      {90, 70, 16, 5, 0, 1},  /* columns' first block off process 0 */
      {200, 160, 32, 32, 0, 0}, /* past the stack's scratch: allocated, agreed */
  };
  unsigned seed = 1;
  int cases = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
    const layout *sh = &shapes[s];
    for (int rc = 0; rc < 2; rc++)
      for (int d = 0; d < 2; d++)
        for (int kind = 0; kind < 3; kind++)
          for (int span = 0; span < 2; span++) {
            swap_case c = {on_grid(*sh), d ? 'B' : 'F', rc ? 'C' : 'R', 1, 1, 0, 1, 1,
                           (pivot_kind)kind};
            int rows = c.rowcol == 'R';
            int lines = rows ? sh->m : sh->n, across = rows ? sh->n : sh->m;
            int block = rows ? sh->mb : sh->nb;
            /* a run inside one block (as pdgetrf's), or one that crosses blocks */
            c.k1 = span ? block / 2 + 1 : block + 1;
            c.k2 = span ? c.k1 + 2 * block : c.k1 + block - 1;
            if (c.k2 > lines)
              c.k2 = lines;
            if (d)
              c.k2 = c.k1;
            /* the lines from an offset, as pdgetrf passes them (left and right parts) */
            int off = (int)(s + span) % 3 + 1;
            c.n = across - off + 1 - (int)(s % 2);
            if (rows)
              c.ja = off, c.ia = 2;
            else
              c.ia = off, c.ja = 2;
            c.direc = d ? (s % 2 ? 'b' : 'B') : (s % 2 ? 'f' : 'F');
            c.rowcol = rows ? (s % 2 ? 'r' : 'R') : (s % 2 ? 'c' : 'C');
            run_case(&c, seed++);
            cases++;
          }
  }
  /* nothing to move: N = 0 and K2 < K1 leave the matrix alone on both sides */
  swap_case empty = {on_grid(shapes[0]), 'F', 'R', 1, 1, 0, 1, 4, PIVOTS_LU};
  run_case(&empty, seed++);
  empty.n = shapes[0].n, empty.k1 = 5, empty.k2 = 4;
  run_case(&empty, seed++);
  if (grid.myrow == 0 && grid.mycol == 0)
    printf("laswp %dx%d: %d cases, %d checks, %d failed\n", grid.nprow, grid.npcol,
           cases + 2, tally.checked, tally.failed);
  Cblacs_gridexit(grid.ctxt);
  MPI_Finalize();
  return tally.failed != 0;
}
