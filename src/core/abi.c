#include "core/abi.h"

#include "core/log.h"
#include "hpdaemon.h"

int hpd_abi_check(const char *call, const void *out, size_t caller_size, size_t library_size)
{
  if (!out)
    return HPD_ERR_INVALID;
  if (caller_size == library_size)
    return HPD_SUCCESS;
  hpd_warn("%s: the caller's struct has %zu bytes, this library's %zu: the program was "
           "built against another hpdaemon.h; rebuild it against this library's header "
           "(nothing was written)",
           call, caller_size, library_size);
  return HPD_ERR_ABI;
}
