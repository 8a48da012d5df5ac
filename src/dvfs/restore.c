#define _GNU_SOURCE /* SA_ONSTACK */
#include "dvfs/restore.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/finalize_hook.h"
#include "core/log.h"
#include "dvfs/guardian.h"
#include "dvfs/plan.h"

/* The signal handler tests and sets the state: it must not hide a lock. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the restore state needs a lock-free atomic int");

enum { PLAN_EMPTY, PLAN_ARMED, PLAN_RAN };

static atomic_int state = PLAN_EMPTY;
/* A child the application forks inherits the plan, the handlers and the exit hook; only
 * the process that armed may run them, or the frequencies would come back while it still
 * switches them. */
static pid_t armed_pid;

/* The signals that end a process without exit handlers and that a handler can see;
 * SIGKILL is the guardian's. */
static const int fatal_signals[] = {SIGINT, SIGTERM, SIGSEGV, SIGABRT, SIGBUS};
#define FATAL_SIGNALS ((int)(sizeof fatal_signals / sizeof fatal_signals[0]))
static struct sigaction original[FATAL_SIGNALS];
static int installed[FATAL_SIGNALS];

static atomic_int hooked_exit, hooked_mpi;

hpd_status hpd_restore_begin(void)
{
  if (hpd_restore_armed())
    return HPD_STATUS_UNAVAILABLE;
  hpd_restore_plan_clear();
  atomic_store(&state, PLAN_EMPTY);
  return HPD_OK;
}

int hpd_restore_armed(void)
{
  return atomic_load(&state) == PLAN_ARMED && getpid() == armed_pid;
}

/* Only the plan's own writes, then the signal goes where it would have gone without
 * hpdaemon.  The guardian is not dismissed: if another thread was still switching, its
 * second pass after this process is gone undoes that too. */
static void on_fatal_signal(int sig)
{
  int saved_errno = errno;
  int armed = PLAN_ARMED;
  if (getpid() == armed_pid && atomic_compare_exchange_strong(&state, &armed, PLAN_RAN))
    hpd_restore_write_plan();
  for (int i = 0; i < FATAL_SIGNALS; i++)
    if (fatal_signals[i] == sig && installed[i])
      sigaction(sig, &original[i], NULL);
  /* Blocked while this handler runs: delivered, with the original disposition, once it
   * returns; a fault re-raises itself anyway by faulting again. */
  raise(sig);
  errno = saved_errno;
}

static void install_signal_handlers(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < FATAL_SIGNALS; i++)
    sigaddset(&sa.sa_mask, fatal_signals[i]);
  /* A stack overflow can only be handled on the alternate stack, where there is one. */
  sa.sa_flags = SA_ONSTACK;
  for (int i = 0; i < FATAL_SIGNALS; i++) {
    struct sigaction now;
    if (sigaction(fatal_signals[i], NULL, &now) != 0)
      continue;
    /* Still ours (a forked child arming again): the original saved then stays. */
    if (!(now.sa_flags & SA_SIGINFO) && now.sa_handler == on_fatal_signal) {
      installed[i] = 1;
      continue;
    }
    installed[i] = 0;
    /* An ignored signal (SIGINT of a background job) must stay without effect. */
    if (!(now.sa_flags & SA_SIGINFO) && now.sa_handler == SIG_IGN)
      continue;
    original[i] = now;
    installed[i] = sigaction(fatal_signals[i], &sa, NULL) == 0;
  }
}

/* Only where the handler is still ours: one the application installed later stays. */
static void uninstall_signal_handlers(void)
{
  for (int i = 0; i < FATAL_SIGNALS; i++) {
    struct sigaction now;
    if (installed[i] && sigaction(fatal_signals[i], NULL, &now) == 0 &&
        !(now.sa_flags & SA_SIGINFO) && now.sa_handler == on_fatal_signal)
      sigaction(fatal_signals[i], &original[i], NULL);
    installed[i] = 0;
  }
}

static void restore_at_exit(void)
{
  hpd_restore_run();
}

/* Once per process: MPI is initialized once, and its finalize runs the hook. */
static void hook_mpi_finalize(void)
{
  if (hpd_finalize_hook(hpd_restore_run, &hooked_mpi) != HPD_OK)
    hpd_warn("cannot hook MPI_Finalize; the frequencies are restored at exit instead");
}

hpd_status hpd_restore_arm(char *why, size_t why_size)
{
  if (hpd_restore_armed()) {
    snprintf(why, why_size, "restoration is already armed");
    return HPD_STATUS_UNAVAILABLE;
  }
  if (!atomic_exchange(&hooked_exit, 1) && atexit(restore_at_exit) != 0) {
    atomic_store(&hooked_exit, 0);
    snprintf(why, why_size, "cannot register the restoration at exit");
    return HPD_STATUS_UNAVAILABLE;
  }
  /* First, as the one step that can fail with something to undo. */
  if (hpd_guardian_start(why, why_size) != HPD_OK)
    return HPD_STATUS_UNAVAILABLE;
  armed_pid = getpid();
  atomic_store(&state, PLAN_ARMED);
  install_signal_handlers();
  hook_mpi_finalize();
  return HPD_OK;
}

void hpd_restore_run(void)
{
  int armed = PLAN_ARMED;
  if (getpid() != armed_pid || !atomic_compare_exchange_strong(&state, &armed, PLAN_RAN))
    return;
  hpd_restore_write_plan();
  /* Only after the last write: if this process dies before, the guardian does it all. */
  hpd_guardian_dismiss();
  uninstall_signal_handlers();
}
