/*
 * pdsyrk_check: the correctness sweep that judges any pdsyrk_ linked ahead of ScaLAPACK.
 *
 * sub(C) := alpha*sub(A)*sub(A)' + beta*sub(C) (trans 'N', sub(A) N x K) or
 * alpha*sub(A)'*sub(A) + beta*sub(C) (trans 'T' or 'C', sub(A) K x N), where only the
 * triangle of the N x N sub(C) that uplo names may be read or written.  Each rank
 * computes that triangle serially from the definition and checks every local entry of
 * C it owns: the triangle against the expected values, everything else (the other
 * triangle, the rest of C, padding, guards) bit for bit.  The other triangle starts as
 * NaN in some cases, so that reading it shows in the triangle; A starts as NaN when
 * alpha = 0, since it may not be read then either.
 *
 *   pdsyrk_check [--quick | --full] [--seed N] [-v] [--grids PxQ,...] [--cases N]
 *                [--case I] [hpdaemon options such as -t 0.2 or --report]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_sweep.h"
#include "hpdaemon.h"

void pdsyrk_(const char *uplo, const char *trans, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);

/* ---- the sweep's vocabulary ------------------------------------------------------ */

/* 97 with blocks of 80 gives one process runs of consecutive columns longer than 64,
 * which an implementation may well cut into pieces along the diagonal. */
static const int dims[] = {0, 1, 7, 13, 31, 53, 97};
#define NDIMS COUNT(dims)
#define NSHAPES (NDIMS * NDIMS) /* (n, k) */
#define NUPLO 2
#define NTRANS 3
#define NPAIRS (NUPLO * NTRANS)
#define NCOMBOS (NPAIRS * NSHAPES)
static const char uplo_letters[NUPLO] = {'U', 'L'};
static const char trans_letters[NTRANS] = {'N', 'T', 'C'};
static const double alphas[] = {0.0, 1.0, -1.0, 2.5};
static const double betas[] = {0.0, 1.0, -0.5};
static const int blocks[] = {1, 2, 3, 4, 5, 7, 8, 11, 16, 32, 64, 80};
static const check_vocab vocab = {blocks, COUNT(blocks), 96};

#define ANCHORS 8
#define ANCHOR_IDLE_OWNERS 3
#define ANCHOR_LARGE_BLOCKS 5
#define ANCHOR_WIDE 6 /* and 7 */
#define QUICK_CASES (ANCHORS + 126)
/* Every (uplo, trans, n, k) three times over, each time with a layout of its own. */
#define FULL_CASES (ANCHORS + 3 * NCOMBOS)

enum { MAT_A, MAT_C, MATS };
static const char mat_names[MATS] = {'A', 'C'};

typedef struct syrk_case {
  check_head head;
  char uplo, trans;
  int n, k;
  double alpha, beta;
  int nan_fill;  /* the triangle starts as NaN: with beta = 0 none of it may be read */
  int nan_other; /* the other strict triangle starts as NaN: it may never be read */
  int nan_a;     /* A starts as NaN: with alpha = 0 it may not be read */
  int sym_c;     /* sub(C)'s rows and columns share offset, blocks and source */
  operand op[MATS];
} syrk_case;

static uint64_t data_id(const syrk_case *c, int mat)
{
  return check_mix64(c->head.key ^ (uint64_t)(mat + 1));
}

static int is_upper(const syrk_case *c)
{
  return c->uplo == 'U' || c->uplo == 'u';
}

static int is_plain(const syrk_case *c)
{
  return c->trans == 'N' || c->trans == 'n';
}

/* A NaN of its own for the other triangle, told apart from padding in a report. */
static double other_triangle_value(void)
{
  uint64_t bits = 0x7FF80000F00DF00Dull;
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

/* ---- building a case -------------------------------------------------------------- */

static void sub_extent(const syrk_case *c, int mat, int *rows, int *cols)
{
  if (mat == MAT_A) {
    *rows = is_plain(c) ? c->n : c->k;
    *cols = is_plain(c) ? c->k : c->n;
  } else {
    *rows = c->n;
    *cols = c->n;
  }
}

/* Combination j of (uplo, trans, shape): every 6 consecutive j hold all pairs, and each
 * pair walks the shapes in its own shuffled order, so any prefix of the sequence is a
 * spread-out sample and each NCOMBOS of it the full cross product. */
static void apply_combo(syrk_case *c, long j, const int *shape_order, uint64_t *rng)
{
  int pair = (int)(j % NPAIRS);
  long round = j / NPAIRS;
  int shape = shape_order[(round + 8L * pair) % NSHAPES];
  c->uplo = check_pick_letter_case(rng, uplo_letters[pair / NTRANS]);
  c->trans = check_pick_letter_case(rng, trans_letters[pair % NTRANS]);
  c->n = dims[shape / NDIMS];
  c->k = dims[shape % NDIMS];
}

/* The anchors: a NaN triangle wiped by alpha = beta = 0 beside a NaN other triangle; a
 * pure scaling (K = 0); an empty sub(C) (N = 0) that must stay untouched; a 1x1 update
 * on the last process of a grid of idle processes; alpha = 0, beta = 1, which changes
 * nothing; large odd blocks; and two with column blocks wider than 64 whose diagonal
 * crosses blocks off their corners, both triangles. */
static const struct {
  char uplo, trans;
  int n, k;
  double alpha, beta;
  int nan_other;
} anchors[ANCHORS] = {
    {'U', 'N', 13, 31, 0.0, 0.0, 1},  {'L', 'T', 31, 0, 2.5, -0.5, 1},
    {'U', 'N', 0, 7, 1.0, -0.5, 0},   {'l', 'c', 1, 1, 1.0, 0.0, 1},
    {'U', 'T', 53, 13, 0.0, 1.0, 1},  {'L', 'N', 53, 53, -1.0, 1.0, 0},
    {'u', 'T', 97, 31, 2.5, -0.5, 1}, {'L', 'n', 97, 7, 1.0, 0.0, 1},
};

static void apply_anchor(syrk_case *c, long index)
{
  c->uplo = anchors[index].uplo;
  c->trans = anchors[index].trans;
  c->n = anchors[index].n;
  c->k = anchors[index].k;
  c->alpha = anchors[index].alpha;
  c->beta = anchors[index].beta;
  c->nan_other = anchors[index].nan_other;
}

/* Anchors 6 and 7: C in blocks of 80 after odd first blocks, sub(C) starting inside
 * them, so that one process holds runs of more than 64 consecutive columns of sub(C)
 * and the diagonal enters every block off its corner; anchor 7 has C's rows and
 * columns alike (as in a factorization's trailing update), anchor 6 not. */
static void layout_wide(syrk_case *c, int alike)
{
  int extent[2];
  c->head.layout = alike ? "wide-alike" : "wide";
  operand *a = &c->op[MAT_A];
  sub_extent(c, MAT_A, &extent[0], &extent[1]);
  *a = (operand){.dtype = 1, .imb = 16, .inb = 16, .mb = 16, .nb = 16, .i = 4, .j = 2,
                 .lld_pad = 1};
  check_size_operand(a, extent[0], extent[1], 0, 3);
  operand *x = &c->op[MAT_C];
  if (alike)
    *x = (operand){.dtype = 2, .imb = 70, .inb = 70, .mb = 80, .nb = 80,
                   .rsrc = c->head.grid.nprow - 1, .csrc = c->head.grid.npcol - 1, .i = 3,
                   .j = 3};
  else
    *x = (operand){.dtype = 2, .imb = 37, .inb = 90, .mb = 80, .nb = 80,
                   .rsrc = c->head.grid.nprow - 1, .csrc = 0, .i = 30, .j = 3, .lld_pad = 3};
  check_size_operand(x, c->n, c->n, 1, 2);
}

/* A factorization passes sub(C) with its rows and columns alike; the random layouts
 * rarely do, so a quarter of the cases are made so. */
static void make_c_alike(syrk_case *c)
{
  operand *x = &c->op[MAT_C];
  int row_margin = x->rows - (x->i - 1) - c->n, col_margin = x->cols - (x->j - 1) - c->n;
  c->sym_c = 1;
  x->j = x->i;
  x->inb = x->imb;
  x->nb = x->mb;
  x->csrc = x->rsrc % c->head.grid.npcol;
  check_size_operand(x, c->n, c->n, row_margin > 0 ? row_margin : 0,
                     col_margin > 0 ? col_margin : 0);
}

/* Case `index` of a grid: a pure function of (seed, grid, index), so that one failing
 * case can be rerun alone. */
static void make_case(void *out, uint64_t seed, grid_shape g, long index,
                      const int *shape_order)
{
  syrk_case *c = out;
  memset(c, 0, sizeof *c);
  c->head.grid = g;
  c->head.index = index;
  c->head.order = check_grid_order(index);
  c->head.key = check_case_key(seed, g, index);
  uint64_t rng = c->head.key;
  if (index >= ANCHORS)
    apply_combo(c, (index - ANCHORS) % (3 * NCOMBOS), shape_order, &rng);
  c->alpha = alphas[check_rng_below(&rng, COUNT(alphas))];
  c->beta = betas[check_rng_below(&rng, COUNT(betas))];
  c->nan_other = check_rng_below(&rng, 2);
  if (index < ANCHORS)
    apply_anchor(c, index);
  c->nan_fill = c->beta == 0.0;
  c->nan_a = c->alpha == 0.0;
  int extent[MATS][2];
  for (int mat = 0; mat < MATS; mat++)
    sub_extent(c, mat, &extent[mat][0], &extent[mat][1]);
  if (index == ANCHOR_IDLE_OWNERS) {
    check_layout_idle_owners(&c->head, c->op, MATS);
  } else if (index == ANCHOR_LARGE_BLOCKS) {
    check_layout_large_blocks(&c->head, c->op, MATS, (const int(*)[2])extent);
  } else if (index == ANCHOR_WIDE || index == ANCHOR_WIDE + 1) {
    layout_wide(c, index == ANCHOR_WIDE + 1);
  } else {
    check_choose_layout(&c->head, &vocab, c->op, MATS, (const int(*)[2])extent, &rng);
    if (check_rng_below(&rng, 4) == 0)
      make_c_alike(c);
  }
}

/* ---- the expected result ------------------------------------------------------------ */

/* Whether entry (i, j) of sub(C), 0-based from its corner, is in uplo's triangle. */
static int in_triangle(const syrk_case *c, int i, int j)
{
  return is_upper(c) ? i <= j : i >= j;
}

/* Stored entry (r, q) of sub(A), before any transposition. */
static double a_entry(const syrk_case *c, int r, int q)
{
  const operand *op = &c->op[MAT_A];
  return check_entry(data_id(c, MAT_A), op->i - 1 + r, op->j - 1 + q);
}

/*
 * ref = alpha * sum_l x(i,l) x(j,l) + beta*C0(i,j) on the triangle, where x is sub(A)
 * (trans 'N') or its transpose, and the error gauge
 * gauge = |alpha| * sum_l |x(i,l) x(j,l)| + |beta|*|C0(i,j)|; both n x n, leading
 * dimension n.  The sums run in long double so that the expected value's own rounding
 * is far below what the ratio allows the call under test.  With beta = 0 the initial C
 * plays no part, and with alpha = 0 A none, as PBLAS specifies.
 */
static void expected(const syrk_case *c, double *ref, double *gauge)
{
  int n = c->n, k = c->k, plain = is_plain(c);
  int arows = plain ? n : k, acols = plain ? k : n;
  double *a = check_alloc((size_t)arows * (size_t)acols, sizeof *a);
  for (int q = 0; q < acols; q++)
    for (int r = 0; r < arows; r++)
      a[r + (size_t)q * arows] = a_entry(c, r, q);
  const operand *op = &c->op[MAT_C];
  uint64_t cid = data_id(c, MAT_C);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      if (!in_triangle(c, i, j))
        continue;
      long double sum = 0.0L, mag = 0.0L;
      if (c->alpha != 0.0)
        for (int l = 0; l < k; l++) {
          long double x = plain ? a[i + (size_t)l * n] : a[l + (size_t)i * k];
          long double y = plain ? a[j + (size_t)l * n] : a[l + (size_t)j * k];
          sum += x * y;
          mag += fabsl(x * y);
        }
      double c0 = c->beta == 0.0 ? 0.0 : check_entry(cid, op->i - 1 + i, op->j - 1 + j);
      size_t p = (size_t)i + (size_t)j * n;
      ref[p] = (double)((long double)c->alpha * sum + (long double)c->beta * c0);
      gauge[p] = (double)(fabsl((long double)c->alpha) * mag + fabs(c->beta) * fabs(c0));
    }
  free(a);
}

/* ---- one rank's share of a case ----------------------------------------------------- */

static long zone_of(const void *ctx, int gr, int gc, const char **zone)
{
  const syrk_case *c = ctx;
  const operand *op = &c->op[MAT_C];
  int i = gr - (op->i - 1), j = gc - (op->j - 1);
  if (i < 0 || i >= c->n || j < 0 || j >= c->n) {
    *zone = "outside sub(C)";
    return -1;
  }
  if (in_triangle(c, i, j))
    return i + (long)j * c->n;
  *zone = is_upper(c) ? "below the diagonal of sub(C)" : "above the diagonal of sub(C)";
  return -1;
}

static double fill_a(const void *ctx, int gi, int gj)
{
  const syrk_case *c = ctx;
  return c->nan_a ? NAN : check_entry(data_id(c, MAT_A), gi, gj);
}

static double fill_c(const void *ctx, int gi, int gj)
{
  const syrk_case *c = ctx;
  const operand *op = &c->op[MAT_C];
  int i = gi - (op->i - 1), j = gj - (op->j - 1);
  if (i >= 0 && i < c->n && j >= 0 && j < c->n) {
    if (in_triangle(c, i, j) && c->nan_fill)
      return NAN;
    if (!in_triangle(c, i, j) && c->nan_other)
      return other_triangle_value();
  }
  return check_entry(data_id(c, MAT_C), gi, gj);
}

/* The call itself, through copies of every argument so that a callee writing to one
 * is caught. */
static void call_and_judge_arguments(const syrk_case *c, dist_matrix *mats,
                                     case_result *res)
{
  const operand *op = c->op;
  int args[] = {c->n, c->k, op[MAT_A].i, op[MAT_A].j, op[MAT_C].i, op[MAT_C].j};
  char letters[] = {c->uplo, c->trans};
  double scalars[] = {c->alpha, c->beta};
  int descs[MATS][11];
  for (int mat = 0; mat < MATS; mat++)
    memcpy(descs[mat], mats[mat].desc, sizeof descs[mat]);

  pdsyrk_(&letters[0], &letters[1], &args[0], &args[1], &scalars[0], mats[MAT_A].data,
          &args[2], &args[3], descs[MAT_A], &scalars[1], mats[MAT_C].data, &args[4],
          &args[5], descs[MAT_C]);

  int intact = letters[0] == c->uplo && letters[1] == c->trans &&
               check_same_bits(scalars[0], c->alpha) && check_same_bits(scalars[1], c->beta) &&
               args[0] == c->n && args[1] == c->k && args[2] == op[MAT_A].i &&
               args[3] == op[MAT_A].j && args[4] == op[MAT_C].i && args[5] == op[MAT_C].j;
  for (int mat = 0; mat < MATS; mat++)
    intact = intact && memcmp(descs[mat], mats[mat].desc, sizeof descs[mat]) == 0;
  if (!intact) {
    res->bad_inputs++;
    check_detail(&c->head, "a scalar, index or descriptor argument was modified");
  }
}

static case_result run_case(const void *cv, int context, int myrow, int mycol)
{
  const syrk_case *c = cv;
  case_result res = {0};
  dist_matrix mats[MATS];
  for (int mat = 0; mat < MATS; mat++)
    check_dist_create(&mats[mat], &c->op[mat], context, c->head.grid, myrow, mycol);
  check_dist_fill(&mats[MAT_A], fill_a, c);
  check_dist_fill(&mats[MAT_C], fill_c, c);
  size_t nn = (size_t)c->n * (size_t)c->n;
  double *ref = check_alloc(nn, sizeof *ref), *gauge = check_alloc(nn, sizeof *gauge);
  expected(c, ref, gauge);

  call_and_judge_arguments(c, mats, &res);

  check_judge_output(&c->head, &mats[MAT_C], 'C', zone_of, c, ref, gauge, &res);
  check_judge_input(&c->head, &mats[MAT_A], 'A', &res);
  free(ref);
  free(gauge);
  for (int mat = 0; mat < MATS; mat++)
    check_dist_free(&mats[mat]);
  return res;
}

static void format_case(char *buf, size_t len, const void *cv)
{
  const syrk_case *c = cv;
  int used = snprintf(buf, len,
                      "grid %dx%d order %c case %ld: uplo=%c trans=%c n=%d k=%d alpha=%g "
                      "beta=%g nanfill=%d nanother=%d nana=%d layout=%s%s",
                      c->head.grid.nprow, c->head.grid.npcol, c->head.order, c->head.index,
                      c->uplo, c->trans, c->n, c->k, c->alpha, c->beta, c->nan_fill,
                      c->nan_other, c->nan_a, c->head.layout, c->sym_c ? "+alike" : "");
  for (int mat = 0; mat < MATS && used > 0 && (size_t)used < len; mat++)
    used += check_format_operand(buf + used, len - (size_t)used, mat_names[mat], &c->op[mat]);
}

int main(int argc, char **argv)
{
  static const check_routine routine = {
      .program = "pdsyrk_check",
      .routine = "pdsyrk",
      .stats_index = HPD_ROUTINE_PDSYRK,
      .judged = "the triangle",
      .full_what = "every (UPLO, TRANS) pair with every shape, three times",
      .quick_cases = QUICK_CASES,
      .full_cases = FULL_CASES,
      .case_size = sizeof(syrk_case),
      .shapes = NSHAPES,
      .require_engine = 1,
      .make = make_case,
      .run = run_case,
      .format = format_case,
  };
  return check_main(&routine, argc, argv);
}
