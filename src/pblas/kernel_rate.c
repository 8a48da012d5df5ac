#include "pblas/kernel_rate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/costs.h"
#include "kernel/kernel.h"

/* Past this many rows (columns) a block no longer fits the caches near the core, and the
 * rate of a rank-kb update into it stops changing with that extent (within a tenth, less
 * than a shared core's spread from one run to the next): every longer extent shares one
 * figure, timed at LARGE_ROWS (LARGE_COLS).  A large block is then timed once per process
 * on 4 MiB of scratch, in about 5 ms, not once per octave of each extent. */
#define LARGE_EXTENT 256
#define LARGE_ROWS 512
#define LARGE_COLS 1024
#define OCTAVES 9 /* 1 .. LARGE_EXTENT: the last one holds every longer extent */
#define WIDTHS 65  /* kb 1 .. 64 */
/* Short products are repeated until a timing covers this much, above the clock's
 * resolution and a call's own overhead. */
#define TIMED_S 200e-6
/* Timings of which the best is kept: on a shared machine a core's rate for one shape
 * moves by a tenth from one millisecond to the next, and a figure from three timings,
 * all slow, put the bound above the reference's call (order 1024 on 1x2: 27.5 ms against
 * 23.3). */
#define TIMINGS 7

/* A class is timed again at each of its first TIMED_ASKS requests, and the fastest
 * figure kept: a core busy elsewhere for the whole of one timing would otherwise slow
 * every prediction of the class for the run, and a prediction that is too slow lets the
 * engine settle where it may lose. */
#define TIMED_ASKS 3

_Static_assert(1 << (OCTAVES - 1) == LARGE_EXTENT, "the last octave starts there");

static double kept[OCTAVES][OCTAVES][WIDTHS];
static unsigned char asks[OCTAVES][OCTAVES][WIDTHS];

static int octave(int extent)
{
  int bits = 0;
  frexp((double)extent, &bits);
  return bits - 1 < OCTAVES ? bits - 1 : OCTAVES - 1;
}

/* The best of TIMINGS timings of as many updates as TIMED_S needs; the first, untimed,
 * touches the scratch's pages. */
static double measure(int rows, int cols, int kb)
{
  hpd_elem *a = calloc((size_t)rows * (size_t)kb, sizeof *a);
  hpd_elem *b = calloc((size_t)kb * (size_t)cols, sizeof *b);
  hpd_elem *c = calloc((size_t)rows * (size_t)cols, sizeof *c);
  double best = 0.0;
  if (a && b && c) {
    int reps = 1;
    for (int round = 0; round <= TIMINGS; round++) {
      double start = hpd_now();
      for (int r = 0; r < reps; r++)
        hpd_kernel_gemm('N', 'N', rows, cols, kb, 1.0, a, rows, b, kb, 1.0, c, rows);
      double each = (hpd_now() - start) / reps;
      if (round == 0) {
        reps = each > 0.0 && each < TIMED_S ? (int)ceil(TIMED_S / each) : 1;
        continue;
      }
      if (best == 0.0 || each < best)
        best = each;
    }
  }
  free(a);
  free(b);
  free(c);
  return best / (2.0 * rows * (double)cols * kb);
}

/* The shape a class is timed at, and its slot. */
static void timed_shape(int *rows, int *cols, int *kb, int *r, int *c)
{
  *kb = *kb < WIDTHS ? *kb : WIDTHS - 1;
  *r = octave(*rows), *c = octave(*cols);
  *rows = *rows < LARGE_EXTENT ? *rows : LARGE_ROWS;
  *cols = *cols < LARGE_EXTENT ? *cols : LARGE_COLS;
}

/* Whether the next request of the class of rows x cols x kb would time it, with the
 * shape it would time and the class's slot. */
static int would_time(int *rows, int *cols, int *kb, int *r, int *c)
{
  if (*rows < 1 || *cols < 1 || *kb < 1)
    return 0;
  timed_shape(rows, cols, kb, r, c);
  return asks[*r][*c][*kb] < TIMED_ASKS;
}

double hpd_kernel_timing_s(int rows, int cols, int kb, double s_per_flop)
{
  int r, c;
  if (!would_time(&rows, &cols, &kb, &r, &c))
    return 0.0;
  if (kept[r][c][kb] > 0.0)
    s_per_flop = kept[r][c][kb];
  double product_s = s_per_flop * 2.0 * rows * (double)cols * kb;
  return (TIMINGS + 1) * (product_s > TIMED_S ? product_s : TIMED_S);
}

double hpd_kernel_timing_flops(int rows, int cols, int kb)
{
  int r, c;
  if (!would_time(&rows, &cols, &kb, &r, &c))
    return 0.0;
  return (TIMINGS + 1) * 2.0 * rows * (double)cols * kb;
}

double hpd_kernel_s_per_flop(int rows, int cols, int kb, int may_time)
{
  if (rows < 1 || cols < 1 || kb < 1)
    return 0.0;
  int r, c;
  timed_shape(&rows, &cols, &kb, &r, &c);
  double *figure = &kept[r][c][kb];
  if (may_time && asks[r][c][kb] < TIMED_ASKS) {
    asks[r][c][kb]++;
    double cost = hpd_cost_begin(HPD_COST_TUNING);
    double now = measure(rows, cols, kb);
    hpd_cost_end(HPD_COST_TUNING, cost);
    if (now > 0.0 && (*figure == 0.0 || now < *figure))
      *figure = now;
  }
  return *figure;
}

void hpd_kernel_rate_forget(void)
{
  memset(kept, 0, sizeof kept);
  memset(asks, 0, sizeof asks);
}
