/* The unit tests' check: counts, and names the failed condition with its line. */
#ifndef HPD_TESTING_CHECK_H
#define HPD_TESTING_CHECK_H

#include <stdio.h>

static int passed, failed;

#define CHECK(cond)                                                                         \
  do {                                                                                      \
    if (cond) {                                                                             \
      passed++;                                                                             \
    } else {                                                                                \
      failed++;                                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);             \
    }                                                                                       \
  } while (0)

#endif
