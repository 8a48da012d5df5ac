#include "pdgemm/buffers.h"

#include <math.h>
#include <stdatomic.h>

#include "bcast/wait.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/costs.h"
#include "core/log.h"
#include "core/workspace.h"
#include "pdgemm/ngrp.h"

/* Pages are made in pieces of this many bytes, so that paying forward stops near its
 * time (a piece takes about a millisecond where pages are slowest to make). */
#define PIECE ((size_t)1 << 20)

/* What the grid has made of the group buffers: the least bytes over its ranks. */
typedef struct made {
  double a, b;
} made;

/* This rank's buffers for its slots of ngrp panels: HPD_OK, or HPD_STATUS_NO_MEMORY. */
static hpd_status provide(hpd_buffers *bufs, int ngrp)
{
  size_t width = (size_t)hpd_group_widest(bufs->panels, ngrp) * (size_t)bufs->slots *
                 (size_t)bufs->sides;
  size_t a_len = bufs->a_travels ? (size_t)bufs->mloc * width : 0;
  size_t b_len = bufs->b_travels || bufs->b_gathers ? (size_t)bufs->nloc * width : 0;
  size_t h_len = ((size_t)bufs->handles_per_panel * (size_t)ngrp +
                  (size_t)bufs->handles_per_group) * (size_t)bufs->slots;
  bufs->a = hpd_workspace_get(HPD_AREA_ENGINE_A, a_len * sizeof(hpd_elem), bufs->budget);
  bufs->b = hpd_workspace_get(HPD_AREA_ENGINE_B, b_len * sizeof(hpd_elem), bufs->budget);
  bufs->handles =
      hpd_workspace_get(HPD_AREA_ENGINE_HANDLES, h_len * sizeof(hpd_bcast), bufs->budget);
  return (a_len && !bufs->a) || (b_len && !bufs->b) || (h_len && !bufs->handles)
             ? HPD_STATUS_NO_MEMORY
             : HPD_OK;
}

static int pow2_floor(double x)
{
  int p = 1;
  while (p <= x / 2)
    p *= 2;
  return p;
}

static const hpd_area grown[2] = {HPD_AREA_ENGINE_A, HPD_AREA_ENGINE_B};

/* Holds the target's space in each buffer, so that the pages a call makes stay the first
 * of it as it grows; returns in reserved whether each could be had. */
static void reserve_target(const hpd_growth *growth, double budget, size_t want[2],
                           int reserved[2])
{
  int64_t rows[2] = {growth->a_rows, growth->b_rows};
  for (int i = 0; i < 2; i++) {
    want[i] = (size_t)rows[i] * (size_t)growth->columns * (size_t)growth->target *
              sizeof(hpd_elem);
    reserved[i] = want[i] == 0 || hpd_workspace_reserve(grown[i], want[i], budget);
  }
}

hpd_growth hpd_buffers_growth(const hpd_grid *grid, int target, int64_t a_rows,
                              int64_t b_rows, int64_t columns, double budget,
                              int groups_at_once)
{
  hpd_growth g = {.target = target, .ngrp = target, .a_rows = a_rows, .b_rows = b_rows,
                  .columns = columns};
#ifndef HPD_SIMULATED
  const hpd_settings *cfg = hpd_config_get();
  g.grows = cfg->dispatch == HPD_DISPATCH_AUTO && cfg->ngrp == 0 && columns > 0;
#endif
  if (!g.grows)
    return g;
  const made *grid_made = hpd_grid_state(grid, HPD_GRID_BUFFERS, sizeof(made));
  double panels = INFINITY;
  double panel_bytes[2] = {(double)a_rows * columns * sizeof(hpd_elem),
                           (double)b_rows * columns * sizeof(hpd_elem)};
  if (panel_bytes[0] > 0.0)
    panels = fmin(panels, grid_made->a / panel_bytes[0]);
  if (panel_bytes[1] > 0.0)
    panels = fmin(panels, grid_made->b / panel_bytes[1]);
  int64_t least_columns = (int64_t)groups_at_once * HPD_OVERLAP_COLUMNS;
  int least = least_columns > columns ? (int)(least_columns / columns) : 1;
  int ngrp = panels >= target ? target : pow2_floor(fmax(panels, least));
  g.ngrp = ngrp < target ? ngrp : target;
  if (g.ngrp < target) {
    size_t want[2];
    int reserved[2];
    reserve_target(&g, budget, want, reserved);
  }
  return g;
}

void hpd_buffers_pay_forward(const hpd_grid *grid, const hpd_growth *growth, double call_s,
                             double budget)
{
  const hpd_grid_spare *spare = hpd_grid_spare_of(grid);
  if (!(spare->until > 0.0))
    return;
  const hpd_area *area = grown;
  double start = hpd_now(), piece_s = 0.0;
  double deadline = fmin(start + HPD_GROWTH_SHARE * call_s, spare->until);
  size_t want[2];
  int reserved[2];
  reserve_target(growth, budget, want, reserved);
  for (;;) {
    /* The buffer further behind its share of the target gets the next piece. */
    double behind[2];
    for (int i = 0; i < 2; i++)
      behind[i] = reserved[i] && want[i] > hpd_workspace_made(area[i])
                      ? (double)hpd_workspace_made(area[i]) / (double)want[i]
                      : INFINITY;
    int next = behind[1] < behind[0];
    double now = hpd_now();
    if (isinf(behind[next]) || now + piece_s > deadline)
      break;
    hpd_workspace_make_piece(area[next], want[next], PIECE);
    piece_s = hpd_now() - now;
  }
  made mine = {want[0] ? (double)hpd_workspace_made(area[0]) : 0.0,
               want[1] ? (double)hpd_workspace_made(area[1]) : 0.0};
  made *grid_made = hpd_grid_state(grid, HPD_GRID_BUFFERS, sizeof(made));
  double cost = hpd_cost_begin(HPD_COST_AGREEMENT);
  hpd_wait_allreduce(&mine, grid_made, 2, MPI_DOUBLE, MPI_MIN, grid->comm);
  hpd_cost_end(HPD_COST_AGREEMENT, cost);
}

int hpd_buffers_agree(hpd_buffers *bufs, int ngrp, int ready, MPI_Comm comm,
                      hpd_growth *growth)
{
  static atomic_int warned;
  int wanted = ngrp, short_somewhere = 0;
  for (;;) {
    int ok = ready && ngrp >= 1 && provide(bufs, ngrp) == HPD_OK;
    /* MIN of {what this rank can do, -what it proposes, ready, able, not capped}: every
     * rank proposed the same and every rank is able exactly when the first two agree. */
    int mine[5] = {ok ? ngrp : ngrp / 2, -ngrp, ready, ok, !(growth->ngrp < growth->target)};
    int all[5];
    double cost = hpd_cost_begin(HPD_COST_AGREEMENT);
    hpd_wait_allreduce(mine, all, 5, MPI_INT, MPI_MIN, comm);
    hpd_cost_end(HPD_COST_AGREEMENT, cost);
    growth->capped = !all[4];
    if (!all[2] || all[0] < 1) {
      hpd_buffers_free(bufs);
      return 0;
    }
    if (all[3] && all[0] == -all[1]) {
      if (short_somewhere && !atomic_exchange(&warned, 1))
        hpd_warn("not enough memory for pdgemm's group buffers of %d panels: using groups "
                 "of %d (lower HPD_MEM_THRESHOLD or set HPD_NGRP to avoid this)",
                 wanted, ngrp);
      return ngrp;
    }
    if (!all[3]) {
      /* Memory ran short somewhere, maybe on this node: give back the larger buffers
       * before the next, smaller, try. */
      short_somewhere = 1;
      hpd_buffers_free(bufs);
    }
    ngrp = all[0];
  }
}

size_t hpd_buffers_bytes(void)
{
  return hpd_workspace_bytes(HPD_AREA_ENGINE_A) + hpd_workspace_bytes(HPD_AREA_ENGINE_B) +
         hpd_workspace_bytes(HPD_AREA_ENGINE_HANDLES);
}

void hpd_buffers_free(hpd_buffers *bufs)
{
  hpd_workspace_give_back(HPD_AREA_ENGINE_A);
  hpd_workspace_give_back(HPD_AREA_ENGINE_B);
  hpd_workspace_give_back(HPD_AREA_ENGINE_HANDLES);
  bufs->a = bufs->b = NULL;
  bufs->handles = NULL;
}
