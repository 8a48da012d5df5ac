/* The checks of the calls that fill a public struct (HPD_ABI_VERSION in hpdaemon.h). */
#ifndef HPD_CORE_ABI_H
#define HPD_CORE_ABI_H

#include <stddef.h>

#include "core/checked.h"

/* HPD_SUCCESS if out may be filled: HPD_ERR_INVALID for a null out, HPD_ERR_ABI after a
 * warning that names the call where the caller's struct (caller_size bytes, from its
 * header) is not this library's: the caller was built against another hpdaemon.h, and
 * writing this library's struct would overrun or misplace its fields. */
HPD_CHECKED int hpd_abi_check(const char *call, const void *out, size_t caller_size,
                              size_t library_size);

#endif
