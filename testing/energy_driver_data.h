/* The energy driver's options, process grid, matrices and memory readings. */
#ifndef HPD_TESTING_ENERGY_DRIVER_DATA_H
#define HPD_TESTING_ENERGY_DRIVER_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "hpdaemon.h"

typedef struct ed_options {
  int strategies[HPD_STRATEGIES], strategy_count; /* hpd_strategy values, in table order */
  int n, nb, p, q, reps;
  int table3;
  double threshold; /* the one in force for the main table (-t, else the default) */
  const char *csv;
} ed_options;

typedef struct ed_grid {
  int context, nprow, npcol, myrow, mycol, rank, size;
} ed_grid;

/* Local shares of the N x N operands, all laid out by the same descriptor. */
typedef struct ed_problem {
  int n, nb, mloc, nloc;
  int desc[9];
  size_t elems;
  double *a, *b, *c, *c_ref; /* C = A * B, and the reference's result */
  double *lu, *lu_ref;       /* the matrix pdgetrf factors, and the reference's factors */
  double *llt, *llt_ref;     /* the matrix pdpotrf factors (lower), and the reference's */
  int *ipiv;
} ed_problem;

/* 0, or -1 when P x Q is not the number of ranks. */
int ed_grid_open(const ed_options *o, ed_grid *g);
void ed_problem_setup(ed_problem *pb, int n, int nb, const ed_grid *g);
void ed_problem_free(ed_problem *pb);
/* Rewrites pb->lu with the diagonally dominant matrix pdgetrf factors. */
void ed_lu_regenerate(ed_problem *pb, const ed_grid *g);
/* Rewrites pb->llt with the symmetric, diagonally dominant matrix pdpotrf factors. */
void ed_llt_regenerate(ed_problem *pb, const ed_grid *g);

/* C := A * B over the whole matrices, through pdgemm_. */
void ed_multiply(ed_problem *pb);
/* The LU factorization of pb->lu in place; pdgetrf_'s info. */
int ed_factor(ed_problem *pb);
/* The Cholesky factorization of pb->llt's lower triangle in place; pdpotrf_'s info. */
int ed_cholesky(ed_problem *pb);

/* max|x - ref| / (N * eps * max|ref|) over every rank: NaN-safe (a NaN fails). */
double ed_scaled_difference(const double *x, const double *ref, size_t elems, int n);

/* This process's resident bytes now (/proc/self/statm), 0 if unreadable. */
uint64_t ed_resident_bytes(void);

#endif
