/*
 * The local triangular solve (src/level3/local.c) and its small-order kernel
 * (small_trsm.c) give X exactly, for every SIDE, UPLO, TRANS and DIAG, on orders around
 * the kernel's strips and the solve's halvings, and for right-side strips both in place
 * and through the copy that crowded columns take: op(A) holds -1, 0 or 1 off its diagonal
 * and a power of two on it, X small integers, and B = op(A) X / alpha (or X op(A) /
 * alpha) is then exact, as is every partial sum of the solve in any order.  The other
 * triangle of A, the unit diagonal where DIAG is 'U', and the rows of B's leading
 * dimension beyond M hold NaN or a sentinel that must not be read or written.  Each build
 * of the kernel this CPU runs (AVX-512, AVX2, baseline) goes through the whole sweep.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "level3/local.h"
#include "level3/small_trsm.h"

#define SENTINEL 12345.0
#define CROWDED_LDB 512

static uint64_t state = 88172645463325252u;

static int draw(int n)
{
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return (int)(state % (uint64_t)n);
}

typedef struct problem {
  char side, uplo, trans, diag;
  int m, n, k, lda, ldb;
  int crowded; /* B's columns 4 KiB apart, so that a right-side strip goes through a copy */
  double alpha;
  double *a, *x, *b;
} problem;

static int in_triangle(const problem *p, int i, int j)
{
  return p->uplo == 'U' ? i <= j : i >= j;
}

/* op(A)(i, j) as the solve must read it: 1 on a unit diagonal, 0 off the triangle. */
static double op_entry(const problem *p, int i, int j)
{
  if (i == j && p->diag == 'U')
    return 1.0;
  int si = p->trans == 'N' ? i : j, sj = p->trans == 'N' ? j : i;
  return in_triangle(p, si, sj) ? p->a[si + (long)sj * p->lda] : 0.0;
}

static void make(problem *p)
{
  static const double powers[] = {1.0, 2.0, 4.0, 0.5};
  p->k = p->side == 'L' ? p->m : p->n;
  p->lda = p->k + 2;
  p->ldb = p->crowded ? CROWDED_LDB : p->m + 3;
  p->a = malloc((size_t)p->lda * (size_t)p->k * sizeof *p->a);
  p->x = malloc((size_t)p->m * (size_t)p->n * sizeof *p->x);
  p->b = malloc((size_t)p->ldb * (size_t)p->n * sizeof *p->b);
  for (int j = 0; j < p->k; j++)
    for (int i = 0; i < p->lda; i++) {
      double v = NAN;
      if (i < p->k && i == j)
        v = p->diag == 'U' ? NAN : powers[draw(4)];
      else if (i < p->k && in_triangle(p, i, j))
        v = draw(3) - 1;
      p->a[i + (long)j * p->lda] = v;
    }
  for (int j = 0; j < p->n; j++)
    for (int i = 0; i < p->m; i++)
      p->x[i + (long)j * p->m] = draw(7) - 3;
  for (int j = 0; j < p->n; j++)
    for (int i = 0; i < p->ldb; i++) {
      double sum = SENTINEL;
      if (i < p->m) {
        sum = 0.0;
        for (int l = 0; l < p->k; l++)
          sum += p->side == 'L' ? op_entry(p, i, l) * p->x[l + (long)j * p->m]
                                : p->x[i + (long)l * p->m] * op_entry(p, l, j);
        sum /= p->alpha;
      }
      p->b[i + (long)j * p->ldb] = sum;
    }
}

static int solved(const problem *p)
{
  for (int j = 0; j < p->n; j++)
    for (int i = 0; i < p->ldb; i++) {
      double want = i < p->m ? p->x[i + (long)j * p->m] : SENTINEL;
      if (p->b[i + (long)j * p->ldb] != want)
        return 0;
    }
  return 1;
}

static void run(char side, char uplo, char trans, char diag, int m, int n, double alpha,
                int kernel, int crowded)
{
  problem p = {side, uplo, trans, diag, m, n, 0, 0, 0, crowded, alpha, NULL, NULL, NULL};
  make(&p);
  if (kernel)
    hpd_small_trsm(side, uplo, trans, diag, m, n, alpha, p.a, p.lda, p.b, p.ldb);
  else
    hpd_l3_local_trsm(side, uplo, trans, diag, m, n, alpha, p.a, p.lda, p.b, p.ldb);
  int ok = solved(&p);
  CHECK(ok);
  if (!ok)
    fprintf(stderr, "  %s SIDE %c UPLO %c TRANS %c DIAG %c, %d x %d, LDB %d, alpha %g\n",
            kernel ? "kernel" : "local solve", side, uplo, trans, diag, m, n, p.ldb, alpha);
  free(p.a), free(p.x), free(p.b);
}

/* Every letter combination on the orders around the kernel's strips and the halvings. */
static void sweep(void)
{
  static const int orders[] = {1, 2, 3, 7, 8, 9, 16, 31, 32, 33, 63, 64};
  static const int others[] = {1, 5, 8, 13, 16, 17, 32, 33, 40, 71, 100};
  static const int large[] = {65, 97, 130, 200};
  static const double alphas[] = {1.0, -2.0, 0.5};
  const char *sides = "LR", *uplos = "UL", *transes = "NT", *diags = "NU";
  for (int c = 0; c < 16; c++) {
    char side = sides[c & 1], uplo = uplos[c >> 1 & 1], trans = transes[c >> 2 & 1];
    char diag = diags[c >> 3 & 1];
    for (size_t o = 0; o < sizeof orders / sizeof *orders; o++)
      for (size_t w = 0; w < sizeof others / sizeof *others; w++) {
        int k = orders[o], other = others[w];
        double alpha = alphas[(o + w) % 3];
        int m = side == 'L' ? k : other, n = side == 'L' ? other : k;
        run(side, uplo, trans, diag, m, n, alpha, 1, 0);
        run(side, uplo, trans, diag, m, n, alpha, 0, 0);
        if (side == 'R')
          run(side, uplo, trans, diag, m, n, alpha, 1, 1);
      }
    for (size_t o = 0; o < sizeof large / sizeof *large; o++) {
      int k = large[o], other = others[o * 2 + 1];
      run(side, uplo, trans, diag, side == 'L' ? k : other, side == 'L' ? other : k,
          alphas[o % 3], 0, 0);
    }
  }
}

int main(void)
{
  int builds = 0;
  for (int which = 0; which < HPD_SMALL_TRSM_BUILDS; which++)
    if (hpd_small_trsm_use(which) == HPD_OK) {
      builds++;
      sweep();
    }
  /* The baseline build runs everywhere. */
  CHECK(builds >= 1);
  printf("small_trsm: %d builds of the kernel; %d checks, %d failed\n", builds,
         passed + failed, failed);
  return failed != 0;
}
