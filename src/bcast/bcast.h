/*
 * Non-blocking broadcasts, the only way the panel loop moves data.  This module knows
 * nothing about pdgemm.
 *
 * Three algorithms sit behind one interface (HPD_BCAST): a pipeline that cuts the
 * message into chunks flowing down a chain (the default; chunk size tuned or HPD_CHUNK),
 * a binomial tree, and the MPI library's MPI_Ibcast.  A started broadcast moves whenever
 * any broadcast in flight is tested or waited for, so a whole group of panels travels
 * at once.  Waiting follows HPD_WAIT (spin, yield or sleep), and the wall and CPU seconds
 * spent in these calls are counted: CPU far below wall means the core idled.
 *
 * Rules for callers:
 * - every rank of comm starts the same broadcasts (same size and root) in the same
 *   order.  Broadcasts on different communicators must be started in an order all ranks
 *   share as well (the panel loop's order is): a start may be collective over comm, the
 *   first on a communicator (it makes a private copy) and the first of a size class
 *   when the chunk size is tuned;
 * - a started handle is waited for (or tested until complete) before its memory is
 *   reused or freed;
 * - one thread per process calls these functions, as with the rest of ScaLAPACK.
 */
#ifndef HPD_BCAST_H
#define HPD_BCAST_H

#include <limits.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "core/checked.h"
#include "kernel/elem.h"

/* The largest count one broadcast of elements accepts (as before: MPI counts are int). */
#define HPD_BCAST_MAX_COUNT ((size_t)INT_MAX)
/* The largest byte count hpd_bcast_start_bytes accepts. */
#define HPD_BCAST_MAX_BYTES ((size_t)INT_MAX)

/* Chunks a pipeline keeps in flight in each direction, at most: enough to overlap
 * receiving chunk i+1 with forwarding chunk i, and to have receives posted before data
 * arrives. */
#define HPD_BCAST_WINDOW 8
/* And bytes, at most, though never fewer than two chunks: what a rank has sent and its
 * peer not yet received waits in the link's queues, and so does every message queued
 * behind it, the other direction's handshakes and acknowledgements included.  Where
 * both directions of a link carry broadcasts at once (a block gathered along a line),
 * eight 512 KiB chunks in flight each way between two hosts held each side's first chunk
 * back by 35 ms, two by 9 ms. */
#define HPD_BCAST_IN_FLIGHT ((size_t)1 << 20)
/* Under the simulator, the broadcasts a channel has posted at once, at most, per rank of
 * the channel; later ones wait in flight, in the order they were started, and are
 * posted as earlier ones complete (inflight.h).  The simulator walks its lists of
 * pending messages and shares its links among them at every event, so its own time grows
 * with the messages posted at once, not with the simulated time: a group of the daemon
 * schedule starts all of its panels together.  A broadcast of one chunk (a whole panel,
 * as a group's panels after the first go) is on one hop of its chain at a time, so a
 * chain of L ranks needs L - 1 of them in flight to keep every hop busy, and more, since
 * each rank posts them in turn: on the 8 nodes of a simulated 1 Gbit/s Ethernet, a
 * column's 64 panels (order 4096 on 8x8) took 1.43 s a call posted at once, 1.44 s with
 * 4 per rank, 1.55 s with 2, 1.87 s with 1, and 3.82 s with 4 in all, and the call cost
 * the simulator 27.3 s of CPU posted at once against 13.7 s with 4 per rank.  Natively
 * every broadcast is posted at its start: MPI then moves it while the rank sleeps
 * between its sweeps (HPD_WAIT=sleep), where a queued one would wait for the next sweep
 * (pdgemm of order 2048 on 1x2 across two emulated hosts: 0.23 s a call posted at once,
 * 0.245 s with 4 per rank). */
#define HPD_BCAST_POSTED_PER_RANK 4
/* A binomial tree over an int-sized communicator has at most 31 children per node. */
#define HPD_BCAST_MAX_CHILDREN 32

struct hpd_bcast_channel;

/* Where one rank keeps a broadcast's data: segs segments of seg_bytes each, segment s at
 * buf + s * stride bytes.  Every rank has the same segs and seg_bytes; the stride may
 * differ between ranks, so that a root can send a matrix panel straight from its columns
 * while the others receive it packed.  Chunks never cross a segment. */
typedef struct hpd_bcast_layout {
  size_t seg_bytes, segs, stride;
} hpd_bcast_layout;

/* One broadcast.  Treat as opaque: its fields belong to the implementation. */
typedef struct hpd_bcast {
  struct hpd_bcast *prev, *next;    /* in the list of broadcasts in flight */
  struct hpd_bcast_channel *channel;
  int kind; /* hpd_bcast_algorithm, or -1 when there is nothing left to do */
  int done;
  MPI_Comm comm; /* the channel's private communicator */
  unsigned char *buf;
  size_t bytes, chunk, chunks;
  size_t window; /* chunks in flight each way, at most */
  hpd_bcast_layout layout;
  size_t per_seg; /* chunks per segment */
  int tag, parent, nchildren;
  int children[HPD_BCAST_MAX_CHILDREN];
  /* Chunks whose receive was posted / completed, whose sends were posted / completed. */
  size_t recv_posted, received, send_posted, sent;
  /* A whole message sent to the children one after another (tree.c), and the next
   * child to send it to. */
  int serial, next_child;
  MPI_Request recv[HPD_BCAST_WINDOW];
  MPI_Request send[HPD_BCAST_WINDOW][HPD_BCAST_MAX_CHILDREN];
  MPI_Request request; /* the mpi algorithm's */
  /* A started broadcast counted among its channel's posted ones (inflight.h), and
   * whether it still waits for a place among them, its messages not posted yet. */
  int counted, queued;
  /* The simulated build's sweep (inflight.c): a request of this broadcast completed
   * since its last step. */
  int woken;
} hpd_bcast;

/* How a caller starts its broadcasts: what it knows of the call they serve, passed with
 * every start rather than kept by this module, so that one call's choices never reach
 * another's.  Every rank of a communicator passes alike for the same broadcasts.  A NULL
 * how is the default: chunks tuned, no batch. */
typedef struct hpd_bcast_how {
  /* 1 for calls whose route is still being decided, where the trials (tens of
   * milliseconds) would cost more than the call: a size class whose chunk is not tuned
   * yet takes a provisional chunk instead of timing the candidates (tune.h). */
  int hold_tuning;
  /* While tuning is held or capped, 1 where a size class's link rate, which flat
   * broadcasts and the auto schedule need before a route is settled, may be measured by
   * a probe of two or three broadcasts (hpd_tune_probe): a few milliseconds where the
   * trials take tens.  A line with a stream rate is not probed (tune.h). */
  int probe_rate;
  /* Where tuning is not held, 1 where a channel may spend on chunk trials at most
   * trial_budget_s in one call (the call is named by trial_call, hpd_bcast_call), the
   * trials' cost estimated from the size class's measured rate; a class whose trials do
   * not fit keeps its provisional chunk.  0: the trials' usual allowance (tune.h). */
  int trials_capped;
  double trial_budget_s;
  uint64_t trial_call;
  /* 1 for a broadcast that its receivers wait for at once while every node's link
   * carries others like it (a 2-D factorization's panels shared down the grid's
   * columns, every column at a time).  It goes flat (see hpd_bcast_batch) where its
   * channel spans three nodes or more and has at most HPD_BCAST_MAX_CHILDREN + 1 ranks,
   * unless HPD_CHUNK sets the chunk: a chain's hops there each cross a link that the
   * other broadcasts share, so its pipeline fills at a fraction of the link's rate, hop
   * after hop, where the flat root's copies all start at once; on fewer nodes a chain
   * crosses the network once. */
  int shared_links;
  /* The batch the broadcast belongs to (hpd_bcast_batch), 0 for none, and whether that
   * batch is hidden. */
  uint64_t batch;
  int hidden;
  /* In a hidden batch, the polls its receivers make while it travels (the strips of the
   * multiply it hides behind), the same on every rank of a channel; 0 where unknown. */
  int hidden_polls;
} hpd_bcast_how;

/*
 * Starts broadcasting count elements at buf from rank root of comm.  Returns HPD_OK, or
 * HPD_STATUS_INVALID when the count is above HPD_BCAST_MAX_COUNT (nothing started).  A
 * count of 0 starts nothing but still gives a handle that hpd_bcast_wait accepts.
 */
HPD_CHECKED hpd_status hpd_bcast_start(hpd_elem *buf, size_t count, int root, MPI_Comm comm,
                                       const hpd_bcast_how *how, hpd_bcast *handle);

/* The same for segs segments of seg_count elements, this rank's segment s at buf + s * ld
 * (ld >= seg_count; ranks may pass different ld).  HPD_STATUS_INVALID when the whole
 * count is above HPD_BCAST_MAX_COUNT or ld < seg_count. */
HPD_CHECKED hpd_status hpd_bcast_start_strided(hpd_elem *buf, size_t seg_count, size_t segs,
                                               size_t ld, int root, MPI_Comm comm,
                                               const hpd_bcast_how *how, hpd_bcast *handle);

/* The same for any bytes, up to HPD_BCAST_MAX_BYTES. */
HPD_CHECKED hpd_status hpd_bcast_start_bytes(void *buf, size_t bytes, int root,
                                             MPI_Comm comm, const hpd_bcast_how *how,
                                             hpd_bcast *handle);

/* For a start the caller cannot have made wrong (a root of the communicator, a count it
 * sized within the limits): status is the start's, and where it was refused anyway the
 * program stops, saying so, since the communicator's other ranks would wait for the
 * broadcast forever. */
void hpd_bcast_started(int status);

/* Moves every broadcast in flight a step, without waiting; 1 when all n handles are
 * complete, else 0. */
int hpd_bcast_test(hpd_bcast *handles, int n);

/* 1 while a broadcast started on this process is not complete here (its part of the
 * chain or tree still has data to take in or pass on), else 0: where it is 0, a test
 * moves nothing for anyone. */
int hpd_bcast_in_flight(void);

/* Waits until all n broadcasts are complete; buffers may then be read or reused. */
void hpd_bcast_wait(hpd_bcast *handles, int n);

/* 1 when the first bytes of the broadcast's data have reached this rank and may be read
 * (on the root always; elsewhere as a pipeline's chunks arrive in order, or once
 * complete, where MPI_Ibcast tells nothing before).  The handle must still be waited for
 * before its memory is reused. */
HPD_CHECKED int hpd_bcast_has(const hpd_bcast *handle, size_t bytes);

/* Waits, as hpd_bcast_wait does, until hpd_bcast_has(handle, bytes). */
void hpd_bcast_wait_for(hpd_bcast *handle, size_t bytes);

/* Broadcasts started together, as a group's panels are, form a batch: those started with
 * the how that hpd_bcast_batch returns (how's hold, a new batch at each call).  In a
 * batch, every broadcast on a channel after the batch's first there goes in chunks of at
 * least HPD_BATCH_CHUNK, unless HPD_CHUNK sets the chunk: the broadcasts behind the first
 * already keep the chain busy, so their own pipelining gains little, while each chunk
 * costs every broadcast in flight a test.  Measured on 1x2 (pdgemm,
 * N = 4096, 64 panels of 2 MiB started at once): 8 KiB chunks, the tuned choice for one
 * broadcast alone, moved 0.6 GB/s; 512 KiB ones moved 2.8.  Every rank of a channel must
 * start the same broadcasts in the same batches.
 *
 * A hidden batch travels while its receivers multiply (the overlap schedule's next
 * group), and they call into MPI only between strips of that multiply, milliseconds
 * apart: a chain then moves one hop per strip, whatever its links could carry.  So in a
 * hidden batch, a pipeline broadcast may go flat instead: the root sends the whole
 * message to every other rank of its node and to one rank of every other node, which
 * sends it to the rest of its node (channels of at most HPD_BCAST_MAX_CHILDREN + 1
 * ranks; topology.h).  On one node nothing waits for a receiver's poll to move on;
 * across nodes every other node's link carries one copy in, as on the chain, and a
 * node's other ranks wait for one poll of its first (hpd_bcast_forwards).  But the
 * root's node link carries a copy out per other node, where a chain's carries one, and
 * every line of the grid sends its panels at once: so it goes flat only where those
 * copies together cross the link in under HPD_FLAT_LINK_S, a couple of strips; more
 * (a slow link, or many nodes) stays on the chain or the tree below
 * (timing/notes/2026-11-28.md, "Flat broadcasts"; 2026-12-02, "Hidden panels across
 * nodes"; 2026-12-06).  A chain whose hops outnumber its receivers' polls (polls, where
 * known) would reach its end a multiply late or more: such a broadcast goes down a
 * binomial tree instead, whole, one level per poll (hpd_bcast_hidden_hops), at the cost
 * of its root's link carrying a copy per level where the chain's carries one; across
 * nodes a rank sends it to its children one after another (tree.c). */
hpd_bcast_how hpd_bcast_batch(const hpd_bcast_how *how, int hidden, int polls);

/* The polls of its ranks that a hidden broadcast which does not go flat needs on a
 * channel of size ranks whose receivers poll polls times while it travels: the chain's
 * size - 1 hops where they fit in polls (or polls is 0, unknown), else the binomial
 * tree's levels. */
HPD_CHECKED int hpd_bcast_hidden_hops(int size, int polls);

/* A new name for the call that how's trial budget belongs to (how->trial_call), so that
 * each channel starts that call's budget afresh; numbered on each rank, as batches are. */
HPD_CHECKED uint64_t hpd_bcast_call(void);

/* 1 where a hidden broadcast on comm reaches some of its ranks through another one's
 * poll: a flat broadcast over three ranks or more, on several nodes, one of which holds
 * two or more of them.  The same on every rank of comm; collective over comm where comm
 * has not broadcast yet (it sets up comm's channel). */
HPD_CHECKED int hpd_bcast_forwards(MPI_Comm comm);

/* The shapes a hidden broadcast takes (hpd_bcast_batch). */
typedef enum hpd_hidden_shape {
  HPD_HIDDEN_CHAIN,
  HPD_HIDDEN_TREE, /* binomial, whole */
  HPD_HIDDEN_FLAT
} hpd_hidden_shape;

/* The shape a hidden broadcast of bytes on comm takes where its receivers poll polls
 * times while it travels, at the rate comm knows for the size class of bytes (as
 * hpd_bcast_batch describes).  The same on every rank of comm; never collective (the
 * chain on a communicator that has not broadcast yet). */
HPD_CHECKED hpd_hidden_shape hpd_bcast_hidden_shape(MPI_Comm comm, size_t bytes, int polls);

#define HPD_BATCH_CHUNK ((uint64_t)512 << 10)
/* A strip of a multiply between polls is HPD_POLL_FLOPS (1.5e8) operations: 2 ms on a
 * core of 80 GFLOP/s, 15 ms at 10.  A whole message that its link carries in a couple of
 * strips or less would wait longer on a chain, one hop per poll, than on its root's
 * link; a longer one is left to the chain, whose hops share no link, and to the
 * schedules' own figures (HPD_STRATEGY auto). */
#define HPD_FLAT_LINK_S 4e-3

/* The fastest rate, in bytes per second, that a tuned broadcast of the size class of
 * bytes or a longer one showed on comm (the same on every rank of comm), or 0 where that
 * class was not tuned there.  Messages of bytes move no faster: where per-message costs
 * rule, a longer message spreads them over more bytes; where a link lets a burst through
 * faster than its sustained rate (a token bucket), the class's own message rode it as far
 * as one of its size can.  Never collective. */
double hpd_bcast_link_rate(MPI_Comm comm, size_t bytes);

/* The fastest rate any tuned broadcast, any whole message (hpd_bcast_whole_rate) or the
 * links' probe (hpd_bcast_set_stream_rate) showed on comm, whatever its size, or 0 where
 * none was timed there: a rate no message on comm is likely to beat.  Never collective. */
double hpd_bcast_link_rate_fastest(MPI_Comm comm);

/* The same as hpd_bcast_link_rate, but where comm knows no such rate, the size class of
 * bytes is tuned on a scratch message (tune.h), as its first broadcast would tune it,
 * which measures the rate.  Collective over comm; every rank of comm knows the same
 * rates, so all of them tune or none.  Where nothing can be tuned (HPD_CHUNK set, tuning
 * held by how, a message of one chunk, a tuning file that holds the class without its
 * rate), comm's stream rate (hpd_bcast_set_stream_rate), or 0 without one. */
double hpd_bcast_measure_link(MPI_Comm comm, size_t bytes, const hpd_bcast_how *how);

/* Keeps rate as the rate one rank of comm takes in a message along it while every line
 * of its grid sends at once (bytes per second; the same on every rank of comm): what a
 * group of panels hidden behind a multiply streams at, so that the crawl check
 * (hpd_bcast_measure_link) and the link's fastest rate have a figure without a
 * broadcast down the whole line.  No broadcast goes flat on it: the flat shape needs the
 * rate a broadcast of its own size class showed.  Never collective: a communicator
 * without a channel yet keeps nothing. */
void hpd_bcast_set_stream_rate(MPI_Comm comm, double rate);

/* The fastest rate, in bytes per second, at which a message of bytes crosses comm whole,
 * down the chain (every rank forwards it once it has it all, as ScaLAPACK's ring
 * broadcasts forward a panel): the best of a few broadcasts (one where a message takes a
 * millisecond or more), after an untimed one, measured once per size class and kept; the
 * same on every rank of comm.  The receivers' caches are not cleared first, as the chunk
 * trials clear them (tune.c): the figure is then at least as fast as a real panel's,
 * which is the side a bound on the reference's time (pblas/predict.h) must err on, and
 * a small call's first measurement does not make the clearing area (4 MiB of fresh pages,
 * most of that call's own time).  Collective over comm, whose ranks all ask alike; 0 where
 * comm has one rank or where how holds tuning. */
double hpd_bcast_whole_rate(MPI_Comm comm, size_t bytes, const hpd_bcast_how *how);

/* Says whether this job's ranks on the node outnumber its cores, so that waits always
 * hand the core over (idle.h); set when a grid is first used. */
void hpd_bcast_set_cores_shared(int shared);

/* What this process's broadcast calls have cost since it started. */
typedef struct hpd_bcast_counters {
  uint64_t count;      /* broadcasts started */
  uint64_t bytes;      /* their bytes */
  double wall_s;       /* wall seconds inside start, test and wait */
  double cpu_s;        /* CPU seconds of this thread meanwhile */
  /* Pipeline chunk of the latest broadcast that moved data; 0 if it was not pipelined. */
  uint64_t chunk_last;
  /* Wall seconds spent timing chunk candidates (tune.h), inside wall_s: a one-time cost
   * of a size class on a link, not what its later broadcasts take. */
  double trials_s;
} hpd_bcast_counters;

void hpd_bcast_counters_get(hpd_bcast_counters *out);

#endif
