#include "factor/lookahead.h"

#include "bcast/wait.h"
#include "core/alloc_all.h"
#include "core/log.h"
#include "core/stats.h"
#include "core/workspace.h"
#include "phase/phase.h"

int hpd_factor_accepted(hpd_call *call, int m, int n, int ia, int ja, const int *desca)
{
  if (hpd_desc_widen(desca, call->A.desc) != HPD_OK || !hpd_call_grid(call))
    return 0;
  if (m < 0 || n < 0 || ia < 1 || ja < 1)
    return 0;
  const int *d = call->A.desc;
  call->A.i = ia - 1;
  call->A.j = ja - 1;
  return hpd_matrix_ok(call, m, n, call->A.i, call->A.j, d,
                       desca[HPD_DTYPE] == HPD_BLOCK_CYCLIC_2D) &&
         call->A.i % d[HPD_MB] == 0 && call->A.j % d[HPD_NB] == 0 && d[HPD_MB] == d[HPD_NB];
}

/* Up to this much, the buffers live on the stack: the small factorizations (order 128
 * and below with NB 64) then allocate nothing, and no process needs to hear from the
 * others that they have theirs, which costs more than such a factorization's messages. */
#define STACK_BYTES (192 * 1024)

/* Where there is room, the look-ahead's service on grid; else the reason for the
 * reference. */
static int serve_on(const hpd_grid *grid, hpd_routine routine, uint64_t bytes,
                    hpd_factor_fn fn, void *work, int *info)
{
  if (!grid)
    return HPD_FALLBACK_NO_GRID;
  if ((double)bytes > hpd_grid_budget(grid))
    return HPD_FALLBACK_NO_MEMORY;
  hpd_spent_set_up(grid);
  _Alignas(64) hpd_elem stack[STACK_BYTES / sizeof(hpd_elem)];
  /* Kept from call to call (core/workspace.h): applications factor matrices of one order
   * again and again, and the turned LU's copies and exchanges are as large as the
   * matrix. */
  hpd_elem *space = stack;
  if (bytes > STACK_BYTES) {
    space = hpd_workspace_get(HPD_AREA_FACTOR, bytes, hpd_grid_budget(grid));
    if (!hpd_all_have(space != NULL, grid->comm, hpd_collective_waiter())) {
      hpd_workspace_give_back(HPD_AREA_FACTOR);
      space = NULL;
    }
  }
  if (!space) {
    static int warned;
    if (!warned++)
      hpd_warn("%s: no memory for the panels' buffers (%llu bytes); the reference "
               "factors the matrix",
               hpd_routine_name(routine), (unsigned long long)bytes);
    return HPD_FALLBACK_NO_MEMORY;
  }
  /* A factorization's panels shrink through several size classes, and timing each one's
   * chunk candidates cost its first call more than the call itself (135 ms against 102
   * for Cholesky of order 2048 on 1x2 across two hosts), where the provisional chunk
   * moved its panels as fast. */
  hpd_bcast_how *how = hpd_grid_bcast(grid);
  int held = how->hold_tuning;
  how->hold_tuning = 1;
  *info = fn(work, grid, space);
  how->hold_tuning = held;
  return HPD_SERVED_BY_ENGINE;
}

int hpd_factor_serve(const hpd_call *call, hpd_routine routine, uint64_t bytes,
                     hpd_factor_fn fn, void *work, hpd_dispatch_ticket *ticket, int *info)
{
  /* A factorization always has work where it has extents; alpha, which the rule reads
   * as a multiply's scaling, means nothing to it. */
  hpd_call classed = *call;
  classed.alpha = 1.0;
  hpd_route route = hpd_dispatch_route(&classed, routine, 0, HPD_TRIAL_AT_ONCE, ticket);
  if (route == HPD_ROUTE_REFERENCE)
    return HPD_SERVED_DIRECT_REFERENCE;
  const hpd_grid *grid = ticket->grid ? ticket->grid
                                      : hpd_grid_get(call->ictxt, call->nprow, call->npcol,
                                                     call->myrow, call->mycol);
  int verdict = serve_on(grid, routine, bytes, fn, work, info);
  if (verdict != HPD_SERVED_BY_ENGINE)
    ticket->cls = NULL; /* the reference's time, not the engine's */
  return verdict;
}

void hpd_factor_run_begin(hpd_factor_run *run)
{
  run->strategy = hpd_strategy_booked();
  run->phases = run->strategy == HPD_STRATEGY_OVERLAP ? HPD_STRATEGY_NONE : run->strategy;
  run->steps = 0;
  hpd_spent_start(&run->spent);
  hpd_phase_mark(HPD_PHASE_MULTIPLY);
}

void hpd_factor_run_wait(hpd_factor_run *run, hpd_bcast *handles, int n, size_t bytes)
{
  int switching = hpd_phase_pays(run->strategy, bytes);
  hpd_phase_enter(run->phases, switching, HPD_PHASE_BROADCAST);
  hpd_bcast_wait(handles, n);
  hpd_phase_enter(run->phases, switching, HPD_PHASE_MULTIPLY);
  run->steps++;
}

void hpd_factor_run_end(hpd_factor_run *run, hpd_routine routine, int panels,
                        uint64_t bytes)
{
  hpd_phase_mark(HPD_PHASE_OTHER);
  hpd_spent_record(&run->spent, routine, run->strategy, run->steps);
  hpd_stats_record_grouping(routine, 1, panels, bytes, bytes);
}

hpd_grid_panel hpd_grid_panel_at(int p, int nb, int64_t end, const hpd_axis *rows,
                                 const hpd_axis *cols)
{
  hpd_grid_panel pn = {.g0 = (int64_t)p * nb};
  pn.g1 = pn.g0 + nb < end ? pn.g0 + nb : end;
  pn.jb = (int)(pn.g1 - pn.g0);
  pn.owner_r = hpd_axis_owner(rows, pn.g0);
  pn.owner_c = hpd_axis_owner(cols, pn.g0);
  return pn;
}

hpd_bcast_how hpd_factor_down_columns(const hpd_grid *grid)
{
  hpd_bcast_how how = *hpd_grid_bcast(grid);
  how.shared_links = 1;
  return how;
}

void hpd_factor_poll(void *arg)
{
  hpd_bcast_test(arg, 2);
}
