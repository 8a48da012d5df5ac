/*
 * The small-order kernel's body for one vector width, included by small_trsm.c once per
 * width with KERNEL_VLEN (doubles per vector) and KERNEL(name) (the width's own names)
 * defined.  A strip is three vectors of rows, so that its partial sums of four columns,
 * twelve vectors, and the three loads that feed them fit the sixteen registers of the
 * AVX2 and SSE2 builds that use the width: 24 rows for AVX-512, 12 for AVX2, 6 for the
 * baseline's SSE2.  Two columns of four vectors, the strip before, needed ten loads for
 * eight multiply-adds and ran leaves of 32 columns at 27 GFLOP/s on a Zen 3 core, 31
 * now.  A wider vector than the build's registers is split by the compiler through
 * memory, and runs several times slower than the BLAS.
 */

#define KSTRIP (3 * KERNEL_VLEN)

typedef double KERNEL(vec) __attribute__((vector_size(KERNEL_VLEN * sizeof(double))));
typedef double KERNEL(vec_unaligned)
    __attribute__((vector_size(KERNEL_VLEN * sizeof(double)), aligned(8), may_alias));
#define KLOAD(p) (*(const KERNEL(vec_unaligned) *)(p))
#define KSTORE(p, v) (*(KERNEL(vec_unaligned) *)(p) = (v))
#define V1 KERNEL_VLEN
#define V2 (2 * KERNEL_VLEN)

/* The partial sums of four columns of X over a strip of rows (twelve vectors), taken
 * from the columns already solved: one column's three loads feed twelve fused
 * multiply-adds. */
#define KERNEL_FOUR(c) vec c##0, c##1, c##2
#define KERNEL_START(c, col) c##0 = KLOAD(col) * alpha, c##1 = KLOAD(col + V1) * alpha, \
                             c##2 = KLOAD(col + V2) * alpha
#define KERNEL_TAKE(c, u, z) c##0 -= (u) * z##0, c##1 -= (u) * z##1, c##2 -= (u) * z##2
#define KERNEL_END(c, col, r) c##0 *= (r), c##1 *= (r), c##2 *= (r), KSTORE(col, c##0), \
                              KSTORE(col + V1, c##1), KSTORE(col + V2, c##2)

/* A strip of KSTRIP rows, four columns at a time, reading the coefficients in the order
 * pack() laid them out. */
static inline __attribute__((always_inline)) void KERNEL(strip)(const solve *s, double *b,
                                                                 long ldb)
{
  typedef KERNEL(vec) vec;
  const double alpha = s->alpha, *p = s->packed;
  int step = 0, lo, hi;
  for (; step + 4 <= s->k; step += 4) {
    double *b0 = b + column_at(s, step) * ldb, *b1 = b + column_at(s, step + 1) * ldb;
    double *b2 = b + column_at(s, step + 2) * ldb, *b3 = b + column_at(s, step + 3) * ldb;
    KERNEL_FOUR(x);
    KERNEL_FOUR(y);
    KERNEL_FOUR(v);
    KERNEL_FOUR(w);
    KERNEL_START(x, b0), KERNEL_START(y, b1), KERNEL_START(v, b2), KERNEL_START(w, b3);
    solved_before(s, column_at(s, step), &lo, &hi);
    const double *bl = b + lo * ldb;
    for (int l = lo; l < hi; l++, p += 4, bl += ldb) {
      vec z0 = KLOAD(bl), z1 = KLOAD(bl + V1), z2 = KLOAD(bl + V2);
      KERNEL_TAKE(x, p[0], z), KERNEL_TAKE(y, p[1], z);
      KERNEL_TAKE(v, p[2], z), KERNEL_TAKE(w, p[3], z);
    }
    /* Within the four, in order: r0; t01, r1; t02, t12, r2; t03, t13, t23, r3. */
    KERNEL_END(x, b0, p[0]);
    KERNEL_TAKE(y, p[1], x), KERNEL_END(y, b1, p[2]);
    KERNEL_TAKE(v, p[3], x), KERNEL_TAKE(v, p[4], y), KERNEL_END(v, b2, p[5]);
    KERNEL_TAKE(w, p[6], x), KERNEL_TAKE(w, p[7], y), KERNEL_TAKE(w, p[8], v);
    KERNEL_END(w, b3, p[9]);
    p += 10;
  }
  for (; step < s->k; step++) {
    double *bj = b + column_at(s, step) * ldb;
    KERNEL_FOUR(x);
    KERNEL_START(x, bj);
    solved_before(s, column_at(s, step), &lo, &hi);
    const double *bl = b + lo * ldb;
    for (int l = lo; l < hi; l++, p++, bl += ldb) {
      vec z0 = KLOAD(bl), z1 = KLOAD(bl + V1), z2 = KLOAD(bl + V2);
      KERNEL_TAKE(x, *p, z);
    }
    KERNEL_END(x, bj, *p);
    p++;
  }
}
#undef KERNEL_FOUR
#undef KERNEL_START
#undef KERNEL_TAKE
#undef KERNEL_END

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

/* The right-side solve of m rows of b, a strip at a time, in place or through a copy
 * where b's columns would crowd the first-level cache's sets (small_trsm.c); the left
 * side gives its columns as rows, through a transposed copy of at most KSTRIP of them at
 * a time. */
static inline __attribute__((always_inline)) void KERNEL(solve_all)(const solve *s, int left,
                                                                     int m, double *b, long ldb)
{
  double copy[KSTRIP * HPD_SMALL_TRSM_ORDER];
  if (!left) {
    int i = 0;
    int in_place = !columns_crowd(s->k, ldb, KSTRIP * (long)sizeof(double));
    for (; in_place && i + KSTRIP <= m; i += KSTRIP)
      KERNEL(strip)(s, b + i, ldb);
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
