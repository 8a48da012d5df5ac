/*
 * What the sweeps of pdtrsm_, pdtrmm_, pdsymm_ and pdsyr2k_ share beyond check_sweep.h:
 * the start of a case, the walk over (option letters, shape) combinations, NaNs of their
 * own for storage a routine may not read, the wide layout of a square operand, and the
 * judging of the scalar, index and descriptor arguments of a call.
 */
#ifndef HPD_CHECK_LEVEL3_H
#define HPD_CHECK_LEVEL3_H

#include <stdint.h>

#include "check_sweep.h"

/* The head of case `index` of grid g; returns the seed of the case's random choices. */
uint64_t check_start_case(check_head *head, uint64_t seed, grid_shape g, long index);
/* The id of matrix mat's entries in this case. */
uint64_t check_data_id(const check_head *head, int mat);

/* Whether an option letter is `upper`, in either case. */
int check_is(char letter, char upper);
/* Whether entry (i, j) of a square sub-matrix, 0-based from its corner, lies in the
 * triangle (diagonal included) that uplo 'U' (upper set) or 'L' names. */
int check_in_triangle(int upper, int i, int j);

/* NaNs with payloads of their own, told apart from padding (and each other) in a report:
 * for a triangle the routine may not read, and for a unit diagonal it may not read. */
double check_other_triangle_value(void);
double check_unit_diagonal_value(void);

/*
 * Combination j of (letters, shape): every npairs consecutive j hold all letter
 * combinations (*pair), and each walks the shapes in its own shuffled order, starting
 * apart from the others, so that any prefix of the sequence is a spread-out sample and
 * each npairs * nshapes of it the full cross product.
 */
void check_pick_combo(long j, int npairs, int nshapes, const int *shape_order, int *pair,
                      int *shape);

/* A square order x order sub-matrix with its rows and columns alike (offset, blocks,
 * source), as a factorization passes its diagonal blocks; the margins are kept. */
void check_make_alike(operand *op, int order, grid_shape g);

/*
 * Operand `square` (order extent[square][0]) in blocks of 80 after odd first blocks,
 * starting inside them, so that one process holds runs of more than 64 consecutive
 * columns and the diagonal enters every block off its corner; alike, its rows and
 * columns share offset, blocks and source.  The other operands in blocks of 16.
 */
void check_layout_wide(check_head *head, operand *ops, int nmats, const int (*extent)[2],
                       int square, int alike);

/* The arguments of a call other than its arrays, kept so that a callee writing to one of
 * them is caught: the call gets a copy, which must come back equal. */
typedef struct check_args {
  double scalars[2];
  int ints[12];
  int descs[3][11];
  char letters[4];
} check_args;

/* An empty set, every byte defined, so that copies compare bytewise. */
void check_args_clear(check_args *a);
void check_args_copy(check_args *to, const check_args *from);
void check_args_judge(const check_head *head, const check_args *sent,
                      const check_args *after, case_result *res);

/* The stored entries of a rows x cols sub-matrix (op's offset) of matrix id, dense,
 * column-major. */
double *check_dense_sub(uint64_t id, const operand *op, int rows, int cols);

#endif /* HPD_CHECK_LEVEL3_H */
