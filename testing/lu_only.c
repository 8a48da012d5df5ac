/*
 * Calls ScaLAPACK's pdgetrf_ and no hpdaemon symbol at all: the case where gcc's
 * --as-needed would drop hpdaemon from the link unless the link line keeps it.
 * Prints "N passed, N failed"; hpdaemon's report tells whether it was kept: its
 * pdgetrf_ serves the call (on this column of processes, a matrix three times as tall as
 * wide, through its 2-D look-ahead).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "scalapack.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int nprocs, ctxt, nprow, npcol, myrow, mycol;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  Cblacs_get(0, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "C", nprocs, 1);
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  const int m = 240, n = 80, nb = 8, zero = 0, one = 1;
  int mloc = numroc_(&m, &nb, &myrow, &zero, &nprow);
  int nloc = numroc_(&n, &nb, &mycol, &zero, &npcol);
  int lld = mloc > 1 ? mloc : 1, info, desc[9];
  descinit_(desc, &m, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
  double *a = malloc(sizeof(double) * lld * (nloc > 0 ? nloc : 1));
  int *ipiv = malloc(sizeof(int) * (mloc + nb));
  for (int j = 0; j < nloc; j++)
    for (int i = 0; i < mloc; i++) {
      int gi = (i / nb * nprow + myrow) * nb + i % nb;
      int gj = (j / nb * npcol + mycol) * nb + j % nb;
      a[i + j * lld] = gi == gj ? 2.0 * n : 1.0 / (1.0 + gi + 2.0 * gj);
    }
  pdgetrf_(&m, &n, a, &one, &one, desc, ipiv, &info);
  int all_info;
  MPI_Allreduce(&info, &all_info, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (myrow == 0 && mycol == 0)
    printf("%d passed, %d failed\n", all_info == 0, all_info != 0);
  free(a), free(ipiv);
  Cblacs_gridexit(ctxt);
  MPI_Finalize();
  return all_info != 0;
}
