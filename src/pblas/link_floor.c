#include "pblas/link_floor.h"

#include <math.h>
#include <stdlib.h>

#include "bcast/bcast.h"
#include "bcast/channel.h"
#include "bcast/wait.h"
#include "core/alloc_all.h"
#include "core/clock.h"
#include "core/costs.h"
#include "core/log.h"

/* The probe's message: half of one of the plan's panels, a small part of what the call
 * moves (the probe is a cost every trial pays), and no more than PROBE_MOST (a node of
 * 64 processes then takes in 8 MiB at the most), since every process holds three.  An
 * empty shift timed just before it is what latency put into it; where that is more than
 * half of it, the message was too short to time the link, and there is no floor. */
#define PROBE_MOST (128.0 * 1024.0)
#define LATENCY_SHARE 0.5
/* The grid's line communicators carry no other messages of this tag. */
#define PROBE_TAG 31001

typedef struct line_probe {
  MPI_Comm comm;
  int size, rank;
  int crosses;  /* the line has processes on other nodes than this one */
  double need;  /* this process's share of what its node must take in along the line */
  double taken; /* its share of what the probe brings into the node along the line */
  size_t bytes; /* the probe's message on the line; 0 on a line of one process */
} line_probe;

/* The processes of ch on this process's node, this one included. */
static int on_this_node(const hpd_bcast_channel *ch)
{
  if (!ch->node_first)
    return ch->size;
  int count = 0;
  for (int r = 0; r < ch->size; r++)
    count += ch->node_first[r] == ch->node_first[ch->rank];
  return count;
}

/* bytes: what the plan has this process receive along comm, in panels of panel bytes.
 * A node holding a block of the grid takes in, per line of it that it holds part of,
 * one copy of every panel that the line's processes on other nodes hold, and its
 * processes on the line share that copy; the probe's ring brings one message into
 * the block per line.  A line within the node takes in nothing through its link, but
 * its ring runs too, for the line's stream rate. */
static line_probe plan_line(MPI_Comm comm, double bytes, double panel)
{
  hpd_bcast_channel *ch = hpd_channel_get(comm);
  line_probe line = {.comm = comm, .size = ch->size, .rank = ch->rank};
  if (line.size < 2)
    return line;
  line.bytes = (size_t)fmin(panel / 2.0, PROBE_MOST);
  int here = on_this_node(ch);
  line.crosses = here < line.size;
  if (!line.crosses)
    return line;
  line.taken = (double)line.bytes / here;
  double whole = bytes * line.size / (line.size - 1.0); /* this line's panels, own share */
  line.need = whole * (1.0 - (double)here / line.size) / here;
  return line;
}

/* Whether a shift of the lines that cross nodes (crossing 1) or of those within this
 * node (crossing 0) sends along line. */
static int shifted(const line_probe *line, int crossing)
{
  return line->size > 1 && line->crosses == crossing;
}

/* Sends out to the next process of each line that crosses nodes (crossing 1) or of each
 * line within this node (crossing 0), and receives the one before's into in (the line's
 * own part of it), the line's bytes or nothing; seconds[i]: until line i's message has
 * arrived and gone (0 for a line not shifted). */
static void shift(const line_probe lines[2], int crossing, const char *out, char *in,
                  size_t stride, int empty, double seconds[2])
{
  double start = hpd_now();
  MPI_Request req[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL,
                        MPI_REQUEST_NULL};
  for (int i = 0; i < 2; i++) {
    const line_probe *line = &lines[i];
    if (!shifted(line, crossing))
      continue;
    int next = (line->rank + 1) % line->size;
    int before = (line->rank + line->size - 1) % line->size;
    int count = empty ? 0 : (int)line->bytes;
    MPI_Irecv(in + i * stride, count, MPI_BYTE, before, PROBE_TAG, line->comm, &req[2 * i]);
    MPI_Isend(out, count, MPI_BYTE, next, PROBE_TAG, line->comm, &req[2 * i + 1]);
  }
  for (int i = 0; i < 2; i++) {
    seconds[i] = 0.0;
    if (!shifted(&lines[i], crossing))
      continue;
    hpd_waited(&req[2 * i], hpd_collective_waiter());
    hpd_waited(&req[2 * i + 1], hpd_collective_waiter());
    seconds[i] = hpd_now() - start;
  }
}

/* The probe's figures, each the largest on the grid: per line (the row's, then the
 * column's), its message's seconds, an empty shift's (latency), and whether it crosses
 * nodes; and what a node needs over what the probe brought in. */
enum { MESSAGE_S, LATENCY_S = 2, CROSSES = 4, NEED_OVER_TAKEN = 6, FIGURES };

/* Line i's stream rate, where its message was long enough to time it (LATENCY_SHARE). */
static void keep_stream_rate(const line_probe *line, const double *figures, int i)
{
  double message_s = figures[MESSAGE_S + i], latency_s = figures[LATENCY_S + i];
  if (line->bytes > 0 && latency_s < LATENCY_SHARE * message_s)
    hpd_bcast_set_stream_rate(line->comm, (double)line->bytes / (message_s - latency_s));
}

/* The lines within a node are shifted first, for their stream rates alone (a message
 * through shared memory takes microseconds), then the lines that cross nodes, for the
 * floor and theirs: a process done with the crossing shift early would otherwise send
 * along its node while others still time their links, and slow them.  Where both of a
 * process's lines cross, their messages share the links and go together: the column's
 * time is then at least the row's. */
static void shifts(const line_probe lines[2], char *space, size_t most, double *figures)
{
  for (int crossing = 0; crossing <= 1; crossing++) {
    double unused[2], latency_s[2], message_s[2];
    shift(lines, crossing, space, space + most, most, 1, unused); /* neighbours start together */
    shift(lines, crossing, space, space + most, most, 1, latency_s);
    shift(lines, crossing, space, space + most, most, 0, message_s);
    for (int i = 0; i < 2; i++)
      if (shifted(&lines[i], crossing)) {
        figures[LATENCY_S + i] = latency_s[i];
        figures[MESSAGE_S + i] = message_s[i];
      }
  }
}

double hpd_link_floor_s(const hpd_reference_plan *plan, const hpd_grid *grid)
{
  if (grid->nodes < 2)
    return 0.0;
  double cost = hpd_cost_begin(HPD_COST_TUNING);
  line_probe lines[2] = {plan_line(grid->row, plan->row_bytes, plan->row_panel),
                         plan_line(grid->col, plan->col_bytes, plan->col_panel)};
  size_t most = lines[0].bytes > lines[1].bytes ? lines[0].bytes : lines[1].bytes;
  char *space = most > 0 ? calloc(3, most) : NULL;
  /* Every process has its space, or none probes; and all start together. */
  int ready = hpd_all_have(most == 0 || space != NULL, grid->comm, hpd_collective_waiter());
  double figures[FIGURES] = {0.0};
  if (ready) {
    shifts(lines, space, most, figures);
    double need = lines[0].need + lines[1].need, taken = lines[0].taken + lines[1].taken;
    figures[NEED_OVER_TAKEN] = taken > 0.0 ? need / taken : 0.0;
    figures[CROSSES] = lines[0].crosses;
    figures[CROSSES + 1] = lines[1].crosses;
  } else if (most > 0 && !space) {
    static int warned;
    if (!warned++)
      hpd_warn("not enough memory to probe the links of a %d x %d grid: its classes' "
               "trials run without the links' floor",
               grid->nprow, grid->npcol);
  }
  free(space);
  hpd_wait_allreduce(MPI_IN_PLACE, figures, FIGURES, MPI_DOUBLE, MPI_MAX, grid->comm);
  hpd_cost_end(HPD_COST_TUNING, cost);
  double message_s = 0.0, latency_s = 0.0;
  for (int i = 0; i < 2; i++) {
    keep_stream_rate(&lines[i], figures, i);
    if (figures[CROSSES + i] > 0.0) {
      message_s = fmax(message_s, figures[MESSAGE_S + i]);
      latency_s = fmax(latency_s, figures[LATENCY_S + i]);
    }
  }
  if (!(latency_s < LATENCY_SHARE * message_s))
    return 0.0;
  return (message_s - latency_s) * figures[NEED_OVER_TAKEN];
}
