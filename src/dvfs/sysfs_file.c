#include "dvfs/sysfs_file.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int hpd_sysfs_open(const char *path)
{
  /* Non-blocking so that opening a FIFO fails instead of waiting for a reader; writes to
   * real cpufreq files do not block either way. */
  int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0 || fd > 2)
    return fd;
  int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  int err = errno;
  close(fd);
  errno = err;
  return high;
}

int hpd_sysfs_put(int fd, const char *bytes, size_t len)
{
  (void)lseek(fd, 0, SEEK_SET);
  ssize_t n;
  do
    n = write(fd, bytes, len);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    return errno;
  if ((size_t)n != len)
    return EIO;
  if (ftruncate(fd, (off_t)len) != 0) {
    /* sysfs ignores sizes and FIFOs have none; a regular file standing for a cpufreq
     * file would otherwise keep the tail of a longer earlier value */
  }
  return 0;
}

size_t hpd_sysfs_format_uint(unsigned value, char *text)
{
  char digits[10];
  size_t n = 0;
  do {
    digits[n++] = (char)('0' + value % 10);
    value /= 10;
  } while (value);
  for (size_t i = 0; i < n; i++)
    text[i] = digits[n - 1 - i];
  text[n] = '\n';
  text[n + 1] = '\0';
  return n + 1;
}
