/*
 * The correctness sweep of pdtrsm_ and pdtrmm_, which share their arguments.
 *
 * pdtrmm: sub(B) := alpha * op(sub(A)) * sub(B) (side 'L') or alpha * sub(B) * op(sub(A))
 * (side 'R'); pdtrsm: the same with the inverse of op(sub(A)).  sub(A) is triangular
 * (uplo), of order M (side 'L') or N ('R'), with a unit diagonal where diag is 'U';
 * sub(B) is M x N.  Each rank computes sub(B) serially from the definition and checks
 * every local entry of B it owns: sub(B) against the expected values, everything else
 * (the rest of B, padding, guards) bit for bit; A must come back bit for bit.
 *
 * What may not be read starts as NaN: the strict triangle of sub(A) that uplo leaves out
 * and, for diag 'U', the diagonal, each in some cases; with alpha = 0 all of A and, in
 * some cases, sub(B), which is then set to zero without being read.
 *
 * A solve is only as accurate as sub(A) is well conditioned, so sub(A) keeps close to
 * its diagonal: diagonal entries of magnitude in [2, 3) (or the unit diagonal), entries
 * off it in [-1, 1) divided by the square root of the order.  The powers of the part off
 * the diagonal then shrink fast and the inverse stays small, while no one term dominates
 * a substitution's sums, whose rounding would otherwise grow with the order faster than
 * the gauge (see expected).  pdtrmm needs none of this and gets plain entries, whose
 * sums are no more dominated by one term than a multiply's.
 */
#include "pdtrxm_check.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_level3.h"
#include "check_sweep.h"
#include "hpdaemon.h"

typedef void trxm_fn(const char *side, const char *uplo, const char *transa, const char *diag,
                     const int *m, const int *n, const double *alpha, const double *a,
                     const int *ia, const int *ja, const int *desca, double *b, const int *ib,
                     const int *jb, const int *descb);
trxm_fn pdtrsm_, pdtrmm_;

/* Set once by check_trxm_main: the sweep judges one routine per program. */
static int solving;

/* ---- the sweep's vocabulary ------------------------------------------------------ */

/* 97 with blocks of 80 gives one process runs of consecutive columns longer than 64. */
static const int dims[] = {0, 1, 7, 13, 31, 53, 97};
#define NDIMS COUNT(dims)
#define NSHAPES (NDIMS * NDIMS) /* (m, n) */
#define NPAIRS 24               /* (side, uplo, transa, diag) */
#define NCOMBOS (NPAIRS * NSHAPES)
static const char side_letters[] = {'L', 'R'};
static const char uplo_letters[] = {'U', 'L'};
static const char trans_letters[] = {'N', 'T', 'C'};
static const char diag_letters[] = {'N', 'U'};
static const double alphas[] = {0.0, 1.0, -1.0, 2.5};
static const int blocks[] = {1, 2, 3, 4, 5, 7, 8, 11, 16, 32, 64, 80};
static const check_vocab vocab = {blocks, COUNT(blocks), 96};

#define ANCHORS 8
#define ANCHOR_IDLE_OWNERS 3
#define ANCHOR_LARGE_BLOCKS 5
#define ANCHOR_WIDE 6 /* and 7 */
#define QUICK_CASES (ANCHORS + 5 * NPAIRS)
/* Every (side, uplo, transa, diag, m, n) once. */
#define FULL_CASES (ANCHORS + NCOMBOS)

enum { MAT_A, MAT_B, MATS };
static const char mat_names[MATS] = {'A', 'B'};

typedef struct trxm_case {
  check_head head;
  char side, uplo, transa, diag;
  int m, n;
  double alpha;
  int nan_a;     /* all of A starts as NaN: with alpha = 0 it may not be read */
  int nan_b;     /* sub(B) starts as NaN: with alpha = 0 it need not be set */
  int nan_other; /* the strict triangle of sub(A) that uplo leaves out starts as NaN */
  int nan_diag;  /* a unit diagonal starts as NaN */
  int alike_a;   /* sub(A)'s rows and columns share offset, blocks and source */
  operand op[MATS];
} trxm_case;

static int is_left(const trxm_case *c)
{
  return check_is(c->side, 'L');
}

static int is_upper(const trxm_case *c)
{
  return check_is(c->uplo, 'U');
}

static int is_plain(const trxm_case *c)
{
  return check_is(c->transa, 'N');
}

static int is_unit(const trxm_case *c)
{
  return check_is(c->diag, 'U');
}

/* The order of sub(A). */
static int order_of(const trxm_case *c)
{
  return is_left(c) ? c->m : c->n;
}

/* ---- building a case -------------------------------------------------------------- */

static void sub_extent(const trxm_case *c, int mat, int *rows, int *cols)
{
  *rows = mat == MAT_A ? order_of(c) : c->m;
  *cols = mat == MAT_A ? order_of(c) : c->n;
}

static void apply_combo(trxm_case *c, long j, const int *shape_order, uint64_t *rng)
{
  int pair, shape;
  check_pick_combo(j, NPAIRS, NSHAPES, shape_order, &pair, &shape);
  c->side = check_pick_letter_case(rng, side_letters[pair / 12]);
  c->uplo = check_pick_letter_case(rng, uplo_letters[pair / 6 % 2]);
  c->transa = check_pick_letter_case(rng, trans_letters[pair / 2 % 3]);
  c->diag = check_pick_letter_case(rng, diag_letters[pair % 2]);
  c->m = dims[shape / NDIMS];
  c->n = dims[shape % NDIMS];
}

/* The anchors: alpha = 0 wiping a NaN sub(B) beside a NaN A; a unit diagonal and the
 * other triangle both NaN; an empty sub(B) (M = 0, so sub(A) is empty too); a 1x1 call
 * on the last process of a grid of idle processes; an empty sub(B) (N = 0) beside a
 * sub(A) of order 53, which must not be touched either; large odd blocks; and two with
 * blocks wider than 64 whose diagonal crosses blocks off their corners, either side. */
static const struct {
  char side, uplo, transa, diag;
  int m, n;
  double alpha;
  int nan_b, nan_other, nan_diag;
} anchors[ANCHORS] = {
    {'L', 'U', 'N', 'N', 13, 31, 0.0, 1, 1, 0},  {'R', 'L', 'T', 'U', 31, 13, 2.5, 0, 1, 1},
    {'L', 'U', 'N', 'N', 0, 7, 1.0, 0, 0, 0},    {'r', 'l', 'c', 'u', 1, 1, 1.0, 0, 1, 1},
    {'L', 'L', 'T', 'N', 53, 0, -1.0, 0, 1, 0},  {'L', 'U', 'T', 'U', 53, 31, -1.0, 0, 1, 1},
    {'l', 'L', 'N', 'U', 97, 31, 2.5, 0, 1, 1},  {'R', 'u', 't', 'N', 31, 97, 1.0, 0, 1, 0},
};

static void apply_anchor(trxm_case *c, long index)
{
  c->side = anchors[index].side;
  c->uplo = anchors[index].uplo;
  c->transa = anchors[index].transa;
  c->diag = anchors[index].diag;
  c->m = anchors[index].m;
  c->n = anchors[index].n;
  c->alpha = anchors[index].alpha;
  c->nan_b = anchors[index].nan_b;
  c->nan_other = anchors[index].nan_other;
  c->nan_diag = anchors[index].nan_diag;
}

/* Case `index` of a grid: a pure function of (seed, grid, index), so that one failing
 * case can be rerun alone. */
static void make_case(void *out, uint64_t seed, grid_shape g, long index,
                      const int *shape_order)
{
  trxm_case *c = out;
  memset(c, 0, sizeof *c);
  uint64_t rng = check_start_case(&c->head, seed, g, index);
  if (index >= ANCHORS)
    apply_combo(c, (index - ANCHORS) % NCOMBOS, shape_order, &rng);
  c->alpha = alphas[check_rng_below(&rng, COUNT(alphas))];
  c->nan_b = check_rng_below(&rng, 2);
  c->nan_other = check_rng_below(&rng, 2);
  c->nan_diag = check_rng_below(&rng, 2);
  if (index < ANCHORS)
    apply_anchor(c, index);
  c->nan_a = c->alpha == 0.0;
  c->nan_b = c->nan_b && c->alpha == 0.0;
  c->nan_diag = c->nan_diag && is_unit(c);
  int extent[MATS][2];
  for (int mat = 0; mat < MATS; mat++)
    sub_extent(c, mat, &extent[mat][0], &extent[mat][1]);
  if (index == ANCHOR_IDLE_OWNERS) {
    check_layout_idle_owners(&c->head, c->op, MATS);
  } else if (index == ANCHOR_LARGE_BLOCKS) {
    check_layout_large_blocks(&c->head, c->op, MATS, (const int(*)[2])extent);
  } else if (index == ANCHOR_WIDE || index == ANCHOR_WIDE + 1) {
    c->alike_a = index == ANCHOR_WIDE + 1;
    check_layout_wide(&c->head, c->op, MATS, (const int(*)[2])extent, MAT_A, c->alike_a);
  } else {
    check_choose_layout(&c->head, &vocab, c->op, MATS, (const int(*)[2])extent, &rng);
    /* A factorization passes its diagonal blocks so; the random layouts rarely do. */
    if (check_rng_below(&rng, 4) == 0) {
      c->alike_a = 1;
      check_make_alike(&c->op[MAT_A], order_of(c), g);
    }
  }
}

/* ---- the matrices ----------------------------------------------------------------- */

/* Global entry (gi, gj) of A as stored where no trap replaces it: for a solve, close to
 * diagonal inside sub(A)'s triangle (see the top of the file); the plain hash elsewhere. */
static double a_stored(const trxm_case *c, int gi, int gj)
{
  const operand *op = &c->op[MAT_A];
  int i = gi - (op->i - 1), j = gj - (op->j - 1), k = order_of(c);
  double e = check_entry(check_data_id(&c->head, MAT_A), gi, gj);
  if (!solving || i < 0 || i >= k || j < 0 || j >= k || !check_in_triangle(is_upper(c), i, j))
    return e;
  if (i == j)
    return is_unit(c) ? e : copysign(2.0 + fabs(e), e);
  return e / sqrt(k);
}

static double fill_a(const void *ctx, int gi, int gj)
{
  const trxm_case *c = ctx;
  const operand *op = &c->op[MAT_A];
  int i = gi - (op->i - 1), j = gj - (op->j - 1), k = order_of(c);
  if (c->nan_a)
    return NAN;
  if (i >= 0 && i < k && j >= 0 && j < k) {
    if (i == j && c->nan_diag)
      return check_unit_diagonal_value();
    if (!check_in_triangle(is_upper(c), i, j) && c->nan_other)
      return check_other_triangle_value();
  }
  return a_stored(c, gi, gj);
}

static double fill_b(const void *ctx, int gi, int gj)
{
  const trxm_case *c = ctx;
  const operand *op = &c->op[MAT_B];
  int i = gi - (op->i - 1), j = gj - (op->j - 1);
  if (c->nan_b && i >= 0 && i < c->m && j >= 0 && j < c->n)
    return NAN;
  return check_entry(check_data_id(&c->head, MAT_B), gi, gj);
}

/* Entry (i, j) of sub(A), 0-based from its corner, as the routine must take it: the
 * stored triangle, 1 on a unit diagonal, 0 in the other triangle. */
static long double a_taken(const trxm_case *c, int i, int j)
{
  if (i == j && is_unit(c))
    return 1.0L;
  if (!check_in_triangle(is_upper(c), i, j))
    return 0.0L;
  const operand *op = &c->op[MAT_A];
  return a_stored(c, op->i - 1 + i, op->j - 1 + j);
}

/* ---- the expected result ------------------------------------------------------------ */

/*
 * Both sides as one: each column of sub(B) (side 'L') or each row ('R') is a vector b of
 * length k on its own, and x = alpha*S*b (pdtrmm) or S*x = alpha*b (pdtrsm), where
 * S = op(sub(A)) for side 'L' and its transpose for 'R'.  The sums run in long double
 * so that the expected value's own rounding is far below what the ratio allows.
 *
 * The gauge of a product is |alpha| * sum_l |S(i,l) b(l)|, as for a multiply.  A
 * substitution's error is bounded by a small multiple of eps * |S^-1| (|alpha b| + |S| |x|):
 * the rounding of each step, carried through the later ones by the inverse.  That is
 * the gauge of a solve, with S^-1 found column by column by the same substitution.
 */
typedef struct trxm_system {
  int k, lower;
  long double *s;   /* S, k x k, column-major */
  long double *inv; /* S^-1 for a solve */
  long double *y;   /* k entries of scratch */
} trxm_system;

static long double s_at(const trxm_system *sys, int i, int l)
{
  return sys->s[i + (size_t)l * sys->k];
}

/* S x = alpha b, by substitution in the order S's triangle allows. */
static void substitute(const trxm_system *sys, long double alpha, const long double *b,
                       long double *x)
{
  int k = sys->k;
  for (int step = 0; step < k; step++) {
    int i = sys->lower ? step : k - 1 - step;
    int from = sys->lower ? 0 : i + 1, to = sys->lower ? i : k;
    long double sum = alpha * b[i];
    for (int l = from; l < to; l++)
      sum -= s_at(sys, i, l) * x[l];
    x[i] = sum / s_at(sys, i, i);
  }
}

static void invert(trxm_system *sys)
{
  int k = sys->k;
  sys->inv = check_alloc((size_t)k * k, sizeof *sys->inv);
  for (int j = 0; j < k; j++) {
    for (int l = 0; l < k; l++)
      sys->y[l] = l == j;
    substitute(sys, 1.0L, sys->y, sys->inv + (size_t)j * k);
  }
}

/* S x = alpha b, with the gauge in g. */
static void solve(const trxm_system *sys, long double alpha, const long double *b,
                  long double *x, long double *g)
{
  int k = sys->k;
  substitute(sys, alpha, b, x);
  for (int i = 0; i < k; i++) {
    sys->y[i] = fabsl(alpha * b[i]);
    for (int l = 0; l < k; l++)
      sys->y[i] += fabsl(s_at(sys, i, l) * x[l]);
  }
  for (int i = 0; i < k; i++) {
    g[i] = 0.0L;
    for (int l = 0; l < k; l++)
      g[i] += fabsl(sys->inv[i + (size_t)l * k]) * sys->y[l];
  }
}

/* x = alpha S b, with the gauge in g. */
static void multiply(const trxm_system *sys, long double alpha, const long double *b,
                     long double *x, long double *g)
{
  int k = sys->k;
  for (int i = 0; i < k; i++) {
    long double sum = 0.0L, mag = 0.0L;
    for (int l = 0; l < k; l++) {
      sum += s_at(sys, i, l) * b[l];
      mag += fabsl(s_at(sys, i, l) * b[l]);
    }
    x[i] = alpha * sum;
    g[i] = fabsl(alpha) * mag;
  }
}

/* ref and gauge, m x n with leading dimension m; with alpha = 0 both are 0, since
 * sub(B) is then set to zero without being read. */
static void expected(const trxm_case *c, double *ref, double *gauge)
{
  int m = c->m, n = c->n, k = order_of(c), left = is_left(c);
  size_t mn = (size_t)m * (size_t)n;
  for (size_t p = 0; p < mn; p++)
    ref[p] = gauge[p] = 0.0;
  if (mn == 0 || c->alpha == 0.0)
    return;
  /* S(i,l) is sub(A)'s (i,l) where op and the side's transposition cancel. */
  int direct = is_plain(c) == left;
  trxm_system sys = {.k = k,
                     .lower = is_upper(c) != direct,
                     .s = check_alloc((size_t)k * k, sizeof(long double)),
                     .y = check_alloc((size_t)k, sizeof(long double))};
  for (int l = 0; l < k; l++)
    for (int i = 0; i < k; i++)
      sys.s[i + (size_t)l * k] = direct ? a_taken(c, i, l) : a_taken(c, l, i);
  if (solving)
    invert(&sys);
  double *b0 = check_dense_sub(check_data_id(&c->head, MAT_B), &c->op[MAT_B], m, n);
  long double *b = check_alloc((size_t)k, sizeof *b), *x = check_alloc((size_t)k, sizeof *x),
              *g = check_alloc((size_t)k, sizeof *g);
  for (int v = 0; v < (left ? n : m); v++) {
    /* Element l of vector v sits at b0[l * step + v * stride]. */
    size_t step = left ? 1 : (size_t)m, stride = left ? (size_t)m : 1;
    for (int l = 0; l < k; l++)
      b[l] = b0[l * step + v * stride];
    if (solving)
      solve(&sys, c->alpha, b, x, g);
    else
      multiply(&sys, c->alpha, b, x, g);
    for (int l = 0; l < k; l++) {
      ref[l * step + v * stride] = (double)x[l];
      gauge[l * step + v * stride] = (double)g[l];
    }
  }
  free(b);
  free(x);
  free(g);
  free(b0);
  free(sys.s);
  free(sys.inv);
  free(sys.y);
}

/* ---- one rank's share of a case ----------------------------------------------------- */

static long zone_of(const void *ctx, int gr, int gc, const char **zone)
{
  const trxm_case *c = ctx;
  const operand *op = &c->op[MAT_B];
  int i = gr - (op->i - 1), j = gc - (op->j - 1);
  if (i >= 0 && i < c->m && j >= 0 && j < c->n)
    return i + (long)j * c->m;
  *zone = "outside sub(B)";
  return -1;
}

/* The call itself, through copies of every argument so that a callee writing to one
 * is caught. */
static void call_and_judge_arguments(const trxm_case *c, dist_matrix *mats,
                                     case_result *res)
{
  const operand *op = c->op;
  check_args sent, used;
  check_args_clear(&sent);
  memcpy(sent.letters, (char[]){c->side, c->uplo, c->transa, c->diag}, 4);
  memcpy(sent.ints, (int[]){c->m, c->n, op[MAT_A].i, op[MAT_A].j, op[MAT_B].i, op[MAT_B].j},
         6 * sizeof(int));
  sent.scalars[0] = c->alpha;
  for (int mat = 0; mat < MATS; mat++)
    memcpy(sent.descs[mat], mats[mat].desc, sizeof sent.descs[mat]);
  check_args_copy(&used, &sent);

  trxm_fn *routine = solving ? pdtrsm_ : pdtrmm_;
  routine(&used.letters[0], &used.letters[1], &used.letters[2], &used.letters[3],
          &used.ints[0], &used.ints[1], &used.scalars[0], mats[MAT_A].data, &used.ints[2],
          &used.ints[3], used.descs[MAT_A], mats[MAT_B].data, &used.ints[4], &used.ints[5],
          used.descs[MAT_B]);

  check_args_judge(&c->head, &sent, &used, res);
}

static case_result run_case(const void *cv, int context, int myrow, int mycol)
{
  const trxm_case *c = cv;
  case_result res = {0};
  dist_matrix mats[MATS];
  for (int mat = 0; mat < MATS; mat++)
    check_dist_create(&mats[mat], &c->op[mat], context, c->head.grid, myrow, mycol);
  check_dist_fill(&mats[MAT_A], fill_a, c);
  check_dist_fill(&mats[MAT_B], fill_b, c);
  size_t mn = (size_t)c->m * (size_t)c->n;
  double *ref = check_alloc(mn, sizeof *ref), *gauge = check_alloc(mn, sizeof *gauge);
  expected(c, ref, gauge);

  call_and_judge_arguments(c, mats, &res);

  check_judge_output(&c->head, &mats[MAT_B], 'B', zone_of, c, ref, gauge, &res);
  check_judge_input(&c->head, &mats[MAT_A], 'A', &res);
  free(ref);
  free(gauge);
  for (int mat = 0; mat < MATS; mat++)
    check_dist_free(&mats[mat]);
  return res;
}

static void format_case(char *buf, size_t len, const void *cv)
{
  const trxm_case *c = cv;
  int used = snprintf(buf, len,
                      "grid %dx%d order %c case %ld: side=%c uplo=%c transa=%c diag=%c m=%d "
                      "n=%d alpha=%g nana=%d nanb=%d nanother=%d nandiag=%d layout=%s%s",
                      c->head.grid.nprow, c->head.grid.npcol, c->head.order, c->head.index,
                      c->side, c->uplo, c->transa, c->diag, c->m, c->n, c->alpha, c->nan_a,
                      c->nan_b, c->nan_other, c->nan_diag, c->head.layout,
                      c->alike_a ? "+alike" : "");
  for (int mat = 0; mat < MATS && used > 0 && (size_t)used < len; mat++)
    used += check_format_operand(buf + used, len - (size_t)used, mat_names[mat], &c->op[mat]);
}

int check_trxm_main(int solve_set, int argc, char **argv)
{
  static const check_routine routines[2] = {
      {
          .program = "pdtrmm_check",
          .routine = "pdtrmm",
          .stats_index = HPD_ROUTINE_PDTRMM,
          .judged = "sub(B)",
          .full_what = "every (SIDE, UPLO, TRANSA, DIAG) with every shape",
          .quick_cases = QUICK_CASES,
          .full_cases = FULL_CASES,
          .case_size = sizeof(trxm_case),
          .shapes = NSHAPES,
          .require_engine = 1,
          .make = make_case,
          .run = run_case,
          .format = format_case,
      },
      {
          .program = "pdtrsm_check",
          .routine = "pdtrsm",
          .stats_index = HPD_ROUTINE_PDTRSM,
          .judged = "sub(B)",
          .full_what = "every (SIDE, UPLO, TRANSA, DIAG) with every shape",
          .quick_cases = QUICK_CASES,
          .full_cases = FULL_CASES,
          .case_size = sizeof(trxm_case),
          .shapes = NSHAPES,
          .require_engine = 1,
          .make = make_case,
          .run = run_case,
          .format = format_case,
      },
  };
  solving = solve_set != 0;
  return check_main(&routines[solving], argc, argv);
}
