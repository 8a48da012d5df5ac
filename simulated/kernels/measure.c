/*
 * kernel_rates [--uniform RATE] [FILE]: times every charged kernel (kernel.h) on this
 * machine, one core, at each shape of its grid, and writes the rates (flops per second)
 * that the simulated timing mode charges at (README: "Simulated clusters").  A simulated
 * node runs a rank on each of its cores, and a core's multiply here runs a fifth slower
 * while its neighbour multiplies too (shared caches, memory and clock): scripts/simulate
 * measures with every other core kept busy by kernel_rates --load, which multiplies until
 * it is killed.  Built
 * natively, against the BLAS and LAPACK the simulated programs link, by the simulated
 * build; scripts/simulate runs it once per machine and keeps the table.  --uniform writes
 * RATE for every shape without measuring: each kernel then takes its flops over the
 * platform's speed, a table whose times the tests can predict.
 *
 * Each shape is called once to warm up, then timed in WINDOWS windows, each of batches
 * until 1 ms has passed, and its rate is the best window's: another process sharing the
 * core only ever takes time away, and a table measured as a plain mean on a busy machine
 * had some shapes at two thirds of their rate, which moved a simulated 8x8 reference by
 * half.  Kernels that change their operands are given fresh ones between batches (outside the
 * time), and the factorizations a fresh matrix before every call, since a factored
 * matrix would stop a Cholesky early.  The operands stay in cache where they fit, as a
 * multiply's blocks do between two strips.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel.h"
#include "level3/small_trsm.h"

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *,
            double *, const int *);
void dsymm_(const char *, const char *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *,
            double *, const int *);
void dsyrk_(const char *, const char *, const int *, const int *, const double *,
            const double *, const int *, const double *, double *, const int *);
void dsyr2k_(const char *, const char *, const int *, const int *, const double *,
             const double *, const int *, const double *, const int *, const double *,
             double *, const int *);
void dtrmm_(const char *, const char *, const char *, const char *, const int *, const int *,
            const double *, const double *, const int *, double *, const int *);
void dtrsm_(const char *, const char *, const char *, const char *, const int *, const int *,
            const double *, const double *, const int *, double *, const int *);
void dgemv_(const char *, const int *, const int *, const double *, const double *,
            const int *, const double *, const int *, const double *, double *, const int *);
void dger_(const int *, const int *, const double *, const double *, const int *,
           const double *, const int *, double *, const int *);
void dsymv_(const char *, const int *, const double *, const double *, const int *,
            const double *, const int *, const double *, double *, const int *);
void dsyr_(const char *, const int *, const double *, const double *, const int *, double *,
           const int *);
void dsyr2_(const char *, const int *, const double *, const double *, const int *,
            const double *, const int *, double *, const int *);
void dtrmv_(const char *, const char *, const char *, const int *, const double *,
            const int *, double *, const int *);
void dtrsv_(const char *, const char *, const char *, const int *, const double *,
            const int *, double *, const int *);
void daxpy_(const int *, const double *, const double *, const int *, double *, const int *);
double ddot_(const int *, const double *, const int *, const double *, const int *);
void dscal_(const int *, const double *, double *, const int *);
void dcopy_(const int *, const double *, const int *, double *, const int *);
void dswap_(const int *, double *, const int *, double *, const int *);
int idamax_(const int *, const double *, const int *);
void dgetrf_(const int *, const int *, double *, const int *, int *, int *);
void dpotrf_(const char *, const int *, double *, const int *, int *);
void dlaswp_(const int *, double *, const int *, const int *, const int *, const int *,
             const int *);

#define SIDE 2048            /* the largest level-3 dimension */
#define PANEL (16384 * 256)  /* the largest LU panel */
#define VECTORS (65536 * 256) /* the longest strided vector */
#define LASWP_ROWS 128        /* the rows an interchange reaches: twice the most swaps */
#define WINDOWS 5
#define MIN_SECONDS 1e-3
#define MAX_BATCH 64

typedef struct operands {
  double *a, *b, *c, *pristine, *x, *y;
  int *pivots;
} operands;

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double *filled(size_t count, double low, double high)
{
  double *p = malloc(count * sizeof *p);
  if (!p) {
    fprintf(stderr, "kernel_rates: out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < count; i++)
    p[i] = low + (high - low) * (rand() / (double)RAND_MAX);
  return p;
}

/* A triangle that keeps solves and products from growing or shrinking their operand:
 * ones on the diagonal, tiny entries elsewhere. */
static void near_identity(double *a, int order)
{
  for (int j = 0; j < order; j++)
    for (int i = 0; i < order; i++)
      a[i + (size_t)j * order] = i == j ? 1.0 : 1e-7 * (rand() / (double)RAND_MAX);
}

/* A symmetric positive definite matrix for the Cholesky, kept pristine. */
static void positive_definite(double *a, int n)
{
  for (int j = 0; j < n; j++)
    for (int i = 0; i <= j; i++)
      a[i + (size_t)j * n] = a[j + (size_t)i * n] =
        i == j ? n + 1.0 : rand() / (double)RAND_MAX;
}

/* Fresh operands where the kernel changes them; 1 where each call needs fresh ones. */
static int refresh(hpd_kernel k, const int d[3], operands *o)
{
  switch (k) {
  case HPD_K_TRMM:
  case HPD_K_TRSM:
  case HPD_K_SMALL_TRSM:
  case HPD_K_TRMV:
  case HPD_K_TRSV:
    near_identity(o->a, d[0]);
    return 0;
  case HPD_K_GETRF:
    memcpy(o->c, o->pristine, (size_t)d[0] * d[1] * sizeof *o->c);
    return 1;
  case HPD_K_POTRF:
    positive_definite(o->c, d[0]);
    return 1;
  case HPD_K_LASWP: /* every row changes place, within the first LASWP_ROWS */
    for (int i = 0; i < d[1]; i++)
      o->pivots[i] = i + 2 + (i * 7) % (LASWP_ROWS / 2);
    return 0;
  default:
    return 0;
  }
}

static void call(hpd_kernel k, const int d[3], operands *o)
{
  const double one = 1.0, grow = 1.0000001, zero = 0.0;
  const int ione = 1, inc = d[1], side = SIDE, rows = d[0], swap_rows = LASWP_ROWS;
  int info;
  double *a = o->a, *b = o->b, *c = o->c;
  switch (k) {
  case HPD_K_GEMM:
    dgemm_("N", "N", &d[0], &d[1], &d[2], &one, a, &side, b, &side, &one, c, &side);
    break;
  case HPD_K_SYMM:
    dsymm_("L", "L", &d[0], &d[1], &one, a, &side, b, &side, &one, c, &side);
    break;
  case HPD_K_SYRK:
    dsyrk_("L", "N", &d[0], &d[1], &one, a, &side, &one, c, &side);
    break;
  case HPD_K_SYR2K:
    dsyr2k_("L", "N", &d[0], &d[1], &one, a, &side, b, &side, &one, c, &side);
    break;
  case HPD_K_TRMM:
    dtrmm_("L", "L", "N", "N", &d[0], &d[1], &one, a, &d[0], b, &side);
    break;
  case HPD_K_TRSM:
    dtrsm_("L", "L", "N", "N", &d[0], &d[1], &one, a, &d[0], b, &side);
    break;
  case HPD_K_SMALL_TRSM:
    hpd_small_trsm('R', 'L', 'T', 'N', d[1], d[0], 1.0, a, d[0], b, SIDE);
    break;
  case HPD_K_GEMV:
    dgemv_("N", &d[0], &d[1], &one, a, &side, o->x, &ione, &zero, o->y, &ione);
    break;
  case HPD_K_GER:
    dger_(&d[0], &d[1], &one, o->x, &ione, o->y, &ione, c, &side);
    break;
  case HPD_K_SYMV:
    dsymv_("L", &d[0], &one, a, &side, o->x, &ione, &zero, o->y, &ione);
    break;
  case HPD_K_SYR:
    dsyr_("L", &d[0], &one, o->x, &ione, c, &side);
    break;
  case HPD_K_SYR2:
    dsyr2_("L", &d[0], &one, o->x, &ione, o->y, &ione, c, &side);
    break;
  case HPD_K_TRMV:
    dtrmv_("L", "N", "N", &d[0], a, &d[0], o->x, &ione);
    break;
  case HPD_K_TRSV:
    dtrsv_("L", "N", "N", &d[0], a, &d[0], o->x, &ione);
    break;
  case HPD_K_AXPY:
    daxpy_(&d[0], &one, o->x, &inc, o->y, &inc);
    break;
  case HPD_K_DOT:
    o->pristine[0] += ddot_(&d[0], o->x, &inc, o->y, &inc);
    break;
  case HPD_K_SCAL:
    dscal_(&d[0], &grow, o->x, &inc);
    break;
  case HPD_K_COPY:
    dcopy_(&d[0], o->x, &inc, o->y, &inc);
    break;
  case HPD_K_SWAP:
    dswap_(&d[0], o->x, &inc, o->y, &inc);
    break;
  case HPD_K_IAMAX:
    o->pivots[0] += idamax_(&d[0], o->x, &inc);
    break;
  case HPD_K_GETRF:
    dgetrf_(&d[0], &d[1], c, &rows, o->pivots, &info);
    break;
  case HPD_K_POTRF:
    dpotrf_("L", &d[0], c, &rows, &info);
    break;
  case HPD_K_LASWP:
    dlaswp_(&d[0], c, &swap_rows, &ione, &d[1], o->pivots, &ione);
    break;
  case HPD_KERNELS:
    break;
  }
}

/* Calls per second over one window. */
static double window(hpd_kernel k, const int d[3], operands *o)
{
  double spent = 0;
  long calls = 0;
  for (int batch = 1; spent < MIN_SECONDS; batch = batch < MAX_BATCH ? 2 * batch : batch) {
    int each = refresh(k, d, o);
    for (int i = 0; i < batch; i++) {
      if (each && i > 0)
        refresh(k, d, o);
      double start = now();
      call(k, d, o);
      spent += now() - start;
    }
    calls += batch;
  }
  return calls / spent;
}

static double rate(hpd_kernel k, const double dim[3], operands *o)
{
  int d[3] = {(int)dim[0], (int)dim[1], (int)dim[2]};
  refresh(k, d, o);
  call(k, d, o);
  double best = 0;
  for (int w = 0; w < WINDOWS; w++) {
    double per_second = window(k, d, o);
    best = per_second > best ? per_second : best;
  }
  return hpd_kernel_flops(k, dim) * best;
}

static void cpu_model(char *out, size_t size)
{
  snprintf(out, size, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[256];
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "model name", 10) == 0) {
      const char *colon = strchr(line, ':');
      snprintf(out, size, "%.150s", colon ? colon + 2 : line);
      out[strcspn(out, "\n")] = 0;
      break;
    }
  if (f)
    fclose(f);
}

static const char usage[] = "usage: kernel_rates [--uniform RATE] [FILE]\n"
                            "       kernel_rates --load\n";

/* A neighbour's load: multiplies of order LOAD_ORDER, as a rank's updates are, until the
 * process is killed. */
#define LOAD_ORDER 512
static int load(void)
{
  int n = LOAD_ORDER;
  double one = 1.0, *a = filled((size_t)n * n, 0, 1), *b = filled((size_t)n * n, 0, 1),
         *c = filled((size_t)n * n, 0, 1);
  for (;;)
    dgemm_("N", "N", &n, &n, &n, &one, a, &n, b, &n, &one, c, &n);
  return 0;
}

int main(int argc, char **argv)
{
  double uniform = 0;
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    fputs(usage, stdout);
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "--load") == 0)
    return load();
  if (argc > 2 && strcmp(argv[1], "--uniform") == 0) {
    uniform = atof(argv[2]);
    argc -= 2;
    argv += 2;
    if (!(uniform > 0)) {
      fprintf(stderr, "kernel_rates: --uniform needs a rate above 0\n");
      return 1;
    }
  }
  if (argc > 2 || (argc > 1 && argv[1][0] == '-')) {
    fprintf(stderr, "kernel_rates: unknown argument '%s'\n%s", argv[argc > 2 ? 2 : 1], usage);
    return 2;
  }
  FILE *out = argc > 1 ? fopen(argv[1], "w") : stdout;
  if (!out) {
    perror(argv[1]);
    return 1;
  }
  operands o = {0};
  if (!uniform)
    o = (operands){filled((size_t)SIDE * SIDE, 0, 1), filled((size_t)SIDE * SIDE, 0, 1),
                   filled((size_t)PANEL, 0, 1), filled((size_t)PANEL, 0, 1),
                   filled((size_t)VECTORS, 0, 1), filled((size_t)VECTORS, 0, 1),
                   calloc(SIDE, sizeof(int))};
  char cpu[200] = "none: one rate for every shape (--uniform)";
  if (!uniform)
    cpu_model(cpu, sizeof cpu);
  fprintf(out, "# hpdaemon kernel rates, flops per second of one core (simulated/kernels)\n");
  fprintf(out, "# kernel dimensions... rate\ncpu %s\n", cpu);
  for (int k = 0; k < HPD_KERNELS; k++) {
    int shapes = hpd_kernel_shapes(k);
    if (!uniform)
      fprintf(stderr, "kernel_rates: %s, %d shapes\n", hpd_kernel_table[k].name, shapes);
    for (int s = 0; s < shapes; s++) {
      double dim[HPD_KERNEL_MAX_DIMS];
      hpd_kernel_shape(k, s, dim);
      fprintf(out, "%s", hpd_kernel_table[k].name);
      for (int d = 0; d < hpd_kernel_table[k].dims; d++)
        fprintf(out, " %d", (int)dim[d]);
      fprintf(out, " %.4e\n", uniform ? uniform : rate(k, dim, &o));
    }
  }
  return fclose(out) == 0 ? 0 : 1;
}
