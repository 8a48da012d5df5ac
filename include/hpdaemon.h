/*
 * hpdaemon: an energy-efficient, ScaLAPACK-compatible distributed matrix multiply.
 *
 * The library defines the PBLAS entry point pdgemm_ so that an unchanged ScaLAPACK
 * program picks it up by relinking or by LD_PRELOAD.  This header is the C API around
 * it: configuration (each call overrides the matching HPD_* environment variable),
 * statistics, and the multiply itself.
 */
#ifndef HPDAEMON_H
#define HPDAEMON_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

#define HPD_VERSION_MAJOR 0
#define HPD_VERSION_MINOR 1
#define HPD_VERSION_PATCH 0
#define HPD_VERSION_STRING "0.1.0"

/* Return codes of the API calls. */
#define HPD_SUCCESS 0
#define HPD_ERR_INVALID (-1) /* a value outside its accepted range; nothing changed */

/* ---- configuration ------------------------------------------------------------ */

typedef enum hpd_report_mode {
  HPD_REPORT_OFF = 0,     /* HPD_REPORT=off (default) */
  HPD_REPORT_SUMMARY = 1, /* HPD_REPORT=summary: a table on rank 0 at MPI_Finalize */
  HPD_REPORT_JSON = 2     /* HPD_REPORT=json:PATH: the same figures as JSON in PATH */
} hpd_report_mode;

#define HPD_PATH_MAX 4096

/* How panels travel (HPD_BCAST).  Every rank must use the same. */
typedef enum hpd_bcast_algorithm {
  HPD_BCAST_PIPELINE = 0, /* chunks flow down a chain from the root (default) */
  HPD_BCAST_BINOMIAL = 1, /* hpdaemon's binomial tree, the whole message per hop */
  HPD_BCAST_MPI = 2,      /* the MPI library's own MPI_Ibcast */
  HPD_BCAST_ALGORITHMS = 3
} hpd_bcast_algorithm;

/* How a process waits for its broadcasts (HPD_WAIT). */
typedef enum hpd_wait_policy {
  HPD_WAIT_SPIN = 0,  /* test in a loop: a core stays busy */
  HPD_WAIT_YIELD = 1, /* test, then offer the core to another runnable process */
  HPD_WAIT_SLEEP = 2, /* test for a moment, then sleep in growing, capped pauses (default) */
  HPD_WAIT_POLICIES = 3
} hpd_wait_policy;

/* The largest pipeline chunk HPD_CHUNK accepts, in bytes (1 GiB). */
#define HPD_CHUNK_MAX ((uint64_t)1 << 30)

/* The whole run-time configuration, read once from the environment. */
typedef struct hpd_config {
  double mem_threshold;  /* HPD_MEM_THRESHOLD: fraction of node memory, in (0,1] */
  hpd_report_mode report;
  char report_path[HPD_PATH_MAX]; /* for HPD_REPORT_JSON */
  int disable;           /* HPD_DISABLE: 1 = every call goes to the reference pdgemm */
  int ngrp;              /* HPD_NGRP: panels broadcast per group; 0 = from mem_threshold */
  int kb;                /* HPD_KB: largest panel width; 0 = from the block sizes */
  hpd_bcast_algorithm bcast; /* HPD_BCAST */
  uint64_t chunk;        /* HPD_CHUNK: bytes per pipeline chunk; 0 = tuned */
  hpd_wait_policy wait;  /* HPD_WAIT */
  char tune_file[HPD_PATH_MAX]; /* HPD_TUNE_FILE: where tuned chunks are kept; "" = nowhere */
} hpd_config;

/* A copy of the configuration in force (environment first, then API calls). */
void hpd_get_config(hpd_config *out);

int hpd_set_mem_threshold(double fraction);
double hpd_get_mem_threshold(void);
/* spec: "off", "summary" or "json:PATH", as for HPD_REPORT. */
int hpd_set_report(const char *spec);
int hpd_set_disable(int disable);
int hpd_get_disable(void);
/* 0 = automatic; a negative value is HPD_ERR_INVALID.  Every rank must set the same. */
int hpd_set_ngrp(int ngrp);
int hpd_get_ngrp(void);
int hpd_set_kb(int kb);
int hpd_get_kb(void);
/* Broadcasts started after the call use the new settings.  Every rank of a grid must
 * set the same algorithm and chunk. */
int hpd_set_bcast(hpd_bcast_algorithm algorithm);
hpd_bcast_algorithm hpd_get_bcast(void);
/* Bytes per pipeline chunk, 1 to HPD_CHUNK_MAX; 0 = tuned. */
int hpd_set_chunk(uint64_t bytes);
uint64_t hpd_get_chunk(void);
int hpd_set_wait(hpd_wait_policy policy);
hpd_wait_policy hpd_get_wait(void);
/* NULL or "" keeps tuned chunk sizes in memory only. */
int hpd_set_tune_file(const char *path);
const char *hpd_bcast_algorithm_name(int algorithm); /* "pipeline", "binomial", "mpi" */
const char *hpd_wait_policy_name(int policy);        /* "spin", "yield", "sleep" */

/*
 * Removes from argv the options hpdaemon knows, the way MPI_Init does, and applies them:
 *   -t VALUE | -tVALUE | --threshold=VALUE   memory threshold ("0.2" or "20%")
 *   --report[=SPEC]                           report ("summary" when SPEC is omitted)
 * An argument "--" ends the scan.  Returns HPD_SUCCESS, or HPD_ERR_INVALID after one
 * message on rank 0 naming the bad option; argv then still holds the other arguments.
 */
int hpd_parse_args(int *argc, char ***argv);

/* ---- statistics --------------------------------------------------------------- */

/* Why a call went to the reference implementation instead of hpdaemon's engine. */
typedef enum hpd_fallback_reason {
  HPD_FALLBACK_DISABLED = 0,     /* HPD_DISABLE=1 or hpd_set_disable(1) */
  HPD_FALLBACK_NO_ENGINE = 1,    /* this build has no engine for the routine */
  HPD_FALLBACK_BAD_ARGUMENT = 2, /* illegal arguments: the reference reports them, as
                                    PBLAS does; counted in rejected_calls, not as a
                                    fallback, since no implementation computes anything */
  HPD_FALLBACK_NO_GRID = 3,      /* the BLACS context gives no usable process grid */
  HPD_FALLBACK_NO_MEMORY = 4,    /* not even one panel's buffers could be allocated */
  HPD_FALLBACK_UNSUPPORTED = 5,  /* a case the engine does not serve */
  HPD_FALLBACK_REASONS = 6
} hpd_fallback_reason;
#define HPD_FALLBACK_REASONS_MAX 16 /* room kept in hpd_routine_stats */

typedef enum hpd_routine { HPD_ROUTINE_PDGEMM = 0, HPD_ROUTINES = 1 } hpd_routine;
#define HPD_ROUTINES_MAX 8

typedef struct hpd_routine_stats {
  uint64_t calls; /* every call that reached hpdaemon on this rank: engine + fallback +
                     rejected */
  uint64_t engine_calls;   /* served by hpdaemon's engine */
  uint64_t fallback_calls; /* computed by the reference implementation instead */
  uint64_t rejected_calls; /* illegal arguments, reported through PBLAS's error path */
  uint64_t fallback_by_reason[HPD_FALLBACK_REASONS_MAX];
  double time_total; /* wall seconds inside the routine, all calls */
  double time_min;   /* fastest call, 0 before the first */
  double time_max;
  /* Grouping, for calls served by the engine: the latest call's figures, and the
   * largest extra memory of any call (model: the threshold formula; observed: what
   * was really allocated), in bytes per rank. */
  int ngrp_last;
  int panels_last;
  uint64_t extra_bytes_model_max;
  uint64_t extra_bytes_observed_max;
  /* The engine's panel broadcasts: how many, their bytes, the wall seconds spent in the
   * broadcast calls (start and wait), and the CPU seconds this rank's thread used in
   * that time.  CPU near wall means a core was kept busy (copying or spinning); CPU far
   * below wall means the rank idled while it waited: the energy proxy where there is no
   * power meter. */
  uint64_t bcast_count;
  uint64_t bcast_bytes;
  double bcast_wall_s;
  double bcast_cpu_s;
  uint64_t bcast_chunk_last; /* pipeline chunk of the latest broadcast; 0 if it was not
                                pipelined */
} hpd_routine_stats;

typedef struct hpd_stats {
  hpd_routine_stats routine[HPD_ROUTINES_MAX]; /* indexed by hpd_routine */
} hpd_stats;

/* This rank's counters since start (or the last reset). */
int hpd_get_stats(hpd_stats *out);
void hpd_reset_stats(void);
const char *hpd_fallback_reason_name(int reason);
const char *hpd_routine_name(int routine);

/* ---- the multiply ------------------------------------------------------------- */

/*
 * sub(C) := alpha * op(sub(A)) * op(sub(B)) + beta * sub(C), with PBLAS pdgemm's
 * semantics and descriptors.  Indices are 1-based as in PBLAS.  pdgemm_ is this call
 * behind the Fortran ABI.
 */
void hpd_pdgemm(char transa, char transb, int m, int n, int k, double alpha,
                const double *a, int ia, int ja, const int *desca,
                const double *b, int ib, int jb, const int *descb,
                double beta, double *c, int ic, int jc, const int *descc);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* HPDAEMON_H */
