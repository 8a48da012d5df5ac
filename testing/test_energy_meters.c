/* The measured meters: powercap against fake zone trees, PAPI where this PAPI has no
 * energy component, and the choice between them. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "energy/meter.h"
#include "energy/wrap.h"
#include "hpdaemon.h"

#include "check.h"

/* A typical package counter: 2^32 units of 61.035 uJ. */
#define PKG_RANGE "262143328850"
#define DRAM_RANGE "65712999613"

/* Room for a path under the root, which may itself fill HPD_PATH_MAX. */
#define PATH_LEN (2 * HPD_PATH_MAX)

static char base[64];
static int tree_number;
static hpd_settings cfg;
static char why[8192];

static void write_file(const char *dir, const char *name, const char *text)
{
  char path[PATH_LEN];
  int n = snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = n < (int)sizeof path ? fopen(path, "w") : NULL;
  if (!f) {
    perror(path);
    exit(1);
  }
  fputs(text, f);
  fclose(f);
}

/* A new, empty powercap root; cfg points at it. */
static const char *new_root(void)
{
  snprintf(cfg.powercap_root, sizeof cfg.powercap_root, "%s/tree%d", base, ++tree_number);
  mkdir(cfg.powercap_root, 0755);
  return cfg.powercap_root;
}

/* Zone rel (a path under the root) named name, its counter at energy. */
static void zone(const char *rel, const char *name, const char *energy, const char *range,
                 const char *max_power_uw)
{
  char dir[PATH_LEN];
  snprintf(dir, sizeof dir, "%s/%s", cfg.powercap_root, rel);
  mkdir(dir, 0755);
  write_file(dir, "name", name);
  write_file(dir, "energy_uj", energy);
  write_file(dir, "max_energy_range_uj", range);
  if (max_power_uw)
    write_file(dir, "constraint_0_max_power_uw", max_power_uw);
}

static void set_energy(const char *rel, const char *energy)
{
  char dir[PATH_LEN];
  snprintf(dir, sizeof dir, "%s/%s", cfg.powercap_root, rel);
  write_file(dir, "energy_uj", energy);
}

static void sleep_ms(long ms)
{
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static void test_wrap_delta(void)
{
  CHECK(hpd_wrap_delta(10, 25, 100) == 15);
  CHECK(hpd_wrap_delta(10, 10, 100) == 0);
  /* 100 is shown, then 0: the turn is 101 units. */
  CHECK(hpd_wrap_delta(100, 0, 100) == 1);
  CHECK(hpd_wrap_delta(90, 5, 100) == 16);
  CHECK(hpd_wrap_delta(0, 100, 100) == 100);
  /* A reading above the range does not underflow. */
  CHECK(hpd_wrap_delta(150, 5, 100) == 6);

  hpd_wrap_counter c;
  hpd_wrap_init(&c, 100, 10.0, 95, 0.0);
  CHECK(hpd_wrap_advance(&c, 3, 1.0) == 0 && c.total == 9);
  CHECK(hpd_wrap_advance(&c, 98, 2.0) == 0 && c.total == 104);
  /* 10 units/s for 10.1 s could be a whole turn: only known modulo 101. */
  CHECK(hpd_wrap_advance(&c, 2, 12.1) == 1 && c.total == 109);
}

/* One package with a DRAM sub-zone nested in it, a core sub-zone and a psys zone that
 * must not count, and the control type's own directory. */
static void test_normal(void)
{
  new_root();
  char dir[PATH_LEN];
  snprintf(dir, sizeof dir, "%s/intel-rapl", cfg.powercap_root);
  mkdir(dir, 0755);
  write_file(dir, "enabled", "1\n");
  zone("intel-rapl:0", "package-0\n", "1000000\n", PKG_RANGE "\n", "125000000\n");
  zone("intel-rapl:0/intel-rapl:0:0", "core\n", "7000000\n", PKG_RANGE "\n", NULL);
  zone("intel-rapl:0/intel-rapl:0:1", "dram\n", "500000\n", DRAM_RANGE "\n", NULL);
  zone("intel-rapl:1", "psys\n", "9000000\n", PKG_RANGE "\n", NULL);

  CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == 0);
  hpd_meter_reading r = {-1, -1};
  CHECK(hpd_meter_powercap.read(&r) == 0 && r.package_j == 0 && r.dram_j == 0);
  set_energy("intel-rapl:0", "2500000\n");
  set_energy("intel-rapl:0/intel-rapl:0:1", "750000\n");
  set_energy("intel-rapl:0/intel-rapl:0:0", "9000000\n");
  set_energy("intel-rapl:1", "99000000\n");
  CHECK(hpd_meter_powercap.read(&r) == 0 && r.package_j == 1.5 && r.dram_j == 0.25);
  set_energy("intel-rapl:0", "2750000\n");
  CHECK(hpd_meter_powercap.read(&r) == 0 && r.package_j == 1.75 && r.dram_j == 0.25);
  hpd_meter_powercap.close();
}

/* Sub-zones listed beside the package, as /sys/class/powercap also lists them. */
static void test_flat_dram(void)
{
  new_root();
  zone("intel-rapl:0", "package-0", "0", PKG_RANGE, NULL);
  zone("intel-rapl:0:0", "dram", "100", DRAM_RANGE, NULL);
  CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == 0);
  set_energy("intel-rapl:0:0", "250100");
  hpd_meter_reading r;
  CHECK(hpd_meter_powercap.read(&r) == 0 && r.package_j == 0 && r.dram_j == 0.25);
  hpd_meter_powercap.close();
}

/* Every read handles a wrap: 999000000 -> 500000 on a 1 kJ counter, then again. */
static void test_wraparound(void)
{
  new_root();
  zone("intel-rapl:0", "package-0", "999000000", "1000000000", NULL);
  zone("intel-rapl:0/intel-rapl:0:0", "dram", "1000000000", "1000000000", NULL);
  CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == 0);
  hpd_meter_reading r;
  set_energy("intel-rapl:0", "500000");
  set_energy("intel-rapl:0/intel-rapl:0:0", "0");
  /* (range - old) + new + 1: the counter shows range, then 0. */
  CHECK(hpd_meter_powercap.read(&r) == 0);
  CHECK(r.package_j == 1500001 / 1e6 && r.dram_j == 1 / 1e6);
  set_energy("intel-rapl:0", "999999999");
  CHECK(hpd_meter_powercap.read(&r) == 0 && r.package_j == 1001000000 / 1e6);
  /* Wrapped again since the previous reading. */
  set_energy("intel-rapl:0", "249998");
  set_energy("intel-rapl:0/intel-rapl:0:0", "249999");
  CHECK(hpd_meter_powercap.read(&r) == 0);
  CHECK(r.package_j == 1001.25 && r.dram_j == 0.25);
  hpd_meter_powercap.close();
}

/* Two packages add up; the same package seen through a second interface counts once; a
 * package without DRAM is fine. */
static void test_several_packages(void)
{
  new_root();
  zone("intel-rapl:0", "package-0", "1000", PKG_RANGE, NULL);
  zone("intel-rapl:1", "package-1", "2000", PKG_RANGE, NULL);
  zone("intel-rapl:1/intel-rapl:1:0", "dram", "0", DRAM_RANGE, NULL);
  zone("intel-rapl-mmio:0", "package-0", "5000", PKG_RANGE, NULL);
  CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == 0);
  set_energy("intel-rapl:0", "1001000");
  set_energy("intel-rapl:1", "502000");
  set_energy("intel-rapl-mmio:0", "9005000");
  set_energy("intel-rapl:1/intel-rapl:1:0", "125000");
  hpd_meter_reading r;
  CHECK(hpd_meter_powercap.read(&r) == 0 && r.package_j == 1.5 && r.dram_j == 0.125);
  hpd_meter_powercap.close();

  new_root();
  zone("intel-rapl:0", "package-0", "0", PKG_RANGE, NULL);
  zone("intel-rapl:0/intel-rapl:0:0", "core", "0", PKG_RANGE, NULL);
  CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == 0);
  set_energy("intel-rapl:0", "3000000");
  set_energy("intel-rapl:0/intel-rapl:0:0", "2000000");
  CHECK(hpd_meter_powercap.read(&r) == 0 && r.package_j == 3.0 && r.dram_j == 0);
  hpd_meter_powercap.close();
}

static void test_unusable(void)
{
  /* No powercap at all. */
  snprintf(cfg.powercap_root, sizeof cfg.powercap_root, "%s/absent", base);
  CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == HPD_STATUS_UNAVAILABLE);
  CHECK(strstr(why, "powercap: cannot open") && strstr(why, "/absent"));
  CHECK(strchr(why, '\n') == NULL);

  new_root();
  zone("intel-rapl:0", "psys", "0", PKG_RANGE, NULL);
  CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == HPD_STATUS_UNAVAILABLE);
  CHECK(strstr(why, "no package zone under") != NULL);

  /* energy_uj that cannot be read: a directory in its place. */
  new_root();
  zone("intel-rapl:0", "package-0", "0", PKG_RANGE, NULL);
  zone("intel-rapl:1", "package-1", "0", PKG_RANGE, NULL);
  char path[PATH_LEN];
  snprintf(path, sizeof path, "%s/intel-rapl:1/energy_uj", cfg.powercap_root);
  unlink(path);
  mkdir(path, 0755);
  CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == HPD_STATUS_UNAVAILABLE);
  CHECK(strstr(why, path) != NULL && strstr(why, strerror(EISDIR)) != NULL);
  hpd_meter_reading r = {7, 7};
  CHECK(hpd_meter_powercap.read(&r) == HPD_STATUS_UNAVAILABLE && r.package_j == 7); /* nothing left open */
  hpd_meter_powercap.close();

  /* A counter that is not a number. */
  new_root();
  zone("intel-rapl:0", "package-0", "lots", PKG_RANGE, NULL);
  CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == HPD_STATUS_UNAVAILABLE);
  CHECK(strstr(why, "energy_uj: not a whole number") != NULL);
}

/* energy_uj readable by root only, as kernels make it since 2020, opened by another
 * user: EACCES.  As root, the check runs in a child that gives its privileges up. */
static void test_root_only(void)
{
  new_root();
  chmod(base, 0755);
  zone("intel-rapl:0", "package-0", "0", PKG_RANGE, NULL);
  char path[PATH_LEN];
  snprintf(path, sizeof path, "%s/intel-rapl:0/energy_uj", cfg.powercap_root);
  chmod(path, geteuid() == 0 ? 0400 : 0);
  if (geteuid() != 0) {
    CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == HPD_STATUS_UNAVAILABLE);
    CHECK(strstr(why, path) && strstr(why, strerror(EACCES)));
    return;
  }
  pid_t pid = fork();
  if (pid == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0)
      _exit(2);
    int ok = hpd_meter_powercap.open(&cfg, why, sizeof why) == HPD_STATUS_UNAVAILABLE && strstr(why, path) &&
             strstr(why, strerror(EACCES));
    if (!ok)
      fprintf(stderr, "unprivileged open: %s\n", why);
    _exit(ok ? 0 : 1);
  }
  int status = -1;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* A 1 mJ counter at up to 1 W turns every millisecond: readings further apart warn,
 * once. */
static void read_twice_apart(void)
{
  hpd_meter_reading r;
  sleep_ms(5);
  set_energy("intel-rapl:0", "300");
  CHECK(hpd_meter_powercap.read(&r) == 0 && r.package_j == 200 / 1e6);
  sleep_ms(5);
  set_energy("intel-rapl:0", "400");
  CHECK(hpd_meter_powercap.read(&r) == 0 && r.package_j == 300 / 1e6);
}

static void read_normal(void)
{
  hpd_meter_reading r;
  set_energy("intel-rapl:0", "1000000");
  CHECK(hpd_meter_powercap.read(&r) == 0 && r.package_j == 1.0);
}

static void test_multiple_wraps(void)
{
  new_root();
  zone("intel-rapl:0", "package-0", "100", "999", "1000000");
  CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == 0);
  const char *out = capture_stderr(read_twice_apart);
  const char *first = strstr(out, "may have wrapped more than once");
  CHECK(first != NULL && strstr(out, "hpdaemon: warning: powercap: ") == out);
  CHECK(first && strstr(first + 1, "may have wrapped more than once") == NULL);
  CHECK(strstr(out, "intel-rapl:0/energy_uj") != NULL);
  hpd_meter_powercap.close();

  /* A large counter read often stays silent. */
  new_root();
  zone("intel-rapl:0", "package-0", "0", PKG_RANGE, NULL);
  CHECK(hpd_meter_powercap.open(&cfg, why, sizeof why) == 0);
  CHECK(capture_stderr(read_normal)[0] == '\0');
  hpd_meter_powercap.close();
}

/* PAPI: Debian's has no rapl or powercap component, so opening fails with a reason and
 * prints nothing. */
static int papi_rc;

static void papi_open_close(void)
{
  papi_rc = hpd_meter_papi.open(&cfg, why, sizeof why);
  hpd_meter_papi.close();
  int again = hpd_meter_papi.open(&cfg, why, sizeof why);
  if (again != papi_rc)
    papi_rc = 99;
  hpd_meter_papi.close();
}

static void papi_quietly(void)
{
  fflush(stdout);
  int saved = dup(1);
  char name[] = "/tmp/hpd-test-stdout-XXXXXX";
  int fd = mkstemp(name);
  dup2(fd, 1);
  const char *err = capture_stderr(papi_open_close);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  CHECK(lseek(fd, 0, SEEK_END) == 0);
  close(fd);
  unlink(name);
  CHECK(err[0] == '\0');
}

static void test_papi(void)
{
  papi_quietly();
  if (papi_rc == 0) {
    fprintf(stderr, "note: this PAPI reads energy; skipping the checks of its absence\n");
    return;
  }
  CHECK(papi_rc == HPD_STATUS_UNAVAILABLE);
  CHECK(strncmp(why, "papi: ", 6) == 0 && strchr(why, '\n') == NULL);
  fprintf(stderr, "note: PAPI here: %s\n", why);
  hpd_meter_reading r;
  CHECK(hpd_meter_papi.read(&r) == HPD_STATUS_UNAVAILABLE);
}

static void test_select(void)
{
  new_root();
  zone("intel-rapl:0", "package-0", "0", PKG_RANGE, NULL);
  cfg.energy = HPD_ENERGY_AUTO;
  CHECK(hpd_meter_select(&cfg, why, sizeof why) == &hpd_meter_powercap && why[0] == '\0');
  hpd_meter_powercap.close();
  cfg.energy = HPD_ENERGY_POWERCAP;
  CHECK(hpd_meter_select(&cfg, why, sizeof why) == &hpd_meter_powercap);
  hpd_meter_powercap.close();

  new_root(); /* nothing in it */
  if (papi_rc != 0) {
    cfg.energy = HPD_ENERGY_AUTO;
    CHECK(hpd_meter_select(&cfg, why, sizeof why) == NULL);
    const char *nl = strchr(why, '\n');
    CHECK(strncmp(why, "powercap: no package zone", 25) == 0 && nl &&
          strncmp(nl + 1, "papi: ", 6) == 0 && strchr(nl + 1, '\n') == NULL);
    cfg.energy = HPD_ENERGY_PAPI;
    CHECK(hpd_meter_select(&cfg, why, sizeof why) == NULL);
    CHECK(strncmp(why, "papi: ", 6) == 0);
  }
  cfg.energy = HPD_ENERGY_POWERCAP;
  CHECK(hpd_meter_select(&cfg, why, sizeof why) == NULL);
  CHECK(strncmp(why, "powercap: ", 10) == 0 && strchr(why, '\n') == NULL);
  cfg.energy = HPD_ENERGY_MODEL;
  CHECK(hpd_meter_select(&cfg, why, sizeof why) == NULL && why[0] == '\0');
  cfg.energy = HPD_ENERGY_NONE;
  CHECK(hpd_meter_select(&cfg, why, sizeof why) == NULL && why[0] == '\0');
  /* A short buffer truncates without overflowing. */
  char small[8];
  cfg.energy = HPD_ENERGY_POWERCAP;
  CHECK(hpd_meter_select(&cfg, small, sizeof small) == NULL && strlen(small) < 8);
}

static void remove_tree(const char *path)
{
  struct stat st;
  if (lstat(path, &st) != 0)
    return;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
        continue;
      char child[PATH_LEN];
      snprintf(child, sizeof child, "%s/%s", path, e->d_name);
      remove_tree(child);
    }
    if (d)
      closedir(d);
    rmdir(path);
  } else {
    unlink(path);
  }
}

int main(void)
{
  snprintf(base, sizeof base, "/tmp/hpd-energy-XXXXXX");
  if (!mkdtemp(base)) {
    perror("mkdtemp");
    return 1;
  }
  test_wrap_delta();
  test_normal();
  test_flat_dram();
  test_wraparound();
  test_several_packages();
  test_unusable();
  test_root_only();
  test_multiple_wraps();
  test_papi();
  test_select();
  remove_tree(base);
  printf("test_energy_meters: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
