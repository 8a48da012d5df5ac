/*
 * Tuned chunk sizes by communicator size, the hosts it spans and size class, for this
 * process, and kept in
 * HPD_TUNE_FILE when it is set, so that a later run can skip the measurement.
 *
 * Only rank 0 of a channel reads this table; the other ranks take its answer (tune.h),
 * so a file that one node cannot see, or sees older, never splits a channel's choice.
 * A missing, unreadable or corrupt file is ignored with a warning.
 *
 * The file is text: a first line "hpdaemon-tune 4", then one line per entry, "RANKS HOSTS
 * MIN_BYTES MAX_BYTES CHUNK_BYTES RATE", where MIN_BYTES is a power of two, MAX_BYTES is
 * twice MIN_BYTES less one, and RATE the bytes per second the chosen chunk moved (0 for
 * unknown: the dispatch's model of the reference reads it, tune.h); lines starting with
 * '#' are comments.  Broadcasts that cross a network tune to its links, not to the memory
 * bus, hence the hosts.  The dispatch's settled routes are kept too, one line each,
 * "route KEY engine|reference|close ENGINE_S REFERENCE_S": KEY is the dispatch's name of
 * a call class on a grid (dispatch.c; opaque here, no white space, under HPD_TUNE_KEY_MAX
 * bytes), close a class measured on both sides but not settled, and the seconds are the
 * grid's figures.  Files of version 3 (no routes) are read as they are, of version 2 (no
 * RATE column) with the rate unknown, and of version 1 (no HOSTS column either) as one
 * host per entry.  It is replaced whole (written aside, then renamed) each time an entry
 * is added, so that a reader never sees half of it.
 */
#ifndef HPD_BCAST_TUNE_TABLE_H
#define HPD_BCAST_TUNE_TABLE_H

#include <stdint.h>

#include "core/checked.h"

/* The chunk tuned for messages of size class cls on ranks ranks over hosts hosts, or 0
 * if none, and its rate in *rate (0 when unknown). */
uint64_t hpd_tune_table_lookup(int ranks, int hosts, int cls, double *rate);

/* Records a tuned chunk and its rate, and saves the table to HPD_TUNE_FILE if it is
 * set. */
void hpd_tune_table_store(int ranks, int hosts, int cls, uint64_t chunk, double rate);

#define HPD_TUNE_KEY_MAX 96
#define HPD_TUNE_KEY_SCAN "95" /* HPD_TUNE_KEY_MAX - 1, for scanf */

typedef enum hpd_tune_route {
  HPD_TUNE_REFERENCE = 0,
  HPD_TUNE_ENGINE = 1,
  HPD_TUNE_CLOSE = 2, /* measured on both sides, not settled */
  HPD_TUNE_ROUTES = 3
} hpd_tune_route;

typedef struct hpd_tune_verdict {
  hpd_tune_route route;
  double engine_s, reference_s; /* the grid's figures */
} hpd_tune_verdict;

/* 1 and the verdict of key in *out, or 0 where none is known. */
HPD_CHECKED int hpd_tune_table_lookup_verdict(const char *key, hpd_tune_verdict *out);

/* Records the verdict of key, or forgets it (verdict NULL), and saves the table to
 * HPD_TUNE_FILE if it is set.  A key that is empty, too long or holds white space is
 * ignored. */
void hpd_tune_table_store_verdict(const char *key, const hpd_tune_verdict *verdict);

/* Forgets every entry and which file was read (tests only). */
void hpd_tune_table_forget(void);

#endif
