#include "abi.h"

#include "log.h"

int hpd_abi_size_ok(const char *call, size_t caller_size, size_t library_size)
{
  if (caller_size == library_size)
    return 1;
  hpd_warn("%s: the caller's struct has %zu bytes, this library's %zu: the program was "
           "built against another hpdaemon.h; rebuild it against this library's header "
           "(nothing was written)",
           call, caller_size, library_size);
  return 0;
}
