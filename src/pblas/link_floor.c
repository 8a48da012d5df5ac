#include "pblas/link_floor.h"

#include <math.h>
#include <stdlib.h>

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
  size_t bytes; /* the probe's message on the line */
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
 * the block per line. */
static line_probe plan_line(MPI_Comm comm, double bytes, double panel)
{
  hpd_bcast_channel *ch = hpd_channel_get(comm);
  line_probe line = {.comm = comm, .size = ch->size, .rank = ch->rank};
  int here = on_this_node(ch);
  line.crosses = line.size > 1 && here < line.size;
  if (!line.crosses)
    return line;
  line.bytes = (size_t)fmin(panel / 2.0, PROBE_MOST);
  line.taken = (double)line.bytes / here;
  double whole = bytes * line.size / (line.size - 1.0); /* this line's panels, own share */
  line.need = whole * (1.0 - (double)here / line.size) / here;
  return line;
}

/* Sends out to the next process of each line that crosses nodes and receives the one
 * before's into in (the line's own part of it), bytes or nothing; returns the seconds
 * until all has arrived and gone. */
static double shift(const line_probe lines[2], const char *out, char *in, size_t stride,
                    int empty)
{
  double start = hpd_now();
  MPI_Request req[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL,
                        MPI_REQUEST_NULL};
  for (int i = 0; i < 2; i++) {
    const line_probe *line = &lines[i];
    if (!line->crosses)
      continue;
    int next = (line->rank + 1) % line->size;
    int before = (line->rank + line->size - 1) % line->size;
    int count = empty ? 0 : (int)line->bytes;
    MPI_Irecv(in + i * stride, count, MPI_BYTE, before, PROBE_TAG, line->comm, &req[2 * i]);
    MPI_Isend(out, count, MPI_BYTE, next, PROBE_TAG, line->comm, &req[2 * i + 1]);
  }
  for (int i = 0; i < 4; i++)
    hpd_waited(&req[i], hpd_collective_waiter());
  return hpd_now() - start;
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
  /* The probe's seconds, latency's in it, and need over taken. */
  double figures[3] = {0.0, 0.0, 0.0};
  if (ready) {
    (void)shift(lines, space, space + most, most, 1); /* neighbours start together */
    figures[1] = shift(lines, space, space + most, most, 1);
    figures[0] = shift(lines, space, space + most, most, 0);
    double need = lines[0].need + lines[1].need, taken = lines[0].taken + lines[1].taken;
    figures[2] = taken > 0.0 ? need / taken : 0.0;
  } else if (most > 0 && !space) {
    static int warned;
    if (!warned++)
      hpd_warn("not enough memory to probe the links of a %d x %d grid: its classes' "
               "trials run without the links' floor",
               grid->nprow, grid->npcol);
  }
  free(space);
  hpd_wait_allreduce(MPI_IN_PLACE, figures, 3, MPI_DOUBLE, MPI_MAX, grid->comm);
  hpd_cost_end(HPD_COST_TUNING, cost);
  if (!(figures[1] < LATENCY_SHARE * figures[0]))
    return 0.0;
  return (figures[0] - figures[1]) * figures[2];
}
