/*
 * One process's part of a call served on a line (line.c), against the gathered block G,
 * and the local solve that the line and the local route share.  A triangular solve is
 * the distributed halving of trxm.c on one process, down to blocks small enough for the
 * small-order kernel (small_trsm.c), so that most of the flops run in the gemm kernel.
 * The leaves are the kernel's largest order, 64, on both sides; measured on the calls'
 * own shapes (one core, GFLOP/s with leaves of 64, then 32 and 16, then the BLAS's dtrsm):
 *   right side, on Zen 3 since the kernel's four-column strips: the application's 736 x
 *   256 at 43.2, 42.5 (33.3); 200 x 128 at 41.1, 38.8, 36.9 (30.2); 300 x 64 at 43.6,
 *   38.7, 34.5 (26.0); Cholesky's 4032 x 64 panel at 39.6, 36.5 (25.7) with LLD 4100 and
 *   31.9, 25.8 (25.3) with LLD 4096, where the kernel goes through its copy; only a
 *   crowded 256 x 256 (LLD 256) ran faster at 16, by 2%;
 *   left side, on SkylakeX: LU's 64 x 2000 row solve at 33 (8), Cholesky's upper 64 x
 *   4032 at 34 against 22 halved to 16 (7.6), 1024 x 1024 at 58 (34).
 * Triangular multiplies gain nothing this way and stay with the trmm kernel, unless G is
 * still travelling: then a multiply, like a solve, works through G's columns as they
 * arrive (stream_through).
 */
#include "level3/local.h"

#include "kernel/kernel.h"
#include "level3/small_trsm.h"
#include "local/scale.h"
#include "pblas/poll.h"

/* Orders up to the kernel's are its leaves; larger ones are halved on a multiple of
 * SPLIT_ALIGN. */
#define SPLIT_ALIGN 16

typedef struct local_trsm {
  char side, uplo, trans, diag;
  int m, n; /* of the whole b */
  int ldg, ldb;
  const hpd_elem *g0;         /* the whole triangle */
  const hpd_l3_ready *ready;  /* or NULL */
} local_trsm;

/* Before reading the diagonal block of order k at g, and what lies between its halves:
 * the columns of the triangle up to the block's last. */
static void need(const local_trsm *t, const hpd_elem *g, int k)
{
  if (t->ready)
    t->ready->need(t->ready->arg, (g - t->g0) / (t->ldg + 1) + k);
}

/* into := beta * into - op(off) times from, in SIDE's order; into has order rows_into
 * along the halved dimension, from rows_from. */
static void remove_solved(const local_trsm *t, const hpd_elem *off, int rows_into,
                          int rows_from, const hpd_elem *from, hpd_elem beta, hpd_elem *into)
{
  if (t->side == 'L')
    hpd_kernel_gemm(t->trans, 'N', rows_into, t->n, rows_from, -1.0, off, t->ldg, from, t->ldb,
                    beta, into, t->ldb);
  else
    hpd_kernel_gemm('N', t->trans, t->m, rows_into, rows_from, -1.0, from, t->ldb, off, t->ldg,
                    beta, into, t->ldb);
}

static void trsm(const local_trsm *t, const hpd_elem *g, hpd_elem *b, int k, hpd_elem alpha)
{
  int left = t->side == 'L';
  if (k <= HPD_SMALL_TRSM_ORDER) {
    int m = left ? k : t->m, n = left ? t->n : k;
    need(t, g, k);
    hpd_small_trsm(t->side, t->uplo, t->trans, t->diag, m, n, alpha, g, t->ldg, b, t->ldb);
    return;
  }
  int k1 = k / 2 / SPLIT_ALIGN * SPLIT_ALIGN, order[2] = {k1, k - k1};
  const hpd_elem *diag[2] = {g, g + k1 + (long)k1 * t->ldg};
  hpd_elem *part[2] = {b, left ? b + k1 : b + (long)k1 * t->ldb};
  const hpd_elem *off = t->uplo == 'L' ? g + k1 : g + (long)k1 * t->ldg;
  /* The half whose solution does not depend on the other's goes first (trxm.c). */
  int first = ((t->uplo == 'L') == (t->trans == 'N')) == left ? 0 : 1, second = 1 - first;
  trsm(t, diag[first], part[first], order[first], alpha);
  need(t, g, k);
  remove_solved(t, off, order[second], order[first], part[first], alpha, part[second]);
  trsm(t, diag[second], part[second], order[second], 1.0);
}

static void solve(char side, char uplo, char trans, char diag, int m, int n, hpd_elem alpha,
                  const hpd_elem *a, int lda, hpd_elem *b, int ldb, const hpd_l3_ready *ready)
{
  if (m == 0 || n == 0)
    return;
  if (alpha == 0.0) {
    /* B := 0 without reading it, as the BLAS defines it. */
    hpd_kernel_trsm(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb);
    return;
  }
  local_trsm t = {side, uplo, trans, diag, m, n, lda, ldb, a, ready};
  trsm(&t, a, b, side == 'L' ? m : n, alpha);
}

void hpd_l3_local_trsm(char side, char uplo, char trans, char diag, int m, int n,
                       hpd_elem alpha, const hpd_elem *a, int lda, hpd_elem *b, int ldb)
{
  solve(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb, NULL);
}

/* ---- multiplies through G's columns as they arrive ------------------------------------ */

/* G's columns per step: rank-256 updates run the BLAS near its peak. */
#define STREAM_COLUMNS 256

typedef struct stream {
  char side, uplo, trans, diag;
  int m, n, k; /* b's (and c's) extent; G's order */
  hpd_elem alpha;
  const hpd_elem *g;
  int ldg;
  hpd_elem *b; /* read (pdsymm) or updated in place (pdtrmm) */
  int ldb;
  hpd_elem *c; /* pdsymm's result */
  int ldc;
} stream;

#define G(s, i, j) ((s)->g + (i) + (long)(j) * (s)->ldg)
#define B(s, i, j) ((s)->b + (i) + (long)(j) * (s)->ldb)
#define C(s, i, j) ((s)->c + (i) + (long)(j) * (s)->ldc)

static void gemm(char ta, char tb, int m, int n, int k, hpd_elem alpha, const hpd_elem *a,
                 int lda, const hpd_elem *b, int ldb, hpd_elem *c, int ldc)
{
  if (m > 0 && n > 0 && k > 0)
    hpd_kernel_gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, 1.0, c, ldc);
}

/* The free dimension is b's columns (SIDE 'L') or rows ('R'): its strips are independent.
 * On strip [f, f + w), G's columns [j0, j0 + jb): where the multiply's own order allows
 * the columns in increasing order (hpd_l3_local_streams), each output strip takes the
 * step's products while its inputs are still unchanged. */
static void trmm_step(const stream *s, int j0, int jb, int f, int w)
{
  int j1 = j0 + jb, rest = s->k - j1;
  hpd_elem alpha = s->alpha;
  if (s->side == 'L') {
    if (s->uplo == 'U') { /* trans 'N': rows above take this step's rows first */
      gemm('N', 'N', j0, w, jb, alpha, G(s, 0, j0), s->ldg, B(s, j0, f), s->ldb, B(s, 0, f),
           s->ldb);
      hpd_kernel_trmm('L', 'U', 'N', s->diag, jb, w, alpha, G(s, j0, j0), s->ldg, B(s, j0, f),
                      s->ldb);
    } else { /* 'L', trans 'T': this step's rows take the rows below */
      hpd_kernel_trmm('L', 'L', 'T', s->diag, jb, w, alpha, G(s, j0, j0), s->ldg, B(s, j0, f),
                      s->ldb);
      gemm('T', 'N', jb, w, rest, alpha, G(s, j1, j0), s->ldg, B(s, j1, f), s->ldb,
           B(s, j0, f), s->ldb);
    }
  } else if (s->uplo == 'L') { /* trans 'N': this step's columns take those after */
    hpd_kernel_trmm('R', 'L', 'N', s->diag, w, jb, alpha, G(s, j0, j0), s->ldg, B(s, f, j0),
                    s->ldb);
    gemm('N', 'N', w, jb, rest, alpha, B(s, f, j1), s->ldb, G(s, j1, j0), s->ldg,
         B(s, f, j0), s->ldb);
  } else { /* 'U', trans 'T': the columns before take this step's first */
    gemm('N', 'T', w, j0, jb, alpha, B(s, f, j0), s->ldb, G(s, 0, j0), s->ldg, B(s, f, 0),
         s->ldb);
    hpd_kernel_trmm('R', 'U', 'T', s->diag, w, jb, alpha, G(s, j0, j0), s->ldg, B(s, f, j0),
                    s->ldb);
  }
}

/* c += alpha * (the symmetric block) times b, or b times it: G's columns [j0, j1) hold
 * the block's columns there within the stored triangle and, by symmetry, its rows. */
static void symm_step(const stream *s, int j0, int jb, int f, int w)
{
  int j1 = j0 + jb, rest = s->k - j1;
  hpd_elem alpha = s->alpha;
  int upper = s->uplo == 'U', before = upper ? j0 : rest, at = upper ? 0 : j1;
  if (s->side == 'L') {
    hpd_kernel_symm('L', s->uplo, jb, w, alpha, G(s, j0, j0), s->ldg, B(s, j0, f), s->ldb, 1.0,
                    C(s, j0, f), s->ldc);
    gemm('N', 'N', before, w, jb, alpha, G(s, at, j0), s->ldg, B(s, j0, f), s->ldb,
         C(s, at, f), s->ldc);
    gemm('T', 'N', jb, w, before, alpha, G(s, at, j0), s->ldg, B(s, at, f), s->ldb,
         C(s, j0, f), s->ldc);
  } else {
    hpd_kernel_symm('R', s->uplo, w, jb, alpha, G(s, j0, j0), s->ldg, B(s, f, j0), s->ldb, 1.0,
                    C(s, f, j0), s->ldc);
    gemm('N', 'N', w, jb, before, alpha, B(s, f, at), s->ldb, G(s, at, j0), s->ldg,
         C(s, f, j0), s->ldc);
    gemm('N', 'T', w, before, jb, alpha, B(s, f, j0), s->ldb, G(s, at, j0), s->ldg,
         C(s, f, at), s->ldc);
  }
}

/* G's columns a step at a time, each step's work in strips of the free dimension with
 * the gather moved along between them (it progresses only inside MPI calls). */
static void stream_through(const stream *s, const hpd_l3_ready *ready,
                           void (*step)(const stream *, int, int, int, int))
{
  int free_extent = s->side == 'L' ? s->n : s->m;
  for (int j0 = 0; j0 < s->k; j0 += STREAM_COLUMNS) {
    int jb = s->k - j0 < STREAM_COLUMNS ? s->k - j0 : STREAM_COLUMNS;
    ready->need(ready->arg, j0 + jb);
    int strip = (int)hpd_poll_strip(HPD_POLL_FLOPS, 2.0 * s->k * jb, free_extent);
    for (int f = 0; f < free_extent; f += strip) {
      step(s, j0, jb, f, free_extent - f < strip ? free_extent - f : strip);
      ready->need(ready->arg, j0 + jb); /* G has those: this only moves the rest */
    }
  }
}

/* G's triangle and how the call applies it: G is sub(A)' where not sub(A), the other
 * triangle, transposed back in the call. */
static void g_letters(const hpd_l3 *l3, int g_is_a, char *uplo, char *trans)
{
  *uplo = (l3->call.uplo == 'U') == g_is_a ? 'U' : 'L';
  *trans = g_is_a == (l3->call.transa == 'N') ? 'N' : 'T';
}

int hpd_l3_local_streams(const hpd_l3 *l3, int g_is_a)
{
  char uplo, trans;
  g_letters(l3, g_is_a, &uplo, &trans);
  switch (l3->routine) {
  case HPD_ROUTINE_PDTRSM:
  case HPD_ROUTINE_PDSYMM:
    return 1;
  case HPD_ROUTINE_PDTRMM:
    /* In place, G's first columns first: the output rows (columns) they feed must not
     * be needed as inputs later. */
    return ((uplo == 'U') == (trans == 'N')) == (l3->side == 'L');
  default:
    return 0;
  }
}

void hpd_l3_local_update(const hpd_l3 *l3, const hpd_elem *g, int k, int g_is_a, int m, int n,
                         hpd_elem alpha, hpd_elem beta, hpd_elem *b, int ldb, hpd_elem *c,
                         int ldc, const hpd_l3_ready *ready)
{
  if (m == 0 || n == 0)
    return;
  char uplo, trans;
  g_letters(l3, g_is_a, &uplo, &trans);
  switch (l3->routine) {
  case HPD_ROUTINE_PDTRSM:
    solve(l3->side, uplo, trans, l3->diag, m, n, alpha, g, k, b, ldb, ready);
    break;
  case HPD_ROUTINE_PDTRMM:
    if (ready) {
      stream st = {l3->side, uplo, trans, l3->diag, m, n, k, alpha, g, k, b, ldb, NULL, 0};
      stream_through(&st, ready, trmm_step);
    } else {
      hpd_kernel_trmm(l3->side, uplo, trans, l3->diag, m, n, alpha, g, k, b, ldb);
    }
    break;
  default:
    if (ready) {
      hpd_local_scale(c, ldc, m, n, beta);
      stream st = {l3->side, uplo, trans, l3->diag, m, n, k, alpha, g, k, b, ldb, c, ldc};
      stream_through(&st, ready, symm_step);
    } else {
      hpd_kernel_symm(l3->side, uplo, m, n, alpha, g, k, b, ldb, beta, c, ldc);
    }
    break;
  }
}
