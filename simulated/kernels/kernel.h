#ifndef HPD_SIM_KERNEL_H
#define HPD_SIM_KERNEL_H

/*
 * The kernels that the simulated timing mode charges instead of running (README:
 * "Simulated clusters"), as families of one shape each: a family's dimensions, the grid
 * of shapes at which measure.c times it on the host, and its flop count.  The flop count
 * only scales the rates: a call is charged flops / rate(shape) of the host's time, so the
 * formula cancels wherever a shape was measured and only smooths what lies between.
 */
typedef enum hpd_kernel {
  HPD_K_GEMM,       /* m, n, k */
  HPD_K_SYMM,       /* order of A, the other dimension of B */
  HPD_K_SYRK,       /* n, k */
  HPD_K_SYR2K,      /* n, k */
  HPD_K_TRMM,       /* order of A, the other dimension of B */
  HPD_K_TRSM,       /* order of A, the other dimension of B */
  HPD_K_SMALL_TRSM, /* the library's own solve of small order (src/level3/small_trsm.c) */
  HPD_K_GEMV,       /* m, n */
  HPD_K_GER,        /* m, n */
  HPD_K_SYMV,       /* n */
  HPD_K_SYR,        /* n */
  HPD_K_SYR2,       /* n */
  HPD_K_TRMV,       /* n */
  HPD_K_TRSV,       /* n */
  HPD_K_AXPY,       /* n, the larger stride */
  HPD_K_DOT,        /* n, the larger stride */
  HPD_K_SCAL,       /* n, stride */
  HPD_K_COPY,       /* n, the larger stride */
  HPD_K_SWAP,       /* n, the larger stride */
  HPD_K_IAMAX,      /* n, stride */
  HPD_K_GETRF,      /* m, n */
  HPD_K_POTRF,      /* n */
  HPD_K_LASWP,      /* columns, interchanges */
  HPD_KERNELS
} hpd_kernel;

#define HPD_KERNEL_MAX_DIMS 3
#define HPD_KERNEL_MAX_POINTS 12

typedef struct hpd_kernel_axis {
  int count;
  int points[HPD_KERNEL_MAX_POINTS]; /* increasing, the first at least 1 */
} hpd_kernel_axis;

typedef struct hpd_kernel_info {
  const char *name; /* as in the rate table */
  int dims;
  hpd_kernel_axis axis[HPD_KERNEL_MAX_DIMS];
} hpd_kernel_info;

extern const hpd_kernel_info hpd_kernel_table[HPD_KERNELS];

/* Flops of one call of the given shape (each dimension at least 1). */
double hpd_kernel_flops(hpd_kernel kernel, const double dim[HPD_KERNEL_MAX_DIMS]);

/* Shapes on the kernel's grid: the product of its axes' counts. */
int hpd_kernel_shapes(hpd_kernel kernel);

/* The dimensions of the grid's shape number `index`, the last axis fastest. */
void hpd_kernel_shape(hpd_kernel kernel, int index, double dim[HPD_KERNEL_MAX_DIMS]);

#endif
