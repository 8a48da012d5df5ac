/*
 * hpd_pdlaswp: PDLASWP's interchanges of rows or columns of a distributed matrix, the
 * ones LU applies to both sides of each factored panel.
 *
 * ScaLAPACK makes one PDSWAP per interchange: a row is a strided vector, so each swap
 * between two processes packs, sends and unpacks one row, one element per column of the
 * local storage, and a swap within a process walks the same stride; on a 2 x 1 grid that
 * took a quarter of pdgetrf's time at N = 4096.  Here the interchanges are first turned
 * into the moves they amount to (moves.c), and the lines then travel between each pair of
 * processes in one message, packed a column at a time (exchange.c).  The result is the
 * same to the bit: interchanges only move data.
 *
 * Only forward runs (DIREC 'F', pdgetrf's) are served.  ScaLAPACK before 2.2.3 read a
 * backward run's pivots from the local index of line K2 rather than K1, and a drop-in
 * library must give the answer of whichever one is installed: backward runs go to it.
 *
 * PDLASWP itself checks nothing; the PDSWAP calls it makes check each vector.  A call
 * whose vectors PDSWAP would reject, or that this code does not cover (a descriptor other
 * than DTYPE 1, replicated data), goes to the reference, which reports it as ScaLAPACK
 * does.  As there, the pivots must already be known to every process of the grid's line.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>

#include "bcast/wait.h"
#include "core/alloc_all.h"
#include "core/log.h"
#include "core/stats.h"
#include "pblas/call.h"
#include "pblas/entry.h"
#include "pblas/grid.h"
#include "pblas/reference.h"
#include "swap/exchange.h"

/* Up to this much, the scratch is on the stack: nothing to allocate, so nothing for the
 * processes of a line to agree on (a few interchanges of short lines).  Past it, one
 * allreduce over the line (microseconds, against milliseconds of data) confirms that
 * every process has its scratch before any of them starts. */
#define STACK_BYTES (32 * 1024)

typedef struct request {
  char direc, rowcol;
  int n, ia, ja, k1, k2;
  hpd_elem *a;
  const int *desca, *ipiv;
} request;

/* The lines of the call as this process holds them, and its grid; 0 when the call is
 * not one to serve here. */
static int lines_of(const request *r, hpd_swap_lines *l, const int **pivots,
                    int64_t *total)
{
  if (r->desca[HPD_DTYPE] != 1)
    return 0;
  hpd_call call = {0};
  if (hpd_desc_widen(r->desca, call.A.desc) != HPD_OK || !hpd_call_grid(&call))
    return 0;
  const int *d = call.A.desc;
  int rows = toupper((unsigned char)r->rowcol) == 'R';
  /* each interchange's two vectors as PDSWAP checks them, and every line in range */
  int fits = rows ? hpd_matrix_ok(&call, 1, r->n, 0, r->ja - 1, d, 1)
                  : hpd_matrix_ok(&call, r->n, 1, r->ia - 1, 0, d, 1);
  *total = rows ? d[HPD_M] : d[HPD_N];
  if (!fits || r->k1 < 1 || r->k2 > *total || d[HPD_RSRC] < 0 || d[HPD_CSRC] < 0)
    return 0;
  const hpd_grid *grid = hpd_grid_get(call.ictxt, call.nprow, call.npcol, call.myrow,
                                      call.mycol);
  if (!grid)
    return 0;
  /* the lines over the grid's line from line 1; the positions from JA (IA) on */
  hpd_matrix positions = call.A;
  if (rows)
    positions.j = r->ja - 1;
  else
    positions.i = r->ia - 1;
  hpd_axis along = rows ? hpd_matrix_cols(&positions, call.npcol)
                        : hpd_matrix_rows(&positions, call.nprow);
  hpd_axis lines = rows ? hpd_matrix_rows(&call.A, call.nprow)
                        : hpd_matrix_cols(&call.A, call.npcol);
  int my_position_proc = rows ? call.mycol : call.myrow;
  *l = (hpd_swap_lines){
      .a = r->a,
      .line_step = rows ? 1 : d[HPD_LLD],
      .pos_step = rows ? d[HPD_LLD] : 1,
      .axis = lines,
      .pos0 = rows ? hpd_matrix_col0(&positions, call.npcol, call.mycol)
                   : hpd_matrix_row0(&positions, call.nprow, call.myrow),
      .npos = hpd_axis_count(&along, r->n, my_position_proc),
      .comm = rows ? grid->col : grid->row,
      .me = rows ? call.myrow : call.mycol,
      .nprocs = rows ? call.nprow : call.npcol,
      .wait = hpd_collective_waiter()};
  /* where PDLASWP reads them: from the local index of line K1 on (INFOG2L) */
  *pivots = r->ipiv + hpd_axis_count(&l->axis, r->k1 - 1, l->me);
  return 1;
}

static int pivots_valid(const int *pivots, int64_t count, int64_t total)
{
  for (int64_t i = 0; i < count; i++)
    if (pivots[i] < 1 || pivots[i] > total)
      return 0;
  return 1;
}

static int serve(const void *args, hpd_dispatch_ticket *ticket)
{
  (void)ticket; /* decided from the call alone */
  const request *r = args;
  if (r->n == 0 || r->k2 < r->k1)
    return HPD_SERVED_BY_ENGINE; /* nothing moves, as in PDLASWP */
  hpd_swap_lines l;
  const int *pivots;
  int64_t total;
  if (r->n < 0 || toupper((unsigned char)r->direc) != 'F' ||
      !lines_of(r, &l, &pivots, &total))
    return HPD_FALLBACK_UNSUPPORTED;
  if (l.npos == 0)
    return HPD_SERVED_BY_ENGINE; /* this line of the grid holds none of the positions */
  int64_t count = (int64_t)r->k2 - r->k1 + 1;
  if (!pivots_valid(pivots, count, total))
    return HPD_FALLBACK_BAD_ARGUMENT;
  /* LU's runs where one process holds every row involved (always on 1 x Q) */
  int owner = hpd_swap_sole_owner(&l, pivots, r->k1, count);
  if (owner >= 0) {
    if (owner == l.me)
      hpd_swap_in_place(&l, pivots, r->k1, count);
    return HPD_SERVED_BY_ENGINE;
  }
  if (2 * count * l.npos > INT_MAX)
    return HPD_FALLBACK_UNSUPPORTED;
  /* the same on every process of the line: count, npos and nprocs are */
  hpd_swap_plan plan = {0};
  size_t bytes = hpd_swap_plan_carve(count, l.npos, l.nprocs, NULL, &plan);
  _Alignas(16) char stack[STACK_BYTES];
  /* the block holds the moves and the requests beside the rows */
  void *block = bytes <= sizeof stack ? stack : hpd_alloc_all_own(bytes, l.comm, hpd_collective_waiter());
  if (!block) {
    static int warned;
    if (!warned++)
      hpd_warn("pdlaswp: no memory for the interchanges' buffers (%zu bytes); the "
               "reference applies them",
               bytes);
    return HPD_FALLBACK_NO_MEMORY;
  }
  hpd_swap_plan_carve(count, l.npos, l.nprocs, block, &plan);
  hpd_swap_apply(&l, pivots, r->k1, r->k2, &plan);
  if (block != stack)
    free(block);
  return HPD_SERVED_BY_ENGINE;
}

static void reference(const void *args)
{
  request r = *(const request *)args;
  hpd_reference_pdlaswp()(&r.direc, &r.rowcol, &r.n, r.a, &r.ia, &r.ja, r.desca, &r.k1, &r.k2,
                          r.ipiv);
}

void hpd_pdlaswp(char direc, char rowcol, int n, double *a, int ia, int ja,
                 const int *desca, int k1, int k2, const int *ipiv)
{
  static const hpd_entry entry = {.routine = HPD_ROUTINE_PDLASWP, .serve_whole = serve,
                                  .reference = reference};
  const request r = {direc, rowcol, n, ia, ja, k1, k2, a, desca, ipiv};
  hpd_entry_run(&entry, &r);
}
