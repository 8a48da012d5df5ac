/* bench_open_grid (bench_common.h), apart from the rest: only the benchmarks that link
 * ScaLAPACK call it, and a static library pulls in a whole object file. */
#include <mpi.h>

#include "bench_common.h"
#include "scalapack.h"

int bench_open_grid(int p, int q, bench_grid *g)
{
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &g->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if ((long)p * q != size)
    return -1;
  Cblacs_get(-1, 0, &g->context);
  Cblacs_gridinit(&g->context, "Row", p, q);
  Cblacs_gridinfo(g->context, &g->nprow, &g->npcol, &g->myrow, &g->mycol);
  return g->myrow < 0 ? -1 : 0;
}
