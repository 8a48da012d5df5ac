#!/usr/bin/env bash
# run_stock.sh --launcher HPDAEMON_RUN [--mpiexec PATH] --np N --kind pblas|lapack --bin TESTER
#              --dat FILE...
#              [--routine NAME --min-calls N --max-fallback N --min-engine N --max-direct N]...
#              [--rows PDGEMM,PDSYRK] [--cluster PATH --hosts K --ranks-per-host R]
# Runs one of Debian's stock ScaLAPACK testers, unmodified, with hpdaemon preloaded by the
# launcher under --mpiexec (default mpiexec.mpich; mpiexec.openmpi for the Open MPI
# testers), then judges it by the tester's own summary and by hpdaemon's report.  With
# --cluster the ranks run across K emulated hosts (scripts/cluster, 1 Gbit/s links), R on
# each, instead of --np on this one; exit 77 (skipped) where hosts cannot be emulated.  Each
# --routine starts the report checks (check_report.sh) of one routine; --min-calls,
# --max-fallback and --min-engine before any --routine apply to pdgemm.  --rows names the PBLAS summary
# rows that must have run and all passed (default PDGEMM).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
launcher="" mpiexec=mpiexec.mpich np=2 kind="" bin="" dats=() rows_required=PDGEMM cluster="" hosts=2 per_host=1
routines=(pdgemm) current=pdgemm
declare -A report_checks=([pdgemm]="")
while (($#)); do
  case "$1" in
    --launcher) launcher=$2; shift 2 ;;
    --mpiexec) mpiexec=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --kind) kind=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --dat) dats+=("$2"); shift 2 ;;
    --routine)
      current=$2
      [[ -v "report_checks[$current]" ]] || { routines+=("$current"); report_checks[$current]=""; }
      shift 2 ;;
    --min-calls|--max-fallback|--min-engine|--max-direct) report_checks[$current]+=" $1 $2"; shift 2 ;;
    --rows) rows_required=$2; shift 2 ;;
    --cluster) cluster=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --ranks-per-host) per_host=$2; shift 2 ;;
    *) echo "run_stock.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -x "$bin" ]] || { echo "FAIL: tester $bin is not installed (scalapack-mpi-test)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "${dats[@]}" "$work/"
cd "$work"
if [[ -n $cluster ]]; then
  ranks=("$cluster" --hosts "$hosts" --ranks-per-host "$per_host" --rate 1gbit --)
else
  ranks=("$mpiexec" -n "$np")
fi
status=0
"$launcher" --report="json:$work/report.json" -- "${ranks[@]}" "$bin" >out.txt 2>&1 || status=$?
grep -v "floating-point exceptions are signalling" out.txt | tail -n 25
if [[ -n $cluster ]] && ((status == 77)); then echo "SKIPPED: no emulated hosts here"; exit 77; fi
((status == 0)) || { echo "FAIL: the tester exited with status $status" >&2; exit 1; }

fail() { echo "FAIL: $*" >&2; exit 1; }
case "$kind" in
  pblas)
    grep -q "Error-exit tests completed" out.txt || fail "no error-exit test completion line"
    grep -q "End of Tests" out.txt || fail "no end-of-tests line: the summary is missing"
    # Summary rows: "|  PDGEMM   16   16   0   0" = routine, total, passed, failed, skipped.
    rows=$(grep -E '^ *\| +PD[A-Z0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+' out.txt || true)
    [[ -n "$rows" ]] || fail "no summary rows"
    while read -r _ name total pass failed _; do
      ((failed == 0)) || fail "$name: $failed of $total tests failed"
    done <<<"$rows"
    for name in ${rows_required//,/ }; do
      read -r _ _ total pass _ < <(grep -E "^ *\| +$name " <<<"$rows") || fail "no $name row"
      ((total > 0 && pass == total)) || fail "$name: $pass of $total passed"
      echo "stock tester: $name $pass of $total passed"
    done
    echo "stock tester: every routine 0 failed"
    ;;
  lapack)
    grep -q "END OF TESTS" out.txt || fail "no END OF TESTS line: the summary is missing"
    passed=$(sed -n 's/^ *\([0-9]*\) tests completed and passed residual checks.*/\1/p' out.txt)
    failed=$(sed -n 's/^ *\([0-9]*\) tests completed and failed residual checks.*/\1/p' out.txt)
    [[ -n "$passed" && -n "$failed" ]] || fail "no residual-check summary"
    ((failed == 0)) || fail "$failed tests failed their residual checks"
    ((passed > 0)) || fail "no test passed"
    echo "stock tester: $passed passed, $failed failed residual checks"
    ;;
  *) fail "unknown --kind '$kind'" ;;
esac
for routine in "${routines[@]}"; do
  # shellcheck disable=SC2086 # the checks are words on purpose
  "$here/check_report.sh" "$work/report.json" --routine "$routine" ${report_checks[$routine]}
done
