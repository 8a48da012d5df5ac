#include "core/finalize_hook.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>

/* Room for every module that hooks MPI_Finalize (the report and the restoration). */
#define MOST_HOOKS 4

static void (*hooks[MOST_HOOKS])(void);
static atomic_int hooked;

static int run_hook(MPI_Comm comm, int keyval, void *value, void *extra)
{
  (void)comm, (void)keyval, (void)value;
  hooks[(int)(intptr_t)extra]();
  return MPI_SUCCESS;
}

hpd_status hpd_finalize_hook(void (*fn)(void), atomic_int *once)
{
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    return HPD_OK;
  if (atomic_exchange(once, 1))
    return HPD_OK;
  int slot = atomic_fetch_add(&hooked, 1);
  if (slot >= MOST_HOOKS)
    return HPD_STATUS_FULL;
  hooks[slot] = fn;
  int keyval;
  if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, run_hook, &keyval,
                             (void *)(intptr_t)slot) != MPI_SUCCESS ||
      MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL) != MPI_SUCCESS)
    return HPD_STATUS_UNAVAILABLE;
  return HPD_OK;
}
