/*
 * A local update cut into strips of columns with a poll between them (the overlap
 * schedule, src/local/triangle.c) writes what the update in one pass writes, on the
 * whole share and on either triangle of pdsyrk's shares, and polls once between every
 * two strips; the update made in parts of rows or of columns, each from its own packed
 * rows of a or b (the overlap schedule's pieces), writes the same.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pblas/poll.h"
#include "local/triangle.h"

static int failed, checked;

static void count_poll(void *arg)
{
  ++*(int *)arg;
}

static double fill(int64_t i, int salt)
{
  return sin(0.37 * (double)i + salt) + 0.25;
}

/* One process (myrow, mycol) of a grid with nb x nb blocks: its share of an n x n sub(C)
 * updated by a (mloc x w) times b (nloc x w) transposed, in one pass and in strips.  As
 * in pdsyrk, a and b hold the rows of one n x w matrix that the share's rows and columns
 * index, which lets a triangle's diagonal blocks go through dsyrk. */
static void check(char uplo, int nb, int nprocs, int myrow, int mycol, int64_t n, int w)
{
  hpd_triangle t = {.uplo = uplo, .rows = {nb, nb, 0, nprocs}, .cols = {nb, nb, 0, nprocs},
                    .myrow = myrow, .mycol = mycol, .m = n, .n = n, .b_is_a = 1};
  int mloc = (int)hpd_axis_count(&t.rows, n, myrow);
  int nloc = (int)hpd_axis_count(&t.cols, n, mycol);
  size_t clen = (size_t)mloc * (size_t)nloc;
  double *a = malloc((size_t)mloc * (size_t)w * sizeof *a);
  double *b = malloc((size_t)nloc * (size_t)w * sizeof *b);
  double *whole = malloc(clen * sizeof *whole), *strips = malloc(clen * sizeof *strips);
  for (int k = 0; k < w; k++) {
    for (int i = 0; i < mloc; i++)
      a[i + (int64_t)k * mloc] = fill(hpd_axis_global(&t.rows, i, myrow) * w + k, 1);
    for (int j = 0; j < nloc; j++)
      b[j + (int64_t)k * nloc] = fill(hpd_axis_global(&t.cols, j, mycol) * w + k, 1);
  }
  for (size_t i = 0; i < clen; i++)
    whole[i] = strips[i] = fill((int64_t)i, 3);

  int polls = 0;
  /* One operation between polls: the narrowest strips. */
  hpd_progress progress = {count_poll, &polls, 1.0};
  hpd_triangle_update(&t, 'N', 'T', w, 1.5, a, mloc, b, nloc, NULL, whole, mloc, mloc, nloc,
                      NULL);
  hpd_triangle_update(&t, 'N', 'T', w, 1.5, a, mloc, b, nloc, NULL, strips, mloc, mloc,
                      nloc, &progress);
  double worst = 0, scale = 0;
  for (size_t i = 0; i < clen; i++) {
    worst = fmax(worst, fabs(whole[i] - strips[i]));
    scale = fmax(scale, fabs(whole[i]));
  }
  int want_polls =
      nloc > 0 && mloc > 0 ? (nloc + HPD_POLL_MIN_STRIP - 1) / HPD_POLL_MIN_STRIP - 1 : 0;
  checked++;
  if (worst > 1e-14 * scale || polls != want_polls) {
    failed++;
    printf("FAIL: uplo %c nb %d grid %d process (%d,%d) n %lld: difference %.3g, %d polls "
           "(expected %d)\n",
           uplo ? uplo : '-', nb, nprocs, myrow, mycol, (long long)n, worst, polls,
           want_polls);
  }
  /* The same update in parts, as pieces of the overlap schedule make it: three bands of
   * rows, each from a packed copy of a's rows, then three of columns from copies of b's. */
  for (int by_rows = 0; by_rows < 2; by_rows++) {
    for (size_t i = 0; i < clen; i++)
      strips[i] = fill((int64_t)i, 3);
    int64_t extent = by_rows ? mloc : nloc, ld = extent;
    const double *src = by_rows ? a : b;
    for (int p = 0; p < 3; p++) {
      int64_t lo = extent * p / 3, hi = extent * (p + 1) / 3, len = hi - lo;
      if (len == 0)
        continue;
      double *piece = malloc((size_t)(len * w) * sizeof *piece);
      for (int k = 0; k < w; k++)
        for (int64_t i = 0; i < len; i++)
          piece[i + k * len] = src[lo + i + k * ld];
      hpd_share_part part = by_rows ? (hpd_share_part){lo, hi, 0, nloc}
                                    : (hpd_share_part){0, mloc, lo, hi};
      hpd_triangle_update_part(&t, 'N', 'T', w, 1.5, by_rows ? piece : a,
                               by_rows ? (int)len : mloc, by_rows ? b : piece,
                               by_rows ? nloc : (int)len, NULL, strips, mloc, mloc, nloc,
                               &part, NULL);
      free(piece);
    }
    worst = 0;
    for (size_t i = 0; i < clen; i++)
      worst = fmax(worst, fabs(whole[i] - strips[i]));
    checked++;
    if (worst > 1e-14 * scale) {
      failed++;
      printf("FAIL: parts by %s, uplo %c nb %d grid %d process (%d,%d) n %lld: difference "
             "%.3g\n", by_rows ? "rows" : "columns", uplo ? uplo : '-', nb, nprocs, myrow,
             mycol, (long long)n, worst);
    }
  }
  free(a), free(b), free(whole), free(strips);
}

int main(void)
{
  static const char uplos[] = {0, 'U', 'L'};
  static const int nbs[] = {7, 32, 100};
  for (int u = 0; u < 3; u++)
    for (int k = 0; k < 3; k++)
      for (int nprocs = 1; nprocs <= 2; nprocs++)
        for (int r = 0; r < nprocs; r++)
          for (int c = 0; c < nprocs; c++) {
            check(uplos[u], nbs[k], nprocs, r, c, 1333, 16);
            check(uplos[u], nbs[k], nprocs, r, c, 60, 5);
          }
  printf("strips: %d checks, %d failed\n", checked, failed);
  return failed != 0;
}
