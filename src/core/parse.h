/* Parsers for option values.  Each returns HPD_OK and sets *out, or HPD_STATUS_INVALID and
 * leaves *out. */
#ifndef HPD_CORE_PARSE_H
#define HPD_CORE_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "core/checked.h"
#include "core/status.h"
#include "hpdaemon.h"

/* A fraction in (0,1]: "0.2" or "20%". */
HPD_CHECKED hpd_status hpd_parse_fraction(const char *text, double *out);

/* A number in [lo, hi], written plainly or as a percentage: "0.03" or "3%". */
HPD_CHECKED hpd_status hpd_parse_percent(const char *text, double lo, double hi,
                                         double *out);

/* A whole decimal number in [0, INT_MAX]; no sign, fraction or trailing text. */
HPD_CHECKED hpd_status hpd_parse_count(const char *text, int *out);

/* 1/0, yes/no, true/false, on/off, any case. */
HPD_CHECKED hpd_status hpd_parse_bool(const char *text, int *out);

/* "off" | "summary" | "json:PATH" with a non-empty PATH shorter than path_size. */
HPD_CHECKED hpd_status hpd_parse_report(const char *text, hpd_report_mode *mode, char *path,
                                        size_t path_size);

/* A byte count in [0, max]: a whole number, optionally followed by K, KiB, M, MiB, G or
 * GiB (any case; all powers of 1024). */
HPD_CHECKED hpd_status hpd_parse_bytes(const char *text, uint64_t max, uint64_t *out);

/* The tables of names an option takes, indexed by the matching enum. */
typedef enum hpd_names {
  HPD_NAMES_BCAST,    /* pipeline binomial mpi */
  HPD_NAMES_WAIT,     /* spin yield sleep */
  HPD_NAMES_DVFS,     /* auto cpupower sysfs sim none */
  HPD_NAMES_STRATEGY, /* none basic daemon overlap auto */
  HPD_NAMES_ENERGY,   /* auto powercap papi model none */
  HPD_NAMES_DISPATCH, /* auto engine */
  HPD_NAMES
} hpd_names;

/* One of the table's names, any case: its enum value in *out. */
HPD_CHECKED hpd_status hpd_parse_name(const char *text, hpd_names table, int *out);
const char *hpd_name_of(hpd_names table, int value);

/* A frequency with its unit: "800MHz", "2.5 GHz", "1300000kHz" (any case). */
HPD_CHECKED hpd_status hpd_parse_khz(const char *text, unsigned *out);

/* A decimal number in [lo, hi]. */
HPD_CHECKED hpd_status hpd_parse_real(const char *text, double lo, double hi, double *out);

/* A non-empty path shorter than path_size, copied into path. */
HPD_CHECKED hpd_status hpd_parse_path(const char *text, char *path, size_t path_size);

#endif
