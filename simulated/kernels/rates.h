#ifndef HPD_SIM_RATES_H
#define HPD_SIM_RATES_H

#include <stddef.h>

#include "kernel.h"

/* A table that kernel_rates wrote (measure.c): every shape of every kernel's grid. */
typedef struct hpd_rate_table {
  double *log_rate[HPD_KERNELS]; /* natural logarithms, in hpd_kernel_shape's order */
  double peak;                   /* dgemm's rate at the grid's largest shape */
} hpd_rate_table;

/* 0, or -1 with the reason in err: unreadable, a line it cannot read, a shape missing. */
int hpd_rates_load(const char *path, hpd_rate_table *table, char *err, size_t err_size);

/* The rate of a call of the given shape (each dimension at least 1): interpolated
 * between the grid's shapes, linearly in the logarithms of dimensions and rates, and
 * the nearest edge's beyond the grid. */
double hpd_rates_at(const hpd_rate_table *table, hpd_kernel kernel,
                    const double dim[HPD_KERNEL_MAX_DIMS]);

#endif
