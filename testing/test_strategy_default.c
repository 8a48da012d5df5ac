/*
 * The default strategy follows the grid's nodes: with HPD_STRATEGY unset, pdgemm's engine
 * runs auto (daemon or overlap per call, counted as auto calls) on a grid that spans
 * several nodes and daemon on one node; HPD_STRATEGY, or hpd_set_strategy, wins over that
 * either way.  Run on 2 ranks as a 1x2 grid, on one node and across two emulated hosts
 * (testing/test_cluster.sh, case strategy).  Prints "N passed, N failed".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "dist_data.h"
#include "hpdaemon.h"
#include "mpi_check.h"
#include "scalapack.h"

#define ORDER 256
#define NB 32

static int rank;

static uint64_t auto_calls(void)
{
  hpd_stats s;
  hpd_get_stats(&s);
  return s.routine[HPD_ROUTINE_PDGEMM].auto_calls;
}

static uint64_t engine_calls(void)
{
  hpd_stats s;
  hpd_get_stats(&s);
  return s.routine[HPD_ROUTINE_PDGEMM].engine_calls;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  hpd_set_dispatch(HPD_DISPATCH_ENGINE); /* every call through the engine */
  int context, nprow, npcol, myrow, mycol, order = ORDER, nb = NB, zero = 0, one = 1, info;
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Row", 1, 2);
  Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
  int rows = numroc_(&order, &nb, &myrow, &zero, &nprow);
  int cols = numroc_(&order, &nb, &mycol, &zero, &npcol);
  int lld = rows > 1 ? rows : 1, desc[9];
  descinit_(desc, &order, &order, &nb, &nb, &zero, &zero, &context, &lld, &info);
  size_t elems = (size_t)lld * (size_t)cols;
  double *a = malloc(elems * sizeof *a), *c = calloc(elems, sizeof *c);
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++)
      a[i + (size_t)j * lld] = dist_element(1, dist_global_index(i, NB, myrow, nprow),
                                            dist_global_index(j, NB, mycol, npcol));
  double alpha = 1.0, beta = 0.0;

  int nodes = world_nodes(), chosen = getenv("HPD_STRATEGY") != NULL;
  int expect_auto = nodes > 1 && !chosen;
  uint64_t auto0 = auto_calls(), engine0 = engine_calls();
  for (int call = 0; call < 4; call++)
    pdgemm_("N", "N", &order, &order, &order, &alpha, a, &one, &one, desc, a, &one, &one, desc,
            &beta, c, &one, &one, desc);
  uint64_t autos = auto_calls() - auto0, engines = engine_calls() - engine0;
  if (rank == 0)
    printf("strategy: %d node(s), HPD_STRATEGY %s, %llu of %llu engine calls under auto\n",
           nodes, chosen ? getenv("HPD_STRATEGY") : "unset", (unsigned long long)autos,
           (unsigned long long)engines);
  check_all(engines == 4, "every call on the engine");
  check_all(expect_auto ? autos == 4 : autos == 0,
        expect_auto ? "the default across nodes is auto" : "daemon on one node, or as chosen");

  /* Chosen through the API: daemon, whatever the nodes. */
  hpd_set_strategy(HPD_STRATEGY_DAEMON);
  auto0 = auto_calls();
  pdgemm_("N", "N", &order, &order, &order, &alpha, a, &one, &one, desc, a, &one, &one, desc,
          &beta, c, &one, &one, desc);
  check_all(auto_calls() == auto0, "hpd_set_strategy(daemon) wins over the nodes' default");

  if (rank == 0)
    printf("%d passed, %d failed\n", passed, failed);
  free(a);
  free(c);
  Cblacs_gridexit(context);
  Cblacs_exit(1);
  MPI_Finalize();
  return failed != 0;
}
