/*
 * The matrices the factorization driver and benchmark factor, on a BLACS grid: a general
 * one for LU (pdgetrf_) and a symmetric positive definite one for Cholesky (pdpotrf_).
 * Every entry is a function of its global position, so any grid and block size factors
 * the same matrix.  The local share sits between guard zones that must survive the
 * factorization untouched, as ScaLAPACK's testers pad theirs.
 */
#ifndef HPD_SUPPORT_FACTOR_PROBLEM_H
#define HPD_SUPPORT_FACTOR_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

typedef struct fd_grid {
  int context, nprow, npcol, myrow, mycol, rank, size;
} fd_grid;

typedef enum fd_factor { FD_LU = 0, FD_CHOL = 1, FD_FACTORS = 2 } fd_factor;

typedef struct fd_problem {
  fd_factor factor;
  char uplo; /* Cholesky: 'L' or 'U', the triangle pdpotrf_ factors; LU: '-' */
  int n, nb, mloc, nloc;
  int desc[9];
  size_t elems; /* lld x nloc */
  double *a;    /* the local share, inside a_block's guard zones */
  int *ipiv;    /* pdgetrf_'s pivots: mloc + nb entries, inside ipiv_block's */
  size_t npiv;
  double *a_block;
  int *ipiv_block;
} fd_problem;

/* 0, or -1 when P x Q is not the number of ranks (collective over MPI_COMM_WORLD). */
int fd_grid_open(int p, int q, fd_grid *g);

/* Allocates and generates the matrix; aborts the job when memory runs out. */
void fd_problem_setup(fd_problem *pb, fd_factor factor, int n, int nb, const fd_grid *g);
void fd_problem_free(fd_problem *pb);

/* The original matrix's entry at 0-based global (gi, gj). */
double fd_original(const fd_problem *pb, int64_t gi, int64_t gj);
/* Rewrites the local share with the original matrix (a factorization overwrites it). */
void fd_generate(fd_problem *pb, const fd_grid *g);
/* Global indices of local entry (li, lj), 0-based. */
int64_t fd_global_row(const fd_problem *pb, const fd_grid *g, int li);
int64_t fd_global_col(const fd_problem *pb, const fd_grid *g, int lj);

/* pdgetrf_ or pdpotrf_ (with pb->uplo) on the whole matrix, in place; the info it
 * returned on this rank. */
int fd_factorize(fd_problem *pb);

/* 1 when this rank's guard zones are intact. */
int fd_guards_intact(const fd_problem *pb);

/* "pdgetrf" or "pdpotrf". */
const char *fd_factor_name(fd_factor factor);

#endif
