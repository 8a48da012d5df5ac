#include "check_sweep.h"

#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpdaemon.h"
#include "scalapack.h"

#define PROGRESS_EVERY 400
#define DETAIL_BUDGET 40

static const grid_shape known_grids[] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 3}, {3, 1}};
#define NGRIDS COUNT(known_grids)
#define MAX_CHOSEN 16

typedef struct options {
  int full;
  int verbose;
  uint64_t seed;
  long cases;     /* per grid; 0 means the mode's count */
  long only_case; /* -1: all */
  grid_shape grids[MAX_CHOSEN]; /* --grids, in order; none: every known grid that fits */
  int chosen;
} options;

typedef struct tally {
  long passed, failed;
  double worst;
  double start;
} tally;

static int world_rank, world_size;
static const char *program_name;
static const char *program_label = "check";
static int details_left = DETAIL_BUDGET;

/* ---- deterministic data ----------------------------------------------------------- */

uint64_t check_mix64(uint64_t x)
{
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

uint64_t check_rng_next(uint64_t *state)
{
  *state = check_mix64(*state);
  return *state;
}

int check_rng_below(uint64_t *state, int bound)
{
  return (int)(check_rng_next(state) % (uint64_t)bound);
}

double check_entry(uint64_t id, int i, int j)
{
  uint64_t h = check_mix64(check_mix64(check_mix64(id) ^ (uint64_t)i) ^ ((uint64_t)j << 32));
  return (double)(h >> 11) * 0x1p-52 - 1.0;
}

double check_padding_value(void)
{
  uint64_t bits = 0x7FF8DEADBEEF0001ull;
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

int check_same_bits(double a, double b)
{
  return memcmp(&a, &b, sizeof a) == 0;
}

void *check_alloc(size_t count, size_t size)
{
  void *p = calloc(count ? count : 1, size);
  if (!p) {
    fprintf(stderr, "%s: out of memory\n", program_label);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return p;
}

/* ---- building cases --------------------------------------------------------------- */

static int pick_block(const check_vocab *v, uint64_t *rng)
{
  return v->blocks[check_rng_below(rng, v->nblocks)];
}

/* The size of an odd first block (IMB or INB): mostly unlike the regular block. */
static int pick_first_block(const check_vocab *v, uint64_t *rng, int block)
{
  switch (check_rng_below(rng, 4)) {
  case 0:
    return block;
  case 1:
    return 1;
  default:
    return 1 + check_rng_below(rng, v->first_max);
  }
}

/* A 1-based start: at the first entry, inside the first block, at or inside the
 * second block, or anywhere near the top. */
static int pick_offset(uint64_t *rng, int first, int block)
{
  switch (check_rng_below(rng, 5)) {
  case 0:
    return 1;
  case 1:
    return 1 + check_rng_below(rng, first);
  case 2:
    return first + 1;
  case 3:
    return first + 1 + check_rng_below(rng, block);
  default:
    return 1 + check_rng_below(rng, 17);
  }
}

static int pick_margin(uint64_t *rng)
{
  static const int margins[] = {0, 0, 1, 3, 8};
  return margins[check_rng_below(rng, COUNT(margins))];
}

void check_size_operand(operand *op, int sub_rows, int sub_cols, int margin_rows,
                        int margin_cols)
{
  op->rows = op->i - 1 + sub_rows + margin_rows;
  op->cols = op->j - 1 + sub_cols + margin_cols;
  if (op->rows < 1)
    op->rows = 1;
  if (op->cols < 1)
    op->cols = 1;
}

/*
 * The layouts below draw two margins as the arguments of one call, whose order of
 * evaluation is the compiler's: the form is kept as it first was, so that a seed still
 * names the cases it named before.
 */

/* The layout engines usually serve fastest: one square block, whole matrices. */
static void layout_aligned(const check_vocab *v, operand *ops, int nmats,
                           const int (*extent)[2], uint64_t *rng)
{
  int nb = pick_block(v, rng);
  for (int mat = 0; mat < nmats; mat++) {
    operand *op = &ops[mat];
    *op = (operand){.dtype = 1, .imb = nb, .inb = nb, .mb = nb, .nb = nb, .i = 1, .j = 1};
    check_size_operand(op, extent[mat][0], extent[mat][1], 0, 0);
  }
}

/* One square block and one source for all, sub-matrices starting on block boundaries:
 * still aligned, but no longer whole matrices. */
static void layout_block_offsets(const check_vocab *v, grid_shape g, operand *ops,
                                 int nmats, const int (*extent)[2], uint64_t *rng)
{
  int nb = pick_block(v, rng);
  int rsrc = check_rng_below(rng, g.nprow), csrc = check_rng_below(rng, g.npcol);
  for (int mat = 0; mat < nmats; mat++) {
    operand *op = &ops[mat];
    *op = (operand){.dtype = 1, .imb = nb, .inb = nb, .mb = nb, .nb = nb, .rsrc = rsrc,
                    .csrc = csrc, .lld_pad = pick_margin(rng)};
    op->i = 1 + nb * check_rng_below(rng, 3);
    op->j = 1 + nb * check_rng_below(rng, 3);
    check_size_operand(op, extent[mat][0], extent[mat][1], pick_margin(rng),
                       pick_margin(rng));
  }
}

/* One block size for all, but sub-matrices that start inside a block, and possibly an
 * odd first block shared by all. */
static void layout_inner_offsets(const check_vocab *v, operand *ops, int nmats,
                                 const int (*extent)[2], uint64_t *rng)
{
  int nb = pick_block(v, rng);
  int dtype = 1 + check_rng_below(rng, 2);
  int first = dtype == 2 ? pick_first_block(v, rng, nb) : nb;
  for (int mat = 0; mat < nmats; mat++) {
    operand *op = &ops[mat];
    *op = (operand){.dtype = dtype, .imb = first, .inb = first, .mb = nb, .nb = nb,
                    .lld_pad = pick_margin(rng)};
    op->i = pick_offset(rng, first, nb);
    op->j = pick_offset(rng, first, nb);
    check_size_operand(op, extent[mat][0], extent[mat][1], pick_margin(rng),
                       pick_margin(rng));
  }
}

/* Every operand on its own: different blocks, sources, descriptor kinds and offsets. */
static void layout_mixed(const check_vocab *v, grid_shape g, operand *ops, int nmats,
                         const int (*extent)[2], uint64_t *rng)
{
  for (int mat = 0; mat < nmats; mat++) {
    operand *op = &ops[mat];
    op->dtype = 1 + check_rng_below(rng, 2);
    op->mb = pick_block(v, rng);
    op->nb = pick_block(v, rng);
    op->imb = op->dtype == 2 ? pick_first_block(v, rng, op->mb) : op->mb;
    op->inb = op->dtype == 2 ? pick_first_block(v, rng, op->nb) : op->nb;
    op->rsrc = check_rng_below(rng, g.nprow);
    op->csrc = check_rng_below(rng, g.npcol);
    op->lld_pad = pick_margin(rng);
    op->i = pick_offset(rng, op->imb, op->mb);
    op->j = pick_offset(rng, op->inb, op->nb);
    check_size_operand(op, extent[mat][0], extent[mat][1], pick_margin(rng),
                       pick_margin(rng));
  }
}

void check_choose_layout(check_head *head, const check_vocab *v, operand *ops, int nmats,
                         const int (*extent)[2], uint64_t *rng)
{
  int roll = check_rng_below(rng, 20);
  if (roll < 5) {
    head->layout = "aligned";
    layout_aligned(v, ops, nmats, extent, rng);
  } else if (roll < 8) {
    head->layout = "block-offsets";
    layout_block_offsets(v, head->grid, ops, nmats, extent, rng);
  } else if (roll < 11) {
    head->layout = "inner-offsets";
    layout_inner_offsets(v, ops, nmats, extent, rng);
  } else {
    head->layout = "mixed";
    layout_mixed(v, head->grid, ops, nmats, extent, rng);
  }
}

void check_layout_idle_owners(check_head *head, operand *ops, int nmats)
{
  head->layout = "idle-owners";
  for (int mat = 0; mat < nmats; mat++) {
    operand *op = &ops[mat];
    *op = (operand){.dtype = 2, .imb = 64, .inb = 64, .mb = 64, .nb = 64,
                    .rsrc = head->grid.nprow - 1, .csrc = head->grid.npcol - 1, .i = 5,
                    .j = 3, .lld_pad = 2};
    check_size_operand(op, 1, 1, 4, 0);
  }
}

void check_layout_large_blocks(check_head *head, operand *ops, int nmats,
                               const int (*extent)[2])
{
  head->layout = "large-blocks";
  for (int mat = 0; mat < nmats; mat++) {
    operand *op = &ops[mat];
    *op = (operand){.dtype = 2, .imb = 3 + 5 * mat, .inb = 29 - 7 * mat, .mb = 64,
                    .nb = 64, .rsrc = mat % head->grid.nprow,
                    .csrc = (mat + 1) % head->grid.npcol, .i = 2 + mat, .j = 4 - mat};
    check_size_operand(op, extent[mat][0], extent[mat][1], 1, 2);
  }
}

char check_pick_letter_case(uint64_t *rng, char upper)
{
  return check_rng_below(rng, 3) == 0 ? (char)(upper - 'A' + 'a') : upper;
}

char check_grid_order(long index)
{
  return (index / CHECK_BATCH) % 2 ? 'C' : 'R';
}

uint64_t check_case_key(uint64_t seed, grid_shape g, long index)
{
  uint64_t h = check_mix64(seed ^ 0x5EEDull);
  h = check_mix64(h ^ (uint64_t)(g.nprow * 16 + g.npcol));
  return check_mix64(h ^ (uint64_t)index);
}

void check_shuffle(uint64_t seed, grid_shape g, int *order, int count)
{
  uint64_t rng = check_case_key(seed, g, -1);
  for (int s = 0; s < count; s++)
    order[s] = s;
  for (int s = count - 1; s > 0; s--) {
    int t = check_rng_below(&rng, s + 1);
    int keep = order[s];
    order[s] = order[t];
    order[t] = keep;
  }
}

/* ---- one rank's share of a matrix ------------------------------------------------- */

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
      fprintf(stderr, "%s: internal error: local index of %d is %d, not %d\n", program_label,
              g, check_local_index(d, g), next);
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

void check_dist_create(dist_matrix *x, const operand *op, int context, grid_shape g,
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
  x->base = check_alloc(x->len + 2 * CHECK_GUARD, sizeof *x->base);
  x->before = check_alloc(x->len + 2 * CHECK_GUARD, sizeof *x->before);
  x->data = x->base + CHECK_GUARD;
  describe(x, op, context);
}

void check_dist_fill(dist_matrix *x, check_value_fn *value, const void *ctx)
{
  double pad = check_padding_value();
  for (size_t p = 0; p < x->len + 2 * CHECK_GUARD; p++)
    x->base[p] = pad;
  for (int lc = 0; lc < x->lcols; lc++)
    for (int lr = 0; lr < x->lrows; lr++)
      x->data[lr + (size_t)lc * x->lld] = value(ctx, x->grow[lr], x->gcol[lc]);
  memcpy(x->before, x->base, (x->len + 2 * CHECK_GUARD) * sizeof *x->base);
}

void check_dist_free(dist_matrix *x)
{
  free(x->grow);
  free(x->gcol);
  free(x->base);
  free(x->before);
}

/* ---- judging ---------------------------------------------------------------------- */

/* Where the gauge is zero the result is exact by definition, so only equality passes.
 * A NaN anywhere makes the ratio infinite. */
double check_entry_ratio(double got, double want, double gauge)
{
  double diff = fabs(got - want);
  if (gauge == 0.0)
    return diff == 0.0 ? 0.0 : INFINITY;
  double ratio = diff / (CHECK_EPS * gauge);
  return isnan(ratio) ? INFINITY : ratio;
}

void check_detail(const check_head *c, const char *fmt, ...)
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

/* Index p of base lies in a guard zone, outside the array the call was given. */
static int in_guard(const dist_matrix *x, size_t p)
{
  return p < CHECK_GUARD || p >= CHECK_GUARD + x->len;
}

static void judge_guards(const check_head *c, const dist_matrix *x, char name, int *bad)
{
  for (size_t p = 0; p < x->len + 2 * CHECK_GUARD; p++)
    if (in_guard(x, p) && !check_same_bits(x->base[p], x->before[p]) && (*bad)++ == 0)
      check_detail(c, "write past the %s of local %c", p < CHECK_GUARD ? "start" : "end",
                   name);
}

void check_judge_output(const check_head *c, const dist_matrix *x, char name,
                        check_zone_fn *where, const void *ctx, const double *ref,
                        const double *gauge, case_result *res)
{
  const double *before = x->before + CHECK_GUARD;
  judge_guards(c, x, name, &res->bad_outside);
  for (int lc = 0; lc < (x->lcols > 1 ? x->lcols : 1); lc++)
    for (int lr = 0; lr < x->lld; lr++) {
      size_t p = lr + (size_t)lc * x->lld;
      int owned = lr < x->lrows && lc < x->lcols;
      int gr = owned ? x->grow[lr] : -1, gc = owned ? x->gcol[lc] : -1;
      const char *zone = "";
      long q = owned ? where(ctx, gr, gc, &zone) : -1;
      if (q >= 0) {
        double ratio = check_entry_ratio(x->data[p], ref[q], gauge[q]);
        if (ratio > res->worst)
          res->worst = ratio;
        if (!(ratio <= CHECK_THRESHOLD) && res->bad_sub++ == 0)
          check_detail(c, "%c(%d,%d) = %.17g, expected %.17g (gauge %.3g, ratio %.3g)",
                       name, gr + 1, gc + 1, x->data[p], ref[q], gauge[q], ratio);
      } else if (!check_same_bits(x->data[p], before[p]) && res->bad_outside++ == 0) {
        if (owned)
          check_detail(c, "%c(%d,%d) %s changed from %.17g to %.17g", name, gr + 1, gc + 1,
                       zone, before[p], x->data[p]);
        else
          check_detail(c, "local %c storage at (%d,%d), beyond the owned entries, changed",
                       name, lr + 1, lc + 1);
      }
    }
}

void check_judge_input(const check_head *c, const dist_matrix *x, char name,
                       case_result *res)
{
  judge_guards(c, x, name, &res->bad_inputs);
  for (size_t p = 0; p < x->len; p++)
    if (!check_same_bits(x->data[p], x->before[CHECK_GUARD + p]) && res->bad_inputs++ == 0)
      check_detail(c,
                   "%c changed at local offset %zu (row %zu, column %zu of the local array)",
                   name, p, p % (size_t)x->lld + 1, p / (size_t)x->lld + 1);
}

int check_format_operand(char *buf, size_t len, char name, const operand *op)
{
  return snprintf(buf, len,
                  " %c[dtype=%d M=%d N=%d imb=%d inb=%d mb=%d nb=%d rsrc=%d csrc=%d "
                  "lldpad=%d i=%d j=%d]",
                  name, op->dtype, op->rows, op->cols, op->imb, op->inb, op->mb, op->nb,
                  op->rsrc, op->csrc, op->lld_pad, op->i, op->j);
}

/* ---- reporting -------------------------------------------------------------------- */

static void report_case(const check_routine *r, const options *o, const void *c,
                        const case_result *res)
{
  const check_head *h = c;
  int failed = res->bad_sub || res->bad_outside || res->bad_inputs;
  if (!failed && !o->verbose)
    return;
  char text[1024];
  r->format(text, sizeof text, c);
  if (!failed) {
    printf("ok   %s: worst ratio %.3g\n", text, res->worst);
    return;
  }
  printf("FAIL %s: %d bad in %s, %d changed outside %s, %d inputs changed, "
         "worst ratio %.3g (rerun: mpiexec.mpich -n %d %s --seed %llu --grids %dx%d "
         "--case %ld)\n",
         text, res->bad_sub, r->judged, res->bad_outside, r->judged, res->bad_inputs,
         res->worst, world_size, program_name, (unsigned long long)o->seed, h->grid.nprow,
         h->grid.npcol, h->index);
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

/* ---- driving the sweep ------------------------------------------------------------ */

/* Every rank takes part in creating the grid; those left outside it get no context and
 * must stay away from the routine, but still join the reduction of the results. */
static void run_batch(const check_routine *r, const options *o, grid_shape g, long first,
                      int count, const int *shape_order, tally *t)
{
  char *cases = check_alloc(CHECK_BATCH, r->case_size);
  case_result local[CHECK_BATCH];
  double worst[CHECK_BATCH];
  int counts[3 * CHECK_BATCH];
  for (int i = 0; i < count; i++)
    r->make(cases + i * r->case_size, o->seed, g, first + i, shape_order);

  char order[2] = {check_grid_order(first), '\0'};
  int context, nprow = -1, npcol = -1, myrow = -1, mycol = -1;
  Cblacs_get(-1, 0, &context);
  Cblacs_gridinit(&context, order, g.nprow, g.npcol);
  Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
  int in_grid = myrow >= 0 && myrow < g.nprow && mycol >= 0 && mycol < g.npcol;

  for (int i = 0; i < count; i++) {
    local[i] = in_grid ? r->run(cases + i * r->case_size, context, myrow, mycol)
                       : (case_result){0};
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
    case_result res = {worst[i], counts[3 * i], counts[3 * i + 1], counts[3 * i + 2]};
    int failed = res.bad_sub || res.bad_outside || res.bad_inputs;
    if (failed)
      t->failed++;
    else
      t->passed++;
    if (res.worst > t->worst)
      t->worst = res.worst;
    if (world_rank == 0)
      report_case(r, o, cases + i * r->case_size, &res);
  }
  fflush(stdout);
  free(cases);
}

static long cases_per_grid(const check_routine *r, const options *o)
{
  if (o->cases > 0)
    return o->cases;
  return o->full ? r->full_cases : r->quick_cases;
}

static void run_grid(const check_routine *r, const options *o, grid_shape g, tally *t)
{
  int *shape_order = check_alloc((size_t)r->shapes, sizeof *shape_order);
  check_shuffle(o->seed, g, shape_order, r->shapes);
  if (o->only_case >= 0) {
    run_batch(r, o, g, o->only_case, 1, shape_order, t);
    free(shape_order);
    return;
  }
  long total = cases_per_grid(r, o), since_progress = 0;
  for (long first = 0; first < total; first += CHECK_BATCH) {
    int count = total - first < CHECK_BATCH ? (int)(total - first) : CHECK_BATCH;
    run_batch(r, o, g, first, count, shape_order, t);
    since_progress += count;
    if (world_rank == 0 && (since_progress >= PROGRESS_EVERY || first + count == total)) {
      progress(t, g, first + count, total);
      since_progress = 0;
    }
  }
  free(shape_order);
}

/* ---- options ---------------------------------------------------------------------- */

static void usage(const check_routine *r)
{
  if (world_rank != 0)
    return;
  fprintf(stderr,
          "usage: %s [--quick | --full] [--seed N] [-v] [--grids PxQ[,PxQ...]] [--cases N]\n"
          "          [--case I] [hpdaemon options: -t FRACTION, --report[=SPEC]]\n"
          "  --quick    %ld cases per grid (default)\n"
          "  --full     %ld cases per grid: %s\n"
          "  --grids    these grids, in order, where they fit (default: 1x1 1x2 2x1 2x2 1x3\n"
          "             3x1)\n"
          "  --cases    this many cases per grid instead\n"
          "  --case     only case I of each grid (to rerun a reported failure)\n",
          program_name, r->quick_cases, r->full_cases, r->full_what);
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

static int parse_grids(const char *text, options *o)
{
  const char *p = text;
  while (*p) {
    int rows, cols, used;
    if (sscanf(p, "%dx%d%n", &rows, &cols, &used) != 2 || rows < 1 || cols < 1 ||
        o->chosen == MAX_CHOSEN)
      return -1;
    o->grids[o->chosen++] = (grid_shape){rows, cols};
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
      if (!value || parse_grids(value, o) != 0)
        return bad_value("--grids", value);
    } else {
      if (world_rank == 0)
        fprintf(stderr, "%s: unknown option '%s'\n", program_name, arg);
      return -1;
    }
  }
  return 0;
}

/* The grids the sweep runs: --grids, else the known ones; those that fit. */
static int sweep_grids(const options *o, grid_shape *grids)
{
  const grid_shape *from = o->chosen ? o->grids : known_grids;
  int count = 0;
  for (int gi = 0; gi < (o->chosen ? o->chosen : NGRIDS); gi++)
    if (from[gi].nprow * from[gi].npcol <= world_size)
      grids[count++] = from[gi];
  return count;
}

/* Returns the calls the engine served on this rank. */
static unsigned long long print_engine_use(const check_routine *r)
{
  hpd_stats s;
  if (hpd_get_stats(&s) != HPD_SUCCESS)
    return 0;
  const hpd_routine_stats *st = &s.routine[r->stats_index];
  printf("hpdaemon on rank 0: %llu %s calls, %llu served by the engine, %llu fallbacks",
         (unsigned long long)st->calls, r->routine, (unsigned long long)st->engine_calls,
         (unsigned long long)st->fallback_calls);
  for (int reason = 0; reason < HPD_FALLBACK_REASONS; reason++)
    if (st->fallback_by_reason[reason])
      printf(" %s=%llu", hpd_fallback_reason_name(reason),
             (unsigned long long)st->fallback_by_reason[reason]);
  printf("\n");
  return (unsigned long long)st->engine_calls;
}

/* A sweep that never reached the engine judged only the reference, which proves nothing
 * about hpdaemon; unless the engine was switched off on purpose, that is a failure. */
static int engine_missing(const check_routine *r, unsigned long long served)
{
  if (!r->require_engine || served > 0)
    return 0;
  if (hpd_get_disable()) {
    printf("the engine is disabled: this sweep judged the reference %s\n", r->routine);
    return 0;
  }
  printf("FAIL: hpdaemon's engine served no %s call\n", r->routine);
  return 1;
}

int check_main(const check_routine *r, int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int hpd_status = hpd_parse_args(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  program_name = argv[0];
  program_label = r->program;

  options o;
  int parsed = parse_options(argc, argv, &o);
  if (hpd_status != HPD_SUCCESS || parsed != 0) {
    usage(r);
    MPI_Finalize();
    return parsed == 1 && hpd_status == HPD_SUCCESS ? 0 : 2;
  }

  tally t = {.start = now()};
  grid_shape grids[MAX_CHOSEN > NGRIDS ? MAX_CHOSEN : NGRIDS];
  int ngrids = sweep_grids(&o, grids);
  if (world_rank == 0) {
    printf("%s: %s sweep, seed %llu, %d ranks, grids:", r->program,
           o.full ? "full" : "quick", (unsigned long long)o.seed, world_size);
    for (int gi = 0; gi < ngrids; gi++)
      printf(" %dx%d", grids[gi].nprow, grids[gi].npcol);
    printf("\n");
    fflush(stdout);
  }
  for (int gi = 0; gi < ngrids; gi++)
    run_grid(r, &o, grids[gi], &t);

  int missing = 0;
  if (world_rank == 0) {
    if (t.passed + t.failed == 0)
      printf("no case ran: no selected grid fits in %d ranks\n", world_size);
    missing = engine_missing(r, print_engine_use(r));
    printf("%ld passed, %ld failed\n", t.passed, t.failed);
    fflush(stdout);
  }
  Cblacs_exit(1);
  MPI_Finalize();
  return t.failed > 0 || t.passed == 0 || missing ? 1 : 0;
}
