/*
 * The PAPI meter: PAPI's rapl component (PACKAGE_ENERGY:PACKAGEn and
 * DRAM_ENERGY:PACKAGEn, nJ) or, failing that, its powercap component
 * (ENERGY_UJ:ZONEn for packages, ENERGY_UJ:ZONEn_SUBZONEm for the sub-zone named "dram",
 * uJ).  Components and events are looked up by name at run time, so a PAPI built
 * without them (Debian's) is only a reason not to use this meter.
 */
#include <stdio.h>

#include "energy/meter.h"

#ifndef HPD_HAVE_PAPI

static hpd_status papi_open(const hpd_settings *cfg, char *why, size_t why_size)
{
  (void)cfg;
  snprintf(why, why_size, "papi: not built with PAPI");
  return HPD_STATUS_UNAVAILABLE;
}

static hpd_status papi_read(hpd_meter_reading *out)
{
  (void)out;
  return HPD_STATUS_UNAVAILABLE;
}

static void papi_close(void)
{
}

#else

#include <ctype.h>
#include <papi.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "energy/wrap.h"

#define MAX_SLOTS 64
/* As for powercap: more than a package or its DRAM draws, so the wrap check warns early. */
#define DEFAULT_MAX_WATTS 500.0
/* rapl gives no range in joules; its 32-bit counters in the finest unit in use (DRAM's
 * 15.3 uJ) turn over every 65.7 kJ, the shortest turn of any domain. */
#define RAPL_TURN_J 65.7e3

/* One (zone, sub-zone) of the component: sub = -1 for a package. */
typedef struct slot {
  int zone, sub;
  int energy, range, power; /* indices in the event set; -1 when absent */
  char name[PAPI_MAX_STR_LEN];
  int dram;
  hpd_wrap_counter counter;
} slot;

static slot slots[MAX_SLOTS];
static int slot_count, event_count;
static int event_set = PAPI_NULL;
static int initialized_here, started;
static int powercap; /* 0: rapl, values in nJ, accumulated by PAPI; 1: powercap, uJ */
static int warned_wrap;
static long long values[3 * MAX_SLOTS];

static slot *slot_for(int zone, int sub)
{
  for (int i = 0; i < slot_count; i++)
    if (slots[i].zone == zone && slots[i].sub == sub)
      return &slots[i];
  if (slot_count == MAX_SLOTS)
    return NULL;
  slot *s = &slots[slot_count++];
  memset(s, 0, sizeof *s);
  s->zone = zone;
  s->sub = sub;
  s->energy = s->range = s->power = -1;
  return s;
}

/* "<PREFIX>ZONE<n>" or "<PREFIX>ZONE<n>_SUBZONE<m>", exactly: 1 and *zone, *sub. */
static int zone_event(const char *base, const char *prefix, int *zone, int *sub)
{
  size_t len = strlen(prefix);
  if (strncmp(base, prefix, len) != 0)
    return 0;
  int end = 0;
  *sub = -1;
  if (sscanf(base + len, "ZONE%d_SUBZONE%d%n", zone, sub, &end) == 2 && !base[len + end])
    return 1;
  end = 0;
  *sub = -1;
  return sscanf(base + len, "ZONE%d%n", zone, &end) == 1 && !base[len + end];
}

/* "<PREFIX>PACKAGE<n>" exactly: 1 and *package. */
static int package_event(const char *base, const char *prefix, int *package)
{
  size_t len = strlen(prefix);
  int end = 0;
  return strncmp(base, prefix, len) == 0 &&
         sscanf(base + len, "PACKAGE%d%n", package, &end) == 1 && !base[len + end];
}

static void trim(char *s)
{
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1]))
    s[--n] = '\0';
}

/* Adds the event to the set at *index; one the set does not take leaves *index at -1,
 * and its slot goes without it (a slot without energy is never read). */
static void add_event(int code, int *index)
{
  if (event_count == 3 * MAX_SLOTS || PAPI_add_event(event_set, code) != PAPI_OK)
    return;
  *index = event_count++;
}

/* Sorts one event of the component into its slot. */
static void classify(int code)
{
  char name[PAPI_MAX_STR_LEN];
  if (PAPI_event_code_to_name(code, name) != PAPI_OK)
    return;
  const char *base = strstr(name, ":::");
  base = base ? base + 3 : name;
  int zone, sub;
  slot *s;
  if (!powercap) {
    if (package_event(base, "PACKAGE_ENERGY:", &zone) && (s = slot_for(zone, -1))) {
      add_event(code, &s->energy);
      snprintf(s->name, sizeof s->name, "package-%d", zone);
    } else if (package_event(base, "DRAM_ENERGY:", &zone) && (s = slot_for(zone, 0))) {
      add_event(code, &s->energy);
      snprintf(s->name, sizeof s->name, "dram");
    }
    return;
  }
  if (zone_event(base, "ENERGY_UJ:", &zone, &sub) && (s = slot_for(zone, sub))) {
    add_event(code, &s->energy);
  } else if (zone_event(base, "MAX_ENERGY_RANGE_UJ:", &zone, &sub) &&
             (s = slot_for(zone, sub))) {
    add_event(code, &s->range);
  } else if (zone_event(base, "MAX_POWER_A_UW:", &zone, &sub) &&
             (s = slot_for(zone, sub))) {
    add_event(code, &s->power);
  } else if (zone_event(base, "NAME:", &zone, &sub) && (s = slot_for(zone, sub))) {
    /* The component keeps a zone's name in the description of its NAME event. */
    PAPI_event_info_t info;
    if (PAPI_get_event_info(code, &info) == PAPI_OK) {
      snprintf(s->name, sizeof s->name, "%.63s", info.long_descr);
      trim(s->name);
    }
  }
}

/* A slot is counted when it has an energy event and is a package (named so, or unnamed)
 * or its DRAM; psys, core and uncore overlap the packages. */
static int counted(slot *s)
{
  if (s->energy < 0)
    return 0;
  s->dram = s->sub >= 0;
  if (s->dram)
    return strcmp(s->name, "dram") == 0;
  /* Without a NAME event a zone is taken for a package: the component's ZONEn are the
   * intel-rapl:n directories, which are packages (psys comes after them). */
  int unnamed = s->name[0] == '\0';
  if (unnamed)
    snprintf(s->name, sizeof s->name, "ZONE%d", s->zone);
  return unnamed || strncmp(s->name, "package", 7) == 0;
}

/* The first component of the two that is there and enabled; why says why neither is. */
static int find_component(char *why, size_t why_size)
{
  static const char *const wanted[] = {"rapl", "powercap"};
  char reasons[2][PAPI_MAX_STR_LEN + 64] = {"", ""};
  int found = 0;
  for (int cid = 0; cid < PAPI_num_components(); cid++) {
    const PAPI_component_info_t *info = PAPI_get_component_info(cid);
    if (!info)
      continue;
    for (int w = 0; w < 2; w++) {
      if (strcmp(info->name, wanted[w]) != 0)
        continue;
      found = 1;
      if (!info->disabled) {
        powercap = w;
        return cid;
      }
      snprintf(reasons[w], sizeof reasons[w], "%s component disabled (%.120s)", wanted[w],
               info->disabled_reason[0] ? info->disabled_reason : "no reason given");
    }
  }
  if (!found)
    snprintf(why, why_size, "papi: this PAPI has neither a rapl nor a powercap component");
  else
    snprintf(why, why_size, "papi: %s%s%s", reasons[0], reasons[0][0] && reasons[1][0]
             ? "; " : "", reasons[1]);
  return -1;
}

static void papi_close(void)
{
  if (started)
    PAPI_stop(event_set, values);
  if (event_set != PAPI_NULL) {
    PAPI_cleanup_eventset(event_set);
    PAPI_destroy_eventset(&event_set);
  }
  if (initialized_here)
    PAPI_shutdown();
  event_set = PAPI_NULL;
  started = initialized_here = 0;
  slot_count = event_count = 0;
}

static hpd_status fail(char *why, size_t why_size, const char *what, int rc)
{
  const char *text = PAPI_strerror(rc);
  snprintf(why, why_size, "papi: %s: %s", what, text ? text : "failed");
  papi_close();
  return HPD_STATUS_UNAVAILABLE;
}

/* PAPI's powercap component reports a counter as it is, not as 0, when it has not moved
 * since PAPI_start; such a first reading is as large as the counter itself.  Waits,
 * 1 ms at a time, until every counter has moved (any active package does so every
 * millisecond).  HPD_OK, or a failure when one stays put. */
static hpd_status settle(double start_s)
{
  for (int attempt = 0; attempt < 20; attempt++) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
    if (PAPI_read(event_set, values) != PAPI_OK)
      return HPD_STATUS_UNAVAILABLE;
    double budget = (hpd_now() - start_s) * DEFAULT_MAX_WATTS * 1e6 + 1e6;
    int plausible = 1;
    for (int i = 0; i < slot_count; i++)
      if (values[slots[i].energy] <= 0 || (double)values[slots[i].energy] > budget)
        plausible = 0;
    if (plausible)
      return HPD_OK;
  }
  return HPD_STATUS_UNAVAILABLE;
}

/* PAPI's energy components read the kernel's powercap tree (powercap) or the MSR device
 * (rapl); without either they cannot count, whatever the build.  Initializing PAPI costs
 * milliseconds (every component probes the machine), which a short job would pay at its
 * first multiply for nothing, so it is done only where one of them could work. */
static int energy_source_present(void)
{
  static const char *const paths[] = {"/sys/class/powercap/intel-rapl", "/dev/cpu/0/msr",
                                      "/dev/cpu/0/msr_safe"};
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
    if (access(paths[i], F_OK) == 0)
      return 1;
  return 0;
}

static hpd_status papi_open(const hpd_settings *cfg, char *why, size_t why_size)
{
  (void)cfg;
  papi_close();
  if (!energy_source_present()) {
    snprintf(why, why_size, "papi: no powercap tree (/sys/class/powercap/intel-rapl) and "
                            "no MSR device (/dev/cpu/0/msr): neither of PAPI's energy "
                            "components could count, so PAPI was not initialized");
    return HPD_STATUS_UNAVAILABLE;
  }
  warned_wrap = 0;
  if (PAPI_is_initialized() == PAPI_NOT_INITED) {
    int rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT)
      return fail(why, why_size, "PAPI_library_init", rc < 0 ? rc : PAPI_EINVAL);
    initialized_here = 1;
  }
  int cid = find_component(why, why_size);
  if (cid < 0) {
    papi_close();
    return HPD_STATUS_UNAVAILABLE;
  }
  int rc = PAPI_create_eventset(&event_set);
  if (rc != PAPI_OK)
    return fail(why, why_size, "PAPI_create_eventset", rc);
  int code = PAPI_NATIVE_MASK;
  for (rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cid); rc == PAPI_OK;
       rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cid))
    classify(code);
  /* Keep the counted slots only. */
  int kept = 0, packages = 0;
  for (int i = 0; i < slot_count; i++)
    if (counted(&slots[i])) {
      packages += !slots[i].dram;
      slots[kept++] = slots[i];
    }
  slot_count = kept;
  if (packages == 0) {
    snprintf(why, why_size, "papi: the %s component has no package energy event",
             powercap ? "powercap" : "rapl");
    papi_close();
    return HPD_STATUS_UNAVAILABLE;
  }
  double start_s = hpd_now();
  if ((rc = PAPI_start(event_set)) != PAPI_OK)
    return fail(why, why_size, "PAPI_start", rc);
  started = 1;
  if (powercap ? settle(start_s) : PAPI_read(event_set, values)) {
    snprintf(why, why_size, "papi: the %s component's energy counters cannot be read",
             powercap ? "powercap" : "rapl");
    papi_close();
    return HPD_STATUS_UNAVAILABLE;
  }
  double now_s = hpd_now();
  for (int i = 0; i < slot_count; i++) {
    slot *s = &slots[i];
    double watts = s->power >= 0 && values[s->power] > 0 ? values[s->power] * 1e-6
                                                          : DEFAULT_MAX_WATTS;
    /* powercap's readings are modulo the zone's range, like energy_uj; rapl's are
     * already accumulated over 64 bits, in nJ, so only the check uses a range. */
    uint64_t range = powercap ? (s->range >= 0 && values[s->range] > 0
                                     ? (uint64_t)values[s->range] : (uint64_t)UINT32_MAX)
                              : (uint64_t)(RAPL_TURN_J * 1e9);
    hpd_wrap_init(&s->counter, range, watts * (powercap ? 1e6 : 1e9),
                  (uint64_t)values[s->energy], now_s);
  }
  return HPD_OK;
}

static hpd_status papi_read(hpd_meter_reading *out)
{
  if (!started || PAPI_read(event_set, values) != PAPI_OK)
    return HPD_STATUS_UNAVAILABLE;
  /* rapl's totals never decrease; one that does cannot be trusted. */
  for (int i = 0; i < slot_count && !powercap; i++)
    if ((uint64_t)values[slots[i].energy] < slots[i].counter.last)
      return HPD_STATUS_UNAVAILABLE;
  double now_s = hpd_now();
  uint64_t package = 0, dram = 0;
  for (int i = 0; i < slot_count; i++) {
    slot *s = &slots[i];
    double gap = now_s - s->counter.last_s;
    uint64_t v = (uint64_t)values[s->energy];
    int ambiguous;
    if (powercap) {
      ambiguous = hpd_wrap_advance(&s->counter, v, now_s);
    } else {
      ambiguous = gap * s->counter.max_rate >= (double)s->counter.range;
      s->counter.total += v - s->counter.last;
      s->counter.last = v;
      s->counter.last_s = now_s;
    }
    if (ambiguous && !warned_wrap) {
      warned_wrap = 1;
      hpd_warn("papi: %.3g s between two readings of %s: its counter may have wrapped "
               "more than once, and energy be undercounted", gap, s->name);
    }
    if (s->dram)
      dram += s->counter.total;
    else
      package += s->counter.total;
  }
  double unit = powercap ? 1e6 : 1e9;
  out->package_j = (double)package / unit;
  out->dram_j = (double)dram / unit;
  return HPD_OK;
}

#endif

const hpd_meter hpd_meter_papi = {HPD_ENERGY_PAPI, HPD_SOURCE_MEASURED, papi_open, papi_read,
                                  papi_close};
