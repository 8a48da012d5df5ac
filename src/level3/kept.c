/* Level 3's working space, kept from call to call (kept.h). */
#include "level3/kept.h"

#include "bcast/wait.h"
#include "core/alloc_all.h"
#include "core/log.h"
#include "core/workspace.h"

/* Needs up to this many bytes are not agreed on: a call this small cannot fail to find
 * them, and an agreement would cost more than its messages. */
#define SMALL_NEED ((size_t)1 << 20)

hpd_elem *hpd_l3_kept(size_t count, double budget)
{
  return hpd_workspace_get(HPD_AREA_LEVEL3, count * sizeof(hpd_elem), budget);
}

int hpd_l3_kept_agreed(MPI_Comm comm, size_t need, int ok, const char *what)
{
  if (need <= SMALL_NEED) {
    if (!ok)
      hpd_fatal("no memory for %zu bytes of %s", need, what);
    return 1;
  }
  return hpd_all_have(ok, comm, hpd_collective_waiter());
}
