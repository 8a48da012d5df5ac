#include "local/triangle.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "local/scale.h"
#include "pblas/poll.h"

/* The halving (update_columns) stops at strips this wide.  Where the strip's diagonal
 * is one square block (rows and columns laid out alike) dsyrk updates its triangle;
 * otherwise the rows the diagonal crosses, fewer than the strip's width, go through a
 * scratch block on the stack, so a wider strip means fewer multiplies but more work
 * thrown away above (or below) the diagonal. */
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

/* The global index in sub(C) of local column j. */
static int64_t global_col(const hpd_triangle *t, int64_t j)
{
  return hpd_axis_global(&t->cols, j, t->mycol);
}

void hpd_triangle_scale(const hpd_triangle *t, hpd_elem *c, int ldc, int64_t mloc,
                        int64_t nloc, hpd_elem beta)
{
  if (!t->uplo) {
    hpd_local_scale(c, ldc, mloc, nloc, beta);
    return;
  }
  if (beta == 1.0 || mloc == 0)
    return;
  for (int64_t j = 0; j < nloc; j++) {
    int64_t lo, hi;
    column_rows(t, global_col(t, j), mloc, &lo, &hi);
    hpd_local_scale(c + lo + j * ldc, ldc, hi - lo, 1, beta);
  }
}

typedef struct update_job {
  const hpd_triangle *t;
  char ta, tb;
  int w;
  hpd_elem alpha;
  const hpd_elem *a, *b;
  int lda, ldb;
  hpd_elem *c;
  int ldc, mloc;
  int64_t a_row0, b_col0; /* the local row a starts at, the local column b starts at */
} update_job;

/* The local rows of local column j in the triangle, [*lo, *hi). */
static void local_rows(const update_job *job, int64_t j, int64_t *lo, int64_t *hi)
{
  column_rows(job->t, global_col(job->t, j), job->mloc, lo, hi);
}

/* C[rows i0.., cols j0..] (+)= alpha * op(a)[i0.., :] * op(b)[:, j0..], m x n, into
 * out (leading dimension ldo) with beta 1 (accumulate) or 0 (overwrite). */
static void block_product(const update_job *job, int64_t i0, int64_t j0, int64_t m,
                          int64_t n, hpd_elem beta, hpd_elem *out, int ldo)
{
  if (m <= 0 || n <= 0)
    return;
  int64_t ia = i0 - job->a_row0, jb = j0 - job->b_col0;
  const hpd_elem *a = job->ta == 'N' ? job->a + ia : job->a + ia * job->lda;
  const hpd_elem *b = job->tb == 'T' ? job->b + jb : job->b + jb * job->ldb;
  hpd_kernel_gemm(job->ta, job->tb, (int)m, (int)n, job->w, job->alpha, a, job->lda, b,
                  job->ldb, beta, out, ldo);
}

/* The local row holding the diagonal entry of local column j0, when the strip's len
 * columns meet the diagonal in one square block: row d0 + i is column j0 + i's diagonal
 * row for every i.  Then C's block there is op(a)'s rows d0.. times their own transpose
 * (op(b)'s columns are op(a)'s rows, a syrk), so dsyrk can update exactly its triangle.
 * -1 where rows and columns are laid out so that they do not line up.  The columns are
 * consecutive in sub(C) (update_strip), and so are the local rows from d0 on up to the
 * end of their block, or throughout where one process holds every row. */
static int64_t diagonal_row(const update_job *job, int64_t j0, int len)
{
  const hpd_triangle *t = job->t;
  if (!t->b_is_a && !t->pair)
    return -1; /* two different operands (pdsyr2k's halves): no syrk on the diagonal */
  int64_t g0 = global_col(t, j0);
  int64_t d0 = rows_below(t, g0);
  if (d0 + len > job->mloc || hpd_axis_global(&t->rows, d0, t->myrow) != g0)
    return -1;
  if (t->rows.nprocs > 1 && hpd_axis_next_boundary(&t->rows, g0) - g0 < len)
    return -1;
  return d0;
}

/* alpha * op(a)[i0..i0+n, :] times its transpose onto C's n x n triangle at (i0, j0);
 * for a pair, alpha * (A B' + B A') of those rows. */
static void diagonal_product(const update_job *job, int64_t i0, int64_t j0, int64_t n)
{
  if (n <= 0)
    return;
  int64_t ia = i0 - job->a_row0;
  const hpd_elem *a = job->ta == 'N' ? job->a + ia : job->a + ia * job->lda;
  hpd_elem *c = job->c + i0 + j0 * job->ldc;
  if (job->t->pair) {
    int half = job->w / 2; /* ta 'N' */
    hpd_kernel_syr2k(job->t->uplo, job->ta, (int)n, half, job->alpha, a, job->lda,
                     a + (int64_t)half * job->lda, job->lda, 1.0, c, job->ldc);
    return;
  }
  hpd_kernel_syrk(job->t->uplo, job->ta, (int)n, job->w, job->alpha, a, job->lda, 1.0, c,
                  job->ldc);
}

/* A strip whose diagonal block starts at local row d0 (diagonal_row), limited to the rows
 * [r0, r1): the block's triangle through dsyrk, the rows beyond it as one rectangle.  0
 * when the limit cuts the block on the side the rectangle lies (not the halving's case):
 * the caller goes the general way. */
static int update_diagonal_strip(const update_job *job, int64_t j0, int len, int64_t d0,
                                 int64_t r0, int64_t r1)
{
  int64_t d1 = d0 + len;
  if (job->t->uplo == 'L') {
    if (r0 > d0)
      return 0;
    diagonal_product(job, d0, j0, (r1 < d1 ? r1 : d1) - d0);
    if (r1 > d1)
      block_product(job, d1, j0, r1 - d1, len, 1.0, job->c + d1 + j0 * job->ldc, job->ldc);
  } else {
    if (r1 < d1)
      return 0;
    int64_t s = r0 > d0 ? r0 : d0;
    diagonal_product(job, s, j0 + (s - d0), d1 - s);
    if (r0 < d0)
      block_product(job, r0, j0, d0 - r0, len, 1.0, job->c + r0 + j0 * job->ldc, job->ldc);
  }
  return 1;
}

/* Local columns [j0, j0+len), consecutive in sub(C) too, len <= STRIP, limited to the
 * rows [r0, r1).  The rows in the triangle for every column of the strip are updated in
 * place; the rows only some columns take (fewer than the strip is wide) are computed
 * once into scratch and added where they belong. */
static void update_strip(const update_job *job, int64_t j0, int len, int64_t r0, int64_t r1)
{
  int64_t d0 = diagonal_row(job, j0, len);
  if (d0 >= 0 && update_diagonal_strip(job, j0, len, d0, r0, r1))
    return;
  int64_t lo0, hi0, lo1, hi1;
  local_rows(job, j0, &lo0, &hi0);
  local_rows(job, j0 + len - 1, &lo1, &hi1);
  int64_t f0 = lo1 > r0 ? lo1 : r0, f1 = hi0 < r1 ? hi0 : r1;
  hpd_elem *c = job->c + j0 * job->ldc;
  block_product(job, f0, j0, f1 - f0, len, 1.0, c + f0, job->ldc);

  int64_t p0 = job->t->uplo == 'U' ? hi0 : lo0, p1 = job->t->uplo == 'U' ? hi1 : lo1;
  p0 = p0 > r0 ? p0 : r0;
  p1 = p1 < r1 ? p1 : r1;
  int rows = (int)(p1 - p0);
  if (rows <= 0)
    return;
  hpd_elem scratch[STRIP * STRIP];
  block_product(job, p0, j0, rows, len, 0.0, scratch, rows);
  for (int j = 0; j < len; j++) {
    int64_t lo, hi;
    local_rows(job, j0 + j, &lo, &hi);
    lo = lo > p0 ? lo : p0;
    hi = hi < p1 ? hi : p1;
    hpd_elem *col = c + j * (int64_t)job->ldc;
    for (int64_t i = lo; i < hi; i++)
      col[i] += scratch[(i - p0) + (int64_t)j * rows];
  }
}

/* The end of the run of local columns from j0 that are consecutive in sub(C), at most
 * j1: the end of j0's block, unless one process holds every block. */
static int64_t run_end(const update_job *job, int64_t j0, int64_t j1)
{
  const hpd_axis *ax = &job->t->cols;
  if (ax->nprocs == 1)
    return j1;
  int64_t g0 = global_col(job->t, j0);
  int64_t end = j0 + (hpd_axis_next_boundary(ax, g0) - g0);
  return end < j1 ? end : j1;
}

/* Where update_columns splits [j0, j1): at the end of a run of consecutive columns (a
 * block of the layout) nearest the middle, so that no block is cut into thin pieces,
 * each a skinny multiply and a small dsyrk; the middle itself where the whole range is
 * one run. */
static int64_t split_point(const update_job *job, int64_t j0, int64_t j1)
{
  int64_t mid = j0 + (j1 - j0) / 2, best = -1;
  for (int64_t b = run_end(job, j0, j1); b < j1; b = run_end(job, b, j1)) {
    if (best < 0 || llabs(b - mid) < llabs(best - mid))
      best = b;
    if (b >= mid)
      break;
  }
  return best < 0 ? mid : best;
}

/* The rows that every column of [j0, j1) takes, within [*r0, *r1), as one multiply as
 * wide as the range: those above the first column's diagonal block (upper) or below the
 * last one's (lower).  The limit shrinks to the band the diagonal crosses. */
static void common_rows(const update_job *job, int64_t j0, int64_t j1, int64_t *r0,
                        int64_t *r1)
{
  const hpd_triangle *t = job->t;
  if (t->uplo == 'U') {
    int64_t above = rows_below(t, global_col(t, j0));
    above = above < *r1 ? above : *r1;
    if (above > *r0) {
      block_product(job, *r0, j0, above - *r0, j1 - j0, 1.0, job->c + *r0 + j0 * job->ldc,
                    job->ldc);
      *r0 = above;
    }
  } else {
    int64_t below = rows_below(t, global_col(t, j1 - 1) + 1);
    below = below > *r0 ? below : *r0;
    if (below < *r1) {
      block_product(job, below, j0, *r1 - below, j1 - j0, 1.0,
                    job->c + below + j0 * job->ldc, job->ldc);
      *r1 = below;
    }
  }
}

/*
 * Local columns [j0, j1) limited to rows [r0, r1): the rows every column takes in one
 * multiply (common_rows), then the band the diagonal crosses by halves, split between
 * blocks.  Each half takes its own common rows within the band in turn (the left half of
 * a lower triangle every band row below its last column's diagonal, the right half of an
 * upper one every band row above its first column's), so most of the work goes through
 * few multiplies as wide as their ranges, each packing op(a) once, and a diagonal block
 * reaches dsyrk whole in a strip.  Each entry of C is written by one BLAS call.
 */
static void update_columns(const update_job *job, int64_t j0, int64_t j1, int64_t r0,
                           int64_t r1)
{
  if (j0 >= j1 || r0 >= r1)
    return;
  if (j1 - j0 <= STRIP && run_end(job, j0, j1) == j1) {
    update_strip(job, j0, (int)(j1 - j0), r0, r1);
    return;
  }
  common_rows(job, j0, j1, &r0, &r1);
  int64_t jm = split_point(job, j0, j1);
  update_columns(job, j0, jm, r0, r1);
  update_columns(job, jm, j1, r0, r1);
}

/* The rows of b for this process's columns, where b's row for a column is the column's
 * global index, gathered in local order into out (nloc x w); a pair's halves swapped. */
static void gather_b(const update_job *job, int nloc, hpd_elem *out)
{
  int w = job->w, shift = job->t->pair ? w / 2 : 0;
  for (int64_t j0 = 0, j1; j0 < nloc; j0 = j1) {
    j1 = run_end(job, j0, nloc);
    const hpd_elem *from = job->b + global_col(job->t, j0);
    for (int k = 0; k < w; k++)
      memcpy(out + j0 + k * (int64_t)nloc, from + ((k + shift) % w) * (int64_t)job->ldb,
             (size_t)(j1 - j0) * sizeof *out);
  }
}

/* Columns per strip between two polls: the whole part where nothing polls. */
static int64_t strip_columns(const hpd_progress *progress, int64_t rows, int64_t cols, int w)
{
  double per_column = 2.0 * (double)rows * (double)w;
  return progress ? hpd_poll_strip(progress->strip_flops, per_column, cols) : cols;
}

void hpd_triangle_update_part(const hpd_triangle *t, char ta, char tb, int w, hpd_elem alpha,
                              const hpd_elem *a, int lda, const hpd_elem *b, int ldb,
                              hpd_elem *gather_into, hpd_elem *c, int ldc, int mloc, int nloc,
                              const hpd_share_part *part, const hpd_progress *progress)
{
  if (part->r0 >= part->r1 || part->c0 >= part->c1 || w == 0)
    return;
  update_job job = {t, ta, tb, w, alpha, a, b, lda, ldb, c, ldc, mloc, part->r0, part->c0};
  if (t->uplo && gather_into) {
    gather_b(&job, nloc, gather_into);
    job.b = gather_into;
    job.ldb = nloc;
    job.b_col0 = 0;
  }
  int64_t rows = part->r1 - part->r0;
  int64_t strip = strip_columns(progress, rows, part->c1 - part->c0, w);
  for (int64_t j0 = part->c0; j0 < part->c1; j0 += strip) {
    int64_t j1 = j0 + strip < part->c1 ? j0 + strip : part->c1;
    if (!t->uplo)
      block_product(&job, part->r0, j0, rows, j1 - j0, 1.0,
                    c + part->r0 + j0 * (int64_t)ldc, ldc);
    else
      update_columns(&job, j0, j1, part->r0, part->r1);
    if (progress && j1 < part->c1)
      progress->poll(progress->arg);
  }
}

void hpd_triangle_update(const hpd_triangle *t, char ta, char tb, int w, hpd_elem alpha,
                         const hpd_elem *a, int lda, const hpd_elem *b, int ldb,
                         hpd_elem *gather_into, hpd_elem *c, int ldc, int mloc, int nloc,
                         const hpd_progress *progress)
{
  hpd_share_part whole = {0, mloc, 0, nloc};
  hpd_triangle_update_part(t, ta, tb, w, alpha, a, lda, b, ldb, gather_into, c, ldc, mloc,
                           nloc, &whole, progress);
}
