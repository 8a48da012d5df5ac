#include "factor_problem.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_or_abort.h"
#include "dist_data.h"
#include "factor_lapack.h"
#include "scalapack.h"

/* Guard entries on each side of a local array: more than a block row, so that an
 * off-by-one-block write lands in them rather than in someone else's memory. */
#define GUARD 256
#define GUARD_VALUE (-7.25e77) /* no factorization of these matrices produces it */
#define GUARD_PIVOT (-987654321)

/* Matrix numbers for dist_element, apart from those of the other drivers. */
#define SEED_LU 11
#define SEED_CHOL 12

int fd_grid_open(int p, int q, fd_grid *g)
{
  MPI_Comm_rank(MPI_COMM_WORLD, &g->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g->size);
  if ((long)p * q != g->size)
    return -1;
  Cblacs_get(-1, 0, &g->context);
  Cblacs_gridinit(&g->context, "Row", p, q);
  Cblacs_gridinfo(g->context, &g->nprow, &g->npcol, &g->myrow, &g->mycol);
  return g->myrow < 0 ? -1 : 0;
}

void fd_problem_setup(fd_problem *pb, fd_factor factor, int n, int nb, const fd_grid *g)
{
  int zero = 0, info;
  memset(pb, 0, sizeof *pb);
  pb->factor = factor;
  pb->uplo = factor == FD_CHOL ? 'L' : '-';
  pb->n = n, pb->nb = nb;
  pb->mloc = numroc_(&n, &nb, &g->myrow, &zero, &g->nprow);
  pb->nloc = numroc_(&n, &nb, &g->mycol, &zero, &g->npcol);
  int lld = pb->mloc > 1 ? pb->mloc : 1;
  descinit_(pb->desc, &n, &n, &nb, &nb, &zero, &zero, &g->context, &lld, &info);
  pb->elems = (size_t)lld * (size_t)pb->nloc;
  pb->npiv = (size_t)pb->mloc + (size_t)nb;
  pb->a_block = alloc_or_abort("factor_driver", pb->elems + 2 * GUARD, sizeof *pb->a_block);
  pb->ipiv_block =
      alloc_or_abort("factor_driver", pb->npiv + 2 * GUARD, sizeof *pb->ipiv_block);
  pb->a = pb->a_block + GUARD;
  pb->ipiv = pb->ipiv_block + GUARD;
  for (size_t i = 0; i < pb->elems + 2 * GUARD; i++)
    pb->a_block[i] = GUARD_VALUE;
  for (size_t i = 0; i < pb->npiv + 2 * GUARD; i++)
    pb->ipiv_block[i] = GUARD_PIVOT;
  fd_generate(pb, g);
}

void fd_problem_free(fd_problem *pb)
{
  free(pb->a_block), free(pb->ipiv_block);
  pb->a = NULL, pb->ipiv = NULL;
}

double fd_original(const fd_problem *pb, int64_t gi, int64_t gj)
{
  if (pb->factor == FD_LU)
    /* No diagonal boost: partial pivoting really swaps rows, so the residual checks P. */
    return dist_element(SEED_LU, gi, gj);
  /* Symmetric by construction; off-diagonal entries lie in [-0.5, 0.5), so a diagonal of
   * N makes every row strictly dominant: positive definite. */
  int64_t lo = gi < gj ? gi : gj, hi = gi < gj ? gj : gi;
  return dist_element(SEED_CHOL, lo, hi) + (gi == gj ? pb->n : 0.0);
}

int64_t fd_global_row(const fd_problem *pb, const fd_grid *g, int li)
{
  return dist_global_index(li, pb->nb, g->myrow, g->nprow);
}

int64_t fd_global_col(const fd_problem *pb, const fd_grid *g, int lj)
{
  return dist_global_index(lj, pb->nb, g->mycol, g->npcol);
}

void fd_generate(fd_problem *pb, const fd_grid *g)
{
  size_t lld = (size_t)pb->desc[8];
  for (int lj = 0; lj < pb->nloc; lj++) {
    int64_t gj = fd_global_col(pb, g, lj);
    for (int li = 0; li < pb->mloc; li++)
      pb->a[(size_t)lj * lld + (size_t)li] = fd_original(pb, fd_global_row(pb, g, li), gj);
  }
}

int fd_factorize(fd_problem *pb)
{
  const int one = 1;
  int info = 0;
  if (pb->factor == FD_LU)
    pdgetrf_(&pb->n, &pb->n, pb->a, &one, &one, pb->desc, pb->ipiv, &info);
  else
    pdpotrf_(&pb->uplo, &pb->n, pb->a, &one, &one, pb->desc, &info);
  return info;
}

int fd_guards_intact(const fd_problem *pb)
{
  for (size_t i = 0; i < GUARD; i++)
    if (pb->a_block[i] != GUARD_VALUE || pb->a[pb->elems + i] != GUARD_VALUE ||
        pb->ipiv_block[i] != GUARD_PIVOT || pb->ipiv[pb->npiv + i] != GUARD_PIVOT)
      return 0;
  return 1;
}

const char *fd_factor_name(fd_factor factor)
{
  return factor == FD_LU ? "pdgetrf" : factor == FD_CHOL ? "pdpotrf" : "unknown";
}
