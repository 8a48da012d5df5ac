/* The MPI tests' check: one verdict agreed by every rank of MPI_COMM_WORLD (a condition
 * false on any rank fails), printed once by rank 0 with what it checks, and counted. */
#ifndef HPD_TESTING_MPI_CHECK_H
#define HPD_TESTING_MPI_CHECK_H

#include <mpi.h>
#include <stdio.h>

#include "world_nodes.h"

static int passed, failed;

static inline void check_all(int ok, const char *what)
{
  int all = 0, rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s: %s\n", all ? "ok" : "FAIL", what);
  all ? passed++ : failed++;
}

#endif
