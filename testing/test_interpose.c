/*
 * Relinked interposition: this program is linked against hpdaemon and ScaLAPACK.  Its own
 * pdgemm_ call, pdgetrf_ (which hpdaemon defines) on a P x 1 grid and a matrix three
 * times as tall as wide, and the pdgemm_ calls that ScaLAPACK's pdlauum_ (U U', which
 * hpdaemon does not define) makes inside ScaLAPACK must all reach hpdaemon.
 *   test_interpose [--expect-reason NAME] [--max-fallback N]
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist_data.h"
#include "scalapack.h"
#include "hpdaemon.h"

static int passed, failed;

static void check(int ok, const char *what)
{
  int all_ok;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (all_ok) {
    passed++;
    return;
  }
  failed++;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (!ok)
    fprintf(stderr, "rank %d: check failed: %s\n", rank, what);
}

struct grid {
  int ctxt, nprow, npcol, myrow, mycol;
};

/* This process's part of an m x n matrix in nb x nb blocks from process (0, 0). */
struct local {
  int mloc, nloc, lld, desc[9];
};

static struct local local_of(const struct grid *g, int m, int n, int nb)
{
  const int zero = 0;
  struct local l;
  int info;
  l.mloc = numroc_(&m, &nb, &g->myrow, &zero, &g->nprow);
  l.nloc = numroc_(&n, &nb, &g->mycol, &zero, &g->npcol);
  l.lld = l.mloc > 1 ? l.mloc : 1;
  descinit_(l.desc, &m, &n, &nb, &nb, &zero, &zero, &g->ctxt, &l.lld, &info);
  return l;
}

static double *local_new(const struct local *l)
{
  return malloc(sizeof(double) * l->lld * (l->nloc ? l->nloc : 1));
}

/* C := A * I, so C must equal A entry for entry. */
static void test_direct_call(const struct grid *g)
{
  const int n = 64, nb = 8, one_i = 1;
  struct local l = local_of(g, n, n, nb);
  int mloc = l.mloc, nloc = l.nloc, lld = l.lld, *desc = l.desc;
  double *a = local_new(&l), *b = local_new(&l), *c = local_new(&l);
  for (int j = 0; j < nloc; j++)
    for (int i = 0; i < mloc; i++) {
      int gi = dist_global_index(i, nb, g->myrow, g->nprow);
      int gj = dist_global_index(j, nb, g->mycol, g->npcol);
      a[i + j * lld] = 1.0 + gi + 100.0 * gj;
      b[i + j * lld] = gi == gj;
      c[i + j * lld] = NAN; /* beta = 0: never read */
    }
  const double alpha = 1.0, beta = 0.0;
  pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one_i, &one_i, desc, b, &one_i, &one_i, desc,
          &beta, c, &one_i, &one_i, desc);
  int same = 1;
  for (int k = 0; k < lld * nloc; k++)
    same &= c[k] == a[k];
  check(same, "pdgemm_ C = A * I");
  free(a), free(b), free(c);
}

/* A diagonally dominant matrix factors with info = 0. */
static void test_lu(const struct grid *g)
{
  const int m = 288, n = 96, nb = 8, one_i = 1;
  struct local l = local_of(g, m, n, nb);
  int mloc = l.mloc, nloc = l.nloc, lld = l.lld, info;
  double *a = local_new(&l);
  int *ipiv = malloc(sizeof(int) * (mloc + nb));
  for (int j = 0; j < nloc; j++)
    for (int i = 0; i < mloc; i++) {
      int gi = dist_global_index(i, nb, g->myrow, g->nprow);
      int gj = dist_global_index(j, nb, g->mycol, g->npcol);
      a[i + j * lld] = gi == gj ? 4.0 * n : 1.0 / (1.0 + gi + gj);
    }
  pdgetrf_(&m, &n, a, &one_i, &one_i, l.desc, ipiv, &info);
  check(info == 0, "pdgetrf_ info == 0");
  free(a), free(ipiv);
}

/* U U' of a 96 x 96 upper triangle in blocks of 8: ScaLAPACK's pdlauum_ forms it
 * through pdtrmm_, pdgemm_ and pdsyrk_. */
static void test_lauum(const struct grid *g)
{
  const int n = 96, nb = 8, one_i = 1;
  struct local l = local_of(g, n, n, nb);
  double *a = local_new(&l);
  for (int j = 0; j < l.nloc; j++)
    for (int i = 0; i < l.mloc; i++)
      a[i + j * l.lld] = 1.0 / (1.0 + dist_global_index(i, nb, g->myrow, g->nprow) +
                                dist_global_index(j, nb, g->mycol, g->npcol));
  pdlauum_("U", &n, a, &one_i, &one_i, l.desc);
  free(a);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  if (hpd_parse_args(&argc, &argv) != HPD_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, 2);
  const char *expect_reason = NULL;
  long max_fallback = -1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--expect-reason") == 0)
      expect_reason = argv[i + 1];
    else if (strcmp(argv[i], "--max-fallback") == 0)
      max_fallback = atol(argv[i + 1]);
  }
  int rank, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

  struct grid g;
  Cblacs_get(0, 0, &g.ctxt);
  Cblacs_gridinit(&g.ctxt, "R", 1, nprocs);
  Cblacs_gridinfo(g.ctxt, &g.nprow, &g.npcol, &g.myrow, &g.mycol);

  hpd_reset_stats();
  test_direct_call(&g);
  hpd_stats s;
  hpd_get_stats(&s);
  const hpd_routine_stats *gemm = &s.routine[HPD_ROUTINE_PDGEMM];
  check(gemm->calls == 1, "the direct call is counted once");

  struct grid column;
  Cblacs_get(0, 0, &column.ctxt);
  Cblacs_gridinit(&column.ctxt, "C", nprocs, 1);
  Cblacs_gridinfo(column.ctxt, &column.nprow, &column.npcol, &column.myrow, &column.mycol);
  test_lu(&column);
  Cblacs_gridexit(column.ctxt);
  hpd_get_stats(&s);
  check(s.routine[HPD_ROUTINE_PDGETRF].calls == 1, "pdgetrf_ itself reaches hpdaemon");
  long before = (long)gemm->calls;
  test_lauum(&g);
  hpd_get_stats(&s);
  long inside = (long)gemm->calls - before;
  check(inside > 0, "pdlauum_'s internal pdgemm_ calls reach hpdaemon");
  check(gemm->engine_calls + gemm->fallback_calls + gemm->rejected_calls == gemm->calls,
        "every call is accounted");
  check(gemm->time_total > 0 && gemm->time_min <= gemm->time_max, "call times recorded");
  if (gemm->engine_calls > 0 && nprocs > 1) {
    check(gemm->bcast_count > 0 && gemm->bcast_bytes > 0 && gemm->bcast_wall_s > 0,
          "the engine's broadcasts are counted");
    /* A thread cannot use more CPU than wall time; the clocks differ by a tick at most. */
    check(gemm->bcast_cpu_s <= gemm->bcast_wall_s * 1.05 + 0.01,
          "broadcast CPU seconds within their wall seconds");
    check(hpd_get_bcast() != HPD_BCAST_PIPELINE || gemm->bcast_chunk_last > 0,
          "the pipeline's chunk is recorded");
  } else if (gemm->engine_calls == 0) {
    check(gemm->bcast_count == 0 && gemm->bcast_wall_s == 0, "no broadcasts without the engine");
  }
  if (max_fallback >= 0)
    check((long)gemm->fallback_calls <= max_fallback, "fallbacks within the limit");
  if (expect_reason) {
    uint64_t with_reason = 0;
    for (int r = 0; r < HPD_FALLBACK_REASONS; r++)
      if (strcmp(hpd_fallback_reason_name(r), expect_reason) == 0)
        with_reason = gemm->fallback_by_reason[r];
    check(with_reason == gemm->calls, "every call fell back for the expected reason");
  }
  if (rank == 0) {
    printf("interpose: %llu pdgemm_ calls (1 direct, %ld inside pdlauum_), %llu engine, "
           "%llu fallback; %llu broadcasts, wall %.6f s, CPU %.6f s\n",
           (unsigned long long)gemm->calls, inside, (unsigned long long)gemm->engine_calls,
           (unsigned long long)gemm->fallback_calls, (unsigned long long)gemm->bcast_count,
           gemm->bcast_wall_s, gemm->bcast_cpu_s);
    printf("%d passed, %d failed\n", passed, failed);
  }
  Cblacs_gridexit(g.ctxt);
  MPI_Finalize();
  return failed != 0;
}
