/*
 * pdsymm_check: the correctness sweep that judges any pdsymm_ linked ahead of ScaLAPACK.
 *
 * sub(C) := alpha*sub(A)*sub(B) + beta*sub(C) (side 'L') or
 * alpha*sub(B)*sub(A) + beta*sub(C) (side 'R'), where sub(A) is symmetric of order M
 * (side 'L') or N ('R') and only its triangle uplo may be read; sub(B) and sub(C) are
 * M x N.  Each rank computes sub(C) serially from the definition and checks every local
 * entry of C it owns: sub(C) against the expected values, everything else (the rest of
 * C, padding, guards) bit for bit; A and B must come back bit for bit.  The other strict
 * triangle of sub(A) starts as NaN in some cases; with alpha = 0 all of A and B do, and
 * with beta = 0 all of sub(C), since none of them may be read then.
 *
 *   pdsymm_check [--quick | --full] [--seed N] [-v] [--grids PxQ,...] [--cases N]
 *                [--case I] [hpdaemon options such as -t 0.2 or --report]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_level3.h"
#include "check_sweep.h"
#include "hpdaemon.h"

void pdsymm_(const char *side, const char *uplo, const int *m, const int *n,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *b, const int *ib, const int *jb,
             const int *descb, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);

/* ---- the sweep's vocabulary ------------------------------------------------------ */

/* 97 with blocks of 80 gives one process runs of consecutive columns longer than 64. */
static const int dims[] = {0, 1, 7, 13, 31, 53, 97};
#define NDIMS COUNT(dims)
#define NSHAPES (NDIMS * NDIMS) /* (m, n) */
#define NPAIRS 4                /* (side, uplo) */
#define NCOMBOS (NPAIRS * NSHAPES)
static const char side_letters[] = {'L', 'R'};
static const char uplo_letters[] = {'U', 'L'};
static const double alphas[] = {0.0, 1.0, -1.0, 2.5};
static const double betas[] = {0.0, 1.0, -0.5};
static const int blocks[] = {1, 2, 3, 4, 5, 7, 8, 11, 16, 32, 64, 80};
static const check_vocab vocab = {blocks, COUNT(blocks), 96};

#define ANCHORS 8
#define ANCHOR_IDLE_OWNERS 3
#define ANCHOR_LARGE_BLOCKS 5
#define ANCHOR_WIDE 6 /* and 7 */
#define QUICK_CASES (ANCHORS + 30 * NPAIRS)
/* Every (side, uplo, m, n) three times over, each time with a layout of its own. */
#define FULL_CASES (ANCHORS + 3 * NCOMBOS)

enum { MAT_A, MAT_B, MAT_C, MATS };
static const char mat_names[MATS] = {'A', 'B', 'C'};

typedef struct symm_case {
  check_head head;
  char side, uplo;
  int m, n;
  double alpha, beta;
  int nan_fill;  /* sub(C) starts as NaN: with beta = 0 it may not be read */
  int nan_ab;    /* A and B start as NaN: with alpha = 0 they may not be read */
  int nan_other; /* the strict triangle of sub(A) that uplo leaves out starts as NaN */
  int alike_a;   /* sub(A)'s rows and columns share offset, blocks and source */
  operand op[MATS];
} symm_case;

static int is_left(const symm_case *c)
{
  return check_is(c->side, 'L');
}

static int is_upper(const symm_case *c)
{
  return check_is(c->uplo, 'U');
}

/* The order of sub(A). */
static int order_of(const symm_case *c)
{
  return is_left(c) ? c->m : c->n;
}

/* ---- building a case -------------------------------------------------------------- */

static void sub_extent(const symm_case *c, int mat, int *rows, int *cols)
{
  *rows = mat == MAT_A ? order_of(c) : c->m;
  *cols = mat == MAT_A ? order_of(c) : c->n;
}

static void apply_combo(symm_case *c, long j, const int *shape_order, uint64_t *rng)
{
  int pair, shape;
  check_pick_combo(j, NPAIRS, NSHAPES, shape_order, &pair, &shape);
  c->side = check_pick_letter_case(rng, side_letters[pair / 2]);
  c->uplo = check_pick_letter_case(rng, uplo_letters[pair % 2]);
  c->m = dims[shape / NDIMS];
  c->n = dims[shape % NDIMS];
}

/* The anchors: a NaN sub(C) wiped by alpha = beta = 0 beside NaN A and B; a plain
 * update; an empty sub(C) (M = 0) that must stay untouched; a 1x1 update on the last
 * process of a grid of idle processes; alpha = 0, beta = 1, which changes nothing; large
 * odd blocks; and two with blocks of sub(A) wider than 64 whose diagonal crosses blocks
 * off their corners, either side. */
static const struct {
  char side, uplo;
  int m, n;
  double alpha, beta;
  int nan_other;
} anchors[ANCHORS] = {
    {'L', 'U', 13, 31, 0.0, 0.0, 1},  {'R', 'L', 31, 7, 2.5, -0.5, 1},
    {'L', 'U', 0, 7, 1.0, -0.5, 0},   {'r', 'l', 1, 1, 1.0, 0.0, 1},
    {'L', 'U', 53, 13, 0.0, 1.0, 1},  {'R', 'L', 53, 31, -1.0, 1.0, 0},
    {'l', 'U', 97, 31, 2.5, -0.5, 1}, {'R', 'l', 31, 97, 1.0, 0.0, 1},
};

static void apply_anchor(symm_case *c, long index)
{
  c->side = anchors[index].side;
  c->uplo = anchors[index].uplo;
  c->m = anchors[index].m;
  c->n = anchors[index].n;
  c->alpha = anchors[index].alpha;
  c->beta = anchors[index].beta;
  c->nan_other = anchors[index].nan_other;
}

/* Case `index` of a grid: a pure function of (seed, grid, index), so that one failing
 * case can be rerun alone. */
static void make_case(void *out, uint64_t seed, grid_shape g, long index,
                      const int *shape_order)
{
  symm_case *c = out;
  memset(c, 0, sizeof *c);
  uint64_t rng = check_start_case(&c->head, seed, g, index);
  if (index >= ANCHORS)
    apply_combo(c, (index - ANCHORS) % (3 * NCOMBOS), shape_order, &rng);
  c->alpha = alphas[check_rng_below(&rng, COUNT(alphas))];
  c->beta = betas[check_rng_below(&rng, COUNT(betas))];
  c->nan_other = check_rng_below(&rng, 2);
  if (index < ANCHORS)
    apply_anchor(c, index);
  c->nan_fill = c->beta == 0.0;
  c->nan_ab = c->alpha == 0.0;
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

/* ---- the expected result ------------------------------------------------------------ */

/*
 * ref = alpha * sum_l S(i,l) B(l,j) + beta*C0(i,j) (side 'L') or
 * alpha * sum_l B(i,l) S(l,j) + beta*C0(i,j) ('R'), S being sub(A) made symmetric from
 * its triangle uplo, and the error gauge gauge = |alpha| * sum_l |terms| + |beta*C0|;
 * both m x n, leading dimension m.  The sums run in long double so that the expected
 * value's own rounding is far below what the ratio allows.  With beta = 0 the initial C
 * plays no part, and with alpha = 0 neither A nor B, as PBLAS specifies.
 */
static void expected(const symm_case *c, double *ref, double *gauge)
{
  int m = c->m, n = c->n, k = order_of(c), left = is_left(c), upper = is_upper(c);
  double *a = check_dense_sub(check_data_id(&c->head, MAT_A), &c->op[MAT_A], k, k);
  double *b = check_dense_sub(check_data_id(&c->head, MAT_B), &c->op[MAT_B], m, n);
  double *c0 = check_dense_sub(check_data_id(&c->head, MAT_C), &c->op[MAT_C], m, n);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      long double sum = 0.0L, mag = 0.0L;
      if (c->alpha != 0.0)
        for (int l = 0; l < k; l++) {
          /* S(r, q) from the triangle that holds it. */
          int r = left ? i : l, q = left ? l : j;
          long double s = check_in_triangle(upper, r, q) ? a[r + (size_t)q * k]
                                                         : a[q + (size_t)r * k];
          long double other = left ? b[l + (size_t)j * m] : b[i + (size_t)l * m];
          sum += s * other;
          mag += fabsl(s * other);
        }
      size_t p = (size_t)i + (size_t)j * m;
      double old = c->beta == 0.0 ? 0.0 : c0[p];
      ref[p] = (double)((long double)c->alpha * sum + (long double)c->beta * old);
      gauge[p] = (double)(fabsl((long double)c->alpha) * mag + fabs(c->beta) * fabs(old));
    }
  free(a);
  free(b);
  free(c0);
}

/* ---- one rank's share of a case ----------------------------------------------------- */

static long zone_of(const void *ctx, int gr, int gc, const char **zone)
{
  const symm_case *c = ctx;
  const operand *op = &c->op[MAT_C];
  int i = gr - (op->i - 1), j = gc - (op->j - 1);
  if (i >= 0 && i < c->m && j >= 0 && j < c->n)
    return i + (long)j * c->m;
  *zone = "outside sub(C)";
  return -1;
}

static double fill_a(const void *ctx, int gi, int gj)
{
  const symm_case *c = ctx;
  const operand *op = &c->op[MAT_A];
  int i = gi - (op->i - 1), j = gj - (op->j - 1), k = order_of(c);
  if (c->nan_ab)
    return NAN;
  if (c->nan_other && i >= 0 && i < k && j >= 0 && j < k &&
      !check_in_triangle(is_upper(c), i, j))
    return check_other_triangle_value();
  return check_entry(check_data_id(&c->head, MAT_A), gi, gj);
}

static double fill_b(const void *ctx, int gi, int gj)
{
  const symm_case *c = ctx;
  return c->nan_ab ? NAN : check_entry(check_data_id(&c->head, MAT_B), gi, gj);
}

static double fill_c(const void *ctx, int gi, int gj)
{
  const symm_case *c = ctx;
  const operand *op = &c->op[MAT_C];
  int i = gi - (op->i - 1), j = gj - (op->j - 1);
  if (c->nan_fill && i >= 0 && i < c->m && j >= 0 && j < c->n)
    return NAN;
  return check_entry(check_data_id(&c->head, MAT_C), gi, gj);
}

/* The call itself, through copies of every argument so that a callee writing to one
 * is caught. */
static void call_and_judge_arguments(const symm_case *c, dist_matrix *mats, case_result *res)
{
  const operand *op = c->op;
  check_args sent, used;
  check_args_clear(&sent);
  memcpy(sent.letters, (char[]){c->side, c->uplo}, 2);
  memcpy(sent.ints,
         (int[]){c->m, c->n, op[MAT_A].i, op[MAT_A].j, op[MAT_B].i, op[MAT_B].j, op[MAT_C].i,
                 op[MAT_C].j},
         8 * sizeof(int));
  sent.scalars[0] = c->alpha;
  sent.scalars[1] = c->beta;
  for (int mat = 0; mat < MATS; mat++)
    memcpy(sent.descs[mat], mats[mat].desc, sizeof sent.descs[mat]);
  check_args_copy(&used, &sent);

  pdsymm_(&used.letters[0], &used.letters[1], &used.ints[0], &used.ints[1], &used.scalars[0],
          mats[MAT_A].data, &used.ints[2], &used.ints[3], used.descs[MAT_A], mats[MAT_B].data,
          &used.ints[4], &used.ints[5], used.descs[MAT_B], &used.scalars[1], mats[MAT_C].data,
          &used.ints[6], &used.ints[7], used.descs[MAT_C]);

  check_args_judge(&c->head, &sent, &used, res);
}

static case_result run_case(const void *cv, int context, int myrow, int mycol)
{
  static check_value_fn *const fill[MATS] = {fill_a, fill_b, fill_c};
  const symm_case *c = cv;
  case_result res = {0};
  dist_matrix mats[MATS];
  for (int mat = 0; mat < MATS; mat++) {
    check_dist_create(&mats[mat], &c->op[mat], context, c->head.grid, myrow, mycol);
    check_dist_fill(&mats[mat], fill[mat], c);
  }
  size_t mn = (size_t)c->m * (size_t)c->n;
  double *ref = check_alloc(mn, sizeof *ref), *gauge = check_alloc(mn, sizeof *gauge);
  expected(c, ref, gauge);

  call_and_judge_arguments(c, mats, &res);

  check_judge_output(&c->head, &mats[MAT_C], 'C', zone_of, c, ref, gauge, &res);
  check_judge_input(&c->head, &mats[MAT_A], 'A', &res);
  check_judge_input(&c->head, &mats[MAT_B], 'B', &res);
  free(ref);
  free(gauge);
  for (int mat = 0; mat < MATS; mat++)
    check_dist_free(&mats[mat]);
  return res;
}

static void format_case(char *buf, size_t len, const void *cv)
{
  const symm_case *c = cv;
  int used = snprintf(buf, len,
                      "grid %dx%d order %c case %ld: side=%c uplo=%c m=%d n=%d alpha=%g "
                      "beta=%g nanfill=%d nanab=%d nanother=%d layout=%s%s",
                      c->head.grid.nprow, c->head.grid.npcol, c->head.order, c->head.index,
                      c->side, c->uplo, c->m, c->n, c->alpha, c->beta, c->nan_fill, c->nan_ab,
                      c->nan_other, c->head.layout, c->alike_a ? "+alike" : "");
  for (int mat = 0; mat < MATS && used > 0 && (size_t)used < len; mat++)
    used += check_format_operand(buf + used, len - (size_t)used, mat_names[mat], &c->op[mat]);
}

int main(int argc, char **argv)
{
  static const check_routine routine = {
      .program = "pdsymm_check",
      .routine = "pdsymm",
      .stats_index = HPD_ROUTINE_PDSYMM,
      .judged = "sub(C)",
      .full_what = "every (SIDE, UPLO) pair with every shape, three times",
      .quick_cases = QUICK_CASES,
      .full_cases = FULL_CASES,
      .case_size = sizeof(symm_case),
      .shapes = NSHAPES,
      .require_engine = 1,
      .make = make_case,
      .run = run_case,
      .format = format_case,
  };
  return check_main(&routine, argc, argv);
}
