#include "bench_first.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bench_sample.h"
#include "hpdaemon.h"
#include "scalapack.h"

/* Calls through hpdaemon before the rounds, the first two included: two in a row on the
 * same route end the settling earlier. */
#define SETTLE_MAX 8
#define SETTLE_MIN 3
#define WARM_BYTES (8u << 20)
#define ROUTE_TEXT 256

const char bench_first_usage[] =
    "  --first-calls hpd|ref  time that side's first and second calls of the size in this\n"
    "             fresh process, then (hpd) the steady state over -r rounds (-r 0: none,\n"
    "             the first calls only, as a simulated run of a large order affords); one\n"
    "             CSV row (support/bench_first.h, timing/run_cluster.sh --quick)\n";

int bench_first_rounds_check(int reference, int rounds, char *err, size_t errlen)
{
  if (rounds > 0 || reference >= 0)
    return 0;
  snprintf(err, errlen, "-r 0 times no rounds: only with --first-calls, which times the "
                        "first calls");
  return -1;
}

int bench_first_parse(const char *text, int *reference)
{
  if (strcmp(text, "hpd") && strcmp(text, "ref"))
    return -1;
  *reference = !strcmp(text, "ref");
  return 0;
}

/* What neither side owns: the MPI connections and their socket buffers (an exchange of
 * 8 MiB each way, twice) and the BLAS's own buffers (a small local multiply).  Simulated
 * MPI has no connections to open, and its reductions cost the simulation real work on
 * every rank, so there the exchange is left out. */
void bench_first_warm(void)
{
#ifdef HPD_SIMULATED
  const int exchanges = 0;
#else
  const int exchanges = 2;
#endif
  size_t count = WARM_BYTES / sizeof(double);
  double *in = calloc(count, sizeof *in), *out = malloc(count * sizeof *out);
  if (!in || !out)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 0; i < exchanges; i++)
    MPI_Allreduce(in, out, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const int k = 64;
  const double one = 1.0, zero = 0.0;
  dgemm_("N", "N", &k, &k, &k, &one, in, &k, in, &k, &zero, out, &k);
  free(in), free(out);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* The route of one hpdaemon call, over every routine that it reached: its own entry and,
 * in a factorization, the calls made inside it.  Fewest engine calls of any rank, most
 * of the others; the reference's own calls (disabled) are not counted. */
typedef struct route {
  unsigned long long engine, direct, local, fallback, calls;
} route;

static route route_between(const hpd_stats *a, const hpd_stats *b)
{
  route mine = {0};
  for (int r = 0; r < HPD_ROUTINES; r++) {
    const hpd_routine_stats *x = &a->routine[r], *y = &b->routine[r];
    mine.engine += y->engine_calls - x->engine_calls;
    mine.direct += y->direct_calls - x->direct_calls;
    mine.local += y->direct_local_calls - x->direct_local_calls;
    mine.fallback += (y->fallback_calls - x->fallback_calls) -
                     (y->fallback_by_reason[HPD_FALLBACK_DISABLED] -
                      x->fallback_by_reason[HPD_FALLBACK_DISABLED]);
    mine.calls += y->calls - x->calls;
  }
  long long in[5] = {-(long long)mine.engine, (long long)mine.direct, (long long)mine.local,
                     (long long)mine.fallback, (long long)mine.calls}, most[5];
  MPI_Allreduce(in, most, 5, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return (route){(unsigned long long)-most[0], (unsigned long long)most[1],
                 (unsigned long long)most[2], (unsigned long long)most[3],
                 (unsigned long long)most[4]};
}

/* One word: E (engine), R (sent to the reference by the dispatch), L (a local multiply),
 * F (a fallback) for a call that reached hpdaemon once; "served/reached" otherwise. */
static void route_word(const route *r, char *word, size_t size)
{
  if (r->calls == 1)
    snprintf(word, size, "%s", r->engine ? "E" : r->direct ? "R" : r->local ? "L" : "F");
  else
    snprintf(word, size, "%llu/%llu", r->engine, r->calls);
}

double bench_first_timed(bench_first_call call, void *problem, int reference, char *word)
{
  hpd_stats before, after;
  hpd_get_stats(&before);
  double seconds = call(problem, reference);
  hpd_get_stats(&after);
  if (!reference) {
    route r = route_between(&before, &after);
    route_word(&r, word, BENCH_FIRST_WORD);
  } else
    snprintf(word, BENCH_FIRST_WORD, "-");
  return seconds;
}

/* A timed call; through hpdaemon, its route word is appended to text (when not NULL) and
 * left in word. */
static double timed(bench_first_call call, void *problem, int reference, char *word,
                    char *text)
{
  double seconds = bench_first_timed(call, problem, reference, word);
  if (!reference && text)
    snprintf(text + strlen(text), ROUTE_TEXT - strlen(text), "%s%s", text[0] ? " " : "",
             word);
  return seconds;
}

typedef struct result {
  double first, second, other; /* the cold side's calls, the other side's first */
  double hpd, ref, ratio, lo, hi, level;
  char first_route[BENCH_FIRST_WORD], second_route[BENCH_FIRST_WORD],
      other_route[BENCH_FIRST_WORD];
  char settle[ROUTE_TEXT], steady[ROUTE_TEXT];
} result;

/* Calls through hpdaemon until two in a row take the same route (SETTLE_MIN calls of the
 * size at least, SETTLE_MAX at most), as an application's many calls of one class would
 * find it. */
static void settle(bench_first_call call, void *problem, const char *second, result *out)
{
  char previous[BENCH_FIRST_WORD], word[BENCH_FIRST_WORD];
  snprintf(previous, sizeof previous, "%s", second);
  for (int calls = 2; calls < SETTLE_MAX; calls++) {
    timed(call, problem, 0, word, out->settle);
    if (calls + 1 >= SETTLE_MIN && !strcmp(word, previous))
      return;
    snprintf(previous, sizeof previous, "%s", word);
  }
}

static void steady(bench_first_call call, void *problem, int rounds, result *out)
{
  double *t = malloc(3 * (size_t)rounds * sizeof *t);
  if (!t)
    MPI_Abort(MPI_COMM_WORLD, 1);
  double *hpd = t, *ref = t + rounds, *ratio = t + 2 * rounds;
  char word[BENCH_FIRST_WORD];
  for (int i = 0; i < rounds; i++) {
    int ref_first = i % 2 == 0; /* the last call before the rounds was hpdaemon's */
    if (ref_first)
      ref[i] = timed(call, problem, 1, word, NULL);
    hpd[i] = timed(call, problem, 0, word, out->steady);
    if (!ref_first)
      ref[i] = timed(call, problem, 1, word, NULL);
    ratio[i] = ref[i] / hpd[i];
  }
  out->hpd = bench_median(hpd, rounds);
  out->ref = bench_median(ref, rounds);
  out->ratio = bench_median(ratio, rounds);
  out->level = bench_median_interval(ratio, rounds, &out->lo, &out->hi);
  free(t);
}

/* What names the row on every line the protocol prints, into text: each line goes out
 * in one write, whole, where the launcher merges the ranks' output streams. */
#define ROW_HEAD 192
static const char *row_head(char text[ROW_HEAD], const bench_first_row *row)
{
  snprintf(text, ROW_HEAD, "first-calls %s %s %dx%d N=%d NB=%d", row->routine,
           row->letters, row->p, row->q, row->n, row->nb);
  return text;
}

static void report(const bench_first_row *row, int reference, int rounds, const result *r,
                   const char *csv_path)
{
  const char *cold = reference ? "ref" : "hpd", *other = reference ? "hpd" : "ref";
  char head[ROW_HEAD];
  printf("%s, cold %s: first %.4f s, second %.4f s", row_head(head, row), cold, r->first,
         r->second);
  if (!reference)
    printf(" (routes %s %s)", r->first_route, r->second_route);
  printf("; %s's first after them %.4f s", other, r->other);
  if (reference)
    printf(" (route %s)\n", r->other_route);
  else if (rounds == 0)
    printf("; no rounds\n");
  else
    printf("; settling: %s; %d rounds: hpd %.4f s, ref %.4f s, ref/hpd %.3f (%s %.3f..%.3f), "
           "routes %s\n", r->settle[0] ? r->settle : "-", rounds, r->hpd, r->ref, r->ratio,
           r->level > 0 ? "95%" : "range", r->lo, r->hi, r->steady);
  fflush(stdout);
  FILE *csv = bench_open_csv("first-calls", csv_path, 0,
                             "routine,letters,p,q,n,nb,cold,first_s,second_s,other_first_s,"
                             "rounds,hpd_median_s,ref_median_s,ratio,ratio_lo,ratio_hi,"
                             "ratio_level,route_first,route_second,route_other,route_settle,"
                             "route_steady");
  if (!csv)
    return;
  fprintf(csv, "%s,%s,%d,%d,%d,%d,%s,%.6f,%.6f,%.6f,", row->routine, row->letters, row->p,
          row->q, row->n, row->nb, cold, r->first, r->second, r->other);
  if (reference)
    fprintf(csv, "0,,,,,,,-,-,%s,-,-\n", r->other_route);
  else if (rounds == 0)
    fprintf(csv, "0,,,,,,,%s,%s,-,-,-\n", r->first_route, r->second_route);
  else
    fprintf(csv, "%d,%.6f,%.6f,%.4f,%.4f,%.4f,%.3f,%s,%s,-,%s,%s\n", rounds, r->hpd, r->ref,
            r->ratio, r->lo, r->hi, r->level, r->first_route, r->second_route,
            r->settle[0] ? r->settle : "-", r->steady);
  fclose(csv);
}

/* A first call of a large order can take minutes (hours of a simulation's host), so
 * each one's figure goes to standard error as soon as it is known. */
static double progress(int rank, const bench_first_row *row, const char *which,
                       int reference, double seconds)
{
  if (rank == 0) {
    char head[ROW_HEAD];
    fprintf(stderr, "%s: %s call (%s) %.4f s\n", row_head(head, row), which,
            reference ? "ref" : "hpd", seconds);
    fflush(stderr);
  }
  return seconds;
}

void bench_first_run(const bench_first_row *row, int reference, int rounds,
                     bench_first_call call, void *problem, const char *csv_path)
{
  result r;
  memset(&r, 0, sizeof r);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  bench_first_warm();
  r.first = progress(rank, row, "first", reference,
                     timed(call, problem, reference, r.first_route, NULL));
  r.second = progress(rank, row, "second", reference,
                      timed(call, problem, reference, r.second_route, NULL));
  r.other = progress(rank, row, "other side's first", !reference,
                     timed(call, problem, !reference, r.other_route, NULL));
  if (!reference && rounds > 0) {
    settle(call, problem, r.second_route, &r);
    steady(call, problem, rounds, &r);
  }
  hpd_set_disable(0);
  if (rank == 0)
    report(row, reference, rounds, &r, csv_path);
}
