/*
 * What a function returns that its caller must look at: a status (0, or negative where it
 * did not do what it says), or the answer the call exists to give.  Dropping it is a
 * compile warning, so no failure goes unnoticed.  Functions whose result a caller may
 * ignore (a previous setting handed back, say) are declared without it.
 */
#ifndef HPD_CORE_CHECKED_H
#define HPD_CORE_CHECKED_H

#include "core/status.h" /* the status such functions return */

#if defined(__GNUC__) || defined(__clang__)
#define HPD_CHECKED __attribute__((warn_unused_result))
#else
#define HPD_CHECKED
#endif

#endif
