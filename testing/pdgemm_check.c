/*
 * pdgemm_check: the correctness sweep that judges any pdgemm_ linked ahead of ScaLAPACK.
 *
 * Every rank builds the same global matrices from a hash of (matrix, row, column), so
 * the sweep itself never moves matrix data: only the call under test does, and only
 * failure counts are reduced.  Each rank computes the expected sub(C) serially with
 * dgemm_ and checks every local entry of C it owns, every byte of A and B, the storage
 * around them, and every argument of the call.
 *
 *   pdgemm_check [--quick | --full] [--seed N] [-v] [--grids PxQ,...] [--cases N]
 *                [--case I] [hpdaemon options such as -t 0.2 or --report]
 */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_layout.h"
#include "hpdaemon.h"
#include "scalapack.h"

/* ---- the sweep's vocabulary ------------------------------------------------------ */

/* The PBLAS testers' criterion: eps is the unit roundoff (2^-53), and a ratio up to 16
 * passes.  Rounding in a length-K dot product stays far below that in practice. */
#define CHECK_EPS (DBL_EPSILON / 2)
#define CHECK_THRESHOLD 16.0

static const int dims[] = {0, 1, 7, 13, 31, 53};
#define NDIMS ((int)(sizeof dims / sizeof dims[0]))
#define NSHAPES (NDIMS * NDIMS * NDIMS)
#define NTRANS 3
#define NCOMBOS (NTRANS * NTRANS * NSHAPES)
static const char trans_letters[NTRANS] = {'N', 'T', 'C'};
static const double alphas[] = {0.0, 1.0, -1.0, 2.5};
static const double betas[] = {0.0, 1.0, -0.5};
static const int blocks[] = {1, 2, 3, 4, 5, 7, 8, 11, 16, 32, 64};
#define COUNT(array) ((int)(sizeof array / sizeof array[0]))

/* The first cases of every grid pin what a short random run could miss. */
#define ANCHORS 6
#define ANCHOR_IDLE_OWNERS 3
#define ANCHOR_LARGE_BLOCKS 5
/* Cases per BLACS context: the grid is created and freed again for every batch. */
#define BATCH 8
#define QUICK_CASES (ANCHORS + 122)
#define FULL_CASES (ANCHORS + NCOMBOS)
#define PROGRESS_EVERY 400
#define DETAIL_BUDGET 40
/* Sentinel entries on both sides of every local array catch writes past its ends. */
#define GUARD 16

typedef struct grid_shape {
  int nprow, npcol;
} grid_shape;

static const grid_shape known_grids[] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 3}, {3, 1}};
#define NGRIDS COUNT(known_grids)

enum { MAT_A, MAT_B, MAT_C, MATS };
static const char mat_names[MATS] = {'A', 'B', 'C'};

/* One distributed operand as the case describes it, before any rank holds it. */
typedef struct operand {
  int dtype; /* 1: 9-entry descriptor; 2: 11-entry descriptor with IMB/INB */
  int rows, cols;
  int imb, inb, mb, nb;
  int rsrc, csrc;
  int lld_pad; /* leading dimension beyond the local rows */
  int i, j;    /* 1-based start of the sub-matrix */
} operand;

typedef struct check_case {
  grid_shape grid;
  char order; /* BLACS process order, 'R' or 'C' */
  long index;
  uint64_t key; /* seeds this case's choices and its matrices */
  char transa, transb;
  int m, n, k;
  double alpha, beta;
  int nan_fill; /* C starts as NaN: with beta = 0 none of it may reach the result */
  const char *layout;
  operand op[MATS];
} check_case;

typedef struct case_result {
  double worst;    /* worst ratio over the entries of sub(C) */
  int bad_sub;     /* entries of sub(C) beyond the threshold */
  int bad_outside; /* entries of C outside sub(C), padding included, that changed */
  int bad_inputs;  /* entries of A or B, or arguments of the call, that changed */
} case_result;

typedef struct options {
  int full;
  int verbose;
  uint64_t seed;
  long cases;     /* per grid; 0 means the mode's count */
  long only_case; /* -1: all */
  unsigned grids; /* bit per known grid; 0 means every grid that fits */
} options;

typedef struct tally {
  long passed, failed;
  double worst;
  double start;
} tally;

static int world_rank, world_size;
static const char *program_name;
static int details_left = DETAIL_BUDGET;

/* ---- deterministic data ----------------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static uint64_t rng_next(uint64_t *state)
{
  *state = mix64(*state);
  return *state;
}

static int rng_below(uint64_t *state, int bound)
{
  return (int)(rng_next(state) % (uint64_t)bound);
}

/* Entry (i, j), 0-based, of global matrix id: in [-1, 1), the same on every rank. */
static double entry(uint64_t id, int i, int j)
{
  uint64_t h = mix64(mix64(mix64(id) ^ (uint64_t)i) ^ ((uint64_t)j << 32));
  return (double)(h >> 11) * 0x1p-52 - 1.0;
}

/* A NaN with a payload of its own marks storage that no one should read or write. */
static double padding_value(void)
{
  uint64_t bits = 0x7FF8DEADBEEF0001ull;
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

static int same_bits(double a, double b)
{
  return memcmp(&a, &b, sizeof a) == 0;
}

static uint64_t data_id(const check_case *c, int mat)
{
  return mix64(c->key ^ (uint64_t)(mat + 1));
}

/* ---- building a case -------------------------------------------------------------- */

static int pick_block(uint64_t *rng)
{
  return blocks[rng_below(rng, COUNT(blocks))];
}

/* The size of an odd first block (IMB or INB): mostly unlike the regular block. */
static int pick_first_block(uint64_t *rng, int block)
{
  switch (rng_below(rng, 4)) {
  case 0:
    return block;
  case 1:
    return 1;
  default:
    return 1 + rng_below(rng, 64);
  }
}

/* A 1-based start: at the first entry, inside the first block, at or inside the
 * second block, or anywhere near the top. */
static int pick_offset(uint64_t *rng, int first, int block)
{
  switch (rng_below(rng, 5)) {
  case 0:
    return 1;
  case 1:
    return 1 + rng_below(rng, first);
  case 2:
    return first + 1;
  case 3:
    return first + 1 + rng_below(rng, block);
  default:
    return 1 + rng_below(rng, 17);
  }
}

static int pick_margin(uint64_t *rng)
{
  static const int margins[] = {0, 0, 1, 3, 8};
  return margins[rng_below(rng, COUNT(margins))];
}

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

/* Global size: enough for the sub-matrix at its offset, plus a margin, never empty. */
static void size_operand(operand *op, int sub_rows, int sub_cols, int margin_rows,
                         int margin_cols)
{
  op->rows = op->i - 1 + sub_rows + margin_rows;
  op->cols = op->j - 1 + sub_cols + margin_cols;
  if (op->rows < 1)
    op->rows = 1;
  if (op->cols < 1)
    op->cols = 1;
}

/* The layout engines usually serve fastest: one square block, whole matrices. */
static void layout_aligned(check_case *c, uint64_t *rng)
{
  int nb = pick_block(rng);
  for (int mat = 0; mat < MATS; mat++) {
    operand *op = &c->op[mat];
    int r, q;
    sub_extent(c, mat, &r, &q);
    *op = (operand){.dtype = 1, .imb = nb, .inb = nb, .mb = nb, .nb = nb, .i = 1, .j = 1};
    size_operand(op, r, q, 0, 0);
  }
}

/* One square block and one source for all three, sub-matrices starting on block
 * boundaries: still aligned, but no longer whole matrices. */
static void layout_block_offsets(check_case *c, uint64_t *rng)
{
  int nb = pick_block(rng);
  int rsrc = rng_below(rng, c->grid.nprow), csrc = rng_below(rng, c->grid.npcol);
  for (int mat = 0; mat < MATS; mat++) {
    operand *op = &c->op[mat];
    int r, q;
    sub_extent(c, mat, &r, &q);
    *op = (operand){.dtype = 1, .imb = nb, .inb = nb, .mb = nb, .nb = nb, .rsrc = rsrc,
                    .csrc = csrc, .lld_pad = pick_margin(rng)};
    op->i = 1 + nb * rng_below(rng, 3);
    op->j = 1 + nb * rng_below(rng, 3);
    size_operand(op, r, q, pick_margin(rng), pick_margin(rng));
  }
}

/* One block size for all three, but sub-matrices that start inside a block, and
 * possibly an odd first block shared by all. */
static void layout_inner_offsets(check_case *c, uint64_t *rng)
{
  int nb = pick_block(rng);
  int dtype = 1 + rng_below(rng, 2);
  int first = dtype == 2 ? pick_first_block(rng, nb) : nb;
  for (int mat = 0; mat < MATS; mat++) {
    operand *op = &c->op[mat];
    int r, q;
    sub_extent(c, mat, &r, &q);
    *op = (operand){.dtype = dtype, .imb = first, .inb = first, .mb = nb, .nb = nb,
                    .lld_pad = pick_margin(rng)};
    op->i = pick_offset(rng, first, nb);
    op->j = pick_offset(rng, first, nb);
    size_operand(op, r, q, pick_margin(rng), pick_margin(rng));
  }
}

/* Every operand on its own: different blocks, sources, descriptor kinds and offsets. */
static void layout_mixed(check_case *c, uint64_t *rng)
{
  for (int mat = 0; mat < MATS; mat++) {
    operand *op = &c->op[mat];
    int r, q;
    sub_extent(c, mat, &r, &q);
    op->dtype = 1 + rng_below(rng, 2);
    op->mb = pick_block(rng);
    op->nb = pick_block(rng);
    op->imb = op->dtype == 2 ? pick_first_block(rng, op->mb) : op->mb;
    op->inb = op->dtype == 2 ? pick_first_block(rng, op->nb) : op->nb;
    op->rsrc = rng_below(rng, c->grid.nprow);
    op->csrc = rng_below(rng, c->grid.npcol);
    op->lld_pad = pick_margin(rng);
    op->i = pick_offset(rng, op->imb, op->mb);
    op->j = pick_offset(rng, op->inb, op->nb);
    size_operand(op, r, q, pick_margin(rng), pick_margin(rng));
  }
}

static void choose_layout(check_case *c, uint64_t *rng)
{
  int roll = rng_below(rng, 20);
  if (roll < 5) {
    c->layout = "aligned";
    layout_aligned(c, rng);
  } else if (roll < 8) {
    c->layout = "block-offsets";
    layout_block_offsets(c, rng);
  } else if (roll < 11) {
    c->layout = "inner-offsets";
    layout_inner_offsets(c, rng);
  } else {
    c->layout = "mixed";
    layout_mixed(c, rng);
  }
}

static char pick_case_of_letter(uint64_t *rng, char upper)
{
  return rng_below(rng, 3) == 0 ? (char)(upper - 'A' + 'a') : upper;
}

/* Combination j of (transa, transb, shape): every 9 consecutive j hold all TRANS pairs,
 * and each pair walks the shapes in its own shuffled order, so any prefix of the
 * sequence is a spread-out sample and the whole of it is the full cross product. */
static void apply_combo(check_case *c, long j, const int *shape_order, uint64_t *rng)
{
  int pair = (int)(j % (NTRANS * NTRANS));
  long round = j / (NTRANS * NTRANS);
  int shape = shape_order[(round + 24L * pair) % NSHAPES];
  c->transa = pick_case_of_letter(rng, trans_letters[pair / NTRANS]);
  c->transb = pick_case_of_letter(rng, trans_letters[pair % NTRANS]);
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

/* Anchor 3: every operand in one large block held by the last process row and
 * column, starting inside that block, so all other processes own nothing. */
static void layout_idle_owners(check_case *c)
{
  c->layout = "idle-owners";
  for (int mat = 0; mat < MATS; mat++) {
    operand *op = &c->op[mat];
    *op = (operand){.dtype = 2, .imb = 64, .inb = 64, .mb = 64, .nb = 64,
                    .rsrc = c->grid.nprow - 1, .csrc = c->grid.npcol - 1, .i = 5,
                    .j = 3, .lld_pad = 2};
    size_operand(op, 1, 1, 4, 0);
  }
}

/* Anchor 5: large odd first blocks, regular blocks of 64, sources spread apart. */
static void layout_large_blocks(check_case *c)
{
  c->layout = "large-blocks";
  for (int mat = 0; mat < MATS; mat++) {
    operand *op = &c->op[mat];
    int r, q;
    sub_extent(c, mat, &r, &q);
    *op = (operand){.dtype = 2, .imb = 3 + 5 * mat, .inb = 29 - 7 * mat, .mb = 64,
                    .nb = 64, .rsrc = mat % c->grid.nprow, .csrc = (mat + 1) % c->grid.npcol,
                    .i = 2 + mat, .j = 4 - mat};
    size_operand(op, r, q, 1, 2);
  }
}

/* Batches alternate between row-major and column-major process orders. */
static char grid_order(long index)
{
  return (index / BATCH) % 2 ? 'C' : 'R';
}

static uint64_t case_key(uint64_t seed, grid_shape g, long index)
{
  uint64_t h = mix64(seed ^ 0x5EEDull);
  h = mix64(h ^ (uint64_t)(g.nprow * 16 + g.npcol));
  return mix64(h ^ (uint64_t)index);
}

/* The order of shapes that each TRANS pair walks, fixed by the seed and the grid. */
static void shuffle_shapes(uint64_t seed, grid_shape g, int *order)
{
  uint64_t rng = case_key(seed, g, -1);
  for (int s = 0; s < NSHAPES; s++)
    order[s] = s;
  for (int s = NSHAPES - 1; s > 0; s--) {
    int t = rng_below(&rng, s + 1);
    int keep = order[s];
    order[s] = order[t];
    order[t] = keep;
  }
}

/* Case `index` of a grid: a pure function of (seed, grid, index), so that one failing
 * case can be rerun alone. */
static void make_case(check_case *c, uint64_t seed, grid_shape g, long index,
                      const int *shape_order)
{
  memset(c, 0, sizeof *c);
  c->grid = g;
  c->index = index;
  c->order = grid_order(index);
  c->key = case_key(seed, g, index);
  uint64_t rng = c->key;
  if (index >= ANCHORS)
    apply_combo(c, (index - ANCHORS) % NCOMBOS, shape_order, &rng);
  c->alpha = alphas[rng_below(&rng, COUNT(alphas))];
  c->beta = betas[rng_below(&rng, COUNT(betas))];
  if (index < ANCHORS)
    apply_anchor(c, index);
  c->nan_fill = c->beta == 0.0;
  if (index == ANCHOR_IDLE_OWNERS)
    layout_idle_owners(c);
  else if (index == ANCHOR_LARGE_BLOCKS)
    layout_large_blocks(c);
  else
    choose_layout(c, &rng);
}

/* ---- one rank's share of a case ----------------------------------------------------- */

typedef struct dist_matrix {
  check_dim row, col;
  int lrows, lcols, lld;
  int *grow, *gcol; /* global index of each local row and column */
  int desc[11];
  size_t len;     /* entries the call may address: lld * columns */
  double *base;   /* len entries with GUARD sentinels before and after */
  double *data;   /* what the call sees: base + GUARD */
  double *before; /* all of base, just before the call */
} dist_matrix;

static void *check_alloc(size_t count, size_t size)
{
  void *p = calloc(count ? count : 1, size);
  if (!p) {
    fprintf(stderr, "pdgemm_check: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return p;
}

/* The global indices this process owns, in local order.  The local index formula must
 * agree with the order of enumeration; if it does not, the sweep itself is wrong. */
static int *owned_indices(const check_dim *d, int me, int count)
{
  int *global = check_alloc((size_t)count, sizeof *global);
  int next = 0;
  for (int g = 0; g < d->extent; g++) {
    if (check_owner(d, g) != me)
      continue;
    if (check_local_index(d, g) != next) {
      fprintf(stderr, "pdgemm_check: internal error: local index of %d is %d, not %d\n", g,
              check_local_index(d, g), next);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    global[next++] = g;
  }
  return global;
}

static void describe(dist_matrix *x, const operand *op, int context)
{
  int lld = x->lld;
  if (op->dtype == 1) {
    int d[9] = {1, context, op->rows, op->cols, op->mb, op->nb, op->rsrc, op->csrc, lld};
    memcpy(x->desc, d, sizeof d);
  } else {
    int d[11] = {2,      context, op->rows, op->cols, op->imb, op->inb,
                 op->mb, op->nb,  op->rsrc, op->csrc, lld};
    memcpy(x->desc, d, sizeof d);
  }
}

static void dist_create(dist_matrix *x, const operand *op, int context, grid_shape g,
                        int myrow, int mycol)
{
  memset(x, 0, sizeof *x);
  x->row = (check_dim){op->rows, op->imb, op->mb, op->rsrc, g.nprow};
  x->col = (check_dim){op->cols, op->inb, op->nb, op->csrc, g.npcol};
  x->lrows = check_local_count(&x->row, myrow);
  x->lcols = check_local_count(&x->col, mycol);
  x->grow = owned_indices(&x->row, myrow, x->lrows);
  x->gcol = owned_indices(&x->col, mycol, x->lcols);
  x->lld = (x->lrows > 1 ? x->lrows : 1) + op->lld_pad;
  x->len = (size_t)x->lld * (size_t)(x->lcols > 1 ? x->lcols : 1);
  x->base = check_alloc(x->len + 2 * GUARD, sizeof *x->base);
  x->before = check_alloc(x->len + 2 * GUARD, sizeof *x->before);
  x->data = x->base + GUARD;
  describe(x, op, context);
}

static void dist_fill(dist_matrix *x, uint64_t id, int nan_fill)
{
  double pad = padding_value();
  for (size_t p = 0; p < x->len + 2 * GUARD; p++)
    x->base[p] = pad;
  for (int lc = 0; lc < x->lcols; lc++)
    for (int lr = 0; lr < x->lrows; lr++)
      x->data[lr + (size_t)lc * x->lld] = nan_fill ? NAN : entry(id, x->grow[lr], x->gcol[lc]);
  memcpy(x->before, x->base, (x->len + 2 * GUARD) * sizeof *x->base);
}

static void dist_free(dist_matrix *x)
{
  free(x->grow);
  free(x->gcol);
  free(x->base);
  free(x->before);
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
      double v = entry(id, op->i - 1 + r, op->j - 1 + q);
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

/* ---- judging ------------------------------------------------------------------------ */

/* Where the gauge is zero the result is exact by definition, so only equality passes.
 * A NaN anywhere makes the ratio infinite. */
static double entry_ratio(double got, double want, double gauge)
{
  double diff = fabs(got - want);
  if (gauge == 0.0)
    return diff == 0.0 ? 0.0 : INFINITY;
  double ratio = diff / (CHECK_EPS * gauge);
  return isnan(ratio) ? INFINITY : ratio;
}

static void detail(const check_case *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void detail(const check_case *c, const char *fmt, ...)
{
  if (details_left <= 0)
    return;
  if (--details_left == 0) {
    printf("  [rank %d: further details suppressed]\n", world_rank);
    return;
  }
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  printf("  grid %dx%d case %ld, rank %d: %s\n", c->grid.nprow, c->grid.npcol, c->index,
         world_rank, text);
  fflush(stdout);
}

static int inside_sub_c(const check_case *c, int gr, int gc)
{
  const operand *op = &c->op[MAT_C];
  return gr >= op->i - 1 && gr < op->i - 1 + c->m && gc >= op->j - 1 && gc < op->j - 1 + c->n;
}

/* Index p of base lies in a guard zone, outside the array the call was given. */
static int in_guard(const dist_matrix *x, size_t p)
{
  return p < GUARD || p >= GUARD + x->len;
}

static void judge_guards(const check_case *c, const dist_matrix *x, int mat, int *bad)
{
  for (size_t p = 0; p < x->len + 2 * GUARD; p++)
    if (in_guard(x, p) && !same_bits(x->base[p], x->before[p]) && (*bad)++ == 0)
      detail(c, "write past the %s of local %c", p < GUARD ? "start" : "end",
             mat_names[mat]);
}

static void judge_c(const check_case *c, const dist_matrix *x, const double *ref,
                    const double *gauge, case_result *res)
{
  const operand *op = &c->op[MAT_C];
  const double *before = x->before + GUARD;
  judge_guards(c, x, MAT_C, &res->bad_outside);
  for (int lc = 0; lc < (x->lcols > 1 ? x->lcols : 1); lc++)
    for (int lr = 0; lr < x->lld; lr++) {
      size_t p = lr + (size_t)lc * x->lld;
      int owned = lr < x->lrows && lc < x->lcols;
      int gr = owned ? x->grow[lr] : -1, gc = owned ? x->gcol[lc] : -1;
      if (owned && inside_sub_c(c, gr, gc)) {
        size_t q = (size_t)(gr - op->i + 1) + (size_t)(gc - op->j + 1) * c->m;
        double ratio = entry_ratio(x->data[p], ref[q], gauge[q]);
        if (ratio > res->worst)
          res->worst = ratio;
        if (!(ratio <= CHECK_THRESHOLD) && res->bad_sub++ == 0)
          detail(c, "C(%d,%d) = %.17g, expected %.17g (gauge %.3g, ratio %.3g)", gr + 1,
                 gc + 1, x->data[p], ref[q], gauge[q], ratio);
      } else if (!same_bits(x->data[p], before[p]) && res->bad_outside++ == 0) {
        if (owned)
          detail(c, "C(%d,%d) outside sub(C) changed from %.17g to %.17g", gr + 1, gc + 1,
                 before[p], x->data[p]);
        else
          detail(c, "local C storage at (%d,%d), beyond the owned entries, changed", lr + 1,
                 lc + 1);
      }
    }
}

static void judge_input(const check_case *c, const dist_matrix *x, int mat,
                        case_result *res)
{
  judge_guards(c, x, mat, &res->bad_inputs);
  for (size_t p = 0; p < x->len; p++)
    if (!same_bits(x->data[p], x->before[GUARD + p]) && res->bad_inputs++ == 0)
      detail(c, "%c changed at local offset %zu (row %zu, column %zu of the local array)",
             mat_names[mat], p, p % (size_t)x->lld + 1, p / (size_t)x->lld + 1);
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

  int intact = letters[0] == ta && letters[1] == tb && same_bits(scalars[0], alpha) &&
               same_bits(scalars[1], beta) && args[0] == m && args[1] == n && args[2] == k &&
               args[3] == op[MAT_A].i && args[4] == op[MAT_A].j && args[5] == op[MAT_B].i &&
               args[6] == op[MAT_B].j && args[7] == op[MAT_C].i && args[8] == op[MAT_C].j;
  for (int mat = 0; mat < MATS; mat++)
    intact = intact && memcmp(descs[mat], mats[mat].desc, sizeof descs[mat]) == 0;
  if (!intact) {
    res->bad_inputs++;
    detail(c, "a scalar, index or descriptor argument was modified");
  }
}

static case_result run_case(const check_case *c, int context, int myrow, int mycol)
{
  case_result res = {0};
  dist_matrix mats[MATS];
  for (int mat = 0; mat < MATS; mat++) {
    dist_create(&mats[mat], &c->op[mat], context, c->grid, myrow, mycol);
    dist_fill(&mats[mat], data_id(c, mat), mat == MAT_C && c->nan_fill);
  }
  size_t mn = (size_t)c->m * (size_t)c->n;
  double *ref = check_alloc(mn, sizeof *ref), *gauge = check_alloc(mn, sizeof *gauge);
  expected(c, ref, gauge);

  call_and_judge_arguments(c, mats, &res);

  judge_c(c, &mats[MAT_C], ref, gauge, &res);
  judge_input(c, &mats[MAT_A], MAT_A, &res);
  judge_input(c, &mats[MAT_B], MAT_B, &res);
  free(ref);
  free(gauge);
  for (int mat = 0; mat < MATS; mat++)
    dist_free(&mats[mat]);
  return res;
}

/* ---- reporting ---------------------------------------------------------------------- */

static int format_operand(char *buf, size_t len, int mat, const operand *op)
{
  return snprintf(buf, len,
                  " %c[dtype=%d M=%d N=%d imb=%d inb=%d mb=%d nb=%d rsrc=%d csrc=%d "
                  "lldpad=%d i=%d j=%d]",
                  mat_names[mat], op->dtype, op->rows, op->cols, op->imb, op->inb, op->mb,
                  op->nb, op->rsrc, op->csrc, op->lld_pad, op->i, op->j);
}

static void format_case(char *buf, size_t len, const check_case *c)
{
  int used = snprintf(buf, len,
                      "grid %dx%d order %c case %ld: transa=%c transb=%c m=%d n=%d k=%d "
                      "alpha=%g beta=%g nanfill=%d layout=%s",
                      c->grid.nprow, c->grid.npcol, c->order, c->index, c->transa, c->transb,
                      c->m, c->n, c->k, c->alpha, c->beta, c->nan_fill, c->layout);
  for (int mat = 0; mat < MATS && used > 0 && (size_t)used < len; mat++)
    used += format_operand(buf + used, len - (size_t)used, mat, &c->op[mat]);
}

static void report_case(const options *o, const check_case *c, const case_result *r)
{
  int failed = r->bad_sub || r->bad_outside || r->bad_inputs;
  if (!failed && !o->verbose)
    return;
  char text[1024];
  format_case(text, sizeof text, c);
  if (!failed) {
    printf("ok   %s: worst ratio %.3g\n", text, r->worst);
    return;
  }
  printf("FAIL %s: %d bad in sub(C), %d changed outside sub(C), %d inputs changed, "
         "worst ratio %.3g (rerun: mpiexec.mpich -n %d %s --seed %llu --grids %dx%d "
         "--case %ld)\n",
         text, r->bad_sub, r->bad_outside, r->bad_inputs, r->worst, world_size, program_name,
         (unsigned long long)o->seed, c->grid.nprow, c->grid.npcol, c->index);
}

static double now(void)
{
  return MPI_Wtime();
}

static void progress(const tally *t, grid_shape g, long done, long total)
{
  printf("progress: grid %dx%d %ld/%ld cases; overall %ld passed, %ld failed, worst ratio "
         "%.3g, %.1f s\n",
         g.nprow, g.npcol, done, total, t->passed, t->failed, t->worst, now() - t->start);
  fflush(stdout);
}

/* ---- driving the sweep ---------------------------------------------------------------- */

/* Every rank takes part in creating the grid; those left outside it get no context and
 * must stay away from pdgemm_, but still join the reduction of the results. */
static void run_batch(const options *o, grid_shape g, long first, int count,
                      const int *shape_order, tally *t)
{
  check_case cases[BATCH];
  case_result local[BATCH];
  double worst[BATCH];
  int counts[3 * BATCH];
  for (int i = 0; i < count; i++)
    make_case(&cases[i], o->seed, g, first + i, shape_order);

  char order[2] = {grid_order(first), '\0'};
  int context, nprow = -1, npcol = -1, myrow = -1, mycol = -1;
  Cblacs_get(-1, 0, &context);
  Cblacs_gridinit(&context, order, g.nprow, g.npcol);
  Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
  int in_grid = myrow >= 0 && myrow < g.nprow && mycol >= 0 && mycol < g.npcol;

  for (int i = 0; i < count; i++) {
    local[i] = in_grid ? run_case(&cases[i], context, myrow, mycol) : (case_result){0};
    worst[i] = local[i].worst;
    counts[3 * i] = local[i].bad_sub;
    counts[3 * i + 1] = local[i].bad_outside;
    counts[3 * i + 2] = local[i].bad_inputs;
  }
  if (in_grid)
    Cblacs_gridexit(context);

  MPI_Allreduce(MPI_IN_PLACE, worst, count, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, counts, 3 * count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < count; i++) {
    case_result r = {worst[i], counts[3 * i], counts[3 * i + 1], counts[3 * i + 2]};
    int failed = r.bad_sub || r.bad_outside || r.bad_inputs;
    if (failed)
      t->failed++;
    else
      t->passed++;
    if (r.worst > t->worst)
      t->worst = r.worst;
    if (world_rank == 0)
      report_case(o, &cases[i], &r);
  }
  fflush(stdout);
}

static long cases_per_grid(const options *o)
{
  if (o->cases > 0)
    return o->cases;
  return o->full ? FULL_CASES : QUICK_CASES;
}

static void run_grid(const options *o, grid_shape g, tally *t)
{
  int shape_order[NSHAPES];
  shuffle_shapes(o->seed, g, shape_order);
  if (o->only_case >= 0) {
    run_batch(o, g, o->only_case, 1, shape_order, t);
    return;
  }
  long total = cases_per_grid(o), since_progress = 0;
  for (long first = 0; first < total; first += BATCH) {
    int count = total - first < BATCH ? (int)(total - first) : BATCH;
    run_batch(o, g, first, count, shape_order, t);
    since_progress += count;
    if (world_rank == 0 && (since_progress >= PROGRESS_EVERY || first + count == total)) {
      progress(t, g, first + count, total);
      since_progress = 0;
    }
  }
}

/* ---- options ---------------------------------------------------------------------------- */

static void usage(void)
{
  if (world_rank != 0)
    return;
  fprintf(stderr,
          "usage: %s [--quick | --full] [--seed N] [-v] [--grids PxQ[,PxQ...]] [--cases N]\n"
          "          [--case I] [hpdaemon options: -t FRACTION, --report[=SPEC]]\n"
          "  --quick    %d cases per grid (default)\n"
          "  --full     %d cases per grid: every TRANS pair with every shape\n"
          "  --grids    only these grids (of 1x1 1x2 2x1 2x2 1x3 3x1), if they fit\n"
          "  --cases    this many cases per grid instead\n"
          "  --case     only case I of each grid (to rerun a reported failure)\n",
          program_name, QUICK_CASES, FULL_CASES);
}

static int parse_long(const char *text, long *value)
{
  char *end;
  long v = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || v < 0)
    return -1;
  *value = v;
  return 0;
}

static int parse_grids(const char *text, unsigned *mask)
{
  const char *p = text;
  while (*p) {
    int rows, cols, used;
    if (sscanf(p, "%dx%d%n", &rows, &cols, &used) != 2)
      return -1;
    int found = 0;
    for (int gi = 0; gi < NGRIDS; gi++)
      if (known_grids[gi].nprow == rows && known_grids[gi].npcol == cols) {
        *mask |= 1u << gi;
        found = 1;
      }
    if (!found)
      return -1;
    p += used;
    if (*p == ',')
      p++;
    else if (*p)
      return -1;
  }
  return 0;
}

/* Whether argv[*i] is option `name`; its value comes from "--name=value" or from the
 * next argument, and is NULL when missing. */
static int is_option(const char *name, int argc, char **argv, int *i, const char **value)
{
  size_t len = strlen(name);
  const char *arg = argv[*i];
  if (strncmp(arg, name, len) != 0 || (arg[len] != '=' && arg[len] != '\0'))
    return 0;
  if (arg[len] == '=')
    *value = arg + len + 1;
  else
    *value = *i + 1 < argc ? argv[++*i] : NULL;
  return 1;
}

static int bad_value(const char *name, const char *value)
{
  if (world_rank == 0)
    fprintf(stderr, "%s: option %s: %s\n", program_name, name,
            value ? "invalid value" : "missing value");
  return -1;
}

/* Returns 0 to run, 1 after --help, -1 on a bad option. */
static int parse_options(int argc, char **argv, options *o)
{
  *o = (options){.seed = 1, .only_case = -1};
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *value = NULL;
    long number;
    if (strcmp(arg, "--") == 0)
      continue;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      return 1;
    } else if (strcmp(arg, "--quick") == 0) {
      o->full = 0;
    } else if (strcmp(arg, "--full") == 0) {
      o->full = 1;
    } else if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0) {
      o->verbose = 1;
    } else if (is_option("--seed", argc, argv, &i, &value)) {
      if (!value || parse_long(value, &number) != 0)
        return bad_value("--seed", value);
      o->seed = (uint64_t)number;
    } else if (is_option("--cases", argc, argv, &i, &value)) {
      if (!value || parse_long(value, &o->cases) != 0 || o->cases == 0)
        return bad_value("--cases", value);
    } else if (is_option("--case", argc, argv, &i, &value)) {
      if (!value || parse_long(value, &o->only_case) != 0)
        return bad_value("--case", value);
    } else if (is_option("--grids", argc, argv, &i, &value)) {
      if (!value || parse_grids(value, &o->grids) != 0)
        return bad_value("--grids", value);
    } else {
      if (world_rank == 0)
        fprintf(stderr, "%s: unknown option '%s'\n", program_name, arg);
      return -1;
    }
  }
  return 0;
}

static int grid_selected(const options *o, int gi)
{
  grid_shape g = known_grids[gi];
  if (g.nprow * g.npcol > world_size)
    return 0;
  return o->grids == 0 || (o->grids & (1u << gi));
}

static void print_engine_use(void)
{
  hpd_stats s;
  if (hpd_get_stats(&s) != HPD_SUCCESS)
    return;
  const hpd_routine_stats *r = &s.routine[HPD_ROUTINE_PDGEMM];
  printf("hpdaemon on rank 0: %llu pdgemm calls, %llu served by the engine, %llu fallbacks",
         (unsigned long long)r->calls, (unsigned long long)r->engine_calls,
         (unsigned long long)r->fallback_calls);
  for (int reason = 0; reason < HPD_FALLBACK_REASONS; reason++)
    if (r->fallback_by_reason[reason])
      printf(" %s=%llu", hpd_fallback_reason_name(reason),
             (unsigned long long)r->fallback_by_reason[reason]);
  printf("\n");
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int hpd_status = hpd_parse_args(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  program_name = argv[0];

  options o;
  int parsed = parse_options(argc, argv, &o);
  if (hpd_status != HPD_SUCCESS || parsed != 0) {
    usage();
    MPI_Finalize();
    return parsed == 1 && hpd_status == HPD_SUCCESS ? 0 : 2;
  }

  tally t = {.start = now()};
  if (world_rank == 0) {
    printf("pdgemm_check: %s sweep, seed %llu, %d ranks, grids:", o.full ? "full" : "quick",
           (unsigned long long)o.seed, world_size);
    for (int gi = 0; gi < NGRIDS; gi++)
      if (grid_selected(&o, gi))
        printf(" %dx%d", known_grids[gi].nprow, known_grids[gi].npcol);
    printf("\n");
    fflush(stdout);
  }
  for (int gi = 0; gi < NGRIDS; gi++)
    if (grid_selected(&o, gi))
      run_grid(&o, known_grids[gi], &t);

  if (world_rank == 0) {
    if (t.passed + t.failed == 0)
      printf("no case ran: no selected grid fits in %d ranks\n", world_size);
    print_engine_use();
    printf("%ld passed, %ld failed\n", t.passed, t.failed);
    fflush(stdout);
  }
  Cblacs_exit(1);
  MPI_Finalize();
  return t.failed > 0 || t.passed == 0 ? 1 : 0;
}
