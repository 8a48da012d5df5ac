#!/usr/bin/env bash
# test_energy_driver.sh --mpiexec PATH --driver PATH --np N [--expect-error REGEX]
#                       [--powercap readable|unreadable] -- ARGS...
# Without --expect-error: the driver must exit 0, print the fifteen rows (pdgemm, pdgetrf
# and pdpotrf under none, basic, daemon, overlap and auto), label their energy with its source and report the
# identities ok.  With it: the driver must exit non-zero and say something matching REGEX
# on stderr.
# --powercap builds a fake powercap tree and runs with HPD_ENERGY=powercap on it: readable
# must give measured figures and no energy warning; unreadable (energy_uj is a directory,
# as a file the kernel refuses to read looks to the reader) must give one warning and
# modeled figures.  Without it the rows must say modeled.
set -euo pipefail
mpiexec=mpiexec.mpich driver="" np=2 expect_error="" powercap=""
while (($#)); do
  case "$1" in
    --mpiexec) mpiexec=$2; shift 2 ;;
    --driver) driver=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --expect-error) expect_error=$2; shift 2 ;;
    --powercap) powercap=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "test_energy_driver.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -x "$driver" ]] || { echo "FAIL: --driver must name the energy_driver program" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source=modeled
if [[ -n "$powercap" ]]; then
  zone=$work/powercap/intel-rapl:0
  mkdir -p "$zone"
  echo package-0 >"$zone/name"
  echo 262143328850 >"$zone/max_energy_range_uj"
  case "$powercap" in
    readable) echo 1000000 >"$zone/energy_uj"; source=measured ;;
    unreadable) mkdir "$zone/energy_uj" ;;
    *) echo "test_energy_driver.sh: --powercap readable|unreadable" >&2; exit 2 ;;
  esac
  export HPD_ENERGY=powercap HPD_POWERCAP_ROOT=$work/powercap
fi
status=0
"$mpiexec" -n "$np" "$driver" "$@" >"$work/out" 2>"$work/err" || status=$?
cat "$work/out"
cat "$work/err" >&2
fail() { echo "FAIL: $*" >&2; exit 1; }

if [[ -n "$expect_error" ]]; then
  ((status != 0)) || fail "a bad option was accepted (exit status 0)"
  grep -Eq -- "$expect_error" "$work/err" || fail "no message matching '$expect_error' on stderr"
  echo "ok: exit status $status with a clear message"
  exit 0
fi

((status == 0)) || fail "exit status $status"
row='^(pdgemm|pdgetrf|pdpotrf) +(none|basic|daemon|overlap|auto) +[0-9]'
rows=$(grep -Ec "$row" "$work/out" || true)
((rows == 15)) || fail "expected 15 table rows, found $rows"
# Every row's energy must carry its source.
labelled=$(grep -E "$row" "$work/out" | grep -c " $source " || true)
((labelled == 15)) || fail "expected 15 rows labelled $source, found $labelled"
warnings=$(grep -c 'energy: no meter could be read on every node' "$work/err" || true)
if [[ "$powercap" == unreadable ]]; then
  ((warnings == 1)) || fail "expected one warning that the meter could not be read, found $warnings"
  grep -q 'energy_uj' "$work/err" || fail "the warning does not name the file it could not read"
else
  ((warnings == 0)) || fail "an energy warning where none was due"
fi
grep -Eq '^energy_driver: identities ok \([1-9][0-9]* calls checked\)$' "$work/out" ||
  fail "the identities line does not say ok"
echo "ok: 15 rows, $source, identities ok"
