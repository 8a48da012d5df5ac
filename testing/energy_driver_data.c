#define _POSIX_C_SOURCE 200809L
#include "energy_driver_data.h"

#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc_or_abort.h"
#include "dist_data.h"
#include "scalapack.h"

int ed_grid_open(const ed_options *o, ed_grid *g)
{
  MPI_Comm_rank(MPI_COMM_WORLD, &g->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g->size);
  if ((long)o->p * o->q != g->size)
    return -1;
  Cblacs_get(-1, 0, &g->context);
  Cblacs_gridinit(&g->context, "Row", o->p, o->q);
  Cblacs_gridinfo(g->context, &g->nprow, &g->npcol, &g->myrow, &g->mycol);
  return g->myrow < 0 ? -1 : 0;
}

/* Cholesky's matrix, this rank's own in the simulated timing mode.  That mode folds
 * every large block malloc and calloc hand out onto one memory that all ranks and blocks
 * share (its kernels compute nothing), but PBLAS's unblocked Cholesky still tests each
 * pivot it reads, and one read through folded memory holds whatever another entry wrote
 * there last (at order 8192 on 8 x 8 ranks the factorization stopped at its second
 * column).  bench_factor keeps its whole source file out of the folding
 * (cmake/HpdSimulated.cmake); here the other seven matrices stay folded, and the
 * simulator leaves aligned_alloc's blocks alone. */
static double *own_matrix(size_t elems)
{
  size_t bytes = ((elems ? elems : 1) * sizeof(double) + 63) / 64 * 64;
  double *m = aligned_alloc(64, bytes);
  if (!m) {
    fprintf(stderr, "energy_driver: out of memory for %zu local elements\n", elems);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(m, 0, bytes);
  return m;
}

static void fill(double *m, uint64_t matrix, const ed_problem *pb, const ed_grid *g)
{
  size_t lld = (size_t)pb->desc[8];
  for (int lj = 0; lj < pb->nloc; lj++) {
    int gj = dist_global_index(lj, pb->nb, g->mycol, g->npcol);
    for (int li = 0; li < pb->mloc; li++) {
      int gi = dist_global_index(li, pb->nb, g->myrow, g->nprow);
      /* Entries lie in [-0.5, 0.5): a diagonal of N outweighs any row or column, so
       * partial pivoting never swaps and every strategy factors the same way. */
      double diagonal = matrix >= 3 && gi == gj ? pb->n : 0.0;
      /* Matrix 4 is symmetric, hence positive definite with that diagonal. */
      int lo = matrix == 4 && gj < gi ? gj : gi, hi = matrix == 4 && gj < gi ? gi : gj;
      m[(size_t)lj * lld + (size_t)li] = dist_element(matrix, lo, hi) + diagonal;
    }
  }
}

void ed_problem_setup(ed_problem *pb, int n, int nb, const ed_grid *g)
{
  int zero = 0, info;
  memset(pb, 0, sizeof *pb);
  pb->n = n, pb->nb = nb;
  pb->mloc = numroc_(&n, &nb, &g->myrow, &zero, &g->nprow);
  pb->nloc = numroc_(&n, &nb, &g->mycol, &zero, &g->npcol);
  int lld = pb->mloc > 1 ? pb->mloc : 1;
  descinit_(pb->desc, &n, &n, &nb, &nb, &zero, &zero, &g->context, &lld, &info);
  pb->elems = (size_t)lld * (size_t)pb->nloc;
  double **mats[] = {&pb->a, &pb->b, &pb->c, &pb->c_ref, &pb->lu, &pb->lu_ref,
                     &pb->llt_ref};
  for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
    *mats[i] = alloc_or_abort("energy_driver", pb->elems, sizeof(double));
  pb->llt = own_matrix(pb->elems);
  pb->ipiv = alloc_or_abort("energy_driver", (size_t)pb->mloc + (size_t)nb, sizeof(int));
  fill(pb->a, 1, pb, g);
  fill(pb->b, 2, pb, g);
  ed_lu_regenerate(pb, g);
  ed_llt_regenerate(pb, g);
}

void ed_problem_free(ed_problem *pb)
{
  free(pb->a), free(pb->b), free(pb->c), free(pb->c_ref);
  free(pb->lu), free(pb->lu_ref), free(pb->llt), free(pb->llt_ref), free(pb->ipiv);
}

void ed_lu_regenerate(ed_problem *pb, const ed_grid *g)
{
  fill(pb->lu, 3, pb, g);
}

void ed_llt_regenerate(ed_problem *pb, const ed_grid *g)
{
  fill(pb->llt, 4, pb, g);
}

void ed_multiply(ed_problem *pb)
{
  const int one = 1;
  const double alpha = 1.0, beta = 0.0;
  pdgemm_("N", "N", &pb->n, &pb->n, &pb->n, &alpha, pb->a, &one, &one, pb->desc, pb->b, &one,
          &one, pb->desc, &beta, pb->c, &one, &one, pb->desc);
}

int ed_factor(ed_problem *pb)
{
  const int one = 1;
  int info = 0;
  pdgetrf_(&pb->n, &pb->n, pb->lu, &one, &one, pb->desc, pb->ipiv, &info);
  return info;
}

int ed_cholesky(ed_problem *pb)
{
  const int one = 1;
  int info = 0;
  pdpotrf_("L", &pb->n, pb->llt, &one, &one, pb->desc, &info);
  return info;
}

double ed_scaled_difference(const double *x, const double *ref, size_t elems, int n)
{
  double local[2] = {0, 0}, global[2];
  for (size_t i = 0; i < elems; i++) {
    double d = fabs(x[i] - ref[i]), r = fabs(ref[i]);
    if (!(d <= local[0])) /* keeps a NaN, which a plain '>' would drop */
      local[0] = d;
    if (r > local[1])
      local[1] = r;
  }
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return global[0] / (n * DBL_EPSILON * (global[1] > 0 ? global[1] : 1.0));
}

uint64_t ed_resident_bytes(void)
{
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long size = 0, resident = 0;
  int ok = f && fscanf(f, "%llu %llu", &size, &resident) == 2;
  if (f)
    fclose(f);
  long page = sysconf(_SC_PAGESIZE);
  return ok && page > 0 ? (uint64_t)resident * (uint64_t)page : 0;
}
