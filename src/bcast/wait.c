#include "bcast/wait.h"

#include "bcast/counters.h"
#include "bcast/idle.h"
#include "bcast/inflight.h"
#include "bcast/request.h"
#include "core/config.h"

static int all_done(const hpd_bcast *handles, int n)
{
  for (int i = 0; i < n; i++)
    if (!handles[i].done)
      return 0;
  return 1;
}

/* Between two sweeps that moved nothing.  Under the simulator a rank blocks until one of
 * its requests completes: every test there costs simulated time and the simulator's own
 * time, and a blocked rank's host is charged idle, where polling would charge it busy. */
static void pause_after(hpd_idle *idle, int moved, MPI_Request *also)
{
#ifdef HPD_SIMULATED
  (void)idle;
  if (!moved)
    hpd_inflight_block(also);
#else
  (void)also;
  hpd_idle_step(idle, moved);
#endif
}

/* Steps every broadcast in flight, under the wait policy, until reached(goal). */
static void drive_until(int (*reached)(const void *goal), const void *goal)
{
  hpd_idle idle;
  int moved = hpd_inflight_sweep();
  if (reached(goal))
    return;
  hpd_call_blocks();
  hpd_idle_begin(&idle, hpd_config_get()->wait);
  for (;;) {
    pause_after(&idle, moved, NULL);
    moved = hpd_inflight_sweep();
    if (reached(goal))
      return;
  }
}

typedef struct handles_done {
  const hpd_bcast *handles;
  int n;
} handles_done;

static int all_reached(const void *goal)
{
  const handles_done *g = goal;
  return all_done(g->handles, g->n);
}

void hpd_bcast_drive(hpd_bcast *handles, int n)
{
  drive_until(all_reached, &(handles_done){handles, n});
}

void hpd_wait_request(MPI_Request *request)
{
  hpd_idle idle;
  hpd_call_blocks();
  hpd_idle_begin(&idle, hpd_config_get()->wait);
  for (;;) {
    int moved = hpd_inflight_sweep();
    if (hpd_request_done(request))
      return;
    pause_after(&idle, moved, request);
  }
}

void hpd_wait_dup(MPI_Comm comm, MPI_Comm *dup)
{
#ifdef HPD_SIMULATED
  MPI_Comm_dup(comm, dup); /* the simulator has no non-blocking duplication */
#else
  MPI_Request request;
  MPI_Comm_idup(comm, dup, &request);
  hpd_wait_request(&request);
#endif
}

hpd_wait_fn hpd_collective_waiter(void)
{
#ifdef HPD_SIMULATED
  return NULL;
#else
  return hpd_wait_request;
#endif
}

void hpd_wait_allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm)
{
  hpd_allreduce_waited(in, out, count, type, op, comm, hpd_collective_waiter());
}

void hpd_wait_bcast(void *data, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
#ifdef HPD_SIMULATED
  MPI_Bcast(data, count, type, root, comm);
#else
  MPI_Request request;
  MPI_Ibcast(data, count, type, root, comm, &request);
  hpd_wait_request(&request);
#endif
}

void hpd_wait_barrier(MPI_Comm comm)
{
#ifdef HPD_SIMULATED
  MPI_Barrier(comm);
#else
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  hpd_wait_request(&request);
#endif
}

int hpd_bcast_test(hpd_bcast *handles, int n)
{
  hpd_call_begin();
  hpd_inflight_sweep();
  int done = all_done(handles, n);
  hpd_call_end();
  return done;
}

void hpd_bcast_wait(hpd_bcast *handles, int n)
{
  hpd_call_begin();
  hpd_bcast_drive(handles, n);
  hpd_call_end();
}

int hpd_bcast_has(const hpd_bcast *h, size_t bytes)
{
  if (h->done || bytes == 0)
    return 1;
  if (h->kind != HPD_BCAST_PIPELINE && h->kind != HPD_BCAST_BINOMIAL)
    return 0;
  /* Chunks arrive in order, per_seg to a segment, the last of each possibly short. */
  size_t segs = h->received / h->per_seg, within = h->received % h->per_seg;
  size_t arrived = segs * h->layout.seg_bytes + within * h->chunk;
  return arrived >= bytes || h->received == h->chunks;
}

typedef struct prefix_arrived {
  const hpd_bcast *handle;
  size_t bytes;
} prefix_arrived;

static int prefix_reached(const void *goal)
{
  const prefix_arrived *g = goal;
  return hpd_bcast_has(g->handle, g->bytes);
}

void hpd_bcast_wait_for(hpd_bcast *h, size_t bytes)
{
  if (hpd_bcast_has(h, bytes))
    return;
  hpd_call_begin();
  drive_until(prefix_reached, &(prefix_arrived){h, bytes});
  hpd_call_end();
}
