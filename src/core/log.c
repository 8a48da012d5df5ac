#include "log.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

int hpd_world_rank(void)
{
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    return rank_from_launcher();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

void hpd_warn(const char *fmt, ...)
{
  if (hpd_world_rank() != 0)
    return;
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "hpdaemon: warning: %s\n", line);
  fflush(stderr);
}
