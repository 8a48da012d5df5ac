/* What the benchmarks share: their option lists and the BLAS they report. */
#ifndef HPD_TIMING_BENCH_COMMON_H
#define HPD_TIMING_BENCH_COMMON_H

#define MAX_LIST 32

/* "a,b,c" of positive integers up to 10^6 into out[MAX_LIST]; 0 or -1. */
int bench_parse_int_list(const char *text, int *out, int *count);

/* The value of "--name VALUE" or "--name=VALUE" at argv[*i], advancing *i past what it
 * used; NULL when argv[*i] is not that option or its value is missing. */
const char *bench_option_value(int argc, char **argv, int *i, const char *name);

/* Printed with the rates: a comparison is only fair on the same kernels and threads. */
char *openblas_get_corename(void);
int openblas_get_num_threads(void);

#endif
