#!/usr/bin/env bash
# run.sh [--launcher HPDAEMON_RUN] [--np N] [--keep DIR]
# Runs Debian's CP2K (built on libscalapack-openmpi) on water8.inp twice under Open MPI:
# as installed, then under hpdaemon-run, unmodified.  Prints both run times, compares
# every printed SCF figure and the final energy, and checks hpdaemon's report: pdgemm_
# and pdsyrk_ calls reached hpdaemon and none fell back.  Exit 77 where CP2K is not
# installed (apt-get install cp2k cp2k-data).
#
# Open MPI refuses to start as root without consent: give it yourself
# (OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1) if you run this as root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
launcher=$repo/build-openmpi/hpdaemon-run np=2 keep=""
while (($#)); do
  case "$1" in
    --launcher) launcher=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
cp2k=$(command -v cp2k.psmp || command -v cp2k.popt || true)
[[ -n $cp2k ]] || { echo "SKIPPED: CP2K is not installed (apt-get install cp2k cp2k-data)"; exit 77; }
[[ -x $launcher ]] || { echo "run.sh: no launcher $launcher (bash scripts/build)" >&2; exit 2; }
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[[ -n $keep ]] || trap 'rm -rf "$work"' EXIT
cp "$here/water8.inp" "$work/"
cd "$work"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1

run() { # run NAME [LAUNCHER ARGS...]: the job's wall seconds
  local name=$1 start end
  shift
  start=$(date +%s.%N)
  "$@" mpirun.openmpi -n "$np" -x OMP_NUM_THREADS -x OPENBLAS_NUM_THREADS \
    "$cp2k" -i water8.inp -o "$name.out" >"$name.log" 2>&1 ||
    { cat "$name.log" >&2; echo "FAIL: the $name run failed" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }'
}
echo "CP2K: $cp2k ($(ldd "$cp2k" | grep -o 'libscalapack-[a-z]*\.so[.0-9]*' | head -n 1))"
t_ref=$(run reference)
t_hpd=$(run hpdaemon "$launcher" --report="json:$work/report.json" --)
echo "wall seconds: reference ScaLAPACK $t_ref, with hpdaemon $t_hpd"

fail() { echo "FAIL: $*" >&2; exit 1; }
# The SCF lines without their time column: step, method, mixing, convergence, energy, change.
scf() { awk '$2 ~ /\/Diag\.$|^P_Mix\// { $4 = ""; print }' "$1"; }
[[ -n "$(scf reference.out)" ]] || fail "no SCF lines in the reference output"
if ! diff <(scf reference.out) <(scf hpdaemon.out) >scf.diff; then
  cat scf.diff; fail "the SCF figures differ"
fi
echo "SCF: $(scf reference.out | wc -l) steps, every printed figure identical"
energy() { sed -n 's/.*Total FORCE_EVAL ( QS ) energy \[a\.u\.\]: *//p' "$1"; }
e_ref=$(energy reference.out) e_hpd=$(energy hpdaemon.out)
[[ -n $e_ref && -n $e_hpd ]] || fail "no final energy line"
# CP2K prints the total energy with 18 significant digits, past a double's 16 or 17: the
# last bits differ where a multiply sums its terms in another order.  Judged in units in
# the last place of the reference value.
ulps=$(python3 -c "import math,sys; a,b=map(float,sys.argv[1:]); print(round(abs(a-b)/math.ulp(a)))" "$e_ref" "$e_hpd")
echo "total energy: reference $e_ref, with hpdaemon $e_hpd ($ulps ulp apart)"
((ulps <= 4)) || fail "the energies are $ulps ulp apart"
for routine in pdgemm pdsyrk; do
  "$repo/testing/check_report.sh" "$work/report.json" --routine "$routine" --min-calls 1 \
    --max-fallback 0
done
echo "1 passed, 0 failed"
