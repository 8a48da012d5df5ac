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
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "dist_matrix.h"
#include "hpdaemon.h"
#include "scalapack.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  const int n = 1024, one = 1;
  dist_grid g = dist_grid_open(argc, argv, "test_buffer_growth", 32);
  dist a = dist_new(&g, n, n, 1), b = dist_new(&g, n, n, 2), c = dist_new(&g, n, n, 3);
  const double alpha = 1.0, beta = 0.0;
  hpd_set_disable(1);
  pdgemm_("N", "N", &n, &n, &n, &alpha, a.data, &one, &one, a.desc, b.data, &one, &one,
          b.desc, &beta, c.data, &one, &one, c.desc);
  double *ref = dist_copy(&c);
  hpd_set_disable(0);
  hpd_set_dispatch(HPD_DISPATCH_AUTO);
  hpd_set_dvfs(HPD_DVFS_SIM);
  hpd_set_strategy(HPD_STRATEGY_DAEMON);
  hpd_set_switch_min_ms(0);
  hpd_set_sim_switch_us(200000);

  dist_tally tally = {0, 0};
  int ngrp[3] = {0, 0, 0};
  unsigned long long engine[3] = {0, 0, 0};
  for (int call = 0; call < 3; call++) {
    if (call == 2)
      hpd_set_dispatch(HPD_DISPATCH_ENGINE); /* the engine's studies */
    pdgemm_("N", "N", &n, &n, &n, &alpha, a.data, &one, &one, a.desc, b.data, &one, &one,
            b.desc, &beta, c.data, &one, &one, c.desc);
    hpd_stats s;
    hpd_get_stats(&s);
    ngrp[call] = s.routine[HPD_ROUTINE_PDGEMM].ngrp_last;
    engine[call] = s.routine[HPD_ROUTINE_PDGEMM].engine_calls;
    dist_judge(&tally, call == 2 ? "the third result" : call ? "the second result"
                                                              : "the first result",
               dist_worst_difference(&c, ref), 1e-10);
  }
  hpd_set_sim_switch_us(0);
  hpd_set_dispatch(HPD_DISPATCH_AUTO);

  if (g.myrow == 0 && g.mycol == 0)
    printf("buffer growth: N_grp %d, %d, then %d under HPD_DISPATCH=engine; engine calls "
           "%llu, %llu, %llu\n",
           ngrp[0], ngrp[1], ngrp[2], engine[0], engine[1], engine[2]);
  const char *name = "buffer growth";
  dist_judge_flag(&tally, name, "all three calls on the engine",
                  !(engine[0] == 1 && engine[1] == 2 && engine[2] == 3));
  dist_judge_flag(&tally, name, "the first call groups 512 columns, not the threshold's 1024",
                  ngrp[0] != 16);
  dist_judge_flag(&tally, name, "the second call groups all 32 panels, made by the first",
                  ngrp[1] != 32);
  dist_judge_flag(&tally, name, "HPD_DISPATCH=engine groups all 32 panels at once",
                  ngrp[2] != 32);
  if (g.myrow == 0 && g.mycol == 0)
    printf("test_buffer_growth: %d passed, %d failed\n", tally.checked - tally.failed,
           tally.failed);
  free(ref), free(a.data), free(b.data), free(c.data);
  Cblacs_gridexit(g.ctxt);
  MPI_Finalize();
  return tally.failed != 0;
}
