/*
 * bench_calls: hpdaemon's pdgemm_ against the reference on the calls applications make by
 * the thousand, in one run, on one grid: square multiplies of every size from 8 up
 * (powers of two and odd sizes), and a replayed call mix (the back-transformation of a
 * dense symmetric eigen-solve: M, N, K from 32 to 736, sub-matrices at IA, JA > 1,
 * TRANS N and T).
 *
 * Each row first makes enough calls for hpdaemon's dispatch rule to settle (its
 * calibration is not what an application's thousands of calls see), then times rounds:
 * a batch of calls through hpdaemon and the same batch through the reference
 * (hpd_set_disable), in alternating order, each batch from a barrier to the slowest
 * rank's end.  A batch lasts at least a few milliseconds, so that clock resolution and the
 * barrier do not count.  The ratio hpd/ref is taken per round; its median and a 95%
 * interval are printed, with the calls of the timed batches hpdaemon routed to its
 * engine and past it (direct).  Columns: timing/README.md.
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
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
#define EIGEN_N 768
#define EIGEN_NB_STEP 32

typedef struct options {
  int n[MAX_LIST], n_count;
  int nb[MAX_LIST], nb_count;
  int p, q, rounds;
  int square, eigen;
  const char *csv, *label;
} options;

typedef struct call {
  char ta, tb;
  int m, n, k, ia, ja, ib, jb, ic, jc;
} call;

typedef struct workload {
  call *calls;
  int count;
  int order, nb; /* square matrices A, B, C of this order hold every call's operands */
  double flops;  /* of one pass over the calls */
} workload;

static void usage(FILE *out)
{
  fprintf(out,
          "usage: bench_calls [-n N[,N...]] [-b NB[,NB...]] [-p P -q Q] [-r ROUNDS]\n"
          "                   [--mix square|eigen|both] [--label TEXT] [--csv PATH]\n"
          "                   [hpdaemon options]\n"
          "  -n      square sizes (default 8,13,16,31,32,47,64,100,128,200,256,383,512,1024)\n"
          "  -b      block sizes (default 32,64)\n"
          "  -p, -q  process grid, P*Q = ranks (default 1x1)\n"
          "  -r      timed rounds per row (default 15; 6 or more give the interval)\n"
          "  --mix   square sizes, the eigen-solve mix, or both (default both)\n"
          "  --label a word for the CSV's load column (default quiet)\n"
          "  --csv   append one line per row to PATH (a header first when it is empty)\n");
}

static int parse(int argc, char **argv, options *o, char *err, size_t errlen)
{
  *o = (options){.p = 1, .q = 1, .rounds = 15, .square = 1, .eigen = 1, .label = "quiet"};
  bench_parse_int_list("8,13,16,31,32,47,64,100,128,200,256,383,512,1024", o->n, &o->n_count);
  bench_parse_int_list("32,64", o->nb, &o->nb_count);
  for (int i = 1; i < argc; i++) {
    const char *v;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
      return 1;
    if ((v = bench_option_value(argc, argv, &i, "-n"))) {
      if (bench_parse_int_list(v, o->n, &o->n_count))
        return snprintf(err, errlen, "-n: a list of sizes"), -1;
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
      if (bench_parse_positive(v, &o->rounds))
        return snprintf(err, errlen, "-r: a positive integer"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "--mix"))) {
      o->square = !strcmp(v, "square") || !strcmp(v, "both");
      o->eigen = !strcmp(v, "eigen") || !strcmp(v, "both");
      if (!o->square && !o->eigen)
        return snprintf(err, errlen, "--mix: square, eigen or both"), -1;
    } else if ((v = bench_option_value(argc, argv, &i, "--csv"))) {
      o->csv = v;
    } else if ((v = bench_option_value(argc, argv, &i, "--label"))) {
      o->label = v;
    } else {
      return snprintf(err, errlen, "unknown option %s", argv[i]), -1;
    }
  }
  return 0;
}

static workload square_workload(int n, int nb)
{
  workload w = {.calls = malloc(sizeof(call)), .count = 1, .order = n, .nb = nb,
                .flops = 2.0 * n * n * (double)n};
  w.calls[0] = (call){'N', 'N', n, n, n, 1, 1, 1, 1, 1, 1};
  return w;
}

/* The eigenvectors' back-transformation (ScaLAPACK's pdormtr through pdlarfb) on an order
 * EIGEN_N problem: per reflector block at row j, W := V' * C (K = the rows below j), then
 * C := C - V * W (K = the block width), on sub-matrices that start at row j + 1. */
static workload eigen_workload(int nb)
{
  int n = EIGEN_N, blocks = 0;
  for (int j = EIGEN_NB_STEP; j + EIGEN_NB_STEP <= n; j += EIGEN_NB_STEP)
    blocks++;
  workload w = {.calls = malloc(2 * (size_t)blocks * sizeof(call)), .order = n, .nb = nb};
  for (int j = EIGEN_NB_STEP; j + EIGEN_NB_STEP <= n; j += EIGEN_NB_STEP) {
    int rows = n - j, width = EIGEN_NB_STEP;
    /* W (width x n, kept in C's first rows of B) := V' (width x rows) * C (rows x n) */
    w.calls[w.count++] = (call){'T', 'N', width, n - width, rows, j + 1, j + 1, j + 1, 1,
                                1, width + 1};
    /* C (rows x n) -= V (rows x width) * W (width x n) */
    w.calls[w.count++] = (call){'N', 'N', rows, n - width, width, j + 1, j + 1, 1,
                                width + 1, j + 1, width + 1};
  }
  for (int i = 0; i < w.count; i++)
    w.flops += 2.0 * w.calls[i].m * w.calls[i].n * (double)w.calls[i].k;
  return w;
}

typedef struct arrays {
  int desc[9];
  double *a, *b, *c;
} arrays;

static int make_arrays(const bench_grid *g, int order, int nb, arrays *x)
{
  int zero = 0, info;
  int mloc = numroc_(&order, &nb, &g->myrow, &zero, &g->nprow);
  int nloc = numroc_(&order, &nb, &g->mycol, &zero, &g->npcol);
  int lld = mloc > 1 ? mloc : 1;
  descinit_(x->desc, &order, &order, &nb, &nb, &zero, &zero, &g->context, &lld, &info);
  size_t elems = (size_t)lld * (size_t)(nloc > 0 ? nloc : 1);
  x->a = malloc(elems * sizeof(double));
  x->b = malloc(elems * sizeof(double));
  x->c = malloc(elems * sizeof(double));
  if (!x->a || !x->b || !x->c || info != 0)
    return -1;
  for (int j = 0; j < nloc; j++)
    for (int i = 0; i < mloc; i++) {
      int64_t gi = dist_global_index(i, nb, g->myrow, g->nprow);
      int64_t gj = dist_global_index(j, nb, g->mycol, g->npcol);
      x->a[i + (size_t)j * lld] = dist_element(1, gi, gj);
      x->b[i + (size_t)j * lld] = dist_element(2, gi, gj);
      x->c[i + (size_t)j * lld] = 0.0;
    }
  return 0;
}

/* beta = 1 with a small alpha keeps C bounded over thousands of calls. */
static void run_calls(const workload *w, arrays *x, int passes)
{
  const double alpha = 1e-3, beta = 1.0;
  for (int p = 0; p < passes; p++)
    for (int i = 0; i < w->count; i++) {
      const call *c = &w->calls[i];
      pdgemm_(&c->ta, &c->tb, &c->m, &c->n, &c->k, &alpha, x->a, &c->ia, &c->ja, x->desc,
              x->b, &c->ib, &c->jb, x->desc, &beta, x->c, &c->ic, &c->jc, x->desc);
    }
}

/* Seconds of `passes` passes on the slowest rank, from a barrier. */
static double timed(const workload *w, arrays *x, int passes, int disable)
{
  hpd_set_disable(disable);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  run_calls(w, x, passes);
  double mine = MPI_Wtime() - t0, slowest;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

typedef struct row {
  const char *mix;
  int n, nb, calls_per_pass, passes;
  double hpd_us, ref_us, ratio, lo, hi, level; /* per call; ratio = hpd / ref */
  unsigned long long engine, direct, direct_local;
} row;

static void measure(const bench_grid *g, const options *o, const workload *w, row *r)
{
  arrays x;
  if (make_arrays(g, w->order, w->nb, &x) != 0) {
    fprintf(stderr, "bench_calls: cannot allocate order %d\n", w->order);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int s = 0; s < SETTLE_CALLS; s++) {
    timed(w, &x, 1, 0);
    timed(w, &x, 1, 1);
  }
  double one = timed(w, &x, 1, 1);
  int passes = one > 0 ? (int)ceil(BATCH_MIN_S / one) : BATCH_MAX_CALLS;
  if (passes * w->count > BATCH_MAX_CALLS)
    passes = BATCH_MAX_CALLS / w->count > 0 ? BATCH_MAX_CALLS / w->count : 1;
  MPI_Bcast(&passes, 1, MPI_INT, 0, MPI_COMM_WORLD);

  double *hpd = malloc((size_t)o->rounds * sizeof(double));
  double *ref = malloc((size_t)o->rounds * sizeof(double));
  double *ratio = malloc((size_t)o->rounds * sizeof(double));
  hpd_stats before, after;
  hpd_get_stats(&before);
  for (int i = 0; i < o->rounds; i++) {
    int hpd_first = i % 2 == 0;
    double first = timed(w, &x, passes, !hpd_first);
    double second = timed(w, &x, passes, hpd_first);
    hpd[i] = hpd_first ? first : second;
    ref[i] = hpd_first ? second : first;
    ratio[i] = hpd[i] / ref[i];
  }
  hpd_get_stats(&after);
  hpd_set_disable(0);
  const hpd_routine_stats *a = &after.routine[HPD_ROUTINE_PDGEMM];
  const hpd_routine_stats *b = &before.routine[HPD_ROUTINE_PDGEMM];
  double per_call = 1e6 / ((double)passes * w->count);
  *r = (row){.n = w->order, .nb = w->nb, .calls_per_pass = w->count, .passes = passes,
             .hpd_us = bench_median(hpd, o->rounds) * per_call,
             .ref_us = bench_median(ref, o->rounds) * per_call,
             .ratio = bench_median(ratio, o->rounds),
             .engine = a->engine_calls - b->engine_calls,
             .direct = a->direct_calls - b->direct_calls,
             .direct_local = a->direct_local_calls - b->direct_local_calls};
  r->level = bench_median_interval(ratio, o->rounds, &r->lo, &r->hi);
  free(hpd), free(ref), free(ratio);
  free(x.a), free(x.b), free(x.c);
}

static void print_row(const bench_grid *g, const options *o, const row *r, FILE *csv)
{
  if (g->rank != 0)
    return;
  char ci[48] = "-";
  if (r->level > 0)
    snprintf(ci, sizeof ci, "%.3f..%.3f", r->lo, r->hi);
  const char *verdict = r->level > 0 && r->lo > 1.0 ? "SLOWER" : "ok";
  printf("%-6s %5d %4d %dx%-3d %6d %11.2f %11.2f %8.3f %-13s %8llu %8llu %8llu %s\n", r->mix,
         r->n, r->nb, g->nprow, g->npcol, r->calls_per_pass * r->passes, r->ref_us, r->hpd_us,
         r->ratio, ci, r->engine, r->direct, r->direct_local, verdict);
  fflush(stdout);
  if (csv) {
    fprintf(csv, "%s,%s,%d,%d,%d,%d,%.4f,%.4f,%.5f,%.5f,%.5f,%llu,%llu,%llu\n", o->label,
            r->mix, r->n, r->nb, g->nprow, g->npcol, r->ref_us, r->hpd_us, r->ratio,
            r->level > 0 ? r->lo : NAN, r->level > 0 ? r->hi : NAN, r->engine, r->direct,
            r->direct_local);
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
  int verdict = bench_options_verdict("bench_calls", parsed, err, usage);
  if (verdict >= 0)
    return verdict;
  bench_grid g;
  if (bench_open_grid(o.p, o.q, &g) != 0)
    return bench_grid_refused("bench_calls", o.p, o.q);
  FILE *csv = bench_open_csv("bench_calls", o.csv, g.rank,
                             "load,mix,n,nb,p,q,ref_us,hpd_us,hpd_over_ref,ci_lo,ci_hi,engine,"
                             "direct,"
                             "direct_local");
  if (g.rank == 0) {
    printf("# bench_calls: %dx%d grid, %d rounds per row, load %s, BLAS %s with %d "
           "thread(s), dispatch %s\n",
           o.p, o.q, o.rounds, o.label, openblas_get_corename(), openblas_get_num_threads(),
           hpd_dispatch_name(hpd_get_dispatch()));
    printf("# ref_us, hpd_us: median time per call; hpd/ref: median of the rounds' ratios "
           "with its 95%% interval (SLOWER: the whole interval above 1); engine, direct, "
           "local: hpdaemon's routes for the timed calls on rank 0\n");
    printf("%-6s %5s %4s %-5s %6s %11s %11s %8s %-13s %8s %8s %8s %s\n", "mix", "N", "NB",
           "grid", "calls", "ref_us", "hpd_us", "hpd/ref", "interval", "engine", "direct",
           "local", "verdict");
  }
  for (int b = 0; b < o.nb_count; b++) {
    if (o.square)
      for (int i = 0; i < o.n_count; i++) {
        workload w = square_workload(o.n[i], o.nb[b]);
        row r;
        measure(&g, &o, &w, &r);
        r.mix = "square";
        print_row(&g, &o, &r, csv);
        free(w.calls);
      }
    if (o.eigen) {
      workload w = eigen_workload(o.nb[b]);
      row r;
      measure(&g, &o, &w, &r);
      r.mix = "eigen";
      print_row(&g, &o, &r, csv);
      free(w.calls);
    }
  }
  if (csv)
    fclose(csv);
  Cblacs_gridexit(g.context);
  Cblacs_exit(1);
  MPI_Finalize();
  return 0;
}
