/*
 * The dispatch rule (HPD_DISPATCH=auto) on 2 ranks, 1x2 grid:
 *  - a call whose sub-matrices lie in one block of one process is served by a local
 *    dgemm there (counted as direct, local), with the reference's result, and makes no
 *    frequency switch;
 *  - a class whose engine calls are made slow on purpose (the sim backend emulating
 *    switches of some milliseconds, two per panel) runs its first calls on the engine (two,
 *    and up to two more while they get faster), one round of calibration, and every later
 *    call on the reference;
 *  - a class one octave of M*N*K below it starts on the reference, no engine call;
 *  - under HPD_CALIBRATION=0 such a class takes no round: the reference after the
 *    engine's first calls;
 *  - a class settled on the engine is watched and goes to the reference once its engine
 *    calls turn slow;
 *  - routes are learned per strategy: another strategy starts the class again;
 *  - HPD_DISPATCH=engine sends a new class to the engine every time;
 *  - with --verdicts write|read FILE instead: a settled route is kept in the tune file,
 *    and a later run takes it from there without a single engine call, as it takes a
 *    close class, on the side its figures favour until a round is affordable (the
 *    reference where the engine was slower, the engine where it was faster by 5%);
 *  - with --grid2d on 4 ranks, a 2x2 grid: a class opens on the reference; one whose
 *    engine is slower than that call by a quarter makes one engine call and stays on
 *    the reference; a pdtrsm class whose block solve's buffers pass the memory
 *    threshold (it would be halved) makes no engine call until a round is affordable;
 *  - engine + direct + fallback + rejected = calls throughout.
 * Prints "N passed, N failed".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist_data.h"
#include "hpdaemon.h"
#include "mpi_check.h"
#include "node_memory.h"
#include "scalapack.h"
#include "slow_engine.h"

#define ORDER 384
#define SLOW 192       /* the class made slow on purpose */
#define SLOW_SMALL 120 /* the same, a class of its own, two octaves of M*N*K below */
#define SLOW_BELOW 160 /* the same, one octave below SLOW */
#define LEADER 96      /* a close class whose figures favour the engine */
#define NB 32

static int rank;

typedef struct matrices {
  int desc[9], mloc, nloc, lld;
  int myrow, mycol, nprow, npcol;
  double *a, *b, *c, *expected;
} matrices;

static void fill(matrices *x, int context, int myrow, int mycol, int nprow, int npcol)
{
  int order = ORDER, nb = NB, zero = 0, info;
  x->myrow = myrow, x->mycol = mycol, x->nprow = nprow, x->npcol = npcol;
  x->mloc = numroc_(&order, &nb, &myrow, &zero, &nprow);
  x->nloc = numroc_(&order, &nb, &mycol, &zero, &npcol);
  x->lld = x->mloc > 1 ? x->mloc : 1;
  descinit_(x->desc, &order, &order, &nb, &nb, &zero, &zero, &context, &x->lld, &info);
  size_t elems = (size_t)x->lld * (size_t)x->nloc;
  x->a = malloc(elems * sizeof(double));
  x->b = malloc(elems * sizeof(double));
  x->c = malloc(elems * sizeof(double));
  x->expected = malloc(elems * sizeof(double));
  for (int j = 0; j < x->nloc; j++)
    for (int i = 0; i < x->mloc; i++) {
      int64_t gi = dist_global_index(i, NB, myrow, nprow);
      int64_t gj = dist_global_index(j, NB, mycol, npcol);
      x->a[i + (size_t)j * x->lld] = dist_element(1, gi, gj);
      x->b[i + (size_t)j * x->lld] = dist_element(2, gi, gj);
      x->c[i + (size_t)j * x->lld] = dist_element(3, gi, gj);
    }
  memcpy(x->expected, x->c, elems * sizeof(double));
}

/* The same call on c (hpdaemon, as configured) and on expected (the reference). */
static void both(matrices *x, char ta, char tb, int m, int n, int k, int ia, int ja, int ib,
                 int jb, int ic, int jc)
{
  double alpha = 0.75, beta = 0.5;
  pdgemm_(&ta, &tb, &m, &n, &k, &alpha, x->a, &ia, &ja, x->desc, x->b, &ib, &jb, x->desc,
          &beta, x->c, &ic, &jc, x->desc);
  hpd_set_disable(1);
  pdgemm_(&ta, &tb, &m, &n, &k, &alpha, x->a, &ia, &ja, x->desc, x->b, &ib, &jb, x->desc,
          &beta, x->expected, &ic, &jc, x->desc);
  hpd_set_disable(0);
}

static int same_result(const matrices *x)
{
  for (size_t e = 0; e < (size_t)x->lld * (size_t)x->nloc; e++)
    if (fabs(x->c[e] - x->expected[e]) > 1e-12 * (1.0 + fabs(x->expected[e])))
      return 0;
  return 1;
}

static hpd_routine_stats gemm_stats(void)
{
  hpd_stats s;
  hpd_get_stats(&s);
  return s.routine[HPD_ROUTINE_PDGEMM];
}

static int accounted(const hpd_routine_stats *s)
{
  return s->engine_calls + s->direct_calls + s->fallback_calls + s->rejected_calls ==
         s->calls;
}

/* The class SLOW, made slow on the engine, until it has settled (see main). */
static void settle_slow_class(matrices *x)
{
  hpd_routine_stats s0 = gemm_stats();
  int calls = 0, calibrated = 0, on_reference = 0, was_direct = 0;
  for (; calls < 40 && !(calibrated && on_reference >= 8); calls++) {
    hpd_routine_stats b0 = gemm_stats();
    both(x, 'N', 'N', SLOW, SLOW, SLOW, 1, 1, 1, 1, 1, 1);
    hpd_routine_stats b1 = gemm_stats();
    int engine_call = b1.engine_calls > b0.engine_calls;
    calibrated |= engine_call && was_direct;
    on_reference = engine_call ? 0 : on_reference + 1;
    was_direct |= !engine_call;
  }
  hpd_routine_stats s1 = gemm_stats();
  long long engine = (long long)(s1.engine_calls - s0.engine_calls);
  check_all(calibrated && engine >= 3 && engine <= 5 && calls == engine + 9 &&
                (long long)(s1.direct_calls - s0.direct_calls) == calls - engine &&
                s1.direct_local_calls == s0.direct_local_calls &&
                (long long)(s1.fallback_calls - s0.fallback_calls) == calls /* reference's */,
            "a class slower on the engine than the reference's bound: two to four engine "
            "calls, one round of calibration, then the reference");
  if (rank == 0)
    printf("  (%d calls, %lld on the engine)\n", calls, engine);
  check_all(same_result(x), "every route gives the reference's result");
}

/* The tune file's name of the class of an order-n square N N multiply under basic on
 * this 1x2 grid, whose processes are on nodes nodes (dispatch.c). */
static void class_name(int n, int nodes, char *name, size_t size)
{
  int octave = 0;
  (void)frexp((double)n * n * n, &octave);
  snprintf(name, size, "%s/1x2/h%d/pdgemm/NN-/basic/o%d", HPD_VERSION_STRING, nodes, octave);
}

/* Whether path holds a verdict line for the class SLOW. */
static int file_has_slow_verdict(const char *path, const char *route, int nodes)
{
  char name[128], want[160], line[512];
  int found = 0;
  class_name(SLOW, nodes, name, sizeof name);
  snprintf(want, sizeof want, "route %s %s ", name, route);
  FILE *f = fopen(path, "r");
  while (f && fgets(line, sizeof line, f))
    found |= strncmp(line, want, strlen(want)) == 0;
  if (f)
    fclose(f);
  return found;
}

/* --verdicts write|read FILE: the verdict of the class SLOW kept in the tune file FILE by
 * one run (write: the class settles on the reference as in main, and the file says so),
 * and taken from it by the next (read: every call of the class on the reference, none on
 * the engine). */
static void verdicts(matrices *x, const char *mode, const char *path)
{
  hpd_set_tune_file(path);
  int nodes = world_nodes(); /* collective */
  if (strcmp(mode, "write") == 0) {
    settle_slow_class(x);
    check_all(rank != 0 || file_has_slow_verdict(path, "reference", nodes),
              "the settled route is kept in the tune file");
    return;
  }
  check_all(rank != 0 || file_has_slow_verdict(path, "reference", nodes),
            "the tune file holds a verdict from the run before");
  /* A class that a round left close, as a run before would have kept it. */
  if (rank == 0) {
    char name[128];
    class_name(SLOW_SMALL, nodes, name, sizeof name);
    FILE *f = fopen(path, "a");
    if (f) {
      fprintf(f, "route %s close 0.0105 0.01\n", name);
      class_name(LEADER, nodes, name, sizeof name);
      fprintf(f, "route %s close 0.005 0.01\n", name);
      fclose(f);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  hpd_routine_stats s0 = gemm_stats();
  for (int call = 0; call < 6; call++)
    both(x, 'N', 'N', SLOW, SLOW, SLOW, 1, 1, 1, 1, 1, 1);
  hpd_routine_stats s1 = gemm_stats();
  check_all(s1.engine_calls == s0.engine_calls && s1.direct_calls - s0.direct_calls == 6,
            "a verdict from the tune file: the class on the reference from its first call");
  s0 = gemm_stats();
  for (int call = 0; call < 4; call++)
    both(x, 'N', 'N', SLOW_SMALL, SLOW_SMALL, SLOW_SMALL, 1, 1, 1, 1, 1, 1);
  s1 = gemm_stats();
  check_all(s1.engine_calls == s0.engine_calls && s1.direct_calls - s0.direct_calls == 4,
            "a close class from the tune file waits on the reference, no engine warm-up");
  s0 = gemm_stats();
  for (int call = 0; call < 4; call++)
    both(x, 'N', 'N', LEADER, LEADER, LEADER, 1, 1, 1, 1, 1, 1);
  s1 = gemm_stats();
  check_all(s1.engine_calls - s0.engine_calls == 4 && s1.direct_calls == s0.direct_calls,
            "a close class whose engine was faster waits on the engine");
  check_all(same_result(x), "results unchanged");
}

/* --grid2d: on a 2x2 grid, the class SLOW (slow on the engine) opens on the reference,
 * makes one engine call, slower than the opening call by far, and stays on the
 * reference; a class of an engine of normal speed opens on the reference too. */
static void two_dimensional(matrices *x)
{
  /* Four ranks on two cores: the opening call's broadcasts wait scheduler slices, tens of
   * milliseconds, so the engine is made slower by far than that (12 switches). */
  hpd_set_sim_switch_us(20000);
  hpd_routine_stats s0 = gemm_stats();
  both(x, 'N', 'N', SLOW, SLOW, SLOW, 1, 1, 1, 1, 1, 1);
  hpd_routine_stats s1 = gemm_stats();
  check_all(s1.direct_calls - s0.direct_calls == 1 && s1.engine_calls == s0.engine_calls,
            "2-D: a class opens on the reference");
  for (int call = 0; call < 9; call++)
    both(x, 'N', 'N', SLOW, SLOW, SLOW, 1, 1, 1, 1, 1, 1);
  hpd_routine_stats s2 = gemm_stats();
  check_all(s2.engine_calls - s1.engine_calls == 1 && s2.direct_calls - s1.direct_calls == 8,
            "2-D: an engine slower than the opening call by far is called once");
  if (rank == 0)
    printf("  (of 9 calls after the opening one: %llu on the engine, %llu direct)\n",
           (unsigned long long)(s2.engine_calls - s1.engine_calls),
           (unsigned long long)(s2.direct_calls - s1.direct_calls));
  hpd_set_sim_switch_us(0);
  hpd_set_strategy(HPD_STRATEGY_DAEMON);
  s0 = gemm_stats();
  both(x, 'N', 'N', ORDER, ORDER, ORDER, 1, 1, 1, 1, 1, 1);
  s1 = gemm_stats();
  check_all(s1.direct_calls - s0.direct_calls == 1,
            "2-D: a class of a normal engine opens on the reference too");
  for (int call = 0; call < 4; call++)
    both(x, 'N', 'N', ORDER, ORDER, ORDER, 1, 1, 1, 1, 1, 1);
  s2 = gemm_stats();
  check_all(s2.engine_calls > s1.engine_calls || s2.direct_calls - s1.direct_calls == 4,
            "2-D: then the engine, or the reference where the engine lost");
  check_all(same_result(x), "2-D: every route gives the reference's result");
  check_all(accounted(&s2), "2-D: engine + direct + fallback + rejected = calls");
}

static hpd_routine_stats trsm_stats(void)
{
  hpd_stats s;
  hpd_get_stats(&s);
  return s.routine[HPD_ROUTINE_PDTRSM];
}

/* Adds shift to A's diagonal: with ORDER added, a triangle of A is solved stably. */
static void shift_diagonal(matrices *x, double shift)
{
  for (int j = 0; j < x->nloc; j++)
    for (int i = 0; i < x->mloc; i++)
      if (dist_global_index(i, NB, x->myrow, x->nprow) ==
          dist_global_index(j, NB, x->mycol, x->npcol))
        x->a[i + (size_t)j * x->lld] += shift;
}

/* sub(B) := alpha * inv(A) * sub(B), lower triangle, through hpdaemon on c and through the
 * reference on expected, both from b. */
static void trsm_both(matrices *x)
{
  int order = ORDER, one = 1;
  double alpha = 0.5;
  size_t bytes = (size_t)x->lld * (size_t)x->nloc * sizeof(double);
  memcpy(x->c, x->b, bytes);
  memcpy(x->expected, x->b, bytes);
  pdtrsm_("L", "L", "T", "N", &order, &order, &alpha, x->a, &one, &one, x->desc, x->c, &one,
          &one, x->desc);
  hpd_set_disable(1);
  pdtrsm_("L", "L", "T", "N", &order, &order, &alpha, x->a, &one, &one, x->desc,
          x->expected, &one, &one, x->desc);
  hpd_set_disable(0);
}

/* --grid2d: pdtrsm whose block solve's buffers (about 1.1 MB a rank here, sub(A) dealt
 * anew for TRANSA 'T') pass the memory threshold is halved on a 2-D grid, and not expected
 * to win there (level3/serve.c): its class opens on the reference and makes no trial on
 * the engine; a round of calibration calls the engine once the budget can pay it.  The
 * threshold leaves a rank 0.4 MB, enough for the halving's multiplies. */
static void budgeted_trial(matrices *x)
{
  double per_rank = (double)hpd_node_memory_bytes() / ranks_per_node();
  double threshold = hpd_get_mem_threshold();
  hpd_set_mem_threshold(0.4e6 / per_rank);
  shift_diagonal(x, ORDER);
  hpd_routine_stats s0 = trsm_stats();
  int same = 1;
  for (int call = 0; call < 8; call++) {
    trsm_both(x);
    same &= same_result(x);
  }
  hpd_routine_stats s1 = trsm_stats();
  check_all(s1.engine_calls == s0.engine_calls && s1.direct_calls - s0.direct_calls == 8,
            "2-D: a pdtrsm class makes no trial on the engine");
  /* A budget of the whole time in the routine pays a round at the class's next
   * question (its 8th call on the reference since it was held, then every doubling). */
  double budget = hpd_get_calibration();
  hpd_set_calibration(1.0);
  for (int call = 0; call < 24; call++) {
    trsm_both(x);
    same &= same_result(x);
  }
  hpd_set_calibration(budget);
  hpd_routine_stats s2 = trsm_stats();
  check_all(s2.engine_calls > s1.engine_calls,
            "2-D: a round paid from the budget calls its engine");
  if (rank == 0)
    printf("  (pdtrsm: %llu engine calls of 24 once the budget paid a round)\n",
           (unsigned long long)(s2.engine_calls - s1.engine_calls));
  check_all(same, "2-D: pdtrsm gives the reference's result on every route");
  check_all(accounted(&s2), "2-D: pdtrsm's engine + direct + fallback + rejected = calls");
  shift_diagonal(x, -ORDER);
  hpd_set_mem_threshold(threshold);
}

/* The tally, then the grid and MPI closed; the exit status. */
static int finish(int context)
{
  if (rank == 0)
    printf("%d passed, %d failed\n", passed, failed);
  Cblacs_gridexit(context);
  Cblacs_exit(1);
  MPI_Finalize();
  return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  slow_engine_on_purpose();
  int context, nprow, npcol, myrow, mycol;
  Cblacs_get(0, 0, &context);
  int grid2d = argc == 2 && strcmp(argv[1], "--grid2d") == 0;
  Cblacs_gridinit(&context, "Row", grid2d ? 2 : 1, 2);
  Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
  matrices x;
  fill(&x, context, myrow, mycol, nprow, npcol);
  if (grid2d) {
    two_dimensional(&x);
    budgeted_trial(&x);
    return finish(context);
  }
  if (argc == 4 && strcmp(argv[1], "--verdicts") == 0) {
    verdicts(&x, argv[2], argv[3]);
    return finish(context);
  }
  check_all(hpd_get_dispatch() == HPD_DISPATCH_AUTO, "dispatch is auto by default");

  /* Inside block column 1 (process column 1) and block row 2: nothing travels. */
  hpd_dvfs_totals dvfs0, dvfs1;
  hpd_get_dvfs_totals(&dvfs0);
  hpd_routine_stats s0 = gemm_stats();
  both(&x, 'N', 'T', 20, 24, 16, 65, 35, 70, 33, 66, 40);
  both(&x, 'T', 'N', 12, 30, 28, 34, 35, 35, 33, 70, 33);
  hpd_routine_stats s1 = gemm_stats();
  hpd_get_dvfs_totals(&dvfs1);
  check_all(s1.direct_local_calls - s0.direct_local_calls == 2 &&
        s1.direct_calls - s0.direct_calls == 2 && s1.engine_calls == s0.engine_calls,
        "calls inside one block are served by a local multiply, counted as direct");
  check_all(same_result(&x), "the local multiply gives the reference's result");
  check_all(dvfs1.switches + dvfs1.skipped + dvfs1.held ==
            dvfs0.switches + dvfs0.skipped + dvfs0.held,
        "a direct call asks for no frequency switch");

  /* A class the engine loses by far: its first calls run on the engine (two, and up to
   * two more while they get faster), then one round of calibration at once (one
   * reference call, then one engine call: its calls take over 10 ms), whose sides are
   * far apart, so the class settles on the reference: an engine call after a call on the
   * reference is the round's, and 8 calls in a row on the reference end the loop. */
  settle_slow_class(&x);

  /* One octave of M*N*K below a class settled on the reference: no warm-up on the
   * engine, the reference from the first call (no round is affordable yet). */
  s0 = gemm_stats();
  for (int call = 0; call < 4; call++)
    both(&x, 'N', 'N', SLOW_BELOW, SLOW_BELOW, SLOW_BELOW, 1, 1, 1, 1, 1, 1);
  s1 = gemm_stats();
  check_all(s1.engine_calls == s0.engine_calls && s1.direct_calls - s0.direct_calls == 4,
            "a class one octave below one settled on the reference starts there");
  check_all(same_result(&x), "with the reference's results");

  /* HPD_CALIBRATION=0 (a size of its own, so a class of its own): no round at all, the
   * reference from the first call after the engine's. */
  hpd_set_calibration(0.0);
  s0 = gemm_stats();
  int after_reference = 0;
  int was_direct = 0;
  for (int call = 0; call < 12; call++) {
    hpd_routine_stats b0 = gemm_stats();
    both(&x, 'N', 'N', SLOW_SMALL, SLOW_SMALL, SLOW_SMALL, 1, 1, 1, 1, 1, 1);
    hpd_routine_stats b1 = gemm_stats();
    int engine_call = b1.engine_calls > b0.engine_calls;
    after_reference |= engine_call && was_direct;
    was_direct |= !engine_call;
  }
  s1 = gemm_stats();
  long long engine = (long long)(s1.engine_calls - s0.engine_calls);
  check_all(!after_reference && engine >= 2 && engine <= 4,
            "HPD_CALIBRATION=0: two to four engine calls, then the reference, no calibration");
  hpd_set_calibration(0.02);

  /* A class on the engine (settled by its first call, or calibrated there where the
   * engine wins here) is watched: once its engine calls turn slow (3 ms per switch
   * again), the next whole run of 32 watched calls sends it back to the reference, where
   * it stays while no calibration is allowed. */
  hpd_set_sim_switch_us(0);
  hpd_set_strategy(HPD_STRATEGY_DAEMON);
  hpd_set_switch_min_ms(-1);
  hpd_set_calibration(1.0);
  int in_a_row = 0;
  for (int call = 0; call < 300 && in_a_row < 8; call++) {
    s0 = gemm_stats();
    both(&x, 'N', 'N', ORDER, ORDER, ORDER, 1, 1, 1, 1, 1, 1);
    s1 = gemm_stats();
    in_a_row = s1.engine_calls > s0.engine_calls ? in_a_row + 1 : 0;
  }
  int on_engine = in_a_row >= 8, everywhere = 0;
  MPI_Allreduce(&on_engine, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  hpd_set_calibration(0.0);
  if (everywhere) {
    /* Slow under the same strategy (a strategy of its own would be a class of its
     * own): one panel per group, two 3 ms switches each. */
    hpd_set_sim_switch_us(3000);
    hpd_set_ngrp(1);
    hpd_set_switch_min_ms(0);
    for (int call = 0; call < 2 * 32; call++)
      both(&x, 'N', 'N', ORDER, ORDER, ORDER, 1, 1, 1, 1, 1, 1);
    hpd_routine_stats s3 = gemm_stats();
    for (int call = 0; call < 4; call++)
      both(&x, 'N', 'N', ORDER, ORDER, ORDER, 1, 1, 1, 1, 1, 1);
    hpd_routine_stats s4 = gemm_stats();
    check_all(s4.direct_calls - s3.direct_calls == 4,
          "a class settled on the engine whose engine turned slow goes to the reference");
    hpd_set_ngrp(0);
  } else if (rank == 0) {
    printf("skipped: the engine did not win order %d here, nothing to watch\n", ORDER);
  }
  check_all(same_result(&x), "results unchanged through settling and watching");
  hpd_set_calibration(0.02);
  hpd_set_sim_switch_us(3000);
  hpd_set_strategy(HPD_STRATEGY_BASIC);
  hpd_set_switch_min_ms(0);

  /* A route is learned per strategy: the class on the reference under basic starts again,
   * from an engine call, under another strategy, and is still on the reference under
   * basic. */
  hpd_set_strategy(HPD_STRATEGY_NONE);
  s0 = gemm_stats();
  both(&x, 'N', 'N', SLOW, SLOW, SLOW, 1, 1, 1, 1, 1, 1);
  s1 = gemm_stats();
  hpd_set_strategy(HPD_STRATEGY_BASIC);
  both(&x, 'N', 'N', SLOW, SLOW, SLOW, 1, 1, 1, 1, 1, 1);
  hpd_routine_stats s2 = gemm_stats();
  check_all(s1.engine_calls - s0.engine_calls == 1 && s2.direct_calls - s1.direct_calls == 1 &&
            s2.engine_calls == s1.engine_calls,
        "a route is learned per strategy: another strategy starts the class again");
  check_all(same_result(&x), "results unchanged across strategies");
  hpd_set_sim_switch_us(3000);

  /* HPD_DISPATCH=engine: a new class, every call through the engine. */
  hpd_set_dispatch(HPD_DISPATCH_ENGINE);
  s0 = gemm_stats();
  for (int call = 0; call < 8; call++)
    both(&x, 'T', 'T', 96, 64, 128, 1, 1, 1, 1, 1, 1);
  both(&x, 'N', 'N', 8, 8, 8, 1, 1, 1, 1, 1, 1); /* would be local under auto */
  s1 = gemm_stats();
  check_all(s1.engine_calls - s0.engine_calls == 9 && s1.direct_calls == s0.direct_calls,
        "HPD_DISPATCH=engine: every legal call through the engine");
  check_all(same_result(&x), "the engine's results match the reference's");
  hpd_set_dispatch(HPD_DISPATCH_AUTO);
  check_all(accounted(&s1), "engine + direct + fallback + rejected = calls");
  return finish(context);
}
