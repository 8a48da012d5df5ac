/* The configuration: value parsers, the environment, API overrides, hpd_parse_args. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "core/config.h"
#include "core/parse.h"
#include "hpdaemon.h"

#include "check.h"

static void test_fraction(void)
{
  static const struct { const char *text; double value; } good[] = {
      {"0.2", 0.2}, {"1", 1.0}, {"20%", 0.2}, {" 0.5 ", 0.5}, {"100%", 1.0},
      {"1e-3", 0.001}, {"12.5 %", 0.125}, {".75", 0.75}};
  static const char *bad[] = {"", "0", "0%", "-0.1", "1.5", "150%", "abc", "0.2x", "nan",
                              "inf", "%", "0.2%%", "20 % x"};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    double v = -1;
    CHECK(hpd_parse_fraction(good[i].text, &v) == HPD_OK);
    CHECK(v > good[i].value - 1e-15 && v < good[i].value + 1e-15);
  }
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    double v = 42;
    CHECK(hpd_parse_fraction(bad[i], &v) == HPD_STATUS_INVALID);
    CHECK(v == 42);
  }
  CHECK(hpd_parse_fraction(NULL, &(double){0}) == HPD_STATUS_INVALID);
}

static void test_bool_and_report(void)
{
  int b = 7;
  CHECK(hpd_parse_bool("1", &b) == HPD_OK && b == 1);
  CHECK(hpd_parse_bool("off", &b) == HPD_OK && b == 0);
  CHECK(hpd_parse_bool("TRUE", &b) == HPD_OK && b == 1);
  CHECK(hpd_parse_bool("2", &b) == HPD_STATUS_INVALID && b == 1);
  CHECK(hpd_parse_bool("", &b) == HPD_STATUS_INVALID);

  int count = -1;
  CHECK(hpd_parse_count("0", &count) == HPD_OK && count == 0);
  CHECK(hpd_parse_count(" 64 ", &count) == HPD_OK && count == 64);
  CHECK(hpd_parse_count("-1", &count) == HPD_STATUS_INVALID && count == 64);
  CHECK(hpd_parse_count("+3", &count) == HPD_STATUS_INVALID);
  CHECK(hpd_parse_count("2.5", &count) == HPD_STATUS_INVALID);
  CHECK(hpd_parse_count("8x", &count) == HPD_STATUS_INVALID);
  CHECK(hpd_parse_count("99999999999", &count) == HPD_STATUS_INVALID);
  CHECK(hpd_parse_count("", &count) == HPD_STATUS_INVALID && count == 64);

  hpd_report_mode mode = HPD_REPORT_OFF;
  char path[16] = "";
  CHECK(hpd_parse_report("summary", &mode, path, sizeof path) == HPD_OK &&
        mode == HPD_REPORT_SUMMARY);
  CHECK(hpd_parse_report("json:/tmp/r.json", &mode, path, sizeof path) == HPD_OK &&
        mode == HPD_REPORT_JSON && strcmp(path, "/tmp/r.json") == 0);
  CHECK(hpd_parse_report("json:", &mode, path, sizeof path) == HPD_STATUS_INVALID);
  CHECK(hpd_parse_report("json:/a/path/longer/than/16", &mode, path, sizeof path) == HPD_STATUS_INVALID);
  CHECK(hpd_parse_report("verbose", &mode, path, sizeof path) == HPD_STATUS_INVALID);
  CHECK(mode == HPD_REPORT_JSON && strcmp(path, "/tmp/r.json") == 0);
  CHECK(hpd_parse_report("OFF", &mode, path, sizeof path) == HPD_OK && mode == HPD_REPORT_OFF);
}

static void test_broadcast_values(void)
{
  static const struct { const char *text; uint64_t value; } good[] = {
      {"0", 0}, {"1", 1}, {"4096", 4096}, {"8K", 8192}, {"8k", 8192}, {"8KiB", 8192},
      {" 16 kib ", 16384}, {"1M", 1048576}, {"2MiB", 2097152}, {"1G", 1073741824},
      {"1024M", 1073741824}, {"1073741824", 1073741824}};
  static const char *bad[] = {"", "-1", "+8K", "8KB", "8 K B", "1.5M", "K", "2G",
                              "1073741825", "99999999999999999999", "8Ki", "M8"};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    uint64_t v = 7;
    CHECK(hpd_parse_bytes(good[i].text, HPD_CHUNK_MAX, &v) == HPD_OK && v == good[i].value);
  }
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint64_t v = 7;
    CHECK(hpd_parse_bytes(bad[i], HPD_CHUNK_MAX, &v) == HPD_STATUS_INVALID && v == 7);
  }
  CHECK(hpd_parse_bytes(NULL, HPD_CHUNK_MAX, &(uint64_t){0}) == HPD_STATUS_INVALID);

  int algorithm = HPD_BCAST_MPI;
  CHECK(hpd_parse_name("pipeline", HPD_NAMES_BCAST, &algorithm) == HPD_OK && algorithm == HPD_BCAST_PIPELINE);
  CHECK(hpd_parse_name("Binomial", HPD_NAMES_BCAST, &algorithm) == HPD_OK && algorithm == HPD_BCAST_BINOMIAL);
  CHECK(hpd_parse_name("MPI", HPD_NAMES_BCAST, &algorithm) == HPD_OK && algorithm == HPD_BCAST_MPI);
  CHECK(hpd_parse_name("tree", HPD_NAMES_BCAST, &algorithm) == HPD_STATUS_INVALID && algorithm == HPD_BCAST_MPI);
  CHECK(hpd_parse_name("", HPD_NAMES_BCAST, &algorithm) == HPD_STATUS_INVALID && hpd_parse_name(NULL, HPD_NAMES_BCAST, &algorithm) == HPD_STATUS_INVALID);
  int wait = HPD_WAIT_SPIN;
  CHECK(hpd_parse_name("sleep", HPD_NAMES_WAIT, &wait) == HPD_OK && wait == HPD_WAIT_SLEEP);
  CHECK(hpd_parse_name("YIELD", HPD_NAMES_WAIT, &wait) == HPD_OK && wait == HPD_WAIT_YIELD);
  CHECK(hpd_parse_name("spin", HPD_NAMES_WAIT, &wait) == HPD_OK && wait == HPD_WAIT_SPIN);
  CHECK(hpd_parse_name("block", HPD_NAMES_WAIT, &wait) == HPD_STATUS_INVALID && wait == HPD_WAIT_SPIN);
  CHECK(strcmp(hpd_bcast_algorithm_name(HPD_BCAST_BINOMIAL), "binomial") == 0);
  CHECK(strcmp(hpd_wait_policy_name(HPD_WAIT_YIELD), "yield") == 0);
  CHECK(strcmp(hpd_wait_policy_name(7), "unknown") == 0);
  int dispatch = HPD_DISPATCH_AUTO;
  CHECK(hpd_parse_name("Engine", HPD_NAMES_DISPATCH, &dispatch) == HPD_OK &&
        dispatch == HPD_DISPATCH_ENGINE);
  CHECK(hpd_parse_name("auto", HPD_NAMES_DISPATCH, &dispatch) == HPD_OK &&
        dispatch == HPD_DISPATCH_AUTO);
  CHECK(hpd_parse_name("reference", HPD_NAMES_DISPATCH, &dispatch) == HPD_STATUS_INVALID);
  CHECK(strcmp(hpd_dispatch_name(HPD_DISPATCH_ENGINE), "engine") == 0);

  char path[8] = "keep";
  CHECK(hpd_parse_path("/a/b", path, sizeof path) == HPD_OK && strcmp(path, "/a/b") == 0);
  CHECK(hpd_parse_path("", path, sizeof path) == HPD_STATUS_INVALID);
  CHECK(hpd_parse_path("/too/long", path, sizeof path) == HPD_STATUS_INVALID && strcmp(path, "/a/b") == 0);
}

static void test_dvfs_values(void)
{
  static const struct { const char *text; unsigned khz; } good[] = {
      {"800MHz", 800000}, {"2.5GHz", 2500000}, {"1300000kHz", 1300000},
      {" 1.8 ghz ", 1800000}, {"0.8GHz", 800000}, {"2500 MHz", 2500000}};
  static const char *bad[] = {"", "2500", "2.5", "GHz", "-1GHz", "0MHz", "1.5kHz",
                              "2.5 THz", "5000GHz", "nanGHz", "1e99MHz"};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    unsigned v = 7;
    CHECK(hpd_parse_khz(good[i].text, &v) == HPD_OK && v == good[i].khz);
  }
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    unsigned v = 7;
    CHECK(hpd_parse_khz(bad[i], &v) == HPD_STATUS_INVALID && v == 7);
  }
  int v = -1;
  CHECK(hpd_parse_name("Daemon", HPD_NAMES_STRATEGY, &v) == HPD_OK && v == HPD_STRATEGY_DAEMON);
  CHECK(hpd_parse_name("sysfs", HPD_NAMES_DVFS, &v) == HPD_OK && v == HPD_DVFS_SYSFS);
  CHECK(hpd_parse_name("powercap", HPD_NAMES_ENERGY, &v) == HPD_OK && v == HPD_ENERGY_POWERCAP);
  CHECK(hpd_parse_name("grouped", HPD_NAMES_STRATEGY, &v) == HPD_STATUS_INVALID);
  CHECK(hpd_parse_name("Auto", HPD_NAMES_STRATEGY, &v) == HPD_OK && v == HPD_STRATEGY_AUTO);
  CHECK(hpd_parse_name("overlap", HPD_NAMES_STRATEGY, &v) == HPD_OK && v == HPD_STRATEGY_OVERLAP);
  CHECK(strcmp(hpd_strategy_name(HPD_STRATEGY_AUTO), "auto") == 0);
  CHECK(strcmp(hpd_strategy_name(HPD_STRATEGY_BASIC), "basic") == 0);
  CHECK(strcmp(hpd_dvfs_name(HPD_DVFS_SIM), "sim") == 0);
  CHECK(strcmp(hpd_energy_name(HPD_ENERGY_MODEL), "model") == 0);
  double us = -1;
  CHECK(hpd_parse_real("70", 0, 1e6, &us) == HPD_OK && us == 70.0);
  CHECK(hpd_parse_real("-1", 0, 1e6, &us) == HPD_STATUS_INVALID && hpd_parse_real("70us", 0, 1e6, &us) == HPD_STATUS_INVALID);

  /* The API refuses what the environment would refuse, and keeps the old value. */
  CHECK(hpd_set_strategy(HPD_STRATEGY_BASIC) == HPD_SUCCESS &&
        hpd_get_strategy() == HPD_STRATEGY_BASIC);
  CHECK(hpd_set_strategy((hpd_strategy)7) == HPD_ERR_INVALID &&
        hpd_get_strategy() == HPD_STRATEGY_BASIC);
  CHECK(hpd_set_dvfs(HPD_DVFS_SIM) == HPD_SUCCESS && hpd_get_dvfs() == HPD_DVFS_SIM);
  CHECK(hpd_set_sim_switch_us(-1) == HPD_ERR_INVALID && hpd_set_sim_switch_us(70) == 0);
  CHECK(hpd_set_energy((hpd_energy_kind)-1) == HPD_ERR_INVALID);
  hpd_config_reload();
}

static void test_environment(void)
{
  setenv("HPD_MEM_THRESHOLD", "35%", 1);
  setenv("HPD_REPORT", "json:/tmp/x.json", 1);
  setenv("HPD_DISABLE", "yes", 1);
  setenv("HPD_NGRP", "4", 1);
  setenv("HPD_KB", "128", 1);
  setenv("HPD_BCAST", "binomial", 1);
  setenv("HPD_CHUNK", "64KiB", 1);
  setenv("HPD_WAIT", "yield", 1);
  setenv("HPD_TUNE_FILE", "/tmp/hpd.tune", 1);
  setenv("HPD_DISPATCH", "engine", 1);
  const char *said = capture_stderr(hpd_config_reload);
  CHECK(said[0] == '\0');
  hpd_config cfg;
  hpd_get_config(&cfg);
  CHECK(cfg.mem_threshold == 0.35);
  CHECK(cfg.report == HPD_REPORT_JSON && strcmp(cfg.report_path, "/tmp/x.json") == 0);
  CHECK(cfg.disable == 1);
  CHECK(cfg.ngrp == 4 && cfg.kb == 128);
  CHECK(cfg.bcast == HPD_BCAST_BINOMIAL && cfg.chunk == 65536 && cfg.wait == HPD_WAIT_YIELD);
  CHECK(strcmp(cfg.tune_file, "/tmp/hpd.tune") == 0);
  CHECK(cfg.dispatch == HPD_DISPATCH_ENGINE);

  /* Each bad value: one message naming variable, value and range; default in force. */
  setenv("HPD_MEM_THRESHOLD", "1.5", 1);
  setenv("HPD_REPORT", "loud", 1);
  setenv("HPD_DISABLE", "maybe", 1);
  setenv("HPD_NGRP", "-2", 1);
  setenv("HPD_KB", "wide", 1);
  setenv("HPD_BCAST", "ring", 1);
  setenv("HPD_CHUNK", "2GiB", 1);
  setenv("HPD_WAIT", "nap", 1);
  setenv("HPD_DISPATCH", "sometimes", 1);
  static char long_path[HPD_PATH_MAX + 2];
  memset(long_path, 'x', HPD_PATH_MAX + 1);
  setenv("HPD_TUNE_FILE", long_path, 1);
  said = capture_stderr(hpd_config_reload);
  CHECK(strstr(said, "HPD_MEM_THRESHOLD='1.5'") && strstr(said, "(0,1]"));
  CHECK(strstr(said, "HPD_REPORT='loud'") && strstr(said, "json:PATH"));
  CHECK(strstr(said, "HPD_DISABLE='maybe'"));
  CHECK(strstr(said, "HPD_NGRP='-2'") && strstr(said, "HPD_KB='wide'"));
  CHECK(strstr(said, "HPD_BCAST='ring'") && strstr(said, "pipeline, binomial or mpi"));
  CHECK(strstr(said, "HPD_CHUNK='2GiB'") && strstr(said, "1GiB") && strstr(said, "KiB"));
  CHECK(strstr(said, "HPD_WAIT='nap'") && strstr(said, "spin, yield or sleep"));
  CHECK(strstr(said, "HPD_TUNE_FILE='xxx")); /* the rest is cut: the line is too long */
  CHECK(strstr(said, "HPD_DISPATCH='sometimes'") && strstr(said, "auto or engine"));
  int lines = 0;
  for (const char *p = said; *p; p++)
    lines += *p == '\n';
  CHECK(lines == 10);
  hpd_get_config(&cfg);
  CHECK(cfg.mem_threshold == HPD_DEFAULT_MEM_THRESHOLD);
  CHECK(cfg.report == HPD_REPORT_OFF);
  CHECK(cfg.disable == 0);
  CHECK(cfg.ngrp == 0 && cfg.kb == 0);
  CHECK(cfg.bcast == HPD_BCAST_PIPELINE && cfg.chunk == 0 && cfg.wait == HPD_DEFAULT_WAIT);
  CHECK(cfg.tune_file[0] == '\0');
  CHECK(cfg.dispatch == HPD_DISPATCH_AUTO);
  unsetenv("HPD_DISPATCH");
  unsetenv("HPD_BCAST");
  unsetenv("HPD_CHUNK");
  unsetenv("HPD_WAIT");
  unsetenv("HPD_TUNE_FILE");
  unsetenv("HPD_NGRP");
  unsetenv("HPD_KB");
  unsetenv("HPD_MEM_THRESHOLD");
  unsetenv("HPD_REPORT");
  unsetenv("HPD_DISABLE");
  setenv("HPD_TUNE_FILE", "", 1); /* empty: no file, and nothing to warn about */
  CHECK(capture_stderr(hpd_config_reload)[0] == '\0');
  unsetenv("HPD_TUNE_FILE");
  hpd_config_reload();
}

static void test_api(void)
{
  CHECK(hpd_set_mem_threshold(0.5) == HPD_SUCCESS && hpd_get_mem_threshold() == 0.5);
  CHECK(hpd_set_mem_threshold(0.0) == HPD_ERR_INVALID && hpd_get_mem_threshold() == 0.5);
  CHECK(hpd_set_mem_threshold(1.01) == HPD_ERR_INVALID && hpd_get_mem_threshold() == 0.5);
  CHECK(hpd_set_report("nonsense") == HPD_ERR_INVALID);
  CHECK(hpd_set_report("summary") == HPD_SUCCESS);
  CHECK(hpd_set_report("off") == HPD_SUCCESS);
  CHECK(hpd_set_disable(5) == HPD_SUCCESS && hpd_get_disable() == 1);
  CHECK(hpd_set_disable(0) == HPD_SUCCESS && hpd_get_disable() == 0);
  CHECK(hpd_set_ngrp(-1) == HPD_ERR_INVALID && hpd_get_ngrp() == 0);
  CHECK(hpd_set_ngrp(8) == HPD_SUCCESS && hpd_get_ngrp() == 8);
  CHECK(hpd_set_kb(-5) == HPD_ERR_INVALID && hpd_get_kb() == 0);
  CHECK(hpd_set_kb(64) == HPD_SUCCESS && hpd_get_kb() == 64);
  hpd_set_ngrp(0);
  hpd_set_kb(0);
  CHECK(hpd_get_bcast() == HPD_BCAST_PIPELINE && hpd_get_wait() == HPD_DEFAULT_WAIT);
  CHECK(hpd_set_bcast(HPD_BCAST_MPI) == HPD_SUCCESS && hpd_get_bcast() == HPD_BCAST_MPI);
  CHECK(hpd_set_bcast((hpd_bcast_algorithm)3) == HPD_ERR_INVALID &&
        hpd_get_bcast() == HPD_BCAST_MPI);
  CHECK(hpd_set_chunk(HPD_CHUNK_MAX + 1) == HPD_ERR_INVALID && hpd_get_chunk() == 0);
  CHECK(hpd_set_chunk(12345) == HPD_SUCCESS && hpd_get_chunk() == 12345);
  CHECK(hpd_set_wait((hpd_wait_policy)-1) == HPD_ERR_INVALID);
  CHECK(hpd_set_wait(HPD_WAIT_SPIN) == HPD_SUCCESS && hpd_get_wait() == HPD_WAIT_SPIN);
  hpd_config cfg;
  CHECK(hpd_set_tune_file("/tmp/t") == HPD_SUCCESS);
  hpd_get_config(&cfg);
  CHECK(strcmp(cfg.tune_file, "/tmp/t") == 0);
  CHECK(hpd_set_tune_file(NULL) == HPD_SUCCESS);
  hpd_get_config(&cfg);
  CHECK(cfg.tune_file[0] == '\0');
  hpd_set_bcast(HPD_BCAST_PIPELINE);
  hpd_set_chunk(0);
  hpd_set_wait(HPD_DEFAULT_WAIT);
  CHECK(hpd_get_dispatch() == HPD_DISPATCH_AUTO);
  CHECK(hpd_set_dispatch((hpd_dispatch)2) == HPD_ERR_INVALID);
  CHECK(hpd_set_dispatch(HPD_DISPATCH_ENGINE) == HPD_SUCCESS &&
        hpd_get_dispatch() == HPD_DISPATCH_ENGINE);
  hpd_set_dispatch(HPD_DISPATCH_AUTO);
  /* An API override survives nothing but an explicit reload: the environment is read once. */
  setenv("HPD_MEM_THRESHOLD", "0.9", 1);
  CHECK(hpd_get_mem_threshold() == 0.5);
  unsetenv("HPD_MEM_THRESHOLD");
}

static void test_args(void)
{
  char *argv1[] = {"prog", "-n", "100", "-t", "0.3", "-trans", "--report", "x", NULL};
  int argc = 8;
  char **argv = argv1;
  CHECK(hpd_parse_args(&argc, &argv) == HPD_SUCCESS);
  CHECK(argc == 5);
  CHECK(strcmp(argv[1], "-n") == 0 && strcmp(argv[2], "100") == 0);
  CHECK(strcmp(argv[3], "-trans") == 0 && strcmp(argv[4], "x") == 0 && argv[5] == NULL);
  CHECK(hpd_get_mem_threshold() == 0.3);
  hpd_config cfg;
  hpd_get_config(&cfg);
  CHECK(cfg.report == HPD_REPORT_SUMMARY);

  char *argv2[] = {"prog", "-t25%", "--threshold=0.125", "--", "-t", "0.9", NULL};
  argc = 6;
  argv = argv2;
  CHECK(hpd_parse_args(&argc, &argv) == HPD_SUCCESS);
  CHECK(argc == 4 && strcmp(argv[1], "--") == 0 && strcmp(argv[2], "-t") == 0);
  CHECK(hpd_get_mem_threshold() == 0.125);

  char *argv3[] = {"prog", "-t", "2", "-x", "-t", NULL};
  argc = 5;
  argv = argv3;
  fflush(stderr);
  CHECK(hpd_parse_args(&argc, &argv) == HPD_ERR_INVALID);
  CHECK(argc == 2 && strcmp(argv[1], "-x") == 0);
  CHECK(hpd_get_mem_threshold() == 0.125);

  char *argv4[] = {"prog", "--report=json:", NULL};
  argc = 2;
  argv = argv4;
  CHECK(hpd_parse_args(&argc, &argv) == HPD_ERR_INVALID && argc == 1);
  hpd_set_report("off");
}

/* A caller built against another header: every struct getter refuses a size that is not
 * the library's and writes nothing; the library's own size is served. */
static void test_struct_sizes(void)
{
  hpd_stats stats;
  memset(&stats, 0xA5, sizeof stats);
  CHECK(hpd_get_stats_sized(&stats, sizeof stats - sizeof(uint64_t)) == HPD_ERR_ABI);
  CHECK(stats.routine[0].calls == 0xA5A5A5A5A5A5A5A5ull);
  CHECK(hpd_get_stats_sized(&stats, sizeof stats + 8) == HPD_ERR_ABI);
  CHECK(hpd_get_stats(&stats) == HPD_SUCCESS && stats.routine[0].calls == 0);
  hpd_config config;
  CHECK(hpd_get_config_sized(&config, sizeof config / 2) == HPD_ERR_ABI);
  CHECK(hpd_get_config(&config) == HPD_SUCCESS);
  hpd_dvfs_totals totals;
  CHECK(hpd_get_dvfs_totals_sized(&totals, 1) == HPD_ERR_ABI);
  hpd_dvfs_info info;
  CHECK(hpd_get_dvfs_info_sized(&info, 0) == HPD_ERR_ABI);
  hpd_energy_info energy;
  CHECK(hpd_get_energy_info_sized(&energy, sizeof energy - 1) == HPD_ERR_ABI);
  hpd_energy_sample sample;
  CHECK(hpd_get_energy_sample_sized(&sample, sizeof sample - 8) == HPD_ERR_ABI);
  const hpd_switch_record *records = NULL;
  CHECK(hpd_dvfs_trace_sized(&records, sizeof *records + 4) == 0 && records == NULL);
}

int main(void)
{
  test_fraction();
  test_bool_and_report();
  test_broadcast_values();
  test_dvfs_values();
  test_environment();
  test_api();
  test_args();
  test_struct_sizes();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
