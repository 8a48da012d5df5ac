/*
 * The group buffers grow over the calls of a class settled on the engine, within what
 * the reference's figure leaves (pdgemm/buffers.h), on 2 ranks, blocks of 32, under
 * daemon (one group in flight: at least 256 columns, 8 panels, made in the call):
 *  - 1x2, order 1024 (32 panels, all of which the threshold's buffers hold), a class
 *    still being learned: its first two calls, on the engine, pay nothing forward and
 *    both group 8 panels;
 *  - 2x1, K = 512 (16 panels), a class settled on the engine by a verdict in the tune
 *    file whose reference takes a microsecond: nothing to spare, 8 panels twice;
 *  - 2x1, order 1024, a class settled with a reference of 1000 s: its first call groups
 *    8 panels and makes the rest of the threshold's pages (each frequency switch made to
 *    take 200 ms, the sim backend's emulated latency, so that a twentieth of the call
 *    covers them), and its second call groups all 32;
 *  - under HPD_DISPATCH=engine a new class groups the threshold's 16 from its first call;
 *  - every result is the reference's.
 * Prints "N passed, N failed".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dist_matrix.h"
#include "hpdaemon.h"
#include "scalapack.h"

typedef struct problem {
  int m, n, k;
  dist a, b, c;
  double *ref;
} problem;

static void multiply(problem *p)
{
  const int one = 1;
  const double alpha = 1.0, beta = 0.0;
  pdgemm_("N", "N", &p->m, &p->n, &p->k, &alpha, p->a.data, &one, &one, p->a.desc,
          p->b.data, &one, &one, p->b.desc, &beta, p->c.data, &one, &one, p->c.desc);
}

static problem problem_new(const dist_grid *g, int m, int n, int k)
{
  problem p = {m, n, k, dist_new(g, m, k, 1), dist_new(g, k, n, 2), dist_new(g, m, n, 3),
               NULL};
  hpd_set_disable(1);
  multiply(&p);
  hpd_set_disable(0);
  p.ref = dist_copy(&p.c);
  return p;
}

static void problem_free(problem *p)
{
  free(p->ref), free(p->a.data), free(p->b.data), free(p->c.data);
}

/* Two calls of p's class: N_grp of each, results judged. */
static void two_calls(problem *p, const char *what, dist_tally *tally, int ngrp[2])
{
  for (int call = 0; call < 2; call++) {
    multiply(p);
    hpd_stats s;
    hpd_get_stats(&s);
    ngrp[call] = s.routine[HPD_ROUTINE_PDGEMM].ngrp_last;
    char name[128];
    snprintf(name, sizeof name, "%s, call %d's result", what, call + 1);
    dist_judge(tally, name, dist_worst_difference(&p->c, p->ref), 1e-10);
  }
}

/* Rank 0's tune file, with verdicts on 2x1 (one node, daemon): the engine settled, the
 * reference's figure a microsecond at K = 512 and 1000 s at order 1024.  Its path on
 * every rank; "" where it cannot be written (the test then fails). */
static void write_verdicts(char path[64])
{
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    snprintf(path, 64, "buffer_growth_verdicts_%ld.txt", (long)getpid());
    FILE *f = fopen(path, "w");
    if (f) {
      fprintf(f, "hpdaemon-tune 4\n"
                 "route %s/2x1/h1/pdgemm/NN-/daemon/o30 engine 0.000001 0.000001\n"
                 "route %s/2x1/h1/pdgemm/NN-/daemon/o31 engine 0.001 1000\n",
              HPD_VERSION_STRING, HPD_VERSION_STRING);
      if (fclose(f) != 0)
        path[0] = '\0';
    } else
      path[0] = '\0';
  }
  MPI_Bcast(path, 64, MPI_CHAR, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  (void)argc, (void)argv;
  char *row_args[] = {"test_buffer_growth", "1", "2", NULL};
  char *column_args[] = {"test_buffer_growth", "2", "1", NULL};
  dist_grid row = dist_grid_open(3, row_args, "test_buffer_growth", 32);
  dist_grid column = dist_grid_open(3, column_args, "test_buffer_growth", 32);
  char tune_file[64];
  write_verdicts(tune_file);
  dist_tally tally = {0, 0};
  dist_judge_flag(&tally, "buffer growth", "the tune file written", tune_file[0] == '\0');

  hpd_set_dispatch(HPD_DISPATCH_AUTO);
  hpd_set_dvfs(HPD_DVFS_SIM);
  hpd_set_strategy(HPD_STRATEGY_DAEMON);
  hpd_set_switch_min_ms(0);
  hpd_set_sim_switch_us(200000);
  if (hpd_set_tune_file(tune_file) != 0)
    dist_judge_flag(&tally, "buffer growth", "the tune file taken", 1);

  int learned[2], no_spare[2], spare[2], engine_mode[2];
  problem p = problem_new(&row, 1024, 1024, 1024);
  two_calls(&p, "1x2, learned", &tally, learned);
  problem_free(&p);
  p = problem_new(&column, 1024, 1024, 512);
  two_calls(&p, "2x1, nothing to spare", &tally, no_spare);
  problem_free(&p);
  p = problem_new(&column, 1024, 1024, 1024);
  two_calls(&p, "2x1, 1000 s to spare", &tally, spare);
  problem_free(&p);
  hpd_set_dispatch(HPD_DISPATCH_ENGINE); /* the engine's studies */
  p = problem_new(&row, 1024, 1024, 512);
  two_calls(&p, "1x2, HPD_DISPATCH=engine", &tally, engine_mode);
  problem_free(&p);
  hpd_set_sim_switch_us(0);
  hpd_set_dispatch(HPD_DISPATCH_AUTO);
  hpd_set_tune_file("");

  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) {
    printf("buffer growth: N_grp learned %d, %d; nothing to spare %d, %d; 1000 s to spare "
           "%d, %d; HPD_DISPATCH=engine %d\n",
           learned[0], learned[1], no_spare[0], no_spare[1], spare[0], spare[1],
           engine_mode[0]);
    remove(tune_file);
  }
  const char *name = "buffer growth";
  dist_judge_flag(&tally, name, "a class being learned groups 8 panels and pays nothing",
                  !(learned[0] == 8 && learned[1] == 8));
  dist_judge_flag(&tally, name, "a class with nothing to spare pays nothing",
                  !(no_spare[0] == 8 && no_spare[1] == 8));
  dist_judge_flag(&tally, name, "a class with time to spare grows to all 32 panels",
                  !(spare[0] == 8 && spare[1] == 32));
  dist_judge_flag(&tally, name, "HPD_DISPATCH=engine groups all 16 panels at once",
                  engine_mode[0] != 16);
  if (me == 0)
    printf("test_buffer_growth: %d passed, %d failed\n", tally.checked - tally.failed,
           tally.failed);
  Cblacs_gridexit(row.ctxt);
  Cblacs_gridexit(column.ctxt);
  MPI_Finalize();
  return tally.failed != 0;
}
