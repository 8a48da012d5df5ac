#include "bench_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#ifdef HPD_SIMULATED
#include "charge.h"
#endif

int bench_parse_int_list(const char *text, int *out, int *count)
{
  *count = 0;
  for (const char *s = text; *s;) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v <= 0 || v > 1000000 || *count == MAX_LIST || (*end && *end != ','))
      return -1;
    out[(*count)++] = (int)v;
    s = *end ? end + 1 : end;
  }
  return *count > 0 ? 0 : -1;
}

const char *bench_option_value(int argc, char **argv, int *i, const char *name)
{
  size_t len = strlen(name);
  if (strncmp(argv[*i], name, len) != 0)
    return NULL;
  if (argv[*i][len] == '=')
    return argv[*i] + len + 1;
  if (argv[*i][len] != '\0' || *i + 1 >= argc)
    return NULL;
  return argv[++*i];
}

int bench_parse_positive(const char *text, int *out)
{
  int count;
  return bench_parse_int_list(text, out, &count) == 0 && count == 1 ? 0 : -1;
}

int bench_parse_count(const char *text, int *out)
{
  char *end;
  long v = strtol(text, &end, 10);
  if (end == text || *end || v < 0 || v > 1000000)
    return -1;
  *out = (int)v;
  return 0;
}

static int world_rank(void)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int bench_options_verdict(const char *program, int parsed, const char *err,
                          void (*usage)(FILE *out))
{
  if (parsed == 0)
    return -1;
  if (world_rank() == 0) {
    if (err[0])
      fprintf(stderr, "%s: %s\n", program, err);
    usage(parsed > 0 ? stdout : stderr);
  }
  MPI_Finalize();
  return parsed > 0 ? 0 : 2;
}

int bench_grid_refused(const char *program, int p, int q)
{
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (world_rank() == 0)
    fprintf(stderr, "%s: grid %dx%d needs exactly %d ranks, started with %d\n", program, p, q,
            p * q, size);
  MPI_Finalize();
  return 2;
}

FILE *bench_open_csv(const char *program, const char *path, int rank, const char *header)
{
  if (!path || rank != 0)
    return NULL;
  FILE *f = fopen(path, "a");
  if (!f) {
    fprintf(stderr, "%s: cannot open %s\n", program, path);
    return NULL;
  }
  if (ftell(f) == 0)
    fprintf(f, "%s\n", header);
  return f;
}

double bench_process_cpu_s(void)
{
  struct rusage use;
  if (getrusage(RUSAGE_SELF, &use) != 0)
    return 0.0;
  return (double)use.ru_utime.tv_sec + 1e-6 * (double)use.ru_utime.tv_usec +
         (double)use.ru_stime.tv_sec + 1e-6 * (double)use.ru_stime.tv_usec;
}

int bench_results_computed(void)
{
#ifdef HPD_SIMULATED
  return !hpd_sim_charging();
#else
  return 1;
#endif
}

const char *bench_kernels(char *text, size_t size)
{
  if (bench_results_computed())
    snprintf(text, size, "BLAS kernels %s, %d BLAS thread(s) per rank",
             openblas_get_corename(), openblas_get_num_threads());
  else
    snprintf(text, size, "kernels charged at this machine's measured rates, results not "
             "computed");
  return text;
}
