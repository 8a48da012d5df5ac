/* The size check of the calls that fill a public struct (HPD_ABI_VERSION in hpdaemon.h). */
#ifndef HPD_CORE_ABI_H
#define HPD_CORE_ABI_H

#include <stddef.h>

/* 1 if the caller's struct (caller_size bytes, from its header) is this library's;
 * otherwise 0 after a warning that names the call: the caller was built against another
 * hpdaemon.h, and writing this library's struct would overrun or misplace its fields. */
int hpd_abi_size_ok(const char *call, size_t caller_size, size_t library_size);

#endif
