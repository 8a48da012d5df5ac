#include "core/log.h"

#include <errno.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* Before MPI_Init the rank is only known from the process manager's environment. */
static int rank_from_launcher(void)
{
  static const char *vars[] = {"PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK",
                               "SLURM_PROCID"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v)
      return atoi(v);
  }
  return 0;
}

/* Kept once read: a process's world rank never changes, and a simulated MPI already
 * reports itself finalized while MPI_Finalize runs the callbacks that write the report. */
static _Atomic int world_rank = -1;

int hpd_world_rank(void)
{
  int known = atomic_load(&world_rank);
  if (known >= 0)
    return known;
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    return rank_from_launcher();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  atomic_store(&world_rank, rank);
  return rank;
}

/* Warnings this process claimed for its node, by the hash of their format. */
#define CLAIMS_MAX 64
static uint64_t claimed[CLAIMS_MAX];
static int claims;

static uint64_t text_hash(const char *text)
{
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *text; text++)
    h = (h ^ (unsigned char)*text) * 1099511628211ull;
  return h;
}

/* 1 if this process is the one of its node to print the warning of format fmt.  The
 * claim is an abstract socket name, unique to the node's network namespace and the
 * launcher's process that started the ranks there (their parent); the kernel drops it
 * when the process ends, so nothing is left behind.  Where a claim cannot be made,
 * print. */
static int ours_on_node(const char *fmt)
{
  uint64_t h = text_hash(fmt);
  for (int i = 0; i < claims; i++)
    if (claimed[i] == h)
      return 1;
  if (claims == CLAIMS_MAX)
    return 1;
  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return 1;
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  int len = snprintf(addr.sun_path + 1, sizeof addr.sun_path - 1, "hpdaemon-warn-%ld-%016llx",
                     (long)getppid(), (unsigned long long)h);
  if (bind(fd, (struct sockaddr *)&addr,
           (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)len)) != 0) {
    int taken = errno == EADDRINUSE;
    close(fd);
    return !taken;
  }
  claimed[claims++] = h; /* the descriptor stays open: it is the claim */
  return 1;
}

static void emit(const char *fmt, va_list ap)
{
  char line[1024], host[256] = "?";
  vsnprintf(line, sizeof line, fmt, ap);
  if (gethostname(host, sizeof host) != 0)
    snprintf(host, sizeof host, "?");
  host[sizeof host - 1] = '\0';
  fprintf(stderr, "hpdaemon: warning: %s (rank %d on %s)\n", line, hpd_world_rank(), host);
  fflush(stderr);
}

void hpd_warn(const char *fmt, ...)
{
  if (!ours_on_node(fmt))
    return;
  va_list ap;
  va_start(ap, fmt);
  emit(fmt, ap);
  va_end(ap);
}

void hpd_fatal(const char *fmt, ...)
{
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  fprintf(stderr, "hpdaemon: error: %s (rank %d)\n", text, hpd_world_rank());
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized)
    MPI_Abort(MPI_COMM_WORLD, 1);
  abort();
}

void hpd_warn_job(const char *fmt, ...)
{
  if (hpd_world_rank() != 0)
    return;
  va_list ap;
  va_start(ap, fmt);
  emit(fmt, ap);
  va_end(ap);
}
