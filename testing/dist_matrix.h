/*
 * Distributed matrices for the tests that compare hpdaemon with the reference in the
 * same run: made from dist_data.h's entries on a BLACS grid, copied, compared, judged.
 */
#ifndef HPD_TESTING_DIST_MATRIX_H
#define HPD_TESTING_DIST_MATRIX_H

#include <stddef.h>

typedef struct dist_grid {
  int ctxt, nprow, npcol, myrow, mycol;
  int nb; /* square blocks, the first on process (0, 0) */
} dist_grid;

/* The P x Q grid that argv names (argv[1], argv[2]; 1 x 2 without them), blocks of nb,
 * after MPI_Init; aborts with a message naming the test where the ranks do not fit. */
dist_grid dist_grid_open(int argc, char **argv, const char *test, int nb);

typedef struct dist {
  int desc[9];
  int lld, nloc;
  double *data;
} dist;

/* A rows x cols matrix of dist_element(salt, gi, gj). */
dist dist_new(const dist_grid *g, int rows, int cols, int salt);

/* The same laid out in mb x nb blocks, the first on process (rsrc, csrc). */
dist dist_new_laid(const dist_grid *g, int rows, int cols, int mb, int nb, int rsrc,
                   int csrc, int salt);

/* Its local storage, copied (free it). */
double *dist_copy(const dist *x);
size_t dist_local_len(const dist *x);

/* The largest difference between x's local entries and y's (NaN counts as infinite). */
double dist_worst_difference(const dist *x, const double *y);

/* Tallies of dist_judge. */
typedef struct dist_tally {
  int checked, failed;
} dist_tally;

/* One check over the grid: passes when the largest worst over all ranks is at most
 * tolerance; a failure is printed on rank 0 of MPI_COMM_WORLD. */
void dist_judge(dist_tally *tally, const char *what, double worst, double tolerance);

/* The same for a yes-or-no check named "name: what": bad on any rank fails it. */
void dist_judge_flag(dist_tally *tally, const char *name, const char *what, int bad);

#endif
