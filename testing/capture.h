/* Test helper: what a function prints on stderr (rank 0 prints hpdaemon's warnings). */
#ifndef HPD_TESTING_CAPTURE_H
#define HPD_TESTING_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Runs fn with stderr going to a temporary file; returns what fn printed (static). */
static inline const char *capture_stderr(void (*fn)(void))
{
  static char text[4096];
  char name[] = "/tmp/hpd-test-stderr-XXXXXX";
  int fd = mkstemp(name);
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  fn();
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  ssize_t n = pread(fd, text, sizeof text - 1, 0);
  text[n > 0 ? n : 0] = '\0';
  close(fd);
  unlink(name);
  return text;
}

#endif
