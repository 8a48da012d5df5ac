/*
 * The charged kernels' shapes and flop counts (kernel.h).  The grids reach the shapes the
 * routines call: the local blocks of a multiply (up to 2048 a side, beyond which a
 * kernel's rate no longer grows), the panels of a factorization (up to 16384 rows of 256
 * columns), vectors strided by a leading dimension (row interchanges).
 */
#include "kernel.h"

#define LEVEL3 {9, {1, 8, 32, 64, 128, 256, 512, 1024, 2048}}
#define VECTOR {5, {1, 16, 256, 4096, 65536}}
#define STRIDE {2, {1, 256}}

const hpd_kernel_info hpd_kernel_table[HPD_KERNELS] = {
  [HPD_K_GEMM] = {"dgemm", 3, {LEVEL3, LEVEL3, LEVEL3}},
  [HPD_K_SYMM] = {"dsymm", 2, {LEVEL3, LEVEL3}},
  [HPD_K_SYRK] = {"dsyrk", 2, {LEVEL3, LEVEL3}},
  [HPD_K_SYR2K] = {"dsyr2k", 2, {LEVEL3, LEVEL3}},
  [HPD_K_TRMM] = {"dtrmm", 2, {LEVEL3, LEVEL3}},
  [HPD_K_TRSM] = {"dtrsm", 2, {LEVEL3, LEVEL3}},
  [HPD_K_SMALL_TRSM] = {"hpd_small_trsm", 2, {{6, {1, 4, 8, 16, 32, 64}}, LEVEL3}},
  [HPD_K_GEMV] = {"dgemv", 2, {LEVEL3, LEVEL3}},
  [HPD_K_GER] = {"dger", 2, {LEVEL3, LEVEL3}},
  [HPD_K_SYMV] = {"dsymv", 1, {LEVEL3}},
  [HPD_K_SYR] = {"dsyr", 1, {LEVEL3}},
  [HPD_K_SYR2] = {"dsyr2", 1, {LEVEL3}},
  [HPD_K_TRMV] = {"dtrmv", 1, {LEVEL3}},
  [HPD_K_TRSV] = {"dtrsv", 1, {LEVEL3}},
  [HPD_K_AXPY] = {"daxpy", 2, {VECTOR, STRIDE}},
  [HPD_K_DOT] = {"ddot", 2, {VECTOR, STRIDE}},
  [HPD_K_SCAL] = {"dscal", 2, {VECTOR, STRIDE}},
  [HPD_K_COPY] = {"dcopy", 2, {VECTOR, STRIDE}},
  [HPD_K_SWAP] = {"dswap", 2, {VECTOR, STRIDE}},
  [HPD_K_IAMAX] = {"idamax", 2, {VECTOR, STRIDE}},
  [HPD_K_GETRF] = {"dgetrf", 2, {{7, {1, 8, 64, 256, 1024, 4096, 16384}},
                                 {6, {1, 8, 32, 64, 128, 256}}}},
  [HPD_K_POTRF] = {"dpotrf", 1, {LEVEL3}},
  [HPD_K_LASWP] = {"dlaswp", 2, {{5, {1, 8, 64, 512, 4096}}, {3, {1, 8, 64}}}},
};

double hpd_kernel_flops(hpd_kernel kernel, const double dim[HPD_KERNEL_MAX_DIMS])
{
  double a = dim[0], b = dim[1], c = dim[2];
  switch (kernel) {
  case HPD_K_GEMM:
    return 2 * a * b * c;
  case HPD_K_SYMM:
  case HPD_K_SYR2K:
    return 2 * a * a * b;
  case HPD_K_SYRK:
  case HPD_K_TRMM:
  case HPD_K_TRSM:
  case HPD_K_SMALL_TRSM:
    return a * a * b;
  case HPD_K_GEMV:
  case HPD_K_GER:
    return 2 * a * b;
  case HPD_K_SYMV:
  case HPD_K_SYR2:
    return 2 * a * a;
  case HPD_K_SYR:
  case HPD_K_TRMV:
  case HPD_K_TRSV:
    return a * a;
  case HPD_K_AXPY:
  case HPD_K_DOT:
    return 2 * a;
  case HPD_K_SCAL:
  case HPD_K_COPY:
  case HPD_K_SWAP:
  case HPD_K_IAMAX:
    return a;
  case HPD_K_GETRF: /* LAPACK's count without its lower-order terms */
    return a >= b ? a * b * b - b * b * b / 3 : b * a * a - a * a * a / 3;
  case HPD_K_POTRF:
    return a * a * a / 3;
  case HPD_K_LASWP:
    return a * b;
  case HPD_KERNELS:
    break;
  }
  return 0;
}

int hpd_kernel_shapes(hpd_kernel kernel)
{
  int shapes = 1;
  for (int d = 0; d < hpd_kernel_table[kernel].dims; d++)
    shapes *= hpd_kernel_table[kernel].axis[d].count;
  return shapes;
}

void hpd_kernel_shape(hpd_kernel kernel, int index, double dim[HPD_KERNEL_MAX_DIMS])
{
  const hpd_kernel_info *k = &hpd_kernel_table[kernel];
  for (int d = HPD_KERNEL_MAX_DIMS - 1; d >= 0; d--) {
    if (d >= k->dims) {
      dim[d] = 1;
      continue;
    }
    dim[d] = k->axis[d].points[index % k->axis[d].count];
    index /= k->axis[d].count;
  }
}
