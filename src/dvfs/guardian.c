#define _GNU_SOURCE /* _Fork */
#include "dvfs/guardian.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dvfs/plan.h"

static int notify_fd = -1;
static pid_t guardian_pid = -1;

/* Prepared before the fork, since the child may only make system calls: the descriptors
 * it keeps (the plan's and its end of the socket), ascending, and how far to close. */
static int keep[HPD_RESTORE_MAX_FDS + 1];
static int keep_count;
static long open_max;

static void close_fds(unsigned lo, unsigned hi)
{
#ifdef SYS_close_range
  if (syscall(SYS_close_range, lo, hi, 0u) == 0)
    return;
#endif
  for (long fd = lo; fd <= (long)hi && fd < open_max; fd++)
    close((int)fd);
}

/* Nothing of the parent's may run here (no handler, no library state, no MPI), and the
 * descriptors that would keep a launcher waiting (output pipes, the process manager's
 * socket) must go. */
static void guardian_main(int fd) __attribute__((noreturn));
static void guardian_main(int fd)
{
  /* Out of the process group that a launcher kills along with the rank. */
  setsid();
  for (int sig = 1; sig < NSIG; sig++) {
    struct sigaction now;
    if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &now) != 0)
      continue;
    if ((now.sa_flags & SA_SIGINFO) ||
        (now.sa_handler != SIG_DFL && now.sa_handler != SIG_IGN)) {
      struct sigaction sa;
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = SIG_DFL;
      sigaction(sig, &sa, NULL);
    }
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);

  unsigned next = 0;
  for (int i = 0; i < keep_count; i++) {
    if ((unsigned)keep[i] > next)
      close_fds(next, (unsigned)keep[i] - 1);
    next = (unsigned)keep[i] + 1;
  }
  close_fds(next, ~0u);
  /* Every kept descriptor is above 2, so /dev/null opens as 0. */
  int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, 0), dup2(null, 1), dup2(null, 2);
    if (null > 2)
      close(null);
  }

  /* Ready: from here on the launcher's kill of the process group misses it. */
  char byte = 1;
  ssize_t n;
  do
    n = send(fd, &byte, 1, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n != 1)
    _exit(1);
  do
    n = read(fd, &byte, 1);
  while (n < 0 && errno == EINTR);
  /* A byte: the parent restored.  End of file (or a reset): the parent is gone. */
  if (n <= 0)
    hpd_restore_write_plan();
  _exit(0);
}

/* A child the application forks must not hold the socket open (the guardian would outlive
 * this process until that child ends) nor dismiss the guardian. */
static void forget_in_child(void)
{
  if (notify_fd >= 0)
    close(notify_fd);
  notify_fd = -1;
  guardian_pid = -1;
}

static pid_t fork_plain(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  /* No atfork handlers: a BLAS library would stop its threads for a child that only
   * waits. */
  return _Fork();
#else
  return fork();
#endif
}

/* Above the standard descriptors, which the child points at /dev/null. */
static int above_stdio(int fd)
{
  if (fd > 2)
    return fd;
  int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  close(fd);
  return high;
}

hpd_status hpd_guardian_start(char *why, size_t why_size)
{
  static int atfork_registered;
  if (!atfork_registered && pthread_atfork(NULL, NULL, forget_in_child) != 0) {
    snprintf(why, why_size, "cannot start the restoration guardian: pthread_atfork failed");
    return HPD_STATUS_UNAVAILABLE;
  }
  atfork_registered = 1;
  if (notify_fd >= 0)
    hpd_guardian_dismiss();
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    snprintf(why, why_size, "cannot start the restoration guardian: socketpair: %s",
             strerror(errno));
    return HPD_STATUS_UNAVAILABLE;
  }
  sv[0] = above_stdio(sv[0]);
  sv[1] = above_stdio(sv[1]);
  if (sv[0] < 0 || sv[1] < 0) {
    snprintf(why, why_size, "cannot start the restoration guardian: %s", strerror(errno));
    if (sv[0] >= 0)
      close(sv[0]);
    if (sv[1] >= 0)
      close(sv[1]);
    return HPD_STATUS_UNAVAILABLE;
  }
  keep_count = hpd_restore_fds(keep, HPD_RESTORE_MAX_FDS);
  int at = keep_count;
  while (at > 0 && keep[at - 1] > sv[1]) {
    keep[at] = keep[at - 1];
    at--;
  }
  keep[at] = sv[1];
  keep_count++;
  open_max = sysconf(_SC_OPEN_MAX);
  if (open_max < 0 || open_max > (1L << 20))
    open_max = 1L << 20;

  pid_t pid = fork_plain();
  if (pid == 0)
    guardian_main(sv[1]);
  int err = errno;
  close(sv[1]);
  if (pid < 0) {
    close(sv[0]);
    snprintf(why, why_size, "cannot start the restoration guardian: fork: %s",
             strerror(err));
    return HPD_STATUS_UNAVAILABLE;
  }
  /* Arming returns only once the guardian has left the process group and closed what
   * would keep a launcher waiting. */
  char byte;
  ssize_t n;
  do
    n = read(sv[0], &byte, 1);
  while (n < 0 && errno == EINTR);
  if (n != 1) {
    err = n < 0 ? errno : ECHILD;
    close(sv[0]);
    waitpid(pid, NULL, 0);
    snprintf(why, why_size, "the restoration guardian did not start: %s", strerror(err));
    return HPD_STATUS_UNAVAILABLE;
  }
  notify_fd = sv[0];
  guardian_pid = pid;
  return HPD_OK;
}

void hpd_guardian_dismiss(void)
{
  if (notify_fd < 0)
    return;
  char byte = 1;
  ssize_t n;
  do
    n = send(notify_fd, &byte, 1, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  close(notify_fd);
  notify_fd = -1;
  /* It exits at once; the bound only matters for a stopped guardian. */
  for (int i = 0; i < 1000; i++) {
    if (waitpid(guardian_pid, NULL, WNOHANG) != 0)
      break; /* reaped, or reaped by the application already */
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  guardian_pid = -1;
}
