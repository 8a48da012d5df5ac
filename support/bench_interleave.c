#include "bench_interleave.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_common.h"
#include "hpdaemon.h"

const char bench_interleave_usage[] =
    "  --interleave hpd|ref  in this fresh process, -r rounds of one call of\n"
    "             each order of -n in turn, through that side alone (one block\n"
    "             size); one CSV row per call (support/bench_interleave.h,\n"
    "             timing/run_interleave.sh)\n";

int bench_interleave_check(int reference, int first, int orders, int blocks, int rounds,
                           char *err, size_t errlen)
{
  if (reference < 0 || (first < 0 && orders >= 2 && blocks == 1 && rounds >= 1))
    return 0;
  snprintf(err, errlen, "--interleave takes two orders or more (-n), one block size (-b), "
                        "one round or more (-r), and no --first-calls");
  return -1;
}

typedef struct timed_call {
  int n;
  double seconds;
  char route[BENCH_FIRST_WORD];
} timed_call;

static void report(const bench_interleave_row *row, int reference, int calls,
                   const timed_call *t, const char *csv_path)
{
  const char *side = reference ? "ref" : "hpd";
  printf("interleave %s %s %dx%d NB=%d, %s:", row->routine, row->letters, row->p, row->q,
         row->nb, side);
  for (int i = 0; i < calls; i++)
    printf("%s N=%d %.4f s%s%s", i ? "," : "", t[i].n, t[i].seconds, reference ? "" : " ",
           reference ? "" : t[i].route);
  printf("\n");
  fflush(stdout);
  FILE *csv = bench_open_csv("interleave", csv_path, 0,
                             "routine,letters,p,q,nb,side,call,n,seconds,route");
  if (!csv)
    return;
  for (int i = 0; i < calls; i++)
    fprintf(csv, "%s,%s,%d,%d,%d,%s,%d,%d,%.6f,%s\n", row->routine, row->letters, row->p,
            row->q, row->nb, side, i + 1, t[i].n, t[i].seconds, t[i].route);
  fclose(csv);
}

void bench_interleave_run(const bench_interleave_row *row, int reference, int rounds,
                          int count, const int *orders, bench_first_call call,
                          void *const *problems, const char *csv_path)
{
  int calls = rounds * count;
  timed_call *t = calloc(calls > 0 ? (size_t)calls : 1, sizeof *t);
  if (!t)
    MPI_Abort(MPI_COMM_WORLD, 1);
  bench_first_warm();
  for (int i = 0; i < calls; i++) {
    t[i].n = orders[i % count];
    t[i].seconds = bench_first_timed(call, problems[i % count], reference, t[i].route);
  }
  hpd_set_disable(0);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    report(row, reference, calls, t, csv_path);
  free(t);
}
