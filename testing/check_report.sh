#!/usr/bin/env bash
# check_report.sh REPORT.json [--min-calls N] [--max-fallback N] [--min-engine N]
#                 [--routine NAME]
# Asserts on hpdaemon's JSON report; prints what it read.
set -euo pipefail
report=$1; shift
min_calls=0 max_fallback=-1 min_engine=0 routine=pdgemm
while (($#)); do
  case "$1" in
    --min-calls) min_calls=$2; shift 2 ;;
    --max-fallback) max_fallback=$2; shift 2 ;;
    --min-engine) min_engine=$2; shift 2 ;;
    --routine) routine=$2; shift 2 ;;
    *) echo "check_report.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -s "$report" ]] || { echo "FAIL: no hpdaemon report at $report" >&2; exit 1; }
line=$(grep -o "\"$routine\": {[^}]*}[^}]*}" "$report" || true)
[[ -n "$line" ]] || { echo "FAIL: no $routine entry in $report" >&2; exit 1; }
field() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" <<<"$line"; }
calls=$(field calls) engine=$(field engine_calls) fallback=$(field fallback_calls)
direct=$(field direct_calls)
rejected=$(field rejected_calls)
reasons=$(grep -o '"fallback_reasons": {[^}]*}' <<<"$line")
bcasts=$(field bcast_count)
echo "hpdaemon report: $routine calls=$calls engine=$engine direct=${direct:-missing}" \
  "fallback=$fallback" \
  "rejected=$rejected $reasons broadcasts=${bcasts:-missing}"
[[ -n "$bcasts" ]] || { echo "FAIL: no bcast_count in the $routine entry" >&2; exit 1; }
((calls >= min_calls)) || { echo "FAIL: $calls $routine calls, expected at least $min_calls" >&2; exit 1; }
[[ -n "$direct" ]] || { echo "FAIL: no direct_calls in the $routine entry" >&2; exit 1; }
((engine + direct + fallback + rejected == calls)) ||
  { echo "FAIL: engine + direct + fallback + rejected != calls" >&2; exit 1; }
((engine >= min_engine)) ||
  { echo "FAIL: $engine $routine calls served by the engine, expected at least $min_engine" >&2; exit 1; }
if ((max_fallback >= 0 && fallback > max_fallback)); then
  echo "FAIL: $fallback fallbacks, at most $max_fallback allowed" >&2
  exit 1
fi
