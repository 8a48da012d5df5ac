/*
 * load_gen: a fixed background load for the benchmarks, so that figures "under load" mean
 * the same thing on every run.  It starts W worker processes; each one computes (a
 * floating-point loop) for BUSY milliseconds, then sleeps IDLE milliseconds, over and
 * over, and all of them stop by themselves after SECONDS (or on SIGINT/SIGTERM).  With
 * --idle-ms 0 each worker keeps a core busy all the time: W workers make a load average
 * of about W.
 *
 *   load_gen [--workers W] [--busy-ms B] [--idle-ms I] [--seconds S]
 *   defaults: 3 workers, 10 ms busy, 0 ms idle, 600 seconds
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
  (void)sig;
  stop = 1;
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void work(double busy_s, double idle_s, double end)
{
  volatile double x = 1.0;
  while (!stop && now() < end) {
    double until = now() + busy_s;
    while (now() < until)
      for (int i = 0; i < 1000; i++)
        x = x * 1.0000001 + 1e-9;
    if (idle_s > 0)
      nanosleep(&(struct timespec){(time_t)idle_s, (long)((idle_s - (time_t)idle_s) * 1e9)},
                NULL);
  }
}

static int number(const char *text, double lo, double hi, double *out)
{
  char *end;
  double v = strtod(text, &end);
  if (end == text || *end || v < lo || v > hi)
    return -1;
  *out = v;
  return 0;
}

int main(int argc, char **argv)
{
  double workers = 3, busy_ms = 10, idle_ms = 0, seconds = 600;
  for (int i = 1; i < argc; i++) {
    double *field = !strcmp(argv[i], "--workers")   ? &workers
                    : !strcmp(argv[i], "--busy-ms") ? &busy_ms
                    : !strcmp(argv[i], "--idle-ms") ? &idle_ms
                    : !strcmp(argv[i], "--seconds") ? &seconds
                                                    : NULL;
    if (!field || i + 1 >= argc || number(argv[i + 1], 0, 1e6, field) != 0 ||
        (field == &workers && (workers < 1 || workers > 256 || workers != (int)workers))) {
      fprintf(stderr, "usage: load_gen [--workers W] [--busy-ms B] [--idle-ms I] "
                      "[--seconds S]\n");
      return 2;
    }
    i++;
  }
  struct sigaction sa = {.sa_handler = on_signal};
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  double end = now() + seconds;
  pid_t pids[256];
  int started = 0;
  for (; started < (int)workers; started++) {
    pid_t pid = fork();
    if (pid == 0) {
      work(busy_ms * 1e-3, idle_ms * 1e-3, end);
      _exit(0);
    }
    if (pid < 0) {
      perror("load_gen: fork");
      break;
    }
    pids[started] = pid;
  }
  /* A signal interrupts the wait (no SA_RESTART); the workers then get it too, since
   * only a shell's Ctrl-C reaches the whole process group. */
  int left = started;
  while (left > 0) {
    if (wait(NULL) > 0) {
      left--;
      continue;
    }
    if (stop)
      for (int w = 0; w < started; w++)
        kill(pids[w], SIGTERM);
  }
  return 0;
}
