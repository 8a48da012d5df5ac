/*
 * The line's local multiplies that work through the gathered block G while it still
 * travels (src/level3/local.h, hpd_l3_local_update with ready): on one process, for
 * every letter combination of pdtrmm whose in-place order takes G's first columns first
 * (hpd_l3_local_streams) and every one of pdsymm, at an order of several steps and a free
 * dimension of several strips:
 *  - G's columns the update has not asked for yet hold NaN, and the triangle it must
 *    not read holds NaN throughout (the diagonal too where DIAG is 'U'), so a read out
 *    of turn shows in the result;
 *  - the result matches the BLAS's dtrmm or dsymm on the whole block to rounding;
 *  - the update asks for G's columns in increasing order, through the last.
 * Prints "test_local_stream: N passed, N failed".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level3/level3.h"
#include "level3/local.h"
#include "kernel/blas.h"

#define ORDER 600 /* three steps of G's columns */
#define WIDTH 700 /* the free dimension: strips of it between polls */

static int passed, failed;

static void check(int ok, const char *what)
{
  printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  ok ? passed++ : failed++;
}

typedef struct feed {
  const double *whole; /* G as it will be */
  double *g;           /* G as the update sees it */
  int k;
  int64_t given; /* columns [0, given) copied in */
  int in_order;  /* every request asked for no fewer columns than the one before */
} feed;

static void need(void *arg, int64_t columns)
{
  feed *f = arg;
  f->in_order &= columns >= 0 && columns <= f->k;
  if (columns <= f->given)
    return;
  memcpy(f->g + f->given * f->k, f->whole + f->given * f->k,
         (size_t)(columns - f->given) * (size_t)f->k * sizeof *f->g);
  f->given = columns;
}

static double entry(unsigned *seed)
{
  *seed = *seed * 1103515245u + 12345u;
  return (double)((*seed >> 8) % 2001) / 1000.0 - 1.0;
}

/* Whether the entry at (i, j) of G lies outside the triangle the call may read. */
static int unread(char uplo, char diag, int trmm, int i, int j)
{
  if (i == j)
    return trmm && diag == 'U';
  return uplo == 'U' ? i > j : i < j;
}

/* One combination; 1 when it matched. */
static int one(hpd_routine routine, char side, char uplo, char trans, char diag)
{
  int k = ORDER, trmm = routine == HPD_ROUTINE_PDTRMM;
  int m = side == 'L' ? k : WIDTH, n = side == 'L' ? WIDTH : k;
  size_t gsize = (size_t)k * k, bsize = (size_t)m * n;
  double *whole = malloc(gsize * sizeof *whole), *g = malloc(gsize * sizeof *g);
  double *b = malloc(bsize * sizeof *b), *c = malloc(bsize * sizeof *c);
  double *want = malloc(bsize * sizeof *want);
  unsigned seed = 7u + (unsigned)side * 3u + (unsigned)uplo * 5u + (unsigned)trans;
  for (int j = 0; j < k; j++)
    for (int i = 0; i < k; i++)
      whole[i + (size_t)j * k] = unread(uplo, diag, trmm, i, j) ? NAN : entry(&seed);
  for (size_t e = 0; e < gsize; e++)
    g[e] = NAN;
  for (size_t e = 0; e < bsize; e++)
    b[e] = entry(&seed), c[e] = entry(&seed);
  double alpha = 0.75, beta = 0.5;
  /* The BLAS on a copy of G whose unread entries are harmless. */
  double *clean = malloc(gsize * sizeof *clean);
  for (size_t e = 0; e < gsize; e++)
    clean[e] = isnan(whole[e]) ? 0.0 : whole[e];
  if (trmm) {
    memcpy(want, b, bsize * sizeof *want);
    dtrmm_(&side, &uplo, &trans, &diag, &m, &n, &alpha, clean, &k, want, &m);
  } else {
    memcpy(want, c, bsize * sizeof *want);
    dsymm_(&side, &uplo, &m, &n, &alpha, clean, &k, b, &m, &beta, want, &m);
  }
  hpd_l3 l3 = {.routine = routine, .side = side, .diag = diag};
  l3.call.uplo = uplo;
  l3.call.transa = trans;
  feed f = {whole, g, k, 0, 1};
  hpd_l3_ready ready = {need, &f};
  hpd_l3_local_update(&l3, g, k, 1, m, n, alpha, beta, b, m, c, m, &ready);
  const double *got = trmm ? b : c;
  double worst = 0.0;
  for (size_t e = 0; e < bsize; e++) {
    double d = fabs(got[e] - want[e]) / (1.0 + fabs(want[e]));
    worst = isnan(d) || d > worst ? (isnan(d) ? INFINITY : d) : worst;
  }
  int ok = worst <= 1e-12 && f.in_order && f.given == k;
  if (!ok)
    printf("  %s %c%c%c%c: worst %.3g, columns asked in order %d, through %lld of %d\n",
           trmm ? "trmm" : "symm", side, uplo, trans, diag, worst, f.in_order,
           (long long)f.given, k);
  free(whole), free(g), free(b), free(c), free(want), free(clean);
  return ok;
}

int main(void)
{
  static const char sides[] = "LR", uplos[] = "UL", transes[] = "NT", diags[] = "NU";
  int trmm_cases = 0, trmm_ok = 0, symm_ok = 0;
  for (int s = 0; s < 2; s++)
    for (int u = 0; u < 2; u++) {
      for (int t = 0; t < 2; t++)
        for (int d = 0; d < 2; d++) {
          hpd_l3 l3 = {.routine = HPD_ROUTINE_PDTRMM, .side = sides[s], .diag = diags[d]};
          l3.call.uplo = uplos[u];
          l3.call.transa = transes[t];
          if (!hpd_l3_local_streams(&l3, 1))
            continue;
          trmm_cases++;
          trmm_ok += one(HPD_ROUTINE_PDTRMM, sides[s], uplos[u], transes[t], diags[d]);
        }
      symm_ok += one(HPD_ROUTINE_PDSYMM, sides[s], uplos[u], 'N', 'N');
    }
  check(trmm_cases == 8, "half of pdtrmm's 16 letter combinations stream");
  check(trmm_ok == trmm_cases,
        "pdtrmm through G's columns as they come: the BLAS's result, columns asked in order");
  check(symm_ok == 4,
        "pdsymm through G's columns as they come: the BLAS's result, columns asked in order");
  printf("test_local_stream: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
