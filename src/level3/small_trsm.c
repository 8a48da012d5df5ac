/*
 * Triangular solves of small order, the leaves of every local solve (local.c).  The BLAS's
 * dtrsm is slowest exactly there: measured alone (SkylakeX kernels, one core), 4 to 9
 * GFLOP/s at orders 8 to 32 on 736 rows, where this kernel runs at 24 to 31.
 *
 * Each row of X = alpha B inv(op(A)) (SIDE 'R') depends on its own row of B alone, so the
 * kernel walks down strips of rows and keeps one strip's partial sums of two columns of X
 * in vector registers while it reads the columns already solved.  Columns are taken in
 * the order a right-side solve needs them: first to last where op(A) is upper
 * triangular, last to first where it is lower.  A left-side solve, inv(op(A)) B, is the
 * same solve of B' against op(A)': B is copied to a strip buffer transposed, solved, and
 * copied back.  The sums run in the reference BLAS's order (earlier columns first), and a
 * diagonal is applied as its reciprocal, as the BLAS does on the right.
 *
 * Built three times where the compiler targets x86-64, for AVX-512, for AVX2 with FMA and
 * for the baseline, and picked once at run time by what the CPU offers.
 */
#include "small_trsm.h"

#include <stdatomic.h>
#include <stddef.h>

enum { STRIP = 32 };

typedef double vec8 __attribute__((vector_size(64)));
typedef double vec8_unaligned __attribute__((vector_size(64), aligned(8), may_alias));
#define LOAD(p) (*(const vec8_unaligned *)(p))
#define STORE(p, v) (*(vec8_unaligned *)(p) = (v))

typedef struct solve {
  int k, forward;
  double alpha;
  const double *t; /* t[l * k + j]: the coefficient of column l of X in column j */
  const double *r; /* r[j]: 1 / the diagonal, or 1 */
} solve;

static inline __attribute__((always_inline)) int column_at(const solve *s, int step)
{
  return s->forward ? step : s->k - 1 - step;
}

/* The columns solved before column j: [*lo, *hi). */
static inline __attribute__((always_inline)) void solved_before(const solve *s, int j, int *lo,
                                                                 int *hi)
{
  *lo = s->forward ? 0 : j + 1;
  *hi = s->forward ? j : s->k;
}

/* A strip of STRIP rows, two columns at a time. */
static inline __attribute__((always_inline)) void strip(const solve *s, double *b, long ldb)
{
  int step = 0;
  for (; step + 2 <= s->k; step += 2) {
    int j = column_at(s, step), j2 = column_at(s, step + 1), lo, hi;
    double *bj = b + j * ldb, *bj2 = b + j2 * ldb;
    vec8 x0 = LOAD(bj) * s->alpha, x1 = LOAD(bj + 8) * s->alpha;
    vec8 x2 = LOAD(bj + 16) * s->alpha, x3 = LOAD(bj + 24) * s->alpha;
    vec8 y0 = LOAD(bj2) * s->alpha, y1 = LOAD(bj2 + 8) * s->alpha;
    vec8 y2 = LOAD(bj2 + 16) * s->alpha, y3 = LOAD(bj2 + 24) * s->alpha;
    solved_before(s, j, &lo, &hi);
    for (int l = lo; l < hi; l++) {
      const double *bl = b + l * ldb;
      double u = s->t[l * s->k + j], w = s->t[l * s->k + j2];
      vec8 z0 = LOAD(bl), z1 = LOAD(bl + 8), z2 = LOAD(bl + 16), z3 = LOAD(bl + 24);
      x0 -= u * z0, x1 -= u * z1, x2 -= u * z2, x3 -= u * z3;
      y0 -= w * z0, y1 -= w * z1, y2 -= w * z2, y3 -= w * z3;
    }
    double rj = s->r[j], w = s->t[j * s->k + j2], rj2 = s->r[j2];
    x0 *= rj, x1 *= rj, x2 *= rj, x3 *= rj;
    STORE(bj, x0), STORE(bj + 8, x1), STORE(bj + 16, x2), STORE(bj + 24, x3);
    y0 -= w * x0, y1 -= w * x1, y2 -= w * x2, y3 -= w * x3;
    STORE(bj2, y0 * rj2), STORE(bj2 + 8, y1 * rj2);
    STORE(bj2 + 16, y2 * rj2), STORE(bj2 + 24, y3 * rj2);
  }
  if (step < s->k) {
    int j = column_at(s, step), lo, hi;
    double *bj = b + j * ldb;
    vec8 x0 = LOAD(bj) * s->alpha, x1 = LOAD(bj + 8) * s->alpha;
    vec8 x2 = LOAD(bj + 16) * s->alpha, x3 = LOAD(bj + 24) * s->alpha;
    solved_before(s, j, &lo, &hi);
    for (int l = lo; l < hi; l++) {
      const double *bl = b + l * ldb;
      double u = s->t[l * s->k + j];
      x0 -= u * LOAD(bl), x1 -= u * LOAD(bl + 8), x2 -= u * LOAD(bl + 16);
      x3 -= u * LOAD(bl + 24);
    }
    double rj = s->r[j];
    STORE(bj, x0 * rj), STORE(bj + 8, x1 * rj), STORE(bj + 16, x2 * rj);
    STORE(bj + 24, x3 * rj);
  }
}

/* Fewer rows than a strip: eight at a time, then one. */
static inline __attribute__((always_inline)) void rows_left(const solve *s, double *b, long ldb,
                                                              int m)
{
  int i = 0;
  for (; i + 8 <= m; i += 8) {
    for (int step = 0; step < s->k; step++) {
      int j = column_at(s, step), lo, hi;
      vec8 x = LOAD(b + i + j * ldb) * s->alpha;
      solved_before(s, j, &lo, &hi);
      for (int l = lo; l < hi; l++)
        x -= s->t[l * s->k + j] * LOAD(b + i + l * ldb);
      STORE(b + i + j * ldb, x * s->r[j]);
    }
  }
  for (; i < m; i++) {
    for (int step = 0; step < s->k; step++) {
      int j = column_at(s, step), lo, hi;
      double x = b[i + j * ldb] * s->alpha;
      solved_before(s, j, &lo, &hi);
      for (int l = lo; l < hi; l++)
        x -= s->t[l * s->k + j] * b[i + l * ldb];
      b[i + j * ldb] = x * s->r[j];
    }
  }
}

/* The right-side solve of m rows of b; the left side gives its columns as rows, through
 * a transposed copy of at most STRIP of them at a time. */
static inline __attribute__((always_inline)) void solve_all(const solve *s, int left, int m,
                                                              double *b, long ldb)
{
  if (!left) {
    int i = 0;
    for (; i + STRIP <= m; i += STRIP)
      strip(s, b + i, ldb);
    rows_left(s, b + i, ldb, m - i);
    return;
  }
  double copy[STRIP * HPD_SMALL_TRSM_ORDER];
  for (int c = 0; c < m; c += STRIP) {
    int width = m - c < STRIP ? m - c : STRIP;
    double *col = b + c * ldb;
    for (int w = 0; w < width; w++)
      for (int l = 0; l < s->k; l++)
        copy[w + l * STRIP] = col[l + w * ldb];
    if (width == STRIP)
      strip(s, copy, STRIP);
    else
      rows_left(s, copy, STRIP, width);
    for (int w = 0; w < width; w++)
      for (int l = 0; l < s->k; l++)
        col[l + w * ldb] = copy[w + l * STRIP];
  }
}

#define FLAVOUR(name, attributes)                                                          \
  attributes static void name(const solve *s, int left, int m, double *b, long ldb)         \
  {                                                                                          \
    solve_all(s, left, m, b, ldb);                                                           \
  }
FLAVOUR(solve_baseline, )

typedef void solve_fn(const solve *, int, int, double *, long);

#if defined(__x86_64__) && defined(__GNUC__)
FLAVOUR(solve_avx2, __attribute__((target("avx2,fma"))))
FLAVOUR(solve_avx512, __attribute__((target("avx512f,fma"))))

static solve_fn *build(int which)
{
  __builtin_cpu_init();
  if (which == HPD_SMALL_TRSM_AVX512)
    return __builtin_cpu_supports("avx512f") ? solve_avx512 : NULL;
  if (which == HPD_SMALL_TRSM_AVX2)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? solve_avx2 : NULL;
  return solve_baseline;
}
#else
static solve_fn *build(int which)
{
  return which == HPD_SMALL_TRSM_BASELINE ? solve_baseline : NULL;
}
#endif

static _Atomic(solve_fn *) chosen;

static solve_fn *flavour(void)
{
  solve_fn *fn = atomic_load_explicit(&chosen, memory_order_relaxed);
  for (int which = 0; !fn; which++)
    fn = build(which);
  atomic_store_explicit(&chosen, fn, memory_order_relaxed);
  return fn;
}

int hpd_small_trsm_use(int which)
{
  solve_fn *fn = which >= 0 && which < HPD_SMALL_TRSM_BUILDS ? build(which) : NULL;
  if (!fn)
    return -1;
  atomic_store_explicit(&chosen, fn, memory_order_relaxed);
  return 0;
}

void hpd_small_trsm(char side, char uplo, char trans, char diag, int m, int n, double alpha,
                    const double *a, int lda, double *b, int ldb)
{
  int left = side == 'L', k = left ? m : n;
  if (k == 0 || (left ? n : m) == 0)
    return;
  /* The solve is of X against T = op(A) on the right, op(A)' on the left. */
  int read_across = (trans == 'N') == left;
  int forward = ((uplo == 'U') == (trans == 'N')) != left;
  double t[HPD_SMALL_TRSM_ORDER * HPD_SMALL_TRSM_ORDER], r[HPD_SMALL_TRSM_ORDER];
  for (int j = 0; j < k; j++) {
    int lo = forward ? 0 : j + 1, hi = forward ? j : k;
    for (int l = lo; l < hi; l++)
      t[l * k + j] = read_across ? a[j + (long)l * lda] : a[l + (long)j * lda];
    r[j] = diag == 'U' ? 1.0 : 1.0 / a[j + (long)j * lda];
  }
  solve s = {.k = k, .forward = forward, .alpha = alpha, .t = t, .r = r};
  flavour()(&s, left, left ? n : m, b, ldb);
}
