#!/usr/bin/env bash
# ScaLAPACK's LU (pdgetrf) and Cholesky (pdpotrf) with hpdaemon underneath against
# reference ScaLAPACK, in the same run: one CSV, the table, and the target line per row.
# Usage and columns: timing/README.md ("Factorizations").
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")

orders=4096
blocks=32,64
grid=1x2
reps=9
factors=both
uplo=L
strategies=""
out_dir=./timing-results
build_dir=${HPD_BUILD_DIR:-}
extra=()

usage() {
  cat <<EOF
usage: timing/run_factor.sh [options] [-- hpdaemon options for bench_factor]
  --quick               smoke test: N=1024, 6 timed factorizations per side
  -n N[,N...]           matrix orders (default $orders)
  -b NB[,NB...]         block sizes (default $blocks)
  -g PxQ                grid (default $grid)
  -r REPS               timed factorizations per side (default $reps)
  -f lu|chol|both       factorizations (default $factors)
  -u L|U                Cholesky's triangle (default $uplo)
  -s STRATEGY           none, basic, daemon or all (default: HPD_STRATEGY, else daemon)
  -o DIR                where the CSV file and the log go (default $out_dir)
  -B DIR                build directory holding timing/bench_factor (default: \$HPD_BUILD_DIR,
                        the current directory if it is one, else $repo_dir/build)
HPD_DVFS defaults to sim here (switches recorded, no frequency written); set it to run
on a real backend.
EOF
}

die() { echo "run_factor.sh: $*" >&2; exit 2; }

while (($#)); do
  case $1 in
    --quick) orders=1024; reps=6 ;;
    -n) orders=${2:?-n needs a value}; shift ;;
    -b) blocks=${2:?-b needs a value}; shift ;;
    -g) grid=${2:?-g needs a value}; shift ;;
    -r) reps=${2:?-r needs a value}; shift ;;
    -f) factors=${2:?-f needs a value}; shift ;;
    -u) uplo=${2:?-u needs a value}; shift ;;
    -s) strategies=${2:?-s needs a value}; shift ;;
    -o) out_dir=${2:?-o needs a value}; shift ;;
    -B) build_dir=${2:?-B needs a value}; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done

if [[ -z $build_dir ]]; then
  if [[ -x ./timing/bench_factor ]]; then build_dir=.; else build_dir=$repo_dir/build; fi
fi
bench_factor=$build_dir/timing/bench_factor
[[ -x $bench_factor ]] ||
  die "$bench_factor not found: build first (cmake -S $repo_dir -B $build_dir && cmake --build $build_dir)"
[[ $grid =~ ^([0-9]+)x([0-9]+)$ ]] || die "bad grid '$grid': expected PxQ"
p=${BASH_REMATCH[1]} q=${BASH_REMATCH[2]}
# The plain launcher name belongs to another MPI here; ScaLAPACK and hpdaemon use MPICH.
launcher=$(command -v mpiexec.mpich) || die "mpiexec.mpich not found"

# Both sides must run the same BLAS kernels.  The default kernels on AVX-512 machines are
# the slower AVX2 ones, so AVX-512 is chosen unless the caller chose something.
source "$script_dir/blas_kernels.sh"
env_args=(-genv OPENBLAS_NUM_THREADS 1 -genv HPD_DVFS "${HPD_DVFS:-sim}")
[[ -n ${OPENBLAS_CORETYPE:-} ]] && env_args+=(-genv OPENBLAS_CORETYPE "$OPENBLAS_CORETYPE")
bench_args=(-p "$p" -q "$q" -n "$orders" -b "$blocks" -r "$reps" -f "$factors" -u "$uplo")
[[ -n $strategies ]] && bench_args+=(-s "$strategies")

mkdir -p "$out_dir"
csv=$out_dir/factor.csv
log=$out_dir/factor-${grid}.log
rm -f "$csv"  # the CSV describes one run
echo "run_factor.sh: N=$orders NB=$blocks grid=$grid reps=$reps factors=$factors uplo=$uplo," \
     "HPD_DVFS=${HPD_DVFS:-sim}, OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-<unset>}," \
     "$(nproc) cores, results in $out_dir" >&2

status=0
"$launcher" -n $((p * q)) "${env_args[@]}" "$bench_factor" "${bench_args[@]}" --csv "$csv" \
  "${extra[@]}" | tee "$log" || status=$?
[[ -s $csv ]] || die "no rows (log: $log)"

# ---- the target: hpdaemon never slower than the reference ------------------------------
# The machine's noise moves a single median by several percent either way, so the verdict
# reads the median's confidence interval too: PASS when the median ratio is at least 1.0,
# PASS within noise when it is below but the interval still holds 1.0 (no slowdown the
# run can tell from chance), FAIL when the whole interval lies below 1.0.
echo
awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  {
    ratio = $col["ratio_ref_over_hpd"]  # the median ratio of back-to-back pairs
    lo = $col["ratio_ci_lo"]; hi = $col["ratio_ci_hi"]; level = $col["ratio_ci_level"]
    if (ratio >= 1.0) verdict = "PASS"
    else if (level == 0) verdict = "FAIL (too few pairs for an interval: -r 6 or more)"
    else if (hi >= 1.0) verdict = "PASS within noise"
    else verdict = "FAIL"
    interval = level > 0 ? sprintf("%.0f%% interval %.3f..%.3f", 100 * level, lo, hi) : "no interval"
    printf "target %s %s N=%d NB=%-3d %s: ref/hpd %.3f (%s) >= 1.0: %s (ref %.3f..%.3f s, hpd %.3f..%.3f s)\n",
           $col["factor"], $col["uplo"], $col["n"], $col["nb"], $col["strategy"], ratio, interval,
           verdict, $col["ref_min_s"], $col["ref_max_s"], $col["hpd_min_s"], $col["hpd_max_s"]
  }' "$csv"
echo
echo "CSV: $csv (log: $log)"
((status == 0)) || die "bench_factor exited with status $status: a residual check failed"
