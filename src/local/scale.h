/* Scaling a process's share of sub(C) by beta, before anything is added to it. */
#ifndef HPD_LOCAL_SCALE_H
#define HPD_LOCAL_SCALE_H

#include <stdint.h>

#include "kernel/elem.h"

/* C := beta*C on an m x n block; beta = 0 writes zeros without reading C (a NaN in C
 * must not survive), beta = 1 touches nothing. */
void hpd_local_scale(hpd_elem *c, int64_t ldc, int64_t m, int64_t n, hpd_elem beta);

#endif
