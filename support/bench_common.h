/* What the benchmarks share: their option lists and the BLAS they report. */
#ifndef HPD_SUPPORT_BENCH_COMMON_H
#define HPD_SUPPORT_BENCH_COMMON_H

#include <stddef.h>
#include <stdio.h>

#define MAX_LIST 32

/* "a,b,c" of positive integers up to 10^6 into out[MAX_LIST]; 0 or -1. */
int bench_parse_int_list(const char *text, int *out, int *count);

/* The value of "--name VALUE" or "--name=VALUE" at argv[*i], advancing *i past what it
 * used; NULL when argv[*i] is not that option or its value is missing. */
const char *bench_option_value(int argc, char **argv, int *i, const char *name);

/* One positive integer (the list parser's rules, exactly one item); 0 or -1. */
int bench_parse_positive(const char *text, int *out);

/* One count, 0 included, up to 10^6; 0 or -1. */
int bench_parse_count(const char *text, int *out);

/* The shared start of an MPI benchmark's main, after MPI_Init and hpd_parse_args.
 * parsed is 0 to run, 1 after --help, -1 on an error (err says which, hpdaemon's own
 * parser has already spoken when err is empty).  Returns -1 to go on; otherwise rank 0
 * printed the message and usage, MPI is finalized, and the value is the exit status. */
int bench_options_verdict(const char *program, int parsed, const char *err,
                          void (*usage)(FILE *out));

/* PATH opened for appending one line per row, the header first when it is empty; NULL
 * on ranks other than 0, without a path, or when it cannot be opened (then a message
 * naming program).  The caller closes it. */
FILE *bench_open_csv(const char *program, const char *path, int rank, const char *header);

/* A grid that does not match the ranks started: the message on rank 0, MPI finalized;
 * returns the exit status. */
int bench_grid_refused(const char *program, int p, int q);

/* A BLACS process grid over MPI_COMM_WORLD, and this rank's place in it. */
typedef struct bench_grid {
  int context, nprow, npcol, myrow, mycol, rank;
} bench_grid;

/* Opens a p x q grid: 0, or -1 when p * q is not the number of ranks (then
 * bench_grid_refused). */
int bench_open_grid(int p, int q, bench_grid *g);

/* A comma list of strategy names ("daemon", "daemon,overlap,auto"), each at most once, or
 * "all" (every strategy, in hpd_strategy's order), into out[HPD_STRATEGIES] as
 * hpd_strategy values; 0, or -1 (out and count then undefined). */
int bench_parse_strategies(const char *text, int *out, int *count);

/* What all ranks of MPI_COMM_WORLD spent between this rank's samples before and after,
 * summed into *all; collective. */
struct hpd_energy_sample;
void bench_energy_spent_all(const struct hpd_energy_sample *before,
                            const struct hpd_energy_sample *after,
                            struct hpd_energy_sample *all);

/* How the DVFS backend in force (an hpd_dvfs_kind) treats switches, for the headers. */
const char *bench_dvfs_how(int backend, int applied);

/* HPD_SWITCH_MIN_MS in force, as the headers print it, into text; returns text. */
const char *bench_switch_rule(char *text, size_t size);

/* The kernels the times rest on, for the headers, into text: the BLAS's kernels and
 * threads, or the simulated timing mode's charged kernels (README: "Simulated
 * clusters"); returns text. */
const char *bench_kernels(char *text, size_t size);

/* The CPU seconds this process has used so far.  Under the simulator every rank lives in
 * it, so the difference over a call is what simulating the call cost this machine. */
double bench_process_cpu_s(void);

/* 0 where the kernels compute nothing (the simulated timing mode): results are then
 * not checked. */
int bench_results_computed(void);

/* Printed with the rates: a comparison is only fair on the same kernels and threads. */
char *openblas_get_corename(void);
int openblas_get_num_threads(void);

#endif
