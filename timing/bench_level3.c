/*
 * bench_level3: hpdaemon's pdsyrk_, pdtrsm_, pdtrmm_, pdsymm_ and pdsyr2k_ against the
 * reference, in one run, on one grid, from single calls of order 4096 down to calls of
 * order 8.
 *
 * As in bench_calls, each row first makes enough calls for the dispatch rule to settle,
 * then times rounds: a batch of calls through hpdaemon and the same batch through the
 * reference (hpd_set_disable), in alternating order, each from a barrier to the slowest
 * rank's end; a batch lasts at least a few milliseconds (one call where calls are longer).
 * The ratio ref/hpd is taken per round (above 1: hpdaemon faster); its median and a 95%
 * interval are printed, with the routes of the timed calls.  The calls update B (C) in
 * place call after call, so the triangular A is the identity plus off-diagonal entries of
 * order 1e-3 / N, and alpha is small where beta is 1: values stay bounded over thousands
 * of calls, never reaching the slow denormal range.  Columns: timing/README.md.
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bench_first.h"
#include "bench_interleave.h"
#include "bench_sample.h"
#include "dist_data.h"
#include "hpdaemon.h"
#include "scalapack.h"

#define BATCH_MIN_S 2e-3
#define BATCH_MAX_CALLS 2000
/* The dispatch rule runs a class's first two to four calls on the engine, and a close
 * class then takes rounds of calibration as the routine's time makes them affordable
 * (dispatch.h): twenty calls see a short class through. */
#define SETTLE_CALLS 20
#define LONG_CALL_S 0.05
/* Long calls are made one by one until two in a row take the same route, so that the
 * timed rounds see the route an application's later calls take, not the first calls. */
#define LONG_SETTLE_MIN 3

typedef struct options {
  int routine; /* hpd_routine */
  int m[MAX_LIST], m_count, n[MAX_LIST], n_count, nb[MAX_LIST], nb_count;
  int p, q, rounds;
  int control; /* both sides through the reference */
  int first;      /* --first-calls: 0 hpd, 1 ref; -1 without it */
  int interleave; /* --interleave: the same, the orders' calls in turn */
  char side, uplo, trans, diag;
  const char *csv, *label;
} options;

static void usage(FILE *out)
{
  fprintf(out,
          "usage: bench_level3 --routine pdsyrk|pdtrsm|pdtrmm|pdsymm|pdsyr2k|pdlaswp\n"
          "                    [-n N[,N...]]\n"
          "                    [-m M[,M...]] [-b NB[,NB...]] [-p P -q Q] [-r ROUNDS]\n"
          "                    [--side L|R] [--uplo U|L] [--trans N|T] [--diag N|U]\n"
          "                    [--label TEXT] [--csv PATH] [--control]\n"
          "                    [--first-calls hpd|ref] [--interleave hpd|ref]\n"
          "                    [hpdaemon options]\n"
          "  -n      N: sub(B) (sub(C)) is M x N (default 8,16,31,64,128,256,512,1024)\n"
          "  -m      M, one per N (default M = N); pdsyrk and pdsyr2k take K = M\n"
          "          pdlaswp: rows 1 to NB of an N x N matrix interchanged as LU's first\n"
          "          panel would (forward, rows)\n"
          "  -b      block sizes (default 32,64)\n"
          "  -p, -q  process grid, P*Q = ranks (default 1x1)\n"
          "  -r      timed rounds per row (default 15; 6 or more give the interval)\n"
          "  --side, --uplo, --trans, --diag  the letters (default L, L, N, N)\n"
          "  --label a word for the CSV's load column (default quiet)\n"
          "  --csv   append one line per row to PATH (a header first when it is empty)\n"
          "  --control  time the reference on both sides of each round: the ratios an\n"
          "          unchanged call shows, the benchmark's own resolution on this machine\n"
          "%s%s", bench_first_usage, bench_interleave_usage);
}

static int routine_of(const char *name)
{
  for (int r = 0; r < HPD_ROUTINES; r++)
    if (!strcmp(name, hpd_routine_name(r)) && r >= HPD_ROUTINE_PDSYRK)
      return r;
  return -1;
}

static int letter(const char *v, const char *allowed, char *out)
{
  if (strlen(v) != 1 || !strchr(allowed, v[0]))
    return -1;
  *out = v[0];
  return 0;
}

static int parse(int argc, char **argv, options *o, char *err, size_t errlen)
{
  *o = (options){.routine = -1, .p = 1, .q = 1, .rounds = 15, .side = 'L', .uplo = 'L',
                 .trans = 'N', .diag = 'N', .label = "quiet", .first = -1,
                 .interleave = -1};
  bench_parse_int_list("8,16,31,64,128,256,512,1024", o->n, &o->n_count);
  bench_parse_int_list("32,64", o->nb, &o->nb_count);
  for (int i = 1; i < argc; i++) {
    const char *v;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
      return 1;
    if ((v = bench_option_value(argc, argv, &i, "--routine"))) {
      if ((o->routine = routine_of(v)) < 0)
        return snprintf(err, errlen,
                        "--routine: pdsyrk, pdtrsm, pdtrmm, pdsymm, pdsyr2k, pdlaswp"),
               -1;
    } else if ((v = bench_option_value(argc, argv, &i, "-n"))) {
      if (bench_parse_int_list(v, o->n, &o->n_count))
        return snprintf(err, errlen, "-n: a list of sizes"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "-m"))) {
      if (bench_parse_int_list(v, o->m, &o->m_count))
        return snprintf(err, errlen, "-m: a list of sizes"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "-b"))) {
      if (bench_parse_int_list(v, o->nb, &o->nb_count))
        return snprintf(err, errlen, "-b: a list of block sizes"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "-p"))) {
      if (bench_parse_positive(v, &o->p))
        return snprintf(err, errlen, "-p: a positive integer"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "-q"))) {
      if (bench_parse_positive(v, &o->q))
        return snprintf(err, errlen, "-q: a positive integer"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "-r"))) {
      if (bench_parse_count(v, &o->rounds))
        return snprintf(err, errlen, "-r: a count"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "--side"))) {
      if (letter(v, "LR", &o->side))
        return snprintf(err, errlen, "--side: L or R"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "--uplo"))) {
      if (letter(v, "UL", &o->uplo))
        return snprintf(err, errlen, "--uplo: U or L"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "--trans"))) {
      if (letter(v, "NT", &o->trans))
        return snprintf(err, errlen, "--trans: N or T"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "--diag"))) {
      if (letter(v, "NU", &o->diag))
        return snprintf(err, errlen, "--diag: N or U"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "--csv"))) {
      o->csv = v;
    } else if ((v = bench_option_value(argc, argv, &i, "--label"))) {
      o->label = v;
    } else if ((v = bench_option_value(argc, argv, &i, "--first-calls"))) {
      if (bench_first_parse(v, &o->first))
        return snprintf(err, errlen, "--first-calls: hpd or ref"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "--interleave"))) {
      if (bench_first_parse(v, &o->interleave))
        return snprintf(err, errlen, "--interleave: hpd or ref"), -1;
    } else if (!strcmp(argv[i], "--control")) {
      o->control = 1;
    } else {
      return snprintf(err, errlen, "unknown option %s", argv[i]), -1;
    }
  }
  if (o->routine < 0)
    return snprintf(err, errlen, "--routine is required"), -1;
  if (o->m_count && o->m_count != o->n_count)
    return snprintf(err, errlen, "-m: one M per N"), -1;
  if (bench_interleave_check(o->interleave, o->first, o->n_count, o->nb_count, o->rounds, err,
                             errlen))
    return -1;
  return bench_first_rounds_check(o->first, o->rounds, err, errlen);
}

/* One distributed matrix, rows x cols in nb x nb blocks from process (0, 0). */
typedef struct matrix {
  int desc[9];
  double *data;
} matrix;

/* Entry (gi, gj): the identity plus small noise for the triangular or symmetric A,
 * noise of order 1 for the others. */
static int make_matrix(const bench_grid *g, int rows, int cols, int nb, uint64_t id, int near_one,
                       matrix *x)
{
  int zero = 0, info;
  int mloc = numroc_(&rows, &nb, &g->myrow, &zero, &g->nprow);
  int nloc = numroc_(&cols, &nb, &g->mycol, &zero, &g->npcol);
  int lld = mloc > 1 ? mloc : 1;
  descinit_(x->desc, &rows, &cols, &nb, &nb, &zero, &zero, &g->context, &lld, &info);
  x->data = malloc((size_t)lld * (size_t)(nloc > 0 ? nloc : 1) * sizeof(double));
  if (!x->data || info != 0)
    return -1;
  double scale = near_one ? 1e-3 / (rows > 0 ? rows : 1) : 1.0;
  for (int j = 0; j < nloc; j++)
    for (int i = 0; i < mloc; i++) {
      int64_t gi = dist_global_index(i, nb, g->myrow, g->nprow);
      int64_t gj = dist_global_index(j, nb, g->mycol, g->npcol);
      double v = dist_element(id, near_one ? (gi < gj ? gi : gj) : gi,
                              near_one ? (gi < gj ? gj : gi) : gj) * scale;
      x->data[i + (size_t)j * lld] = near_one && gi == gj ? 1.0 : v;
    }
  return 0;
}

typedef struct problem {
  const options *o;
  int m, n, k; /* sub(B) (sub(C)) is m x n; k: A's order, or pdsyrk's and pdsyr2k's K */
  matrix a, b, c;
  int *ipiv; /* pdlaswp: one LU panel's pivots, rows 1 to NB */
} problem;

static void one_call(problem *pb)
{
  const options *o = pb->o;
  const int one = 1;
  const double small = 1e-3, unit = 1.0;
  switch (o->routine) {
  case HPD_ROUTINE_PDLASWP:
    pdlaswp_("F", "R", &pb->n, pb->a.data, &one, &one, pb->a.desc, &one, &pb->k, pb->ipiv);
    break;
  case HPD_ROUTINE_PDTRSM:
    pdtrsm_(&o->side, &o->uplo, &o->trans, &o->diag, &pb->m, &pb->n, &unit, pb->a.data, &one,
            &one, pb->a.desc, pb->b.data, &one, &one, pb->b.desc);
    break;
  case HPD_ROUTINE_PDTRMM:
    pdtrmm_(&o->side, &o->uplo, &o->trans, &o->diag, &pb->m, &pb->n, &unit, pb->a.data, &one,
            &one, pb->a.desc, pb->b.data, &one, &one, pb->b.desc);
    break;
  case HPD_ROUTINE_PDSYRK:
    pdsyrk_(&o->uplo, &o->trans, &pb->n, &pb->k, &small, pb->a.data, &one, &one, pb->a.desc,
            &unit, pb->c.data, &one, &one, pb->c.desc);
    break;
  case HPD_ROUTINE_PDSYMM:
    pdsymm_(&o->side, &o->uplo, &pb->m, &pb->n, &small, pb->a.data, &one, &one, pb->a.desc,
            pb->b.data, &one, &one, pb->b.desc, &unit, pb->c.data, &one, &one, pb->c.desc);
    break;
  default:
    pdsyr2k_(&o->uplo, &o->trans, &pb->n, &pb->k, &small, pb->a.data, &one, &one,
             pb->a.desc, pb->b.data, &one, &one, pb->b.desc, &unit, pb->c.data, &one, &one,
             pb->c.desc);
    break;
  }
}

/* The flops of one call, as the routines' definitions count them. */
static double flops_of(const problem *pb)
{
  double m = pb->m, n = pb->n, k = pb->k;
  switch (pb->o->routine) {
  case HPD_ROUTINE_PDLASWP:
    return 0.0; /* it moves data */
  case HPD_ROUTINE_PDTRSM:
  case HPD_ROUTINE_PDTRMM:
    return pb->o->side == 'L' ? m * m * n : m * n * n;
  case HPD_ROUTINE_PDSYMM:
    return 2.0 * m * n * k;
  case HPD_ROUTINE_PDSYRK:
    return n * n * k;
  default:
    return 2.0 * n * n * k;
  }
}

static int make_problem(const bench_grid *g, const options *o, int m, int n, int nb, problem *pb)
{
  *pb = (problem){.o = o, .m = m, .n = n};
  if (o->routine == HPD_ROUTINE_PDLASWP) {
    /* an N x N matrix and the pivots of its first panel of NB rows, as pdgetrf applies
     * them: row i with a row at or below it, the same on every process */
    pb->k = nb < n ? nb : n;
    pb->ipiv = malloc((size_t)pb->k * sizeof *pb->ipiv);
    unsigned seed = 12345u;
    for (int i = 1; pb->ipiv && i <= pb->k; i++) {
      seed = seed * 1103515245u + 12345u;
      pb->ipiv[i - 1] = i + (int)((seed >> 8) % (unsigned)(n - i + 1));
    }
    return pb->ipiv ? make_matrix(g, n, n, nb, 1, 0, &pb->a) : -1;
  }
  int syrk = o->routine == HPD_ROUTINE_PDSYRK, syr2k = o->routine == HPD_ROUTINE_PDSYR2K;
  pb->k = syrk || syr2k ? m : o->side == 'L' ? m : n;
  if (syrk || syr2k) {
    pb->m = n;
    int rows = o->trans == 'N' ? n : pb->k, cols = o->trans == 'N' ? pb->k : n;
    return make_matrix(g, rows, cols, nb, 1, 0, &pb->a) |
           (syr2k ? make_matrix(g, rows, cols, nb, 2, 0, &pb->b) : 0) |
           make_matrix(g, n, n, nb, 3, 0, &pb->c);
  }
  int status = make_matrix(g, pb->k, pb->k, nb, 1, 1, &pb->a) |
               make_matrix(g, m, n, nb, 2, 0, &pb->b);
  if (o->routine == HPD_ROUTINE_PDSYMM)
    status |= make_matrix(g, m, n, nb, 3, 0, &pb->c);
  return status;
}

static void free_problem(problem *pb)
{
  free(pb->a.data), free(pb->b.data), free(pb->c.data), free(pb->ipiv);
}

/* Seconds of `calls` calls on the slowest rank, from a barrier. */
static double timed(problem *pb, int calls, int disable)
{
  hpd_set_disable(disable);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < calls; i++)
    one_call(pb);
  double mine = MPI_Wtime() - t0, slowest;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

/* The route hpdaemon gave one call on this rank: 1 engine, 0 any other. */
static int engine_route(problem *pb)
{
  hpd_stats before, after;
  hpd_get_stats(&before);
  timed(pb, 1, 0);
  hpd_get_stats(&after);
  int r = pb->o->routine;
  return after.routine[r].engine_calls > before.routine[r].engine_calls;
}

static void settle_long(problem *pb)
{
  int previous = -1;
  for (int calls = 1; calls < SETTLE_CALLS; calls++) {
    int route = engine_route(pb);
    /* every rank routes a class alike, but only together do they stop */
    int same = calls >= LONG_SETTLE_MIN && route == previous, all;
    MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all)
      return;
    previous = route;
  }
}

typedef struct row {
  int m, n, nb, calls;
  double hpd_ms, ref_ms, gflops, ratio, lo, hi, level; /* ratio = ref / hpd */
  unsigned long long engine, direct, direct_local, fallback;
} row;

static void measure(const options *o, problem *pb, int nb, row *r)
{
  double first = timed(pb, 1, 1);
  MPI_Bcast(&first, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (first > LONG_CALL_S)
    settle_long(pb);
  else
    for (int s = 0; s < SETTLE_CALLS; s++) {
      timed(pb, 1, 0);
      timed(pb, 1, 1);
    }
  int calls = first > 0 ? (int)ceil(BATCH_MIN_S / first) : BATCH_MAX_CALLS;
  calls = calls < 1 ? 1 : calls > BATCH_MAX_CALLS ? BATCH_MAX_CALLS : calls;
  MPI_Bcast(&calls, 1, MPI_INT, 0, MPI_COMM_WORLD);

  double *hpd = malloc((size_t)o->rounds * sizeof(double));
  double *ref = malloc((size_t)o->rounds * sizeof(double));
  double *ratio = malloc((size_t)o->rounds * sizeof(double));
  hpd_stats before, after;
  hpd_get_stats(&before);
  for (int i = 0; i < o->rounds; i++) {
    int hpd_first = i % 2 == 0;
    double t1 = timed(pb, calls, !hpd_first || o->control);
    double t2 = timed(pb, calls, hpd_first || o->control);
    hpd[i] = hpd_first ? t1 : t2;
    ref[i] = hpd_first ? t2 : t1;
    ratio[i] = ref[i] / hpd[i];
  }
  hpd_get_stats(&after);
  hpd_set_disable(0);
  const hpd_routine_stats *a = &after.routine[o->routine], *b = &before.routine[o->routine];
  double hpd_s = bench_median(hpd, o->rounds) / calls;
  *r = (row){.m = pb->m, .n = pb->n, .nb = nb, .calls = calls * o->rounds,
             .hpd_ms = hpd_s * 1e3, .ref_ms = bench_median(ref, o->rounds) / calls * 1e3,
             .gflops = flops_of(pb) / hpd_s * 1e-9, .ratio = bench_median(ratio, o->rounds),
             .engine = a->engine_calls - b->engine_calls,
             .direct = a->direct_calls - b->direct_calls,
             .direct_local = a->direct_local_calls - b->direct_local_calls,
             /* the reference side's calls count as fallbacks (disabled): not those */
             .fallback = a->fallback_calls - b->fallback_calls -
                         (a->fallback_by_reason[HPD_FALLBACK_DISABLED] -
                          b->fallback_by_reason[HPD_FALLBACK_DISABLED])};
  r->level = bench_median_interval(ratio, o->rounds, &r->lo, &r->hi);
  free(hpd), free(ref), free(ratio);
}

static double first_call(void *pb, int reference)
{
  return timed(pb, 1, reference);
}

/* --first-calls: a row of bench_first.h instead of the settled rounds. */
static void run_first(const bench_grid *g, const options *o, problem *pb, int nb)
{
  char letters[8];
  snprintf(letters, sizeof letters, "%c%c%c%c", o->side, o->uplo, o->trans, o->diag);
  bench_first_row row = {hpd_routine_name(o->routine), letters, pb->n, nb, g->nprow,
                         g->npcol};
  bench_first_run(&row, o->first, o->rounds, first_call, pb, o->csv);
}

/* --interleave: the orders' problems (M = N, or -m's), made before the first call. */
static void run_interleaved(const bench_grid *g, const options *o)
{
  problem pb[MAX_LIST];
  void *each[MAX_LIST];
  int bad = 0, any = 0;
  for (int i = 0; i < o->n_count; i++) {
    bad |= make_problem(g, o, o->m_count ? o->m[i] : o->n[i], o->n[i], o->nb[0], &pb[i]);
    each[i] = &pb[i];
  }
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any) {
    if (g->rank == 0)
      fprintf(stderr, "bench_level3: cannot allocate the orders' problems\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  char letters[8];
  snprintf(letters, sizeof letters, "%c%c%c%c", o->side, o->uplo, o->trans, o->diag);
  bench_interleave_row row = {hpd_routine_name(o->routine), letters, o->nb[0], g->nprow,
                              g->npcol};
  bench_interleave_run(&row, o->interleave, o->rounds, o->n_count, o->n, first_call, each,
                       o->csv);
  for (int i = 0; i < o->n_count; i++)
    free_problem(&pb[i]);
}

static void print_row(const bench_grid *g, const options *o, const row *r, FILE *csv)
{
  if (g->rank != 0)
    return;
  char ci[48] = "-", letters[8];
  if (r->level > 0)
    snprintf(ci, sizeof ci, "%.3f..%.3f", r->lo, r->hi);
  snprintf(letters, sizeof letters, "%c%c%c%c", o->side, o->uplo, o->trans, o->diag);
  const char *verdict = r->level > 0 && r->hi < 1.0 ? "SLOWER" : "ok";
  printf("%-8s %-4s %5d %5d %4d %dx%-3d %6d %10.3f %10.3f %7.2f %8.3f %-13s %7llu %7llu "
         "%7llu %5llu %s\n",
         hpd_routine_name(o->routine), letters, r->m, r->n, r->nb, g->nprow, g->npcol,
         r->calls, r->ref_ms, r->hpd_ms, r->gflops, r->ratio, ci, r->engine, r->direct,
         r->direct_local, r->fallback, verdict);
  fflush(stdout);
  if (csv) {
    fprintf(csv, "%s,%s,%s,%d,%d,%d,%d,%d,%.5f,%.5f,%.3f,%.5f,%.5f,%.5f,%llu,%llu,%llu,%llu\n",
            o->label, hpd_routine_name(o->routine), letters, r->m, r->n, r->nb, g->nprow,
            g->npcol, r->ref_ms, r->hpd_ms, r->gflops, r->ratio, r->level > 0 ? r->lo : NAN,
            r->level > 0 ? r->hi : NAN, r->engine, r->direct, r->direct_local, r->fallback);
    fflush(csv);
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int hpd_status = hpd_parse_args(&argc, &argv);
  options o;
  char err[128] = "";
  int parsed = hpd_status == HPD_SUCCESS ? parse(argc, argv, &o, err, sizeof err) : -1;
  int verdict = bench_options_verdict("bench_level3", parsed, err, usage);
  if (verdict >= 0)
    return verdict;
  bench_grid g;
  if (bench_open_grid(o.p, o.q, &g) != 0)
    return bench_grid_refused("bench_level3", o.p, o.q);
  const char *header = "load,routine,letters,m,n,nb,p,q,ref_ms,hpd_ms,hpd_gflops,"
                       "ref_over_hpd,ci_lo,ci_hi,engine,direct,direct_local,fallback";
  /* --first-calls writes rows of its own to the path */
  int own_rows = o.first >= 0 || o.interleave >= 0;
  FILE *csv = own_rows ? NULL : bench_open_csv("bench_level3", o.csv, g.rank, header);
  if (o.interleave >= 0)
    run_interleaved(&g, &o);
  if (g.rank == 0 && !own_rows) {
    char kernels[128];
    printf("# bench_level3: %s on a %dx%d grid, %d rounds per row, load %s, %s, dispatch %s, "
           "strategy %s\n",
           hpd_routine_name(o.routine), o.p, o.q, o.rounds, o.label,
           bench_kernels(kernels, sizeof kernels), hpd_dispatch_name(hpd_get_dispatch()),
           hpd_strategy_name(hpd_get_strategy()));
    printf("# letters: SIDE UPLO TRANS DIAG; ref_ms, hpd_ms: median time per call; GF/s: "
           "hpdaemon's; ref/hpd: median of the rounds' ratios (above 1: hpdaemon faster) "
           "with its 95%% interval (SLOWER: the whole interval below 1); engine, direct, "
           "local, fallback: hpdaemon's routes for the timed calls on rank 0\n");
    if (o.control)
      printf("# control: both sides of every round are the reference; the ratios show the "
             "benchmark's own resolution, and hpd_ms and the routes are not hpdaemon's\n");
    printf("%-8s %-4s %5s %5s %4s %-5s %6s %10s %10s %7s %8s %-13s %7s %7s %7s %5s %s\n",
           "routine", "ltrs", "M", "N", "NB", "grid", "calls", "ref_ms", "hpd_ms", "GF/s",
           "ref/hpd", "interval", "engine", "direct", "local", "fall", "verdict");
  }
  for (int b = 0; o.interleave < 0 && b < o.nb_count; b++)
    for (int i = 0; i < o.n_count; i++) {
      problem pb;
      int m = o.m_count ? o.m[i] : o.n[i];
      int bad = make_problem(&g, &o, m, o.n[i], o.nb[b], &pb), any = 0;
      MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      if (any) {
        if (g.rank == 0)
          fprintf(stderr, "bench_level3: cannot allocate M = %d, N = %d\n", m, o.n[i]);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      row r;
      if (o.first >= 0) {
        run_first(&g, &o, &pb, o.nb[b]);
      } else {
        measure(&o, &pb, o.nb[b], &r);
        print_row(&g, &o, &r, csv);
      }
      free_problem(&pb);
    }
  if (csv)
    fclose(csv);
  Cblacs_gridexit(g.context);
  Cblacs_exit(1);
  MPI_Finalize();
  return 0;
}
