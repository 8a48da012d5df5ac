/*
 * The small-order kernel's body for one vector width, included by small_trsm.c once per
 * width with KERNEL_VLEN (elements per vector) and KERNEL(name) (the width's own names)
 * defined.  A strip is three vectors of rows, so that its partial sums of four columns,
 * twelve vectors, and the three loads that feed them fit the sixteen registers of the
 * AVX2 and SSE2 builds that use the width: 24 rows for AVX-512, 12 for AVX2, 6 for the
 * baseline's SSE2.  Two columns of four vectors, the strip before, needed ten loads for
 * eight multiply-adds and ran leaves of 32 columns at 27 GFLOP/s on a Zen 3 core, 31
 * now.  A wider vector than the build's registers is split by the compiler through
 * memory, and runs several times slower than the BLAS.
 */

#define KSTRIP (3 * KERNEL_VLEN)

typedef hpd_elem KERNEL(vec) __attribute__((vector_size(KERNEL_VLEN * sizeof(hpd_elem))));
typedef hpd_elem KERNEL(vec_unaligned)
    __attribute__((vector_size(KERNEL_VLEN * sizeof(hpd_elem)), aligned(sizeof(hpd_elem)),
                   may_alias));
#define KLOAD(p) (*(const KERNEL(vec_unaligned) *)(p))
#define KSTORE(p, v) (*(KERNEL(vec_unaligned) *)(p) = (v))

/* nv vectors of rows (1 to 3, a constant where inlined), four columns at a time, reading
 * the coefficients in the order pack() laid them out.  Three vectors of rows keep the
 * partial sums of four columns in twelve registers: one column's three loads feed twelve
 * fused multiply-adds. */
static inline __attribute__((always_inline)) void KERNEL(strip)(const solve *s, hpd_elem *b,
                                                                 long ldb, const int nv)
{
  typedef KERNEL(vec) vec;
  const hpd_elem alpha = s->alpha, *p = s->packed;
  int step = 0, lo, hi;
  for (; step + 4 <= s->k; step += 4) {
    hpd_elem *col[4];
    vec x[4][3], z[3];
#pragma GCC unroll 4
    for (int c = 0; c < 4; c++) {
      col[c] = b + column_at(s, step + c) * ldb;
#pragma GCC unroll 3
      for (int e = 0; e < nv; e++)
        x[c][e] = KLOAD(col[c] + e * KERNEL_VLEN) * alpha;
    }
    solved_before(s, column_at(s, step), &lo, &hi);
    const hpd_elem *bl = b + lo * ldb;
    for (int l = lo; l < hi; l++, p += 4, bl += ldb) {
#pragma GCC unroll 3
      for (int e = 0; e < nv; e++)
        z[e] = KLOAD(bl + e * KERNEL_VLEN);
#pragma GCC unroll 4
      for (int c = 0; c < 4; c++)
#pragma GCC unroll 3
        for (int e = 0; e < nv; e++)
          x[c][e] -= p[c] * z[e];
    }
    /* Within the four, in order: r0; t01, r1; t02, t12, r2; t03, t13, t23, r3. */
#pragma GCC unroll 4
    for (int c = 0; c < 4; c++) {
#pragma GCC unroll 3
      for (int d = 0; d < c; d++, p++)
#pragma GCC unroll 3
        for (int e = 0; e < nv; e++)
          x[c][e] -= *p * x[d][e];
#pragma GCC unroll 3
      for (int e = 0; e < nv; e++) {
        x[c][e] *= *p;
        KSTORE(col[c] + e * KERNEL_VLEN, x[c][e]);
      }
      p++;
    }
  }
  for (; step < s->k; step++) {
    hpd_elem *bj = b + column_at(s, step) * ldb;
    vec x[3];
#pragma GCC unroll 3
    for (int e = 0; e < nv; e++)
      x[e] = KLOAD(bj + e * KERNEL_VLEN) * alpha;
    solved_before(s, column_at(s, step), &lo, &hi);
    const hpd_elem *bl = b + lo * ldb;
    for (int l = lo; l < hi; l++, p++, bl += ldb)
#pragma GCC unroll 3
      for (int e = 0; e < nv; e++)
        x[e] -= *p * KLOAD(bl + e * KERNEL_VLEN);
#pragma GCC unroll 3
    for (int e = 0; e < nv; e++)
      KSTORE(bj + e * KERNEL_VLEN, x[e] * *p);
    p++;
  }
}

/* nv vectors of rows, nv known only at run time. */
static inline __attribute__((always_inline)) void KERNEL(strip_any)(const solve *s, hpd_elem *b,
                                                                     long ldb, int nv)
{
  if (nv == 3)
    KERNEL(strip)(s, b, ldb, 3);
  else if (nv == 2)
    KERNEL(strip)(s, b, ldb, 2);
  else
    KERNEL(strip)(s, b, ldb, 1);
}

/* rows of b (at most nv vectors of them) solved through a copy nv vectors high, whose
 * rows beyond them are zero. */
static inline __attribute__((always_inline)) void KERNEL(strip_copied)(const solve *s,
                                                                        hpd_elem *b, long ldb,
                                                                        int rows, int nv)
{
  hpd_elem copy[KSTRIP * HPD_SMALL_TRSM_ORDER];
  int height = nv * KERNEL_VLEN;
  for (int l = 0; l < s->k; l++) {
    for (int e = 0; e < rows; e++)
      copy[e + l * height] = b[e + l * ldb];
    for (int e = rows; e < height; e++)
      copy[e + l * height] = 0.0;
  }
  KERNEL(strip_any)(s, copy, height, nv);
  for (int l = 0; l < s->k; l++)
    for (int e = 0; e < rows; e++)
      b[e + l * ldb] = copy[e + l * height];
}

/* The right-side solve of m rows of b, a strip at a time, in place or through a copy
 * where b's columns would crowd the first-level cache's sets (small_trsm.c), then the
 * rows left: whole vectors in place, a last part vector through a copy.  The left side
 * gives its columns as rows, through a transposed copy of at most KSTRIP of them at a
 * time, whose rows beyond them are zero. */
static inline __attribute__((always_inline)) void KERNEL(solve_all)(const solve *s, int left,
                                                                     int m, hpd_elem *b, long ldb)
{
  if (!left) {
    int i = 0;
    int in_place = !columns_crowd(s->k, ldb, KSTRIP * (long)sizeof(hpd_elem));
    for (; i + KSTRIP <= m; i += KSTRIP)
      if (in_place)
        KERNEL(strip)(s, b + i, ldb, 3);
      else
        KERNEL(strip_copied)(s, b + i, ldb, KSTRIP, 3);
    int whole = (m - i) / KERNEL_VLEN, part = (m - i) % KERNEL_VLEN;
    if (whole)
      KERNEL(strip_any)(s, b + i, ldb, whole);
    if (part)
      KERNEL(strip_copied)(s, b + i + whole * KERNEL_VLEN, ldb, part, 1);
    return;
  }
  hpd_elem copy[KSTRIP * HPD_SMALL_TRSM_ORDER];
  for (int c = 0; c < m; c += KSTRIP) {
    int width = m - c < KSTRIP ? m - c : KSTRIP;
    hpd_elem *col = b + c * ldb;
    for (int l = 0; l < s->k; l++) {
      for (int w = 0; w < width; w++)
        copy[w + l * KSTRIP] = col[l + w * ldb];
      for (int w = width; w < KSTRIP; w++)
        copy[w + l * KSTRIP] = 0.0;
    }
    KERNEL(strip_any)(s, copy, KSTRIP, (width + KERNEL_VLEN - 1) / KERNEL_VLEN);
    for (int w = 0; w < width; w++)
      for (int l = 0; l < s->k; l++)
        col[l + w * ldb] = copy[w + l * KSTRIP];
  }
}

#undef KSTRIP
#undef KLOAD
#undef KSTORE
