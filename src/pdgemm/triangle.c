#include "triangle.h"

#include "local.h"
#include "scalapack_api.h"

/* Columns are updated in strips this wide: the rows a strip's diagonal crosses, fewer
 * than the strip's width, go through a scratch block on the stack, so a wider strip
 * means fewer multiplies but more work thrown away above (or below) the diagonal. */
#define STRIP 64

/* Local rows whose global index in sub(C) is below g. */
static int64_t rows_below(const hpd_triangle *t, int64_t g)
{
  return hpd_axis_count(&t->rows, g < t->m ? g : t->m, t->myrow);
}

/* The local rows [*lo, *hi) of sub(C)'s global column g that lie in the triangle. */
static void column_rows(const hpd_triangle *t, int64_t g, int64_t mloc, int64_t *lo,
                        int64_t *hi)
{
  if (t->uplo == 'U') {
    *lo = 0;
    *hi = rows_below(t, g + 1);
  } else {
    *lo = rows_below(t, g);
    *hi = mloc;
  }
}

/* This process's columns come in runs that are consecutive in sub(C) too, one per block
 * it holds.  Calls each(t, g0, j0, len, ctx) for each run: global g0, local j0. */
typedef void run_fn(const hpd_triangle *t, int64_t g0, int64_t j0, int64_t len, void *ctx);

static void for_each_run(const hpd_triangle *t, run_fn *each, void *ctx)
{
  const hpd_axis *ax = &t->cols;
  int np = ax->nprocs;
  int64_t j0 = 0;
  /* Block 0 belongs to src; block b >= 1 to (src + b) mod np. */
  for (int64_t b = ((t->mycol - ax->src) % np + np) % np;; b += np) {
    int64_t g0 = b == 0 ? 0 : ax->first + (b - 1) * (int64_t)ax->nb;
    if (g0 >= t->n)
      return;
    int64_t g1 = b == 0 ? ax->first : g0 + ax->nb;
    int64_t len = (g1 < t->n ? g1 : t->n) - g0;
    each(t, g0, j0, len, ctx);
    j0 += len;
  }
}

typedef struct scale_job {
  double *c;
  int ldc;
  int64_t mloc;
  double beta;
} scale_job;

static void scale_run(const hpd_triangle *t, int64_t g0, int64_t j0, int64_t len, void *ctx)
{
  const scale_job *job = ctx;
  for (int64_t j = 0; j < len; j++) {
    int64_t lo, hi;
    column_rows(t, g0 + j, job->mloc, &lo, &hi);
    hpd_local_scale(job->c + lo + (j0 + j) * job->ldc, job->ldc, hi - lo, 1, job->beta);
  }
}

void hpd_triangle_scale(const hpd_triangle *t, double *c, int ldc, int64_t mloc,
                        int64_t nloc, double beta)
{
  if (!t->uplo) {
    hpd_local_scale(c, ldc, mloc, nloc, beta);
    return;
  }
  if (beta == 1.0 || mloc == 0)
    return;
  scale_job job = {c, ldc, mloc, beta};
  for_each_run(t, scale_run, &job);
}

typedef struct update_job {
  char ta, tb;
  int w;
  double alpha;
  const double *a, *b;
  int lda, ldb, b_by_column;
  double *c;
  int ldc, mloc;
} update_job;

/* C[rows i0.., cols j0..] (+)= alpha * op(a)[i0.., :] * op(b)[:, j0..], m x n, into
 * out (leading dimension ldo) with beta 1 (accumulate) or 0 (overwrite); g0 is the
 * global index of local column j0. */
static void block_product(const update_job *job, int64_t i0, int64_t j0, int64_t g0, int m,
                          int n, double beta, double *out, int ldo)
{
  if (m <= 0 || n <= 0)
    return;
  int64_t jb = job->b_by_column ? g0 : j0;
  const double *a = job->ta == 'N' ? job->a + i0 : job->a + i0 * job->lda;
  const double *b = job->tb == 'T' ? job->b + jb : job->b + jb * job->ldb;
  dgemm_(&job->ta, &job->tb, &m, &n, &job->w, &job->alpha, a, &job->lda, b, &job->ldb,
         &beta, out, &ldo);
}

/* One strip, global columns [g0, g0+len), local [j0, j0+len), len <= STRIP.  The rows
 * in the triangle for every column of the strip are updated in place; the rows only
 * some columns take are computed once into scratch and added where they belong. */
static void update_strip(const hpd_triangle *t, const update_job *job, int64_t g0,
                         int64_t j0, int len)
{
  int64_t lo0, hi0, lo1, hi1;
  column_rows(t, g0, job->mloc, &lo0, &hi0);
  column_rows(t, g0 + len - 1, job->mloc, &lo1, &hi1);
  double *c = job->c + j0 * job->ldc;
  block_product(job, lo1, j0, g0, (int)(hi0 - lo1), len, 1.0, c + lo1, job->ldc);

  int64_t p0 = t->uplo == 'U' ? hi0 : lo0, p1 = t->uplo == 'U' ? hi1 : lo1;
  int rows = (int)(p1 - p0);
  if (rows <= 0)
    return;
  double scratch[STRIP * STRIP];
  block_product(job, p0, j0, g0, rows, len, 0.0, scratch, rows);
  for (int j = 0; j < len; j++) {
    int64_t lo, hi;
    column_rows(t, g0 + j, job->mloc, &lo, &hi);
    lo = lo > p0 ? lo : p0;
    hi = hi < p1 ? hi : p1;
    double *col = c + j * (int64_t)job->ldc;
    for (int64_t i = lo; i < hi; i++)
      col[i] += scratch[(i - p0) + (int64_t)j * rows];
  }
}

static void update_run(const hpd_triangle *t, int64_t g0, int64_t j0, int64_t len,
                       void *ctx)
{
  for (int64_t s = 0; s < len; s += STRIP)
    update_strip(t, ctx, g0 + s, j0 + s, (int)(len - s < STRIP ? len - s : STRIP));
}

void hpd_triangle_update(const hpd_triangle *t, char ta, char tb, int w, double alpha,
                         const double *a, int lda, const double *b, int ldb, int b_by_column,
                         double *c, int ldc, int mloc, int nloc)
{
  if (mloc == 0 || nloc == 0 || w == 0)
    return;
  update_job job = {ta, tb, w, alpha, a, b, lda, ldb, b_by_column, c, ldc, mloc};
  if (!t->uplo) {
    block_product(&job, 0, 0, 0, mloc, nloc, 1.0, c, ldc);
    return;
  }
  for_each_run(t, update_run, &job);
}
