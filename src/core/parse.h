/* Parsers for option values.  Each returns 0 and sets *out, or -1 and leaves *out. */
#ifndef HPD_CORE_PARSE_H
#define HPD_CORE_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "hpdaemon.h"

/* A fraction in (0,1]: "0.2" or "20%". */
int hpd_parse_fraction(const char *text, double *out);

/* A whole decimal number in [0, INT_MAX]; no sign, fraction or trailing text. */
int hpd_parse_count(const char *text, int *out);

/* 1/0, yes/no, true/false, on/off, any case. */
int hpd_parse_bool(const char *text, int *out);

/* "off" | "summary" | "json:PATH" with a non-empty PATH shorter than path_size. */
int hpd_parse_report(const char *text, hpd_report_mode *mode, char *path, size_t path_size);

/* A byte count in [0, max]: a whole number, optionally followed by K, KiB, M, MiB, G or
 * GiB (any case; all powers of 1024). */
int hpd_parse_bytes(const char *text, uint64_t max, uint64_t *out);

/* "pipeline" | "binomial" | "mpi", any case. */
int hpd_parse_bcast(const char *text, hpd_bcast_algorithm *out);

/* "spin" | "yield" | "sleep", any case. */
int hpd_parse_wait(const char *text, hpd_wait_policy *out);

/* A non-empty path shorter than path_size, copied into path. */
int hpd_parse_path(const char *text, char *path, size_t path_size);

#endif
