/*
 * What the correctness sweeps of pdgemm_ and pdsyrk_ share: the random-case vocabulary,
 * distributed matrices with guard zones, the judging of results and of untouched
 * storage, and the driver that batches cases per BLACS grid, reduces failure counts and
 * reports them.  A sweep supplies only what is particular to its routine (check_routine).
 *
 * Every rank builds the same global matrices from a hash of (matrix, row, column), so a
 * sweep never moves matrix data itself: only the call under test does.
 */
#ifndef HPD_CHECK_SWEEP_H
#define HPD_CHECK_SWEEP_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>

#include "check_layout.h"

/* The PBLAS testers' criterion: eps is the unit roundoff (2^-53), and a ratio up to 16
 * passes.  Rounding in a length-K dot product stays far below that in practice. */
#define CHECK_EPS (DBL_EPSILON / 2)
#define CHECK_THRESHOLD 16.0
/* Cases per BLACS context: the grid is created and freed again for every batch. */
#define CHECK_BATCH 8
/* Sentinel entries on both sides of every local array catch writes past its ends. */
#define CHECK_GUARD 16
#define COUNT(array) ((int)(sizeof array / sizeof array[0]))

typedef struct grid_shape {
  int nprow, npcol;
} grid_shape;

/* One distributed operand as the case describes it, before any rank holds it. */
typedef struct operand {
  int dtype; /* 1: 9-entry descriptor; 2: 11-entry descriptor with IMB/INB */
  int rows, cols;
  int imb, inb, mb, nb;
  int rsrc, csrc;
  int lld_pad; /* leading dimension beyond the local rows */
  int i, j;    /* 1-based start of the sub-matrix */
} operand;

/* The part of every case the driver needs; each sweep's case type starts with it. */
typedef struct check_head {
  grid_shape grid;
  char order; /* BLACS process order, 'R' or 'C' */
  long index;
  uint64_t key; /* seeds this case's choices and its matrices */
  const char *layout;
} check_head;

typedef struct case_result {
  double worst;    /* worst ratio over the judged entries of the output */
  int bad_sub;     /* judged entries beyond the threshold */
  int bad_outside; /* entries of the output that had to stay unchanged but changed */
  int bad_inputs;  /* entries of the inputs, or arguments of the call, that changed */
} case_result;

/* What a sweep may draw for its layouts. */
typedef struct check_vocab {
  const int *blocks; /* the block sizes */
  int nblocks;
  int first_max; /* an odd first block (IMB, INB) is at most this */
} check_vocab;

/* ---- deterministic data ----------------------------------------------------------- */

uint64_t check_mix64(uint64_t x);
uint64_t check_rng_next(uint64_t *state);
int check_rng_below(uint64_t *state, int bound);
/* Entry (i, j), 0-based, of global matrix id: in [-1, 1), the same on every rank. */
double check_entry(uint64_t id, int i, int j);
/* A NaN with a payload of its own marks storage that no one should read or write. */
double check_padding_value(void);
int check_same_bits(double a, double b);
void *check_alloc(size_t count, size_t size);

/* ---- building cases --------------------------------------------------------------- */

/* The letter, or its lower case one time in three. */
char check_pick_letter_case(uint64_t *rng, char upper);
/* Batches alternate between row-major and column-major process orders. */
char check_grid_order(long index);
uint64_t check_case_key(uint64_t seed, grid_shape g, long index);
/* A permutation of 0..count-1, fixed by the seed and the grid. */
void check_shuffle(uint64_t seed, grid_shape g, int *order, int count);

/* Global size: enough for the sub-matrix at its offset, plus a margin, never empty. */
void check_size_operand(operand *op, int sub_rows, int sub_cols, int margin_rows,
                        int margin_cols);
/* One of the random layouts for nmats operands whose sub-matrices are extent[mat][0] x
 * extent[mat][1]; names it in head->layout. */
void check_choose_layout(check_head *head, const check_vocab *v, operand *ops, int nmats,
                         const int (*extent)[2], uint64_t *rng);
/* Every operand in one large block held by the last process row and column, starting
 * inside that block, so all other processes own nothing; sub-matrices 1 x 1. */
void check_layout_idle_owners(check_head *head, operand *ops, int nmats);
/* Large odd first blocks, regular blocks of 64, sources spread apart. */
void check_layout_large_blocks(check_head *head, operand *ops, int nmats,
                               const int (*extent)[2]);

/* ---- one rank's share of a matrix ------------------------------------------------- */

typedef struct dist_matrix {
  check_dim row, col;
  int lrows, lcols, lld;
  int *grow, *gcol; /* global index of each local row and column */
  int desc[11];
  size_t len;     /* entries the call may address: lld * columns */
  double *base;   /* len entries with CHECK_GUARD sentinels before and after */
  double *data;   /* what the call sees: base + CHECK_GUARD */
  double *before; /* all of base, just before the call */
} dist_matrix;

/* The value of global entry (gi, gj), 0-based. */
typedef double check_value_fn(const void *ctx, int gi, int gj);

void check_dist_create(dist_matrix *x, const operand *op, int context, grid_shape g,
                       int myrow, int mycol);
/* Owned entries from value, padding and guards a NaN of their own; then the snapshot
 * that judging compares with. */
void check_dist_fill(dist_matrix *x, check_value_fn *value, const void *ctx);
void check_dist_free(dist_matrix *x);

/* ---- judging ---------------------------------------------------------------------- */

/* The error ratio of one entry against its gauge: 0 or infinity where the gauge is 0. */
double check_entry_ratio(double got, double want, double gauge);

void check_detail(const check_head *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Where global entry (gi, gj) of the output stands: the index of its expected value in
 * ref and gauge, or -1 when it must stay unchanged, with *zone saying where it lies for
 * the report ("outside sub(C)"). */
typedef long check_zone_fn(const void *ctx, int gi, int gj, const char **zone);

/* Judges every entry of the output's local storage, guards included. */
void check_judge_output(const check_head *c, const dist_matrix *x, char name,
                        check_zone_fn *where, const void *ctx, const double *ref,
                        const double *gauge, case_result *res);
/* An input must come back bit for bit, guards included. */
void check_judge_input(const check_head *c, const dist_matrix *x, char name,
                       case_result *res);

int check_format_operand(char *buf, size_t len, char name, const operand *op);

/* ---- the driver ------------------------------------------------------------------- */

typedef struct check_routine {
  const char *program;  /* names the sweep in its output */
  const char *routine;  /* the routine judged, as hpdaemon's statistics name it */
  int stats_index;      /* its hpd_routine */
  const char *judged;   /* what the judged output entries are: "sub(C)" */
  const char *full_what; /* what --full covers, for the usage text */
  long quick_cases, full_cases;
  size_t case_size; /* the sweep's case type, which starts with a check_head */
  int shapes;       /* entries of the shape order each grid shuffles */
  int require_engine; /* fail if the engine served no call (unless disabled) */
  void (*make)(void *c, uint64_t seed, grid_shape g, long index, const int *shape_order);
  case_result (*run)(const void *c, int context, int myrow, int mycol);
  void (*format)(char *buf, size_t len, const void *c);
} check_routine;

/* The whole program: options, the sweep over every selected grid, the summary.  Returns
 * the exit status. */
int check_main(const check_routine *r, int argc, char **argv);

#endif /* HPD_CHECK_SWEEP_H */
