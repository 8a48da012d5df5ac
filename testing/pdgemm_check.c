/*
 * pdgemm_check: the correctness sweep that judges any pdgemm_ linked ahead of ScaLAPACK.
 *
 * Every rank builds the same global matrices from a hash of (matrix, row, column), so
 * the sweep itself never moves matrix data: only the call under test does, and only
 * failure counts are reduced.  Each rank computes the expected sub(C) serially with
 * dgemm_ and checks every local entry of C it owns, every byte of A and B, the storage
 * around them, and every argument of the call.  The machinery it shares with the other
 * sweeps is in check_sweep.c.
 *
 *   pdgemm_check [--quick | --full] [--seed N] [-v] [--grids PxQ,...] [--cases N]
 *                [--case I] [hpdaemon options such as -t 0.2 or --report]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_sweep.h"
#include "hpdaemon.h"
#include "scalapack.h"

/* ---- the sweep's vocabulary ------------------------------------------------------ */

static const int dims[] = {0, 1, 7, 13, 31, 53};
#define NDIMS ((int)(sizeof dims / sizeof dims[0]))
#define NSHAPES (NDIMS * NDIMS * NDIMS)
#define NTRANS 3
#define NCOMBOS (NTRANS * NTRANS * NSHAPES)
static const char trans_letters[NTRANS] = {'N', 'T', 'C'};
static const double alphas[] = {0.0, 1.0, -1.0, 2.5};
static const double betas[] = {0.0, 1.0, -0.5};
static const int blocks[] = {1, 2, 3, 4, 5, 7, 8, 11, 16, 32, 64};
static const check_vocab vocab = {blocks, COUNT(blocks), 64};

/* The first cases of every grid pin what a short random run could miss. */
#define ANCHORS 6
#define ANCHOR_IDLE_OWNERS 3
#define ANCHOR_LARGE_BLOCKS 5
#define QUICK_CASES (ANCHORS + 122)
#define FULL_CASES (ANCHORS + NCOMBOS)

enum { MAT_A, MAT_B, MAT_C, MATS };
static const char mat_names[MATS] = {'A', 'B', 'C'};

typedef struct check_case {
  check_head head;
  char transa, transb;
  int m, n, k;
  double alpha, beta;
  int nan_fill; /* C starts as NaN: with beta = 0 none of it may reach the result */
  operand op[MATS];
} check_case;

static uint64_t data_id(const check_case *c, int mat)
{
  return check_mix64(c->head.key ^ (uint64_t)(mat + 1));
}

/* ---- building a case -------------------------------------------------------------- */

static void sub_extent(const check_case *c, int mat, int *rows, int *cols)
{
  int m = c->m, n = c->n, k = c->k;
  if (mat == MAT_A) {
    int plain = c->transa == 'N' || c->transa == 'n';
    *rows = plain ? m : k;
    *cols = plain ? k : m;
  } else if (mat == MAT_B) {
    int plain = c->transb == 'N' || c->transb == 'n';
    *rows = plain ? k : n;
    *cols = plain ? n : k;
  } else {
    *rows = m;
    *cols = n;
  }
}

/* Combination j of (transa, transb, shape): every 9 consecutive j hold all TRANS pairs,
 * and each pair walks the shapes in its own shuffled order, so any prefix of the
 * sequence is a spread-out sample and the whole of it is the full cross product. */
static void apply_combo(check_case *c, long j, const int *shape_order, uint64_t *rng)
{
  int pair = (int)(j % (NTRANS * NTRANS));
  long round = j / (NTRANS * NTRANS);
  int shape = shape_order[(round + 24L * pair) % NSHAPES];
  c->transa = check_pick_letter_case(rng, trans_letters[pair / NTRANS]);
  c->transb = check_pick_letter_case(rng, trans_letters[pair % NTRANS]);
  c->m = dims[shape / (NDIMS * NDIMS)];
  c->n = dims[(shape / NDIMS) % NDIMS];
  c->k = dims[shape % NDIMS];
}

/* The anchors: a NaN-filled C wiped by alpha = beta = 0; a pure scaling (K = 0); an
 * empty C that must stay untouched; a 1x1x1 product on the last process of a grid of
 * idle processes; alpha = 0, beta = 1; large odd blocks with every operand transposed.
 * Anchors 3 and 5 also get layouts of their own (ANCHOR_IDLE_OWNERS, ANCHOR_LARGE_BLOCKS). */
static void apply_anchor(check_case *c, long index)
{
  static const struct {
    char ta, tb;
    int m, n, k;
    double alpha, beta;
  } anchors[ANCHORS] = {
      {'N', 'N', 13, 7, 31, 0.0, 0.0},  {'T', 'N', 31, 13, 0, 2.5, -0.5},
      {'N', 'T', 0, 13, 7, 1.0, -0.5},  {'c', 'n', 1, 1, 1, 1.0, 0.0},
      {'N', 'C', 53, 31, 13, 0.0, 1.0}, {'t', 'T', 53, 31, 53, -1.0, 1.0},
  };
  c->transa = anchors[index].ta;
  c->transb = anchors[index].tb;
  c->m = anchors[index].m;
  c->n = anchors[index].n;
  c->k = anchors[index].k;
  c->alpha = anchors[index].alpha;
  c->beta = anchors[index].beta;
}

/* Case `index` of a grid: a pure function of (seed, grid, index), so that one failing
 * case can be rerun alone. */
static void make_case(void *out, uint64_t seed, grid_shape g, long index,
                      const int *shape_order)
{
  check_case *c = out;
  memset(c, 0, sizeof *c);
  c->head.grid = g;
  c->head.index = index;
  c->head.order = check_grid_order(index);
  c->head.key = check_case_key(seed, g, index);
  uint64_t rng = c->head.key;
  if (index >= ANCHORS)
    apply_combo(c, (index - ANCHORS) % NCOMBOS, shape_order, &rng);
  c->alpha = alphas[check_rng_below(&rng, COUNT(alphas))];
  c->beta = betas[check_rng_below(&rng, COUNT(betas))];
  if (index < ANCHORS)
    apply_anchor(c, index);
  c->nan_fill = c->beta == 0.0;
  int extent[MATS][2];
  for (int mat = 0; mat < MATS; mat++)
    sub_extent(c, mat, &extent[mat][0], &extent[mat][1]);
  if (index == ANCHOR_IDLE_OWNERS)
    check_layout_idle_owners(&c->head, c->op, MATS);
  else if (index == ANCHOR_LARGE_BLOCKS)
    check_layout_large_blocks(&c->head, c->op, MATS, (const int(*)[2])extent);
  else
    check_choose_layout(&c->head, &vocab, c->op, MATS, (const int(*)[2])extent, &rng);
}

/* ---- the expected result ------------------------------------------------------------ */

/* The stored sub-matrix (before op()), dense, column-major; with magnitude set, |x|. */
static double *dense_sub(const check_case *c, int mat, int magnitude)
{
  int rows, cols;
  sub_extent(c, mat, &rows, &cols);
  double *s = check_alloc((size_t)rows * (size_t)cols, sizeof *s);
  uint64_t id = data_id(c, mat);
  const operand *op = &c->op[mat];
  for (int q = 0; q < cols; q++)
    for (int r = 0; r < rows; r++) {
      double v = check_entry(id, op->i - 1 + r, op->j - 1 + q);
      s[r + (size_t)q * rows] = magnitude ? fabs(v) : v;
    }
  return s;
}

/*
 * ref = alpha*op(A)*op(B) + beta*C0 and its error gauge
 * gauge = |alpha|*(|op(A)|*|op(B)|) + |beta|*|C0|, both m x n with leading dimension m.
 * With beta = 0 the initial C plays no part at all, as PBLAS specifies.
 */
static void expected(const check_case *c, double *ref, double *gauge)
{
  int m = c->m, n = c->n, k = c->k;
  double *c0 = dense_sub(c, MAT_C, 0);
  for (size_t p = 0; p < (size_t)m * n; p++) {
    ref[p] = c->beta == 0.0 ? 0.0 : c->beta * c0[p];
    gauge[p] = c->beta == 0.0 ? 0.0 : fabs(c->beta) * fabs(c0[p]);
  }
  free(c0);
  if (m == 0 || n == 0 || k == 0 || c->alpha == 0.0)
    return;
  char ta = (c->transa == 'N' || c->transa == 'n') ? 'N' : 'T';
  char tb = (c->transb == 'N' || c->transb == 'n') ? 'N' : 'T';
  int lda = ta == 'N' ? m : k, ldb = tb == 'N' ? k : n;
  double one = 1.0, abs_alpha = fabs(c->alpha);
  double *a = dense_sub(c, MAT_A, 0), *b = dense_sub(c, MAT_B, 0);
  dgemm_(&ta, &tb, &m, &n, &k, &c->alpha, a, &lda, b, &ldb, &one, ref, &m);
  free(a);
  free(b);
  a = dense_sub(c, MAT_A, 1);
  b = dense_sub(c, MAT_B, 1);
  dgemm_(&ta, &tb, &m, &n, &k, &abs_alpha, a, &lda, b, &ldb, &one, gauge, &m);
  free(a);
  free(b);
}

/* ---- one rank's share of a case ----------------------------------------------------- */

typedef struct fill_ctx {
  uint64_t id;
  int nan_fill;
} fill_ctx;

static double fill_value(const void *ctx, int gi, int gj)
{
  const fill_ctx *f = ctx;
  return f->nan_fill ? NAN : check_entry(f->id, gi, gj);
}

/* Entries of sub(C) are judged against ref (leading dimension m); all others of C must
 * keep their bits. */
static long zone_of(const void *ctx, int gr, int gc, const char **zone)
{
  const check_case *c = ctx;
  const operand *op = &c->op[MAT_C];
  int r = gr - (op->i - 1), q = gc - (op->j - 1);
  if (r >= 0 && r < c->m && q >= 0 && q < c->n)
    return r + (long)q * c->m;
  *zone = "outside sub(C)";
  return -1;
}

/* The call itself, through copies of every argument so that a callee writing to one
 * is caught. */
static void call_and_judge_arguments(const check_case *c, dist_matrix *mats,
                                     case_result *res)
{
  const char ta = c->transa, tb = c->transb;
  const int m = c->m, n = c->n, k = c->k;
  const double alpha = c->alpha, beta = c->beta;
  const operand *op = c->op;
  int args[] = {m, n, k, op[MAT_A].i, op[MAT_A].j, op[MAT_B].i, op[MAT_B].j, op[MAT_C].i,
                op[MAT_C].j};
  char letters[] = {ta, tb};
  double scalars[] = {alpha, beta};
  int descs[MATS][11];
  for (int mat = 0; mat < MATS; mat++)
    memcpy(descs[mat], mats[mat].desc, sizeof descs[mat]);

  pdgemm_(&letters[0], &letters[1], &args[0], &args[1], &args[2], &scalars[0],
          mats[MAT_A].data, &args[3], &args[4], descs[MAT_A], mats[MAT_B].data, &args[5],
          &args[6], descs[MAT_B], &scalars[1], mats[MAT_C].data, &args[7], &args[8],
          descs[MAT_C]);

  int intact = letters[0] == ta && letters[1] == tb && check_same_bits(scalars[0], alpha) &&
               check_same_bits(scalars[1], beta) && args[0] == m && args[1] == n &&
               args[2] == k && args[3] == op[MAT_A].i && args[4] == op[MAT_A].j &&
               args[5] == op[MAT_B].i && args[6] == op[MAT_B].j && args[7] == op[MAT_C].i &&
               args[8] == op[MAT_C].j;
  for (int mat = 0; mat < MATS; mat++)
    intact = intact && memcmp(descs[mat], mats[mat].desc, sizeof descs[mat]) == 0;
  if (!intact) {
    res->bad_inputs++;
    check_detail(&c->head, "a scalar, index or descriptor argument was modified");
  }
}

static case_result run_case(const void *cv, int context, int myrow, int mycol)
{
  const check_case *c = cv;
  case_result res = {0};
  dist_matrix mats[MATS];
  for (int mat = 0; mat < MATS; mat++) {
    fill_ctx f = {data_id(c, mat), mat == MAT_C && c->nan_fill};
    check_dist_create(&mats[mat], &c->op[mat], context, c->head.grid, myrow, mycol);
    check_dist_fill(&mats[mat], fill_value, &f);
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
  const check_case *c = cv;
  int used = snprintf(buf, len,
                      "grid %dx%d order %c case %ld: transa=%c transb=%c m=%d n=%d k=%d "
                      "alpha=%g beta=%g nanfill=%d layout=%s",
                      c->head.grid.nprow, c->head.grid.npcol, c->head.order, c->head.index,
                      c->transa, c->transb, c->m, c->n, c->k, c->alpha, c->beta, c->nan_fill,
                      c->head.layout);
  for (int mat = 0; mat < MATS && used > 0 && (size_t)used < len; mat++)
    used += check_format_operand(buf + used, len - (size_t)used, mat_names[mat], &c->op[mat]);
}

int main(int argc, char **argv)
{
  static const check_routine routine = {
      .program = "pdgemm_check",
      .routine = "pdgemm",
      .stats_index = HPD_ROUTINE_PDGEMM,
      .judged = "sub(C)",
      .full_what = "every TRANS pair with every shape",
      .quick_cases = QUICK_CASES,
      .full_cases = FULL_CASES,
      .case_size = sizeof(check_case),
      .shapes = NSHAPES,
      .make = make_case,
      .run = run_case,
      .format = format_case,
  };
  return check_main(&routine, argc, argv);
}
