#include "pblas/kernel_rate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "pblas/scalapack_api.h"

/* Beyond this many rows or columns a block no longer fits any cache, and the rate of a
 * rank-kb update stops changing with its size: measuring at the clip keeps the scratch
 * at 8 MiB and the measurement near 15 ms, once per process. */
#define KERNEL_RATE_CLIP 1024
#define OCTAVES 12 /* 1 .. KERNEL_RATE_CLIP */
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

static double kept[OCTAVES][OCTAVES][WIDTHS];
static unsigned char asks[OCTAVES][OCTAVES][WIDTHS];

static int octave(int extent)
{
  int bits = 0;
  frexp((double)extent, &bits);
  return bits - 1 < OCTAVES ? bits - 1 : OCTAVES - 1;
}

static int clip(int extent)
{
  return extent < KERNEL_RATE_CLIP ? extent : KERNEL_RATE_CLIP;
}

/* The best of TIMINGS timings of as many updates as TIMED_S needs; the first, untimed,
 * touches the scratch's pages. */
static double measure(int rows, int cols, int kb)
{
  double *a = calloc((size_t)rows * (size_t)kb, sizeof *a);
  double *b = calloc((size_t)kb * (size_t)cols, sizeof *b);
  double *c = calloc((size_t)rows * (size_t)cols, sizeof *c);
  double best = 0.0;
  if (a && b && c) {
    const double one = 1.0;
    int reps = 1;
    for (int round = 0; round <= TIMINGS; round++) {
      double start = hpd_now();
      for (int r = 0; r < reps; r++)
        dgemm_("N", "N", &rows, &cols, &kb, &one, a, &rows, b, &kb, &one, c, &rows);
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

double hpd_kernel_s_per_flop(int rows, int cols, int kb)
{
  if (rows < 1 || cols < 1 || kb < 1)
    return 0.0;
  kb = kb < WIDTHS ? kb : WIDTHS - 1;
  int r = octave(rows), c = octave(cols);
  double *figure = &kept[r][c][kb];
  if (asks[r][c][kb] < TIMED_ASKS) {
    asks[r][c][kb]++;
    double now = measure(clip(rows), clip(cols), kb);
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
