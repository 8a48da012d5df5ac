/*
 * The group buffers grow over calls under the default dispatch (pdgemm/buffers.h), on 2
 * ranks, 1x2, order 1024 in blocks of 32 (32 panels, all of which the threshold's
 * buffers hold):
 *  - the class's first call groups two groups' worth of 256 columns (16 panels), not
 *    the threshold's 32;
 *  - it pays forward: each call's frequency switches are made to take 200 ms (the sim
 *    backend's emulated latency), so that a twentieth of it makes the rest of the
 *    buffers' pages, and the second call groups all 32 panels;
 *  - under HPD_DISPATCH=engine a new class groups the threshold's 32 from its first call;
 *  - every result is the reference's.
 * Prints "N passed, N failed".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "hpdaemon.h"
#include "scalapack.h"

static int failed, passed;

static void check(int ok, const char *what)
{
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("%s: %s\n", all ? "ok" : "FAILED", what);
  all ? passed++ : failed++;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, nprocs, ctxt, nprow, npcol, myrow, mycol;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  Cblacs_get(0, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "R", 1, nprocs);
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);

  const int n = 1024, nb = 32, zero = 0, one = 1;
  int mloc = numroc_(&n, &nb, &myrow, &zero, &nprow);
  int nloc = numroc_(&n, &nb, &mycol, &zero, &npcol);
  int lld = mloc > 1 ? mloc : 1, info, desc[9];
  descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
  size_t len = (size_t)lld * (size_t)(nloc > 0 ? nloc : 1);
  double *a = malloc(len * sizeof *a), *b = malloc(len * sizeof *b);
  double *c = malloc(len * sizeof *c), *ref = malloc(len * sizeof *ref);
  /* Small integers: every grouping sums them exactly. */
  for (size_t i = 0; i < len; i++) {
    a[i] = (double)((i * 7 + (size_t)rank) % 5) - 2.0;
    b[i] = (double)((i * 3 + 2 * (size_t)rank) % 7) - 3.0;
  }
  const double alpha = 1.0, beta = 0.0;
  hpd_set_disable(1);
  pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one, desc, &beta, ref,
          &one, &one, desc);
  hpd_set_disable(0);
  hpd_set_dispatch(HPD_DISPATCH_AUTO);
  hpd_set_dvfs(HPD_DVFS_SIM);
  hpd_set_strategy(HPD_STRATEGY_DAEMON);
  hpd_set_switch_min_ms(0);
  hpd_set_sim_switch_us(200000);

  int ngrp[3] = {0, 0, 0};
  unsigned long long engine[3] = {0, 0, 0};
  int exact = 1;
  for (int call = 0; call < 3; call++) {
    if (call == 2) {
      /* Another class (one octave below: M halved), through the engine's studies. */
      hpd_set_dispatch(HPD_DISPATCH_ENGINE);
    }
    const int m = call == 2 ? n / 2 : n;
    pdgemm_("N", "N", &m, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one, desc, &beta, c,
            &one, &one, desc);
    hpd_stats s;
    hpd_get_stats(&s);
    ngrp[call] = s.routine[HPD_ROUTINE_PDGEMM].ngrp_last;
    engine[call] = s.routine[HPD_ROUTINE_PDGEMM].engine_calls;
    for (int j = 0; j < nloc; j++)
      for (int i = 0; i < (call == 2 ? (mloc < m ? mloc : m) : mloc); i++)
        exact &= c[i + (size_t)j * lld] == ref[i + (size_t)j * lld];
  }
  hpd_set_sim_switch_us(0);
  hpd_set_dispatch(HPD_DISPATCH_AUTO);

  if (rank == 0)
    printf("buffer growth: N_grp %d, %d, then %d under HPD_DISPATCH=engine; engine calls "
           "%llu, %llu, %llu\n",
           ngrp[0], ngrp[1], ngrp[2], engine[0], engine[1], engine[2]);
  check(engine[0] == 1 && engine[1] == 2 && engine[2] == 3, "all three calls on the engine");
  check(ngrp[0] == 16, "the first call groups 512 columns, not the threshold's 1024");
  check(ngrp[1] == 32, "the second call groups all 32 panels, its pages made by the first");
  check(ngrp[2] == 32, "HPD_DISPATCH=engine groups the threshold's panels from the first call");
  check(exact, "every result is the reference's");
  if (rank == 0)
    printf("%d passed, %d failed\n", passed, failed);
  free(a), free(b), free(c), free(ref);
  Cblacs_gridexit(ctxt);
  MPI_Finalize();
  return failed != 0;
}
