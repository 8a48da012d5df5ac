/*
 * Exchanges through shared memory (src/bcast/shared.c), on the ranks of one node.  Every
 * rank writes its entries of the common area, every size-th one, each naming the
 * exchange, the rank and its place, in two steps: the first half, published, then the
 * second half; now and then a writer lags behind before one of its steps.  The others
 * read them back as each step is published, half, then the other half, at every other
 * exchange after a pause: a step read before it was written shows up as a wrong entry.
 * Rank 0 reads nobody's entries (as a gather's process does whose peers hold nothing of
 * the block) and so would run ahead of the readers: an area it rewrote before they
 * finished shows up as a wrong entry too, whether the exchange before it used the same
 * area or the other (three exchanges in a row take one area, then three the other).
 * Areas grow now and then, so that the window is made again between exchanges.  Where
 * the exchange must not be used (one rank, a baseline broadcast) it must say so alike on
 * every rank.  Making an area's pages at once must leave every page resident and change
 * no entry of an earlier exchange.  A rank waiting on an exchange must still move the
 * messages it sent before it (a large send waits for its sender to enter MPI): the rank
 * it waits for receives one first.
 */
#define _DEFAULT_SOURCE /* mincore, madvise */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bcast/shared.h"
#include "check.h"
#include "hpdaemon.h"

#define EXCHANGES 200

static double entry(int exchange, int rank, size_t at)
{
  return (double)exchange * 1048576.0 + (double)rank * 65536.0 + (double)(at % 65536);
}

/* Entries of the area in exchange e: a few sizes, growing at a few exchanges. */
static size_t entries(int exchange)
{
  static const size_t sizes[] = {1000, 30000, 7, 120000};
  return sizes[exchange % 4] * (size_t)(1 + exchange / 80);
}

static void pause_us(long us)
{
  struct timespec t = {0, us * 1000};
  nanosleep(&t, NULL);
}

/* Rank q's entries of the area in [from, to) of size ranks' are as q wrote them. */
static int read_part(const double *area, int exchange, int q, int size, size_t from,
                     size_t to)
{
  for (size_t at = from; at < to; at++)
    if ((int)(at % (size_t)size) == q && area[at] != entry(exchange, q, at))
      return 0;
  return 1;
}

static void exchanges(MPI_Comm comm)
{
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int wrong = 0, used = 0;
  for (int e = 0; e < EXCHANGES; e++) {
    size_t n = entries(e);
    hpd_shared *shared = hpd_shared_get(comm, n * sizeof(double));
    if (!shared)
      continue;
    used++;
    double *area =
        hpd_shared_begin(shared, (e / 3) % 2, 2, n / (size_t)size * sizeof(double));
    /* Now and then a writer lags behind its readers, before either of its steps. */
    int lag = (e + rank) % 3;
    if (lag == 1)
      pause_us(300);
    for (size_t at = (size_t)rank; at < n; at += (size_t)size) {
      if (at >= n / 2 && at - (size_t)size < n / 2) {
        hpd_shared_publish(shared, 1);
        pause_us(lag == 2 ? 300 : 20);
      }
      area[at] = entry(e, rank, at);
    }
    hpd_shared_publish(shared, 2);
    for (int q = 0; rank != 0 && q < size; q++) {
      if (q == rank)
        continue;
      hpd_shared_wait(shared, q, 1);
      wrong += !read_part(area, e, q, size, 0, n / 2);
      if (e % 2)
        pause_us(50 + 37 * ((e + q) % 5));
      hpd_shared_wait(shared, q, 2);
      wrong += !read_part(area, e, q, size, n / 2, n);
    }
    wrong += !read_part(area, e, rank, size, 0, n);
    hpd_shared_end(shared);
  }
  CHECK(used == EXCHANGES);
  CHECK(wrong == 0);
  if (wrong)
    fprintf(stderr, "rank %d: %d parts read wrong\n", rank, wrong);
}

/* Whether the kernel makes pages on request (Linux 5.14 on); without it hpd_shared_make
 * leaves them to their first touches. */
static int kernel_populates(void)
{
#ifdef MADV_POPULATE_READ
  long page = sysconf(_SC_PAGESIZE);
  void *probe = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
  if (probe == MAP_FAILED)
    return 0;
  int works = madvise(probe, (size_t)page, MADV_POPULATE_READ) == 0;
  munmap(probe, (size_t)page);
  return works;
#else
  return 0;
#endif
}

/* Pages of [block, block + bytes) not resident. */
static size_t missing_pages(const void *block, size_t bytes)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  uintptr_t lo = (uintptr_t)block / page * page, hi = ((uintptr_t)block + bytes + page - 1) / page * page;
  size_t pages = (hi - lo) / page, missing = 0;
  unsigned char *resident = malloc(pages);
  if (!resident || mincore((void *)lo, hi - lo, resident) != 0) {
    free(resident);
    return pages;
  }
  for (size_t i = 0; i < pages; i++)
    missing += !(resident[i] & 1);
  free(resident);
  return missing;
}

/* On a window of its own: an area written unmade, then made at its third exchange (the
 * same area again), keeps the entries; a fresh area made before any write is resident
 * on every rank. */
static void made_pages(void)
{
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  size_t n = (size_t)1 << 19; /* 4 MiB */
  hpd_shared *shared = hpd_shared_get(comm, n * sizeof(double));
  CHECK(shared != NULL);
  if (!shared) {
    MPI_Comm_free(&comm);
    return;
  }
  double *area = hpd_shared_begin(shared, 0, 1, n / (size_t)size * sizeof(double));
  for (size_t at = (size_t)rank; at < n; at += (size_t)size)
    area[at] = entry(1, rank, at);
  hpd_shared_publish(shared, 1);
  for (int q = 0; q < size; q++)
    hpd_shared_wait(shared, q, 1);
  hpd_shared_end(shared);

  double *other = hpd_shared_begin(shared, 1, 1, 0);
  hpd_shared_publish(shared, 1);
  CHECK(other != area);
  size_t fresh = missing_pages(other, n * sizeof(double));
  hpd_shared_make(shared, n * sizeof(double));
  if (kernel_populates()) {
    CHECK(fresh > 0);
    CHECK(missing_pages(other, n * sizeof(double)) == 0);
  }
  for (int q = 0; q < size; q++)
    hpd_shared_wait(shared, q, 1);
  hpd_shared_end(shared);

  CHECK(hpd_shared_begin(shared, 0, 1, 0) == area);
  hpd_shared_make(shared, n * sizeof(double));
  int kept = 1;
  for (int q = 0; q < size; q++)
    kept &= read_part(area, 1, q, size, 0, n);
  CHECK(kept);
  hpd_shared_publish(shared, 1);
  for (int q = 0; q < size; q++)
    hpd_shared_wait(shared, q, 1);
  hpd_shared_end(shared);
  MPI_Comm_free(&comm);
}

/* Rank 0 sends rank 1 a message too large to go eagerly, then waits on an exchange in
 * which rank 1 publishes only once it has received the message: without rank 0 driving
 * MPI while it waits, neither returns.  The ranks past 1 take part in the exchange only. */
static void sent_before_waiting(void)
{
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  hpd_shared *shared = hpd_shared_get(comm, 64);
  CHECK(shared != NULL);
  if (!shared) {
    MPI_Comm_free(&comm);
    return;
  }
  int count = 1 << 20; /* 8 MiB */
  double *message = calloc((size_t)count, sizeof *message);
  CHECK(message != NULL);
  if (!message)
    MPI_Abort(comm, 1); /* the others would wait on the exchange */
  MPI_Request sent = MPI_REQUEST_NULL;
  if (rank == 0) {
    message[count - 1] = 7.0;
    MPI_Isend(message, count, MPI_DOUBLE, 1, 0, comm, &sent);
  }
  hpd_shared_begin(shared, 0, 1, 0);
  if (rank == 1) {
    MPI_Recv(message, count, MPI_DOUBLE, 0, 0, comm, MPI_STATUS_IGNORE);
    CHECK(message[count - 1] == 7.0);
  }
  hpd_shared_publish(shared, 1);
  for (int q = 0; q < size; q++)
    hpd_shared_wait(shared, q, 1);
  hpd_shared_end(shared);
  MPI_Wait(&sent, MPI_STATUS_IGNORE);
  free(message);
  MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  exchanges(MPI_COMM_WORLD);
  made_pages();
  sent_before_waiting();

  /* One rank alone has nobody to exchange with. */
  MPI_Comm self;
  MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &self);
  CHECK(hpd_shared_get(self, 64) == NULL);
  MPI_Comm_free(&self);

  /* A baseline broadcast keeps the gathers on broadcasts, for comparison. */
  hpd_set_bcast(HPD_BCAST_BINOMIAL);
  CHECK(hpd_shared_get(MPI_COMM_WORLD, 64) == NULL);
  hpd_set_bcast(HPD_BCAST_PIPELINE);
  CHECK(hpd_shared_get(MPI_COMM_WORLD, 64) != NULL);

  int all_failed = 0;
  MPI_Allreduce(&failed, &all_failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("shared: %d ranks, %d passed, %d failed\n", size, passed, all_failed);
  MPI_Finalize();
  return all_failed != 0;
}
