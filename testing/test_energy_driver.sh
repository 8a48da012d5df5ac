#!/usr/bin/env bash
# test_energy_driver.sh --mpiexec PATH --driver PATH --np N [--expect-error REGEX] -- ARGS...
# Without --expect-error: the driver must exit 0, print the six rows (pdgemm and pdgetrf
# under none, basic and daemon), label its energy "modeled" and report the identities ok.
# With it: the driver must exit non-zero and say something matching REGEX on stderr.
set -euo pipefail
mpiexec=mpiexec.mpich driver="" np=2 expect_error=""
while (($#)); do
  case "$1" in
    --mpiexec) mpiexec=$2; shift 2 ;;
    --driver) driver=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --expect-error) expect_error=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "test_energy_driver.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -x "$driver" ]] || { echo "FAIL: --driver must name the energy_driver program" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
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
row='^(pdgemm|pdgetrf) +(none|basic|daemon) +[0-9]'
rows=$(grep -Ec "$row" "$work/out" || true)
((rows == 6)) || fail "expected 6 table rows, found $rows"
# Every row's energy must carry its source, and here it is the model.
modeled=$(grep -E "$row" "$work/out" | grep -c ' modeled ' || true)
((modeled == 6)) || fail "expected 6 rows labelled modeled, found $modeled"
grep -Eq '^energy_driver: identities ok \([1-9][0-9]* calls checked\)$' "$work/out" ||
  fail "the identities line does not say ok"
echo "ok: 6 rows, modeled, identities ok"
