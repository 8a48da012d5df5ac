#!/usr/bin/env bash
# test_factor_driver.sh --mpiexec PATH --driver PATH --np N [--expect-error REGEX]
#                       [--rows "FACTOR:UPLO ..."] [--strategies "S ..."]
#                       [--min-pdgemm-calls K] [--min-pdsyrk-calls K] -- ARGS...
# Without --expect-error: the driver must exit 0 and print exactly one table row for each
# of --rows (default "pdgetrf:- pdpotrf:L pdpotrf:U") under each of --strategies (default
# "none basic daemon overlap auto"), and no other row.  Every row must pass its residual check, carry
# its energy as a positive "modeled" figure, have every pdgemm call that reached hpdaemon
# served by its engine, no switch requests under none, switches and none held back under
# basic, and requests (switches, skipped or held back by the switch rule) under daemon
# (the driver checks their counts against the broadcast steps: check ok).  pdgetrf
# rows must show at least --min-pdgemm-calls (default 1) pdgemm calls per run served by
# the engine, or pdgetrf_ itself served by the engine (on one process row); pdpotrf rows
# either pdpotrf_ itself served by the engine (on any grid of two processes or more) or at
# least --min-pdsyrk-calls (default 0) pdsyrk calls (ScaLAPACK's trailing updates are
# pdsyrk calls; it may call pdgemm not at all).  A factorization served itself must be
# served so on every run (its column: engine calls / calls).
# With --expect-error: the driver must exit 2 and say something matching REGEX on stderr.
set -euo pipefail
mpiexec=mpiexec.mpich driver="" np=2 expect_error=""
rows="pdgetrf:- pdpotrf:L pdpotrf:U" strategies="none basic daemon overlap auto"
min_gemm=1 min_syrk=0
while (($#)); do
  case "$1" in
    --mpiexec) mpiexec=$2; shift 2 ;;
    --driver) driver=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --expect-error) expect_error=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --strategies) strategies=$2; shift 2 ;;
    --min-pdgemm-calls) min_gemm=$2; shift 2 ;;
    --min-pdsyrk-calls) min_syrk=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "test_factor_driver.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -x "$driver" ]] || { echo "FAIL: --driver must name the factor_driver program" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
"$mpiexec" -n "$np" "$driver" "$@" >"$work/out" 2>"$work/err" || status=$?
cat "$work/out"
cat "$work/err" >&2
fail() { echo "FAIL: $*" >&2; exit 1; }

if [[ -n "$expect_error" ]]; then
  ((status == 2)) || fail "a bad option gave exit status $status, expected 2"
  grep -Eq -- "$expect_error" "$work/err" || fail "no message matching '$expect_error' on stderr"
  echo "ok: exit status 2 with a clear message"
  exit 0
fi

((status == 0)) || fail "exit status $status"
grep -q '^# energy: modeled' "$work/out" || fail "the header does not say the energy is modeled"
# Columns: factor uplo strategy time_s pdgemm pdsyrk factor switches skipped held energy_J
#          source resid_I resid_1 check
row_re='^pdgetrf|^pdpotrf'
all_rows=$(grep -Ec "$row_re" "$work/out" || true)
expected=0
for r in $rows; do
  factor=${r%%:*} uplo=${r#*:}
  for s in $strategies; do
    expected=$((expected + 1))
    line=$(awk -v f="$factor" -v u="$uplo" -v s="$s" '$1 == f && $2 == u && $3 == s' "$work/out")
    count=$(printf '%s' "$line" | grep -c . || true)
    ((count == 1)) || fail "expected one row '$factor $uplo $s', found $count"
    read -r _ _ _ _ gemm syrk own switches skipped held energy source resid_i resid_1 check \
      <<<"$line"
    what="$factor $uplo $s"
    [[ $check == ok ]] || fail "$what: check says $check (resid_I $resid_i, resid_1 $resid_1)"
    [[ $source == modeled ]] || fail "$what: energy labelled '$source', not modeled"
    awk -v e="$energy" 'BEGIN { exit !(e + 0 > 0) }' || fail "$what: energy '$energy' is not positive"
    gemm_engine=${gemm%/*} gemm_calls=${gemm#*/}
    ((gemm_engine == gemm_calls)) ||
      fail "$what: the engine served $gemm_engine of $gemm_calls pdgemm calls per run"
    own_engine=${own%/*} own_calls=${own#*/}
    ((own_engine == 0 || own_engine == own_calls)) ||
      fail "$what: the engine served $own_engine of $own_calls $factor calls per run"
    if [[ $factor == pdgetrf ]]; then
      ((own_engine >= 1 || gemm_engine >= min_gemm)) ||
        fail "$what: $gemm_engine pdgemm calls per run served by the engine, expected >= $min_gemm"
    else
      syrk_engine=${syrk%/*}
      ((own_engine >= 1 || syrk_engine >= min_syrk)) ||
        fail "$what: $syrk_engine pdsyrk calls per run served by the engine, expected >= $min_syrk"
    fi
    case $s in
      none) ((switches + skipped + held == 0)) ||
        fail "$what: $switches switches, $skipped skipped, $held held under none" ;;
      basic) ((switches > 0 && held == 0)) ||
        fail "$what: $switches switches, $held held under basic" ;;
      daemon) ((switches + skipped + held > 0)) || fail "$what: no switch requests under daemon" ;;
    esac
  done
done
((all_rows == expected)) || fail "expected $expected table rows, found $all_rows"
grep -Eq '^factor_driver: residuals ok: ' "$work/out" || fail "no 'residuals ok' line"
echo "ok: $expected rows, residuals ok, energy modeled, pdgemm served by the engine" \
     "(pdsyrk: at least $min_syrk per Cholesky run)"
