#include "dist_matrix.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "dist_data.h"
#include "scalapack.h"

dist_grid dist_grid_open(int argc, char **argv, const char *test, int nb)
{
  int p = argc > 2 ? atoi(argv[1]) : 1, q = argc > 2 ? atoi(argv[2]) : 2, nprocs;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (p * q != nprocs) {
    fprintf(stderr, "%s: grid %dx%d needs %d ranks, not %d\n", test, p, q, p * q, nprocs);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  dist_grid g = {.nb = nb};
  Cblacs_get(0, 0, &g.ctxt);
  Cblacs_gridinit(&g.ctxt, "R", p, q);
  Cblacs_gridinfo(g.ctxt, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
  return g;
}

dist dist_new(const dist_grid *g, int rows, int cols, int salt)
{
  return dist_new_laid(g, rows, cols, g->nb, g->nb, 0, 0, salt);
}

dist dist_new_laid(const dist_grid *g, int rows, int cols, int mb, int nb, int rsrc,
                   int csrc, int salt)
{
  dist d;
  int mloc = numroc_(&rows, &mb, &g->myrow, &rsrc, &g->nprow);
  d.nloc = numroc_(&cols, &nb, &g->mycol, &csrc, &g->npcol);
  d.lld = mloc > 1 ? mloc : 1;
  int info;
  descinit_(d.desc, &rows, &cols, &mb, &nb, &rsrc, &csrc, &g->ctxt, &d.lld, &info);
  d.data = malloc(dist_local_len(&d) * sizeof *d.data);
  for (int j = 0; j < d.nloc; j++)
    for (int i = 0; i < d.lld; i++)
      d.data[i + (size_t)j * d.lld] =
          dist_element((uint64_t)salt, dist_global_of(i, mb, rsrc, g->myrow, g->nprow),
                       dist_global_of(j, nb, csrc, g->mycol, g->npcol));
  return d;
}

size_t dist_local_len(const dist *x)
{
  return (size_t)x->lld * (size_t)(x->nloc > 0 ? x->nloc : 1);
}

double *dist_copy(const dist *x)
{
  size_t len = dist_local_len(x);
  double *copy = malloc(len * sizeof *copy);
  for (size_t i = 0; i < len; i++)
    copy[i] = x->data[i];
  return copy;
}

double dist_worst_difference(const dist *x, const double *y)
{
  double worst = 0;
  for (int j = 0; j < x->nloc; j++)
    for (int i = 0; i < x->lld; i++) {
      double d = fabs(x->data[i + (size_t)j * x->lld] - y[i + (size_t)j * x->lld]);
      worst = d > worst || d != d ? d : worst;
    }
  return worst;
}

void dist_judge(dist_tally *tally, const char *what, double worst, double tolerance)
{
  double all;
  int rank;
  MPI_Allreduce(&worst, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = !(all <= tolerance);
  tally->failed += bad;
  tally->checked++;
  if (bad && rank == 0)
    printf("FAILED %s: worst difference %.3g\n", what, all);
}

void dist_judge_flag(dist_tally *tally, const char *name, const char *what, int bad)
{
  char line[256];
  snprintf(line, sizeof line, "%s: %s", name, what);
  dist_judge(tally, line, bad ? 1.0 : 0.0, 0.0);
}
