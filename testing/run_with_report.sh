#!/usr/bin/env bash
# run_with_report.sh [--launcher HPDAEMON_RUN] [--min-calls N] [--max-fallback N]
#                    [--routine NAME] -- COMMAND...
# Runs COMMAND with hpdaemon's JSON report on (through the launcher when given), requires
# its own "N passed, 0 failed" line and exit status 0, then checks the report.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
launcher="" checks=()
while (($#)); do
  case "$1" in
    --launcher) launcher=$2; shift 2 ;;
    --min-calls|--max-fallback|--routine) checks+=("$1" "$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "run_with_report.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
report="$work/report.json"
status=0
if [[ -n "$launcher" ]]; then
  "$launcher" --report="json:$report" -- "$@" >"$work/out.txt" 2>&1 || status=$?
else
  HPD_REPORT="json:$report" "$@" >"$work/out.txt" 2>&1 || status=$?
fi
cat "$work/out.txt"
((status == 0)) || { echo "FAIL: exit status $status" >&2; exit 1; }
grep -Eq '^ *[0-9]+ passed, 0 failed *$' "$work/out.txt" || { echo "FAIL: no clean summary" >&2; exit 1; }
"$here/check_report.sh" "$report" "${checks[@]}"
