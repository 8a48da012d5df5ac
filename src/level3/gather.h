/*
 * An order-k block of sub(A) gathered onto every process of one line of the grid (a
 * process row or column), from the processes of that line that hold it.  Only UPLO's triangle travels and is set.  The gathered block G is the block
 * or its transpose, and each holder's part is whole columns of G (G is the block and its
 * columns are dealt along the line, or G is its transpose and its rows are) or whole rows
 * of G (G is the block and its rows are dealt along the line: the holders' parts are
 * packed by plain copies, where the transpose would read across their storage).  The
 * parts travel as a stream (stream.h): each holder sends its part to every other process
 * of the line in small messages, which the readers use as they land.  Where
 * the line's processes share one node G itself lies in shared memory (shared.h): each
 * holder writes its part straight into its places there, and every process reads G from
 * there, so that nothing is packed, sent or unpacked.
 */
#ifndef HPD_LEVEL3_GATHER_H
#define HPD_LEVEL3_GATHER_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/elem.h"
#include "pblas/layout.h"

typedef struct hpd_l3_gather {
  int k;           /* order of the block */
  int g_is_a;      /* 1: G is the block; 0: its transpose */
  int rows_of_g;   /* 1: the parts are rows of G (g_is_a then 1); 0: columns */
  int g_upper;     /* the triangle of G that is set (the block's own, transposed if so) */
  hpd_axis across; /* the block's rows or columns, as dealt along the line */
  int nline, me;   /* the line's processes, and this one's place on it */
  MPI_Comm comm;   /* the line, ranked by place */
  struct hpd_shared *shared; /* G's shared memory (hpd_l3_gather_share), or NULL */
} hpd_l3_gather;

/* The area of a line's shared exchange (shared.h) that G takes; a caller holding an
 * exchange open through the gather takes the other. */
#define HPD_L3_GATHER_AREA 0

/* The entries of G's triangle: the staging space a gather needs beside G's k * k. */
size_t hpd_l3_gather_triangle(int k);

/* Sets gather->shared where G can lie in shared memory; collective over the line. */
void hpd_l3_gather_share(hpd_l3_gather *gather);

/* The space a gather needs from its caller: G's k * k and the staging triangle, or
 * nothing where G lies in shared memory. */
size_t hpd_l3_gather_space(const hpd_l3_gather *gather);

/* Fills G (k x k, leading dimension k) on every process of the line, in steps, so that
 * work on G's first columns can start while the rest travels: each process's part holds
 * its entries column by column, so the first columns of G arrive first. */
typedef struct hpd_l3_gathering {
  const hpd_l3_gather *block;
  size_t *offset;    /* where each process's part starts in staged, and where it ends */
  size_t *unpacked;  /* how much of each part is in G */
  struct hpd_l3_stream *stream; /* the parts' messages; NULL on a line of one or shared */
  hpd_elem *g;       /* G: the caller's, or the shared memory's */
  hpd_elem *staged;
  int64_t ready; /* G's columns [0, ready) are filled */
} hpd_l3_gathering;

/* Starts the gather.  a is where this process's part of the block starts in its storage
 * (leading dimension lda): its columns there are consecutive where they are dealt along
 * the line, its rows where they are.  g and staged are the caller's space
 * (hpd_l3_gather_space: k * k entries, then hpd_l3_gather_triangle(k)), unused where G
 * lies in shared memory.  Collective over the line. */
void hpd_l3_gather_begin(const hpd_l3_gather *gather, const hpd_elem *a, int64_t lda,
                         hpd_elem *g, hpd_elem *staged, hpd_l3_gathering *job);

/* Fills G's columns [0, columns), waiting for them where they have not arrived, and
 * moves the broadcasts in flight. */
void hpd_l3_gather_columns(hpd_l3_gathering *job, int64_t columns);

/* Fills the rest of G and completes the broadcasts. */
void hpd_l3_gather_end(hpd_l3_gathering *job);

/* After hpd_l3_gather_end, once this process has finished reading G. */
void hpd_l3_gather_release(hpd_l3_gathering *job);

#endif
