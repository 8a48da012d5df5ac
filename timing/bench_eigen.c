/*
 * bench_eigen: a whole symmetric eigen-solve (ScaLAPACK's pdsyevd_, eigenvalues and
 * eigenvectors) with hpdaemon underneath against the same call on reference ScaLAPACK,
 * in one run, on one grid.
 *
 * The solve is the call mix applications make by the hundred (reduction to tridiagonal
 * form through pdsyr2k_ and pdgemm_, divide and conquer, back-transformation through
 * pdgemm_), each call of one panel: where hpdaemon cannot win such a call it must not
 * lose it either.  Both sides solve the very same matrix in the very same arrays;
 * hpd_set_disable(1) is what sends the solve's calls to the reference.  The sides
 * alternate, which goes first flipping every round.  The first call of each side is
 * timed apart (hpdaemon's goes first: it sets DVFS and energy up and calibrates), after
 * one small solve on the reference that takes the process's cold start (MPI's
 * connections, the BLAS's buffers), which is neither side's; the two sides' eigenvalues
 * must agree.  Columns: timing/README.md.  With --first-calls, a fresh process times one
 * side's first solves instead (support/bench_first.h).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_or_abort.h"
#include "bench_common.h"
#include "bench_first.h"
#include "bench_sample.h"
#include "hpdaemon.h"
#include "scalapack.h"

void pdsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *ia,
              const int *ja, const int *desca, double *w, double *z, const int *iz,
              const int *jz, const int *descz, double *work, const int *lwork, int *iwork,
              const int *liwork, int *info);

typedef struct options {
  int n[MAX_LIST], n_count;
  int nb[MAX_LIST], nb_count;
  int p, q, reps;
  int first; /* --first-calls: 0 hpd, 1 ref; -1 without it */
  const char *csv;
} options;

static void usage(FILE *out)
{
  fprintf(out,
          "usage: bench_eigen [-n N[,N...]] [-b NB[,NB...]] [-p P -q Q] [-r ROUNDS]\n"
          "                   [--first-calls hpd|ref] [--csv PATH] [hpdaemon options]\n"
          "  -n      matrix orders (default 1472)\n"
          "  -b      block sizes (default 32)\n"
          "  -p, -q  process grid, P*Q must equal the number of ranks (default 2x1)\n"
          "  -r      timed solves per side and row (default 7; 6 or more give the ratio\n"
          "          its 95%% interval)\n"
          "  --csv   append one line per row to PATH (header when PATH is empty)\n"
          "%s", bench_first_usage);
}

static int parse_options(int argc, char **argv, options *o, char *err, size_t errlen)
{
  memset(o, 0, sizeof *o);
  o->n[0] = 1472, o->n_count = 1;
  o->nb[0] = 32, o->nb_count = 1;
  o->p = 2, o->q = 1, o->reps = 7, o->first = -1;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v;
    int bad;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
      return 1;
    if (strcmp(arg, "--") == 0)
      continue;
    if ((v = bench_option_value(argc, argv, &i, "-n")))
      bad = bench_parse_int_list(v, o->n, &o->n_count);
    else if ((v = bench_option_value(argc, argv, &i, "-b")))
      bad = bench_parse_int_list(v, o->nb, &o->nb_count);
    else if ((v = bench_option_value(argc, argv, &i, "-p")))
      bad = bench_parse_positive(v, &o->p);
    else if ((v = bench_option_value(argc, argv, &i, "-q")))
      bad = bench_parse_positive(v, &o->q);
    else if ((v = bench_option_value(argc, argv, &i, "-r")))
      bad = bench_parse_count(v, &o->reps);
    else if ((v = bench_option_value(argc, argv, &i, "--first-calls")))
      bad = bench_first_parse(v, &o->first);
    else if ((v = bench_option_value(argc, argv, &i, "--csv")))
      bad = (o->csv = v)[0] == '\0';
    else {
      snprintf(err, errlen, "unknown option or missing value: %s", arg);
      return -1;
    }
    if (bad) {
      snprintf(err, errlen, "option %s: bad value '%s'", arg, v);
      return -1;
    }
  }
  return bench_first_rounds_check(o->first, o->reps, err, errlen);
}

/* ---- the problem ------------------------------------------------------------------- */

typedef struct problem {
  int n, nb, mloc, nloc, lwork, liwork;
  int desc[9];
  double *a, *z, *w, *work;
  int *iwork;
} problem;

/* A symmetric matrix with well separated eigenvalues, each entry a function of its
 * global place: every grid and block size solves the same one. */
static double entry(int gi, int gj, int n)
{
  return gi == gj ? 2.0 * n + gi : 1.0 / (1.0 + abs(gi - gj));
}

static void generate(problem *pb, const bench_grid *g)
{
  for (int lj = 0; lj < pb->nloc; lj++) {
    int gj = (lj / pb->nb * g->npcol + g->mycol) * pb->nb + lj % pb->nb;
    for (int li = 0; li < pb->mloc; li++) {
      int gi = (li / pb->nb * g->nprow + g->myrow) * pb->nb + li % pb->nb;
      pb->a[(size_t)lj * pb->desc[8] + li] = entry(gi, gj, pb->n);
    }
  }
}

static void problem_setup(problem *pb, int n, int nb, const bench_grid *g)
{
  int zero = 0, one = 1, info;
  memset(pb, 0, sizeof *pb);
  pb->n = n, pb->nb = nb;
  pb->mloc = numroc_(&n, &nb, &g->myrow, &zero, &g->nprow);
  pb->nloc = numroc_(&n, &nb, &g->mycol, &zero, &g->npcol);
  int lld = pb->mloc > 1 ? pb->mloc : 1;
  descinit_(pb->desc, &n, &n, &nb, &nb, &zero, &zero, &g->context, &lld, &info);
  size_t elems = (size_t)lld * (pb->nloc > 0 ? pb->nloc : 1);
  pb->a = alloc_or_abort("bench_eigen", elems, sizeof *pb->a);
  pb->z = alloc_or_abort("bench_eigen", elems, sizeof *pb->z);
  pb->w = alloc_or_abort("bench_eigen", (size_t)n, sizeof *pb->w);
  double lwork_q;
  int liwork_q, minus = -1;
  generate(pb, g);
  pdsyevd_("V", "L", &n, pb->a, &one, &one, pb->desc, pb->w, pb->z, &one, &one, pb->desc,
           &lwork_q, &minus, &liwork_q, &minus, &info);
  pb->lwork = (int)lwork_q + 1, pb->liwork = liwork_q;
  pb->work = alloc_or_abort("bench_eigen", (size_t)pb->lwork, sizeof *pb->work);
  pb->iwork = alloc_or_abort("bench_eigen", (size_t)pb->liwork, sizeof *pb->iwork);
}

static void problem_free(problem *pb)
{
  free(pb->a), free(pb->z), free(pb->w), free(pb->work), free(pb->iwork);
}

/* One solve through hpdaemon or the reference: the slowest rank's seconds from a
 * barrier; *info gets the first nonzero INFO. */
static double solve(problem *pb, const bench_grid *g, int reference, int *info)
{
  int one = 1, got;
  generate(pb, g);
  hpd_set_disable(reference);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  pdsyevd_("V", "L", &pb->n, pb->a, &one, &one, pb->desc, pb->w, pb->z, &one, &one,
           pb->desc, pb->work, &pb->lwork, pb->iwork, &pb->liwork, &got);
  double t = MPI_Wtime() - t0, slowest;
  MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (!*info)
    *info = got;
  return slowest;
}

/* ---- measuring ------------------------------------------------------------------- */

typedef struct first_problem {
  problem *pb;
  const bench_grid *g;
  int info;
} first_problem;

static double first_call(void *arg, int reference)
{
  first_problem *f = arg;
  return solve(f->pb, f->g, reference, &f->info);
}

/* --first-calls: a row of bench_first.h; 1 when every solve succeeded. */
static int run_first(const options *o, const bench_grid *g, problem *pb)
{
  first_problem f = {pb, g, 0};
  bench_first_row row = {"pdsyevd", "VL", pb->n, pb->nb, o->p, o->q};
  bench_first_run(&row, o->first, o->reps, first_call, &f, o->csv);
  if (f.info && g->rank == 0)
    fprintf(stderr, "bench_eigen: N=%d NB=%d: info %d\n", pb->n, pb->nb, f.info);
  return !f.info;
}

typedef struct row {
  int n, nb;
  double first_hpd, first_ref;
  bench_spread hpd, ref;
  double ratio, ratio_lo, ratio_hi, ratio_level;
  double eig_diff;            /* max |w_hpd - w_ref| / max |w| */
  double calls, engine, direct; /* per hpdaemon solve, level-3 calls on rank 0 */
  int info;
} row;

static void sum_routes(const hpd_stats *s, double *calls, double *engine, double *direct)
{
  *calls = *engine = *direct = 0;
  for (int r = 0; r < HPD_ROUTINES_MAX; r++) {
    *calls += (double)s->routine[r].calls;
    *engine += (double)s->routine[r].engine_calls;
    *direct += (double)s->routine[r].direct_calls;
  }
}

/* One solve through hpdaemon, its level-3 calls on this rank added to w's. */
static double hpd_solve(problem *pb, const bench_grid *g, row *w)
{
  hpd_stats before, after;
  double c0, e0, d0, c1, e1, d1;
  hpd_get_stats(&before);
  double seconds = solve(pb, g, 0, &w->info);
  hpd_get_stats(&after);
  sum_routes(&before, &c0, &e0, &d0), sum_routes(&after, &c1, &e1, &d1);
  w->calls += c1 - c0, w->engine += e1 - e0, w->direct += d1 - d0;
  return seconds;
}

static void measure(problem *pb, const bench_grid *g, int reps, row *w)
{
  double *t = alloc_or_abort("bench_eigen", 3 * (size_t)reps, sizeof *t);
  double *t_ref = t + reps, *pair = t + 2 * reps;
  double *w_hpd = alloc_or_abort("bench_eigen", (size_t)pb->n, sizeof *w_hpd);
  w->first_hpd = solve(pb, g, 0, &w->info);
  memcpy(w_hpd, pb->w, (size_t)pb->n * sizeof *w_hpd);
  w->first_ref = solve(pb, g, 1, &w->info);
  double diff = 0, big = 0;
  for (int i = 0; i < pb->n; i++)
    diff = fmax(diff, fabs(w_hpd[i] - pb->w[i])), big = fmax(big, fabs(pb->w[i]));
  w->eig_diff = big > 0 ? diff / big : diff;
  for (int r = 0; r < reps; r++) {
    int ref_first = r % 2; /* alternating which side goes first */
    if (ref_first)
      t_ref[r] = solve(pb, g, 1, &w->info);
    t[r] = hpd_solve(pb, g, w);
    if (!ref_first)
      t_ref[r] = solve(pb, g, 1, &w->info);
    pair[r] = t_ref[r] / t[r];
  }
  w->calls /= reps, w->engine /= reps, w->direct /= reps;
  w->hpd = bench_spread_of(t, reps);
  w->ref = bench_spread_of(t_ref, reps);
  w->ratio = bench_median(pair, reps);
  w->ratio_level = bench_median_interval(pair, reps, &w->ratio_lo, &w->ratio_hi);
  free(t), free(w_hpd);
}

/* ---- output ------------------------------------------------------------------------ */

/* Eigenvalues of the two sides agree to this fraction of the largest. */
#define EIG_TOLERANCE 1e-10

static int row_passes(const row *w)
{
  return !w->info && w->eig_diff <= EIG_TOLERANCE;
}

static void print_header(const options *o, int ranks)
{
  printf("# bench_eigen: pdsyevd_ (JOBZ V, UPLO L) with hpdaemon %s vs reference ScaLAPACK, "
         "grid %dx%d (%d ranks), %d timed solve(s) per side, BLAS kernels %s, %d BLAS "
         "thread(s) per rank\n", HPD_VERSION_STRING, o->p, o->q, ranks, o->reps,
         openblas_get_corename(), openblas_get_num_threads());
  printf("# first_ref, first_hpd: each side's first solve (hpdaemon's before the "
         "reference's, both after a small reference solve that warms the process); "
         "ref_s, hpd_s: medians of the alternating rounds; ref/hpd: median of the "
         "rounds' ratios with its 95%% interval (above 1: hpdaemon faster); calls, "
         "engine, direct: per hpdaemon solve on rank 0, level-3 calls that reached "
         "hpdaemon, those its engine served, those it sent past the engine; eig_diff: the "
         "sides' eigenvalues apart, relative to the largest\n");
  printf("%5s %4s %-5s %9s %9s %8s %-17s %8s %-17s %7s %-13s %7s %7s %7s %9s %s\n", "N",
         "NB", "grid", "first_ref", "first_hpd", "ref_s", "ref_min..max", "hpd_s",
         "hpd_min..max", "ref/hpd", "ratio_CI", "calls", "engine", "direct", "eig_diff",
         "check");
}

static void print_row(const options *o, const row *w)
{
  char grid[32], rs[40], hs[40], ci[40] = "-";
  snprintf(grid, sizeof grid, "%dx%d", o->p, o->q);
  snprintf(rs, sizeof rs, "%.3f..%.3f", w->ref.min, w->ref.max);
  snprintf(hs, sizeof hs, "%.3f..%.3f", w->hpd.min, w->hpd.max);
  if (w->ratio_level > 0)
    snprintf(ci, sizeof ci, "%.3f..%.3f", w->ratio_lo, w->ratio_hi);
  printf("%5d %4d %-5s %9.3f %9.3f %8.3f %-17s %8.3f %-17s %7.3f %-13s %7.0f %7.0f %7.0f "
         "%9.2g %s\n", w->n, w->nb, grid, w->first_ref, w->first_hpd, w->ref.median, rs,
         w->hpd.median, hs, w->ratio, ci, w->calls, w->engine, w->direct, w->eig_diff,
         row_passes(w) ? "ok" : "FAIL");
  fflush(stdout);
}

static void append_csv(const options *o, const row *w, int rank)
{
  FILE *f = bench_open_csv("bench_eigen", o->csv, rank,
                           "routine,n,nb,p,q,reps,first_ref_s,first_hpd_s,ref_median_s,"
                           "ref_min_s,ref_max_s,hpd_median_s,hpd_min_s,hpd_max_s,"
                           "ratio_ref_over_hpd,ratio_ci_lo,ratio_ci_hi,ratio_ci_level,"
                           "calls,engine,direct,eig_diff,check");
  if (!f)
    return;
  fprintf(f, "pdsyevd,%d,%d,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.4f,%.4f,"
             "%.4f,%.4f,%.1f,%.1f,%.1f,%.3g,%s\n", w->n, w->nb, o->p, o->q, o->reps,
          w->first_ref, w->first_hpd, w->ref.median, w->ref.min, w->ref.max, w->hpd.median,
          w->hpd.min, w->hpd.max, w->ratio, w->ratio_lo, w->ratio_hi, w->ratio_level,
          w->calls, w->engine, w->direct, w->eig_diff, row_passes(w) ? "ok" : "FAIL");
  fclose(f);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int hpd_status = hpd_parse_args(&argc, &argv);
  options o;
  char err[256] = "";
  int parsed = hpd_status == HPD_SUCCESS ? parse_options(argc, argv, &o, err, sizeof err) : -1;
  int early = bench_options_verdict("bench_eigen", parsed, err, usage);
  if (early >= 0)
    return early;
  bench_grid g;
  if (bench_open_grid(o.p, o.q, &g) != 0)
    return bench_grid_refused("bench_eigen", o.p, o.q);
  int user_disable = hpd_get_disable(), failed = 0;
  problem warm;
  problem_setup(&warm, 4 * o.nb[0] * (o.p > o.q ? o.p : o.q), o.nb[0], &g);
  int warm_info = 0;
  solve(&warm, &g, 1, &warm_info);
  problem_free(&warm);
  for (int i = 0; i < o.n_count; i++)
    for (int j = 0; j < o.nb_count; j++) {
      if (g.rank == 0) {
        fprintf(stderr, "bench_eigen: N=%d NB=%d grid %dx%d: one solve per side, then %d "
                "per side alternating\n", o.n[i], o.nb[j], o.p, o.q, o.reps);
        fflush(stderr);
      }
      problem pb;
      problem_setup(&pb, o.n[i], o.nb[j], &g);
      if (o.first >= 0) {
        failed |= !run_first(&o, &g, &pb);
        problem_free(&pb);
        continue;
      }
      row w = {.n = o.n[i], .nb = o.nb[j]};
      measure(&pb, &g, o.reps, &w);
      problem_free(&pb);
      failed |= !row_passes(&w);
      if (g.rank != 0)
        continue;
      if (i == 0 && j == 0)
        print_header(&o, o.p * o.q);
      print_row(&o, &w);
      if (o.csv)
        append_csv(&o, &w, g.rank);
      if (!row_passes(&w))
        fprintf(stderr, "bench_eigen: N=%d NB=%d: check failed: info %d, eigenvalues %.3g "
                "apart (bound %g)\n", w.n, w.nb, w.info, w.eig_diff, EIG_TOLERANCE);
    }
  hpd_set_disable(user_disable);
  Cblacs_gridexit(g.context);
  MPI_Finalize();
  return failed;
}
