/*
 * Triangular solves of small order, the leaves of every local solve (local.c).  The BLAS's
 * dtrsm is slowest exactly there: measured alone (SkylakeX kernels, one core), 4 to 9
 * GFLOP/s at orders 8 to 32 on 736 rows, where this kernel runs at 24 to 31.
 *
 * Each row of X = alpha B inv(op(A)) (SIDE 'R') depends on its own row of B alone, so the
 * kernel walks down strips of rows and keeps one strip's partial sums of four columns of
 * X in vector registers while it reads the columns already solved.  Columns are taken in
 * the order a right-side solve needs them: first to last where op(A) is upper
 * triangular, last to first where it is lower; their coefficients are laid out once per
 * call in the order the strips read them (pack), so that each strip streams through
 * them.  A left-side solve, inv(op(A)) B, is the same solve of B' against op(A)': B is
 * copied to a strip buffer transposed, solved, and copied back.  A right-side strip is
 * solved in place unless B's columns crowd the first-level cache: where B's leading
 * dimension is a multiple of 512 (LLD 2048 or 4096, as N = 4096 gives on two processes),
 * a strip's columns all fall in the same few sets of the cache, and solved in place
 * Cholesky's 2048 x 16 leaves ran at 7.8 GFLOP/s on a Zen 3 core, against 16 through a
 * buffer (20 at LLD 4100, both ways).  Elsewhere the copy only costs: leaves of 32 on 736
 * rows (LLD 736) ran at 31 GFLOP/s through it, 40 in place.  The sums run in the
 * reference BLAS's order (earlier columns first), and a diagonal is applied as its
 * reciprocal, as the BLAS does on the right.
 *
 * Built three times where the compiler targets x86-64, for AVX-512, for AVX2 with FMA and
 * for the baseline, each with vectors as wide as its registers (small_trsm_kernel.h), and
 * picked once at run time by what the CPU offers.  On a Zen 3 core (AVX2, one core) the
 * AVX2 build runs Cholesky's 4032 x 16 leaves at 20 GFLOP/s and LU's 64 x 2000 row solve
 * at 24, against dtrsm's 15 and 19; built with AVX-512's vectors it ran at 1.4 and 1.6.
 */
#include "level3/small_trsm.h"

#include <stdatomic.h>
#include <stddef.h>

#ifdef HPD_SIMULATED
#include "charge.h"
#endif

typedef struct solve {
  int k, forward;
  hpd_elem alpha;
  const hpd_elem *packed; /* the coefficients in the order a strip reads them (pack) */
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

/* A first-level cache of 64 sets of 64-byte lines, 8 ways: the common x86 one (32 KiB), and
 * the conservative reading of larger ones. */
enum { CACHE_LINE = 64, CACHE_SETS = 64, CACHE_WAYS = 8 };

/* Whether some set would hold more lines of a strip's k columns, ldb apart, than it has
 * ways (the strip starting at a line's start; the strip's bytes given). */
static int columns_crowd(int k, long ldb, long strip_bytes)
{
  int lines[CACHE_SETS] = {0};
  for (long l = 0; l < k; l++) {
    long first = l * ldb * (long)sizeof(hpd_elem);
    for (long line = first / CACHE_LINE; line <= (first + strip_bytes - 1) / CACHE_LINE; line++)
      if (++lines[line % CACHE_SETS] > CACHE_WAYS)
        return 1;
  }
  return 0;
}

#define KERNEL_VLEN 8
#define KERNEL(name) name##_v8
#include "level3/small_trsm_kernel.h"
#undef KERNEL_VLEN
#undef KERNEL
#define KERNEL_VLEN 4
#define KERNEL(name) name##_v4
#include "level3/small_trsm_kernel.h"
#undef KERNEL_VLEN
#undef KERNEL
#define KERNEL_VLEN 2
#define KERNEL(name) name##_v2
#include "level3/small_trsm_kernel.h"
#undef KERNEL_VLEN
#undef KERNEL

#define FLAVOUR(name, width, attributes)                                                   \
  attributes static void name(const solve *s, int left, int m, hpd_elem *b, long ldb)         \
  {                                                                                          \
    solve_all_##width(s, left, m, b, ldb);                                                   \
  }
FLAVOUR(solve_baseline, v2, )

typedef void solve_fn(const solve *, int, int, hpd_elem *, long);

#if defined(__x86_64__) && defined(__GNUC__)
FLAVOUR(solve_avx2, v4, __attribute__((target("avx2,fma"))))
FLAVOUR(solve_avx512, v8, __attribute__((target("avx512f,fma"))))

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

hpd_status hpd_small_trsm_use(int which)
{
  solve_fn *fn = which >= 0 && which < HPD_SMALL_TRSM_BUILDS ? build(which) : NULL;
  if (!fn)
    return HPD_STATUS_INVALID;
  atomic_store_explicit(&chosen, fn, memory_order_relaxed);
  return HPD_OK;
}

/* The coefficients of the solve of X against T = op(A) (SIDE 'R') or op(A)' ('L'), in
 * the order a strip reads them: for each group of four columns (steps), the four
 * coefficients of every column solved before the group, then within the group, column by
 * column, those of the group's earlier columns and the reciprocal of the diagonal (1 where
 * DIAG is 'U'); a last column or three alone: its coefficients, then its reciprocal. */
typedef struct coefficients {
  const hpd_elem *a;
  long lda;
  int read_across; /* T(l, j) is a(j, l), not a(l, j) */
  int unit;
} coefficients;

static hpd_elem coefficient(const coefficients *from, int l, int j)
{
  return from->read_across ? from->a[j + l * from->lda] : from->a[l + j * from->lda];
}

static hpd_elem reciprocal(const coefficients *from, int j)
{
  return from->unit ? 1.0 : 1.0 / from->a[j + j * from->lda];
}

static void pack(const solve *s, const coefficients *from, hpd_elem *p)
{
  int step = 0, lo, hi;
  for (; step + 4 <= s->k; step += 4) {
    int j[4];
    for (int c = 0; c < 4; c++)
      j[c] = column_at(s, step + c);
    solved_before(s, j[0], &lo, &hi);
    for (int l = lo; l < hi; l++)
      for (int c = 0; c < 4; c++)
        *p++ = coefficient(from, l, j[c]);
    for (int c = 0; c < 4; c++) {
      for (int e = 0; e < c; e++)
        *p++ = coefficient(from, j[e], j[c]);
      *p++ = reciprocal(from, j[c]);
    }
  }
  for (; step < s->k; step++) {
    int j = column_at(s, step);
    solved_before(s, j, &lo, &hi);
    for (int l = lo; l < hi; l++)
      *p++ = coefficient(from, l, j);
    *p++ = reciprocal(from, j);
  }
}

void hpd_small_trsm(char side, char uplo, char trans, char diag, int m, int n, hpd_elem alpha,
                    const hpd_elem *a, int lda, hpd_elem *b, int ldb)
{
  int left = side == 'L', k = left ? m : n;
  if (k == 0 || (left ? n : m) == 0)
    return;
#ifdef HPD_SIMULATED
  if (hpd_sim_charging()) { /* measured as this kernel, not as the BLAS's dtrsm */
    hpd_sim_charge(HPD_K_SMALL_TRSM, k, left ? n : m, 1);
    return;
  }
#endif
  coefficients from = {a, lda, (trans == 'N') == left, diag == 'U'};
  /* One coefficient per pair of columns and a reciprocal per column. */
  hpd_elem packed[HPD_SMALL_TRSM_ORDER * (HPD_SMALL_TRSM_ORDER + 1) / 2];
  solve s = {.k = k, .forward = ((uplo == 'U') == (trans == 'N')) != left, .alpha = alpha,
             .packed = packed};
  pack(&s, &from, packed);
  flavour()(&s, left, left ? n : m, b, ldb);
}
