/*
 * The broadcasts (src/bcast): every algorithm and wait policy delivers the root's exact
 * bytes -- empty, one byte, odd sizes, sizes the chunk does not divide, any root, many
 * broadcasts in flight on one communicator and on two, more than a communicator posts at
 * once, which wait their turn -- on the world, on halves of it
 * and on MPI_COMM_SELF; a tuned chunk is the same on every rank, and a long message is
 * tuned in one round of trials; a batch's broadcasts behind its first take the floor
 * chunk, or HPD_CHUNK where it is set; a whole message down a binomial tree across nodes
 * reaches the root's children one after another; HPD_TUNE_FILE is read
 * from rank 0 only, saved, and ignored with a warning when missing or corrupt.
 *
 *   test_bcast [--wait spin,yield,sleep] [--quick] [--no-tuning]
 *
 * Ranks beyond the cores are fine with yield or sleep; with spin, every hop may wait for
 * a time slice, so oversubscribed runs give spin --quick.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bcast/bcast.h"
#include "bcast/channel.h"
#include "bcast/inflight.h"
#include "bcast/tune.h"
#include "bcast/tune_table.h"
#include "capture.h"
#include "hpdaemon.h"
#include "mapped.h"
#include "world_nodes.h"

static int passed, failed, rank;
/* A poller's pause between looks (a variable: the simulator's nanosleep is a macro). */
static const struct timespec short_pause = {0, 10000};

#define CHECK(cond)                                                                         \
  do {                                                                                      \
    if (cond) {                                                                             \
      passed++;                                                                             \
    } else {                                                                                \
      failed++;                                                                             \
      fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", rank, __FILE__, __LINE__,      \
              #cond);                                                                       \
    }                                                                                       \
  } while (0)

#define GUARD 16

/* ---- one message: the root's bytes, a receiver's garbage, a guard behind both ---- */

typedef struct message {
  unsigned char *buf;
  size_t bytes;
  int root, id;
} message;

static unsigned char expected(int id, size_t i)
{
  uint64_t x = (uint64_t)id * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull;
  return (unsigned char)(x >> 56 ^ x >> 29 ^ i);
}

/* Receivers start from the complement of what must arrive, so no byte is right by luck. */
static void prepare(message *m, MPI_Comm comm, size_t bytes, int root, int id)
{
  int me;
  MPI_Comm_rank(comm, &me);
  m->buf = malloc(bytes + GUARD);
  m->bytes = bytes, m->root = root, m->id = id;
  for (size_t i = 0; i < bytes; i++)
    m->buf[i] = me == root ? expected(id, i) : (unsigned char)~expected(id, i);
  memset(m->buf + bytes, 0x5A, GUARD);
}

/* 1 when every byte is the root's and the guard is intact; frees the buffer. */
static int delivered(message *m)
{
  size_t bad = 0;
  for (size_t i = 0; i < m->bytes; i++)
    bad += m->buf[i] != expected(m->id, i);
  for (size_t i = 0; i < GUARD; i++)
    bad += m->buf[m->bytes + i] != 0x5A;
  if (bad)
    fprintf(stderr, "rank %d: message %d (%zu bytes, root %d): %zu bytes wrong\n", rank,
            m->id, m->bytes, m->root, bad);
  free(m->buf);
  return bad == 0;
}

static int next_id;

/* One broadcast, started as how says and waited for alone. */
static void one_how(MPI_Comm comm, size_t bytes, int root, const hpd_bcast_how *how)
{
  message m;
  hpd_bcast h;
  prepare(&m, comm, bytes, root, next_id++);
  CHECK(hpd_bcast_start_bytes(m.buf, bytes, root, comm, how, &h) == HPD_OK);
  hpd_bcast_wait(&h, 1);
  CHECK(delivered(&m));
}

static void one(MPI_Comm comm, size_t bytes, int root)
{
  one_how(comm, bytes, root, NULL);
}

/* ---- the cases --------------------------------------------------------------------- */

static const size_t sizes[] = {0, 1, 7, 8, 1000, 4097, 8192, 8193, 65537, 300001};
static const size_t quick_sizes[] = {0, 1, 1000, 8193};
/* 0: tuned.  The others do not divide most sizes; 3 makes hundreds of chunks. */
static const uint64_t chunks[] = {0, 3, 1000, 8192};

static void each_size(MPI_Comm comm, int quick)
{
  int size;
  MPI_Comm_size(comm, &size);
  const size_t *list = quick ? quick_sizes : sizes;
  size_t count = quick ? sizeof quick_sizes / sizeof *list : sizeof sizes / sizeof *list;
  for (size_t i = 0; i < count; i++)
    one(comm, list[i], (int)(i * 3 + 1) % size);
}

/* Many broadcasts in flight on comm (and some on other, which may be NULL), different
 * sizes and roots, the empty one among them; completed by one wait, or by polling. */
static void in_flight(MPI_Comm comm, MPI_Comm other, int poll)
{
  enum { MAX = 12 };
  static const size_t group[] = {30000, 0, 1, 70001, 8193, 5};
  int size, other_size = 0;
  MPI_Comm_size(comm, &size);
  if (other != MPI_COMM_NULL)
    MPI_Comm_size(other, &other_size);
  message m[MAX];
  hpd_bcast h[MAX];
  int n = 0;
  for (size_t i = 0; i < sizeof group / sizeof *group; i++) {
    prepare(&m[n], comm, group[i], (int)(i + 1) % size, next_id++);
    CHECK(hpd_bcast_start_bytes(m[n].buf, group[i], m[n].root, comm, NULL, &h[n]) == HPD_OK);
    n++;
    if (other_size && i % 2 == 0) {
      prepare(&m[n], other, group[i] + 11, (int)i % other_size, next_id++);
      CHECK(hpd_bcast_start_bytes(m[n].buf, group[i] + 11, m[n].root, other, NULL, &h[n]) ==
            HPD_OK);
      n++;
    }
  }
  if (poll) {
    long rounds = 0;
    while (!hpd_bcast_test(h, n))
      if (++rounds % 64 == 0) /* a poller that does other work between looks */
        nanosleep(&short_pause, NULL);
  } else {
    hpd_bcast_wait(h, n);
  }
  for (int i = 0; i < n; i++)
    CHECK(delivered(&m[i]));
}

/* More broadcasts than the simulated build posts at once on a communicator
 * (hpd_inflight_posted_max: HPD_BCAST_POSTED_PER_RANK per rank of it), on the
 * point-to-point algorithms: the other ranks start them all before their root starts
 * any, so that none can complete; as many as may be are posted (natively: all of them),
 * the others wait in flight, and all of them arrive whole once the root has started, by
 * one wait or by polling.  The chunk is set: an untuned size would make every rank time
 * trials together at the start. */
static void queued(MPI_Comm comm, int poll)
{
  int size, me, world;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  int counted = hpd_get_bcast() != HPD_BCAST_MPI && size > 1;
  /* As many on every rank, whatever comm it is in, so that the messages' numbers stay
   * the same on every rank. */
  int n = HPD_BCAST_POSTED_PER_RANK * world + 5;
  message *m = malloc((size_t)n * sizeof *m);
  hpd_bcast *h = malloc((size_t)n * sizeof *h);
  hpd_set_chunk(65536);
  if (me == 0)
    MPI_Barrier(comm);
  for (int i = 0; i < n; i++) {
    size_t bytes = ((size_t)128 << 10) + 17 * (size_t)i;
    prepare(&m[i], comm, bytes, 0, next_id++);
    CHECK(hpd_bcast_start_bytes(m[i].buf, bytes, 0, comm, NULL, &h[i]) == HPD_OK);
  }
  const hpd_bcast_channel *ch = hpd_channel_find(comm);
  if (counted) {
    int cap = ch ? hpd_inflight_posted_max(ch) : 0;
    CHECK(ch && (me == 0 ? ch->posted <= cap
                         : ch->posted == (n < cap ? n : cap) && ch->in_flight == (uint64_t)n));
  }
  if (me != 0) {
    CHECK(hpd_bcast_in_flight()); /* nothing can arrive before the root starts */
    MPI_Barrier(comm);
  }
  if (poll) {
    while (!hpd_bcast_test(h, n))
      nanosleep(&short_pause, NULL);
  } else {
    hpd_bcast_wait(h, n);
  }
  CHECK(!ch || (ch->posted == 0 && ch->in_flight == 0));
  CHECK(!hpd_bcast_in_flight());
  for (int i = 0; i < n; i++)
    CHECK(delivered(&m[i]));
  hpd_set_chunk(0);
  free(m);
  free(h);
}

/* The doubles interface, which the panel loop uses. */
static void doubles(MPI_Comm comm)
{
  int me, size;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &size);
  enum { COUNT = 5003 };
  double *x = malloc(COUNT * sizeof *x);
  int root = size - 1;
  for (int i = 0; i < COUNT; i++)
    x[i] = me == root ? 0.5 * i - 7.25 : -1.0;
  hpd_bcast h[2];
  CHECK(hpd_bcast_start(x, COUNT, root, comm, NULL, &h[0]) == HPD_OK);
  CHECK(hpd_bcast_start(x, 0, 0, comm, NULL, &h[1]) == HPD_OK);
  hpd_bcast_wait(h, 2);
  int bad = 0;
  for (int i = 0; i < COUNT; i++)
    bad += x[i] != 0.5 * i - 7.25;
  CHECK(bad == 0);
  CHECK(hpd_bcast_start(x, HPD_BCAST_MAX_COUNT + 1, 0, comm, NULL, &h[0]) == HPD_STATUS_INVALID);
  CHECK(hpd_bcast_start(x, 1, size, comm, NULL, &h[0]) == HPD_STATUS_INVALID);
  hpd_bcast_wait(h, 1); /* a refused start leaves a handle that wait accepts */
  free(x);
}

/* Segments with a stride of each rank's own (the root's from a matrix's columns, the
 * others packed or not): every segment arrives, and nothing between segments is
 * written. */
static void strided_once(MPI_Comm comm, size_t count, size_t segs)
{
  int me, size;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &size);
  int root = (int)((count + segs) % (size_t)size);
  size_t ld = count + (me == root ? 7 : (size_t)(me % 2) * 3);
  size_t len = segs ? ld * segs : 1;
  double *x = malloc(len * sizeof *x);
  for (size_t i = 0; i < len; i++)
    x[i] = -2.0;
  for (size_t t = 0; t < segs && me == root; t++)
    for (size_t i = 0; i < count; i++)
      x[t * ld + i] = 0.25 * (double)(t * 1000 + i) + 1.0;
  hpd_bcast h;
  CHECK(hpd_bcast_start_strided(x, count, segs, ld, root, comm, NULL, &h) == HPD_OK);
  hpd_bcast_wait(&h, 1);
  int bad = 0;
  for (size_t t = 0; t < segs; t++)
    for (size_t i = 0; i < ld; i++)
      bad += x[t * ld + i] != (i < count ? 0.25 * (double)(t * 1000 + i) + 1.0 : -2.0);
  CHECK(bad == 0);
  free(x);
}

static void strided(MPI_Comm comm)
{
  static const size_t shapes[][2] = {{1, 1}, {7, 3}, {1000, 5}, {1025, 2}, {5003, 1},
                                     {0, 4}, {4, 0}, {3000, 9}};
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
    strided_once(comm, shapes[i][0], shapes[i][1]);
  double x[4] = {0};
  hpd_bcast h;
  CHECK(hpd_bcast_start_strided(x, 3, 2, 2, 0, comm, NULL, &h) == HPD_STATUS_INVALID); /* ld below the count */
  hpd_bcast_wait(&h, 1);
}

/* Everything on one communicator with the algorithm and policy in force. */
static void suite(MPI_Comm comm, MPI_Comm other, int quick)
{
  int pipeline = hpd_get_bcast() == HPD_BCAST_PIPELINE;
  size_t n_chunks = pipeline ? (quick ? 2 : sizeof chunks / sizeof *chunks) : 1;
  for (size_t c = 0; c < n_chunks; c++) {
    hpd_set_chunk(quick && c == 1 ? 1000 : chunks[c]);
    each_size(comm, quick);
    strided(comm);
    in_flight(comm, other, 0);
    if (!quick)
      in_flight(comm, other, 1);
  }
  queued(comm, 0);
  queued(comm, 1);
  hpd_set_chunk(0);
  doubles(comm);
}

static void algorithms_and_policies(const int *policies, int n_policies, int quick)
{
  int world;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  /* Halves of the world: sizes 1 to 3 from 1 to 5 ranks, running side by side. */
  MPI_Comm half, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  for (int p = 0; p < n_policies; p++) {
    hpd_set_wait(policies[p]);
    for (int a = 0; a < HPD_BCAST_ALGORITHMS; a++) {
      hpd_set_bcast(a);
      int before = failed;
      suite(MPI_COMM_WORLD, dup, quick);
      suite(half, MPI_COMM_NULL, quick);
      suite(MPI_COMM_SELF, MPI_COMM_NULL, 1);
      if (rank == 0)
        printf("%-8s %-5s on %d ranks (halves, self too): %s\n", hpd_bcast_algorithm_name(a),
               hpd_wait_policy_name(policies[p]), world, failed == before ? "ok" : "FAILED");
    }
  }
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
  hpd_set_bcast(HPD_BCAST_PIPELINE);
}

/* ---- tuning -------------------------------------------------------------------------- */

/* The chunk the pipeline used for its latest broadcast, on every rank alike.  Collective:
 * the checks join it to others with `&`, not `&&`, so that a rank whose other check
 * failed still takes part, and the test fails instead of hanging. */
static int same_on_all_ranks(uint64_t chunk, MPI_Comm comm)
{
  uint64_t lo, hi;
  MPI_Allreduce(&chunk, &lo, 1, MPI_UINT64_T, MPI_MIN, comm);
  MPI_Allreduce(&chunk, &hi, 1, MPI_UINT64_T, MPI_MAX, comm);
  return lo == hi;
}

static uint64_t last_chunk(void)
{
  hpd_bcast_counters c;
  hpd_bcast_counters_get(&c);
  return c.chunk_last;
}

/* A fresh communicator (*comm, freed by the caller) on which the pipeline tunes its chunk,
 * nothing being known yet; its size. */
static int untuned_comm(MPI_Comm *comm)
{
  hpd_set_bcast(HPD_BCAST_PIPELINE);
  hpd_set_chunk(0);
  hpd_tune_table_forget();
  MPI_Comm_dup(MPI_COMM_WORLD, comm);
  int size;
  MPI_Comm_size(*comm, &size);
  return size;
}

/* Tuned sizes from several classes, on a fresh communicator: one choice everywhere, and
 * the broadcast that carried the tuning still delivered its message.  Ranks may wait
 * differently (mixed: rank 0 sleeps, the others yield) and still time the same
 * candidates. */
static void tuned_choice_agrees(int mixed)
{
  hpd_wait_policy configured = hpd_get_wait();
  if (mixed)
    hpd_set_wait(rank == 0 ? HPD_WAIT_SLEEP : HPD_WAIT_YIELD);
  static const size_t tuned[] = {20000, 100000, 700001, 3000000};
  MPI_Comm comm;
  int size = untuned_comm(&comm);
  for (size_t i = 0; i < sizeof tuned / sizeof *tuned && size > 1; i++) {
    one(comm, tuned[i], (int)i % size);
    uint64_t chunk = last_chunk();
    CHECK(chunk >= 1 && chunk <= tuned[i]);
    CHECK(same_on_all_ranks(chunk, comm));
    /* The same class: the choice is kept ("whole message" stays whole). */
    one(comm, tuned[i] + 1, 0);
    CHECK(last_chunk() == (chunk == tuned[i] ? tuned[i] + 1 : chunk));
    if (rank == 0)
      printf("tuned chunk for %zu bytes on %d ranks%s: %llu\n", tuned[i], size,
             mixed ? ", wait policies mixed" : "", (unsigned long long)chunk);
  }
  MPI_Comm_free(&comm);
  hpd_set_wait(configured);
}

/* A batch (bcast.h): its first broadcast on a communicator takes the tuned chunk, the
 * ones behind it at least HPD_BATCH_CHUNK (at most the message), alike on every rank and
 * delivered; HPD_CHUNK, when set, still decides; after the batch the tuned chunk again. */
static void batch_chunks(void)
{
  enum { COUNT = 3 };
  const size_t bytes = (size_t)3 << 20, small = (size_t)100 << 10;
  MPI_Comm comm;
  int size = untuned_comm(&comm);
  if (size > 1) {
    for (int forced = 0; forced < 2; forced++) {
      hpd_set_chunk(forced ? 8192 : 0);
      message m[COUNT + 1];
      hpd_bcast h[COUNT + 1];
      uint64_t chunk[COUNT + 1];
      const hpd_bcast_how batch = hpd_bcast_batch(NULL, 0, 0);
      for (int i = 0; i <= COUNT; i++) {
        size_t len = i == COUNT ? small : bytes; /* the last one shorter than the floor */
        prepare(&m[i], comm, len, i % 2, next_id++);
        CHECK(hpd_bcast_start_bytes(m[i].buf, len, i % 2, comm, &batch, &h[i]) == HPD_OK);
        chunk[i] = last_chunk();
      }
      hpd_bcast_wait(h, COUNT + 1);
      for (int i = 0; i <= COUNT; i++)
        CHECK(same_on_all_ranks(chunk[i], comm) & delivered(&m[i]));
      uint64_t floor = forced ? 8192 : HPD_BATCH_CHUNK;
      uint64_t want = chunk[0] > floor ? chunk[0] : floor;
      for (int i = 1; i < COUNT; i++)
        CHECK(chunk[i] == (forced ? 8192 : want));
      CHECK(chunk[COUNT] == (forced ? 8192 : small));
      one(comm, bytes, 0);
      CHECK(last_chunk() == chunk[0]);
      if (rank == 0 && !forced)
        printf("batch of %d on %d ranks: tuned chunk %llu, behind it %llu\n", COUNT, size,
               (unsigned long long)chunk[0], (unsigned long long)chunk[1]);
    }
    hpd_set_chunk(0);
  }
  MPI_Comm_free(&comm);
}

/* Three broadcasts of about bytes from rotating roots in one batch: alike on every rank,
 * delivered, and each unpipelined (chunk 0: flat or a tree) exactly where unchunked says. */
static void batch_of_three(MPI_Comm comm, const hpd_bcast_how *batch, size_t bytes,
                           int unchunked)
{
  enum { COUNT = 3 };
  int size;
  MPI_Comm_size(comm, &size);
  message m[COUNT];
  hpd_bcast h[COUNT];
  uint64_t chunk[COUNT];
  for (int i = 0; i < COUNT; i++) {
    prepare(&m[i], comm, bytes + (size_t)i, i % size, next_id++);
    CHECK(hpd_bcast_start_bytes(m[i].buf, bytes + (size_t)i, i % size, comm, batch,
                                &h[i]) == HPD_OK);
    chunk[i] = last_chunk();
  }
  hpd_bcast_wait(h, COUNT);
  for (int i = 0; i < COUNT; i++)
    CHECK(same_on_all_ranks(chunk[i], comm) & delivered(&m[i]) &
          ((chunk[i] == 0) == unchunked));
}

/* A hidden batch (bcast.h): on 3 ranks or more, a message of a class whose measured
 * rate carries its root node's copies (one per other node, one on a single node) in under
 * HPD_FLAT_LINK_S goes flat (chunk 0: not pipelined), alike on every rank and delivered,
 * from any root; the same message outside a hidden batch, or with HPD_CHUNK set, goes
 * down the chain; on 2 ranks the chain serves all. */
static void hidden_batch_flat(void)
{
  const size_t bytes = (size_t)40 << 10;
  MPI_Comm comm;
  int size = untuned_comm(&comm);
  if (size > 1) {
    one(comm, bytes, 0); /* tunes the class: its rate is measured */
    double rate = hpd_bcast_link_rate(comm, bytes);
    int hosts = hpd_channel_get(comm)->hosts, copies = hosts > 1 ? hosts - 1 : 1;
    int flat = size >= 3 && rate > 0.0 && copies * (double)bytes / rate < HPD_FLAT_LINK_S;
    for (int hidden = 0; hidden < 2; hidden++)
      for (int forced = 0; forced < 2; forced++) {
        hpd_set_chunk(forced ? 8192 : 0);
        const hpd_bcast_how batch = hpd_bcast_batch(NULL, hidden, 0);
        batch_of_three(comm, &batch, bytes, hidden && !forced && flat);
        CHECK(hpd_bcast_hidden_shape(comm, bytes, 0) ==
              (!forced && flat ? HPD_HIDDEN_FLAT : HPD_HIDDEN_CHAIN));
      }
    hpd_set_chunk(0);
    if (rank == 0)
      printf("hidden batch on %d ranks: %zu bytes at %.3g B/s %s\n", size, bytes, rate,
             flat ? "went flat" : "stayed on the chain");
  }
  MPI_Comm_free(&comm);
}

/* A hidden batch whose messages do not go flat (tuning held, no rate: bcast.h) takes the
 * chain where its hops fit in the receivers' polls, and the binomial tree (chunk 0: not
 * pipelined) where they do not and the tree is shorter, alike on every rank and
 * delivered from any root; HPD_CHUNK keeps the chain. */
static void hidden_batch_tree(void)
{
  CHECK(hpd_bcast_hidden_hops(16, 4) == 4 && hpd_bcast_hidden_hops(16, 15) == 15 &&
        hpd_bcast_hidden_hops(16, 0) == 15 && hpd_bcast_hidden_hops(17, 4) == 5 &&
        hpd_bcast_hidden_hops(3, 1) == 2 && hpd_bcast_hidden_hops(2, 1) == 1 &&
        hpd_bcast_hidden_hops(1, 1) == 0);
  const size_t bytes = (size_t)24 << 10;
  MPI_Comm comm;
  int size = untuned_comm(&comm);
  const hpd_bcast_how held = {.hold_tuning = 1};
  for (int polls = 1; polls <= size - 1; polls += size > 2 ? size - 2 : 1)
    for (int forced = 0; forced < 2; forced++) {
      hpd_set_chunk(forced ? 8192 : 0);
      const hpd_bcast_how batch = hpd_bcast_batch(&held, 1, polls);
      int tree = !forced && hpd_bcast_hidden_hops(size, polls) < size - 1;
      batch_of_three(comm, &batch, bytes, tree);
      /* No rate known (held, no probe): never flat; a set chunk keeps the chain. */
      CHECK(hpd_bcast_hidden_shape(comm, bytes, polls) ==
            (tree ? HPD_HIDDEN_TREE : HPD_HIDDEN_CHAIN));
      if (rank == 0 && !forced)
        printf("hidden batch on %d ranks, %d poll(s): %s\n", size, polls,
               tree ? "binomial tree" : "chain");
    }
  hpd_set_chunk(0);
  MPI_Comm_free(&comm);
}

/* The first bytes of a pipeline's data as far as hpd_bcast_has says: the root's. */
static int prefix_right(const hpd_bcast *h, const message *m)
{
  size_t have = 0;
  while (have < m->bytes && hpd_bcast_has(h, have + 1))
    have++;
  size_t bad = 0;
  for (size_t i = 0; i < have; i++)
    bad += m->buf[i] != expected(m->id, i);
  return bad == 0;
}

/* A communicator of the world's ranks for broadcasts, and one beside it for the test's
 * own barriers; returns the size, me the rank. */
static int comm_and_side(MPI_Comm *comm, MPI_Comm *side, int *me)
{
  MPI_Comm_dup(MPI_COMM_WORLD, comm);
  MPI_Comm_dup(MPI_COMM_WORLD, side);
  int size;
  MPI_Comm_rank(*comm, me);
  MPI_Comm_size(*comm, &size);
  return size;
}

/* A pipeline's data can be read as its chunks arrive, in order (hpd_bcast_has,
 * hpd_bcast_wait_for): each receiver reads its first chunk while the root waits in a
 * barrier (it posted at least one before), then half the message once the root drives it
 * again, and every prefix said to have arrived holds the root's bytes. */
static void prefix_arrives(void)
{
  const size_t bytes = (size_t)1 << 20, chunk = 8192;
  MPI_Comm comm, side;
  int me, size = comm_and_side(&comm, &side, &me);
  if (size > 1) {
    hpd_set_bcast(HPD_BCAST_PIPELINE);
    hpd_set_chunk(chunk);
    message m;
    hpd_bcast h;
    prepare(&m, comm, bytes, 0, next_id++);
    CHECK(hpd_bcast_start_bytes(m.buf, bytes, 0, comm, NULL, &h) == HPD_OK);
    CHECK(hpd_bcast_has(&h, 0));
    if (me == 0) {
      CHECK(hpd_bcast_has(&h, bytes));
    } else {
      hpd_bcast_wait_for(&h, chunk);
      CHECK(hpd_bcast_has(&h, chunk) && prefix_right(&h, &m));
    }
    MPI_Barrier(side);
    if (me != 0) {
      hpd_bcast_wait_for(&h, bytes / 2 + 1);
      CHECK(hpd_bcast_has(&h, bytes / 2 + 1) && prefix_right(&h, &m));
    }
    hpd_bcast_wait(&h, 1);
    CHECK(hpd_bcast_has(&h, bytes));
    CHECK(delivered(&m));
    hpd_set_chunk(0);
  }
  MPI_Comm_free(&side);
  MPI_Comm_free(&comm);
}

/* A whole message down a binomial tree across nodes goes to the root's children one
 * after another: while the first (the largest subtree) has not taken it, the next one's
 * send is not posted, however often the root polls; on one node every child's send is
 * posted at once.  Then every rank has the root's bytes.  The receivers start only after
 * the root has polled, so the first send cannot complete before (a message far above any
 * eager limit); the channel is set up before, since that is collective. */
static void binomial_one_child_at_a_time(void)
{
  const size_t bytes = (size_t)4 << 20;
  MPI_Comm comm, side;
  int me, size = comm_and_side(&comm, &side, &me);
  if (size > 2) {
    hpd_set_bcast(HPD_BCAST_BINOMIAL);
    one(comm, 8, 0); /* sets the channel up, collectively */
    message m;
    hpd_bcast h;
    prepare(&m, comm, bytes, 0, next_id++);
    if (me == 0) {
      CHECK(hpd_bcast_start_bytes(m.buf, bytes, 0, comm, NULL, &h) == HPD_OK);
      for (int i = 0; i < 100; i++)
        (void)hpd_bcast_test(&h, 1);
      int across = hpd_channel_get(comm)->hosts >= 2;
      CHECK(h.nchildren >= 2 && h.next_child == (across ? 1 : 0) &&
            h.send_posted == (size_t)1);
    }
    MPI_Barrier(side);
    if (me != 0)
      CHECK(hpd_bcast_start_bytes(m.buf, bytes, 0, comm, NULL, &h) == HPD_OK);
    hpd_bcast_wait(&h, 1);
    CHECK(delivered(&m));
    hpd_set_bcast(HPD_BCAST_PIPELINE);
  }
  MPI_Comm_free(&side);
  MPI_Comm_free(&comm);
}

/* While tuning is held, a class not tuned yet times no candidates: it takes the middle
 * candidate where the channel has tuned nothing longer, else the chunk of the next longer
 * class it has tuned; the hold lifted, the class tunes at its next broadcast. */
static void held_tuning(void)
{
  MPI_Comm comm;
  if (untuned_comm(&comm) > 1) {
    hpd_bcast_channel *ch = hpd_channel_get(comm);
    const hpd_bcast_how held = {.hold_tuning = 1};
    uint64_t started = ch->started;
    one_how(comm, 200000, 0, &held); /* class 17 */
    CHECK(last_chunk() == HPD_TUNE_PROVISIONAL && ch->started == started + 1);
    one(comm, 3000000, 0); /* class 21, tuned */
    uint64_t longer = last_chunk();
    started = ch->started;
    one_how(comm, 1500000, 0, &held); /* class 20 */
    CHECK(last_chunk() == (longer < 1500000 ? longer : 1500000) && ch->started == started + 1);
    one_how(comm, 200000, 0, &held);
    CHECK(last_chunk() == (longer < 200000 ? longer : 200000) && ch->started == started + 2);
    one(comm, 200000, 0);
    CHECK(same_on_all_ranks(last_chunk(), comm) & (ch->started > started + 3));
  }
  MPI_Comm_free(&comm);
}

/* Held with probe_rate, an untuned class gets a rate from one probe (the same on every
 * rank) and keeps its provisional chunk, unsettled; under a trial budget a class takes no
 * trials where the budget covers none, one round where it covers one, and all of them
 * where it covers them; a new call starts its budget afresh. */
static void probe_and_budget(void)
{
  MPI_Comm comm;
  if (untuned_comm(&comm) > 1) {
    hpd_bcast_channel *ch = hpd_channel_get(comm);
    const size_t bytes = 200000;
    int cls = hpd_size_class(bytes);
    const hpd_bcast_how probe = {.hold_tuning = 1, .probe_rate = 1};
    CHECK(hpd_bcast_measure_link(comm, bytes, &probe) > 0.0);
    double rate = hpd_bcast_link_rate(comm, bytes);
    CHECK(rate > 0.0 && ch->chunk[cls] == 0);
    CHECK(same_on_all_ranks((uint64_t)rate, comm));
    /* The probe's pick: the provisional chunk (64 KiB here, on one host or two) or the
     * whole message, alike on every rank. */
    uint64_t probed = ch->probed[cls];
    CHECK((probed == HPD_TUNE_PROVISIONAL || probed == HPD_CHUNK_MAX) &&
          same_on_all_ranks(probed, comm));
    uint64_t held = probed < bytes ? probed : bytes;
    uint64_t started = ch->started;
    one_how(comm, bytes, 0, &probe); /* the rate is known: no second probe */
    CHECK(last_chunk() == held && ch->started == started + 1);

    hpd_bcast_how capped = {.trials_capped = 1, .trial_budget_s = 0.0,
                            .trial_call = hpd_bcast_call()};
    started = ch->started;
    one_how(comm, bytes, 0, &capped);
    CHECK(ch->chunk[cls] == 0 && last_chunk() == held && ch->started == started + 1);
    /* One round: the untimed first and each of the six candidates (8 KiB to 128 KiB and
     * the whole message) once, at the probe's rate; two would take 13 messages. */
    double each = (double)bytes / rate;
    capped.trial_budget_s = each * (1 + 6) * 1.5;
    capped.trial_call = hpd_bcast_call();
    one_how(comm, bytes, 0, &capped);
    CHECK(ch->chunk[cls] != 0 && hpd_tune_rounds_last() == 1);
    CHECK(same_on_all_ranks(ch->chunk[cls], comm));
    CHECK(ch->trial_budget_left < capped.trial_budget_s);

    /* A budget that covers every round tunes as an uncapped call would. */
    const size_t longer = 700000;
    capped.probe_rate = 1;
    capped.trial_budget_s = 1e3;
    capped.trial_call = hpd_bcast_call();
    one_how(comm, longer, 0, &capped);
    CHECK(ch->chunk[hpd_size_class(longer)] != 0 && hpd_tune_rounds_last() >= 1);
    CHECK(same_on_all_ranks(last_chunk(), comm));
  }
  MPI_Comm_free(&comm);
}

/* A link measurement whose scratch the last rank cannot have (its address space held to
 * what it maps now and 64 MiB more) is made on no rank: every rank gets no rate, none
 * stops or waits for the others, and the channel measures again once memory is there. */
static void trial_without_memory(void)
{
  MPI_Comm comm;
  int size = untuned_comm(&comm);
  struct rlimit before;
  int limit = rank == size - 1 && size > 1 && getrlimit(RLIMIT_AS, &before) == 0 &&
              mapped_bytes() > 0;
  struct rlimit held = before;
  if (limit) {
    held.rlim_cur = (rlim_t)mapped_bytes() + ((rlim_t)64 << 20);
    limit = setrlimit(RLIMIT_AS, &held) == 0;
  }
  const size_t large = (size_t)256 << 20;
  double whole = hpd_bcast_whole_rate(comm, large, NULL);
  double link = hpd_bcast_measure_link(comm, large, NULL);
  if (limit)
    setrlimit(RLIMIT_AS, &before);
  int limited = limit, any = 0;
  MPI_Allreduce(&limited, &any, 1, MPI_INT, MPI_MAX, comm);
  if (any)
    CHECK(whole == 0.0 && link == 0.0);
  if (size > 1)
    CHECK(hpd_bcast_whole_rate(comm, 200000, NULL) > 0.0);
  MPI_Comm_free(&comm);
}

/* A message whose round of candidate trials takes far longer than HPD_TUNE_TRIALS_S on
 * any machine (64 MiB, copied at least once per candidate) is tuned in one round,
 * alike on every rank. */
static void long_message_one_round(void)
{
  MPI_Comm comm;
  if (untuned_comm(&comm) > 1) {
    one(comm, (size_t)64 << 20, 0);
    CHECK(hpd_tune_rounds_last() == 1);
    CHECK(same_on_all_ranks(last_chunk(), comm));
  }
  MPI_Comm_free(&comm);
}

/* Every rank times the same number of rounds of candidates (one to HPD_TUNE_REPS), or
 * the trials' broadcasts would no longer match. */
static void rounds_alike(void)
{
  MPI_Comm comm;
  if (untuned_comm(&comm) > 1) {
    one(comm, (size_t)1 << 20, 0);
    int rounds = hpd_tune_rounds_last();
    CHECK((rounds >= 1) & (rounds <= HPD_TUNE_REPS));
    CHECK(same_on_all_ranks((uint64_t)rounds, comm) & same_on_all_ranks(last_chunk(), comm));
  }
  MPI_Comm_free(&comm);
}

static char tune_path[256];
static uint64_t file_chunk;
static uint64_t file_started;
static double file_rate;

/* One tuned broadcast of class 16 (64 KiB to 128 KiB) on a fresh communicator. */
static void broadcast_class16(void)
{
  hpd_tune_table_forget();
  hpd_set_tune_file(tune_path);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  one(comm, 100000, 0);
  file_chunk = last_chunk();
  file_started = hpd_channel_get(comm)->started;
  file_rate = hpd_bcast_link_rate(comm, 65536);
  MPI_Comm_free(&comm);
}

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static void tune_file(void)
{
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char dir[] = "/tmp/hpd-test-tune-XXXXXX";
  if (rank == 0 && !mkdtemp(dir))
    dir[0] = '\0';
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  CHECK(dir[0] != '\0');
  if (!dir[0])
    return;

  /* Each rank its own file, disagreeing: rank 0's entry is what every rank uses.  On one
   * host a file of version 1 (no hosts column) still serves; across hosts the entry must
   * name the hosts the communicator spans. */
  int hosts = world_nodes();
  snprintf(tune_path, sizeof tune_path, "%s/rank%d.tune", dir, rank);
  char text[256];
  if (hosts == 1)
    snprintf(text, sizeof text, "hpdaemon-tune 1\n# a comment\n%d 65536 131071 %d\n", size,
             rank == 0 ? 16384 : 65536);
  else
    snprintf(text, sizeof text, "hpdaemon-tune 2\n%d 1 65536 131071 4096\n%d %d 65536 131071 %d\n",
             size, size, hosts, rank == 0 ? 16384 : 65536);
  write_file(tune_path, text);
  broadcast_class16();
  CHECK(size == 1 || file_chunk == 16384);
  CHECK(same_on_all_ranks(file_chunk, MPI_COMM_WORLD));
  CHECK(size == 1 || file_started == 1); /* taken from the file: nothing measured */
  CHECK(file_rate == 0.0); /* a file of version 1 or 2 knows no rate */

  /* Version 4 keeps the dispatch's verdicts beside the chunks: read, and kept when the
   * table is saved again. */
  snprintf(tune_path, sizeof tune_path, "%s/verdicts.tune", dir);
  if (rank == 0) {
    snprintf(text, sizeof text,
             "hpdaemon-tune 4\n%d %d 65536 131071 16384 2e+09\nroute a/1x2/b reference 0.5 "
             "0.25\n", size, hosts);
    write_file(tune_path, text);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  broadcast_class16();
  CHECK(size == 1 || (file_chunk == 16384 && file_started == 1 && file_rate == 2e9));
  if (rank == 0) {
    hpd_tune_verdict v = {HPD_TUNE_ENGINE, 0.0, 0.0}, added = {HPD_TUNE_CLOSE, 0.125, 0.375};
    CHECK(hpd_tune_table_lookup_verdict("a/1x2/b", &v) && v.route == HPD_TUNE_REFERENCE &&
          v.engine_s == 0.5 && v.reference_s == 0.25);
    CHECK(!hpd_tune_table_lookup_verdict("a/1x2/c", &v));
    hpd_tune_table_store_verdict("a/1x2/c", &added);
    hpd_tune_table_store_verdict("with space", &added); /* not a key: ignored */
    hpd_tune_table_forget();
    CHECK(hpd_tune_table_lookup_verdict("a/1x2/c", &v) && v.route == HPD_TUNE_CLOSE &&
          v.engine_s == 0.125);
    CHECK(hpd_tune_table_lookup_verdict("a/1x2/b", &v) && v.route == HPD_TUNE_REFERENCE);
    CHECK(!hpd_tune_table_lookup_verdict("with", &v));
    hpd_tune_table_store_verdict("a/1x2/b", NULL); /* forgotten, and so in the file */
    hpd_tune_table_forget();
    CHECK(!hpd_tune_table_lookup_verdict("a/1x2/b", &v) &&
          hpd_tune_table_lookup_verdict("a/1x2/c", &v));
  }

  /* Missing: a warning, a measurement, and the result saved by rank 0. */
  snprintf(tune_path, sizeof tune_path, "%s/saved.tune", dir);
  const char *said = capture_stderr(broadcast_class16);
  uint64_t measured = file_chunk;
  double measured_rate = file_rate;
  CHECK(size == 1 || measured_rate > 0.0);
  CHECK(same_on_all_ranks((uint64_t)measured_rate, MPI_COMM_WORLD));
  if (rank == 0 && size > 1)
    CHECK(strstr(said, "HPD_TUNE_FILE=") && strstr(said, "cannot be read"));
  CHECK(same_on_all_ranks(measured, MPI_COMM_WORLD));
  CHECK(size == 1 || file_started > 1);
  MPI_Barrier(MPI_COMM_WORLD);
  /* Read back in a later "run": the same chunk, without measuring. */
  broadcast_class16();
  CHECK(size == 1 || (file_chunk == measured && file_started == 1));
  /* with its rate, to the printed digits, on every rank */
  CHECK(size == 1 || fabs(file_rate - measured_rate) <= 1e-5 * measured_rate);
  CHECK(same_on_all_ranks((uint64_t)file_rate, MPI_COMM_WORLD));
  /* a rate measured on messages of one class says nothing of other classes until they are
   * measured themselves */
  MPI_Comm probe;
  MPI_Comm_dup(MPI_COMM_WORLD, &probe);
  one(probe, 100000, 0);
  CHECK(hpd_bcast_link_rate(probe, 1 << 20) == 0.0 && hpd_bcast_link_rate(probe, 1000) == 0.0 &&
        (size == 1 || hpd_bcast_link_rate(probe, 100000) > 0.0));
  MPI_Comm_free(&probe);

  /* Corrupt, in six ways: each a warning, a measurement, agreement all the same. */
  static const char *corrupt[] = {"not a tuning file\n",
                                  "hpdaemon-tune 1\n2 65536 131072 4096\n",
                                  "hpdaemon-tune 1\n2 65536 131071 4096 extra\n",
                                  "hpdaemon-tune 3\nroute a/b engine 0.1 0.2\n",
                                  "hpdaemon-tune 4\nroute a/b sometimes 0.1 0.2\n",
                                  "hpdaemon-tune 4\nroute a/b engine -1 0.2\n"};
  for (size_t i = 0; i < sizeof corrupt / sizeof *corrupt; i++) {
    snprintf(tune_path, sizeof tune_path, "%s/corrupt%zu.tune", dir, i);
    if (rank == 0)
      write_file(tune_path, corrupt[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    said = capture_stderr(broadcast_class16);
    if (rank == 0 && size > 1)
      CHECK(strstr(said, "HPD_TUNE_FILE=") && strstr(said, "not a valid tuning file"));
    CHECK(same_on_all_ranks(file_chunk, MPI_COMM_WORLD));
    CHECK(size == 1 || file_started > 1);
  }
  hpd_set_tune_file(NULL);
  hpd_tune_table_forget();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    char command[512];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    CHECK(system(command) == 0);
  }
}

/* ---- counters ------------------------------------------------------------------------ */

static void counters(void)
{
  hpd_bcast_counters before, after;
  hpd_bcast_counters_get(&before);
  one(MPI_COMM_WORLD, 12345, 0);
  hpd_bcast_counters_get(&after);
  CHECK(after.count == before.count + 1);
  CHECK(after.bytes == before.bytes + 12345);
  CHECK(after.wall_s >= before.wall_s && after.cpu_s >= before.cpu_s);
  /* A thread cannot use more CPU than wall time; the clocks differ by a tick at most. */
  CHECK(after.cpu_s - before.cpu_s <= (after.wall_s - before.wall_s) * 1.05 + 0.01);
}

/* ---- main ---------------------------------------------------------------------------- */

static int parse_policies(const char *text, int *out)
{
  int n = 0;
  char copy[64];
  snprintf(copy, sizeof copy, "%s", text);
  for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && n < 3;
       t = strtok_r(NULL, ",", &save)) {
    int i = 0;
    while (i < HPD_WAIT_POLICIES && strcmp(t, hpd_wait_policy_name(i)) != 0)
      i++;
    if (i == HPD_WAIT_POLICIES)
      return -1;
    out[n++] = i;
  }
  return n;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int policies[3] = {HPD_WAIT_SPIN, HPD_WAIT_YIELD, HPD_WAIT_SLEEP}, n_policies = 3;
  int quick = 0, tuning = 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--wait") == 0 && i + 1 < argc)
      n_policies = parse_policies(argv[++i], policies);
    else if (strcmp(argv[i], "--quick") == 0)
      quick = 1;
    else if (strcmp(argv[i], "--no-tuning") == 0)
      tuning = 0;
    else
      n_policies = -1;
  }
  if (n_policies < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: test_bcast [--wait spin,yield,sleep] [--quick] [--no-tuning]\n");
    MPI_Finalize();
    return 2;
  }
  algorithms_and_policies(policies, n_policies, quick);
  if (tuning) {
    hpd_set_wait(policies[n_policies - 1]);
    tuned_choice_agrees(0);
    tuned_choice_agrees(1);
    long_message_one_round();
    rounds_alike();
    held_tuning();
    probe_and_budget();
    trial_without_memory();
    batch_chunks();
    hidden_batch_flat();
    hidden_batch_tree();
    tune_file();
  }
  prefix_arrives();
  binomial_one_child_at_a_time();
  counters();

  int mine[2] = {passed, failed}, all[2];
  MPI_Reduce(mine, all, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d passed, %d failed\n", all[0], all[1]);
  MPI_Bcast(all, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return all[1] != 0;
}
