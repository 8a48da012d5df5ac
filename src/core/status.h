/*
 * The one status that an internal function which can fail returns: HPD_OK, or the kind
 * of failure, whose details (a path, a value) the function has put in its message or its
 * caller's `why` text.  Every failure is negative, so that a caller that only asks
 * whether it worked reads `!= HPD_OK`.  Declared HPD_CHECKED (checked.h), so no status
 * goes unread.  The public API keeps its own codes (HPD_SUCCESS, HPD_ERR_*, hpdaemon.h).
 */
#ifndef HPD_CORE_STATUS_H
#define HPD_CORE_STATUS_H

typedef enum hpd_status {
  HPD_OK = 0,
  HPD_STATUS_INVALID = -1,     /* the input is not what the function takes: text that
                                  does not parse, a value out of range */
  HPD_STATUS_UNAVAILABLE = -2, /* what it needs is absent or refused: a file, a device,
                                  a library, a permission, an MPI call */
  HPD_STATUS_NO_MEMORY = -3,   /* an allocation failed */
  HPD_STATUS_FULL = -4,        /* a table of fixed size has no room left */
  HPD_STATUS_DECLINED = -5,    /* a legal call that this way of serving does not take
                                  (a layout it does not fit); another way serves it */
} hpd_status;

#endif
