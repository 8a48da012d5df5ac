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

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

#define HPD_VERSION_MAJOR 0
#define HPD_VERSION_MINOR 1
#define HPD_VERSION_PATCH 0
#define HPD_VERSION_STRING "0.1.0"
/* The binary interface: the number in the library's soname (libhpdaemon-<flavour>.so.1).
 * It changes with any public struct or signature below, so that a program built against
 * another header is refused by the loader.  The calls that fill a struct take its size
 * from the caller's header as well (the macros below pass sizeof), and refuse a size that
 * is not this library's with HPD_ERR_ABI instead of writing past the caller's struct. */
#define HPD_ABI_VERSION 2

/* Return codes of the API calls. */
#define HPD_SUCCESS 0
#define HPD_ERR_INVALID (-1) /* a value outside its accepted range; nothing changed */
#define HPD_ERR_ABI (-2) /* the caller's struct is not this library's: rebuild against its
                            hpdaemon.h; nothing written */

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

/* Where frequency switches go (HPD_DVFS).  auto takes the first real backend that works
 * (cpupower, then sysfs), otherwise sim. */
typedef enum hpd_dvfs_kind {
  HPD_DVFS_AUTO = 0,
  HPD_DVFS_CPUPOWER = 1, /* libcpupower on /sys/devices/system/cpu */
  HPD_DVFS_SYSFS = 2,    /* direct writes under HPD_SYSFS_ROOT */
  HPD_DVFS_SIM = 3,      /* recorded, with an emulated transition latency; nothing written */
  HPD_DVFS_NONE = 4,     /* switches are counted, never applied */
  HPD_DVFS_KINDS = 5
} hpd_dvfs_kind;

/* When the frequency changes (HPD_STRATEGY). */
typedef enum hpd_strategy {
  HPD_STRATEGY_NONE = 0,   /* never: panels grouped, the frequency left alone */
  HPD_STRATEGY_BASIC = 1,  /* low before every panel broadcast, high before every multiply */
  HPD_STRATEGY_DAEMON = 2, /* low before a group of N_grp broadcasts, high before the
                              group's multiply (default) */
  HPD_STRATEGY_OVERLAP = 3, /* never switch: the next group's broadcasts travel while this
                               group multiplies, two groups' buffers within the threshold */
  HPD_STRATEGY_AUTO = 4,    /* daemon or overlap, per call: the one with the least predicted
                               energy among those predicted within HPD_MAX_SLOWDOWN of the
                               faster; the same choice on every rank of the grid */
  HPD_STRATEGIES = 5
} hpd_strategy;

/* Where energy figures come from (HPD_ENERGY).  auto takes the first meter that reads
 * (powercap, then papi), otherwise model. */
typedef enum hpd_energy_kind {
  HPD_ENERGY_AUTO = 0,
  HPD_ENERGY_POWERCAP = 1, /* package and dram zones under HPD_POWERCAP_ROOT */
  HPD_ENERGY_PAPI = 2,     /* PAPI's rapl or powercap component */
  HPD_ENERGY_MODEL = 3,    /* modeled from CPU time, wall time, frequency and switches */
  HPD_ENERGY_NONE = 4,
  HPD_ENERGY_KINDS = 5
} hpd_energy_kind;

/* Where the energy figures come from, once set up (the first multiply). */
typedef enum hpd_energy_source {
  HPD_SOURCE_NONE = 0,     /* HPD_ENERGY=none, or not set up yet */
  HPD_SOURCE_MODELED = 1,  /* the power model: always labelled "modeled" */
  HPD_SOURCE_MEASURED = 2, /* a meter (powercap or papi), one reader rank per node */
  HPD_SOURCE_SIMULATED = 3 /* the simulated build: the simulated platform's joules, read as
                              a meter's; never "measured" */
} hpd_energy_source;

/* The phases the strategies switch between, and the rest of a run's time, which the
 * energy figures book apart and no strategy switches for (hpd_dvfs_enter refuses it). */
typedef enum hpd_phase {
  HPD_PHASE_BROADCAST = 0, /* communication: the low frequency */
  HPD_PHASE_MULTIPLY = 1,  /* computation: the high frequency */
  HPD_PHASE_OTHER = 2      /* outside the strategies' phases */
} hpd_phase;

/* Which calls the engine serves (HPD_DISPATCH).  Every rank of a grid must use the same. */
typedef enum hpd_dispatch {
  HPD_DISPATCH_AUTO = 0,   /* the engine where it is predicted to win; otherwise a local
                              dgemm (nothing travels) or the reference (default) */
  HPD_DISPATCH_ENGINE = 1, /* every legal call through the engine */
  HPD_DISPATCHES = 2
} hpd_dispatch;

/* The largest pipeline chunk HPD_CHUNK accepts, in bytes (1 GiB). */
#define HPD_CHUNK_MAX ((uint64_t)1 << 30)

/* The run-time configuration, read once from the environment: the options of binary
 * interface 2, frozen.  An option added later is set and read through its own
 * hpd_set_* and hpd_get_* calls only, so that it changes neither this struct nor the
 * binary interface. */
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
  hpd_dvfs_kind dvfs;    /* HPD_DVFS */
  hpd_strategy strategy; /* HPD_STRATEGY */
  unsigned freq_low_khz;  /* HPD_FREQ_LOW; 0 = the lowest available */
  unsigned freq_high_khz; /* HPD_FREQ_HIGH; 0 = the highest available */
  char sysfs_root[HPD_PATH_MAX]; /* HPD_SYSFS_ROOT: the cpufreq tree of the sysfs backend */
  double sim_switch_us;  /* HPD_SIM_SWITCH_US: emulated transition latency of sim */
  hpd_energy_kind energy; /* HPD_ENERGY */
  char powercap_root[HPD_PATH_MAX]; /* HPD_POWERCAP_ROOT */
  char power_model[HPD_PATH_MAX];   /* HPD_POWER_MODEL: model parameters; "" = built in */
  /* HPD_SWITCH_MIN_MS: the daemon strategy switches down for a group only if its
   * broadcasts are predicted to last at least this long; negative = auto (the power
   * model's break-even), 0 = always, as in the paper. */
  double switch_min_ms;
  hpd_dispatch dispatch; /* HPD_DISPATCH */
  /* HPD_MAX_SLOWDOWN: how much longer than the faster schedule the auto strategy lets a
   * call's predicted time be for the sake of less predicted energy, as a fraction. */
  double max_slowdown;
  /* HPD_CALIBRATION: the share of a grid's time in a routine that the dispatch may lose
   * timing close classes on both sides, as a fraction; 0 never calibrates. */
  double calibration;
} hpd_config;

/* A copy of the configuration in force (environment first, then API calls). */
int hpd_get_config_sized(hpd_config *out, size_t size);
#define hpd_get_config(out) hpd_get_config_sized((out), sizeof *(out))

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
/* The DVFS backend, frequencies and sysfs root are taken when the first multiply sets
 * DVFS up; later calls change nothing for the running job.  The strategy applies to every
 * multiply started after the call; every rank of a grid must use the same. */
int hpd_set_dvfs(hpd_dvfs_kind kind);
hpd_dvfs_kind hpd_get_dvfs(void);
int hpd_set_strategy(hpd_strategy strategy);
hpd_strategy hpd_get_strategy(void);
/* In kHz; 0 = the lowest (low) or highest (high) available frequency. */
int hpd_set_freq_low(unsigned khz);
int hpd_set_freq_high(unsigned khz);
int hpd_set_sysfs_root(const char *path);
/* Microseconds, 0 to 1e6. */
int hpd_set_sim_switch_us(double us);
/* Milliseconds from 0 to 1e6, or a negative value for auto (HPD_SWITCH_MIN_MS). */
int hpd_set_switch_min_ms(double ms);
double hpd_get_switch_min_ms(void);
/* A fraction from 0 to 1 (HPD_MAX_SLOWDOWN); every rank of a grid must set the same. */
int hpd_set_max_slowdown(double fraction);
double hpd_get_max_slowdown(void);
/* A fraction from 0 to 1 (HPD_CALIBRATION); every rank of a grid must set the same. */
int hpd_set_calibration(double fraction);
double hpd_get_calibration(void);
/* Calls already decided keep their route; every rank of a grid must set the same. */
int hpd_set_dispatch(hpd_dispatch dispatch);
hpd_dispatch hpd_get_dispatch(void);
/* Taken when the first multiply sets energy accounting up. */
int hpd_set_energy(hpd_energy_kind kind);
hpd_energy_kind hpd_get_energy(void);
int hpd_set_powercap_root(const char *path);
int hpd_set_power_model(const char *path); /* NULL or "" = the built-in model */
const char *hpd_energy_name(int kind); /* "auto", "powercap", "papi", "model", "none" */
const char *hpd_dvfs_name(int kind);         /* "auto", "cpupower", "sysfs", "sim", "none" */
const char *hpd_strategy_name(int strategy); /* "none", "basic", "daemon", "overlap", "auto" */
const char *hpd_bcast_algorithm_name(int algorithm); /* "pipeline", "binomial", "mpi" */
const char *hpd_wait_policy_name(int policy);        /* "spin", "yield", "sleep" */
const char *hpd_dispatch_name(int dispatch);         /* "auto", "engine" */

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

typedef enum hpd_routine {
  HPD_ROUTINE_PDGEMM = 0,
  HPD_ROUTINE_PDSYRK = 1,
  HPD_ROUTINE_PDTRSM = 2,
  HPD_ROUTINE_PDTRMM = 3,
  HPD_ROUTINE_PDSYMM = 4,
  HPD_ROUTINE_PDSYR2K = 5,
  HPD_ROUTINE_PDLASWP = 6, /* ScaLAPACK's row (column) interchanges: LU's pivoting */
  HPD_ROUTINE_PDPOTRF = 7, /* ScaLAPACK's Cholesky factorization */
  HPD_ROUTINE_PDGETRF = 8, /* ScaLAPACK's LU factorization */
  HPD_ROUTINES = 9
} hpd_routine;
#define HPD_ROUTINES_MAX 16

typedef struct hpd_routine_stats {
  uint64_t calls; /* every call that reached hpdaemon on this rank: engine + direct +
                     fallback + rejected */
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
  /* Frequency switches the strategy asked for in the engine's calls: switches changed the
   * frequency, skipped asked for the one already set, held were not asked for because
   * the group's broadcasts were predicted too short to pay for their switches (daemon
   * only, dvfs_held below).  For every call,
   * switches + skipped + held = 2 * steps (basic) or 2 * ceil(steps / N_grp) (daemon),
   * where steps is the number of panel broadcast steps (0 when no operand travels). */
  uint64_t dvfs_switches;
  uint64_t dvfs_skipped;
  double dvfs_switch_s; /* wall seconds spent switching */
  uint64_t steps_total;
  int steps_last;
  int strategy_last;          /* hpd_strategy of the latest engine call */
  uint64_t switches_last;     /* switches + skipped of the latest engine call */
  /* Energy accounting of the engine's calls: wall seconds in their broadcast and multiply
   * phases, CPU seconds, the model's joules for this rank and the meter's joules for its
   * node (reader rank only), the latest call's joules in the job's source, and the peak
   * resident memory seen at the end of a call. */
  double broadcast_phase_s, multiply_phase_s, cpu_s;
  double energy_modeled_j, energy_measured_j;
  double energy_last_j;
  hpd_energy_source energy_source;
  uint64_t peak_rss_bytes;
  uint64_t dvfs_held; /* switches the daemon strategy held back (HPD_SWITCH_MIN_MS) */
  /* Legal calls that HPD_DISPATCH=auto sent past the engine because it was not predicted
   * to win them: to a local dgemm (or dsyrk) where nothing had to travel
   * (direct_local_calls), otherwise to the reference.  Not fallbacks: no coverage is
   * missing; no frequency switch is made for them. */
  uint64_t direct_calls;
  uint64_t direct_local_calls;
  /* The auto strategy's choices, for engine calls where an operand travelled.  Each call
   * ran daemon or overlap (auto_overlap_calls of them); a schedule not yet seen on the
   * call's grid and size class is run once to learn it (auto_learning_calls), the others
   * are predicted.  For the predicted calls, so that the predictions can be judged: the
   * sums of the predicted seconds of the schedule taken (the grid's slowest rank) and
   * of the call's observed wall seconds here, and of this rank's predicted and observed
   * modeled joules.  The latest predicted call: each schedule's predicted seconds and
   * joules as compared (index 0 daemon, 1 overlap; seconds of the slowest rank, joules
   * summed over the grid's ranks), this rank's predicted broadcast and multiply
   * seconds; and why the latest call took its schedule (hpd_auto_reason). */
  uint64_t auto_calls;
  uint64_t auto_overlap_calls;
  uint64_t auto_learning_calls;
  double auto_predicted_s, auto_observed_s;
  double auto_predicted_j, auto_observed_j;
  double auto_last_s[2], auto_last_j[2];
  double auto_last_broadcast_s, auto_last_multiply_s;
  int auto_last_reason;
} hpd_routine_stats;

/* Why the auto strategy took a schedule. */
typedef enum hpd_auto_reason {
  HPD_AUTO_NONE = 0,           /* no call decided yet */
  HPD_AUTO_LEARNING = 1,       /* the schedule had not been seen for this class of call */
  HPD_AUTO_LEAST_ENERGY = 2,   /* the least predicted energy within HPD_MAX_SLOWDOWN */
  HPD_AUTO_ONLY_IN_BUDGET = 3, /* the other would save energy but take too long */
  HPD_AUTO_REASONS = 4
} hpd_auto_reason;

typedef struct hpd_stats {
  hpd_routine_stats routine[HPD_ROUTINES_MAX]; /* indexed by hpd_routine */
} hpd_stats;

/* This rank's counters since start (or the last reset). */
int hpd_get_stats_sized(hpd_stats *out, size_t size);
#define hpd_get_stats(out) hpd_get_stats_sized((out), sizeof *(out))
void hpd_reset_stats(void);
const char *hpd_fallback_reason_name(int reason);
const char *hpd_routine_name(int routine);
const char *hpd_auto_reason_name(int reason); /* "none", "learning", "least energy", ... */

/* ---- frequency scaling -------------------------------------------------------- */

#define HPD_DVFS_WHY_MAX 1024

/* What DVFS set-up found on this rank (before it, backend is HPD_DVFS_AUTO). */
typedef struct hpd_dvfs_info {
  hpd_dvfs_kind backend; /* in use: cpupower, sysfs, sim or none */
  int applied;           /* 1 while switches reach the backend; 0 after a refusal */
  unsigned low_khz, high_khz;
  unsigned available_khz[32]; /* ascending; empty where the hardware has no table */
  int available_count;
  unsigned min_khz, max_khz;  /* the hardware limits */
  unsigned latency_ns;        /* the transition latency reported (or emulated) */
  int domains;                /* frequency domains this rank switches */
  char driver[32], governor[32]; /* as found; "" where there is none */
  char why[HPD_DVFS_WHY_MAX]; /* one line per backend tried: why it was or was not used */
} hpd_dvfs_info;

int hpd_get_dvfs_info_sized(hpd_dvfs_info *out, size_t size);
#define hpd_get_dvfs_info(out) hpd_get_dvfs_info_sized((out), sizeof *(out))

/* Marks a phase of the application's own, with the same switching rules as the engine's
 * phases (a switch to the frequency already set is skipped).  Sets DVFS up if needed;
 * local, not collective.  Returns 1 if the frequency changed, 0 if skipped. */
int hpd_dvfs_enter(hpd_phase phase);

/* Switches made through hpd_dvfs_enter and the engine, on this rank. */
typedef struct hpd_dvfs_totals {
  uint64_t switches, skipped;
  double switch_s;
  uint64_t held; /* requests the daemon strategy held back (HPD_SWITCH_MIN_MS) */
} hpd_dvfs_totals;
int hpd_get_dvfs_totals_sized(hpd_dvfs_totals *out, size_t size);
#define hpd_get_dvfs_totals(out) hpd_get_dvfs_totals_sized((out), sizeof *(out))

/* The sim backend's record of every switch: when (seconds on a monotonic clock), to
 * which frequency and for which phase.  Returns the number of records, and *records
 * points to them until the next switch. */
typedef struct hpd_switch_record {
  double time_s;
  unsigned khz;
  hpd_phase phase;
} hpd_switch_record;
size_t hpd_dvfs_trace_sized(const hpd_switch_record **records, size_t size);
#define hpd_dvfs_trace(records) hpd_dvfs_trace_sized((records), sizeof **(records))

/* ---- energy ------------------------------------------------------------------- */

typedef struct hpd_energy_info {
  hpd_energy_source source;
  hpd_energy_kind meter;      /* powercap or papi when measured, model or none otherwise */
  int reader;                 /* 1 on the rank that reads its node's meter */
  int nodes;                  /* nodes of the first grid */
  char model[HPD_PATH_MAX];   /* the model's origin: "built-in: ..." or its file */
  char why[HPD_DVFS_WHY_MAX]; /* why meters were not used */
} hpd_energy_info;

int hpd_get_energy_info_sized(hpd_energy_info *out, size_t size);
#define hpd_get_energy_info(out) hpd_get_energy_info_sized((out), sizeof *(out))
/* "none", "modeled", "measured", "simulated" */
const char *hpd_energy_source_name(int source);

/* This rank's figures since set-up.  Phases are the engine's; the rest of the time is
 * "other".  modeled_j is the model for this rank's cores, always computed, so measured
 * and modeled figures can be compared; measured_j is the node's meter, on its reader
 * rank only (0 elsewhere), so that sums over ranks are sums over nodes. */
typedef struct hpd_energy_sample {
  double wall_s, cpu_s;
  double broadcast_s, multiply_s; /* wall seconds in the engine's two phases */
  double modeled_j, measured_j;
  uint64_t switches;
} hpd_energy_sample;

int hpd_get_energy_sample_sized(hpd_energy_sample *out, size_t size);
#define hpd_get_energy_sample(out) hpd_get_energy_sample_sized((out), sizeof *(out))

/* Collective over the communicator whose Fortran handle is comm (MPI_Comm_c2f): the sum
 * of every rank's sample, i.e. the job's energy over the nodes that comm spans;
 * wall_s is the largest. */
int hpd_sum_energy_sample_sized(int comm, const hpd_energy_sample *mine, hpd_energy_sample *sum,
                                 size_t size);
#define hpd_sum_energy_sample(comm, mine, sum) \
  hpd_sum_energy_sample_sized((comm), (mine), (sum), sizeof *(sum))

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

/*
 * sub(C) := alpha * sub(A) * sub(A)' + beta * sub(C) (trans 'N') or
 * sub(C) := alpha * sub(A)' * sub(A) + beta * sub(C) (trans 'T' or 'C'), sub(C) N x N
 * symmetric, with PBLAS pdsyrk's semantics: only the triangle uplo ('U' or 'L') names is
 * read or written.  pdsyrk_ is this call behind the Fortran ABI; ScaLAPACK's pdpotrf
 * updates its trailing matrix with it.
 */
void hpd_pdsyrk(char uplo, char trans, int n, int k, double alpha, const double *a, int ia,
                int ja, const int *desca, double beta, double *c, int ic, int jc,
                const int *descc);

/*
 * The rest of level-3 PBLAS, with PBLAS's semantics, descriptors and argument checks;
 * pdtrsm_, pdtrmm_, pdsymm_ and pdsyr2k_ are these calls behind the Fortran ABI.  Their
 * large updates run as the engine's multiplies (grouped broadcasts, frequency phases,
 * accounting under their own routine); the small diagonal pieces between them are solved
 * or multiplied by the reference.
 *
 * hpd_pdtrsm: sub(B) := alpha * inv(op(sub(A))) * sub(B) (side 'L') or
 *             alpha * sub(B) * inv(op(sub(A))) (side 'R'); sub(A) triangular (uplo),
 *             unit diagonal where diag is 'U'.  sub(B) is M x N.
 * hpd_pdtrmm: the same with op(sub(A)) in place of its inverse.
 * hpd_pdsymm: sub(C) := alpha * sub(A) * sub(B) + beta * sub(C) (side 'L') or
 *             alpha * sub(B) * sub(A) + beta * sub(C) (side 'R'); sub(A) symmetric,
 *             read from the triangle uplo.  sub(C) is M x N.
 * hpd_pdsyr2k: sub(C) := alpha * (sub(A) * sub(B)' + sub(B) * sub(A)') + beta * sub(C)
 *             (trans 'N') or alpha * (sub(A)' * sub(B) + sub(B)' * sub(A)) + beta * sub(C)
 *             (trans 'T' or 'C'); only sub(C)'s triangle uplo is read or written.
 * With alpha = 0, sub(A) is not read (and pdtrsm/pdtrmm set sub(B) to zero); with
 * beta = 0, sub(C) is not read, as in PBLAS.
 */
void hpd_pdtrsm(char side, char uplo, char transa, char diag, int m, int n, double alpha,
                const double *a, int ia, int ja, const int *desca, double *b, int ib, int jb,
                const int *descb);
void hpd_pdtrmm(char side, char uplo, char transa, char diag, int m, int n, double alpha,
                const double *a, int ia, int ja, const int *desca, double *b, int ib, int jb,
                const int *descb);
void hpd_pdsymm(char side, char uplo, int m, int n, double alpha, const double *a, int ia,
                int ja, const int *desca, const double *b, int ib, int jb, const int *descb,
                double beta, double *c, int ic, int jc, const int *descc);
void hpd_pdsyr2k(char uplo, char trans, int n, int k, double alpha, const double *a, int ia,
                 int ja, const int *desca, const double *b, int ib, int jb, const int *descb,
                 double beta, double *c, int ic, int jc, const int *descc);

/*
 * ScaLAPACK's PDLASWP (pdlaswp_ behind the Fortran ABI): for i = k1..k2 (direc 'F') or
 * k2..k1 (any other letter), interchange row i with row ipiv(i) of A(*, ja:ja+n-1)
 * (rowcol 'R'), or column i with column ipiv(i) of A(ia:ia+n-1, *) (any other letter).
 * As in ScaLAPACK, ipiv is this process's local array tied to A's rows (columns), read
 * from the local index of row (column) k1 on, and the pivots must already be known to
 * every process of the process column (row).  The lines travel in one message per pair
 * of processes instead of one exchange per interchange; the result is identical.
 * Backward runs are handed to the installed ScaLAPACK, whose versions before 2.2.3 read
 * their pivots from the local index of k2.
 */
void hpd_pdlaswp(char direc, char rowcol, int n, double *a, int ia, int ja,
                 const int *desca, int k1, int k2, const int *ipiv);

/*
 * ScaLAPACK's PDPOTRF (pdpotrf_ behind the Fortran ABI): sub(A) = A(ia:ia+n-1,
 * ja:ja+n-1) := its Cholesky factor, L (uplo 'L') or U ('U'), in that triangle; *info is
 * 0, or k > 0 where the leading minor of order k is not positive definite.  Either
 * factor on one line of the grid is factored here with a look-ahead of one panel, and
 * any call on one process by LAPACK's dpotrf; other calls go to the installed ScaLAPACK
 * (whose pdsyrk_ and pdtrsm_ calls hpdaemon serves), as do those it would reject.
 */
void hpd_pdpotrf(char uplo, int n, double *a, int ia, int ja, const int *desca, int *info);

/*
 * ScaLAPACK's PDGETRF (pdgetrf_ behind the Fortran ABI): sub(A) = A(ia:ia+m-1,
 * ja:ja+n-1) := P * L * U with partial pivoting; ipiv (tied to A's rows, as in
 * ScaLAPACK) receives the global rows interchanged; *info is 0, or k > 0 where U(k, k)
 * is exactly zero.  Served on one process row with a look-ahead of one panel, turned
 * that way from one process column where sub(A) is at most twice as tall as wide, and on
 * one process by LAPACK's dgetrf; other calls go to the installed ScaLAPACK (whose pdgemm_,
 * pdtrsm_ and pdlaswp_ calls hpdaemon serves), as do those it would reject.
 */
void hpd_pdgetrf(int m, int n, double *a, int ia, int ja, const int *desca, int *ipiv,
                 int *info);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* HPDAEMON_H */
