#!/usr/bin/env bash
# check_report.sh REPORT.json [--min-calls N] [--max-fallback N] [--min-engine N]
#                 [--max-direct N] [--routine NAME]
# Asserts on hpdaemon's JSON report; prints what it read.  The counts are rank 0's; where
# the report gathered every rank's figures (its job section), --max-fallback holds for the
# whole job too, so a fallback on any rank fails.
set -euo pipefail
report=$1; shift
min_calls=0 max_fallback=-1 min_engine=0 max_direct=-1 routine=pdgemm
while (($#)); do
  case "$1" in
    --min-calls) min_calls=$2; shift 2 ;;
    --max-fallback) max_fallback=$2; shift 2 ;;
    --min-engine) min_engine=$2; shift 2 ;;
    --max-direct) max_direct=$2; shift 2 ;;
    --routine) routine=$2; shift 2 ;;
    *) echo "check_report.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -s "$report" ]] || { echo "FAIL: no hpdaemon report at $report" >&2; exit 1; }
exec python3 - "$report" "$routine" "$min_calls" "$max_fallback" "$min_engine" "$max_direct" <<'PY'
import json, sys
path, routine = sys.argv[1], sys.argv[2]
min_calls, max_fallback, min_engine, max_direct = map(int, sys.argv[3:7])
def fail(why):
    print("FAIL:", why, file=sys.stderr)
    sys.exit(1)
try:
    report = json.load(open(path))
except ValueError as e:
    fail(f"{path} is not valid JSON: {e}")
r = report.get("routines", {}).get(routine)
if r is None:
    fail(f"no {routine} entry in {path}")
for key in ("calls", "engine_calls", "direct_calls", "fallback_calls", "rejected_calls",
            "bcast_count", "fallback_reasons"):
    if key not in r:
        fail(f"no {key} in the {routine} entry")
calls, engine, direct = r["calls"], r["engine_calls"], r["direct_calls"]
fallback, rejected = r["fallback_calls"], r["rejected_calls"]
reasons = " ".join(f"{k}={v}" for k, v in r["fallback_reasons"].items())
print(f"hpdaemon report: {routine} calls={calls} engine={engine} direct={direct} "
      f"fallback={fallback} rejected={rejected} ({reasons}) broadcasts={r['bcast_count']}")
if calls < min_calls:
    fail(f"{calls} {routine} calls, expected at least {min_calls}")
if engine + direct + fallback + rejected != calls:
    fail("engine + direct + fallback + rejected != calls")
if engine < min_engine:
    fail(f"{engine} {routine} calls served by the engine, expected at least {min_engine}")
if 0 <= max_fallback < fallback:
    fail(f"{fallback} fallbacks, at most {max_fallback} allowed")
if 0 <= max_direct < direct:
    fail(f"{direct} calls sent past the engine (direct), at most {max_direct} allowed")
costs = report.get("costs")
if not isinstance(costs, dict) or set(costs) != {"setup", "tuning", "agreement", "buffers"}:
    fail(f"no costs section with setup, tuning, agreement and buffers in {path}")
if engine and costs["setup"]["count"] < 1:
    fail("the engine served calls, but no grid set-up was counted among the costs")
job = report.get("job", {})
if job.get("gathered"):
    mine = job["routines"][routine]
    total = {k: int(mine[k]["sum"]) for k in ("calls", "engine_calls", "fallback_calls")}
    print(f"hpdaemon report: every rank ({job['ranks']} on {job['nodes']} nodes): {routine} "
          f"calls={total['calls']} engine={total['engine_calls']} "
          f"fallback={total['fallback_calls']}")
    if 0 <= max_fallback < total["fallback_calls"]:
        fail(f"{total['fallback_calls']} fallbacks over all ranks, at most {max_fallback} allowed")
PY
