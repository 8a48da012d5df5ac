/*
 * The element type of the kernel family this library is built for, named here and nowhere
 * else.  Every matrix the engine, the level-3 routines, the factorizations and the
 * exchanges hold, move or multiply is an array of hpd_elem; every message that carries one
 * is counted in HPD_ELEM_MPI; every BLAS, LAPACK or PBLAS routine they reach is the
 * family's (HPD_ELEM_BLAS(gemm) is dgemm_, HPD_ELEM_PBLAS(geadd) is pdgeadd_).  Another
 * precision is another family: these lines, its kernels and the ABI that passes its
 * arrays, not another copy of the algorithms (docs/ARCHITECTURE.md, "Another precision").
 */
#ifndef HPD_KERNEL_ELEM_H
#define HPD_KERNEL_ELEM_H

typedef double hpd_elem;
/* Named, not included: a file that sends elements includes <mpi.h> for the call itself,
 * and a kernel that names the element builds without MPI (level3/small_trsm.c is built
 * alone into the simulated mode's kernel_rates). */
#define HPD_ELEM_MPI MPI_DOUBLE
#define HPD_ELEM_BLAS(name) d##name##_
#define HPD_ELEM_PBLAS(name) pd##name##_

#endif
