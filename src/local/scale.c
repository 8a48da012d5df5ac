#include "local/scale.h"

#include <string.h>

void hpd_local_scale(hpd_elem *c, int64_t ldc, int64_t m, int64_t n, hpd_elem beta)
{
  if (beta == 1.0 || m <= 0)
    return;
  for (int64_t j = 0; j < n; j++) {
    hpd_elem *col = c + j * ldc;
    if (beta == 0.0)
      memset(col, 0, (size_t)m * sizeof *col);
    else
      for (int64_t i = 0; i < m; i++)
        col[i] *= beta;
  }
}
