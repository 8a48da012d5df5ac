/*
 * pdsyr2k_check: the correctness sweep that judges any pdsyr2k_ linked ahead of
 * ScaLAPACK.
 *
 * sub(C) := alpha*(sub(A)*sub(B)' + sub(B)*sub(A)') + beta*sub(C) (trans 'N', sub(A) and
 * sub(B) N x K) or alpha*(sub(A)'*sub(B) + sub(B)'*sub(A)) + beta*sub(C) (trans 'T' or
 * 'C', K x N), where only the triangle of the N x N sub(C) that uplo names may be read
 * or written.  Each rank computes that triangle serially from the definition and checks
 * every local entry of C it owns: the triangle against the expected values, everything
 * else (the other triangle, the rest of C, padding, guards) bit for bit; A and B must
 * come back bit for bit.  The other triangle starts as NaN in some cases; with beta = 0
 * the triangle does, and with alpha = 0 all of A and B, since none of them may be read
 * then.
 *
 *   pdsyr2k_check [--quick | --full] [--seed N] [-v] [--grids PxQ,...] [--cases N]
 *                 [--case I] [hpdaemon options such as -t 0.2 or --report]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_level3.h"
#include "check_sweep.h"
#include "hpdaemon.h"

void pdsyr2k_(const char *uplo, const char *trans, const int *n, const int *k,
              const double *alpha, const double *a, const int *ia, const int *ja,
              const int *desca, const double *b, const int *ib, const int *jb,
              const int *descb, const double *beta, double *c, const int *ic, const int *jc,
              const int *descc);

/* ---- the sweep's vocabulary ------------------------------------------------------ */

/* 97 with blocks of 80 gives one process runs of consecutive columns longer than 64,
 * which an implementation may well cut into pieces along the diagonal. */
static const int dims[] = {0, 1, 7, 13, 31, 53, 97};
#define NDIMS COUNT(dims)
#define NSHAPES (NDIMS * NDIMS) /* (n, k) */
#define NPAIRS 6                /* (uplo, trans) */
#define NCOMBOS (NPAIRS * NSHAPES)
static const char uplo_letters[] = {'U', 'L'};
static const char trans_letters[] = {'N', 'T', 'C'};
static const double alphas[] = {0.0, 1.0, -1.0, 2.5};
static const double betas[] = {0.0, 1.0, -0.5};
static const int blocks[] = {1, 2, 3, 4, 5, 7, 8, 11, 16, 32, 64, 80};
static const check_vocab vocab = {blocks, COUNT(blocks), 96};

#define ANCHORS 8
#define ANCHOR_IDLE_OWNERS 3
#define ANCHOR_LARGE_BLOCKS 5
#define ANCHOR_WIDE 6 /* and 7 */
#define QUICK_CASES (ANCHORS + 21 * NPAIRS)
/* Every (uplo, trans, n, k) three times over, each time with a layout of its own. */
#define FULL_CASES (ANCHORS + 3 * NCOMBOS)

enum { MAT_A, MAT_B, MAT_C, MATS };
static const char mat_names[MATS] = {'A', 'B', 'C'};

typedef struct syr2k_case {
  check_head head;
  char uplo, trans;
  int n, k;
  double alpha, beta;
  int nan_fill;  /* the triangle starts as NaN: with beta = 0 none of it may be read */
  int nan_other; /* the other strict triangle starts as NaN: it may never be read */
  int nan_ab;    /* A and B start as NaN: with alpha = 0 they may not be read */
  int sym_c;     /* sub(C)'s rows and columns share offset, blocks and source */
  operand op[MATS];
} syr2k_case;

static int is_upper(const syr2k_case *c)
{
  return check_is(c->uplo, 'U');
}

static int is_plain(const syr2k_case *c)
{
  return check_is(c->trans, 'N');
}

/* ---- building a case -------------------------------------------------------------- */

static void sub_extent(const syr2k_case *c, int mat, int *rows, int *cols)
{
  if (mat == MAT_C) {
    *rows = c->n;
    *cols = c->n;
  } else {
    *rows = is_plain(c) ? c->n : c->k;
    *cols = is_plain(c) ? c->k : c->n;
  }
}

static void apply_combo(syr2k_case *c, long j, const int *shape_order, uint64_t *rng)
{
  int pair, shape;
  check_pick_combo(j, NPAIRS, NSHAPES, shape_order, &pair, &shape);
  c->uplo = check_pick_letter_case(rng, uplo_letters[pair / 3]);
  c->trans = check_pick_letter_case(rng, trans_letters[pair % 3]);
  c->n = dims[shape / NDIMS];
  c->k = dims[shape % NDIMS];
}

/* The anchors: a NaN triangle wiped by alpha = beta = 0 beside a NaN other triangle and
 * NaN A and B; a pure scaling (K = 0); an empty sub(C) (N = 0) that must stay untouched;
 * a 1x1 update on the last process of a grid of idle processes; alpha = 0, beta = 1,
 * which changes nothing; large odd blocks; and two with column blocks of C wider than
 * 64 whose diagonal crosses blocks off their corners, both triangles. */
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

static void apply_anchor(syr2k_case *c, long index)
{
  c->uplo = anchors[index].uplo;
  c->trans = anchors[index].trans;
  c->n = anchors[index].n;
  c->k = anchors[index].k;
  c->alpha = anchors[index].alpha;
  c->beta = anchors[index].beta;
  c->nan_other = anchors[index].nan_other;
}

/* Case `index` of a grid: a pure function of (seed, grid, index), so that one failing
 * case can be rerun alone. */
static void make_case(void *out, uint64_t seed, grid_shape g, long index,
                      const int *shape_order)
{
  syr2k_case *c = out;
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
    c->sym_c = index == ANCHOR_WIDE + 1;
    check_layout_wide(&c->head, c->op, MATS, (const int(*)[2])extent, MAT_C, c->sym_c);
  } else {
    check_choose_layout(&c->head, &vocab, c->op, MATS, (const int(*)[2])extent, &rng);
    /* A factorization passes sub(C) so; the random layouts rarely do. */
    if (check_rng_below(&rng, 4) == 0) {
      c->sym_c = 1;
      check_make_alike(&c->op[MAT_C], c->n, g);
    }
  }
}

/* ---- the expected result ------------------------------------------------------------ */

/*
 * ref = alpha * sum_l (x(i,l) y(j,l) + y(i,l) x(j,l)) + beta*C0(i,j) on the triangle,
 * where x and y are sub(A) and sub(B) (trans 'N') or their transposes, and the error
 * gauge gauge = |alpha| * sum_l (|x(i,l) y(j,l)| + |y(i,l) x(j,l)|) + |beta*C0(i,j)|;
 * both n x n, leading dimension n.  The sums run in long double so that the expected
 * value's own rounding is far below what the ratio allows.  With beta = 0 the initial C
 * plays no part, and with alpha = 0 neither A nor B, as PBLAS specifies.
 */
static void expected(const syr2k_case *c, double *ref, double *gauge)
{
  int n = c->n, k = c->k, plain = is_plain(c);
  int rows = plain ? n : k, cols = plain ? k : n;
  double *a = check_dense_sub(check_data_id(&c->head, MAT_A), &c->op[MAT_A], rows, cols);
  double *b = check_dense_sub(check_data_id(&c->head, MAT_B), &c->op[MAT_B], rows, cols);
  const operand *op = &c->op[MAT_C];
  uint64_t cid = check_data_id(&c->head, MAT_C);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      if (!check_in_triangle(is_upper(c), i, j))
        continue;
      long double sum = 0.0L, mag = 0.0L;
      if (c->alpha != 0.0)
        for (int l = 0; l < k; l++) {
          /* Element (r, l) of x or y sits at [r + l*n] (trans 'N') or [l + r*k]. */
          size_t pi = plain ? i + (size_t)l * n : l + (size_t)i * k;
          size_t pj = plain ? j + (size_t)l * n : l + (size_t)j * k;
          long double first = (long double)a[pi] * b[pj], second = (long double)b[pi] * a[pj];
          sum += first + second;
          mag += fabsl(first) + fabsl(second);
        }
      double c0 = c->beta == 0.0 ? 0.0 : check_entry(cid, op->i - 1 + i, op->j - 1 + j);
      size_t p = (size_t)i + (size_t)j * n;
      ref[p] = (double)((long double)c->alpha * sum + (long double)c->beta * c0);
      gauge[p] = (double)(fabsl((long double)c->alpha) * mag + fabs(c->beta) * fabs(c0));
    }
  free(a);
  free(b);
}

/* ---- one rank's share of a case ----------------------------------------------------- */

static long zone_of(const void *ctx, int gr, int gc, const char **zone)
{
  const syr2k_case *c = ctx;
  const operand *op = &c->op[MAT_C];
  int i = gr - (op->i - 1), j = gc - (op->j - 1);
  if (i < 0 || i >= c->n || j < 0 || j >= c->n) {
    *zone = "outside sub(C)";
    return -1;
  }
  if (check_in_triangle(is_upper(c), i, j))
    return i + (long)j * c->n;
  *zone = is_upper(c) ? "below the diagonal of sub(C)" : "above the diagonal of sub(C)";
  return -1;
}

static double fill_a(const void *ctx, int gi, int gj)
{
  const syr2k_case *c = ctx;
  return c->nan_ab ? NAN : check_entry(check_data_id(&c->head, MAT_A), gi, gj);
}

static double fill_b(const void *ctx, int gi, int gj)
{
  const syr2k_case *c = ctx;
  return c->nan_ab ? NAN : check_entry(check_data_id(&c->head, MAT_B), gi, gj);
}

static double fill_c(const void *ctx, int gi, int gj)
{
  const syr2k_case *c = ctx;
  const operand *op = &c->op[MAT_C];
  int i = gi - (op->i - 1), j = gj - (op->j - 1);
  if (i >= 0 && i < c->n && j >= 0 && j < c->n) {
    int inside = check_in_triangle(is_upper(c), i, j);
    if (inside && c->nan_fill)
      return NAN;
    if (!inside && c->nan_other)
      return check_other_triangle_value();
  }
  return check_entry(check_data_id(&c->head, MAT_C), gi, gj);
}

/* The call itself, through copies of every argument so that a callee writing to one
 * is caught. */
static void call_and_judge_arguments(const syr2k_case *c, dist_matrix *mats,
                                     case_result *res)
{
  const operand *op = c->op;
  check_args sent, used;
  check_args_clear(&sent);
  memcpy(sent.letters, (char[]){c->uplo, c->trans}, 2);
  memcpy(sent.ints,
         (int[]){c->n, c->k, op[MAT_A].i, op[MAT_A].j, op[MAT_B].i, op[MAT_B].j, op[MAT_C].i,
                 op[MAT_C].j},
         8 * sizeof(int));
  sent.scalars[0] = c->alpha;
  sent.scalars[1] = c->beta;
  for (int mat = 0; mat < MATS; mat++)
    memcpy(sent.descs[mat], mats[mat].desc, sizeof sent.descs[mat]);
  check_args_copy(&used, &sent);

  pdsyr2k_(&used.letters[0], &used.letters[1], &used.ints[0], &used.ints[1],
           &used.scalars[0], mats[MAT_A].data, &used.ints[2], &used.ints[3],
           used.descs[MAT_A], mats[MAT_B].data, &used.ints[4], &used.ints[5],
           used.descs[MAT_B], &used.scalars[1], mats[MAT_C].data, &used.ints[6],
           &used.ints[7], used.descs[MAT_C]);

  check_args_judge(&c->head, &sent, &used, res);
}

static case_result run_case(const void *cv, int context, int myrow, int mycol)
{
  static check_value_fn *const fill[MATS] = {fill_a, fill_b, fill_c};
  const syr2k_case *c = cv;
  case_result res = {0};
  dist_matrix mats[MATS];
  for (int mat = 0; mat < MATS; mat++) {
    check_dist_create(&mats[mat], &c->op[mat], context, c->head.grid, myrow, mycol);
    check_dist_fill(&mats[mat], fill[mat], c);
  }
  size_t nn = (size_t)c->n * (size_t)c->n;
  double *ref = check_alloc(nn, sizeof *ref), *gauge = check_alloc(nn, sizeof *gauge);
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
  const syr2k_case *c = cv;
  int used = snprintf(buf, len,
                      "grid %dx%d order %c case %ld: uplo=%c trans=%c n=%d k=%d alpha=%g "
                      "beta=%g nanfill=%d nanother=%d nanab=%d layout=%s%s",
                      c->head.grid.nprow, c->head.grid.npcol, c->head.order, c->head.index,
                      c->uplo, c->trans, c->n, c->k, c->alpha, c->beta, c->nan_fill,
                      c->nan_other, c->nan_ab, c->head.layout, c->sym_c ? "+alike" : "");
  for (int mat = 0; mat < MATS && used > 0 && (size_t)used < len; mat++)
    used += check_format_operand(buf + used, len - (size_t)used, mat_names[mat], &c->op[mat]);
}

int main(int argc, char **argv)
{
  static const check_routine routine = {
      .program = "pdsyr2k_check",
      .routine = "pdsyr2k",
      .stats_index = HPD_ROUTINE_PDSYR2K,
      .judged = "the triangle",
      .full_what = "every (UPLO, TRANS) pair with every shape, three times",
      .quick_cases = QUICK_CASES,
      .full_cases = FULL_CASES,
      .case_size = sizeof(syr2k_case),
      .shapes = NSHAPES,
      .require_engine = 1,
      .make = make_case,
      .run = run_case,
      .format = format_case,
  };
  return check_main(&routine, argc, argv);
}
