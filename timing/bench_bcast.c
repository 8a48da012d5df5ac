/*
 * bench_bcast: hpdaemon's broadcasts (src/bcast) on the ranks it is started with.
 *
 *   --mode bandwidth   each algorithm, and a plain blocking MPI_Bcast, against message size
 *   --mode chunks      the pipeline against its chunk size at one message size, with the
 *                      models T_B and T_P of shared/DESIGN.md beside the measurements
 *   --mode wait        CPU seconds per broadcast under each wait policy, while the root
 *                      is busy computing before it sends (a waiting receiver's cost)
 *
 * Every figure is the median of several repetitions with its spread; a repetition's time
 * is the slowest rank's.  Columns and the way to run it: timing/README.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bcast/bcast.h"
#include "bench_sample.h"
#include "hpdaemon.h"

#define MAX_ITEMS 32

typedef struct options {
  const char *mode;
  uint64_t sizes[MAX_ITEMS];
  int n_sizes;
  uint64_t chunks[MAX_ITEMS];
  int n_chunks;
  double delays_ms[MAX_ITEMS];
  int n_delays;
  int reps;
  const char *csv;
} options;

static int rank, ranks;
static FILE *csv;

/* ---- small helpers ------------------------------------------------------------------ */

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The benchmark's own synchronisation must not compete for cores: with more ranks than
 * cores, a rank spinning in a barrier takes the core from the ranks still broadcasting,
 * and a ping-pong between two ranks would share the cores with the others.  So it
 * sleeps once a short spin (which keeps ranks that have their own cores in step) has
 * not been enough. */
static void quiet_wait(MPI_Request *request)
{
#ifdef HPD_SIMULATED
  /* Simulated ranks have a core each, and every poll costs the simulator
   * (simulated/requests.c). */
  MPI_Wait(request, MPI_STATUS_IGNORE);
#else
  int done = 0;
  double start = now();
  struct timespec nap = {0, 20000};
  for (MPI_Test(request, &done, MPI_STATUS_IGNORE); !done;
       MPI_Test(request, &done, MPI_STATUS_IGNORE))
    if (now() - start > 200e-6)
      nanosleep(&nap, NULL);
#endif
}

static void barrier(void)
{
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  quiet_wait(&request);
}

static void allreduce(double *in, double *out, int n, MPI_Op op)
{
  MPI_Request request;
  MPI_Iallreduce(in, out, n, MPI_DOUBLE, op, MPI_COMM_WORLD, &request);
  quiet_wait(&request);
}

static double slowest(double mine)
{
  double all;
  allreduce(&mine, &all, 1, MPI_MAX);
  return all;
}

static const char *size_text(uint64_t bytes, char *text)
{
  if (bytes >= 1048576 && bytes % 1048576 == 0)
    sprintf(text, "%lluM", (unsigned long long)(bytes >> 20));
  else if (bytes >= 1024 && bytes % 1024 == 0)
    sprintf(text, "%lluK", (unsigned long long)(bytes >> 10));
  else
    sprintf(text, "%llu", (unsigned long long)bytes);
  return text;
}

static void csv_row(const char *mode, const char *algorithm, const char *wait, uint64_t bytes,
                    uint64_t chunk, double delay_ms, int reps, bench_spread t, double cpu_s,
                    double wall_s, double model_s)
{
  if (!csv)
    return;
  fprintf(csv, "%s,%d,%s,%s,%llu,%llu,%g,%d,%.9g,%.9g,%.9g,%.6g,%.9g,%.9g,%.9g\n", mode, ranks,
          algorithm, wait, (unsigned long long)bytes, (unsigned long long)chunk, delay_ms, reps,
          t.median, t.min, t.max, t.median > 0 ? bytes / t.median * 1e-9 : 0.0, cpu_s, wall_s,
          model_s);
  fflush(csv);
}

/* ---- one broadcast, as the engine makes it ---------------------------------------- */

/* "mpi_bcast" is the MPI library's blocking broadcast, outside hpdaemon altogether. */
static void broadcast(unsigned char *buf, uint64_t bytes, int algorithm)
{
  if (algorithm < 0) {
    MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    return;
  }
  hpd_bcast h;
  hpd_bcast_started(hpd_bcast_start_bytes(buf, bytes, 0, MPI_COMM_WORLD, NULL, &h));
  hpd_bcast_wait(&h, 1);
}

/* Seconds per broadcast of a batch (32 MiB, at most 1024 broadcasts: a few
 * milliseconds), from a common start, as the slowest rank saw it. */
static double timed_batch(unsigned char *buf, uint64_t bytes, int algorithm)
{
  int batch = bytes >= (32u << 20) ? 1 : (int)((32u << 20) / bytes);
  if (batch > 1024)
    batch = 1024;
  barrier();
  double start = now();
  for (int i = 0; i < batch; i++)
    broadcast(buf, bytes, algorithm);
  return slowest((now() - start) / batch);
}

static unsigned char *buffer(uint64_t bytes)
{
  unsigned char *buf = malloc(bytes ? bytes : 1);
  if (!buf) {
    fprintf(stderr, "bench_bcast: out of memory for %llu bytes\n", (unsigned long long)bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(buf, rank == 0 ? 1 : 0, bytes);
  return buf;
}

/* ---- bandwidth ---------------------------------------------------------------------- */

static void bandwidth(const options *o)
{
  static const int algorithms[] = {HPD_BCAST_PIPELINE, HPD_BCAST_BINOMIAL, HPD_BCAST_MPI, -1};
  enum { N_ALGORITHMS = sizeof algorithms / sizeof *algorithms };
  if (rank == 0)
    printf("\nbandwidth, %d ranks, root 0, wait %s: GB/s (median; min..max over %d reps), "
           "chunk = the pipeline's tuned chunk\n%8s %8s %-19s %-19s %-19s %-19s\n",
           ranks, hpd_wait_policy_name(hpd_get_wait()), o->reps, "bytes", "chunk", "pipeline",
           "binomial", "mpi (Ibcast)", "MPI_Bcast");
  for (int s = 0; s < o->n_sizes; s++) {
    uint64_t bytes = o->sizes[s];
    unsigned char *buf = buffer(bytes);
    double t[N_ALGORITHMS][MAX_ITEMS * 4];
    uint64_t chunk = 0;
    for (int a = 0; a < N_ALGORITHMS; a++) {
      if (algorithms[a] >= 0)
        hpd_set_bcast(algorithms[a]);
      broadcast(buf, bytes, algorithms[a]); /* untimed: tuning, first touch */
      if (algorithms[a] == HPD_BCAST_PIPELINE) {
        hpd_bcast_counters c;
        hpd_bcast_counters_get(&c);
        chunk = c.chunk_last;
      }
    }
    /* Repetitions interleave the algorithms, so that drift lands on all of them. */
    for (int r = 0; r < o->reps; r++)
      for (int i = 0; i < N_ALGORITHMS; i++) {
        int a = r % 2 ? N_ALGORITHMS - 1 - i : i;
        if (algorithms[a] >= 0)
          hpd_set_bcast(algorithms[a]);
        t[a][r] = timed_batch(buf, bytes, algorithms[a]);
      }
    char b[32], c[32];
    if (rank == 0)
      printf("%8s %8s", size_text(bytes, b), size_text(chunk, c));
    for (int a = 0; a < N_ALGORITHMS; a++) {
      bench_spread sp = bench_spread_of(t[a], o->reps);
      const char *name = algorithms[a] >= 0 ? hpd_bcast_algorithm_name(algorithms[a])
                                            : "mpi_bcast";
      if (rank == 0) {
        char cell[64];
        snprintf(cell, sizeof cell, "%.2f (%.2f..%.2f)", bytes / sp.median * 1e-9,
                 bytes / sp.max * 1e-9, bytes / sp.min * 1e-9);
        printf(" %-19s", cell);
        csv_row("bandwidth", name, hpd_wait_policy_name(hpd_get_wait()), bytes,
                algorithms[a] == HPD_BCAST_PIPELINE ? chunk : 0, 0, o->reps, sp, 0, 0, 0);
      }
    }
    if (rank == 0) {
      printf("\n");
      fflush(stdout);
    }
    free(buf);
  }
  hpd_set_bcast(HPD_BCAST_PIPELINE);
}

/* ---- chunk sweep and the models ----------------------------------------------------- */

/* Half the round trip of bytes between ranks 0 and 1: one hop's time. */
static double hop_time(unsigned char *buf, uint64_t bytes, int reps)
{
  double t[64];
  if (reps > 64)
    reps = 64;
  for (int r = 0; r < reps; r++) {
    barrier();
    double start = now();
    if (rank == 0) {
      MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
    t[r] = (now() - start) / 2;
  }
  double median = bench_median(t, reps);
  MPI_Request request;
  MPI_Ibcast(&median, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &request);
  quiet_wait(&request);
  return median;
}

static void chunks(const options *o)
{
  uint64_t bytes = o->sizes[0];
  unsigned char *buf = buffer(bytes);
  /* The models' two constants, measured here: Ts from a tiny message, BW from a hop of
   * the whole message. */
  double ts = hop_time(buf, 8, 50);
  double bw = bytes / fmax(hop_time(buf, bytes, 9) - ts, 1e-9);
  int p = ranks, log2p = 0;
  while ((1 << log2p) < p)
    log2p++;
  double t_b = (ts + bytes / bw) * log2p;
  /* T_P's minimum over n: dT_P/dn = Ts - (P-1) S / (n^2 BW) = 0. */
  double n_best = sqrt((p - 1) * (double)bytes / (bw * ts));
  char b[32], c[32];
  if (rank == 0) {
    printf("\nchunk sweep, %d ranks, %s message, wait %s; models with Ts = %.2f us and "
           "BW = %.2f GB/s measured between ranks 0 and 1 (%d reps each)\n",
           ranks, size_text(bytes, b), hpd_wait_policy_name(hpd_get_wait()), ts * 1e6,
           bw * 1e-9, o->reps);
    printf("  T_B = (Ts + S/BW) * log2 P = %.3f ms;  T_P = (Ts + S/(n BW)) * (n + P - 1), "
           "lowest at n = %.1f (chunk %.0f KiB)\n",
           t_b * 1e3, n_best, n_best >= 1 ? bytes / n_best / 1024 : bytes / 1024.0);
    printf("%10s %8s %-27s %10s %10s %9s\n", "chunk", "n", "measured ms (min..max)",
           "T_P ms", "T_B ms", "GB/s");
  }
  hpd_set_bcast(HPD_BCAST_PIPELINE);
  for (int k = 0; k <= o->n_chunks; k++) {
    /* The chunks given, then the binomial tree for T_B. */
    int binomial = k == o->n_chunks;
    uint64_t chunk = binomial ? bytes : o->chunks[k] < bytes ? o->chunks[k] : bytes;
    hpd_set_bcast(binomial ? HPD_BCAST_BINOMIAL : HPD_BCAST_PIPELINE);
    hpd_set_chunk(chunk);
    double t[MAX_ITEMS * 4];
    broadcast(buf, bytes, binomial ? HPD_BCAST_BINOMIAL : HPD_BCAST_PIPELINE);
    for (int r = 0; r < o->reps; r++)
      t[r] = timed_batch(buf, bytes, HPD_BCAST_PIPELINE);
    bench_spread sp = bench_spread_of(t, o->reps);
    double n = ceil((double)bytes / chunk);
    double t_p = (ts + bytes / (n * bw)) * (n + p - 1);
    if (rank == 0) {
      char cell[64];
      snprintf(cell, sizeof cell, "%.3f (%.3f..%.3f)", sp.median * 1e3, sp.min * 1e3,
               sp.max * 1e3);
      if (binomial)
        printf("%10s %8s %-27s %10s %10.3f %9.2f\n", "binomial", "-", cell, "-", t_b * 1e3,
               bytes / sp.median * 1e-9);
      else
        printf("%10s %8.0f %-27s %10.3f %10s %9.2f\n", size_text(chunk, c), n, cell,
               t_p * 1e3, "", bytes / sp.median * 1e-9);
      csv_row("chunks", binomial ? "binomial" : "pipeline", hpd_wait_policy_name(hpd_get_wait()),
              bytes, chunk, 0, o->reps, sp, 0, 0, binomial ? t_b : t_p);
      fflush(stdout);
    }
  }
  hpd_set_chunk(0);
  hpd_set_bcast(HPD_BCAST_PIPELINE);
  free(buf);
}

/* ---- wait policies ------------------------------------------------------------------ */

/* Work the root does before it sends: CPU time, so that ranks spinning on its core
 * delay it, as they would delay a multiply. */
static void compute(double seconds)
{
  double end = cpu_now() + seconds;
  volatile double x = 1.0;
  while (cpu_now() < end)
    for (int i = 0; i < 1000; i++)
      x = x * 1.0000001 + 1e-9;
}

typedef struct wait_result {
  double cpu[MAX_ITEMS * 4], wall[MAX_ITEMS * 4], round[MAX_ITEMS * 4];
} wait_result;

/* One round: the root computes, then broadcasts; the others start at once and wait.
 * Returns the round's time; adds the receivers' mean broadcast CPU and wall seconds. */
static void wait_round(unsigned char *buf, uint64_t bytes, double delay, wait_result *w, int r)
{
  barrier();
  double start = now();
  if (rank == 0)
    compute(delay);
  hpd_bcast_counters before, after;
  hpd_bcast_counters_get(&before);
  broadcast(buf, bytes, HPD_BCAST_PIPELINE);
  hpd_bcast_counters_get(&after);
  double mine[2] = {0, 0}, sum[2];
  if (rank != 0) {
    mine[0] = after.cpu_s - before.cpu_s;
    mine[1] = after.wall_s - before.wall_s;
  }
  double round = slowest(now() - start);
  allreduce(mine, sum, 2, MPI_SUM);
  int receivers = ranks > 1 ? ranks - 1 : 1;
  w->cpu[r] = sum[0] / receivers;
  w->wall[r] = sum[1] / receivers;
  w->round[r] = round;
}

static void wait_policies(const options *o)
{
  hpd_set_bcast(HPD_BCAST_PIPELINE);
  hpd_wait_policy configured = hpd_get_wait();
  for (int s = 0; s < o->n_sizes; s++) {
    uint64_t bytes = o->sizes[s];
    unsigned char *buf = buffer(bytes);
    for (int d = 0; d < o->n_delays; d++) {
      double delay = o->delays_ms[d] * 1e-3;
      static wait_result w[HPD_WAIT_POLICIES];
      /* Untimed: the first broadcast tunes the chunk, under the policy the environment
       * chose, as a run of the library would. */
      hpd_set_wait(configured);
      broadcast(buf, bytes, HPD_BCAST_PIPELINE);
      for (int p = 0; p < HPD_WAIT_POLICIES; p++) {
        hpd_set_wait(p);
        broadcast(buf, bytes, HPD_BCAST_PIPELINE);
      }
      hpd_bcast_counters counters;
      hpd_bcast_counters_get(&counters);
      for (int r = 0; r < o->reps; r++)
        for (int i = 0; i < HPD_WAIT_POLICIES; i++) {
          int p = (i + r) % HPD_WAIT_POLICIES; /* rotate which policy goes first */
          hpd_set_wait(p);
          wait_round(buf, bytes, delay, &w[p], r);
        }
      char b[32], c[32];
      if (rank == 0)
        printf("\nwait policies, %d ranks, %s message in %s chunks, root computes %.1f ms "
               "first: per broadcast, mean over receivers (median; min..max over %d reps)\n"
               "%-6s %-28s %-28s %8s %-24s %9s\n",
               ranks, size_text(bytes, b), size_text(counters.chunk_last, c),
               o->delays_ms[d], o->reps, "wait",
               "CPU ms in bcast", "wall ms in bcast", "CPU/wall", "round ms", "spin/CPU");
      double spin_cpu = 0;
      for (int p = 0; p < HPD_WAIT_POLICIES; p++) {
        bench_spread cpu = bench_spread_of(w[p].cpu, o->reps);
        bench_spread wall = bench_spread_of(w[p].wall, o->reps);
        bench_spread round = bench_spread_of(w[p].round, o->reps);
        if (p == HPD_WAIT_SPIN)
          spin_cpu = cpu.median;
        if (rank != 0)
          continue;
        char c1[64], c2[64], c3[64];
        snprintf(c1, sizeof c1, "%.3f (%.3f..%.3f)", cpu.median * 1e3, cpu.min * 1e3,
                 cpu.max * 1e3);
        snprintf(c2, sizeof c2, "%.3f (%.3f..%.3f)", wall.median * 1e3, wall.min * 1e3,
                 wall.max * 1e3);
        snprintf(c3, sizeof c3, "%.2f (%.2f..%.2f)", round.median * 1e3, round.min * 1e3,
                 round.max * 1e3);
        printf("%-6s %-28s %-28s %8.2f %-24s %9.1f\n", hpd_wait_policy_name(p), c1, c2,
               wall.median > 0 ? cpu.median / wall.median : 0.0, c3,
               cpu.median > 0 ? spin_cpu / cpu.median : 0.0);
        csv_row("wait", "pipeline", hpd_wait_policy_name(p), bytes, 0, o->delays_ms[d],
                o->reps, round, cpu.median, wall.median, 0);
      }
      if (rank == 0)
        fflush(stdout);
    }
    free(buf);
  }
}

/* ---- options ------------------------------------------------------------------------ */

static int parse_bytes_list(const char *text, uint64_t *out, int *count)
{
  *count = 0;
  for (const char *s = text; *s;) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v > 0) || *count == MAX_ITEMS)
      return -1;
    if (*end == 'K' || *end == 'k')
      v *= 1024, end++;
    else if (*end == 'M' || *end == 'm')
      v *= 1048576, end++;
    if (*end && *end != ',')
      return -1;
    out[(*count)++] = (uint64_t)v;
    s = *end ? end + 1 : end;
  }
  return *count > 0 ? 0 : -1;
}

static int parse_double_list(const char *text, double *out, int *count)
{
  *count = 0;
  for (const char *s = text; *s;) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v >= 0) || *count == MAX_ITEMS || (*end && *end != ','))
      return -1;
    out[(*count)++] = v;
    s = *end ? end + 1 : end;
  }
  return *count > 0 ? 0 : -1;
}

static void usage(void)
{
  fprintf(stderr,
          "usage: bench_bcast --mode bandwidth|chunks|wait [-s BYTES[,...]] [-c CHUNK[,...]]\n"
          "                   [-d DELAY_MS[,...]] [-r REPS] [--csv PATH]\n"
          "  sizes take K and M suffixes (KiB, MiB); chunks: the chunk sweep's chunk sizes;\n"
          "  -d: what the root computes before each broadcast in --mode wait.\n"
          "  HPD_WAIT sets the wait policy of bandwidth and chunks.\n");
}

static int parse_options(int argc, char **argv, options *o)
{
  memset(o, 0, sizeof *o);
  o->mode = "bandwidth";
  o->reps = 5;
  parse_bytes_list("8K,32K,128K,512K,2M,8M,32M,64M", o->sizes, &o->n_sizes);
  parse_bytes_list("8K,16K,32K,64K,128K,256K,512K,1M,2M,4M,16M", o->chunks, &o->n_chunks);
  parse_double_list("20", o->delays_ms, &o->n_delays);
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int bad = !v;
    if (strcmp(argv[i], "--mode") == 0 && v)
      o->mode = v;
    else if (strcmp(argv[i], "-s") == 0 && v)
      bad = parse_bytes_list(v, o->sizes, &o->n_sizes);
    else if (strcmp(argv[i], "-c") == 0 && v)
      bad = parse_bytes_list(v, o->chunks, &o->n_chunks);
    else if (strcmp(argv[i], "-d") == 0 && v)
      bad = parse_double_list(v, o->delays_ms, &o->n_delays);
    else if (strcmp(argv[i], "-r") == 0 && v)
      bad = (o->reps = atoi(v)) < 1 || o->reps > MAX_ITEMS * 4;
    else if (strcmp(argv[i], "--csv") == 0 && v)
      o->csv = v;
    else
      bad = 1;
    if (bad)
      return -1;
    i++;
  }
  return strcmp(o->mode, "bandwidth") && strcmp(o->mode, "chunks") && strcmp(o->mode, "wait");
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  options o;
  if (parse_options(argc, argv, &o) != 0 || (strcmp(o.mode, "chunks") == 0 && ranks < 2)) {
    if (rank == 0)
      usage();
    MPI_Finalize();
    return 2;
  }
  if (rank == 0 && o.csv) {
    csv = fopen(o.csv, "a");
    if (csv && ftell(csv) == 0)
      fprintf(csv, "mode,ranks,algorithm,wait,bytes,chunk,delay_ms,reps,median_s,min_s,max_s,"
                   "gbps,cpu_s,wall_s,model_s\n");
  }
  if (strcmp(o.mode, "bandwidth") == 0)
    bandwidth(&o);
  else if (strcmp(o.mode, "chunks") == 0)
    chunks(&o);
  else
    wait_policies(&o);
  if (csv)
    fclose(csv);
  MPI_Finalize();
  return 0;
}
