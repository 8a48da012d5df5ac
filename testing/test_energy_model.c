/* The power model: its arithmetic on fixed inputs, the built-in table, model files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "energy/model.h"
#include "hpdaemon.h"

#include "check.h"

#define NEAR(a, b) (fabs((a) - (b)) <= 1e-12 * (1.0 + fabs(b)))

static char dir[64];
static char why[1024];

static const char *model_file(const char *name, const char *text)
{
  static char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  fputs(text, f);
  fclose(f);
  return path;
}

static void test_builtin(void)
{
  hpd_power_model m;
  hpd_power_model_builtin(&m);
  static const unsigned khz[] = {800000, 1300000, 1800000, 2500000};
  static const double busy[] = {7.03, 9.82, 13.36, 18.75};
  static const double idle[] = {4.86, 5.55, 6.32, 7.28};
  CHECK(m.levels == 4);
  for (int i = 0; i < 4; i++) {
    CHECK(m.khz[i] == khz[i] && m.busy_w[i] == busy[i] && m.idle_w[i] == idle[i]);
    CHECK(m.idle_w[i] < m.busy_w[i]);
  }
  CHECK(m.switch_j == 0.1 && m.switch_us == 70.0);
  CHECK(strncmp(m.source, "built-in: AMD Opteron 2380", 26) == 0);
  /* Four busy cores at 2.5 GHz: the 75 W the model is calibrated to. */
  CHECK(4 * hpd_power_model_watts(&m, 2500000, 1) == 75.0);
}

/* A model with binary fractions, so that sums are exact. */
static void small_model(hpd_power_model *m)
{
  memset(m, 0, sizeof *m);
  m->levels = 3;
  m->khz[0] = 1000000, m->busy_w[0] = 4.0, m->idle_w[0] = 2.0;
  m->khz[1] = 2000000, m->busy_w[1] = 8.0, m->idle_w[1] = 3.0;
  m->khz[2] = 3000000, m->busy_w[2] = 16.0, m->idle_w[2] = 3.5;
  m->switch_j = 0.5;
  m->switch_us = 50;
}

static void test_watts(void)
{
  hpd_power_model m;
  small_model(&m);
  CHECK(hpd_power_model_watts(&m, 1000000, 1) == 4.0);
  CHECK(hpd_power_model_watts(&m, 2000000, 0) == 3.0);
  CHECK(hpd_power_model_watts(&m, 3000000, 1) == 16.0);
  /* Linear between levels. */
  CHECK(hpd_power_model_watts(&m, 1500000, 1) == 6.0);
  CHECK(hpd_power_model_watts(&m, 1250000, 0) == 2.25);
  CHECK(hpd_power_model_watts(&m, 2750000, 1) == 14.0);
  /* Clamped outside. */
  CHECK(hpd_power_model_watts(&m, 1, 1) == 4.0);
  CHECK(hpd_power_model_watts(&m, 999999, 0) == 2.0);
  CHECK(hpd_power_model_watts(&m, 5000000, 1) == 16.0);
  CHECK(hpd_power_model_watts(&m, 4000000000u, 0) == 3.5);
  /* One level: constant. */
  m.levels = 1;
  CHECK(hpd_power_model_watts(&m, 1, 1) == 4.0);
  CHECK(hpd_power_model_watts(&m, 9000000, 0) == 2.0);

  hpd_power_model b;
  hpd_power_model_builtin(&b);
  CHECK(NEAR(hpd_power_model_watts(&b, 1050000, 1), (7.03 + 9.82) / 2));
  CHECK(NEAR(hpd_power_model_watts(&b, 2150000, 0), (6.32 + 7.28) / 2));
  CHECK(hpd_power_model_watts(&b, 3000000, 1) == 18.75);
  CHECK(hpd_power_model_watts(&b, 600000, 0) == 4.86);
}

static void test_joules(void)
{
  hpd_power_model m;
  small_model(&m);
  hpd_phase_time t[] = {
      {3000000, 2.0, 0.5},   /* 16 * 2 + 3.5 * 0.5 = 33.75 */
      {1000000, 0.25, 4.0},  /* 4 * 0.25 + 2 * 4 = 9 */
      {1500000, 1.0, 1.0},   /* 6 + 2.5 = 8.5 */
      {2000000, -1e-9, 2.0}, /* a negative time counts as 0: 6 */
  };
  CHECK(hpd_power_model_joules(&m, t, 4, 0) == 57.25);
  CHECK(hpd_power_model_joules(&m, t, 4, 10) == 62.25);
  CHECK(hpd_power_model_joules(&m, t, 0, 3) == 1.5);
  CHECK(hpd_power_model_joules(&m, t, 1, 0) == 33.75);

  /* The built-in model on the paper's two frequencies: a multiply phase at 2.5 GHz and a
   * broadcast phase at 0.8 GHz, 10 switches. */
  hpd_power_model b;
  hpd_power_model_builtin(&b);
  hpd_phase_time p[] = {{2500000, 2.0, 0.5}, {800000, 0.25, 4.0}};
  double expect = 18.75 * 2.0 + 7.28 * 0.5 + 7.03 * 0.25 + 4.86 * 4.0 + 10 * 0.1;
  CHECK(NEAR(hpd_power_model_joules(&b, p, 2, 10), expect));
  CHECK(NEAR(expect, 63.3375));
}

static void test_file_good(void)
{
  const char *path = model_file("good.model",
                                "# a test machine\n"
                                "\n"
                                "level 2000000 8 3   # highest\n"
                                "   level\t1GHz 4.0 2.0\n"
                                "level 1500MHz 6 2.5\n"
                                "switch_joules 0.25\n"
                                "switch_us 12.5 # measured\n");
  hpd_power_model m;
  CHECK(hpd_power_model_load(path, &m, why, sizeof why) == HPD_OK);
  CHECK(m.levels == 3);
  CHECK(m.khz[0] == 1000000 && m.khz[1] == 1500000 && m.khz[2] == 2000000);
  CHECK(m.busy_w[0] == 4 && m.busy_w[1] == 6 && m.busy_w[2] == 8);
  CHECK(m.idle_w[0] == 2 && m.idle_w[1] == 2.5 && m.idle_w[2] == 3);
  CHECK(m.switch_j == 0.25 && m.switch_us == 12.5);
  CHECK(strcmp(m.source, path) == 0);

  /* No switch lines: the paper's switch cost. */
  path = model_file("levels-only.model", "level 800000 5 3");
  CHECK(hpd_power_model_load(path, &m, why, sizeof why) == HPD_OK);
  CHECK(m.levels == 1 && m.khz[0] == 800000 && m.switch_j == 0.1 && m.switch_us == 70);
}

/* Each bad file fails, names the file and the line, and leaves the model alone. */
static void test_file_bad(void)
{
  static const struct {
    const char *text, *message;
  } bad[] = {
      {"level 800000 5 3\n# ok\nvolts 1.2\n", ":3: unknown keyword 'volts'"},
      {"level 800000 5\n", ":1: expected 'level KHZ BUSY_WATTS IDLE_WATTS'"},
      {"level 800000 5 3 1\n", ":1: expected 'level KHZ"},
      {"\nlevel 800000 -5 3\n", ":2: watts must be numbers from 0 to 10000"},
      {"level 800000 5 nan\n", ":1: watts must be numbers"},
      {"level 0 5 3\n", ":1: the frequency is not"},
      {"level 2.5 5 3\n", ":1: the frequency is not"},
      {"level 800MHz 5 3\nlevel 800000 6 4\n", ":2: this frequency already has a level"},
      {"level 1 1 1\nswitch_joules 1\nswitch_joules 2\n",
       ":3: 'switch_joules' given twice"},
      {"level 1 1 1\nswitch_us\n", ":2: expected 'switch_us' and a number from 0 to 1e+06"},
      {"level 1 1 1\nswitch_joules 0.1 J\n", ":2: expected 'switch_joules'"},
      {"# nothing\n", ": no 'level' line"},
      {"", ": no 'level' line"},
  };
  hpd_power_model m;
  hpd_power_model_builtin(&m);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "bad%zu.model", i);
    const char *path = model_file(name, bad[i].text);
    hpd_status rc = hpd_power_model_load(path, &m, why, sizeof why);
    int ok = rc == HPD_STATUS_INVALID && strncmp(why, path, strlen(path)) == 0 &&
             strstr(why, bad[i].message) == why + strlen(path);
    if (!ok)
      fprintf(stderr, "bad file %zu: got '%s'\n", i, why);
    CHECK(ok);
    CHECK(m.levels == 4 && m.khz[0] == 800000); /* unchanged */
  }

  /* 17 levels. */
  char text[1024] = "";
  for (int i = 1; i <= 17; i++)
    snprintf(text + strlen(text), sizeof text - strlen(text), "level %d 1 1\n", i * 100000);
  const char *path = model_file("many.model", text);
  CHECK(hpd_power_model_load(path, &m, why, sizeof why) == HPD_STATUS_INVALID);
  CHECK(strstr(why, ":17: more than 16 levels") != NULL);

  /* A line too long to be one. */
  char *longline = malloc(3000);
  memset(longline, ' ', 2998);
  longline[2998] = '\n';
  longline[2999] = '\0';
  path = model_file("long.model", longline);
  free(longline);
  CHECK(hpd_power_model_load(path, &m, why, sizeof why) == HPD_STATUS_INVALID &&
        strstr(why, ":1: line longer than") != NULL);

  snprintf(text, sizeof text, "%s/absent.model", dir);
  CHECK(hpd_power_model_load(text, &m, why, sizeof why) == HPD_STATUS_INVALID);
  CHECK(strstr(why, "absent.model: No such file or directory") != NULL);
  CHECK(m.levels == 4);
}

int main(void)
{
  snprintf(dir, sizeof dir, "/tmp/hpd-model-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_builtin();
  test_watts();
  test_joules();
  test_file_good();
  test_file_bad();
  /* The files are few and known: remove them by name. */
  static const char *names[] = {"good.model", "levels-only.model", "many.model",
                                "long.model"};
  char path[128];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    unlink(path);
  }
  for (int i = 0; i < 13; i++) {
    snprintf(path, sizeof path, "%s/bad%d.model", dir, i);
    unlink(path);
  }
  rmdir(dir);
  printf("test_energy_model: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
