/*
 * The sysfs and cpupower backends against fake cpufreq trees: probing, switching through
 * scaling_setspeed and by pinning, refused writes, and restoration on every way out (the
 * backend's restore, exit, MPI_Finalize, SIGTERM, SIGSEGV, and SIGKILL through the
 * guardian process).
 *
 * Refusals: file modes refuse nothing to root, so the permission case runs in a child that
 * drops to uid and gid 65534 when started as root (and relies on read-only modes
 * otherwise); a write refused after a successful open comes from a scaling_setspeed that
 * is a link to /dev/full (ENOSPC).  libcpupower has the kernel's path built in: its
 * backend runs against a fake tree mounted over it in a mount namespace of its own, where
 * this process may make one, and is skipped elsewhere.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dvfs/backend.h"
#include "dvfs/cpus.h"
#include "dvfs/domains.h"

#include "check.h"

static hpd_cpus online, affinity;
static int first_cpu; /* the rank's lowest CPU: the one a shared domain is written through */

/* ---- fake trees ------------------------------------------------------------------ */

enum speed_kind { SPEED_FILE, SPEED_FIFO, SPEED_FULL };

typedef struct tree_spec {
  const char *driver, *governor, *governors;
  const char *freqs; /* NULL: no scaling_available_frequencies */
  const char *min, *max, *hw_min, *hw_max;
  int shared; /* 1: one domain holding every CPU */
  enum speed_kind speed;
  const char *speed_value; /* SPEED_FILE */
} tree_spec;

static const tree_spec acpi = {"acpi-cpufreq", "ondemand", "ondemand userspace performance",
                               "800000 1300000 1800000 2500000", "800000", "2500000",
                               "800000", "2500000", 0, SPEED_FIFO, NULL};

static const char *file_names[] = {
    "scaling_driver", "scaling_governor", "scaling_available_governors",
    "scaling_available_frequencies", "scaling_min_freq", "scaling_max_freq",
    "cpuinfo_min_freq", "cpuinfo_max_freq", "cpuinfo_transition_latency", "related_cpus",
    "affected_cpus", "scaling_setspeed"};

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(2);
  }
  fputs(text, f);
  fclose(f);
}

static void put(const char *root, int cpu, const char *name, const char *value)
{
  char path[512], text[2048];
  snprintf(path, sizeof path, "%s/cpu%d/cpufreq/%s", root, cpu, name);
  snprintf(text, sizeof text, "%s\n", value);
  write_file(path, text);
}

static char *read_text(const char *path)
{
  static char text[4096];
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
  if (fd >= 0)
    close(fd);
  text[n > 0 ? n : 0] = '\0';
  return fd < 0 ? NULL : text;
}

static const char *get(const char *root, int cpu, const char *name)
{
  char path[512];
  snprintf(path, sizeof path, "%s/cpu%d/cpufreq/%s", root, cpu, name);
  const char *text = read_text(path);
  return text ? text : "(missing)";
}

static void cpu_list_text(const hpd_cpus *set, char sep, char *text, size_t size)
{
  size_t used = 0;
  text[0] = '\0';
  for (int c = hpd_cpus_next(set, 0); c >= 0; c = hpd_cpus_next(set, c + 1))
    used += (size_t)snprintf(text + used, size - used, "%s%d", used ? (char[]){sep, 0} : "",
                             c);
}

static char *make_tree(const tree_spec *s)
{
  static char roots[16][64];
  static int made;
  char *root = roots[made++ % 16];
  snprintf(root, 64, "/tmp/hpd-dvfs-XXXXXX");
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    exit(2);
  }
  chmod(root, 0755);
  char path[512], all[1024];
  cpu_list_text(&online, ',', all, sizeof all);
  snprintf(path, sizeof path, "%s/online", root);
  write_file(path, all);
  cpu_list_text(&online, ' ', all, sizeof all);
  for (int c = hpd_cpus_next(&online, 0); c >= 0; c = hpd_cpus_next(&online, c + 1)) {
    snprintf(path, sizeof path, "%s/cpu%d", root, c);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/cpu%d/cpufreq", root, c);
    mkdir(path, 0755);
    char self[16];
    snprintf(self, sizeof self, "%d", c);
    put(root, c, "scaling_driver", s->driver);
    put(root, c, "scaling_governor", s->governor);
    put(root, c, "scaling_available_governors", s->governors);
    if (s->freqs)
      put(root, c, "scaling_available_frequencies", s->freqs);
    put(root, c, "scaling_min_freq", s->min);
    put(root, c, "scaling_max_freq", s->max);
    put(root, c, "cpuinfo_min_freq", s->hw_min);
    put(root, c, "cpuinfo_max_freq", s->hw_max);
    put(root, c, "cpuinfo_transition_latency", "70000");
    put(root, c, "related_cpus", s->shared ? all : self);
    put(root, c, "affected_cpus", s->shared ? all : self);
    snprintf(path, sizeof path, "%s/cpu%d/cpufreq/scaling_setspeed", root, c);
    if (s->speed == SPEED_FIFO)
      mkfifo(path, 0644);
    else if (s->speed == SPEED_FULL)
      symlink("/dev/full", path);
    else
      put(root, c, "scaling_setspeed", s->speed_value);
  }
  return root;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static void remove_tree(const char *root)
{
  nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Every regular file of the tree, byte for byte (FIFOs and links left out). */
static char *snapshot(const char *root)
{
  size_t size = 65536, used = 0;
  char *all = malloc(size);
  all[0] = '\0';
  for (int c = hpd_cpus_next(&online, 0); c >= 0; c = hpd_cpus_next(&online, c + 1))
    for (size_t i = 0; i < sizeof file_names / sizeof file_names[0]; i++) {
      char path[512];
      struct stat st;
      snprintf(path, sizeof path, "%s/cpu%d/cpufreq/%s", root, c, file_names[i]);
      if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        continue;
      used += (size_t)snprintf(all + used, size - used, "cpu%d/%s=%s|", c, file_names[i],
                               read_text(path));
    }
  return all;
}

static int same_snapshot(const char *root, const char *before)
{
  char *now = snapshot(root);
  int same = strcmp(now, before) == 0;
  if (!same)
    fprintf(stderr, "tree %s differs:\n  before %s\n  now    %s\n", root, before, now);
  free(now);
  return same;
}

static hpd_settings config_for(const char *root)
{
  hpd_settings cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.dvfs = HPD_DVFS_SYSFS;
  snprintf(cfg.sysfs_root, sizeof cfg.sysfs_root, "%s", root);
  return cfg;
}

/* ---- CPU lists ------------------------------------------------------------------- */

static void test_cpu_lists(void)
{
  hpd_cpus s;
  CHECK(hpd_cpus_parse("0-3,5\n", &s) == HPD_OK && hpd_cpus_count(&s) == 5 &&
        hpd_cpus_has(&s, 3) && !hpd_cpus_has(&s, 4) && hpd_cpus_has(&s, 5));
  CHECK(hpd_cpus_parse("0 1 2 3 \n", &s) == HPD_OK && hpd_cpus_count(&s) == 4);
  CHECK(hpd_cpus_parse("1,,2 , 7-8", &s) == HPD_OK && hpd_cpus_count(&s) == 4 &&
        hpd_cpus_next(&s, 0) == 1 && hpd_cpus_next(&s, 3) == 7);
  CHECK(hpd_cpus_parse("", &s) == HPD_OK && hpd_cpus_count(&s) == 0);
  CHECK(hpd_cpus_parse("8191", &s) == HPD_OK && hpd_cpus_next(&s, 0) == 8191);
  static const char *bad[] = {"3-1", "a", "0-", "-1", "1-2-3", "0x1", "8192", "0;1", "1.5"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK(hpd_cpus_parse(bad[i], &s) == HPD_STATUS_INVALID);
  CHECK(hpd_cpus_next(&s, 0) == 8191); /* a failed parse leaves the set alone */
}

/* ---- probing ---------------------------------------------------------------------- */

static void test_probe(void)
{
  tree_spec spec = acpi;
  spec.freqs = "2500000 1800000 1300000 800000 800000";
  char *root = make_tree(&spec);
  /* A marker in every scaling_setspeed FIFO: a probe that read one would consume it. */
  int fifo[64];
  int n = 0;
  for (int c = hpd_cpus_next(&online, 0); c >= 0 && n < 64; c = hpd_cpus_next(&online, c + 1)) {
    char path[512];
    snprintf(path, sizeof path, "%s/cpu%d/cpufreq/scaling_setspeed", root, c);
    fifo[n] = open(path, O_RDWR | O_NONBLOCK);
    CHECK(fifo[n] >= 0 && write(fifo[n], "S\n", 2) == 2);
    n++;
  }
  hpd_settings cfg = config_for(root);
  hpd_dvfs_probe p;
  char why[HPD_DVFS_WHY_MAX] = "";
  CHECK(hpd_dvfs_backend_sysfs.probe(&cfg, &p, why, sizeof why) == 0);
  if (why[0])
    fprintf(stderr, "probe: %s\n", why);
  CHECK(p.available_count == 4 && p.available_khz[0] == 800000 &&
        p.available_khz[1] == 1300000 && p.available_khz[2] == 1800000 &&
        p.available_khz[3] == 2500000);
  CHECK(p.min_khz == 800000 && p.max_khz == 2500000 && p.latency_ns == 70000);
  CHECK(strcmp(p.driver, "acpi-cpufreq") == 0 && strcmp(p.governor, "ondemand") == 0);
  CHECK(p.domains == hpd_cpus_count(&affinity));
  for (int i = 0, c = hpd_cpus_next(&affinity, 0); i < p.domains && c >= 0;
       i++, c = hpd_cpus_next(&affinity, c + 1))
    CHECK(p.domain_id[i] == c);
  CHECK(p.bound == !hpd_cpus_subset(&online, &affinity));
  for (int i = 0; i < n; i++) {
    char marker[4] = "";
    CHECK(read(fifo[i], marker, sizeof marker) == 2 && memcmp(marker, "S\n", 2) == 0);
    close(fifo[i]);
  }
  remove_tree(root);

  /* One domain for every CPU: its id is the lowest of related_cpus. */
  spec = acpi;
  spec.shared = 1;
  root = make_tree(&spec);
  cfg = config_for(root);
  CHECK(hpd_dvfs_backend_sysfs.probe(&cfg, &p, why, sizeof why) == 0);
  CHECK(p.domains == 1 && p.domain_id[0] == hpd_cpus_next(&online, 0));
  /* affected_cpus when related_cpus is missing, with commas */
  char path[512];
  for (int c = hpd_cpus_next(&online, 0); c >= 0; c = hpd_cpus_next(&online, c + 1)) {
    snprintf(path, sizeof path, "%s/cpu%d/cpufreq/related_cpus", root, c);
    unlink(path);
  }
  char list[1024];
  cpu_list_text(&online, ',', list, sizeof list);
  for (int c = hpd_cpus_next(&online, 0); c >= 0; c = hpd_cpus_next(&online, c + 1))
    put(root, c, "affected_cpus", list);
  CHECK(hpd_dvfs_backend_sysfs.probe(&cfg, &p, why, sizeof why) == 0 && p.domains == 1);
  /* the online file absent: the cpuN entries count */
  snprintf(path, sizeof path, "%s/online", root);
  unlink(path);
  CHECK(hpd_dvfs_backend_sysfs.probe(&cfg, &p, why, sizeof why) == 0 &&
        p.bound == !hpd_cpus_subset(&online, &affinity));
  remove_tree(root);

  /* intel_pstate: no table, the hardware limits are the range. */
  tree_spec pstate = {"intel_pstate", "powersave", "performance powersave", NULL, "400000",
                      "4000000", "400000", "4000000", 0, SPEED_FILE, "<unsupported>"};
  root = make_tree(&pstate);
  cfg = config_for(root);
  CHECK(hpd_dvfs_backend_sysfs.probe(&cfg, &p, why, sizeof why) == 0);
  CHECK(p.available_count == 0 && p.min_khz == 400000 && p.max_khz == 4000000 &&
        strcmp(p.driver, "intel_pstate") == 0 && strcmp(p.governor, "powersave") == 0);

  /* A CPU of the rank without cpufreq: one line naming it. */
  int lost = hpd_cpus_next(&affinity, 0);
  for (size_t i = 0; i < sizeof file_names / sizeof file_names[0]; i++) {
    snprintf(path, sizeof path, "%s/cpu%d/cpufreq/%s", root, lost, file_names[i]);
    unlink(path);
  }
  snprintf(path, sizeof path, "%s/cpu%d/cpufreq", root, lost);
  CHECK(rmdir(path) == 0);
  char expected[1024];
  snprintf(expected, sizeof expected, "sysfs: %s: No such file or directory", path);
  CHECK(hpd_dvfs_backend_sysfs.probe(&cfg, &p, why, sizeof why) == HPD_STATUS_UNAVAILABLE);
  CHECK(strcmp(why, expected) == 0);
  if (strcmp(why, expected) != 0)
    fprintf(stderr, "  got      %s\n  expected %s\n", why, expected);
  remove_tree(root);

  /* A rank bound to one CPU switches that CPU's domain only. */
  if (hpd_cpus_count(&affinity) > 1) {
    root = make_tree(&acpi);
    cfg = config_for(root);
    int last = -1;
    for (int c = hpd_cpus_next(&affinity, 0); c >= 0; c = hpd_cpus_next(&affinity, c + 1))
      last = c;
    pid_t pid = fork();
    if (pid == 0) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(last, &one);
      if (sched_setaffinity(0, sizeof one, &one) != 0)
        _exit(3);
      int ok = hpd_dvfs_backend_sysfs.probe(&cfg, &p, why, sizeof why) == 0 && p.bound == 1 &&
               p.domains == 1 && p.domain_id[0] == last;
      _exit(ok ? 0 : 1);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    remove_tree(root);
  }
}

/* ---- pinning order ---------------------------------------------------------------- */

/* A kernel that refuses min > max, as those before frequency QoS did. */
static unsigned fake_min, fake_max;
static char order[64];

static int strict_limit(hpd_domain *d, int is_max, unsigned khz)
{
  (void)d;
  if (is_max ? khz < fake_min : khz > fake_max)
    return EINVAL;
  *(is_max ? &fake_max : &fake_min) = khz;
  strcat(order, is_max ? "M" : "m");
  return 0;
}

static void test_pin_order(void)
{
  hpd_domain d;
  memset(&d, 0, sizeof d);
  fake_min = 800000, fake_max = 2500000, d.pinned_max = 2500000;
  static const struct { unsigned khz; const char *order; } steps[] = {
      {1300000, "mM"}, {2500000, "Mm"}, {800000, "mM"}, {800000, "mM"}, {1800000, "Mm"}};
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
    order[0] = '\0';
    CHECK(hpd_domain_pin(&d, steps[i].khz, strict_limit) == 0);
    CHECK(strcmp(order, steps[i].order) == 0 && fake_min == steps[i].khz &&
          fake_max == steps[i].khz && d.pinned_max == steps[i].khz);
  }
  /* An administrator's lower maximum: going above it raises the maximum first. */
  fake_min = 800000, fake_max = 1800000, d.pinned_max = 1800000;
  order[0] = '\0';
  CHECK(hpd_domain_pin(&d, 2500000, strict_limit) == 0 && strcmp(order, "Mm") == 0);
}

/* ---- switching -------------------------------------------------------------------- */

static pid_t child_of(pid_t ppid);

typedef struct fifo_reader {
  int fd;
  char text[256];
  size_t used;
} fifo_reader;

static void *read_fifo(void *arg)
{
  fifo_reader *r = arg;
  while (r->used < sizeof r->text - 1 && !strstr(r->text, "STOP\n")) {
    ssize_t n = read(r->fd, r->text + r->used, sizeof r->text - 1 - r->used);
    if (n <= 0)
      break;
    r->used += (size_t)n;
    r->text[r->used] = '\0';
  }
  return NULL;
}

static void test_userspace_switching(void)
{
  tree_spec spec = acpi;
  spec.shared = 1;
  char *root = make_tree(&spec);
  char *before = snapshot(root);
  char path[512];
  snprintf(path, sizeof path, "%s/cpu%d/cpufreq/scaling_setspeed", root, first_cpu);
  /* Read and write ends at once: the reader never sees an end of file in between. */
  fifo_reader reader = {.fd = open(path, O_RDWR), .used = 0};
  reader.text[0] = '\0';
  pthread_t thread;
  int reading = reader.fd >= 0 && pthread_create(&thread, NULL, read_fifo, &reader) == 0;
  CHECK(reading);

  hpd_settings cfg = config_for(root);
  hpd_dvfs_probe p;
  char why[HPD_DVFS_WHY_MAX] = "";
  CHECK(hpd_dvfs_backend_sysfs.probe(&cfg, &p, why, sizeof why) == 0);
  CHECK(hpd_dvfs_backend_sysfs.arm(&cfg, why, sizeof why) == 0);
  if (why[0])
    fprintf(stderr, "arm: %s\n", why);
  CHECK(strcmp(get(root, first_cpu, "scaling_governor"), "userspace\n") == 0);
  CHECK(hpd_dvfs_backend_sysfs.arm(&cfg, why, sizeof why) == HPD_STATUS_UNAVAILABLE); /* armed already */
  static const unsigned seq[] = {1300000, 800000, 2500000, 800000};
  for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++)
    CHECK(hpd_dvfs_backend_sysfs.set(seq[i], HPD_PHASE_BROADCAST) == 0);
  hpd_dvfs_backend_sysfs.restore();
  hpd_dvfs_backend_sysfs.restore();
  CHECK(hpd_dvfs_backend_sysfs.set(1300000, HPD_PHASE_BROADCAST) == ECANCELED);
  CHECK(same_snapshot(root, before));
  if (reading) {
    CHECK(write(reader.fd, "STOP\n", 5) == 5);
    pthread_join(thread, NULL);
  }
  CHECK(strcmp(reader.text, "1300000\n800000\n2500000\n800000\nSTOP\n") == 0);
  if (strcmp(reader.text, "1300000\n800000\n2500000\n800000\nSTOP\n") != 0)
    fprintf(stderr, "setspeed received: %s\n", reader.text);
  close(reader.fd);
  free(before);
  remove_tree(root);

  /* Under userspace already: the original set speed comes back too. */
  spec = acpi;
  spec.governor = "userspace";
  spec.speed = SPEED_FILE;
  spec.speed_value = "1800000";
  root = make_tree(&spec);
  before = snapshot(root);
  cfg = config_for(root);
  CHECK(hpd_dvfs_backend_sysfs.arm(&cfg, why, sizeof why) == 0);
  CHECK(hpd_dvfs_backend_sysfs.set(800000, HPD_PHASE_BROADCAST) == 0);
  for (int c = hpd_cpus_next(&affinity, 0); c >= 0; c = hpd_cpus_next(&affinity, c + 1))
    CHECK(strcmp(get(root, c, "scaling_setspeed"), "800000\n") == 0);
  /* A child forked by the application exits: neither it nor its exit restores anything,
   * and the guardian stays. */
  fflush(NULL);
  pid_t child = fork();
  if (child == 0)
    exit(hpd_dvfs_backend_sysfs.set(1300000, HPD_PHASE_BROADCAST) == ECANCELED ? 0 : 1);
  int status = -1;
  waitpid(child, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK(strcmp(get(root, first_cpu, "scaling_setspeed"), "800000\n") == 0);
  pid_t guardian = child_of(getpid());
  CHECK(guardian > 0 && kill(guardian, 0) == 0 && waitpid(guardian, &status, WNOHANG) == 0);
  CHECK(hpd_dvfs_backend_sysfs.set(1300000, HPD_PHASE_BROADCAST) == 0);
  hpd_dvfs_backend_sysfs.restore();
  CHECK(same_snapshot(root, before));
  free(before);
  remove_tree(root);
}

static void test_pinning(void)
{
  tree_spec spec = acpi;
  spec.governors = "ondemand performance";
  spec.speed = SPEED_FILE;
  spec.speed_value = "<unsupported>";
  char *root = make_tree(&spec);
  char *before = snapshot(root);
  hpd_settings cfg = config_for(root);
  char why[HPD_DVFS_WHY_MAX] = "";
  CHECK(hpd_dvfs_backend_sysfs.arm(&cfg, why, sizeof why) == 0);
  CHECK(same_snapshot(root, before)); /* arming alone writes nothing here */
  static const unsigned seq[] = {1300000, 2500000, 800000, 1800000};
  static const char *text[] = {"1300000\n", "2500000\n", "800000\n", "1800000\n"};
  for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
    CHECK(hpd_dvfs_backend_sysfs.set(seq[i], HPD_PHASE_BROADCAST) == 0);
    for (int c = hpd_cpus_next(&affinity, 0); c >= 0; c = hpd_cpus_next(&affinity, c + 1)) {
      CHECK(strcmp(get(root, c, "scaling_min_freq"), text[i]) == 0);
      CHECK(strcmp(get(root, c, "scaling_max_freq"), text[i]) == 0);
      CHECK(strcmp(get(root, c, "scaling_governor"), "ondemand\n") == 0);
      CHECK(strcmp(get(root, c, "scaling_setspeed"), "<unsupported>\n") == 0);
    }
  }
  hpd_dvfs_backend_sysfs.restore();
  CHECK(same_snapshot(root, before));
  free(before);
  remove_tree(root);
}

/* ---- refusals --------------------------------------------------------------------- */

static void test_refusals(void)
{
  tree_spec spec = acpi;
  spec.speed = SPEED_FULL;
  char *root = make_tree(&spec);
  char *before = snapshot(root);
  hpd_settings cfg = config_for(root);
  char why[HPD_DVFS_WHY_MAX] = "";
  CHECK(hpd_dvfs_backend_sysfs.arm(&cfg, why, sizeof why) == 0);
  CHECK(hpd_dvfs_backend_sysfs.set(800000, HPD_PHASE_BROADCAST) == ENOSPC);
  hpd_dvfs_backend_sysfs.restore();
  CHECK(same_snapshot(root, before));
  free(before);
  remove_tree(root);

  spec = acpi;
  spec.speed = SPEED_FILE;
  spec.speed_value = "<unsupported>";
  root = make_tree(&spec);
  before = snapshot(root);
  cfg = config_for(root);
  if (geteuid() != 0)
    for (int c = hpd_cpus_next(&online, 0); c >= 0; c = hpd_cpus_next(&online, c + 1))
      for (size_t i = 0; i < sizeof file_names / sizeof file_names[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/cpu%d/cpufreq/%s", root, c, file_names[i]);
        chmod(path, 0444);
      }
  int out[2];
  CHECK(pipe(out) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
      _exit(3);
    hpd_dvfs_probe p;
    char probe_why[HPD_DVFS_WHY_MAX] = "", arm_why[HPD_DVFS_WHY_MAX] = "";
    int probed = hpd_dvfs_backend_sysfs.probe(&cfg, &p, probe_why, sizeof probe_why);
    int armed = hpd_dvfs_backend_sysfs.arm(&cfg, arm_why, sizeof arm_why);
    dprintf(out[1], "%d %d\n%s\n%s\n", probed, armed, probe_why, arm_why);
    _exit(0);
  }
  close(out[1]);
  char text[4096] = "";
  size_t used = 0;
  ssize_t n;
  while ((n = read(out[0], text + used, sizeof text - 1 - used)) > 0)
    used += (size_t)n;
  text[used] = '\0';
  close(out[0]);
  int status = -1;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  char expected[1024];
  snprintf(expected, sizeof expected,
           "%d %d\nsysfs: %s/cpu%d/cpufreq/scaling_governor: Permission denied\n"
           "sysfs: %s/cpu%d/cpufreq/scaling_governor: Permission denied\n",
           HPD_STATUS_UNAVAILABLE, HPD_STATUS_UNAVAILABLE, root, first_cpu, root, first_cpu);
  CHECK(strcmp(text, expected) == 0);
  if (strcmp(text, expected) != 0)
    fprintf(stderr, "  got      %s  expected %s", text, expected);
  CHECK(same_snapshot(root, before));
  free(before);
  remove_tree(root);
}

/* ---- every way out ---------------------------------------------------------------- */

enum ending { END_SIGTERM, END_SIGSEGV, END_SIGKILL, END_EXIT };

static int *volatile nowhere;
static int chained_fd = -1;

/* The application's own handler, there before arming: it must still run, after the
 * restoration, and still end the process. */
static void application_handler(int sig)
{
  if (write(chained_fd, "h", 1) != 1)
    _exit(6);
  signal(sig, SIG_DFL);
  raise(sig);
}

/* The child of ppid, or -1. */
static pid_t child_of(pid_t ppid)
{
  DIR *proc = opendir("/proc");
  struct dirent *e;
  pid_t found = -1;
  while (proc && (e = readdir(proc)) != NULL) {
    char path[300], stat_text[512];
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f)
      continue;
    size_t n = fread(stat_text, 1, sizeof stat_text - 1, f);
    fclose(f);
    stat_text[n] = '\0';
    const char *close_paren = strrchr(stat_text, ')');
    int parent;
    if (close_paren && sscanf(close_paren + 2, "%*c %d", &parent) == 1 && parent == ppid)
      found = atoi(e->d_name);
  }
  if (proc)
    closedir(proc);
  return found;
}

/* Its descriptors: /dev/null on 0-2, the tree's files, its socket; nothing else. */
static int guardian_fds_ok(pid_t guardian, const char *root)
{
  char dir[64];
  snprintf(dir, sizeof dir, "/proc/%d/fd", (int)guardian);
  DIR *d = opendir(dir);
  struct dirent *e;
  int ok = d != NULL, sockets = 0, files = 0;
  while (d && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char path[512], target[512];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    ssize_t n = readlink(path, target, sizeof target - 1);
    target[n > 0 ? n : 0] = '\0';
    int fd = atoi(e->d_name);
    if (fd <= 2)
      ok &= strcmp(target, "/dev/null") == 0;
    else if (strncmp(target, "socket:", 7) == 0)
      sockets++;
    else if (strncmp(target, root, strlen(root)) == 0)
      files++;
    else
      ok = 0, fprintf(stderr, "guardian holds %d -> %s\n", fd, target);
  }
  if (d)
    closedir(d);
  return ok && sockets == 1 && files > 0;
}

static pid_t wait_for(pid_t pid, int *status, double seconds)
{
  for (int i = 0; i < (int)(seconds * 1000); i++) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r != 0)
      return r;
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  return 0;
}

static void test_ending(enum ending how)
{
  tree_spec spec = acpi;
  spec.governor = "userspace"; /* so that scaling_setspeed is part of the state */
  spec.speed = SPEED_FILE;
  spec.speed_value = "1800000";
  char *root = make_tree(&spec);
  char *before = snapshot(root);
  hpd_settings cfg = config_for(root);
  int ready[2], go[2], chained[2];
  CHECK(pipe(ready) == 0 && pipe(go) == 0 && pipe(chained) == 0);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    chained_fd = chained[1];
    signal(SIGTERM, application_handler);
    /* The MPI library's transport may print a backtrace from its own handler. */
    signal(SIGSEGV, SIG_DFL);
    /* An ignored signal stays ignored. */
    signal(SIGINT, SIG_IGN);
    char why[HPD_DVFS_WHY_MAX];
    char byte = hpd_dvfs_backend_sysfs.arm(&cfg, why, sizeof why) == 0 &&
                        hpd_dvfs_backend_sysfs.set(800000, HPD_PHASE_BROADCAST) == 0
                    ? 'r'
                    : 'f';
    if (write(ready[1], &byte, 1) != 1 || read(go[0], &byte, 1) != 1)
      _exit(4);
    if (how == END_SIGTERM)
      raise(SIGTERM);
    else if (how == END_SIGSEGV)
      *nowhere = 1;
    else if (how == END_EXIT) {
      raise(SIGINT);
      exit(0);
    }
    pause();
    _exit(5);
  }
  close(ready[1]);
  close(go[0]);
  close(chained[1]);
  char byte = 0;
  CHECK(read(ready[0], &byte, 1) == 1 && byte == 'r');
  CHECK(strcmp(get(root, first_cpu, "scaling_setspeed"), "800000\n") == 0);
  pid_t guardian = child_of(pid);
  CHECK(guardian > 0);
  CHECK(guardian > 0 && getsid(guardian) == guardian && getpgid(guardian) != getpgid(pid));
  CHECK(guardian > 0 && guardian_fds_ok(guardian, root));
  /* Stopped, so that what is restored is the handler's doing, not the guardian's. */
  if (how == END_SIGTERM || how == END_SIGSEGV)
    kill(guardian, SIGSTOP);
  int status = -1;
  if (how == END_SIGKILL)
    kill(pid, SIGKILL);
  else
    CHECK(write(go[1], "g", 1) == 1);
  CHECK(wait_for(pid, &status, 5) == pid);
  int expected_signal = how == END_SIGTERM ? SIGTERM : how == END_SIGSEGV ? SIGSEGV : SIGKILL;
  if (how == END_EXIT)
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  else
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == expected_signal);
  if (how == END_SIGKILL) {
    /* The guardian, now this process's child (subreaper), restores and exits 0. */
    int guardian_status = -1;
    CHECK(wait_for(guardian, &guardian_status, 2) == guardian);
    CHECK(WIFEXITED(guardian_status) && WEXITSTATUS(guardian_status) == 0);
  }
  CHECK(same_snapshot(root, before));
  if (how == END_SIGTERM || how == END_SIGSEGV) {
    kill(guardian, SIGKILL);
    CHECK(wait_for(guardian, &status, 2) == guardian);
  }
  if (how == END_EXIT) /* dismissed and reaped before the child exited */
    CHECK(waitpid(-1, &status, WNOHANG) == -1 && errno == ECHILD);
  byte = 0;
  CHECK(read(chained[0], &byte, 1) == (how == END_SIGTERM) && (how != END_SIGTERM || byte == 'h'));
  close(chained[0]);
  close(ready[0]);
  close(go[1]);
  free(before);
  remove_tree(root);
}

/* ---- cpupower ----------------------------------------------------------------------- */

static void test_cpupower(void)
{
  hpd_settings cfg = config_for("/sys/devices/system/cpu");
  hpd_dvfs_probe p;
  char why[HPD_DVFS_WHY_MAX] = "";
  int probed = hpd_dvfs_backend_cpupower.probe(&cfg, &p, why, sizeof why);
  printf("cpupower on this machine: %s\n", probed == 0 ? "usable" : why);
  CHECK(probed == 0 ? p.domains > 0 && p.min_khz <= p.max_khz
                    : strncmp(why, "cpupower: ", 10) == 0 && strlen(why) > 10);
  char *root = make_tree(&acpi);
  cfg = config_for(root);
  CHECK(hpd_dvfs_backend_cpupower.probe(&cfg, &p, why, sizeof why) == HPD_STATUS_UNAVAILABLE);
#ifdef HPD_HAVE_CPUPOWER
  CHECK(strcmp(why, "cpupower: HPD_SYSFS_ROOT is set; libcpupower reads only "
                    "/sys/devices/system/cpu") == 0);
#else
  CHECK(strcmp(why, "cpupower: not built with libcpupower") == 0);
#endif
  CHECK(hpd_dvfs_backend_cpupower.arm(&cfg, why, sizeof why) == HPD_STATUS_UNAVAILABLE);
  hpd_dvfs_backend_cpupower.restore();
  remove_tree(root);

  cfg = config_for("/sys/devices/system/cpu");
  probed = hpd_dvfs_backend_sysfs.probe(&cfg, &p, why, sizeof why);
  printf("sysfs on this machine: %s\n", probed == 0 ? "usable" : why);
}

/* libcpupower reads the kernel's tree only: where this process may make a mount namespace
 * of its own, a fake tree mounted over /sys/devices/system/cpu stands in for it there. */
static void cpupower_in_namespace(const char *governors)
{
  tree_spec spec = acpi;
  spec.governor = "userspace";
  spec.governors = governors;
  spec.speed = SPEED_FILE;
  spec.speed_value = "1800000";
  char *root = make_tree(&spec);
  char *before = snapshot(root);
  int userspace = strstr(governors, "userspace") != NULL;
  if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
      mount(root, "/sys/devices/system/cpu", NULL, MS_BIND, NULL) != 0)
    _exit(77);
  const char *sys = "/sys/devices/system/cpu";
  hpd_settings cfg = config_for(sys);
  hpd_dvfs_probe p;
  char why[HPD_DVFS_WHY_MAX] = "";
  CHECK(hpd_dvfs_backend_cpupower.probe(&cfg, &p, why, sizeof why) == 0);
  if (why[0])
    fprintf(stderr, "cpupower probe: %s\n", why);
  CHECK(p.available_count == 4 && p.available_khz[0] == 800000 &&
        p.available_khz[3] == 2500000 && p.min_khz == 800000 && p.max_khz == 2500000 &&
        p.latency_ns == 70000 && strcmp(p.driver, "acpi-cpufreq") == 0 &&
        strcmp(p.governor, "userspace") == 0 && p.domains == hpd_cpus_count(&affinity));
  CHECK(hpd_dvfs_backend_cpupower.arm(&cfg, why, sizeof why) == 0);
  CHECK(hpd_dvfs_backend_cpupower.set(1300000, HPD_PHASE_BROADCAST) == 0);
  for (int c = hpd_cpus_next(&affinity, 0); c >= 0; c = hpd_cpus_next(&affinity, c + 1)) {
    /* the library writes without truncating: compare the value's own bytes */
    CHECK(strncmp(get(sys, c, userspace ? "scaling_setspeed" : "scaling_min_freq"), "1300000",
                  7) == 0);
    CHECK(userspace || strncmp(get(sys, c, "scaling_max_freq"), "1300000", 7) == 0);
  }
  hpd_dvfs_backend_cpupower.restore();
  CHECK(hpd_dvfs_backend_cpupower.set(800000, HPD_PHASE_BROADCAST) == ECANCELED);
  CHECK(same_snapshot(sys, before));
  free(before);
  remove_tree(root);
}

static void test_cpupower_namespace(void)
{
#ifdef HPD_HAVE_CPUPOWER
  static const char *governors[] = {"ondemand userspace performance", "ondemand performance"};
  for (size_t i = 0; i < sizeof governors / sizeof governors[0]; i++) {
    int out[2];
    CHECK(pipe(out) == 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
      passed = failed = 0;
      cpupower_in_namespace(governors[i]);
      dprintf(out[1], "%d %d", passed, failed);
      _exit(0);
    }
    close(out[1]);
    char text[64] = "";
    ssize_t n = read(out[0], text, sizeof text - 1);
    text[n > 0 ? n : 0] = '\0';
    close(out[0]);
    int status = -1, p = 0, f = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
      printf("cpupower against a fake tree: skipped (no mount namespace here)\n");
      return;
    }
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0 && sscanf(text, "%d %d", &p, &f) == 2);
    passed += p;
    failed += f;
  }
#endif
}

/* ---- MPI_Finalize ------------------------------------------------------------------- */

static void test_finalize(int *argc, char ***argv)
{
  tree_spec spec = acpi;
  spec.governor = "userspace";
  spec.speed = SPEED_FILE;
  spec.speed_value = "1800000";
  char *root = make_tree(&spec);
  char *before = snapshot(root);
  hpd_settings cfg = config_for(root);
  char why[HPD_DVFS_WHY_MAX] = "";
  MPI_Init(argc, argv);
  CHECK(hpd_dvfs_backend_sysfs.arm(&cfg, why, sizeof why) == 0);
  CHECK(hpd_dvfs_backend_sysfs.set(1300000, HPD_PHASE_BROADCAST) == 0);
  CHECK(strcmp(get(root, first_cpu, "scaling_setspeed"), "1300000\n") == 0);
  MPI_Finalize();
  CHECK(same_snapshot(root, before));
  CHECK(hpd_dvfs_backend_sysfs.set(800000, HPD_PHASE_BROADCAST) == ECANCELED);
  hpd_dvfs_backend_sysfs.restore();
  free(before);
  remove_tree(root);
}

int main(int argc, char **argv)
{
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  char why[HPD_DVFS_WHY_MAX];
  if (hpd_cpus_online("/sys/devices/system/cpu", &online, why, sizeof why) != HPD_OK ||
      hpd_cpus_affinity(&affinity) != 0) {
    fprintf(stderr, "test_dvfs_backend: %s\n", why);
    return 2;
  }
  first_cpu = hpd_cpus_next(&affinity, 0);
  umask(022); /* the unprivileged child must read the trees */
  /* Orphaned guardians come here, where they can be waited for. */
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  hpd_dvfs_backend_sysfs.restore(); /* harmless before anything was armed */

  test_cpu_lists();
  test_probe();
  test_pin_order();
  test_userspace_switching();
  test_pinning();
  test_refusals();
  test_ending(END_SIGTERM);
  test_ending(END_SIGSEGV);
  test_ending(END_SIGKILL);
  test_ending(END_EXIT);
  test_cpupower();
  test_cpupower_namespace();
  test_finalize(&argc, &argv);

  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("test_dvfs_backend: %d passed, %d failed (%.2f s)\n", passed, failed,
         (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  return failed ? 1 : 0;
}
