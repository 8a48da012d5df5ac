/*
 * The rate table of the simulated timing mode (rates.h).  Each line names a kernel, the
 * dimensions of one shape of its grid and the rate measured there; a table that lacks a
 * shape, or names one off the grid, is refused whole, since a rate guessed from the wrong
 * neighbours would time every later call wrongly without a word.
 */
#include "rates.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The position of value on the axis, or -1. */
static int point_index(const hpd_kernel_axis *axis, double value)
{
  for (int i = 0; i < axis->count; i++)
    if (axis->points[i] == value)
      return i;
  return -1;
}

static int find_kernel(const char *name)
{
  for (int k = 0; k < HPD_KERNELS; k++)
    if (strcmp(hpd_kernel_table[k].name, name) == 0)
      return k;
  return -1;
}

/* Reads one "kernel dims... rate" line into the table; 0, or -1 where it is not one. */
static int read_line(char *line, hpd_rate_table *t, char *seen[HPD_KERNELS])
{
  char *save = NULL, *word = strtok_r(line, " \t\n", &save);
  int k = word ? find_kernel(word) : -1;
  if (k < 0)
    return -1;
  const hpd_kernel_info *info = &hpd_kernel_table[k];
  int index = 0;
  for (int d = 0; d < info->dims; d++) {
    word = strtok_r(NULL, " \t\n", &save);
    int at = word ? point_index(&info->axis[d], atof(word)) : -1;
    if (at < 0)
      return -1;
    index = index * info->axis[d].count + at;
  }
  word = strtok_r(NULL, " \t\n", &save);
  double rate = word ? atof(word) : 0;
  if (!(rate > 0) || strtok_r(NULL, " \t\n", &save))
    return -1;
  t->log_rate[k][index] = log(rate);
  seen[k][index] = 1;
  return 0;
}

int hpd_rates_load(const char *path, hpd_rate_table *t, char *err, size_t err_size)
{
  memset(t, 0, sizeof *t);
  char *seen[HPD_KERNELS] = {0};
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, err_size, "cannot open %s", path);
    return -1;
  }
  for (int k = 0; k < HPD_KERNELS; k++) {
    t->log_rate[k] = calloc(hpd_kernel_shapes(k), sizeof *t->log_rate[k]);
    seen[k] = calloc(hpd_kernel_shapes(k), 1);
  }
  char line[512];
  int number = 0, status = 0;
  while (status == 0 && fgets(line, sizeof line, f)) {
    number++;
    if (line[0] == '#' || strncmp(line, "cpu ", 4) == 0)
      continue;
    if (read_line(line, t, seen) != 0) {
      snprintf(err, err_size, "%s, line %d: not \"kernel dimensions... rate\" on the grid",
               path, number);
      status = -1;
    }
  }
  fclose(f);
  for (int k = 0; status == 0 && k < HPD_KERNELS; k++)
    for (int s = 0; s < hpd_kernel_shapes(k); s++)
      if (!seen[k][s]) {
        snprintf(err, err_size, "%s has no rate for %s's shape %d (measured by another "
                 "version of kernel_rates?)", path, hpd_kernel_table[k].name, s);
        status = -1;
        break;
      }
  for (int k = 0; k < HPD_KERNELS; k++)
    free(seen[k]);
  if (status == 0) {
    t->peak = exp(t->log_rate[HPD_K_GEMM][hpd_kernel_shapes(HPD_K_GEMM) - 1]);
    return 0;
  }
  for (int k = 0; k < HPD_KERNELS; k++)
    free(t->log_rate[k]);
  memset(t, 0, sizeof *t);
  return -1;
}

/* The grid segment that holds value, and value's place in it from 0 to 1 (log scale). */
static void locate(const hpd_kernel_axis *axis, double value, int *low, double *weight)
{
  *low = 0;
  *weight = 0;
  if (axis->count == 1 || value <= axis->points[0])
    return;
  if (value >= axis->points[axis->count - 1]) {
    *low = axis->count - 2;
    *weight = 1;
    return;
  }
  while (value >= axis->points[*low + 1])
    ++*low;
  double from = log(axis->points[*low]), to = log(axis->points[*low + 1]);
  *weight = (log(value) - from) / (to - from);
}

double hpd_rates_at(const hpd_rate_table *t, hpd_kernel kernel,
                    const double dim[HPD_KERNEL_MAX_DIMS])
{
  const hpd_kernel_info *info = &hpd_kernel_table[kernel];
  int low[HPD_KERNEL_MAX_DIMS];
  double weight[HPD_KERNEL_MAX_DIMS], sum = 0;
  for (int d = 0; d < info->dims; d++)
    locate(&info->axis[d], dim[d], &low[d], &weight[d]);
  for (int corner = 0; corner < 1 << info->dims; corner++) {
    double w = 1;
    int index = 0;
    for (int d = 0; d < info->dims; d++) {
      int high = corner >> d & 1; /* a weight of 0 skips a corner off a one-point axis */
      w *= high ? weight[d] : 1 - weight[d];
      index = index * info->axis[d].count + low[d] + high;
    }
    if (w > 0)
      sum += w * t->log_rate[kernel][index];
  }
  return exp(sum);
}
