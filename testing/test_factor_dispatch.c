/*
 * The dispatch rule over the factorizations (HPD_DISPATCH=auto) on 2 ranks, 1x2 grid,
 * with the engine made slow on purpose (the sim backend emulating switches of 3 ms, two
 * per panel under basic), for pdpotrf (L) and pdgetrf:
 *  - the first calls run on the engine (two, and up to two more while they get faster),
 *    one round of calibration follows, and every later call runs on the reference;
 *  - a call on the reference runs ScaLAPACK's routine whole: its pdsyrk, pdtrsm and
 *    pdgemm calls go to their references, counted as direct (never as fallbacks), and
 *    its factors (and pivots) are the reference's to the bit;
 *  - the engine's factors lie within rounding of the reference's, INFO is 0 throughout;
 *  - under HPD_DISPATCH=engine every call runs on the engine;
 *  - engine + direct + fallback + rejected = calls.
 * Prints "N passed, N failed".
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpdaemon.h"
#include "mpi_check.h"
#include "scalapack.h"
#include "slow_engine.h"

#define ORDER 384
#define NB 32
#define MOST_CALLS 30

typedef struct problem {
  int desc[9], mloc, nloc, lld, mycol;
  size_t elems;
  double *pristine, *a, *expected;
  int *ipiv, *expected_ipiv;
} problem;

/* A symmetric matrix with a dominant diagonal: positive definite, and LU's pivots are
 * its diagonal, so that both factorizations are well defined to the last bit. */
static double element(int64_t i, int64_t j)
{
  return i == j ? (double)ORDER : 1.0 / (double)(1 + llabs(i - j));
}

static void set_up(problem *p, int context, int myrow, int mycol, int nprow, int npcol)
{
  int order = ORDER, nb = NB, zero = 0, info;
  p->mloc = numroc_(&order, &nb, &myrow, &zero, &nprow);
  p->nloc = numroc_(&order, &nb, &mycol, &zero, &npcol);
  p->lld = p->mloc > 1 ? p->mloc : 1;
  p->mycol = mycol;
  descinit_(p->desc, &order, &order, &nb, &nb, &zero, &zero, &context, &p->lld, &info);
  p->elems = (size_t)p->lld * (size_t)p->nloc;
  p->pristine = malloc(p->elems * sizeof(double));
  p->a = malloc(p->elems * sizeof(double));
  p->expected = malloc(p->elems * sizeof(double));
  p->ipiv = malloc(((size_t)p->mloc + NB) * sizeof(int));
  p->expected_ipiv = malloc(((size_t)p->mloc + NB) * sizeof(int));
  if (!p->pristine || !p->a || !p->expected || !p->ipiv || !p->expected_ipiv) {
    fprintf(stderr, "test_factor_dispatch: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int j = 0; j < p->nloc; j++)
    for (int i = 0; i < p->mloc; i++) {
      int64_t gi = (int64_t)(i / NB * nprow + myrow) * NB + i % NB;
      int64_t gj = (int64_t)(j / NB * npcol + mycol) * NB + j % NB;
      p->pristine[i + (size_t)j * p->lld] = element(gi, gj);
    }
}

static hpd_routine_stats stats_of(hpd_routine routine)
{
  hpd_stats s;
  hpd_get_stats(&s);
  return s.routine[routine];
}

static int rank;

static void inner_stats(hpd_routine_stats s[3])
{
  s[0] = stats_of(HPD_ROUTINE_PDSYRK);
  s[1] = stats_of(HPD_ROUTINE_PDTRSM);
  s[2] = stats_of(HPD_ROUTINE_PDGEMM);
}

/* Whether the inner routines' calls between s0 and s1 all went to their references,
 * counted as direct: none on the engine, none as a fallback, at least one. */
static int inner_direct(const hpd_routine_stats s0[3], const hpd_routine_stats s1[3])
{
  uint64_t direct = 0;
  for (int r = 0; r < 3; r++) {
    if (s1[r].engine_calls != s0[r].engine_calls ||
        s1[r].fallback_calls != s0[r].fallback_calls)
      return 0;
    direct += s1[r].direct_calls - s0[r].direct_calls;
  }
  return direct > 0;
}

/* One factorization of a fresh copy through hpdaemon (into a), then one by the reference
 * (into expected).  *inner_ok: whether hpdaemon's call left its inner calls to their
 * references (inner_direct), where it ran on the reference.  Returns whether INFO was 0
 * on both. */
static int factor_both(problem *p, hpd_routine routine, int *engine_call, int *inner_ok)
{
  int n = ORDER, one = 1, info = -1, expected_info = -1;
  char uplo = 'L';
  memcpy(p->a, p->pristine, p->elems * sizeof(double));
  memcpy(p->expected, p->pristine, p->elems * sizeof(double));
  hpd_routine_stats b0 = stats_of(routine), i0[3], i1[3];
  inner_stats(i0);
  if (routine == HPD_ROUTINE_PDPOTRF)
    pdpotrf_(&uplo, &n, p->a, &one, &one, p->desc, &info);
  else
    pdgetrf_(&n, &n, p->a, &one, &one, p->desc, p->ipiv, &info);
  inner_stats(i1);
  *engine_call = stats_of(routine).engine_calls > b0.engine_calls;
  *inner_ok = *engine_call || inner_direct(i0, i1);
  hpd_set_disable(1);
  if (routine == HPD_ROUTINE_PDPOTRF)
    pdpotrf_(&uplo, &n, p->expected, &one, &one, p->desc, &expected_info);
  else
    pdgetrf_(&n, &n, p->expected, &one, &one, p->desc, p->expected_ipiv, &expected_info);
  hpd_set_disable(0);
  return info == 0 && expected_info == 0;
}

/* The largest difference between the two factors, relative to the entry's size. */
static double difference(const problem *p)
{
  double most = 0.0;
  for (size_t e = 0; e < p->elems; e++) {
    double d = fabs(p->a[e] - p->expected[e]) / (1.0 + fabs(p->expected[e]));
    most = d > most ? d : most;
  }
  return most;
}

static int same_bits(const problem *p, hpd_routine routine)
{
  if (memcmp(p->a, p->expected, p->elems * sizeof(double)) != 0)
    return 0;
  return routine != HPD_ROUTINE_PDGETRF ||
         memcmp(p->ipiv, p->expected_ipiv, (size_t)p->mloc * sizeof(int)) == 0;
}

static void check_named(int ok, const char *name, const char *what)
{
  char text[256];
  snprintf(text, sizeof text, "%s: %s", name, what);
  check_all(ok, text);
}

/* The class of routine's factorizations, slow on the engine, until it has settled. */
static void settle_slow_class(problem *p, hpd_routine routine, const char *name)
{
  hpd_routine_stats s0 = stats_of(routine);
  int calls = 0, calibrated = 0, on_reference = 0, was_direct = 0;
  int info_ok = 1, exact = 1, inner_ok = 1;
  double engine_difference = 0.0;
  for (; calls < MOST_CALLS && !(calibrated && on_reference >= 8); calls++) {
    int engine_call = 0, inner = 0;
    info_ok &= factor_both(p, routine, &engine_call, &inner);
    inner_ok &= inner;
    if (engine_call) {
      double d = difference(p);
      engine_difference = d > engine_difference ? d : engine_difference;
    } else {
      exact &= same_bits(p, routine);
    }
    calibrated |= engine_call && was_direct;
    on_reference = engine_call ? 0 : on_reference + 1;
    was_direct |= !engine_call;
  }
  hpd_routine_stats s1 = stats_of(routine);
  long long engine = (long long)(s1.engine_calls - s0.engine_calls);
  check_named(calibrated && engine >= 3 && engine <= 5 && calls == engine + 9 &&
                  (long long)(s1.direct_calls - s0.direct_calls) == calls - engine,
              name, "slower on the engine: two to four engine calls, one round of "
                    "calibration, then the reference");
  if (rank == 0)
    printf("  (%d calls, %lld on the engine, largest difference %.2g)\n", calls, engine,
           engine_difference);
  check_named(info_ok, name, "INFO 0 on every call");
  check_named(engine_difference < 1e-12, name,
              "the engine's factors within rounding of the reference's");
  check_named(exact, name, "a call on the reference gives its factors to the bit");
  check_named(inner_ok, name,
              "a call on the reference runs whole: its inner calls go to their "
              "references, counted as direct");
  check_named(s1.engine_calls + s1.direct_calls + s1.fallback_calls + s1.rejected_calls ==
                  s1.calls,
              name, "engine + direct + fallback + rejected = calls");
}

/* Under HPD_DISPATCH=engine a class, even a slow one, stays on the engine. */
static void engine_forced(problem *p, hpd_routine routine, const char *name)
{
  hpd_set_dispatch(HPD_DISPATCH_ENGINE);
  hpd_routine_stats s0 = stats_of(routine);
  int info_ok = 1;
  for (int call = 0; call < 3; call++) {
    int engine_call = 0, inner = 0;
    info_ok &= factor_both(p, routine, &engine_call, &inner);
  }
  hpd_routine_stats s1 = stats_of(routine);
  check_named(info_ok && s1.engine_calls - s0.engine_calls == 3, name,
              "under HPD_DISPATCH=engine every call runs on the engine");
  hpd_set_dispatch(HPD_DISPATCH_AUTO);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  slow_engine_on_purpose();
  int context, nprow, npcol, myrow, mycol;
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Row", 1, 2);
  Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
  problem p;
  set_up(&p, context, myrow, mycol, nprow, npcol);
  check_all(hpd_get_dispatch() == HPD_DISPATCH_AUTO, "dispatch is auto by default");
  settle_slow_class(&p, HPD_ROUTINE_PDPOTRF, "pdpotrf L");
  settle_slow_class(&p, HPD_ROUTINE_PDGETRF, "pdgetrf");
  engine_forced(&p, HPD_ROUTINE_PDPOTRF, "pdpotrf L");
  if (rank == 0)
    printf("%d passed, %d failed\n", passed, failed);
  free(p.pristine);
  free(p.a);
  free(p.expected);
  free(p.ipiv);
  free(p.expected_ipiv);
  Cblacs_gridexit(context);
  Cblacs_exit(1);
  MPI_Finalize();
  return failed ? 1 : 0;
}
