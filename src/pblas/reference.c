#define _GNU_SOURCE
#include "pblas/reference.h"

#include <dlfcn.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/log.h"

#ifdef HPD_SIMULATED
/* Every simulated rank lives in one process, with ScaLAPACK linked in statically and the
 * definitions of the routines hpdaemon defines renamed hpd_scalapack_<name>
 * (simulated/build-scalapack): nothing comes after hpdaemon to be found at run time.  The
 * cast through a function of no arguments is the one C allows between function types. */
#define REFERENCE_OF(type, symbol)                                                        \
  extern void hpd_scalapack_##symbol(void);                                               \
  return (type)(void (*)(void))hpd_scalapack_##symbol
#else
/* Found through RTLD_NEXT so that a preloaded or relinked hpdaemon reaches the ScaLAPACK
 * that comes after it, whichever file that is. */
static void *find_next(const char *symbol)
{
  void *fn = dlsym(RTLD_NEXT, symbol);
  if (!fn) {
    hpd_fatal("no reference %s after hpdaemon in the link order (%s); link the program "
              "against ScaLAPACK",
              symbol, dlerror());
  }
  return fn;
}

/* Looked up once; a data pointer converted to a function pointer, as dlsym requires. */
#define REFERENCE_OF(type, symbol)                                                        \
  static _Atomic(type) cached;                                                            \
  type fn = atomic_load(&cached);                                                         \
  if (!fn) {                                                                              \
    *(void **)&fn = find_next(#symbol);                                                   \
    atomic_store(&cached, fn);                                                            \
  }                                                                                       \
  return fn
#endif

hpd_pdgemm_fn hpd_reference_pdgemm(void)
{
  REFERENCE_OF(hpd_pdgemm_fn, pdgemm_);
}

hpd_pdsyrk_fn hpd_reference_pdsyrk(void)
{
  REFERENCE_OF(hpd_pdsyrk_fn, pdsyrk_);
}

hpd_pdtrxm_fn hpd_reference_pdtrsm(void)
{
  REFERENCE_OF(hpd_pdtrxm_fn, pdtrsm_);
}

hpd_pdtrxm_fn hpd_reference_pdtrmm(void)
{
  REFERENCE_OF(hpd_pdtrxm_fn, pdtrmm_);
}

hpd_pdsymm_fn hpd_reference_pdsymm(void)
{
  REFERENCE_OF(hpd_pdsymm_fn, pdsymm_);
}

hpd_pdsyr2k_fn hpd_reference_pdsyr2k(void)
{
  REFERENCE_OF(hpd_pdsyr2k_fn, pdsyr2k_);
}

hpd_pdlaswp_fn hpd_reference_pdlaswp(void)
{
  REFERENCE_OF(hpd_pdlaswp_fn, pdlaswp_);
}

hpd_pdpotrf_fn hpd_reference_pdpotrf(void)
{
  REFERENCE_OF(hpd_pdpotrf_fn, pdpotrf_);
}

hpd_pdgetrf_fn hpd_reference_pdgetrf(void)
{
  REFERENCE_OF(hpd_pdgetrf_fn, pdgetrf_);
}
