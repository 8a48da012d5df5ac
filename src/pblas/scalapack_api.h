/*
 * The few BLACS and PBLAS symbols the library calls (the BLAS's are in kernel/blas.h).
 * Debian ships no headers for ScaLAPACK, so they are declared here, once.  Int is a plain
 * int in Debian's builds.
 * None of the PBLAS routines used here calls a routine hpdaemon defines (so hpdaemon never
 * recurses).
 */
#ifndef HPD_PBLAS_SCALAPACK_API_H
#define HPD_PBLAS_SCALAPACK_API_H

#include <mpi.h>

#include "kernel/elem.h"

/* BLACS, C interface. */
void Cblacs_gridinfo(int ictxt, int *nprow, int *npcol, int *myrow, int *mycol);
int Cblacs_pnum(int ictxt, int prow, int pcol);
void Cblacs_get(int ictxt, int what, int *val);
MPI_Comm Cblacs2sys_handle(int sysctxt);

/* Cblacs_get(ictxt, HPD_BLACS_GET_GRID_SYSTEM, &h): a BLACS system handle for the
 * communicator that spans exactly the grid of ictxt, ranked like Cblacs_pnum. */
#define HPD_BLACS_GET_GRID_SYSTEM 10

/* PBLAS: sub(C) := beta*sub(C) + alpha*op(sub(A)); any alignment, 9- or 11-entry
 * descriptors.  With beta = 0 it is a copy (or transposition) into another layout. */
void HPD_ELEM_PBLAS(geadd)(const char *trans, const int *m, const int *n,
                           const hpd_elem *alpha, const hpd_elem *a, const int *ia,
                           const int *ja, const int *desca, const hpd_elem *beta, hpd_elem *c,
                           const int *ic, const int *jc, const int *descc);

/* Descriptor entries, 11-entry form (DTYPE 2); a 9-entry one is widened to it. */
enum {
  HPD_DTYPE = 0, HPD_CTXT, HPD_M, HPD_N, HPD_IMB, HPD_INB, HPD_MB, HPD_NB, HPD_RSRC,
  HPD_CSRC, HPD_LLD, HPD_DLEN
};
#define HPD_BLOCK_CYCLIC_2D 1
#define HPD_BLOCK_CYCLIC_2D_INB 2

#endif
