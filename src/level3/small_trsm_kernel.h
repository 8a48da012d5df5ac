/*
 * The small-order kernel's body for one vector width, included by small_trsm.c once per
 * width with KERNEL_VLEN (doubles per vector) and KERNEL(name) (the width's own names)
 * defined.  A strip is four vectors of rows, so that its partial sums of two columns,
 * eight vectors, and the four loads that feed them fit the registers of the build that
 * uses the width: 32 rows for AVX-512, 16 for AVX2, 8 for the baseline's SSE2.  A wider
 * vector than the build's registers is split by the compiler through memory, and runs
 * several times slower than the BLAS.
 */

#define KSTRIP (4 * KERNEL_VLEN)

typedef double KERNEL(vec) __attribute__((vector_size(KERNEL_VLEN * sizeof(double))));
typedef double KERNEL(vec_unaligned)
    __attribute__((vector_size(KERNEL_VLEN * sizeof(double)), aligned(8), may_alias));
#define KLOAD(p) (*(const KERNEL(vec_unaligned) *)(p))
#define KSTORE(p, v) (*(KERNEL(vec_unaligned) *)(p) = (v))
#define V1 KERNEL_VLEN
#define V2 (2 * KERNEL_VLEN)
#define V3 (3 * KERNEL_VLEN)

/* A strip of KSTRIP rows, two columns at a time. */
static inline __attribute__((always_inline)) void KERNEL(strip)(const solve *s, double *b,
                                                                 long ldb)
{
  typedef KERNEL(vec) vec;
  int step = 0;
  for (; step + 2 <= s->k; step += 2) {
    int j = column_at(s, step), j2 = column_at(s, step + 1), lo, hi;
    double *bj = b + j * ldb, *bj2 = b + j2 * ldb;
    vec x0 = KLOAD(bj) * s->alpha, x1 = KLOAD(bj + V1) * s->alpha;
    vec x2 = KLOAD(bj + V2) * s->alpha, x3 = KLOAD(bj + V3) * s->alpha;
    vec y0 = KLOAD(bj2) * s->alpha, y1 = KLOAD(bj2 + V1) * s->alpha;
    vec y2 = KLOAD(bj2 + V2) * s->alpha, y3 = KLOAD(bj2 + V3) * s->alpha;
    solved_before(s, j, &lo, &hi);
    for (int l = lo; l < hi; l++) {
      const double *bl = b + l * ldb;
      double u = s->t[l * s->k + j], w = s->t[l * s->k + j2];
      vec z0 = KLOAD(bl), z1 = KLOAD(bl + V1), z2 = KLOAD(bl + V2), z3 = KLOAD(bl + V3);
      x0 -= u * z0, x1 -= u * z1, x2 -= u * z2, x3 -= u * z3;
      y0 -= w * z0, y1 -= w * z1, y2 -= w * z2, y3 -= w * z3;
    }
    double rj = s->r[j], w = s->t[j * s->k + j2], rj2 = s->r[j2];
    x0 *= rj, x1 *= rj, x2 *= rj, x3 *= rj;
    KSTORE(bj, x0), KSTORE(bj + V1, x1), KSTORE(bj + V2, x2), KSTORE(bj + V3, x3);
    y0 -= w * x0, y1 -= w * x1, y2 -= w * x2, y3 -= w * x3;
    KSTORE(bj2, y0 * rj2), KSTORE(bj2 + V1, y1 * rj2);
    KSTORE(bj2 + V2, y2 * rj2), KSTORE(bj2 + V3, y3 * rj2);
  }
  if (step < s->k) {
    int j = column_at(s, step), lo, hi;
    double *bj = b + j * ldb;
    vec x0 = KLOAD(bj) * s->alpha, x1 = KLOAD(bj + V1) * s->alpha;
    vec x2 = KLOAD(bj + V2) * s->alpha, x3 = KLOAD(bj + V3) * s->alpha;
    solved_before(s, j, &lo, &hi);
    for (int l = lo; l < hi; l++) {
      const double *bl = b + l * ldb;
      double u = s->t[l * s->k + j];
      x0 -= u * KLOAD(bl), x1 -= u * KLOAD(bl + V1), x2 -= u * KLOAD(bl + V2);
      x3 -= u * KLOAD(bl + V3);
    }
    double rj = s->r[j];
    KSTORE(bj, x0 * rj), KSTORE(bj + V1, x1 * rj), KSTORE(bj + V2, x2 * rj);
    KSTORE(bj + V3, x3 * rj);
  }
}

/* Fewer rows than a strip: a vector at a time, then one. */
static inline __attribute__((always_inline)) void KERNEL(rows_left)(const solve *s, double *b,
                                                                     long ldb, int m)
{
  typedef KERNEL(vec) vec;
  int i = 0;
  for (; i + V1 <= m; i += V1) {
    for (int step = 0; step < s->k; step++) {
      int j = column_at(s, step), lo, hi;
      vec x = KLOAD(b + i + j * ldb) * s->alpha;
      solved_before(s, j, &lo, &hi);
      for (int l = lo; l < hi; l++)
        x -= s->t[l * s->k + j] * KLOAD(b + i + l * ldb);
      KSTORE(b + i + j * ldb, x * s->r[j]);
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

/* The right-side solve of m rows of b, a strip at a time through a copy (so that its
 * columns never share the first-level cache's sets, whatever ldb is); the left side gives
 * its columns as rows, through a transposed copy of at most KSTRIP of them at a time. */
static inline __attribute__((always_inline)) void KERNEL(solve_all)(const solve *s, int left,
                                                                     int m, double *b, long ldb)
{
  double copy[KSTRIP * HPD_SMALL_TRSM_ORDER];
  if (!left) {
    int i = 0;
    for (; i + KSTRIP <= m; i += KSTRIP) {
      double *rows = b + i;
      for (int l = 0; l < s->k; l++)
        for (int e = 0; e < KSTRIP; e++)
          copy[e + l * KSTRIP] = rows[e + l * ldb];
      KERNEL(strip)(s, copy, KSTRIP);
      for (int l = 0; l < s->k; l++)
        for (int e = 0; e < KSTRIP; e++)
          rows[e + l * ldb] = copy[e + l * KSTRIP];
    }
    KERNEL(rows_left)(s, b + i, ldb, m - i);
    return;
  }
  for (int c = 0; c < m; c += KSTRIP) {
    int width = m - c < KSTRIP ? m - c : KSTRIP;
    double *col = b + c * ldb;
    for (int w = 0; w < width; w++)
      for (int l = 0; l < s->k; l++)
        copy[w + l * KSTRIP] = col[l + w * ldb];
    if (width == KSTRIP)
      KERNEL(strip)(s, copy, KSTRIP);
    else
      KERNEL(rows_left)(s, copy, KSTRIP, width);
    for (int w = 0; w < width; w++)
      for (int l = 0; l < s->k; l++)
        col[l + w * ldb] = copy[w + l * KSTRIP];
  }
}

#undef KSTRIP
#undef KLOAD
#undef KSTORE
#undef V1
#undef V2
#undef V3
